// `capops-lint [options] PLAN…`: lint plan files against policy packs.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "engine/api/engine.h"
#include "engine/lint/fail_on.h"
#include "engine/common/diagnostic.h"

namespace capops::cli {

enum class Format { kText, kShort, kJson, kSarif, kJunit, kGithub };

struct CheckOptions {
  std::vector<std::string> policies;     // files or directories; default: the shipped pack
  std::vector<std::string> inventories;  // default: inventory.yaml beside each plan
  std::vector<std::string> plans;        // files, directories or globs; default: the config's
  Format format = Format::kText;
  bool explain = false;
  bool color = false;
  std::optional<lint::FailOn> fail_on;         // default: the config's, else error
  std::string config;                    // --config; empty: look for .capops.yaml upwards
  bool no_config = false;                // --no-config
  std::string waivers;                   // default: the config's
  std::string baseline;                  // default: the config's
  std::string write_baseline;            // record the findings there, then report only new ones
  std::string output;                    // write the report there instead of to `out`
  std::string cache;                     // --cache[=DIR]: reuse findings of unchanged plans; empty: off
  bool allow_empty = false;              // --allow-empty: a run with no plan or no rule is not an error
  EngineOptions engine;  // limits on inputs and evaluation
};

/// Runs the check and returns the exit code (driver.h).
int RunCheck(const CheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
