// SPDX-License-Identifier: Apache-2.0
// `--fix` and `--fix-dry-run` (fix_command.h): lint, apply a proved batch of
// fixes, lint again; then write the files back or print their diff. Entry
// point: RunFix.
#include "engine/cli/fix_command.h"

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <set>

#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/common/sha256.h"
#include "engine/repair/repair.h"
#include "engine/report/unified_diff.h"
#include "engine/workspace/output_file.h"

namespace capops::cli {

namespace {

// A file some fix changed: the text the first lint read, and now.
struct Edited {
  std::string path;  // as the lint named it
  std::string original;
  std::string text;
};

// One fix a round may apply: its edits (of one file's text at the start of
// the round) and the finding it must take away.
struct Candidate {
  std::string absolute;  // the file it edits
  std::string path;      // as the lint named it
  std::vector<Replacement> replacements;
  std::string finding;  // FindingKey of its finding
  bool repair = false;  // a computed repair: every finding of its allocation must go
  std::string name;     // its finding and description: how a fix that failed is remembered
};

// A finding told apart across lints of texts that moved: a diagnostic by
// its file, code and message; a finding of a rule with a repair search by
// the rule and the allocation repaired (all of them go together); any
// other by its file, rule and located bindings.
std::string FindingKey(const SourceManager& sources, const Diagnostic& d) {
  return "d\x1d" + std::string(sources.Path(d.loc.file)) + "\x1d" + repair::ErrorKey(d);
}
std::string FindingKey(const SourceManager& sources, const eval::Violation& v) {
  std::string allocation = repair::RepairedAllocation(v);
  if (!allocation.empty()) return "r\x1d" + v.rule_id + "\x1d" + allocation;
  return "v\x1d" + std::string(sources.Path(v.loc.file)) + "\x1d" + repair::ErrorKey(v);
}

// How many findings of each key a report holds.
std::map<std::string, size_t> FindingCounts(const lint::Report& r) {
  std::map<std::string, size_t> counts;
  for (const Diagnostic& d : r.findings.errors.items()) ++counts[FindingKey(*r.sources, d)];
  for (const eval::Violation& v : r.findings.violations) ++counts[FindingKey(*r.sources, v)];
  return counts;
}

// The errors of a report, each by its file and ErrorKey; the rules' only
// when `rules`.
std::set<std::string> Errors(const lint::Report& r, bool rules) {
  std::set<std::string> errors;
  for (const auto& [path, keys] : repair::ErrorKeysOf(r.findings, *r.sources, rules)) {
    for (const std::string& key : keys) errors.insert(path + "\x1d" + key);
  }
  return errors;
}

// A file's path and text, as a digest: what a cycle is told by.
std::string State(const std::string& path, std::string_view text) {
  return Sha256().Add(path).Add(text).Hex();
}

class Fixer {
 public:
  Fixer(const CheckOptions& options, workspace::SessionOptions session,
        workspace::OverlayFileSystem* files)
      : options_(options), session_options_(std::move(session)), files_(files) {}

  /// Lints and applies rounds of fixes until none is left that applies
  /// or the cap is reached; false when a lint is refused (report() says
  /// why).
  bool Run() {
    if (!Lint(&current_)) return false;
    // A round that applies nothing but finds repairs wanting is followed
    // by one that tries their next alternatives.
    while (applied_ < kMaxFixes) {
      size_t before = applied_, wanting = failed_.size();
      if (!FixRound()) return false;
      if (applied_ == before && failed_.size() == wanting) break;
    }
    return true;
  }

  /// The last lint: of the texts as fixed, or the one refused.
  const lint::Report& report() { return current_->Run(); }
  lint::Report TakeReport() { return current_->TakeReport(); }
  const std::map<std::string, Edited>& edited() const { return edited_; }
  size_t applied() const { return applied_; }

 private:
  // A lint of the texts as the overlay now holds them; false when refused.
  bool Lint(std::unique_ptr<workspace::LintSession>* session) {
    *session = std::make_unique<workspace::LintSession>(session_options_, files_);
    return (*session)->Run().status != lint::Status::kUsage;
  }

  bool IsPlanFile(const lint::Report& report, const std::string& path) const {
    std::string absolute = files_->Absolute(path);
    for (const std::string& plan : report.plan_files) {
      if (files_->Absolute(plan) == absolute) return true;
    }
    return false;
  }

  // The text a file is in at the round's start (as the current lint read it).
  const std::string* TextOf(const lint::Report& report, FileId file, const std::string& absolute) {
    auto it = texts_.find(absolute);
    if (it != texts_.end()) return &it->second;
    std::optional<std::string> read = report.sources->file(file).ReadText();
    if (!read) return nullptr;
    return &texts_.emplace(absolute, std::move(*read)).first->second;
  }

  // `fix` of finding `key` as a candidate, when it applies (its edits all
  // in one file the run may write, changing it, meeting none of `taken`'s).
  bool Take(const lint::Report& report, const Fix& fix, const std::string& key, bool repair,
            std::vector<Candidate>* taken) {
    if (fix.replacements.empty()) return false;
    FileId file = fix.replacements.front().file;
    for (const Replacement& r : fix.replacements) {
      if (r.file != file || file == kNoFile) return false;
    }
    std::string name = key + "\x1d" + fix.description;
    if (failed_.count(name) != 0) return false;
    std::string path(report.sources->Path(file));
    if (!options_.fix_inventory && !IsPlanFile(report, path)) return false;
    std::string absolute = files_->Absolute(path);
    const std::string* now = TextOf(report, file, absolute);
    std::string fixed, why;
    if (now == nullptr || !ApplyReplacements(*now, fix.replacements, &fixed, &why) || fixed == *now)
      return false;
    for (const Candidate& c : *taken) {
      if (c.absolute != absolute) continue;
      for (const Replacement& a : c.replacements) {
        for (const Replacement& b : fix.replacements) {
          if (Overlap(a, b)) return false;  // left for a later round
        }
      }
    }
    taken->push_back({absolute, path, fix.replacements, key, repair, std::move(name)});
    return true;
  }

  // The round's candidates: the first fix of each fixable diagnostic, or
  // when there is none (a plan that breaks the schema is not evaluated) of
  // each unwaived finding — for a computed repair, its first alternative
  // not yet found wanting — in report order, as many as the cap leaves.
  std::vector<Candidate> Candidates(const lint::Report& report, bool* diagnostics) {
    std::vector<Candidate> taken;
    std::set<std::string> keys;
    for (const Diagnostic& d : report.findings.errors.items()) {
      if (!d.fixes.empty())
        Take(report, d.fixes.front(), FindingKey(*report.sources, d), false, &taken);
    }
    *diagnostics = !taken.empty();
    if (taken.empty()) {
      for (const eval::Violation& v : report.findings.violations) {
        if (v.suppression || v.fixes.empty()) continue;
        std::string key = FindingKey(*report.sources, v);
        if (!repair::HasRepairSearch(v.rule_id)) {
          Take(report, v.fixes.front(), key, false, &taken);
        } else if (keys.insert(key).second) {
          for (const Fix& f : v.fixes) {
            if (Take(report, f, key, true, &taken)) break;
          }
        }
      }
    }
    if (taken.size() > kMaxFixes - applied_) taken.resize(kMaxFixes - applied_);
    return taken;
  }

  // `batch`'s fixes `which` applied, with the round's accepted ones, to the
  // texts of the round's start: the files they change.
  std::map<std::string, std::string> Edit(const std::vector<Candidate>& batch,
                                          const std::vector<size_t>& which) const {
    std::map<std::string, std::vector<Replacement>> edits;
    for (const std::vector<size_t>* part : {&accepted_, &which}) {
      for (size_t i : *part) {
        const Candidate& c = batch[i];
        edits[c.absolute].insert(edits[c.absolute].end(), c.replacements.begin(),
                                 c.replacements.end());
      }
    }
    std::map<std::string, std::string> texts;
    for (auto& [absolute, replacements] : edits) {
      std::string fixed, why;
      // Candidates meet no other's spans, so this applies.
      ApplyReplacements(texts_.at(absolute), std::move(replacements), &fixed, &why);
      texts[absolute] = std::move(fixed);
    }
    return texts;
  }

  // Whether `after` proves the fixes `which` of `batch` on top of the
  // current lint: each one's finding gone (every finding of a repaired
  // allocation), no error the current lint did not have.
  bool Proves(const lint::Report& after, const std::vector<Candidate>& batch,
              const std::vector<size_t>& which) const {
    std::map<std::string, size_t> left = FindingCounts(after), going;
    for (size_t i : which) {
      const Candidate& c = batch[i];
      if (c.repair && left.count(c.finding) != 0) return false;
      if (!c.repair) ++going[c.finding];
    }
    for (const auto& [key, n] : going) {
      auto now = counts_.find(key);
      auto still = left.find(key);
      if (now == counts_.end() || (still != left.end() && still->second + n > now->second))
        return false;
    }
    for (const std::string& e : Errors(after, errors_by_rules_)) {
      if (errors_.count(e) == 0) return false;
    }
    return true;
  }

  // Makes `session` (a lint of `texts` over the round's start) the current
  // lint, the fixes `which` of `batch` applied.
  void Accept(const std::vector<Candidate>& batch, const std::vector<size_t>& which,
              const std::map<std::string, std::string>& texts,
              std::unique_ptr<workspace::LintSession> session) {
    for (const auto& [absolute, text] : texts) {
      seen_.insert(State(absolute, texts_.at(absolute)));
      seen_.insert(State(absolute, text));
      std::string path;
      for (const Candidate& c : batch) {
        if (c.absolute == absolute) path = c.path;
      }
      auto [it, fresh] = edited_.try_emplace(absolute, Edited{path, texts_.at(absolute), ""});
      it->second.text = text;
    }
    accepted_.insert(accepted_.end(), which.begin(), which.end());
    applied_ += which.size();
    current_ = std::move(session);
    counts_ = FindingCounts(current_->Run());
    errors_ = Errors(current_->Run(), errors_by_rules_);
  }

  // Relints with `texts` (the fixes `which` of `batch` applied): accepted
  // when `prove` is false or the relint proves them, else the texts are
  // put back. `*accepted` tells which; false when the lint is refused.
  bool Try(const std::vector<Candidate>& batch, const std::vector<size_t>& which, bool prove,
           bool* accepted) {
    std::map<std::string, std::string> texts = Edit(batch, which);
    *accepted = false;
    for (const auto& [absolute, text] : texts) {
      if (seen_.count(State(absolute, text)) != 0) return true;  // a cycle of fixes
    }
    for (const auto& [absolute, text] : texts) files_->Set(absolute, text);
    std::unique_ptr<workspace::LintSession> next;
    if (!Lint(&next)) {
      current_ = std::move(next);
      return false;
    }
    if (!prove || Proves(next->Run(), batch, which)) {
      Accept(batch, which, texts, std::move(next));
      *accepted = true;
      return true;
    }
    std::map<std::string, std::string> back = Edit(batch, {});
    for (const auto& [absolute, text] : texts) {
      auto it = back.find(absolute);
      files_->Set(absolute, it != back.end() ? it->second : texts_.at(absolute));
    }
    return true;
  }

  // Proves the fixes `which` of `batch` with one relint; when it fails,
  // each half on its own (after the other's, if proved), so that a fix
  // that fails costs about 2 log2(n) relints and the rest still apply.
  // The single fixes that fail are added to `*unproved`.
  bool Prove(const std::vector<Candidate>& batch, std::vector<size_t> which,
             std::vector<size_t>* unproved) {
    // A fix whose finding went with the fixes accepted before it is left.
    std::erase_if(which, [&](size_t i) { return counts_.count(batch[i].finding) == 0; });
    if (which.empty()) return true;
    bool accepted = false;
    if (!Try(batch, which, true, &accepted)) return false;
    if (accepted) return true;
    if (which.size() == 1) {
      unproved->push_back(which.front());
      return true;
    }
    size_t half = which.size() / 2;
    return Prove(batch, {which.begin(), which.begin() + half}, unproved) &&
           Prove(batch, {which.begin() + half, which.end()}, unproved);
  }

  // One round: every candidate that can be proved in a batch is applied;
  // then, where the batch cannot prove it, the first plain fix that could
  // not be proved is applied as it is, alone (as each fix was before
  // batches); a computed repair that cannot be proved is never applied,
  // its next alternative is tried in the next round. False when a lint is
  // refused.
  bool FixRound() {
    texts_.clear();
    accepted_.clear();
    bool diagnostics = false;
    std::vector<Candidate> batch = Candidates(current_->Run(), &diagnostics);
    // A plan that now passes the schema is evaluated: a batch of
    // diagnostics' fixes is proved on the diagnostics alone.
    errors_by_rules_ = !diagnostics;
    counts_ = FindingCounts(current_->Run());
    errors_ = Errors(current_->Run(), errors_by_rules_);
    std::vector<size_t> provable, unproved;
    for (size_t i = 0; i < batch.size(); ++i) {
      (unproved_.count(batch[i].name) != 0 ? unproved : provable).push_back(i);
    }
    std::vector<size_t> failed;
    if (!Prove(batch, provable, &failed)) return false;
    for (size_t i : failed) {
      if (batch[i].repair) {
        failed_.insert(batch[i].name);
      } else {
        unproved_.insert(batch[i].name);
        unproved.push_back(i);
      }
    }
    std::sort(unproved.begin(), unproved.end());
    for (size_t i : unproved) {
      if (counts_.count(batch[i].finding) == 0) continue;
      bool accepted = false;
      if (!Try(batch, {i}, false, &accepted)) return false;
      if (accepted) break;
      failed_.insert(batch[i].name);  // a cycle
    }
    return true;
  }

  std::unique_ptr<workspace::LintSession> current_;  // the lint of the texts as they are
  const CheckOptions& options_;
  workspace::SessionOptions session_options_;
  workspace::OverlayFileSystem* files_;
  std::map<std::string, std::string> texts_;  // by absolute path: the texts at the round's start
  std::vector<size_t> accepted_;              // the round's fixes proved so far
  std::map<std::string, size_t> counts_;      // the current lint's FindingCounts
  std::set<std::string> errors_;              // the current lint's Errors
  bool errors_by_rules_ = true;               // the round's Errors count the rules'
  std::map<std::string, Edited> edited_;      // by absolute path
  std::set<std::string> seen_;                // each state a file was in (State)
  std::set<std::string> failed_;              // Candidate::name of fixes never to take again
  std::set<std::string> unproved_;            // Candidate::name of plain fixes applied only alone
  size_t applied_ = 0;
};

}  // namespace

int RunFix(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  if (!options.session.write_baseline.empty())
    return Fail(err, "--write-baseline records findings before --fix removes them: run them apart");
  workspace::DiskFileSystem disk;
  workspace::OverlayFileSystem overlay(&disk);
  workspace::SessionOptions session_options = options.session;
  session_options.repair_lints = repair::kFixRepairLints;
  session_options.repair_unproved = true;  // each round proves its batch itself
  // Each round lints texts that are only ever in memory: none is for the cache.
  session_options.use_cache = false;
  Fixer fixer(options, session_options, &overlay);
  if (!fixer.Run()) return FailWith(fixer.report(), options.color, err);
  lint::Report remaining = fixer.TakeReport();
  // The repairs the rounds proposed and could not prove are no repairs.
  for (eval::Violation& v : remaining.findings.violations) {
    if (repair::HasRepairSearch(v.rule_id)) v.fixes.clear();
  }
  if (options.fix_dry_run) {
    for (const auto& [absolute, e] : fixer.edited())
      out << report::UnifiedDiff(e.path, e.original, e.text);
    return remaining.status == lint::Status::kFindings ? kExitFindings : kExitClean;
  }
  size_t files = 0;
  for (const auto& [absolute, e] : fixer.edited()) {
    if (e.text == e.original) continue;
    std::string error;
    if (!workspace::RewriteFile(absolute, e.original, e.text, &error)) return Fail(err, error);
    ++files;
  }
  if (fixer.applied() > 0) {
    err << "capops-lint: applied " << fixer.applied() << (fixer.applied() == 1 ? " fix" : " fixes")
        << " in " << files << (files == 1 ? " file" : " files") << '\n';
  }
  return WriteCheckReport(remaining, options, out, err);
}

}  // namespace capops::cli
