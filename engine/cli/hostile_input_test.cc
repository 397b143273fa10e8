// SPDX-License-Identifier: Apache-2.0
// capops-lint as a careless or hostile user drives it: every case must end
// in a finding, a located error or an explicit message with the documented
// exit code — never a silent exit 0, a hang, a crash or a damaged file.
// One TEST_CASE per family, one SECTION (or table row) per spelling.
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/cli/driver.h"
#include "engine/workspace/output_file.h"
#include "engine/workspace/session.h"
#include "tests/support/paths.h"
#include "tests/support/run_cli.h"
#include "tests/support/scratch_dir.h"

namespace capops::cli {
namespace {

namespace fs = std::filesystem;
using testing::CliResult;
using Scratch = testing::ScratchDir;
constexpr auto& Lint = testing::RunCli;

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const std::string kClean = capops::testing::SourceDir() + "/examples/visual-inspection/clean/";

// The clean example's plan text with its `kind:` line written another way.
std::string Respelt(const std::string& plan, const std::string& kind_line) {
  std::string out = plan;
  size_t at = out.find("kind: CapacityPlan\n");
  REQUIRE(at != std::string::npos);
  return out.replace(at, std::string("kind: CapacityPlan\n").size(), kind_line + "\n");
}

// A directory with the clean plan, its inventory and one more file, linted whole.
CliResult LintDirWith(const std::string& name, const std::string& text,
                      const char* format = "short") {
  Scratch s;
  fs::create_directories(s.dir() / "plans");
  fs::copy_file(kClean + "inventory.yaml", s.dir() / "plans/inventory.yaml");
  fs::copy_file(kClean + "plan.yaml", s.dir() / "plans/plan.yaml");
  s.Write("plans/" + name, text);
  return Lint({"--no-config", "--format", format, s.Path("plans")});
}

std::string ReadClean(const std::string& name) {
  std::ifstream in(kClean + name, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST_CASE("discovery: a plan is found however YAML spells its kind", "[cli][hostile]") {
  const std::string plan = ReadClean("plan.yaml");
  const std::vector<std::pair<const char*, std::string>> spellings = {
      {"a tab after the colon", Respelt(plan, "kind:\tCapacityPlan")},
      {"a quoted key", Respelt(plan, "\"kind\": CapacityPlan")},
      {"a quoted value", Respelt(plan, "kind: 'CapacityPlan'")},
      {"a core-schema tag", Respelt(plan, "kind: !!str CapacityPlan")},
      {"a byte order mark", "\xEF\xBB\xBF" + plan},
      {"kind after a MiB of comments", "# " + std::string(1100000, 'c') + "\n" + plan},
      {"a document after a first one", "---\n" + plan},
      {"a flow mapping",
       "{apiVersion: capops.dev/v1, kind: CapacityPlan, metadata: {name: f, owner: o},"
       " demands: [{id: e, slice: exploration, gpus: 1}]}\n"},
      {"JSON",
       "{\"apiVersion\": \"capops.dev/v1\", \"kind\": \"CapacityPlan\", \"metadata\": "
       "{\"name\": \"j\", \"owner\": \"o\"}, \"demands\": [{\"id\": \"e\", \"slice\": "
       "\"exploration\", \"gpus\": 1}]}\n"},
  };
  for (const auto& [what, text] : spellings) {
    INFO(what);
    // Linted: the plan and its inventory are both read, never skipped.
    CliResult r = LintDirWith("odd.yaml", text, "text");
    CHECK(r.exit_code <= kExitFindings);
    CHECK(Has(r.out, " in 3 files ("));
    CHECK_FALSE(Has(r.out, "not linted"));
  }
}

TEST_CASE("discovery: every other YAML file under a plan directory is accounted for",
          "[cli][hostile]") {
  struct Case {
    const char* name;
    std::string text;
    int exit_code;
    std::string message;
  };
  const std::string plan = ReadClean("plan.yaml");
  const std::vector<Case> cases = {
      // A misspelt kind, in any case, is an error with did-you-mean.
      {"typo.yaml", Respelt(plan, "kind: CapcityPlan"), kExitFindings,
       "typo.yaml:3:7: error[facts]: unknown kind `CapcityPlan`"},
      {"lower.yaml", Respelt(plan, "kind: capacityplan"), kExitFindings,
       "unknown kind `capacityplan`"},
      // Our apiVersion with any other kind is reported, not skipped.
      {"other.yaml", "apiVersion: capops.dev/v1\nkind: Forecast\n", kExitFindings,
       "unknown kind `Forecast`"},
      // Broken YAML may be a broken plan: it is linted, so its error is shown.
      {"broken.yaml", "kind: [CapacityPlan\n", kExitFindings, "broken.yaml:"},
      // A foreign YAML file is a located info, and the run still lints the plans.
      {"workflow.yml", "name: ci\non: push\n", kExitClean,
       "workflow.yml:1:1: info[discovery]: not linted: a YAML document without `kind`"},
      {"deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\n", kExitClean,
       "deploy.yaml:2:7: info[discovery]: not linted: kind `Deployment`"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CliResult r = LintDirWith(c.name, c.text);
    CHECK(r.exit_code == c.exit_code);
    CHECK(Has(r.out, c.message));
  }
  SECTION("capops's own files and inventories are neither linted nor reported") {
    CliResult r = LintDirWith("waivers.yaml", "waivers: []\n");
    CHECK_FALSE(Has(r.out, "waivers.yaml"));
  }
  SECTION("a FIFO named like a plan is refused, not waited on") {
    Scratch s;
    REQUIRE(::mkfifo(s.Path("pipe.yaml").c_str(), 0600) == 0);
    CliResult r = Lint({"--no-config", s.dir().string()});
    CHECK(r.exit_code == kExitUsage);
    CHECK(Has(r.err, "pipe.yaml`: it is a FIFO (named pipe), not a regular file"));
  }
}

TEST_CASE("discovery: an inventory inside a plan file serves that file only", "[cli][hostile]") {
  Scratch s;
  std::string plan = ReadClean("plan.yaml");
  std::string inventory = ReadClean("inventory.yaml");
  s.Write("d/a.yaml", plan + "---\n" + inventory);
  s.Write("d/b.yaml", plan);
  CliResult alone = Lint({"--no-config", "--format", "short", s.Path("d/b.yaml")});
  CliResult together = Lint({"--no-config", "--format", "short", s.Path("d/")});
  for (const CliResult* r : {&alone, &together}) {
    CHECK(r->exit_code == kExitFindings);
    CHECK(Has(r->out, "b.yaml:2:1: error: no `Inventory` document was given"));
  }
  CHECK_FALSE(Has(together.out, "a.yaml:"));  // a.yaml has its own inventory and is clean
}

TEST_CASE("discovery: an inventory file named beside its plan is the inventory", "[cli][hostile]") {
  Scratch s;
  s.Write("d/plan.yaml", ReadClean("plan.yaml"));
  s.Write("d/stock.yaml", ReadClean("inventory.yaml"));
  s.Write("d/inventory.yaml", ReadClean("inventory.yaml"));
  // Either order, and with the sibling `inventory.yaml` named too.
  for (const std::vector<std::string>& files :
       {std::vector<std::string>{"d/plan.yaml", "d/stock.yaml"},
        {"d/stock.yaml", "d/plan.yaml"},
        {"d/plan.yaml", "d/inventory.yaml"}}) {
    std::vector<std::string> args = {"--no-config", "--format", "short"};
    for (const std::string& f : files) args.push_back(s.Path(f));
    CliResult r = Lint(args);
    INFO(r.out << r.err);
    CHECK(r.exit_code == kExitClean);  // not "no `Inventory` document was given"
  }
}

TEST_CASE("runs that would check nothing exit 2 unless asked for", "[cli][hostile]") {
  Scratch s;
  SECTION("an inventory given as the plan") {
    CliResult r = Lint({"--no-config", s.Path("inventory.yaml")});
    CHECK(r.exit_code == kExitUsage);
    CHECK(Has(r.err, "no `CapacityPlan` document in the files given"));
    CHECK(Lint({"--no-config", "--allow-empty", s.Path("inventory.yaml")}).exit_code == kExitClean);
  }
  SECTION("a config that disables every rule") {
    std::string config =
        s.Write(".capops.yaml", "plans: [plan.yaml]\nrules: {disable: [\"CAP-*\"]}\n");
    CliResult r = Lint({"--config", config});
    CHECK(r.exit_code == kExitUsage);
    CHECK(Has(r.err, "every rule is disabled"));
    CHECK(Lint({"--config", config, "--allow-empty"}).exit_code == kExitClean);
  }
}

TEST_CASE("side files and plans that are not regular files are refused at once", "[cli][hostile]") {
  Scratch s;
  REQUIRE(::mkfifo(s.Path("fifo").c_str(), 0600) == 0);
  fs::create_directories(s.dir() / "dir");
  std::string plan = s.Path("plan.yaml");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--no-config", "--inventory", s.Path("fifo"), plan}, "it is a FIFO (named pipe)"},
      {{"--config", s.Path("fifo"), plan}, "it is a FIFO (named pipe)"},
      {{"--no-config", "--waivers", s.Path("fifo"), plan}, "it is a FIFO (named pipe)"},
      {{"--no-config", "--baseline", s.Path("fifo"), plan}, "it is a FIFO (named pipe)"},
      {{"--no-config", "--waivers", s.Path("dir"), plan}, "it is a directory"},
      {{"--no-config", s.Path("fifo")}, "it is a FIFO (named pipe)"},
      {{"--no-config", "/dev/zero"}, "`/dev/zero`: it is a character device"},
      {{"--no-config", "--inventory", "/dev/null", plan}, "it is a character device"},
  };
  for (const auto& [args, message] : cases) {
    INFO(args[args.size() - 2] << ' ' << args.back());
    CliResult r = Lint(args);
    CHECK(r.exit_code == kExitUsage);
    CHECK(Has(r.out + r.err, message));
  }
}

TEST_CASE("every numeric limit is range-checked, naming its flag", "[cli][hostile]") {
  Scratch s;
  for (const char* flag : {"--max-file-size", "--max-depth", "--max-values", "--max-documents",
                           "--max-string-length", "--max-steps", "--max-memory", "-j"}) {
    for (const char* value : {"-1", "0", "99999999999999999999", "1e3", "ten", "", " 8", "8 "}) {
      INFO(flag << ' ' << value);
      CliResult r = Lint({"--no-config", flag, value, s.Path("plan.yaml")});
      CHECK(r.exit_code == kExitUsage);
      CHECK(Has(r.err, flag));
      // Says what is wrong with the value: not a whole number, or out of range.
      // (-j takes a signed count: -1 is a number, out of range.)
      std::string v = value;
      bool digits = v == "0" || v == "99999999999999999999" || (v == "-1" && flag[1] == 'j');
      CHECK(Has(r.err, std::string("`") + value + "` is not " +
                           (digits ? "from 1 to " : "a whole number (from 1 to ")));
    }
  }
  CHECK(Lint({"--no-config", "--max-depth", "401", s.Path("plan.yaml")}).exit_code == kExitUsage);
  // The other numeric flags say the same.
  CliResult findings = Lint({"rules", "--diff", "a", "b", "--max-findings", "many"});
  CHECK(findings.exit_code == kExitUsage);
  CHECK(Has(findings.err, "--max-findings: `many` is not a whole number (from 0 to 1000000000)"));
  CliResult coverage = Lint({"test", "--min-coverage", "most"});
  CHECK(coverage.exit_code == kExitUsage);
  CHECK(Has(coverage.err, "--min-coverage: `most` is not a number (from 0 to 100)"));
  CHECK(Has(Lint({"test", "--min-coverage", "100.5"}).err, "`100.5` is not from 0 to 100"));
}

TEST_CASE("an output is never one of the inputs, however it is named", "[cli][hostile]") {
  Scratch s;
  std::string plan = s.Path("plan.yaml");
  const std::string before = s.Read("plan.yaml");
  fs::create_hard_link(plan, s.Path("hard.yaml"));
  fs::create_symlink(plan, s.Path("soft.yaml"));
  std::string dotted = (s.dir() / "." / "plan.yaml").string();
  for (const std::string& out : {plan, dotted, s.Path("hard.yaml"), s.Path("soft.yaml")}) {
    INFO(out);
    CliResult r = Lint({"--no-config", plan, "-o", out});
    CHECK(r.exit_code == kExitUsage);
    CHECK(Has(r.err, "refusing to write"));
  }
  CliResult inventory = Lint({"--no-config", plan, "--write-baseline", s.Path("inventory.yaml")});
  CHECK(inventory.exit_code == kExitUsage);
  std::string waivers = s.Write("waivers.yaml", "waivers: []\n");
  CHECK(Lint({"--no-config", plan, "--waivers", waivers, "-o", waivers}).exit_code == kExitUsage);
  CHECK(s.Read("plan.yaml") == before);
  CHECK(s.Read("waivers.yaml") == "waivers: []\n");
  // Rewriting the baseline that is read is what `--write-baseline` is for.
  std::string baseline = s.Path("baseline.yaml");
  CHECK(Lint({"--no-config", plan, "--write-baseline", baseline}).exit_code == kExitClean);
  CHECK(
      Lint({"--no-config", plan, "--baseline", baseline, "--write-baseline", baseline}).exit_code ==
      kExitClean);
}

// Writes fail past `bytes` in this process (as on a full disk) while alive.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = saved_;
    limit.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, old_handler_);
  }

 private:
  rlimit saved_{};
  void (*old_handler_)(int) = nullptr;
};

TEST_CASE("a write that fails leaves the old file whole and exits 2", "[cli][hostile]") {
  Scratch s;
  const std::string old_report(4096, 'r');
  std::string report = s.Write("report.txt", old_report);
  std::string baseline = s.Write("baseline.yaml", "findings: []\n");
  {
    FileSizeLimit full(64);
    CliResult r = Lint({"--no-config", s.Path("plan.yaml"), "-o", report});
    CHECK(r.exit_code == kExitUsage);
    CHECK(Has(r.err, "cannot write `" + report + "`"));
    CliResult b = Lint({"--no-config", s.Path("plan.yaml"), "--write-baseline", baseline});
    CHECK(b.exit_code == kExitUsage);
  }
  CHECK(s.Read("report.txt") == old_report);
  CHECK(s.Read("baseline.yaml") == "findings: []\n");
  int leftovers = 0;
  for (const auto& entry : fs::directory_iterator(s.dir()))
    leftovers += Has(entry.path().string(), ".tmp-");
  CHECK(leftovers == 0);
}

TEST_CASE("WriteFileAtomically keeps the mode and refuses what is not a file", "[cli][hostile]") {
  Scratch s;
  std::string path = s.Write("kept.txt", "old");
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  std::string error;
  REQUIRE(workspace::WriteFileAtomically(path, "new", &error));
  CHECK(s.Read("kept.txt") == "new");
  CHECK((fs::status(path).permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  REQUIRE(::mkfifo(s.Path("fifo").c_str(), 0600) == 0);
  CHECK_FALSE(workspace::WriteFileAtomically(s.Path("fifo"), "x", &error));
  CHECK(Has(error, "not a regular file"));
  CHECK_FALSE(workspace::WriteFileAtomically(s.Path("no/such/dir/file"), "x", &error));
}

// A stream that fails every write, as stdout does on a full disk or a
// closed pipe; with `throwing`, as a stream with exceptions switched on.
class FailingBuffer : public std::streambuf {
 protected:
  int_type overflow(int_type) override { return traits_type::eof(); }
  std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};

TEST_CASE("a report that cannot be written out is exit 2, not a clean run", "[cli][hostile]") {
  Scratch s;
  std::vector<std::string> args = {"capops-lint", "--no-config", s.Path("plan.yaml")};
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  FailingBuffer buffer;
  std::ostream out(&buffer);
  std::ostringstream err;
  CHECK(Run(static_cast<int>(argv.size()), argv.data(), out, err) == kExitUsage);
  CHECK(Has(err.str(), "cannot write the output"));

  // Anything unexpected is an internal error with exit 2, never a crash.
  FailingBuffer throwing_buffer;
  std::ostream throwing(&throwing_buffer);
  throwing.exceptions(std::ios::badbit | std::ios::failbit);
  std::ostringstream err2;
  CHECK(Run(static_cast<int>(argv.size()), argv.data(), throwing, err2) == kExitUsage);
  CHECK(Has(err2.str(), "capops-lint: internal error: "));
}

TEST_CASE("config paths stay inside the config's directory", "[cli][hostile]") {
  Scratch s;
  fs::create_directories(s.dir() / "repo");
  s.Write("secret.yaml", "password: hunter2\n");
  fs::create_symlink(s.Path("secret.yaml"), s.dir() / "repo" / "link.yaml");
  fs::copy_file(s.Path("plan.yaml"), s.dir() / "repo" / "plan.yaml");
  const std::vector<std::string> values = {"[../secret.yaml]",
                                           "[\"" + s.Path("secret.yaml") + "\"]", "[link.yaml]",
                                           "[sub/../../secret.yaml]"};
  for (const std::string& value : values) {
    INFO(value);
    std::string config =
        s.Write("repo/.capops.yaml", "plans: [plan.yaml]\ninventories: " + value + "\n");
    CliResult r = Lint({"--config", config});
    CHECK(r.exit_code == kExitUsage);
    CHECK(Has(r.err, ".capops.yaml:2:"));
    CHECK(Has(r.err, "is outside `" + (s.dir() / "repo").string() + "`"));
    CHECK_FALSE(Has(r.out + r.err, "hunter2"));
  }
  // Inside a repository, the repository is the bound: `..` within it is fine.
  fs::create_directories(s.dir() / ".git");
  std::string config =
      s.Write("repo/.capops.yaml", "plans: [plan.yaml]\ninventories: [../inventory.yaml]\n");
  CHECK(Lint({"--config", config}).exit_code == kExitFindings);
  fs::remove(s.dir() / ".git");
  for (const char* key : {"waivers", "baseline", "cache"}) {
    std::string config =
        s.Write("repo/.capops.yaml", std::string("plans: [plan.yaml]\n") + key + ": ../x\n");
    CHECK(Lint({"--config", config}).exit_code == kExitUsage);
  }
}

TEST_CASE("why-not at a line with no fact says so", "[cli][hostile]") {
  Scratch s;
  for (const char* line : {":99999", ":1"}) {
    CliResult r = Lint({"--no-config", "--why-not", "CAP-ALC-001", "--at",
                        s.Path("plan.yaml") + line, s.Path("plan.yaml")});
    CHECK(r.exit_code == kExitUsage);
    CHECK(Has(r.err, "no fact starts on line"));
  }
}

TEST_CASE("why-not finds an inventory record without `inventory.` before its path", "[cli]") {
  Scratch s;
  auto why_not = [&](const std::string& at) {
    return Lint({"--no-config", "--why-not", "CAP-ALC-001", "--at", at, s.Path("plan.yaml")});
  };
  CliResult full = why_not("inventory.pools[serve-eu-spare]");
  CliResult bare = why_not("pools[serve-eu-spare]");
  CHECK(full.exit_code == bare.exit_code);
  CHECK(Has(bare.out, "why-not CAP-ALC-001 at `pools[serve-eu-spare]`"));
  std::string full_out = full.out;
  for (size_t at; (at = full_out.find("inventory.pools")) != std::string::npos;)
    full_out.erase(at, std::string("inventory.").size());
  CHECK(bare.out == full_out);
  // A record the inventory does not have is still not found, in either.
  for (const char* at : {"pools[no-such-pool]", "inventory.pools[no-such-pool]"}) {
    CliResult r = why_not(at);
    CHECK(r.exit_code == kExitUsage);
    CHECK(Has(r.err, "nothing in the facts at this selector"));
  }
}

TEST_CASE("a file given twice under two spellings is read once", "[cli][hostile]") {
  Scratch s;
  fs::create_symlink(s.Path("inventory.yaml"), s.dir() / "link.yaml");
  std::string plan = s.Path("plan.yaml");
  CliResult once =
      Lint({"--no-config", "--format", "short", "--inventory", s.Path("inventory.yaml"), plan});
  const std::vector<std::string> spellings = {
      s.Path("inventory.yaml"), (s.dir() / "." / "inventory.yaml").string(), s.Path("link.yaml")};
  for (const std::string& again : spellings) {
    INFO(again);
    CliResult r = Lint({"--no-config", "--format", "short", "--inventory", s.Path("inventory.yaml"),
                        "--inventory", again, plan});
    CHECK(r.out == once.out);  // no duplicate-id errors pointing at themselves
    CHECK(Has(r.err, "is given twice; it is read once"));
  }
  fs::create_symlink(plan, s.dir() / "plan-link.yaml");
  CliResult plans = Lint({"--no-config", plan, s.Path("plan-link.yaml")});
  CHECK(Has(plans.out, "(1 plan, "));
  CHECK(Has(plans.err, "plan `"));
}

TEST_CASE("a misspelt list in the inventory file is one error, not one per reference", "[cli]") {
  Scratch s;
  std::string inventory = s.Read("inventory.yaml");
  size_t at = inventory.find("\npools:\n");
  REQUIRE(at != std::string::npos);
  inventory.replace(at, 8, "\npoolz:\n");
  s.Write("inventory.yaml", inventory);
  CliResult r = Lint({"--no-config", "--inventory", s.Path("inventory.yaml"), s.Path("plan.yaml")});
  INFO(r.out << r.err);
  CHECK(r.exit_code == kExitFindings);  // never a silent pass
  CHECK(Has(r.out, "unknown field `poolz` in `Inventory`"));
  CHECK(
      Has(r.out, "did you mean `pools`? references to `Pool` are not checked until this is fixed"));
  CHECK(!Has(r.out, "no `Pool` with id"));
  CHECK(Has(r.out, "(1 error,"));
}

}  // namespace
}  // namespace capops::cli
