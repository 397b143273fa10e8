// SPDX-License-Identifier: Apache-2.0
// FindingKeys: fact paths (by reloading a fact file's located values) and
// the line-free identity of findings that waivers and the baseline use.
#include "engine/lint/finding_key.h"

#include <optional>

#include "engine/common/sha256.h"

namespace capops::lint {

namespace fs = std::filesystem;

namespace {

using Indexed = std::map<std::pair<uint32_t, uint32_t>, std::pair<std::string, const Value*>>;

// Records the path of every value of a document (and the value), walking
// with an explicit stack (documents may be deep). The first path seen for a
// place wins: a field merged in by `<<` keeps the place of the one it was
// copied from, whose path comes first (CopyPath() finds a copy's).
void IndexPaths(const Value& root, const std::string& prefix, Indexed* out) {
  std::vector<std::pair<const Value*, std::string>> stack{{&root, prefix}};
  while (!stack.empty()) {
    auto [value, path] = std::move(stack.back());
    stack.pop_back();
    if (value->loc().valid())
      out->try_emplace({value->loc().line, value->loc().column}, path, value);
    if (value->is(ValueKind::kMap)) {
      MapView entries = value->entries();
      for (size_t i = entries.size(); i-- > 0;) {
        const auto& [key, field] = entries[i];
        stack.emplace_back(&field, path.empty() ? key.str() : path + "." + key);
      }
    } else if (value->is(ValueKind::kList)) {
      ListView items = value->items();
      for (size_t i = items.size(); i-- > 0;) {
        std::string_view id = items[i].Id();
        stack.emplace_back(&items[i],
                           path + "[" + (id.empty() ? std::to_string(i) : std::string(id)) + "]");
      }
    }
  }
}

}  // namespace

std::string FindingKey::LegacyFingerprint() const {
  std::string out = rule + " " + file;
  if (!at.empty()) out += " " + at;
  if (!facts.empty()) out += " " + facts;
  return out;
}

std::string FindingKey::Fingerprint() const {
  std::string out = LegacyFingerprint();
  if (!statement.empty()) out += " #" + statement;
  if (!content.empty()) out += " ~" + content;
  return out;
}

std::string StatementDigest(std::string_view statement) {
  if (statement.empty()) return "";
  return Sha256().Add("statement").Add(statement).Hex().substr(0, 16);
}

std::string ContentDigest(std::string_view subject) {
  if (subject.empty()) return "";
  return Sha256().Add("content").Add(subject).Hex().substr(0, 16);
}

std::string RelativePath(std::string_view path, const fs::path& base_dir,
                         const fs::path& working_dir) {
  fs::path p = (working_dir / fs::path(path)).lexically_normal();
  fs::path base = (working_dir / base_dir).lexically_normal();
  fs::path rel = p.lexically_relative(base);
  return (rel.empty() ? p : rel).generic_string();
}

FindingKeys::FindingKeys(const SourceManager& sources, facts::LoadOptions options,
                         fs::path base_dir, fs::path working_dir)
    : sources_(sources),
      options_(options),
      base_dir_(std::move(base_dir)),
      working_dir_(std::move(working_dir)) {}

const FindingKeys::FileIndex& FindingKeys::IndexOf(FileId file) {
  auto [it, inserted] = index_.try_emplace(file);
  if (!inserted) return it->second;
  // A released file is loaded again from its text read back: only lines
  // and columns are used, so another FileId does not matter.
  const SourceFile& source = sources_.file(file);
  SourceManager reread;
  std::optional<std::string> text;
  if (source.released()) {
    text = source.ReadText();
    if (!text) {
      warnings_.push_back("`" + std::string(source.path()) +
                          "` changed on disk while it was linted; its findings have no fact paths");
      return it->second;
    }
  }
  facts::LoadResult loaded =
      text ? facts::LoadYaml(reread, reread.Add(source.path(), std::move(*text)), options_)
           : facts::LoadYaml(sources_, file, options_);
  FileIndex& index = it->second;
  index.documents = std::move(loaded.documents);
  for (size_t d = 0; d < index.documents.size(); ++d) {
    IndexPaths(index.documents[d].root, d == 0 ? "" : "docs[" + std::to_string(d) + "]",
               &index.paths);
  }
  index.merges = std::move(loaded.merges);
  index.merged = std::move(loaded.merged);
  return index;
}

std::string FindingKeys::FactPath(const SourceLoc& loc) {
  if (!loc.valid() || loc.file >= sources_.size()) return "";
  const auto& paths = IndexOf(loc.file).paths;
  auto it = paths.find({loc.line, loc.column});
  return it == paths.end() ? "" : it->second.first;
}

std::string FindingKeys::CopyPath(const SourceLoc& loc, const SourceLoc& via) {
  if (!loc.valid() || loc.file >= sources_.size()) return "";
  const FileIndex& index = IndexOf(loc.file);
  for (const facts::MergedValue& m : index.merged) {
    const facts::MergeSite& site = index.merges[m.site];
    if (m.at.line != loc.line || m.at.column != loc.column || site.site.line != via.line ||
        site.site.column != via.column) {
      continue;
    }
    // The copy is the one value at `loc` under the mapping it was merged into.
    auto into = index.paths.find({site.into.line, site.into.column});
    if (into == index.paths.end()) return "";
    Indexed below;
    IndexPaths(*into->second.second, into->second.first, &below);
    auto copy = below.find({loc.line, loc.column});
    return copy == below.end() ? "" : copy->second.first;
  }
  return "";
}

FindingKey FindingKeys::Of(const eval::Violation& v) {
  FindingKey key;
  key.rule = v.rule_id;
  key.file = RelativePath(sources_.Path(v.loc.file), base_dir_, working_dir_);
  key.at = v.via.valid() ? CopyPath(v.loc, v.via) : FactPath(v.loc);
  for (const eval::Evidence& e : v.evidence) {
    if (!e.loc.valid() || e.at_fact)
      continue;  // computed values may change with any fact; `at` is key.at
    if (!key.facts.empty()) key.facts += ' ';
    key.facts += e.name + "=" + e.value;
  }
  key.statement = StatementDigest(v.statement);
  key.content = ContentDigest(v.subject);
  return key;
}

}  // namespace capops::lint
