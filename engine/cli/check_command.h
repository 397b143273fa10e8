// `capops-lint [options] PLAN…`: lint plan files against policy packs.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "engine/api/engine.h"
#include "engine/common/diagnostic.h"

namespace capops::cli {

enum class Format { kText, kShort, kJson };

struct CheckOptions {
  std::vector<std::string> policies;     // files or directories; default: the shipped pack
  std::vector<std::string> inventories;  // default: inventory.yaml beside each plan
  std::vector<std::string> plans;
  Format format = Format::kText;
  bool explain = false;
  bool color = false;
  Severity fail_on = Severity::kError;
  EngineOptions engine;  // limits on inputs and evaluation
};

/// Runs the check and returns the exit code (driver.h).
int RunCheck(const CheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
