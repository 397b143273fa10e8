// PlanSet: expands plan arguments (files, directories, globs) into sorted
// plan files, groups them by inventory, and lints the groups into one report.
#include "engine/cli/plan_set.h"

#include <fnmatch.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

#include "engine/cli/pack_locator.h"
#include "engine/cli/policy_loader.h"

namespace capops::cli {

namespace fs = std::filesystem;

namespace {

constexpr size_t kSniffBytes = 1 << 20;  // a plan says its kind near the top

bool IsGlob(std::string_view s) {
  return s.find_first_of("*?[") != std::string_view::npos;
}

bool IsYaml(const fs::path& p) {
  return p.extension() == ".yaml" || p.extension() == ".yml";
}

bool IsPlanFile(const fs::path& p) {
  std::string text, error;
  if (!ReadFile(p, &text, &error, kSniffBytes)) return false;
  return LooksLikePlan(text);
}

// Regular YAML files under `root` (hidden directories skipped), in order.
std::vector<fs::path> YamlFilesUnder(const fs::path& root) {
  std::vector<fs::path> found;
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (it->is_directory(ec) && p.filename().string().starts_with(".")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) && IsYaml(p)) found.push_back(p.lexically_normal());
  }
  std::sort(found.begin(), found.end());
  return found;
}

// The directory a glob's walk starts from: its segments before the first wildcard.
fs::path GlobRoot(const std::string& pattern) {
  fs::path root;
  for (const fs::path& segment : fs::path(pattern)) {
    if (IsGlob(segment.string())) break;
    root /= segment;
  }
  return root.empty() ? fs::path(".") : root;
}

bool SegmentsMatch(const std::vector<std::string>& pat, size_t i,
                   const std::vector<std::string>& path, size_t j) {
  while (i < pat.size()) {
    if (pat[i] == "**") {
      for (size_t k = j; k <= path.size(); ++k) {
        if (SegmentsMatch(pat, i + 1, path, k)) return true;
      }
      return false;
    }
    if (j >= path.size() || fnmatch(pat[i].c_str(), path[j].c_str(), FNM_PERIOD) != 0) return false;
    ++i;
    ++j;
  }
  return j == path.size();
}

std::vector<std::string> Segments(std::string_view path) {
  std::vector<std::string> out;
  for (const fs::path& s : fs::path(path).lexically_normal()) {
    if (!s.empty() && s != ".") out.push_back(s.string());
  }
  return out;
}

}  // namespace

bool LooksLikePlan(std::string_view text) {
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    std::string_view line =
        text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    if (line.starts_with("kind:")) {
      line.remove_prefix(5);
      size_t comment = line.find(" #");
      line = line.substr(0, comment);
      while (!line.empty() && (line.front() == ' ' || line.front() == '"' || line.front() == '\''))
        line.remove_prefix(1);
      while (!line.empty() && (line.back() == ' ' || line.back() == '\r' || line.back() == '"' ||
                               line.back() == '\'')) {
        line.remove_suffix(1);
      }
      if (line == "CapacityPlan") return true;
    }
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  return false;
}

bool GlobMatch(std::string_view pattern, std::string_view path) {
  return SegmentsMatch(Segments(pattern), 0, Segments(path), 0);
}

bool PlanSet::Add(const std::string& arg, std::string* error) {
  std::error_code ec;
  std::vector<std::string> found;
  if (fs::is_regular_file(arg, ec)) {
    found.push_back(fs::path(arg).lexically_normal().string());
  } else if (fs::is_directory(arg, ec)) {
    for (const fs::path& p : YamlFilesUnder(arg)) {
      if (IsPlanFile(p)) found.push_back(p.string());
    }
    if (found.empty()) *error = "no plan files (with `kind: CapacityPlan`) under `" + arg + "`";
  } else if (IsGlob(arg)) {
    fs::path root = GlobRoot(arg);
    if (fs::is_directory(root, ec)) {
      for (const fs::path& p : YamlFilesUnder(root)) {
        if (GlobMatch(arg, p.string()) && IsPlanFile(p)) found.push_back(p.string());
      }
    }
    if (found.empty()) *error = "no plan files match `" + arg + "`";
  } else {
    *error = "cannot read `" + arg + "`: No such file or directory";
  }
  if (found.empty()) return false;
  for (const std::string& p : found) spdlog::debug("plan {}", p);
  plans_.insert(plans_.end(), found.begin(), found.end());
  std::sort(plans_.begin(), plans_.end());
  plans_.erase(std::unique(plans_.begin(), plans_.end()), plans_.end());
  return true;
}

void PlanSet::Group(const std::vector<std::string>& inventories) {
  groups_.clear();
  if (!inventories.empty() || plans_.empty()) {
    if (!plans_.empty()) groups_.push_back({plans_, inventories});
    return;
  }
  std::map<std::vector<std::string>, size_t> index;  // inventories → group
  for (const std::string& plan : plans_) {
    std::vector<std::string> own;
    fs::path sibling = fs::path(plan).parent_path() / "inventory.yaml";
    std::error_code ec;
    bool is_plan =
        std::binary_search(plans_.begin(), plans_.end(), sibling.lexically_normal().string());
    if (fs::is_regular_file(sibling, ec) && !is_plan)
      own.push_back(sibling.lexically_normal().string());
    auto [it, inserted] = index.emplace(own, groups_.size());
    if (inserted) groups_.push_back({{}, own});
    groups_[it->second].plans.push_back(plan);
  }
}

namespace {

void Merge(eval::LintReport part, eval::LintReport* into) {
  into->violations.insert(into->violations.end(), std::make_move_iterator(part.violations.begin()),
                          std::make_move_iterator(part.violations.end()));
  into->errors.Append(part.errors);
  into->files += part.files;
  into->plans += part.plans;
  into->rules = part.rules;
  into->ruleset_digest = part.ruleset_digest;
}

}  // namespace

bool LintPlanSet(Engine* engine, const PlanSet& set, size_t max_file_bytes,
                 eval::LintReport* report, std::string* error) {
  std::vector<std::vector<TextFile>> plans(set.groups().size()), inventories(set.groups().size());
  for (size_t g = 0; g < set.groups().size();
       ++g) {  // every file read before any lint: exit 2 early
    if (!ReadAll(set.groups()[g].plans, max_file_bytes, &plans[g], error) ||
        !ReadAll(set.groups()[g].inventories, max_file_bytes, &inventories[g], error)) {
      return false;
    }
  }
  *report = eval::LintReport{};
  report->ruleset_digest = engine->ruleset_digest();
  report->rules = engine->program() != nullptr ? engine->program()->rules.size() : 0;
  for (size_t g = 0; g < set.groups().size(); ++g)
    Merge(engine->Lint(plans[g], inventories[g]), report);
  const SourceManager& sources = engine->sources();
  auto key = [&](const eval::Violation& v) {
    return std::make_tuple(sources.Path(v.loc.file), v.loc.line, v.loc.column,
                           std::string_view(v.rule_id), std::string_view(v.message));
  };
  std::stable_sort(report->violations.begin(), report->violations.end(),
                   [&](const auto& a, const auto& b) { return key(a) < key(b); });
  report->errors.Sort();
  return true;
}

}  // namespace capops::cli
