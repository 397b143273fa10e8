// SPDX-License-Identifier: Apache-2.0
// `capops-lint schema --format json-schema [-o FILE] [PATH…]`: the fact
// schema of a rule set as a JSON Schema (report/json_schema.h), for the
// YAML language server's completion and validation and for ajv in CI.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace capops::cli {

struct SchemaOptions {
  std::vector<std::string> policies;   // files or directories; default: the shipped pack
  std::string output;                  // a file; empty: stdout
  std::string format = "json-schema";  // the only one so far
};

/// Exit 0, or 2 when the policies do not compile or FILE cannot be written.
int RunSchema(const SchemaOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
