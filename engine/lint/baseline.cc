// Baseline files: writing today's findings as sorted YAML lines, reading them
// back through the YAML adapter, and leaving known findings out of a report.
#include "engine/lint/baseline.h"

#include <algorithm>
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

std::string EntryLine(const FindingKey& k) {
  std::string line = "  - {rule: " + Quoted(k.rule) + ", file: " + Quoted(k.file);
  if (!k.at.empty()) line += ", at: " + Quoted(k.at);
  if (!k.facts.empty()) line += ", facts: " + Quoted(k.facts);
  line += ", statement: " + Quoted(k.statement);
  if (!k.content.empty()) line += ", content: " + Quoted(k.content);
  return line + "}";
}

// False when the entry is malformed. `*legacy`: it names no statement (a
// baseline written before statements were part of a finding's identity).
bool ReadEntry(const Value& entry, Diagnostics* diags, FindingKey* key, bool* legacy) {
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
      bool legacy = false;
      if (!ReadEntry(entry, &diags, &key, &legacy)) continue;
      if (legacy) {
        ++legacy_counts_[key.LegacyFingerprint()];
      } else {
        ++counts_[key.Fingerprint()];
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
  for (const auto& [fingerprint, count] : counts_) n += count;
  return n;
}

size_t Baseline::legacy_size() const {
  size_t n = 0;
  for (const auto& [fingerprint, count] : legacy_counts_) n += count;
  return n;
}

void Baseline::Filter(eval::LintReport* report, FindingKeys* keys) const {
  std::map<std::string, size_t> left = counts_, legacy_left = legacy_counts_;
  auto take = [](std::map<std::string, size_t>* from, const std::string& fingerprint) {
    auto it = from->find(fingerprint);
    if (it == from->end() || it->second == 0) return false;
    --it->second;
    return true;
  };
  auto known = [&](const eval::Violation& v) {
    if (v.suppression) return false;
    FindingKey key = keys->Of(v);
    return take(&left, key.Fingerprint()) || take(&legacy_left, key.LegacyFingerprint());
  };
  auto& violations = report->violations;
  size_t before = violations.size();
  violations.erase(std::remove_if(violations.begin(), violations.end(), known), violations.end());
  report->baselined += before - violations.size();
}

void WriteBaseline(const eval::LintReport& report, FindingKeys* keys, std::ostream& out) {
  std::vector<std::string> lines;
  for (const eval::Violation& v : report.violations) {
    if (!v.suppression) lines.push_back(EntryLine(keys->Of(v)));
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
