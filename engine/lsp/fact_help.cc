// SPDX-License-Identifier: Apache-2.0
// Hover, go-to-definition and completion in plans and inventories, from the
// rule set's schema (fact_help.h). Entry point: FactHelp.
#include "engine/lsp/fact_help.h"

#include <set>
#include <utility>

#include "engine/facts/loader.h"
#include "engine/lsp/position.h"
#include "engine/lsp/uri.h"
#include "engine/report/json_schema.h"

namespace capops::lsp {

using Json = nlohmann::json;

namespace {

// What completion writes at the cursor so that a half-typed key parses.
constexpr std::string_view kPlaceholder = "capopsCompletionPoint";

// LSP's CompletionItemKind.
constexpr int kItemValue = 12;
constexpr int kItemProperty = 10;
constexpr int kItemEnumMember = 20;
constexpr int kItemReference = 18;

Json RangeIn(std::string_view text, const SourceLoc& begin, const SourceLoc& end) {
  return {{"start", PositionIn(text, begin.line, begin.column)},
          {"end", PositionIn(text, end.line, end.column)}};
}

Json Markdown(const std::string& text) {
  return {{"kind", "markdown"}, {"value", text}};
}

std::string Code(const std::string& text) {
  return "`" + text + "`";
}

// The fact files' documents, loaded as located values, each with its text.
struct LoadedFile {
  const TextFile* file = nullptr;
  facts::LoadResult result;
};

std::vector<LoadedFile> LoadAll(SourceManager* sources, const TextFile& doc,
                                const std::vector<TextFile>& beside) {
  std::vector<LoadedFile> out;
  auto load = [&](const TextFile& f) {
    FileId id = sources->Add(f.path, f.text);
    out.push_back({&f, facts::LoadYaml(*sources, id, facts::LoadOptions{})});
  };
  load(doc);
  for (const TextFile& f : beside) load(f);
  return out;
}

// A record's scalar fields as YAML lines, nested ones elided.
std::string RecordSketch(const Value& record) {
  std::string out;
  if (record.kind() != ValueKind::kMap) return out;
  for (const auto& [key, value] : record.entries()) {
    out += key.str() + ": ";
    switch (value.kind()) {
      case ValueKind::kMap:
        out += "{…}";
        break;
      case ValueKind::kList:
        out += "[…]";
        break;
      case ValueKind::kString:
        out += std::string(value.string_value());
        break;
      default:
        out += value.ToString();
        break;
    }
    out += "\n";
  }
  return out;
}

}  // namespace

FactHelp::FactHelp(std::shared_ptr<const Engine> engine,
                   std::map<std::string, std::vector<std::string>, std::less<>> readers)
    : engine_(std::move(engine)),
      schema_(engine_->program()->schema),
      readers_(std::move(readers)),
      decls_(*engine_->program()) {}

std::optional<FactHelp::Place> FactHelp::Resolve(const std::string& kind,
                                                 const std::vector<facts::PathStep>& path) const {
  const RecordDef* document = schema_.Document(kind);
  if (document == nullptr) return std::nullopt;
  auto unwrap = [&](TypeId t) {
    while (schema_.KindOf(t) == TypeKind::kOptional) t = schema_.Get(t).elem;
    return t;
  };
  Place place;
  place.record = document;
  for (const facts::PathStep& step : path) {
    if (place.record != nullptr) {
      if (step.is_item) return std::nullopt;
      const FieldDef* field = place.record->Find(step.key);
      if (field == nullptr) return std::nullopt;
      place.owner = place.record;
      place.field = field;
      place.type = unwrap(field->type);
    } else {
      const Type& t = schema_.Get(place.type);
      bool item = step.is_item && t.kind == TypeKind::kList,
           entry = !step.is_item && t.kind == TypeKind::kMap;
      if (!item && !entry) return std::nullopt;
      place.type = unwrap(t.elem);
    }
    const Type& t = schema_.Get(place.type);
    place.record = t.kind == TypeKind::kRecord ? &schema_.records[t.index] : nullptr;
  }
  return place;
}

std::optional<uint32_t> FactHelp::RefRecord(TypeId type) const {
  const Type& t = schema_.Get(type);
  if (t.kind == TypeKind::kRef) return t.index;
  if (t.kind == TypeKind::kList && schema_.KindOf(t.elem) == TypeKind::kRef)
    return schema_.Get(t.elem).index;
  return std::nullopt;
}

std::string FactHelp::FieldDoc(const RecordDef& owner, const FieldDef& field) const {
  std::string name = owner.name + "." + field.name;
  std::string out = "**" + Code(name) + "** " + Code(schema_.DeclaredType(field));
  if (field.has_default) {
    out += " · default " + Code(field.default_value.ToString());
  } else if (field.optional) {
    out += " · optional";
  } else {
    out += " · required";
  }
  if (const std::string& doc = decls_.FieldDoc(owner.name, field.name); !doc.empty()) {
    out += "\n\n" + doc;
  }
  std::string shape = report::FieldShape(schema_, field);
  if (!shape.empty()) {
    shape[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(shape[0])));
    out += "\n\n" + shape + ".";
  }
  auto readers = readers_.find(name);
  if (readers == readers_.end() || readers->second.empty()) {
    out += "\n\nNo rule reads it.";
  } else {
    out += "\n\nRead by";
    for (size_t i = 0; i < readers->second.size(); ++i)
      out += (i == 0 ? " " : ", ") + Code(readers->second[i]);
    out += ".";
  }
  return out;
}

namespace {

// Each keyed list of the documents that holds records of `record`:
// (document kind, field).
std::vector<std::pair<std::string, std::string>> HoldersOf(const TypeTable& schema,
                                                           uint32_t record) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const RecordDef& d : schema.records) {
    if (!d.is_document) continue;
    for (const FieldDef* f : schema.ListsOf(d, record)) out.emplace_back(d.name, f->name);
  }
  return out;
}

// Calls `visit(file, item)` for every record of kind `record` in `files`.
template <typename Visit>
void ForEachHeld(const TypeTable& schema, uint32_t record, const std::vector<LoadedFile>& files,
                 Visit visit) {
  for (const auto& [kind, field] : HoldersOf(schema, record)) {
    for (const LoadedFile& f : files) {
      for (const facts::Document& d : f.result.documents) {
        if (facts::DocumentKindName(d.kind) != kind) continue;
        const Value* list = d.root.Field(field);
        if (list == nullptr || list->kind() != ValueKind::kList) continue;
        for (const Value& item : list->items()) visit(f, item);
      }
    }
  }
}

}  // namespace

std::vector<FactHelp::Target> FactHelp::Targets(uint32_t record, const std::string& id,
                                                const TextFile& doc,
                                                const std::vector<TextFile>& beside) const {
  SourceManager sources;
  std::vector<LoadedFile> files = LoadAll(&sources, doc, beside);
  std::vector<Target> out;
  ForEachHeld(schema_, record, files, [&](const LoadedFile& f, const Value& item) {
    const Value* item_id = item.kind() == ValueKind::kMap ? item.Field("id") : nullptr;
    if (item_id == nullptr || item_id->kind() != ValueKind::kString ||
        item_id->string_value() != id)
      return;
    out.push_back(Target{f.file->path, item_id->loc(), item, f.file->text});
  });
  return out;
}

std::vector<std::pair<std::string, std::string>> FactHelp::Ids(
    uint32_t record, const TextFile& doc, const std::vector<TextFile>& beside) const {
  SourceManager sources;
  std::vector<LoadedFile> files = LoadAll(&sources, doc, beside);
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string> seen;
  ForEachHeld(schema_, record, files, [&](const LoadedFile& f, const Value& item) {
    const Value* id = item.kind() == ValueKind::kMap ? item.Field("id") : nullptr;
    if (id == nullptr || id->kind() != ValueKind::kString || id->string_value().empty()) return;
    if (seen.insert(std::string(id->string_value())).second)
      out.emplace_back(id->string_value(), f.file->path);
  });
  return out;
}

Json FactHelp::Hover(const TextFile& doc, const std::vector<TextFile>& beside, uint32_t line,
                     uint32_t column) const {
  std::optional<facts::YamlPoint> point = facts::PointAt(doc.text, line, column);
  if (!point || point->begin == point->end) return nullptr;
  Json range = RangeIn(doc.text, point->begin, point->end);
  auto answer = [&](const std::string& markdown) {
    return Json{{"contents", Markdown(markdown)}, {"range", range}};
  };
  if (point->path.empty() && point->on_key) {
    if (point->text == "apiVersion")
      return answer("**`apiVersion`**: the fact format's version, `" +
                    std::string(facts::kApiVersion) + "`.");
    if (point->text == "kind")
      return answer("**`kind`**: what this document holds: `CapacityPlan` or `Inventory`.");
  }
  std::optional<Place> place = Resolve(point->kind, point->path);
  if (!place) return nullptr;
  if (point->on_key) {
    const FieldDef* field = place->record == nullptr ? nullptr : place->record->Find(point->text);
    if (field == nullptr) return nullptr;
    return answer(FieldDoc(*place->record, *field));
  }
  std::string field_doc = place->field == nullptr ? "" : FieldDoc(*place->owner, *place->field);
  if (std::optional<uint32_t> record = RefRecord(place->type)) {
    const std::string& kind = schema_.records[*record].name;
    std::vector<Target> targets = Targets(*record, point->text, doc, beside);
    if (targets.empty()) {
      return answer("No `" + kind + "` has the id " + Code(point->text) + ".\n\n---\n\n" +
                    field_doc);
    }
    std::string out;
    for (const Target& t : targets) {
      out += "**" + kind + " " + Code(point->text) + "** in " +
             Code(t.path + ":" + std::to_string(t.id.line)) + "\n\n```yaml\n" +
             RecordSketch(t.record) + "```\n\n";
    }
    return answer(out + "---\n\n" + field_doc);
  }
  if (schema_.KindOf(place->type) == TypeKind::kEnum) {
    const EnumDef& e = schema_.enums[schema_.Get(place->type).index];
    bool member = e.FindFact(point->text) >= 0;
    std::string head = Code(point->text) + (member ? " is a " : " is not a ") + Code(e.name) +
                       ": " + report::ValueShape(schema_, place->type) + ".";
    return answer(head + "\n\n---\n\n" + field_doc);
  }
  if (field_doc.empty()) return nullptr;
  return answer(field_doc);
}

Json FactHelp::Definition(const TextFile& doc, const std::vector<TextFile>& beside, uint32_t line,
                          uint32_t column) const {
  std::optional<facts::YamlPoint> point = facts::PointAt(doc.text, line, column);
  if (!point || point->on_key || point->begin == point->end) return nullptr;
  std::optional<Place> place = Resolve(point->kind, point->path);
  if (!place) return nullptr;
  std::optional<uint32_t> record = RefRecord(place->type);
  if (!record) return nullptr;
  Json out = Json::array();
  for (const Target& t : Targets(*record, point->text, doc, beside)) {
    SourceLoc end = t.id;
    if (std::optional<std::string_view> l = LineAt(t.text, t.id.line - 1)) {
      // The id's characters (quotes aside), up to the line's end.
      size_t from = ByteOffset(*l, t.id.column);
      end.column =
          t.id.column + CharCount(l->substr(from, std::min(point->text.size(), l->size() - from)));
    }
    out.push_back({{"uri", UriOfPath(t.path)}, {"range", RangeIn(t.text, t.id, end)}});
  }
  if (out.empty()) return nullptr;
  return out;
}

Json FactHelp::Completion(const TextFile& doc, const std::vector<TextFile>& beside, uint32_t line,
                          uint32_t column) const {
  Json items = Json::array();
  Json result = {{"isIncomplete", false}, {"items", Json::array()}};
  std::optional<size_t> offset = TextOffset(doc.text, line, column);
  if (!offset) return result;
  // Read the text with a placeholder at the cursor; a key half typed in a
  // block mapping parses only once it has its `:`.
  std::optional<facts::YamlPoint> point;
  for (std::string_view completed : {"", ": "}) {
    std::string text = doc.text.substr(0, *offset);
    text.append(kPlaceholder).append(completed).append(doc.text, *offset);
    point = facts::PointAt(text, line, column);
    if (point && point->text.find(kPlaceholder) != std::string::npos) break;
    point.reset();
  }
  if (!point) return result;
  SourceLoc cursor{kNoFile, line, column};
  SourceLoc begin =
      point->begin.line == line && point->begin.column <= column ? point->begin : cursor;
  Json range = RangeIn(doc.text, begin, cursor);
  auto add = [&](const std::string& label, int kind, const std::string& detail,
                 const std::string& text, const std::string& documentation,
                 const std::string& sort) {
    Json item = {{"label", label},
                 {"kind", kind},
                 {"textEdit", {{"range", range}, {"newText", text}}},
                 {"filterText", label},
                 {"sortText", sort + label}};
    if (!detail.empty()) item["detail"] = detail;
    if (!documentation.empty()) item["documentation"] = Markdown(documentation);
    items.push_back(std::move(item));
  };
  std::set<std::string> written(point->keys.begin(), point->keys.end());
  auto keys_of = [&](const RecordDef* record, bool root) {
    if (root) {
      if (written.count("apiVersion") == 0)
        add("apiVersion", kItemProperty, "string", "apiVersion: ", "The fact format's version.",
            "0");
      if (written.count("kind") == 0)
        add("kind", kItemProperty, "string", "kind: ", "`CapacityPlan` or `Inventory`.", "0");
    }
    if (record == nullptr) return;
    for (const FieldDef& f : record->fields) {
      if (written.count(f.name) != 0) continue;
      bool required = !f.optional && !f.has_default;
      add(f.name, kItemProperty, schema_.DeclaredType(f) + (required ? "" : " (optional)"),
          f.name + ": ", FieldDoc(*record, f), required ? "1" : "2");
    }
  };
  if (point->path.empty() && point->on_key) {
    keys_of(schema_.Document(point->kind), true);
  } else if (point->path.size() == 1 && !point->path[0].is_item && !point->on_key &&
             (point->path[0].key == "kind" || point->path[0].key == "apiVersion")) {
    if (point->path[0].key == "apiVersion") {
      add(facts::kApiVersion, kItemValue, "", facts::kApiVersion, "", "0");
    } else {
      for (const RecordDef& d : schema_.records) {
        if (d.is_document) add(d.name, kItemValue, "document", d.name, "", "0");
      }
    }
  } else if (std::optional<Place> place = Resolve(point->kind, point->path)) {
    if (point->on_key) {
      keys_of(place->record, false);
    } else if (place->record != nullptr) {
      // A scalar where a mapping goes: its first key, written in place
      // where a mapping may start there (`- |`), not after `metadata: `.
      written.clear();
      if (point->path.back().is_item) keys_of(place->record, false);
    } else if (std::optional<uint32_t> record = RefRecord(place->type)) {
      for (const auto& [id, file] : Ids(*record, doc, beside)) {
        add(id, kItemReference, schema_.records[*record].name, id, "in " + Code(file), "0");
      }
    } else if (schema_.KindOf(place->type) == TypeKind::kEnum) {
      const EnumDef& e = schema_.enums[schema_.Get(place->type).index];
      for (const std::string& m : e.members) {
        std::string spelling = EnumDef::FactSpelling(m);
        add(spelling, kItemEnumMember, e.name, spelling, "", "0");
      }
    } else if (schema_.KindOf(place->type) == TypeKind::kBool) {
      add("true", kItemValue, "bool", "true", "", "0");
      add("false", kItemValue, "bool", "false", "", "1");
    }
  }
  result["items"] = std::move(items);
  return result;
}

}  // namespace capops::lsp
