// SPDX-License-Identifier: Apache-2.0
// Facts: YAML documents loaded into located Values.
//
// This is the one place YAML is parsed (with libfyaml). Every document of a file becomes a
// Document whose root is a Value tree in which each value keeps the file, line
// and column it came from. A plain scalar is null (`null`, `~`, empty) or
// keeps its text (Value::PlainText) for validation to type by the schema
// (ValidateDocument): a string field gets the characters written, an int
// field the number. Quoted scalars always stay strings. Lists of maps with
// distinct string `id`s are keyed (Value::FindById).
//
// Bad input never throws out of here: invalid YAML, a NUL byte, invalid
// UTF-8, duplicate mapping keys, nesting or size beyond the limits, a document
// with an unknown `apiVersion` or `kind` are Diagnostics with locations, and
// the documents that did load are still returned.
//
//   SourceManager sm;
//   FileId f = sm.Add("plan.yaml", text);
//   facts::LoadResult r = facts::LoadYaml(sm, f, {});
//   for (const facts::Document& d : r.documents) …
//
// What a Value does not keep (where its key is, what is under an editor's
// cursor) is found by reading the text again: locate.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/common/diagnostic.h"
#include "engine/common/source.h"
#include "engine/common/value.h"

namespace capops::facts {

inline constexpr const char* kApiVersion = "capops.dev/v1";

enum class DocumentKind { kCapacityPlan, kInventory };

/// "CapacityPlan" or "Inventory".
const char* DocumentKindName(DocumentKind kind);

/// Limits on one fact file; each breach is a located diagnostic that names
/// the flag raising it.
struct LoadOptions {
  size_t max_file_bytes = 16 << 20;    // --max-file-size
  size_t max_depth = 64;               // nesting of maps and lists (--max-depth)
  size_t max_nodes = 1'000'000;        // values created, counting alias expansion (--max-values)
  size_t max_documents = 1000;         // documents in one file (--max-documents)
  size_t max_string_length = 1 << 16;  // characters in one scalar (--max-string-length)
  /// Text written in the simple subset of YAML most fact files are written
  /// in is read by capops's own reader (simple_yaml.h), anything else by
  /// libfyaml; both give the same documents, values, places and
  /// diagnostics. False: libfyaml reads everything.
  bool simple_reader = true;
  /// A fact file of at least this many bytes that the simple reader reads
  /// is read in two halves at once, on two threads, when one of its
  /// top-level sequences holds its middle (SIZE_MAX: never). A lint sets it
  /// when it runs on more than one thread.
  size_t halves_from = SIZE_MAX;
};

/// Which reader read a file's text (LoadResult::reader).
enum class YamlReader { kLibfyaml, kSimple };

struct Document {
  DocumentKind kind = DocumentKind::kCapacityPlan;
  Value root;     // a map; includes apiVersion and kind
  SourceLoc loc;  // where the document starts
};

/// A value used through an alias (`*x`): it is located where it is used,
/// and this says where its anchor is.
struct AliasUse {
  SourceLoc use;     // the alias
  SourceLoc anchor;  // the anchored value
  std::string name;  // the anchor's name, without `&`
};

/// A mapping merged into another by `<<` (`<<: *x`, each of `<<: [*x, *y]`,
/// `<<: {…}`).
struct MergeSite {
  SourceLoc site;    // the `<<` entry
  SourceLoc into;    // the mapping it was merged into
  SourceLoc from;    // the mapping merged: the anchor's, or the one written there
  std::string name;  // the anchor merged, without `*`; "" for a mapping written there
};

/// A value merged in by `<<`: it keeps the place where it is written, which
/// the mapping it came from and each mapping it is merged into share. Each
/// value under a merged field is listed too (as many as the merge counted
/// against `max_nodes`).
struct MergedValue {
  SourceLoc at;  // the value, where it is written
  size_t site;   // its merge: an index into LoadResult::merges
};

struct LoadResult {
  std::vector<Document> documents;  // the well-formed documents, in file order
  Diagnostics diagnostics;          // sorted by location
  std::vector<AliasUse> aliases;    // in the returned documents, in file order
  std::vector<MergeSite> merges;    // likewise
  std::vector<MergedValue> merged;  // likewise
  /// The reader whose documents these are: the simple one when the whole
  /// text is in its subset (LoadOptions::simple_reader), else libfyaml.
  YamlReader reader = YamlReader::kLibfyaml;
  /// The simple reader read it in two halves at once (halves_from).
  bool halves = false;
};

/// Loads every document of a file already held by `sources`.
LoadResult LoadYaml(const SourceManager& sources, FileId file, const LoadOptions& options);

/// LoadYaml for a run that need not keep the text: a file of at least
/// `release_from` bytes that can be read back from disk gives its text
/// back (SourceFile::ReleaseText). ASCII text is given back once it has
/// been checked (NUL bytes, UTF-8, nesting) and is parsed from the file on
/// disk, so the text and the Values made from it are never held together;
/// other text is given back after parsing (columns are counted in its
/// lines). A file that changes on disk while it is parsed is an error and
/// gives no documents.
LoadResult LoadYamlReleasing(SourceManager* sources, FileId file, const LoadOptions& options,
                             size_t release_from);

/// A file's documents as plain located Values, for the tool's own YAML files
/// (config, waivers, baseline) that are not facts.
struct RawLoadResult {
  std::vector<Value> documents;  // the non-empty documents, in file order
  Diagnostics diagnostics;       // sorted by location
};

/// Loads every document of a file like LoadYaml (same limits and
/// diagnostics) but without the `apiVersion`/`kind` check: any YAML value
/// may be a document. With no schema to come, plain scalars are typed by
/// their text at once (TypePlainScalar): integers, floats, booleans, null,
/// dates (`2027-04-12`), durations (`5d`, `8h`) and quantities (`80GiB`,
/// `5GB/s`).
RawLoadResult LoadRawYaml(const SourceManager& sources, FileId file, const LoadOptions& options);

/// Merges several documents of one kind into one map: list fields are
/// concatenated (and keyed again), other fields keep the first document's
/// value. An id that repeats across documents in a keyed list is a diagnostic
/// at its second occurrence.
Value MergeDocuments(const std::vector<const Document*>& documents, Diagnostics* diagnostics);

}  // namespace capops::facts
