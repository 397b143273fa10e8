// SPDX-License-Identifier: Apache-2.0
// MapReader: typed, located access to the maps of the tool's own YAML files.
#include "engine/lint/map_reader.h"

#include <algorithm>

namespace capops::lint {

namespace {

// "a string" / "an int" for messages.
std::string Described(const Value& value) {
  std::string kind = KindName(value.kind());
  bool vowel = !kind.empty() && std::string_view("aeiou").find(kind[0]) != std::string_view::npos;
  return (vowel ? "an " : "a ") + kind;
}

}  // namespace

MapReader::MapReader(const Value& value, std::string what, Diagnostics* diags)
    : loc_(value.loc()), what_(std::move(what)), diags_(diags) {
  if (value.is(ValueKind::kMap)) {
    map_ = &value;
    return;
  }
  Diagnostic& d =
      diags_->Error(value.loc(), "a " + what_ + " must be a mapping, not " + Described(value));
  d.code = "config";
}

const Value* MapReader::Get(std::string_view key) {
  if (std::find(known_.begin(), known_.end(), key) == known_.end()) known_.emplace_back(key);
  return map_ == nullptr ? nullptr : map_->Field(key);
}

void MapReader::WrongType(std::string_view key, const Value& value, const char* expected) {
  Diagnostic& d = diags_->Error(
      value.loc(), "`" + std::string(key) + "` must be " + expected + ", not " + Described(value));
  d.code = "config";
  if (std::string_view(expected).find("string") != std::string_view::npos &&
      !value.is(ValueKind::kList) && !value.is(ValueKind::kMap)) {
    d.help = "quote the value to make it a string";
  }
}

void MapReader::Missing(std::string_view key) {
  if (map_ == nullptr) return;
  Diagnostic& d = diags_->Error(loc_, "this " + what_ + " has no `" + std::string(key) + "`");
  d.code = "config";
  d.help = "add `" + std::string(key) + ":`";
}

bool MapReader::String(std::string_view key, LocatedString* out, bool required) {
  const Value* v = Get(key);
  if (v == nullptr || v->is(ValueKind::kNull)) {
    if (required) Missing(key);
    return false;
  }
  if (!v->is(ValueKind::kString)) {
    WrongType(key, *v, "a string");
    return false;
  }
  *out = LocatedString{std::string(v->string_value()), v->loc()};
  return true;
}

bool MapReader::Amount(std::string_view key, Value* out) {
  const Value* v = Get(key);
  if (v == nullptr || v->is(ValueKind::kNull)) return false;
  for (ValueKind k :
       {ValueKind::kInt, ValueKind::kDouble, ValueKind::kDuration, ValueKind::kQuantity}) {
    if (v->is(k)) {
      *out = *v;
      return true;
    }
  }
  WrongType(key, *v, "a number, a duration or a size");
  return false;
}

bool MapReader::Strings(std::string_view key, std::vector<LocatedString>* out) {
  const Value* v = Get(key);
  if (v == nullptr || v->is(ValueKind::kNull)) return false;
  if (v->is(ValueKind::kString)) {
    out->push_back({std::string(v->string_value()), v->loc()});
    return true;
  }
  if (!v->is(ValueKind::kList)) {
    WrongType(key, *v, "a string or a list of strings");
    return false;
  }
  bool ok = true;
  for (const Value& item : v->items()) {
    if (item.is(ValueKind::kString)) {
      out->push_back({std::string(item.string_value()), item.loc()});
    } else {
      WrongType(key, item, "a list of strings");
      ok = false;
    }
  }
  return ok;
}

bool MapReader::Strings(std::string_view key, std::vector<std::string>* out) {
  std::vector<LocatedString> located;
  bool ok = Strings(key, &located);
  for (LocatedString& s : located) out->push_back(std::move(s.text));
  return ok;
}

bool MapReader::Date(std::string_view key, int64_t* days, SourceLoc* loc, bool required) {
  const Value* v = Get(key);
  if (v == nullptr || v->is(ValueKind::kNull)) {
    if (required) Missing(key);
    return false;
  }
  if (!v->is(ValueKind::kDate)) {
    // An impossible date (`2027-02-30`) was already reported by the loader.
    bool reported = std::any_of(diags_->items().begin(), diags_->items().end(),
                                [&](const Diagnostic& d) { return d.loc == v->loc(); });
    if (!reported) WrongType(key, *v, "a date (YYYY-MM-DD)");
    return false;
  }
  if (!v->date_value().date_only()) {
    Diagnostic& d = diags_->Error(v->loc(), "`" + std::string(key) + "` must be a day, not a time");
    d.code = "config";
    d.help = "write the date alone, such as `" + v->ToString().substr(0, 10) + "`";
    return false;
  }
  *days = v->date_value().seconds / DateTime::kSecondsPerDay;
  *loc = v->loc();
  return true;
}

const Value* MapReader::Map(std::string_view key) {
  const Value* v = Get(key);
  if (v == nullptr || v->is(ValueKind::kNull)) return nullptr;
  if (v->is(ValueKind::kMap)) return v;
  WrongType(key, *v, "a mapping");
  return nullptr;
}

const Value* MapReader::List(std::string_view key) {
  const Value* v = Get(key);
  if (v == nullptr || v->is(ValueKind::kNull)) return nullptr;
  if (v->is(ValueKind::kList)) return v;
  WrongType(key, *v, "a list");
  return nullptr;
}

void MapReader::Finish() {
  if (map_ == nullptr) return;
  for (const auto& [key, value] : map_->entries()) {
    if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
    // The key's own place is not kept; its value's is the nearest.
    Diagnostic& d = diags_->Error(value.loc(), "unknown key `" + key + "` in " + what_);
    d.code = "config";
    std::string closest = ClosestName(key, known_);
    std::string expected;
    for (const std::string& k : known_) expected += (expected.empty() ? "`" : ", `") + k + "`";
    d.help = closest.empty() ? "expected one of " + expected : "did you mean `" + closest + "`?";
  }
}

}  // namespace capops::lint
