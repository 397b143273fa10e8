// SPDX-License-Identifier: Apache-2.0
// `capops-lint init [DIR]`: a plan and an inventory to start from.
//
// Writes DIR/plan.yaml, DIR/inventory.yaml and DIR/capops.schema.json (the
// JSON Schema both name in their `yaml-language-server` modeline). The
// facts are the shipped clean scenario (examples/visual-inspection/clean:
// one slice of each kind, supply that backs every allocation), re-written
// with yaml-cpp's emitter so that every field carries its schema doc
// comment the first time it appears; the decision record is left for the
// planner to finish, and the plan's header says which finding that gives
// (CAP-GOV-001) until they do. Refuses to write when any of the three files
// exists, and writes none then.
#pragma once

#include <ostream>
#include <string>

namespace capops::cli {

struct InitOptions {
  std::string dir = ".";
};

/// Exit 0, or 2 when a file exists or cannot be written (driver.h).
int RunInit(const InitOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
