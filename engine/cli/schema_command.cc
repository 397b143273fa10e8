// SPDX-License-Identifier: Apache-2.0
// The schema command: the fact schema as a JSON Schema.
#include "engine/cli/schema_command.h"

#include "engine/api/engine.h"
#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/report/json_schema.h"
#include "engine/workspace/output_file.h"
#include "engine/workspace/policy_loader.h"
#include "engine/workspace/same_file.h"

namespace capops::cli {

int RunSchema(const SchemaOptions& options, std::ostream& out, std::ostream& err) {
  Engine engine;
  std::string error;
  if (!LoadPack(options.policies, false, &engine, err)) return kExitUsage;
  std::string text = report::FactJsonSchema(engine);
  if (options.output.empty()) {
    out << text;
    return kExitClean;
  }
  // Never over a policy it was read from (`-o stdlib/schema.cpl`).
  std::vector<std::string> inputs;
  for (FileId id = 0; id < engine.sources().size(); ++id)
    inputs.emplace_back(engine.sources().Path(id));
  if (workspace::IsSameFileAsAny(workspace::DiskFileSystem(), options.output, inputs, &error))
    return Fail(err, error);
  if (!workspace::WriteFileAtomically(options.output, text, &error)) return Fail(err, error);
  return kExitClean;
}

}  // namespace capops::cli
