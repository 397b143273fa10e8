// SPDX-License-Identifier: Apache-2.0
// FactNames: one walk over the documents with their schema types, keeping
// the names of the few values that labels point at. The walk is iterative
// (a document may be deep) and builds a path only for a value it keeps.
#include "engine/api/fact_names.h"

#include <algorithm>
#include <cctype>

namespace capops {

namespace {

using Place = std::tuple<FileId, uint32_t, uint32_t>;

Place PlaceOf(const SourceLoc& loc) {
  return {loc.file, loc.line, loc.column};
}

// One step from a value down to one of its children.
struct Step {
  std::string_view key;  // a field or map key; empty for a list item
  std::string_view id;   // a list item's id, if it has one
  size_t index = 0;      // a list item's position
};

// A value on the path from the document's root to the one being visited.
struct Level {
  const Value* value = nullptr;
  Step step;
  int record = -1;  // the record's index when the value is a record with an id
};

struct Frame {
  const Value* value = nullptr;
  TypeId type = 0;                 // Any for a document's root, whose record is `def`
  const RecordDef* def = nullptr;  // the value's record type, if it has one
  size_t depth = 0;
  Step step;
};

TypeId Unwrapped(const TypeTable& schema, TypeId type) {
  while (schema.KindOf(type) == TypeKind::kOptional) type = schema.Get(type).elem;
  return type;
}

const RecordDef* RecordOf(const TypeTable& schema, TypeId type) {
  if (schema.KindOf(type) != TypeKind::kRecord) return nullptr;
  return &schema.records[schema.Get(type).index];
}

// The type of a map's entry `key`: a record's field, a map's value.
TypeId EntryType(const TypeTable& schema, const Frame& map, Key key) {
  if (map.def != nullptr) {
    const FieldDef* field = map.def->FindKey(key);
    return field != nullptr ? Unwrapped(schema, field->type) : schema.Any();
  }
  if (schema.KindOf(map.type) == TypeKind::kMap)
    return Unwrapped(schema, schema.Get(map.type).elem);
  return schema.Any();
}

TypeId ItemType(const TypeTable& schema, TypeId list) {
  if (schema.KindOf(list) != TypeKind::kList) return schema.Any();
  return Unwrapped(schema, schema.Get(list).elem);
}

// The name of the value at the end of `path` (the root first).
FactName NameOf(const TypeTable& schema, const std::vector<Level>& path) {
  FactName name;
  size_t last = path.size() - 1;
  size_t from = 1;  // the root is where no step leads
  for (size_t i = last; i-- > 0;) {
    if (path[i].record < 0) continue;
    name.record = RecordWords(schema.records[path[i].record].name);
    name.id = std::string(path[i].value->Id());
    name.owner = path[i].value->loc();
    from = i + 1;
    break;
  }
  for (size_t i = from; i <= last; ++i) {
    const Step& step = path[i].step;
    if (!step.key.empty()) {
      if (!name.path.empty()) name.path += '.';
      name.path += step.key;
    } else {
      name.path +=
          "[" + (step.id.empty() ? std::to_string(step.index) : std::string(step.id)) + "]";
    }
  }
  const Value& value = *path[last].value;
  if (path[last].record >= 0) {
    name.itself =
        RecordWords(schema.records[path[last].record].name) + " `" + std::string(value.Id()) + "`";
  }
  name.field = std::string(path[last].step.key);
  name.container = value.is(ValueKind::kMap) || value.is(ValueKind::kList);
  // A default takes the place of the map it was filled into.
  name.absent = last > 0 && path[last - 1].value->is(ValueKind::kMap) &&
                path[last - 1].value->loc() == value.loc();
  return name;
}

}  // namespace

std::string RecordWords(std::string_view record_name) {
  std::string out;
  for (size_t i = 0; i < record_name.size(); ++i) {
    auto c = static_cast<unsigned char>(record_name[i]);
    bool upper = std::isupper(c) != 0;
    if (upper && i > 0) {
      auto before = static_cast<unsigned char>(record_name[i - 1]);
      bool next_lower = i + 1 < record_name.size() &&
                        std::islower(static_cast<unsigned char>(record_name[i + 1])) != 0;
      // A word starts after a lower-case letter or digit, and at the last
      // capital of a run that a lower-case letter follows (`GPUPool`).
      if (std::isupper(before) == 0 || next_lower) out += ' ';
    }
    out += static_cast<char>(std::tolower(c));
  }
  return out;
}

std::string FactName::Where() const {
  return (record.empty() ? "" : record + " `" + id + "`: ") + "`" + path + "`";
}

std::string FactName::Said(const std::string& value) const {
  return Where() + " is " + (absent ? "not set (" + value + ")" : value);
}

FactNames::FactNames(const TypeTable& schema, const std::vector<facts::Document>& documents,
                     const std::set<Place>& wanted) {
  std::set<FileId> files;
  for (const Place& place : wanted) files.insert(std::get<0>(place));
  std::vector<Level> path;
  std::vector<Frame> stack;
  for (const facts::Document& document : documents) {
    if (files.count(document.loc.file) == 0) continue;
    const RecordDef* root = schema.Document(facts::DocumentKindName(document.kind));
    stack.push_back({&document.root, schema.Any(), root, 0, {}});
    while (!stack.empty()) {
      Frame frame = stack.back();
      stack.pop_back();
      const Value& value = *frame.value;
      path.resize(frame.depth);
      Level& level = path.emplace_back(Level{&value, frame.step, -1});
      if (frame.def != nullptr && frame.def->keyed() && !value.Id().empty())
        level.record = static_cast<int>(frame.def - schema.records.data());
      if (value.loc().valid() && wanted.count(PlaceOf(value.loc())) != 0)
        names_.emplace(PlaceOf(value.loc()), NameOf(schema, path));
      size_t depth = frame.depth + 1;
      if (value.is(ValueKind::kMap)) {
        MapView entries = value.entries();
        for (size_t i = entries.size(); i-- > 0;) {
          const auto& [key, field] = entries[i];
          TypeId type = EntryType(schema, frame, key);
          stack.push_back({&field, type, RecordOf(schema, type), depth, {key.str(), {}, 0}});
        }
      } else if (value.is(ValueKind::kList)) {
        ListView items = value.items();
        TypeId item = ItemType(schema, frame.type);
        for (size_t i = items.size(); i-- > 0;)
          stack.push_back({&items[i], item, RecordOf(schema, item), depth, {{}, items[i].Id(), i}});
      }
    }
  }
}

std::string FactNames::Binding(const SourceLoc& loc, const std::string& value) const {
  auto [begin, end] = names_.equal_range(PlaceOf(loc));
  for (auto it = begin; it != end; ++it) {
    if (!it->second.itself.empty()) return it->second.itself;
  }
  const FactName* name = Find(loc, "", {});
  if (name == nullptr || name->path.empty()) return "";
  return name->container ? name->Where() : name->Said(value);
}

const FactName* FactNames::Find(const SourceLoc& loc, std::string_view field,
                                const std::vector<SourceLoc>& owners) const {
  auto [begin, end] = names_.equal_range(PlaceOf(loc));
  std::vector<const FactName*> found;
  for (auto it = begin; it != end; ++it) found.push_back(&it->second);
  // Each test narrows the values found, unless none would be left.
  auto narrow = [&](auto keep) {
    std::vector<const FactName*> kept;
    std::copy_if(found.begin(), found.end(), std::back_inserter(kept), keep);
    if (!kept.empty()) found = std::move(kept);
  };
  if (!field.empty()) narrow([&](const FactName* n) { return n->field == field; });
  narrow([](const FactName* n) { return !n->container; });
  narrow([&](const FactName* n) {
    return std::find(owners.begin(), owners.end(), n->owner) != owners.end();
  });
  return found.empty() ? nullptr : found.front();
}

}  // namespace capops
