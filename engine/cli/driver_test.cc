// SPDX-License-Identifier: Apache-2.0
#include "engine/cli/driver.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "tests/support/paths.h"
#include "tests/support/run_cli.h"
#include "tests/support/temp_dir.h"

namespace capops::cli {
namespace {

using RunResult = testing::CliResult;
// capops-lint in-process from the source tree, like a user would run it.
constexpr auto& Lint = testing::RunCli;

const std::string kExample = capops::testing::SourceDir() + "/examples/visual-inspection/";

TEST_CASE("the example plan breaks the three rules and exits 1", "[cli]") {
  RunResult r = Lint({kExample + "plan.yaml"});
  CHECK(r.exit_code == kExitFindings);
  CHECK(r.out.find("plan.yaml") != std::string::npos);
  CHECK(r.out.find("error[CAP-ALC-001]") != std::string::npos);
  CHECK(r.out.find("error[CAP-SUP-001]") != std::string::npos);
  CHECK(r.out.find("error[CAP-CMP-001]") != std::string::npos);
  CHECK(r.err.empty());
}

TEST_CASE("the clean example exits 0 with no violations", "[cli]") {
  RunResult r = Lint({kExample + "clean/plan.yaml"});
  CHECK(r.exit_code == kExitClean);
  CHECK(r.out.find("no problems in 2 files (1 plan, ") != std::string::npos);
}

TEST_CASE("JSON output has the fields of the contract", "[cli]") {
  RunResult r = Lint({"--format", "json", kExample + "plan.yaml"});
  CHECK(r.exit_code == kExitFindings);
  nlohmann::json doc = nlohmann::json::parse(r.out);
  CHECK(doc["version"].is_string());
  CHECK(doc["ruleset_digest"].get<std::string>().rfind("sha256:", 0) == 0);
  REQUIRE(doc["violations"].size() >= 3);
  for (const auto& v : doc["violations"]) {
    for (const char* key :
         {"rule", "severity", "message", "location", "because", "fix", "evidence", "trace"}) {
      INFO(key);
      CHECK(v.contains(key));
    }
    CHECK(v["location"]["line"].is_number_unsigned());
    CHECK(v["location"]["column"].is_number_unsigned());
    CHECK(v["evidence"].size() >= 1);
  }
  // Sorted by file, line, column, rule.
  auto key = [](const nlohmann::json& v) {
    return std::make_tuple(v["location"]["file"].get<std::string>(),
                           v["location"]["line"].get<int>(), v["location"]["column"].get<int>(),
                           v["rule"].get<std::string>());
  };
  for (size_t i = 1; i < doc["violations"].size(); ++i) {
    CHECK_FALSE(key(doc["violations"][i]) < key(doc["violations"][i - 1]));
  }
  CHECK(doc["errors"].is_array());
  CHECK(doc["summary"]["violations"] == doc["violations"].size());
}

TEST_CASE("a profile prints what each rule cost, most costly first, after the same report",
          "[cli]") {
  RunResult plain = Lint({"--format", "short", kExample + "plan.yaml"});
  RunResult text = Lint({"--profile", "--format", "short", kExample + "plan.yaml"});
  CHECK(text.exit_code == plain.exit_code);
  CHECK(text.out == plain.out);  // the report is the one a run without the profile prints
  std::istringstream lines(text.err);
  std::string line;
  std::getline(lines, line);
  CHECK(line.rfind("profile: ", 0) == 0);
  std::getline(lines, line);
  CHECK(line.rfind("rule ", 0) == 0);
  size_t rules = 0;
  double previous = 1e18;
  while (std::getline(lines, line)) {
    REQUIRE(line.rfind("CAP-", 0) == 0);
    double ms = std::stod(line.substr(line.find_first_not_of(' ', line.find(' '))));
    CHECK(ms <= previous);
    previous = ms;
    ++rules;
  }
  CHECK(rules > 40);

  RunResult json = Lint({"--profile=json", "--format", "short", kExample + "plan.yaml"});
  CHECK(json.out == plain.out);
  nlohmann::json profile = nlohmann::json::parse(json.err);
  REQUIRE(profile["rules"].size() == rules);
  uint64_t findings = 0;
  for (const auto& r : profile["rules"]) {
    CHECK(r["steps"].get<uint64_t>() > 0);  // every rule ran, none answered from elsewhere
    CHECK(r["evaluations"].get<uint64_t>() == 1);
    findings += r["findings"].get<uint64_t>();
  }
  CHECK(findings >= 3);  // at least the example's three rules
  auto alc = std::find_if(profile["rules"].begin(), profile["rules"].end(),
                          [](const auto& r) { return r["rule"] == "CAP-ALC-001"; });
  REQUIRE(alc != profile["rules"].end());
  CHECK((*alc)["findings"].get<uint64_t>() >= 1);
  CHECK((*alc)["visited"].get<uint64_t>() >= 1);
}

TEST_CASE("a profile evaluates every rule even with a warm cache, and refuses other formats",
          "[cli]") {
  testing::TempDir dir;
  std::string cache = "--cache=" + dir.Path("cache");
  Lint({cache, "--format", "short", kExample + "plan.yaml"});
  RunResult warm = Lint({cache, "--profile=json", "--format", "short", kExample + "plan.yaml"});
  nlohmann::json profile = nlohmann::json::parse(warm.err);
  REQUIRE(!profile["rules"].empty());
  for (const auto& r : profile["rules"]) CHECK(r["steps"].get<uint64_t>() > 0);
  RunResult bad = Lint({"--profile=xml", kExample + "plan.yaml"});
  CHECK(bad.exit_code == kExitUsage);
  CHECK(bad.err.find("--profile") != std::string::npos);
}

TEST_CASE("JSON output is identical across runs", "[cli]") {
  CHECK(Lint({"--format", "json", kExample + "plan.yaml"}).out ==
        Lint({"--format", "json", kExample + "plan.yaml"}).out);
}

TEST_CASE("explain mode adds evidence and traces", "[cli]") {
  RunResult r = Lint({"--explain", kExample + "plan.yaml"});
  CHECK(r.out.find("= evidence:") != std::string::npos);
  CHECK(r.out.find("= trace:") != std::string::npos);
  nlohmann::json doc =
      nlohmann::json::parse(Lint({"--format", "json", "--explain", kExample + "plan.yaml"}).out);
  CHECK_FALSE(doc["violations"][0]["trace"].empty());
}

TEST_CASE("bad arguments and missing files exit 2 with a one-line reason", "[cli]") {
  RunResult unknown = Lint({"--frobnicate", kExample + "plan.yaml"});
  CHECK(unknown.exit_code == kExitUsage);
  CHECK(unknown.err.rfind("capops-lint: error: ", 0) == 0);
  CHECK(unknown.out.empty());

  RunResult missing = Lint({"no/such/plan.yaml"});
  CHECK(missing.exit_code == kExitUsage);
  CHECK(missing.err.find("cannot read `no/such/plan.yaml`") != std::string::npos);

  RunResult none = Lint({});
  CHECK(none.exit_code == kExitUsage);
  CHECK(none.err.rfind("capops-lint: error: no plan files given", 0) == 0);
  RunResult bad_format = Lint({"--format", "xml", kExample + "plan.yaml"});
  CHECK(bad_format.exit_code == kExitUsage);
  RunResult no_policy = Lint({"--policy", "no/such/dir", kExample + "plan.yaml"});
  CHECK(no_policy.exit_code == kExitUsage);
  CHECK(no_policy.err.find("no policy file or directory `no/such/dir`") != std::string::npos);
}

TEST_CASE("the fail-on flag sets the threshold", "[cli]") {
  // The example's findings are errors: even --fail-on error fails.
  CHECK(Lint({"--fail-on", "error", kExample + "plan.yaml"}).exit_code == kExitFindings);
  CHECK(Lint({"--fail-on", "warning", kExample + "clean/plan.yaml"}).exit_code == kExitClean);
}

TEST_CASE("check-rules compiles the pack without facts", "[cli]") {
  RunResult ok = Lint({"check-rules", "--cost"});
  CHECK(ok.exit_code == kExitClean);
  CHECK(ok.out.find("CAP-ALC-001  error  replacement_not_free  O(|plan.allocations|)") !=
        std::string::npos);
  CHECK(ok.out.find(" rules, ") != std::string::npos);
  RunResult bad = Lint(
      {"check-rules", capops::testing::SourceDir() + "/tests/golden/policy-syntax-error/bad.cpl"});
  CHECK(bad.exit_code == kExitUsage);
  CHECK(bad.err.find("error[syntax]: unexpected `&&`\n --> ") != std::string::npos);
  CHECK(bad.err.find("bad.cpl:6:18\n") != std::string::npos);
}

TEST_CASE("a plan that breaks the schema exits 1 and is not evaluated", "[cli]") {
  RunResult r = Lint({"--inventory", kExample + "inventory.yaml",
                      capops::testing::SourceDir() + "/tests/golden/dangling-reference/plan.yaml"});
  CHECK(r.exit_code == kExitFindings);
  CHECK(r.out.find("error[schema]: no `Pool` with id `serve-eu-spar`") != std::string::npos);
  CHECK(r.out.find("did you mean `serve-eu-spare`?") != std::string::npos);
  CHECK(r.out.find("(0 plans, ") != std::string::npos);
}

TEST_CASE("short format is one line per finding", "[cli]") {
  RunResult r = Lint({"--format", "short", kExample + "plan.yaml"});
  CHECK(r.exit_code == kExitFindings);
  REQUIRE_FALSE(r.out.empty());
  size_t lines = 0;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line); ++lines) {
    INFO(line);
    CHECK(line.find("plan.yaml:") != std::string::npos);
    CHECK(std::regex_search(
        line, std::regex(R"(:[0-9]+:[0-9]+: (error|warning)\[CAP-[A-Z]+-[0-9]+\]: )")));
  }
  CHECK(lines >= 3);
}

TEST_CASE("secondary labels point at the other facts a rule read", "[cli]") {
  nlohmann::json doc =
      nlohmann::json::parse(Lint({"--format", "json", kExample + "plan.yaml"}).out);
  bool found = false;
  for (const auto& v : doc["violations"]) {
    if (v["rule"] != "CAP-ALC-001") continue;
    for (const auto& label : v["related"]) {
      if (label["message"].get<std::string>().rfind("pool `serve-eu-spare`:", 0) != 0) continue;
      found = true;
      CHECK(label["location"]["file"].get<std::string>().find("inventory.yaml") !=
            std::string::npos);
      CHECK(label["message"] == "pool `serve-eu-spare`: `role` is \"production-replacement\"");
    }
  }
  CHECK(found);
}

TEST_CASE("help and version exit 0", "[cli]") {
  RunResult help = Lint({"--help"});
  CHECK(help.exit_code == kExitClean);
  CHECK(help.out.find("--inventory") != std::string::npos);
  CHECK(Lint({"--version"}).out.rfind("capops-lint ", 0) == 0);
}

TEST_CASE(
    "the version flags (--version, -V) name the version, the commit and the shipped pack's digest",
    "[cli]") {
  RunResult version = Lint({"--version"});
  CHECK(version.exit_code == kExitClean);
  CHECK(Lint({"-V"}).out == version.out);
  std::istringstream lines(version.out);
  std::string name, commit, ruleset, extra;
  std::getline(lines, name);
  std::getline(lines, commit);
  std::getline(lines, ruleset);
  CHECK_FALSE(std::getline(lines, extra));
  CHECK(std::regex_match(name, std::regex(R"(capops-lint [0-9]+\.[0-9]+\.[0-9]+)")));
  INFO(commit);
  CHECK(std::regex_match(
      commit,
      std::regex(R"(commit: ([0-9a-f]{40}(-dirty)?|unknown \(not built from a git checkout\)))")));
  RunResult digest = Lint({"rules", "--digest"});
  REQUIRE(digest.exit_code == kExitClean);
  CHECK(ruleset ==
        "ruleset: " + digest.out.substr(0, digest.out.size() - 1) + " (the shipped pack, " +
            std::to_string(
                nlohmann::json::parse(Lint({"rules", "--format", "json"}).out)["rules"].size()) +
            " rules)");
}

TEST_CASE("a CAPOPS_DATA_DIR without a pack is an error, never a fallback", "[cli][hostile]") {
  struct Env {
    Env() { setenv("CAPOPS_DATA_DIR", (capops::testing::SourceDir() + "/examples").c_str(), 1); }
    ~Env() { unsetenv("CAPOPS_DATA_DIR"); }
  } env;
  std::string plan = capops::testing::SourceDir() + "/examples/visual-inspection/plan.yaml";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{plan}, {"--version"}, {"rules"}, {"check-rules"}, {"test"}}) {
    RunResult r = Lint(args);
    INFO(args[0]);
    CHECK(r.exit_code == kExitUsage);
    CHECK(r.err.find("CAPOPS_DATA_DIR is `" + capops::testing::SourceDir() +
                     "/examples`, which holds no `stdlib/` and `policies/`") != std::string::npos);
  }
}

// The shipped stdlib and pack copied to a temporary directory outside the
// repository, and CAPOPS_DATA_DIR naming it: an installed pack.
class InstalledPack : public testing::TempDir {
 public:
  InstalledPack() : TempDir("capops-installed") {
    namespace fs = std::filesystem;
    fs::path source(capops::testing::SourceDir());
    fs::create_directories(dir() / "policies");
    fs::copy(source / "stdlib", dir() / "stdlib", fs::copy_options::recursive);
    fs::copy(source / "policies/capops-ai", dir() / "policies/capops-ai",
             fs::copy_options::recursive);
    setenv("CAPOPS_DATA_DIR", dir().c_str(), 1);
  }
  ~InstalledPack() { unsetenv("CAPOPS_DATA_DIR"); }
};

TEST_CASE("every format names a file of an installed pack by its path in the pack",
          "[cli][report]") {
  InstalledPack pack;
  std::string plan = kExample + "plan.yaml";
  // One step per rule: each rule stops at its first `for`, an error located in the pack.
  auto lint = [&](const std::string& format) {
    RunResult r = Lint({"--no-config", "--max-steps", "1", "--format", format, plan});
    INFO(format << ": " << r.out << r.err);
    CHECK(r.exit_code == kExitFindings);
    CHECK(r.out.find(pack.dir().string()) == std::string::npos);
    return r.out;
  };
  auto has = [](const std::string& text, const std::string& part) {
    INFO(part);
    CHECK(text.find(part) != std::string::npos);
  };
  has(lint("text"), "  --> capops-ai/allocation.cpl:17:12\n");
  has(lint("text"), "= note: while evaluating this `for` at capops-ai/allocation.cpl:17:12\n");
  has(lint("short"), "capops-ai/allocation.cpl:17:12: error[CAP-ALC-001]: rule `CAP-ALC-001`");
  has(lint("json"), "\"file\": \"capops-ai/allocation.cpl\",\n");
  has(lint("junit"), "file=\"capops-ai/allocation.cpl\" line=\"17\">");
  has(lint("junit"), "capops-ai/allocation.cpl:17:12: error rule `CAP-ALC-001`");
  has(lint("github"), "::error file=capops-ai/allocation.cpl,line=17,");
  has(lint("html"), "<div class=\"where\">capops-ai/allocation.cpl:17:12</div>");
  lint("sarif");  // located only inside the source root, as before

  // The params a finding rests on name the pack's file the same way.
  for (const char* format : {"text", "json", "sarif"}) {
    RunResult r = Lint({"--no-config", "--format", format, plan});
    INFO(format);
    CHECK(r.exit_code == kExitFindings);
    CHECK(r.out.find(pack.dir().string()) == std::string::npos);
    CHECK(r.out.find("pack default, capops-ai/supply.cpl:") != std::string::npos);
  }
}

TEST_CASE("every command names a file of an installed pack by its path in the pack", "[cli]") {
  InstalledPack pack;
  std::string plan = kExample + "plan.yaml";
  const std::vector<std::pair<std::vector<std::string>, std::string>> commands = {
      {{"params"}, "(pack default, capops-ai/allocation.cpl:"},
      {{"params", "--format", "json"}, "capops-ai/allocation.cpl"},
      {{"explain", "CAP-ALC-001"}, "defined at: capops-ai/allocation.cpl:"},
      {{"rules"}, "  capops-ai/allocation.cpl:"},
      {{"rules", "--format", "json"}, "\"defined_at\": \"capops-ai/allocation.cpl:"},
      {{"why-not", "CAP-ALC-001", "--at", "allocations[a-explore]", plan},
       "(capops-ai/allocation.cpl:"},
  };
  for (const auto& [args, part] : commands) {
    RunResult r = Lint(args);
    INFO(args[0] << " " << args.back() << ": " << r.out << r.err);
    CHECK(r.exit_code != kExitUsage);
    CHECK(r.out.find(part) != std::string::npos);
    CHECK(r.out.find(pack.dir().string()) == std::string::npos);
    CHECK(r.err.find(pack.dir().string()) == std::string::npos);
  }
  // The pack's own tests, by path (the installed pack given as a directory).
  for (const char* format : {"text", "json"}) {
    RunResult r = Lint({"test", "--format", format, (pack.dir() / "policies/capops-ai").string()});
    INFO(format << ": " << r.err);
    CHECK(r.exit_code == kExitClean);
    CHECK(r.out.find("capops-ai/allocation_test.cpl") != std::string::npos);
    CHECK(r.out.find(pack.dir().string()) == std::string::npos);
  }
}

TEST_CASE("a policy of an installed pack that does not compile is named by its path in the pack",
          "[cli]") {
  InstalledPack pack;
  pack.Write("policies/capops-ai/zz_broken.cpl", "package t\nfn f(): int = nope\n");
  RunResult r = Lint({"--no-config", kExample + "plan.yaml"});
  CHECK(r.exit_code == kExitUsage);
  CHECK(r.err.find("--> capops-ai/zz_broken.cpl:2:") != std::string::npos);
  CHECK(r.err.find(pack.dir().string()) == std::string::npos);
}

TEST_CASE("eval in JSON gives every expression one line, values and compile errors alike",
          "[cli]") {
  RunResult bad = Lint({"eval", "--format", "json", "1u"});
  CHECK(bad.exit_code == kExitUsage);
  CHECK(bad.err.empty());
  nlohmann::json line = nlohmann::json::parse(bad.out);
  CHECK(line["expression"] == "1u");
  REQUIRE(line["errors"].size() == 1);
  CHECK(line["errors"][0]["code"] == "syntax");
  CHECK(line["errors"][0]["location"]["column"] == 2);

  // JSON has no NaN or infinity: they are spelt as protobuf's JSON spells them.
  nlohmann::json nan = nlohmann::json::parse(Lint({"eval", "--format", "json", "0.0 / 0.0"}).out);
  CHECK(nan["type"] == "double");
  CHECK(nan["value"] == "NaN");
  CHECK(nlohmann::json::parse(Lint({"eval", "--format", "json", "-1.0 / 0.0"}).out)["value"] ==
        "-Infinity");
}

}  // namespace
}  // namespace capops::cli
