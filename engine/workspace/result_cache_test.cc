// SPDX-License-Identifier: Apache-2.0
// The result cache (`--cache`) end to end through Run(): a warm run prints
// what a fresh lint prints, in every format; it reads entries instead of
// linting (an entry edited on disk shows through); corrupt entries and every
// change that findings depend on are misses. Plus the entry format itself.
#include "engine/lint/result_cache.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/cli/driver.h"
#include "tests/support/paths.h"
#include "tests/support/run_cli.h"
#include "tests/support/temp_dir.h"

namespace capops::lint {
namespace {

namespace fs = std::filesystem;

const fs::path kExamples = fs::path(capops::testing::SourceDir()) / "examples/visual-inspection";

using Outcome = testing::CliResult;

Outcome Capops(std::vector<std::string> args) {
  return testing::RunCli(std::move(args));
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void Spit(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// Two groups of plans: `solo/` (findings only in the plans: entries compose
// per plan) and `shared/` (a finding in the inventory, repeated per plan:
// the group has its own entry). The cache goes to `cache/`.
class Corpus {
 public:
  Corpus() {
    Copy("inventory.yaml", "solo/inventory.yaml");
    Copy("plan.yaml", "solo/plan.yaml");
    Copy("late-start/plan.yaml", "solo/late.yaml");
    Copy("quota-and-catalog/inventory.yaml", "shared/inventory.yaml");
    Copy("quota-and-catalog/plan.yaml", "shared/plan.yaml");
    Copy("quota-and-catalog/plan.yaml", "shared/copy.yaml");
  }
  void Copy(const std::string& from, const std::string& to) const {
    Spit(root_ / to, Slurp(kExamples / from));
  }
  fs::path operator/(const std::string& name) const { return root_ / name; }
  std::string cache() const { return (root_ / "cache").string(); }

  // A lint of both groups without the cache, then with it (with -v for its counts).
  Outcome Fresh(std::vector<std::string> extra = {}) const { return Capops(Args(extra)); }
  Outcome Cached(std::vector<std::string> extra = {}) const {
    extra.insert(extra.begin(), {"-v", "--cache=" + cache()});
    Outcome r = Capops(Args(extra));
    r.err = CacheLine(r.err);
    return r;
  }

  // The entry file whose text contains `part`.
  fs::path EntryWith(const std::string& part) const {
    for (const auto& e : fs::directory_iterator(root_ / "cache")) {
      if (Contains(Slurp(e.path()), part)) return e.path();
    }
    return {};
  }

 private:
  std::vector<std::string> Args(std::vector<std::string> extra) const {
    extra.insert(extra.begin(), "--no-config");
    extra.push_back((root_ / "solo").string());
    extra.push_back((root_ / "shared").string());
    return extra;
  }
  // Only the summary line of the cache ("N hits, N misses, N stored").
  static std::string CacheLine(const std::string& err) {
    size_t at = err.find("`: ");
    return at == std::string::npos ? "no cache line in: " + err
                                   : err.substr(at + 3, err.find('\n', at) - at - 3);
  }

  testing::TempDir tmp_{"capops-cache-test"};
  const fs::path& root_ = tmp_.dir();
};

// With `bad` in the entry file of `solo/plan.yaml`, the entry is ignored,
// the plan linted again, and the entry rewritten as `good`.
void ExpectIgnored(const Corpus& c, const fs::path& entry, const std::string& bad,
                   const std::string& good) {
  Spit(entry, bad);
  Outcome r = c.Cached();
  CHECK(r.err == "4 hits, 1 misses, 1 stored");
  CHECK(r.out == c.Fresh().out);
  CHECK(Slurp(entry) == good);
}

TEST_CASE("cache: a warm run prints what a fresh lint prints, in every format", "[cli][cache]") {
  Corpus c;
  for (std::vector<std::string> format :
       std::vector<std::vector<std::string>>{{},
                                             {"--explain"},
                                             {"--format", "json"},
                                             {"--format", "sarif"},
                                             {"--explain", "--format", "json"},
                                             {"--format", "junit"},
                                             {"--format", "github"},
                                             {"--format", "short"}}) {
    INFO((format.empty() ? std::string("text") : format.back()));
    fs::remove_all(c.cache());
    Outcome fresh = c.Fresh(format);
    Outcome cold = c.Cached(format);
    Outcome warm = c.Cached(format);
    CHECK(fresh.exit_code == cli::kExitFindings);
    CHECK(cold.err == "0 hits, 4 misses, 5 stored");  // 4 plans, and the `shared/` group
    CHECK(warm.err == "5 hits, 0 misses, 0 stored");
    CHECK(cold.out == fresh.out);
    CHECK(warm.out == fresh.out);
    CHECK(warm.exit_code == fresh.exit_code);
  }
  CHECK(Contains(c.Fresh().out, "in 6 files (3 plans, "));  // `solo/late.yaml` is not evaluated
}

TEST_CASE("cache: a hit is read from its entry, not linted again", "[cli][cache]") {
  Corpus c;
  c.Cached();
  const std::string message = "exploration demand `explore` counts 2 GPUs";
  fs::path entry = c.EntryWith(message);
  REQUIRE(!entry.empty());
  std::string text = Slurp(entry);
  std::string body = text.substr(text.find('\n') + 1);
  body.replace(body.find(message), message.size(), "EDITED IN THE CACHE");
  std::string key = entry.filename().string();

  // Sealed as the cache seals it, the edited entry is trusted: it was read, not recomputed.
  Spit(entry, SealEntry(key, body));
  Outcome edited = c.Cached();
  CHECK(edited.err == "5 hits, 0 misses, 0 stored");
  CHECK(Contains(edited.out, "EDITED IN THE CACHE"));

  // Edited without its checksum, it is corrupt.
  ExpectIgnored(c, entry, text.substr(0, text.find('\n') + 1) + body, text);
}

TEST_CASE("cache: corrupt entries are ignored and linted again", "[cli][cache]") {
  Corpus c;
  c.Cached();
  fs::path entry = c.EntryWith("exploration demand `explore`");
  REQUIRE(!entry.empty());
  const std::string key = entry.filename().string(), good = Slurp(entry);
  std::string body = good.substr(good.find('\n') + 1);
  std::string other_path = body;
  other_path.replace(other_path.find("solo/plan.yaml"), 14, "solo/gone.yaml");
  std::string other_format = good;
  other_format.replace(0, std::string("capops-cache 1").size(), "capops-cache 0");
  for (const std::string& bad : {good.substr(0, good.size() / 2),
                                 std::string("\x7f"
                                             "ELF\0\0garbage",
                                             12),
                                 std::string(), other_format, SealEntry(key, "{not json"),
                                 SealEntry(key, "{\"files\": [], \"main\": 1}"),
                                 SealEntry(key, body.substr(0, body.size() - 1)),
                                 SealEntry(key, other_path), SealEntry("0" + key, body)}) {
    INFO(bad.substr(0, 40));
    ExpectIgnored(c, entry, bad, good);
  }
}

TEST_CASE("cache: a change to anything findings depend on is a miss", "[cli][cache]") {
  Corpus c;
  c.Cached();
  // One plan of `solo/` is linted again; `shared/` comes from its group entry.
  Spit(c / "solo/plan.yaml", Slurp(c / "solo/plan.yaml") + "# reviewed\n");
  Outcome plan = c.Cached();
  CHECK(plan.err == "4 hits, 1 misses, 1 stored");
  CHECK(plan.out == c.Fresh().out);
  // A plan of `shared/`: its finding in the inventory may be its own, so the group is linted.
  Spit(c / "shared/copy.yaml", Slurp(c / "shared/copy.yaml") + "# reviewed\n");
  CHECK(c.Cached().err == "3 hits, 1 misses, 2 stored");
  CHECK(c.Cached().err == "5 hits, 0 misses, 0 stored");
  // The inventory: every plan of its group.
  Spit(c / "shared/inventory.yaml", Slurp(c / "shared/inventory.yaml") + "# reviewed\n");
  Outcome inventory = c.Cached();
  CHECK(inventory.err == "2 hits, 2 misses, 3 stored");
  CHECK(inventory.out == c.Fresh().out);
  // Explanations, a limit, the policy files (even a comment moves line numbers).
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"--explain"}, {"--max-steps", "50"}, {"--max-memory", "5000"}}) {
    CHECK(Contains(c.Cached(args).err, "0 hits, 4 misses, "));
    CHECK(c.Cached(args).out == c.Fresh(args).out);
  }
  fs::copy(fs::path(capops::testing::SourceDir()) / "policies/capops-ai", c / "pack",
           fs::copy_options::recursive);
  std::vector<std::string> pack = {"--policy", (c / "pack").string()};
  CHECK(c.Cached(pack).err == "0 hits, 4 misses, 5 stored");
  fs::path policy = c / "pack/allocation.cpl";
  Spit(policy, "// moved down a line\n" + Slurp(policy));
  CHECK(c.Cached(pack).err == "0 hits, 4 misses, 5 stored");
  CHECK(c.Cached(pack).out == c.Fresh(pack).out);
}

TEST_CASE("cache: rules left unevaluated are part of the key", "[cli][cache]") {
  Engine engine;
  engine.AddPolicy("p.cpl", "@id(\"T-1\") rule a { for x in plan.allocations deny \"x\" }\n");
  Diagnostics problems;
  REQUIRE(engine.Compile(&problems));
  TextFile plan{"plan.yaml", "apiVersion: capops.dev/v1\nkind: CapacityPlan\n"};
  std::string all = CacheKeys(engine, {}).PlanKey("", plan);
  CHECK(CacheKeys(engine, {}).PlanKey("", plan) == all);
  LintOptions skip;
  skip.skip_rules = {"T-1"};
  CHECK(CacheKeys(engine, skip).PlanKey("", plan) != all);
  LintOptions traced;
  traced.trace = true;
  CHECK(CacheKeys(engine, traced).PlanKey("", plan) != all);
}

TEST_CASE("cache: a finding in the inventory, stored with each plan, is reported once",
          "[cli][cache]") {
  Corpus c;
  fs::path copy = c / "shared/copy.yaml";
  std::string text = Slurp(copy);
  fs::remove(copy);
  CHECK(c.Cached().err ==
        "0 hits, 3 misses, 3 stored");  // `shared/plan.yaml` alone: all its findings
  Spit(copy, text);
  Outcome r = c.Cached();  // `shared/copy.yaml` alone too; the two entries compose
  CHECK(r.err == "3 hits, 1 misses, 1 stored");
  CHECK(r.out == c.Fresh().out);
  CHECK(c.Cached().err == "4 hits, 0 misses, 0 stored");
  CHECK(c.Cached().out == r.out);
}

TEST_CASE("cache: a param set in the config is a miss", "[cli][cache]") {
  Corpus c;
  std::string plans = "plans: [solo, shared]\n";
  Spit(c / "plain.yaml", plans);
  Spit(c / "params.yaml",
       plans + "params:\n  capops.ai.allocation.research_slices: [training, tuning]\n");
  auto lint = [&](const std::string& config, bool cached) {
    std::vector<std::string> args = {"--config", (c / config).string()};
    if (cached) args.insert(args.begin(), {"-v", "--cache=" + c.cache()});
    return Capops(args);
  };
  lint("plain.yaml", true);
  CHECK(Contains(lint("plain.yaml", true).err, "5 hits, 0 misses"));
  Outcome r = lint("params.yaml", true);
  CHECK(Contains(r.err, "0 hits, 4 misses, 5 stored"));
  CHECK(r.out == lint("params.yaml", false).out);
  CHECK(r.out != lint("plain.yaml", false).out);
}

TEST_CASE("cache: the config's `cache` turns it on, relative to the config file", "[cli][cache]") {
  Corpus c;
  std::string config = (c / "cfg.yaml").string();
  Spit(config, "plans: [solo, shared]\ncache: cache\n");
  std::string cold = Capops({"--config", config}).out;
  Outcome warm = Capops({"-v", "--config", config});
  CHECK(Contains(warm.err, "cache `" + c.cache() + "`: 5 hits, 0 misses, 0 stored"));
  CHECK(warm.out == cold);
}

TEST_CASE("cache: the directory may go, and an unusable one is only warned about", "[cli][cache]") {
  Corpus c;
  std::string fresh = c.Fresh().out;
  c.Cached();
  fs::remove_all(c.cache());
  Outcome again = c.Cached();
  CHECK(again.err == "0 hits, 4 misses, 5 stored");
  CHECK(again.out == fresh);
  CHECK(fs::exists(c / "cache/CACHEDIR.TAG"));

  // A file in the way, or a directory of something else (`--cache=plans/`): run uncached.
  fs::remove_all(c.cache());
  Spit(c / "cache", "not a directory");
  Outcome file = Capops(
      {"--no-config", "--cache=" + c.cache(), (c / "solo").string(), (c / "shared").string()});
  CHECK(Contains(file.err, "warning: the cache directory `" + c.cache() + "` is not a directory"));
  CHECK(file.out == fresh);
  Outcome plans =
      Capops({"--no-config", "--cache=" + (c / "solo").string(), (c / "shared").string()});
  CHECK(Contains(plans.err,
                 "is not a capops-lint cache directory (no CACHEDIR.TAG), so it is left alone"));
  CHECK_FALSE(fs::exists(c / "solo/CACHEDIR.TAG"));
}

// `--cache` never takes the next argument: what follows it is a plan.
TEST_CASE("cache: --cache takes its directory only after =", "[cli][cache]") {
  Corpus c;
  fs::path before = fs::current_path();
  fs::current_path(c / ".");
  std::string fresh = Capops({"--no-config", "solo", "shared"}).out;
  Outcome r = Capops({"--no-config", "-v", "--cache", "solo", "shared"});
  fs::current_path(before);
  CHECK(r.out == fresh);  // both directories linted
  CHECK(Contains(r.err, "cache `.capops-cache`: 0 hits"));
  CHECK(fs::exists(c / ".capops-cache/CACHEDIR.TAG"));
  CHECK_FALSE(fs::exists(c / "solo/CACHEDIR.TAG"));
  Outcome help = Capops({"--help"});
  CHECK(Contains(help.out, "--cache[=DIR]"));
}

TEST_CASE("cache: bare --cache uses .capops-cache in the working directory", "[cli][cache]") {
  Corpus c;
  fs::path before = fs::current_path();
  fs::current_path(c / "solo");
  Outcome r = Capops({"--no-config", "plan.yaml", "--cache"});
  Outcome warm = Capops({"--no-config", "-v", "--cache", "--", "plan.yaml"});
  fs::current_path(before);
  CHECK(fs::exists(c / "solo/.capops-cache/CACHEDIR.TAG"));
  CHECK(Contains(warm.err, "cache `.capops-cache`: 1 hits, 0 misses"));
  CHECK(warm.out == r.out);
}

TEST_CASE("cache: a plan file holding an Inventory document is linted uncached", "[cli][cache]") {
  Corpus c;
  // Its inventory merges into its neighbours' lint, so no plan of the group is cached.
  Spit(c / "solo/both.yaml",
       Slurp(c / "shared/inventory.yaml") + "---\n" + Slurp(c / "shared/plan.yaml"));
  std::string fresh = c.Fresh().out;
  CHECK(c.Cached().err == "0 hits, 5 misses, 3 stored");  // `shared/` only
  Outcome warm = c.Cached();
  CHECK(warm.err == "3 hits, 3 misses, 0 stored");
  CHECK(warm.out == fresh);
}

// Every field of a finding survives an entry, locations by path.
TEST_CASE("cache: entries keep every field of a finding", "[cli][cache]") {
  SourceManager sources;
  FileId plan = sources.Add("plan.yaml", "a: 1\n"), policy = sources.Add("p.cpl", "rule r {}\n");
  eval::Violation v{"CAP-X-001",
                    "r",
                    Severity::kWarning,
                    "m",
                    {plan, 1, 4},
                    {policy, 1, 6},
                    "because",
                    "fix",
                    {{"a", "a-1", {plan, 1, 1}, false, ""}, {"n", "3", {}, false, ""}},
                    {{{plan, 1, 2}, "label"}},
                    {{"x > 1",
                      "true",
                      {policy, 1, 2},
                      {{"x", "3", {policy, 1, 3}, {plan, 1, 4}, {policy, 1, 5}}}}},
                    eval::Suppression{"o", "j", "2099-01-01", {policy, 2, 1}},
                    "deny at a.gpus",
                    "a-1\x1f",
                    eval::Interval{20000, eval::Interval::kOpenEnd},
                    Value::Quantity({3 * (int64_t{1} << 30), Dimension::kBytes}),
                    "over `capacity`",
                    Value(),  // a baseline is applied after the cache
                    nullptr,  // params are named after the cache (Engine::NameParams)
                    {},       // at_owners are read before it
                    {plan, 1, 3},
                    {},  // fixes and an acquisition are computed after it
                    nullptr};
  Findings f;
  f.violations = {v};
  f.plans = 2;
  Diagnostic& d = f.errors.Add(Severity::kInfo, {plan, 1, 1}, "note");
  d.help = "h";
  d.code = "schema";
  d.related = {{{policy, 1, 1}, "there"}};
  d.length = 7;
  d.fixes = {{"change `x` to `y`", {{plan, {plan, 1, 1}, {plan, 1, 2}, 0, 1, "y"}}}};
  f.errors.Add(Severity::kError, {}, "nowhere");
  CacheEntry entry{f, Findings{{v}, {}, 1}};

  std::string text = EncodeEntry(entry, sources);
  SourceManager other;  // the same files under other ids
  other.Add("unrelated.txt", "");
  FileId plan2 = other.Add("plan.yaml", "a: 1\n"), policy2 = other.Add("p.cpl", "rule r {}\n");
  auto resolve = [&](std::string_view path) -> std::optional<FileId> {
    if (path == "plan.yaml") return plan2;
    if (path == "p.cpl") return policy2;
    return std::nullopt;
  };
  CacheEntry back;
  REQUIRE(DecodeEntry(text, resolve, &back));
  CHECK(EncodeEntry(back, other) == text);
  REQUIRE(back.main.violations.size() == 1);
  const eval::Violation& w = back.main.violations[0];
  CHECK(w.loc == SourceLoc{plan2, 1, 4});
  CHECK(w.trace[0].values[0].anchor == SourceLoc{policy2, 1, 5});
  CHECK(w.evidence[1].loc.file == kNoFile);
  CHECK(w.suppression->expires == "2099-01-01");
  CHECK(w.statement == "deny at a.gpus");  // a finding's identity survives the cache
  CHECK(w.subject == "a-1\x1f");
  CHECK(w.interval == v.interval);  // where a report draws the finding
  CHECK(w.measure == v.measure);    // what a baseline compares
  CHECK(w.measure.is(ValueKind::kQuantity));
  CHECK(w.measure_of == "over `capacity`");
  CHECK(w.via == SourceLoc{plan2, 1, 3});  // which copy of a merged value it is about
  CHECK(back.main.errors[0].length == 7);
  // A diagnostic's fixes, located in the other sources.
  REQUIRE(back.main.errors[0].fixes.size() == 1);
  CHECK(back.main.errors[0].fixes[0].description == "change `x` to `y`");
  CHECK(back.main.errors[0].fixes[0].replacements ==
        std::vector<Replacement>{{plan2, {plan2, 1, 1}, {plan2, 1, 2}, 0, 1, "y"}});
  CHECK(back.main.errors[1].loc.file == kNoFile);
  CHECK(back.main.plans == 2);
  REQUIRE(back.solo);
  CHECK(back.solo->plans == 1);
  CHECK_FALSE(DecodeEntry(
      text, [](std::string_view) { return std::nullopt; }, &back));
}

}  // namespace
}  // namespace capops::lint
