// `rules --diff OLD NEW [PLAN…]` (rules_diff.h): read and compile both
// versions of the rule set, gather the fact sets both will lint — their
// policy tests' fixtures, deduplicated, and the plans given — and report.
// Entry point: RunRulesDiff.
#include "engine/cli/rules_diff_command.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <set>

#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/lint/git_snapshot.h"
#include "engine/lint/pack_locator.h"
#include "engine/lint/policy_loader.h"
#include "engine/lint/rules_diff.h"
#include "engine/report/rules_diff_report.h"

namespace capops::cli {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kGitPrefix = "git:";

// A file outside both versions, as other commands show paths: relative to
// the working directory when it is below it.
std::string Shown(const fs::path& file) {
  std::error_code ec;
  fs::path rel = fs::proximate(file, ec);
  if (ec || rel.empty() || *rel.begin() == "..") return file.lexically_normal().generic_string();
  return rel.generic_string();
}

// One version of the rule set: where its files are on disk and the name
// they are shown by (`old/alloc.cpl`, or `HEAD~1:policies/x/alloc.cpl` for
// a git snapshot whose files are in a temporary directory).
struct Version {
  std::string label;
  fs::path disk;
  const lint::GitSnapshot* snapshot = nullptr;  // set when `disk` is one
  Engine engine;

  std::string Join(const std::string& rel) const {
    if (label.empty() || label.back() == ':' || label.back() == '/') return label + rel;
    return label + "/" + rel;
  }
  /// A file's path inside the version, or "" when it is outside.
  std::string Inside(const fs::path& file) const {
    fs::path rel = file.lexically_normal().lexically_relative(disk.lexically_normal());
    if (rel.empty() || *rel.begin() == "..") return "";
    return rel.generic_string();
  }
  std::string Display(const fs::path& file) const {
    std::string inside = Inside(file);
    if (inside.empty()) return Shown(file);
    return inside == "." ? label : Join(inside);
  }
  fs::path Disk(const std::string& display) const {
    if (display == label) return disk;
    std::string prefix = Join("");
    if (display.rfind(prefix, 0) != 0) return display;
    return disk / display.substr(prefix.size());
  }
};

std::string Normal(const std::string& path) {
  std::string out = fs::path(path).lexically_normal().generic_string();
  if (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

// The shipped stdlib, as every command has it, then the version's own
// files under the names it shows them by; then compiles. -1 when all went
// well, else the exit code after printing why.
int LoadVersion(Version* v, std::ostream& err) {
  std::optional<fs::path> data = lint::FindDataDir();
  if (!data) return Fail(err, "cannot find the shipped `stdlib/` (set CAPOPS_DATA_DIR)");
  std::string error;
  if (!lint::LoadPolicies({(*data / "stdlib").string()}, &v->engine, &error)) return Fail(err, error);
  std::vector<fs::path> files;
  if (!lint::CollectPolicyFiles(v->disk, &files, &error)) return Fail(err, error);
  if (files.empty()) return Fail(err, "no policy file in `" + v->label + "`");
  for (const fs::path& f : files) {
    std::string text;
    if (!lint::ReadFile(f, &text, &error, v->engine.options().parse.max_file_bytes))
      return Fail(err, error);
    v->engine.AddPolicy(v->Display(f), std::move(text));
  }
  spdlog::debug("{}: {} policy files", v->label, files.size());
  if (!CompileOrReport(&v->engine, false, err)) return kExitUsage;
  return -1;
}

// Reads a policy test's facts. `*key` is the same for the same fact files in
// either version: each file's kind, its path inside the version, its text.
bool ReadFixture(const Version& v, const PolicyTest& test, lint::FactSet* facts, std::string* key,
                 std::string* error) {
  using Kind = syntax::TestDecl::Facts::Kind;
  fs::path test_file = v.Disk(test.path);
  for (const syntax::TestDecl::Facts& f : test.decl->facts) {
    TextFile file;
    std::string inside;
    if (f.kind == Kind::kInlineYaml) {
      file = {test.path + "#" + test.decl->name, f.value};
      inside = v.Inside(test_file) + "#" + test.decl->name;
    } else {
      fs::path disk = (test_file.parent_path() / f.value).lexically_normal();
      if (v.snapshot != nullptr && v.Inside(disk).empty()) disk = v.snapshot->InWorkTree(disk);
      file.path = v.Display(disk);
      inside = v.Inside(disk);
      if (!lint::ReadFile(disk, &file.text, error, v.engine.options().facts.max_file_bytes)) {
        *error = "cannot read `" + file.path + "`";
        return false;
      }
    }
    bool inventory = f.kind == Kind::kInventoryFile;
    *key += std::string(inventory ? "inventory " : "facts ") +
            (inside.empty() ? file.path : inside) + "\n" + std::to_string(file.text.size()) + "\n" +
            file.text;
    (inventory ? facts->inventories : facts->plans).push_back(std::move(file));
  }
  return true;
}

// The fixtures of both versions' tests, each distinct set of facts once
// (named as in the new version when both have it).
std::vector<lint::FactSet> CollectFixtures(const Version& new_version, const Version& old_version) {
  std::vector<lint::FactSet> sets;
  std::set<std::string> seen;
  for (const Version* v : {&new_version, &old_version}) {
    for (const PolicyTest& test : v->engine.Tests()) {
      lint::FactSet facts;
      std::string key, error;
      if (!ReadFixture(*v, test, &facts, &key, &error)) {
        spdlog::warn("skipping the facts of test `{}`: {}", test.decl->name, error);
        continue;
      }
      if (seen.insert(key).second) sets.push_back(std::move(facts));
    }
  }
  return sets;
}

// OLD as given, or `git:REV`: NEW as of that revision, in `*snapshot`.
bool LocateOld(const RulesDiffOptions& options, lint::GitSnapshot* snapshot, Version* old_version,
               std::string* error) {
  if (options.old_rules.rfind(kGitPrefix, 0) != 0) {
    old_version->label = Normal(options.old_rules);
    old_version->disk = options.old_rules;
    return true;
  }
  std::string revision = options.old_rules.substr(kGitPrefix.size());
  if (revision.empty()) {
    *error = "`git:` names no revision (write `git:HEAD~1`, `git:main` …)";
    return false;
  }
  if (!snapshot->Extract(revision, options.new_rules, error)) return false;
  old_version->label = snapshot->label();
  old_version->disk = snapshot->root();
  old_version->snapshot = snapshot;
  return true;
}

}  // namespace

int RunRulesDiff(const RulesDiffOptions& options, std::ostream& out, std::ostream& err) {
  std::string error;
  if (options.new_rules.rfind(kGitPrefix, 0) == 0)
    return Fail(
        err, "the new version must be a policy file or directory, not `" + options.new_rules + "`");
  lint::GitSnapshot snapshot;
  Version old_version, new_version;
  if (!LocateOld(options, &snapshot, &old_version, &error)) return Fail(err, error);
  new_version.label = Normal(options.new_rules);
  new_version.disk = options.new_rules;
  for (Version* v : {&old_version, &new_version}) {
    if (int code = LoadVersion(v, err); code >= 0) return code;
  }
  lint::PlanSet plans;
  for (const std::string& arg : options.plans) {
    if (!plans.Add(arg, &error)) return Fail(err, error);
  }
  plans.Group(options.inventories);

  lint::RulesDiff rules = lint::DiffRules(old_version.engine, new_version.engine);
  rules.old_label = old_version.label;
  rules.new_label = new_version.label;
  lint::FindingsDiff findings;
  for (const lint::FactSet& facts : CollectFixtures(new_version, old_version))
    lint::DiffFindingsOn(&old_version.engine, &new_version.engine, facts, &findings);
  size_t limit = new_version.engine.options().facts.max_file_bytes;
  if (!lint::DiffPlanFindings(&old_version.engine, &new_version.engine, plans, limit, &findings, &error))
    return Fail(err, error);
  report::WriteRulesDiff(rules, findings, options.format, out);
  return options.fail_on_new && !findings.appeared.empty() ? kExitFindings : kExitClean;
}

}  // namespace capops::cli
