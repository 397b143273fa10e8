// SPDX-License-Identifier: Apache-2.0
// Waivers: reading a waivers file, matching findings, reporting expired and
// stale waivers.
#include "engine/lint/waivers.h"

#include <algorithm>
#include <chrono>

#include "engine/common/units.h"
#include "engine/lint/glob_match.h"

namespace capops::lint {

namespace {

bool ReadWaiver(const Value& entry, Diagnostics* diags, Waiver* w) {
  MapReader r(entry, "waiver", diags);
  if (!r.is_map()) return false;
  w->loc = r.loc();
  bool ok = r.String("rule", &w->rule, true);
  ok = r.String("file", &w->file, true) && ok;
  r.String("target", &w->target);
  ok = r.String("owner", &w->owner, true) && ok;
  ok = r.String("reason", &w->reason, true) && ok;
  ok = r.Date("expires", &w->expires, &w->expires_loc, true) && ok;
  r.Finish();
  return ok;
}

// `target` names a fact path (or a prefix of one at a segment boundary) or
// an id among the finding's bindings.
bool TargetMatches(const std::string& target, const FindingKey& key) {
  if (target.empty()) return true;
  if (key.at == target) return true;
  if (key.at.size() > target.size() && key.at.starts_with(target) &&
      (key.at[target.size()] == '.' || key.at[target.size()] == '[')) {
    return true;
  }
  size_t at = 0;
  while (at < key.facts.size()) {  // "a=a-explore d=explore"
    size_t end = key.facts.find(' ', at);
    std::string_view binding(key.facts.data() + at,
                             (end == std::string::npos ? key.facts.size() : end) - at);
    size_t eq = binding.find('=');
    if (binding == target || (eq != std::string_view::npos && binding.substr(eq + 1) == target))
      return true;
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return false;
}

Diagnostic& Warn(Diagnostics* diags, SourceLoc loc, std::string message) {
  Diagnostic& d = diags->Add(Severity::kWarning, loc, std::move(message));
  d.code = "waiver";
  return d;
}

}  // namespace

bool WaiverMatches(const Waiver& waiver, const FindingKey& key) {
  return waiver.rule.text == key.rule && GlobMatch(waiver.file.text, key.file) &&
         TargetMatches(waiver.target.text, key);
}

int64_t TodayUtc() {
  auto now = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  return now.time_since_epoch().count();
}

Diagnostics Waivers::Parse(const SourceManager& sources, FileId file,
                           const facts::LoadOptions& options) {
  Diagnostics diags;
  base_dir_ = std::filesystem::path(sources.Path(file)).parent_path();
  facts::RawLoadResult loaded = facts::LoadRawYaml(sources, file, options);
  diags.Append(loaded.diagnostics);
  if (loaded.documents.empty()) {
    if (!diags.HasErrors())
      diags.Error(SourceLoc{file, 1, 1}, "no `waivers:` list in this file").code = "config";
    return diags;
  }
  MapReader root(loaded.documents[0], "waivers file", &diags);
  const Value* list = root.List("waivers");
  if (root.is_map() && list == nullptr && root.Get("waivers") == nullptr) {
    diags.Error(root.loc(), "no `waivers:` list in this file").code = "config";
  }
  root.Finish();
  if (list != nullptr) {
    for (const Value& entry : list->items()) {
      Waiver w;
      if (ReadWaiver(entry, &diags, &w)) entries_.push_back(std::move(w));
    }
  }
  diags.Sort();
  return diags;
}

void Waivers::Apply(eval::LintReport* report, FindingKeys* keys, int64_t today,
                    const std::vector<std::string>* partial_files) const {
  auto tested = [&](const Waiver& w) {
    if (partial_files == nullptr) return true;
    return std::any_of(partial_files->begin(), partial_files->end(), [&](const std::string& f) {
      return GlobMatch(w.file.text, RelativePath(f, base_dir_, keys->working_dir()));
    });
  };
  std::vector<bool> used(entries_.size(), false);
  for (eval::Violation& v : report->violations) {
    if (v.suppression) continue;
    FindingKey key = keys->Of(v);
    for (size_t i = 0; i < entries_.size(); ++i) {
      const Waiver& w = entries_[i];
      if (!WaiverMatches(w, key)) continue;
      used[i] = true;
      if (w.expires < today) continue;  // expired: the finding counts again
      v.suppression = eval::Suppression{w.owner.text, w.reason.text, FormatDate(w.expires), w.loc};
      break;
    }
  }
  for (size_t i = 0; i < entries_.size(); ++i) {
    const Waiver& w = entries_[i];
    if (w.expires < today) {
      Diagnostic& d = Warn(&report->errors, w.expires_loc,
                           "waiver for `" + w.rule.text + "` expired on " + FormatDate(w.expires));
      d.help = used[i] ? "the finding it covered counts again; fix it, or renew the waiver with "
                         "its owner `" +
                             w.owner.text + "`"
                       : "it matches no finding any more; remove it";
    } else if (!used[i] && tested(w)) {
      Warn(&report->errors, w.loc, "stale waiver: no `" + w.rule.text + "` finding matches it")
          .help = "remove it, or correct its `file` or `target`";
    }
  }
  report->errors.Sort();
}

}  // namespace capops::lint
