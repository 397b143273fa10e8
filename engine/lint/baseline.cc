// SPDX-License-Identifier: Apache-2.0
// Baseline files: writing today's findings as sorted YAML lines, reading them
// back through the YAML adapter, and leaving known findings out of a report.
#include "engine/lint/baseline.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

#include "engine/lint/map_reader.h"

namespace capops::lint {

namespace {

// A YAML double-quoted scalar (JSON escaping is valid YAML).
std::string Quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// A measure as the baseline writes it, read back as the same kind of value
// (`4`, `0.5`, `2d`, `80GiB`); "" for none, or a double YAML cannot hold.
std::string MeasureText(const Value& m) {
  if (m.is(ValueKind::kNull) || (m.is(ValueKind::kDouble) && !std::isfinite(m.double_value())))
    return "";
  return m.ToString();
}

std::string EntryLine(const FindingKey& k, const Value& measure) {
  std::string line = "  - {rule: " + Quoted(k.rule) + ", file: " + Quoted(k.file);
  if (!k.at.empty()) line += ", at: " + Quoted(k.at);
  if (!k.facts.empty()) line += ", facts: " + Quoted(k.facts);
  line += ", statement: " + Quoted(k.statement);
  if (!k.content.empty()) line += ", content: " + Quoted(k.content);
  if (std::string m = MeasureText(measure); !m.empty()) line += ", measure: " + m;
  return line + "}";
}

// Where a measure sorts among those of one fingerprint: by kind (ints and
// doubles together, each dimension apart), largest first; none before all
// (`none_first`, an entry: it absorbs any finding) or after all (a finding).
// A total order whatever the file holds.
std::tuple<int, double> Rank(const Value& m, bool none_first) {
  switch (m.kind()) {
    case ValueKind::kInt:
      return {1, -static_cast<double>(m.int_value())};
    case ValueKind::kDouble:
      return {1, std::isnan(m.double_value()) ? 0.0 : -m.double_value()};
    case ValueKind::kDuration:
      return {2, -static_cast<double>(m.int_value())};
    case ValueKind::kQuantity:
      return {3 + static_cast<int>(m.quantity_value().dimension),
              -static_cast<double>(m.quantity_value().amount)};
    default:
      return {none_first ? 0 : 9, 0.0};
  }
}

// Pairs the findings `found` (indexes into `violations`) of one fingerprint
// with the measures its entries recorded, largest with largest, so that as
// few as can be are worse. A paired finding is known, unless its measure
// grew: then it stays, with the measure it grew from. Returns how many were
// paired: the first of `*found`, now sorted.
size_t Pair(std::vector<Value> recorded, std::vector<size_t>* found,
            std::vector<eval::Violation>* violations, std::vector<bool>* known) {
  std::stable_sort(recorded.begin(), recorded.end(),
                   [](const Value& a, const Value& b) { return Rank(a, true) < Rank(b, true); });
  std::stable_sort(found->begin(), found->end(), [&](size_t a, size_t b) {
    return Rank((*violations)[a].measure, false) < Rank((*violations)[b].measure, false);
  });
  size_t paired = std::min(recorded.size(), found->size());
  for (size_t k = 0; k < paired; ++k) {
    eval::Violation& v = (*violations)[(*found)[k]];
    if (eval::MeasureGrew(v.measure, recorded[k])) {
      v.baseline_measure = recorded[k];
    } else {
      (*known)[(*found)[k]] = true;
    }
  }
  return paired;
}

// False when the entry is malformed. `*legacy`: it names no statement (a
// baseline written before statements were part of a finding's identity).
bool ReadEntry(const Value& entry, Diagnostics* diags, FindingKey* key, Value* measure,
               bool* legacy) {
  MapReader r(entry, "baseline entry", diags);
  LocatedString s;
  bool ok = r.String("rule", &s, true);
  key->rule = s.text;
  ok = r.String("file", &s, true) && ok;
  key->file = s.text;
  if (r.String("at", &s)) key->at = s.text;
  if (r.String("facts", &s)) key->facts = s.text;
  *legacy = !r.String("statement", &s);
  if (!*legacy) key->statement = s.text;
  if (r.String("content", &s)) key->content = s.text;
  r.Amount("measure", measure);
  r.Finish();
  return ok && r.is_map();
}

}  // namespace

Diagnostics Baseline::Parse(const SourceManager& sources, FileId file,
                            const facts::LoadOptions& options) {
  Diagnostics diags;
  base_dir_ = std::filesystem::path(sources.Path(file)).parent_path();
  facts::RawLoadResult loaded = facts::LoadRawYaml(sources, file, options);
  diags.Append(loaded.diagnostics);
  if (loaded.documents.empty()) return diags;  // an empty baseline knows nothing
  MapReader root(loaded.documents[0], "baseline file", &diags);
  const Value* list = root.List("findings");
  root.Finish();
  if (list != nullptr) {
    for (const Value& entry : list->items()) {
      FindingKey key;
      Value measure;
      bool legacy = false;
      if (!ReadEntry(entry, &diags, &key, &measure, &legacy)) continue;
      if (legacy) {
        ++legacy_counts_[key.LegacyFingerprint()];
      } else {
        entries_[key.Fingerprint()].push_back(std::move(measure));
      }
    }
  }
  if (size_t old = legacy_size(); old > 0) {
    warning_ = "baseline `" + std::string(sources.Path(file)) + "` has " + std::to_string(old) +
               " entries of the older form, which do not say which statement of a rule fired: "
               "each hides any one finding of its rule at its fact; write it again with "
               "`--write-baseline` to tell them apart";
  }
  diags.Sort();
  return diags;
}

size_t Baseline::size() const {
  size_t n = legacy_size();
  for (const auto& [fingerprint, measures] : entries_) n += measures.size();
  return n;
}

size_t Baseline::legacy_size() const {
  size_t n = 0;
  for (const auto& [fingerprint, count] : legacy_counts_) n += count;
  return n;
}

void Baseline::Filter(eval::LintReport* report, FindingKeys* keys) const {
  auto& violations = report->violations;
  // The unwaived findings by fingerprint; each fingerprint's entries go to
  // its findings, and entries of the older form to those left, in report order.
  std::map<std::string, std::vector<size_t>> by_key;
  std::vector<std::string> legacy(violations.size());
  for (size_t i = 0; i < violations.size(); ++i) {
    if (violations[i].suppression) continue;
    FindingKey key = keys->Of(violations[i]);
    by_key[key.Fingerprint()].push_back(i);
    legacy[i] = key.LegacyFingerprint();
  }
  std::vector<bool> known(violations.size(), false);
  std::vector<size_t> left;
  for (auto& [fingerprint, found] : by_key) {
    auto it = entries_.find(fingerprint);
    size_t paired = it == entries_.end() ? 0 : Pair(it->second, &found, &violations, &known);
    left.insert(left.end(), found.begin() + static_cast<std::ptrdiff_t>(paired), found.end());
  }
  std::sort(left.begin(), left.end());
  std::map<std::string, size_t> legacy_left = legacy_counts_;
  for (size_t i : left) {
    auto it = legacy_left.find(legacy[i]);
    if (it != legacy_left.end() && it->second > 0) {
      --it->second;
      known[i] = true;
    }
  }
  size_t kept = 0;
  for (size_t i = 0; i < violations.size(); ++i) {
    if (known[i]) continue;
    if (kept != i) violations[kept] = std::move(violations[i]);
    ++kept;
  }
  report->baselined += violations.size() - kept;
  violations.resize(kept);
}

void WriteBaseline(const eval::LintReport& report, FindingKeys* keys, std::ostream& out) {
  std::vector<std::string> lines;
  for (const eval::Violation& v : report.violations) {
    if (!v.suppression) lines.push_back(EntryLine(keys->Of(v), v.measure));
  }
  std::sort(lines.begin(), lines.end());
  out << "# capops-lint baseline: known findings; only findings not listed here are reported.\n"
      << "# Written by `capops-lint --write-baseline`; entries name facts, not lines.\n";
  if (lines.empty()) {
    out << "findings: []\n";
    return;
  }
  out << "findings:\n";
  for (const std::string& line : lines) out << line << '\n';
}

}  // namespace capops::lint
