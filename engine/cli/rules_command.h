// `capops-lint rules [--digest] [--canonical] [--format text|json|markdown] [PATH…]`:
// the rule catalogue of policy packs — id, name, severity, owner, tags,
// source, where it is defined and the params it reads with their values —
// or, with --digest, only the ruleset digest (the one every JSON and SARIF
// report carries), or with --canonical the text that digest hashes.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace capops::cli {

struct RulesOptions {
  std::vector<std::string> policies;  // files or directories; default: the shipped pack
  bool digest = false;
  bool canonical = false;
  std::string format = "text";  // text, json or markdown
};

/// Exit 0, or 2 when the policies do not compile (driver.h).
int RunRules(const RulesOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
