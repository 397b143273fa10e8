// SPDX-License-Identifier: Apache-2.0
// TypeTable: interning of types and their names.
#include "engine/common/schema.h"

#include <algorithm>

namespace capops {

std::string EnumDef::FactSpelling(std::string_view member) {
  std::string out(member);
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

int EnumDef::FindFact(std::string_view spelling) const {
  std::string wanted = FactSpelling(spelling);  // `completion_window` reads as `completion-window`
  for (size_t i = 0; i < members.size(); ++i) {
    if (FactSpelling(members[i]) == wanted) return static_cast<int>(i);
  }
  return -1;
}

std::string NumberText(const Value& v) {
  std::string text = v.ToString();
  if (v.is(ValueKind::kDouble) && text.find_first_of(".eEnN") == std::string::npos) text += ".0";
  return text;
}

namespace {

// `a < b` for two numbers: ints exactly, else as doubles.
bool NumberLess(const Value& a, const Value& b) {
  if (a.is(ValueKind::kInt) && b.is(ValueKind::kInt)) return a.int_value() < b.int_value();
  auto number = [](const Value& v) {
    return v.is(ValueKind::kInt) ? static_cast<double>(v.int_value()) : v.double_value();
  };
  return number(a) < number(b);
}

bool IsNumber(const Value& v) {
  return v.is(ValueKind::kInt) || v.is(ValueKind::kDouble);
}

}  // namespace

bool NumberRange::Holds(const Value& v) const {
  if (!IsNumber(v)) return true;
  return (!IsNumber(low) || !NumberLess(v, low)) && (!IsNumber(high) || !NumberLess(high, v));
}

std::string NumberRange::Text() const {
  std::string out;
  if (!low.is(ValueKind::kNull)) out += NumberText(low);
  out += "..";
  if (!high.is(ValueKind::kNull)) out += NumberText(high);
  return out;
}

std::string NumberRange::Phrase() const {
  if (high.is(ValueKind::kNull)) return "of at least " + NumberText(low);
  if (low.is(ValueKind::kNull)) return "of at most " + NumberText(high);
  return "from " + NumberText(low) + " to " + NumberText(high);
}

std::string TypeTable::DeclaredType(const FieldDef& field) const {
  std::string out = Name(field.type);
  if (field.range.bounded()) out += " in " + field.range.Text();
  return out;
}

const FieldDef* RecordDef::Find(std::string_view field) const {
  for (const FieldDef& f : fields) {
    if (f.name == field) return &f;
  }
  return nullptr;
}

const FieldDef* RecordDef::FindKey(Key field) const {
  for (const FieldDef& f : fields) {
    if (f.key == field) return &f;
  }
  return nullptr;
}

bool RecordDef::keyed() const {
  const FieldDef* id = Find("id");
  return id != nullptr && !id->optional;
}

TypeTable::TypeTable() {
  Intern(Type{TypeKind::kAny});
  Intern(Type{TypeKind::kError});
  Interval();  // built in, so a schema or a function may name it
}

TypeId TypeTable::Intern(const Type& t) {
  for (TypeId i = 0; i < types_.size(); ++i) {
    const Type& u = types_[i];
    if (u.kind == t.kind && u.elem == t.elem && u.key == t.key && u.index == t.index &&
        u.is_set == t.is_set) {
      return i;
    }
  }
  types_.push_back(t);
  return static_cast<TypeId>(types_.size() - 1);
}

TypeId TypeTable::Primitive(TypeKind kind) {
  return Intern(Type{kind});
}

TypeId TypeTable::List(TypeId elem, bool is_set) {
  Type t{TypeKind::kList};
  t.elem = elem;
  t.is_set = is_set;
  return Intern(t);
}

TypeId TypeTable::Map(TypeId key, TypeId value) {
  Type t{TypeKind::kMap};
  t.key = key;
  t.elem = value;
  return Intern(t);
}

TypeId TypeTable::Indexed(TypeKind kind, uint32_t index) {
  Type t{kind};
  t.index = index;
  return Intern(t);
}

TypeId TypeTable::Enum(uint32_t index) {
  return Indexed(TypeKind::kEnum, index);
}
TypeId TypeTable::Record(uint32_t index) {
  return Indexed(TypeKind::kRecord, index);
}
TypeId TypeTable::Ref(uint32_t record_index) {
  return Indexed(TypeKind::kRef, record_index);
}

TypeId TypeTable::Timeline(TypeId item, TypeId amount) {
  Type t{TypeKind::kTimeline};
  t.elem = item;
  t.key = amount;
  return Intern(t);
}

// A record made by the table itself, found by name when made before.
TypeId TypeTable::BuiltinRecord(const std::string& name, RecordDef::Builtin builtin,
                                std::vector<FieldDef> fields) {
  auto it = record_by_name.find(name);
  if (it != record_by_name.end()) return Record(it->second);
  RecordDef def;
  def.name = name;
  def.builtin = builtin;
  for (FieldDef& f : fields) f.key = Key(f.name);
  def.fields = std::move(fields);
  records.push_back(std::move(def));
  record_by_name[name] = static_cast<uint32_t>(records.size() - 1);
  return Record(static_cast<uint32_t>(records.size() - 1));
}

TypeId TypeTable::Interval() {
  TypeId date = Primitive(TypeKind::kDate);
  FieldDef start, end;
  start.name = "start";
  end.name = "end";
  start.type = end.type = date;
  start.optional = end.optional = true;
  return BuiltinRecord("Interval", RecordDef::Builtin::kInterval, {start, end});
}

TypeId TypeTable::Segment(TypeId timeline) {
  const Type t = types_[timeline];
  FieldDef window, amount, items, worst;
  window.name = "window";
  window.type = Interval();
  worst.name = "worst";
  worst.type = window.type;
  amount.name = "amount";
  amount.type = t.key;
  items.name = "items";
  items.type = List(t.elem);
  return BuiltinRecord("Segment<" + Name(t.elem) + ", " + Name(t.key) + ">",
                       RecordDef::Builtin::kSegment, {window, amount, items, worst});
}

TypeId TypeTable::Optional(TypeId value) {
  Type t{TypeKind::kOptional};
  t.elem = value;
  return Intern(t);
}

std::string TypeTable::Name(TypeId id) const {
  const Type& t = types_[id];
  switch (t.kind) {
    case TypeKind::kAny:
      return "any";
    case TypeKind::kError:
      return "<error>";
    case TypeKind::kNull:
      return "null";
    case TypeKind::kBool:
      return "bool";
    case TypeKind::kInt:
      return "int";
    case TypeKind::kDouble:
      return "double";
    case TypeKind::kString:
      return "string";
    case TypeKind::kDate:
      return "date";
    case TypeKind::kDuration:
      return "duration";
    case TypeKind::kBytes:
      return "bytes";
    case TypeKind::kBandwidth:
      return "bytes/s";
    case TypeKind::kEnum:
      return enums[t.index].name;
    case TypeKind::kRef:
      return "ref " + records[t.index].name;
    case TypeKind::kRecord:
      return records[t.index].name;
    case TypeKind::kList:
      return std::string(t.is_set ? "set<" : "list<") + Name(t.elem) + ">";
    case TypeKind::kMap:
      return "map<" + Name(t.key) + ", " + Name(t.elem) + ">";
    case TypeKind::kTimeline:
      return "timeline<" + Name(t.elem) + ", " + Name(t.key) + ">";
    case TypeKind::kOptional:
      return "optional<" + Name(t.elem) + ">";
  }
  return "?";
}

const RecordDef* TypeTable::Document(std::string_view kind) const {
  auto it = record_by_name.find(kind);
  if (it == record_by_name.end() || !records[it->second].is_document) return nullptr;
  return &records[it->second];
}

std::vector<const FieldDef*> TypeTable::ListsOf(const RecordDef& holder, uint32_t record) const {
  std::vector<const FieldDef*> out;
  for (const FieldDef& f : holder.fields) {
    const Type& t = Get(f.type);
    if (t.kind == TypeKind::kList && KindOf(t.elem) == TypeKind::kRecord &&
        Get(t.elem).index == record) {
      out.push_back(&f);
    }
  }
  return out;
}

}  // namespace capops
