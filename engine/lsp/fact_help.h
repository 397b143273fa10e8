// SPDX-License-Identifier: Apache-2.0
// What capops-lsp says about a place in a plan or inventory: hover,
// go-to-definition and completion, all from the compiled rule set's schema.
//
// The place is found by the YAML parser the loader uses (facts::PointAt),
// so flow mappings (`{id: a, pool: train-eu}`) and block ones read alike.
// A path from the document's `kind` through the schema's records gives the
// field there:
//
//   - hover on a key: the field's doc comment, its type and unit, its
//     default, and the rules that read it (the catalogue's FieldReaders);
//   - hover on a value: for a reference (`pool: train-eu`), the record it
//     names and where; for an enum, its members; else the field's hover;
//   - definition on a reference: the `id` of the record it names, in the
//     document or the fact files beside it (its inventory, say);
//   - completion: the fields of the record at the cursor not yet written,
//     an enum's members, the ids of the referenced kind, `true`/`false`,
//     the document kinds.
//
// A text that does not parse up to the cursor (a key half typed) is read
// again with a placeholder key completed at the cursor, so completion works
// while typing.
//
//   FactHelp help(engine);
//   nlohmann::json hover = help.Hover(doc, beside, 12, 11);
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/engine.h"
#include "engine/check/schema_decls.h"
#include "engine/facts/locate.h"

namespace capops::lsp {

class FactHelp {
 public:
  /// `engine` is compiled; `readers` maps "Record.field" to the rules that
  /// read it (lint::FieldReaders).
  FactHelp(std::shared_ptr<const Engine> engine,
           std::map<std::string, std::vector<std::string>, std::less<>> readers);

  /// Each takes the document, the fact files that go with it (for ids) and
  /// a 1-based line and character column; the result is the protocol's
  /// (Hover, Location[] or CompletionList), null when there is nothing.
  nlohmann::json Hover(const TextFile& doc, const std::vector<TextFile>& beside, uint32_t line,
                       uint32_t column) const;
  nlohmann::json Definition(const TextFile& doc, const std::vector<TextFile>& beside, uint32_t line,
                            uint32_t column) const;
  nlohmann::json Completion(const TextFile& doc, const std::vector<TextFile>& beside, uint32_t line,
                            uint32_t column) const;

  /// Where the schema puts a path: the record a mapping there is, the last
  /// field named on the way and the value's type.
  struct Place {
    const RecordDef* owner = nullptr;   // the record holding `field`
    const FieldDef* field = nullptr;    // the last field the path names
    TypeId type = 0;                    // the value's type at the path (optional unwrapped)
    const RecordDef* record = nullptr;  // when `type` is a record
  };
  std::optional<Place> Resolve(const std::string& kind,
                               const std::vector<facts::PathStep>& path) const;

 private:
  struct Target {
    std::string path;  // the file
    SourceLoc id;      // where its `id` is (file unset: see `path`)
    Value record;
    std::string text;  // the file's text, for positions
  };
  /// The records of kind `record` with id `id` in `doc` and `beside`.
  std::vector<Target> Targets(uint32_t record, const std::string& id, const TextFile& doc,
                              const std::vector<TextFile>& beside) const;
  /// All ids of kind `record` in `doc` and `beside`, with the file each is in.
  std::vector<std::pair<std::string, std::string>> Ids(uint32_t record, const TextFile& doc,
                                                       const std::vector<TextFile>& beside) const;
  /// Markdown for a field: `Record.field`, type, default, doc, unit, readers.
  std::string FieldDoc(const RecordDef& owner, const FieldDef& field) const;
  /// The referenced record's index when `type` is a ref (or a list of them).
  std::optional<uint32_t> RefRecord(TypeId type) const;

  std::shared_ptr<const Engine> engine_;
  const TypeTable& schema_;
  std::map<std::string, std::vector<std::string>, std::less<>> readers_;
  check::SchemaDecls decls_;
};

}  // namespace capops::lsp
