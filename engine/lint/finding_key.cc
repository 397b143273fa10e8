// FindingKeys: fact paths (by reloading a fact file's located values) and
// the line-free identity of findings that waivers and the baseline use.
#include "engine/lint/finding_key.h"

#include <optional>

#include "engine/common/sha256.h"

namespace capops::lint {

namespace fs = std::filesystem;

namespace {

// Records the path of every value of a document. The first path seen for a
// place wins: a field merged in by `<<` keeps the place of the one it was
// copied from, whose path comes first (Of() finds the copy's by its `<<`).
void IndexPaths(const Value& root, const std::string& prefix,
                std::map<std::pair<uint32_t, uint32_t>, std::string>* out) {
  facts::ForEachPath(root, prefix, [&](const Value& value, const std::string& path) {
    if (value.loc().valid()) out->try_emplace({value.loc().line, value.loc().column}, path);
  });
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
  for (size_t d = 0; d < loaded.documents.size(); ++d) {
    IndexPaths(loaded.documents[d].root, d == 0 ? "" : "docs[" + std::to_string(d) + "]",
               &it->second.paths);
  }
  it->second.merges = std::move(loaded.merges);
  return it->second;
}

std::string FindingKeys::FactPath(const SourceLoc& loc) {
  if (!loc.valid() || loc.file >= sources_.size()) return "";
  const auto& paths = IndexOf(loc.file).paths;
  auto it = paths.find({loc.line, loc.column});
  return it == paths.end() ? "" : it->second;
}

std::string FindingKeys::CopyPath(const SourceLoc& loc, const SourceLoc& via) {
  if (!loc.valid() || loc.file >= sources_.size()) return "";
  for (const facts::MergeUse& m : IndexOf(loc.file).merges) {
    if (m.at.line != loc.line || m.at.column != loc.column || m.site.line != via.line ||
        m.site.column != via.column) {
      continue;
    }
    std::string into = FactPath(SourceLoc{loc.file, m.into.line, m.into.column});
    return into.empty() ? m.path : into + "." + m.path;
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
