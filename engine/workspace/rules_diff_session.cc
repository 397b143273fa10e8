// SPDX-License-Identifier: Apache-2.0
// Both versions of a rule set read and compiled, and the fact sets both
// lint gathered, for the diff of lint/rules_diff.h. Entry point:
// RulesDiffSession::Run.
#include "engine/workspace/rules_diff_session.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <set>

#include "engine/lint/group_lint.h"
#include "engine/workspace/pack_locator.h"
#include "engine/workspace/plan_set.h"
#include "engine/workspace/policy_loader.h"

namespace capops::workspace {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kGitPrefix = "git:";

}  // namespace

// One version of the rule set: where its files are on disk and the name
// they are shown by (`old/alloc.cpl`, or `HEAD~1:policies/x/alloc.cpl` for
// a git snapshot whose files are in a temporary directory).
struct RulesDiffSession::Version {
  std::string label;
  fs::path disk;
  const GitSnapshot* snapshot = nullptr;  // set when `disk` is one
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
    if (inside.empty()) return DisplayPath(file);  // outside both versions
    return inside == "." ? label : Join(inside);
  }
  fs::path Disk(const std::string& display) const {
    if (display == label) return disk;
    std::string prefix = Join("");
    if (display.rfind(prefix, 0) != 0) return display;
    return disk / display.substr(prefix.size());
  }
};

namespace {

using Version = RulesDiffSession::Version;
using lint::DiffFindingsOn;
using lint::DiffRules;
using lint::FactSet;

std::string Normal(const std::string& path) {
  std::string out = fs::path(path).lexically_normal().generic_string();
  if (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

// The shipped stdlib, as every command has it, then the version's own
// files under the names it shows them by; then compiles. False with
// `result`'s problems or error set.
bool LoadVersion(Version* v, RulesDiffResult* result) {
  std::string& error = result->error;
  std::optional<fs::path> data = FindDataDir(&error);
  if (!data) return false;
  if (!LoadPolicies({(*data / "stdlib").string()}, &v->engine, &error)) return false;
  std::vector<fs::path> files;
  if (!CollectPolicyFiles(DiskFileSystem(), v->disk, &files, &error)) return false;
  if (files.empty()) {
    error = "no policy file in `" + v->label + "`";
    return false;
  }
  for (const fs::path& f : files) {
    std::string text;
    if (!ReadFile(f, &text, &error, v->engine.options().parse.max_file_bytes)) return false;
    v->engine.AddPolicy(v->Display(f), std::move(text));
  }
  spdlog::debug("{}: {} policy files", v->label, files.size());
  if (v->engine.Compile(&result->problems)) return true;
  result->problem_sources = &v->engine.sources();
  size_t n = result->problems.size();
  error = "the policies do not compile (" + std::to_string(n) + " problem" + (n == 1 ? ")" : "s)");
  return false;
}

// Reads a policy test's facts. `*key` is the same for the same fact files in
// either version: each file's kind, its path inside the version, its text.
bool ReadFixture(const Version& v, const PolicyTest& test, FactSet* facts, std::string* key,
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
      if (!ReadFile(disk, &file.text, error, v.engine.options().facts.max_file_bytes)) {
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
std::vector<FactSet> CollectFixtures(const Version& new_version, const Version& old_version) {
  std::vector<FactSet> sets;
  std::set<std::string> seen;
  for (const Version* v : {&new_version, &old_version}) {
    for (const PolicyTest& test : v->engine.Tests()) {
      FactSet facts;
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
bool LocateOld(const RulesDiffRequest& options, GitSnapshot* snapshot, Version* old_version,
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

// Lints the plans with both versions and compares the findings.
bool DiffPlanFindings(Engine* old_rules, Engine* new_rules, PlanSet* plans, FindingsDiff* diff,
                      std::string* error) {
  if (plans->plans().empty()) return true;
  eval::LintReport a, b;
  SourceManager old_facts(&old_rules->sources()), new_facts(&new_rules->sources());
  if (!lint::LintGroups(*old_rules, {}, &old_facts, plans->Reader(), {}, &a, error) ||
      !lint::LintGroups(*new_rules, {}, &new_facts, plans->Reader(), {}, &b, error)) {
    return false;
  }
  lint::DiffPlanReports(*old_rules, old_facts, a, *new_rules, new_facts, b, plans->plans().size(),
                        diff);
  return true;
}

}  // namespace

RulesDiffSession::RulesDiffSession()
    : snapshot_(std::make_unique<GitSnapshot>()),
      old_version_(std::make_unique<Version>()),
      new_version_(std::make_unique<Version>()) {}

RulesDiffSession::~RulesDiffSession() = default;

const RulesDiffResult& RulesDiffSession::Run(const RulesDiffRequest& request) {
  RulesDiffResult& r = result_;
  if (request.new_rules.rfind(kGitPrefix, 0) == 0) {
    r.error = "the new version must be a policy file or directory, not `" + request.new_rules + "`";
    return r;
  }
  Version& old_version = *old_version_;
  Version& new_version = *new_version_;
  if (!LocateOld(request, snapshot_.get(), &old_version, &r.error)) return r;
  new_version.label = Normal(request.new_rules);
  new_version.disk = request.new_rules;
  for (Version* v : {&old_version, &new_version}) {
    if (!LoadVersion(v, &r)) return r;
  }
  DiskFileSystem disk;
  PlanSet plans(disk);
  for (const std::string& arg : request.plans) {
    if (!plans.Add(arg, &r.error)) return r;
  }
  plans.Group(request.inventories);
  r.rules = DiffRules(old_version.engine, new_version.engine);
  r.rules.old_label = old_version.label;
  r.rules.new_label = new_version.label;
  for (const FactSet& facts : CollectFixtures(new_version, old_version))
    DiffFindingsOn(&old_version.engine, &new_version.engine, facts, &r.findings);
  if (!DiffPlanFindings(&old_version.engine, &new_version.engine, &plans, &r.findings, &r.error))
    return r;
  r.ok = true;
  return r;
}

}  // namespace capops::workspace
