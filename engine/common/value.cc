// Value construction, keyed lookup, equality and printing.
#include "engine/common/value.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>

namespace capops {

struct Value::ListData {
  std::vector<Value> items;
  std::unordered_map<std::string_view, uint32_t> by_id;  // views into items' ids
  bool keyed = false;
};

struct Value::MapData {
  MapEntries entries;
  // Small maps (records) are searched linearly; large ones get an index.
  static constexpr size_t kIndexFrom = 16;
  std::unordered_map<std::string_view, uint32_t> index;
};

const char* KindName(ValueKind kind) {
  switch (kind) {
    case ValueKind::kNull: return "null";
    case ValueKind::kBool: return "bool";
    case ValueKind::kInt: return "int";
    case ValueKind::kDouble: return "double";
    case ValueKind::kString: return "string";
    case ValueKind::kDate: return "date";
    case ValueKind::kDuration: return "duration";
    case ValueKind::kQuantity: return "quantity";
    case ValueKind::kList: return "list";
    case ValueKind::kMap: return "map";
    case ValueKind::kError: return "error";
  }
  return "value";
}

Value Value::Bool(bool b) {
  Value v;
  v.kind_ = ValueKind::kBool;
  v.scalar_.b = b;
  return v;
}

Value Value::Int(int64_t i) {
  Value v;
  v.kind_ = ValueKind::kInt;
  v.scalar_.i = i;
  return v;
}

Value Value::Double(double d) {
  Value v;
  v.kind_ = ValueKind::kDouble;
  v.scalar_.d = d;
  return v;
}

Value Value::String(std::string s) {
  Value v;
  v.kind_ = ValueKind::kString;
  v.heap_ = std::make_shared<const std::string>(std::move(s));
  return v;
}

Value Value::Date(int64_t days) {
  Value v = Int(days);
  v.kind_ = ValueKind::kDate;
  return v;
}

Value Value::Duration(int64_t seconds) {
  Value v = Int(seconds);
  v.kind_ = ValueKind::kDuration;
  return v;
}

Value Value::Quantity(capops::Quantity q) {
  Value v = Int(q.amount);
  v.kind_ = ValueKind::kQuantity;
  v.dimension_ = q.dimension;
  return v;
}

Value Value::List(std::vector<Value> items) {
  auto data = std::make_shared<ListData>();
  data->items = std::move(items);
  data->keyed = !data->items.empty();
  for (uint32_t i = 0; i < data->items.size() && data->keyed; ++i) {
    std::string_view id = data->items[i].Id();
    data->keyed = !id.empty() && data->by_id.emplace(id, i).second;
  }
  if (!data->keyed) data->by_id.clear();
  Value v;
  v.kind_ = ValueKind::kList;
  v.heap_ = std::move(data);
  return v;
}

Value Value::Map(MapEntries entries) {
  auto data = std::make_shared<MapData>();
  data->entries.reserve(entries.size());
  // Views point into data->entries, which reserve() keeps from moving.
  std::unordered_map<std::string_view, uint32_t> seen;
  for (auto& [key, value] : entries) {
    if (seen.count(key) != 0) continue;
    data->entries.emplace_back(std::move(key), std::move(value));
    seen.emplace(data->entries.back().first, 0);
  }
  if (data->entries.size() >= MapData::kIndexFrom) {
    for (uint32_t i = 0; i < data->entries.size(); ++i) {
      data->index.emplace(data->entries[i].first, i);
    }
  }
  Value v;
  v.kind_ = ValueKind::kMap;
  v.heap_ = std::move(data);
  return v;
}

Value Value::Error(std::string message, SourceLoc fact) {
  Value v = String(std::move(message));
  v.kind_ = ValueKind::kError;
  v.loc_ = fact;
  return v;
}

const std::string& Value::string_value() const {
  static const std::string kEmpty;
  if (kind_ != ValueKind::kString && kind_ != ValueKind::kError) return kEmpty;
  return *static_cast<const std::string*>(heap_.get());
}

const std::vector<Value>& Value::items() const {
  static const std::vector<Value> kEmpty;
  if (kind_ != ValueKind::kList) return kEmpty;
  return static_cast<const ListData*>(heap_.get())->items;
}

const MapEntries& Value::entries() const {
  static const MapEntries kEmpty;
  if (kind_ != ValueKind::kMap) return kEmpty;
  return static_cast<const MapData*>(heap_.get())->entries;
}

const Value* Value::Field(std::string_view name) const {
  if (kind_ != ValueKind::kMap) return nullptr;
  const auto* data = static_cast<const MapData*>(heap_.get());
  if (!data->index.empty()) {
    auto it = data->index.find(name);
    return it == data->index.end() ? nullptr : &data->entries[it->second].second;
  }
  for (const auto& [key, value] : data->entries) {
    if (key == name) return &value;
  }
  return nullptr;
}

bool Value::keyed() const {
  return kind_ == ValueKind::kList && static_cast<const ListData*>(heap_.get())->keyed;
}

const Value* Value::FindById(std::string_view id) const {
  if (!keyed()) return nullptr;
  const auto* data = static_cast<const ListData*>(heap_.get());
  auto it = data->by_id.find(id);
  return it == data->by_id.end() ? nullptr : &data->items[it->second];
}

std::string_view Value::Id() const {
  const Value* id = Field("id");
  if (id == nullptr || id->kind_ != ValueKind::kString) return {};
  return id->string_value();
}

namespace {
std::string FormatDouble(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+infinity" : "-infinity";
  char buf[64];
  if (d == std::floor(d) && std::fabs(d) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", d);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.17g", d);
  // Prefer the shortest text that reads back as the same double.
  for (int precision = 1; precision <= 17; ++precision) {
    char shorter[64];
    std::snprintf(shorter, sizeof shorter, "%.*g", precision, d);
    if (std::strtod(shorter, nullptr) == d) return shorter;
  }
  return buf;
}

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}
}  // namespace

std::string Value::ToString() const {
  switch (kind_) {
    case ValueKind::kNull: return "null";
    case ValueKind::kBool: return scalar_.b ? "true" : "false";
    case ValueKind::kInt: return std::to_string(scalar_.i);
    case ValueKind::kDouble: return FormatDouble(scalar_.d);
    case ValueKind::kString:
    case ValueKind::kError: return string_value();
    case ValueKind::kDate: return FormatDate(scalar_.i);
    case ValueKind::kDuration: return FormatDuration(scalar_.i);
    case ValueKind::kQuantity: return FormatQuantity(quantity_value());
    case ValueKind::kList: {
      std::string out = "[";
      for (size_t i = 0; i < items().size(); ++i) {
        if (i > 0) out += ", ";
        out += items()[i].ToString();
      }
      return out + "]";
    }
    case ValueKind::kMap: {
      std::string_view id = Id();
      if (!id.empty()) return std::string(id);
      std::string out = "{";
      for (size_t i = 0; i < entries().size(); ++i) {
        if (i > 0) out += ", ";
        out += entries()[i].first + ": " + entries()[i].second.ToLiteral();
      }
      return out + "}";
    }
  }
  return "";
}

namespace {
// Appends `v` as a literal, stopping soon after `out` passes `limit` chars.
void AppendLiteral(const Value& v, size_t limit, std::string* out) {
  if (out->size() > limit) return;
  switch (v.kind()) {
    case ValueKind::kString: *out += Quote(v.string_value()); return;
    case ValueKind::kList:
      *out += "[";
      for (size_t i = 0; i < v.items().size() && out->size() <= limit; ++i) {
        if (i > 0) *out += ", ";
        AppendLiteral(v.items()[i], limit, out);
      }
      *out += "]";
      return;
    case ValueKind::kMap:
      *out += "{";
      for (size_t i = 0; i < v.entries().size() && out->size() <= limit; ++i) {
        if (i > 0) *out += ", ";
        *out += v.entries()[i].first + ": ";
        AppendLiteral(v.entries()[i].second, limit, out);
      }
      *out += "}";
      return;
    default: *out += v.ToString();
  }
}
}  // namespace

std::string Value::ToLiteral() const { return ToLiteral(std::string::npos); }

std::string Value::ToLiteral(size_t max_chars) const {
  std::string out;
  AppendLiteral(*this, max_chars, &out);
  if (out.size() > max_chars) out = out.substr(0, max_chars - 3) + "...";
  return out;
}

bool operator==(const Value& a, const Value& b) {
  bool a_num = a.kind_ == ValueKind::kInt || a.kind_ == ValueKind::kDouble;
  bool b_num = b.kind_ == ValueKind::kInt || b.kind_ == ValueKind::kDouble;
  if (a_num && b_num && a.kind_ != b.kind_) {
    double x = a.kind_ == ValueKind::kInt ? static_cast<double>(a.scalar_.i) : a.scalar_.d;
    double y = b.kind_ == ValueKind::kInt ? static_cast<double>(b.scalar_.i) : b.scalar_.d;
    return x == y;
  }
  if (a.kind_ != b.kind_) return false;
  switch (a.kind_) {
    case ValueKind::kNull: return true;
    case ValueKind::kBool: return a.scalar_.b == b.scalar_.b;
    case ValueKind::kInt:
    case ValueKind::kDate:
    case ValueKind::kDuration: return a.scalar_.i == b.scalar_.i;
    case ValueKind::kQuantity: return a.quantity_value() == b.quantity_value();
    case ValueKind::kDouble: return a.scalar_.d == b.scalar_.d;
    case ValueKind::kString:
    case ValueKind::kError: return a.string_value() == b.string_value();
    case ValueKind::kList: return a.items() == b.items();
    case ValueKind::kMap: {
      if (a.entries().size() != b.entries().size()) return false;
      for (const auto& [key, value] : a.entries()) {
        const Value* other = b.Field(key);
        if (other == nullptr || !(*other == value)) return false;
      }
      return true;
    }
  }
  return false;
}

}  // namespace capops
