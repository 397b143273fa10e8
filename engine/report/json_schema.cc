// SPDX-License-Identifier: Apache-2.0
// The fact schema as a JSON Schema (json_schema.h).
#include "engine/report/json_schema.h"

#include <nlohmann/json.hpp>

#include "engine/check/schema_decls.h"
#include "engine/common/json_text.h"
#include "engine/facts/loader.h"
#include "engine/report/report.h"

namespace capops::report {

namespace {

using Json = nlohmann::ordered_json;

// The loader's literal forms (common/units.h), as patterns.
constexpr const char* kDurationPattern = "^([0-9]+[wdhms])+$";

// A size as ParseQuantity reads it, without its `B` (and `/s`): an amount
// of whole bytes, so a decimal unit of 10^n bytes takes at most n fraction
// digits that are not zero, and a plain byte none; at most 18 fraction
// digits in all. A binary unit takes any fraction here, though one finer
// than a byte (`0.1KiB`) is no size: that is left to capops.
std::string QuantityPattern() {
  struct Decimal {
    const char* units;
    int digits;  // of 10^digits bytes
  };
  constexpr Decimal kDecimal[] = {{"[kK]", 3}, {"M", 6}, {"G", 9}, {"T", 12}, {"P", 15}};
  std::string out = "[0-9]+((\\.0{1,18})?";
  for (const Decimal& d : kDecimal) {
    out += "|(\\.[0-9]{1," + std::to_string(d.digits) + "}0{0," + std::to_string(18 - d.digits) +
           "})?" + d.units;
  }
  return out + "|(\\.[0-9]{1,18})?(E|[KMGTPE]i))B";
}

// Members of more words than this are listed in their two uniform
// spellings only, not in every mix of `-` and `_` (2^(words-1) of them).
constexpr size_t kMixedSpellingsUpTo = 4;

// Every way YAML may write an enum member (EnumDef::FindFact): its words
// joined by `-` first, then by `_`, then mixed.
std::vector<std::string> Spellings(const std::string& member) {
  std::vector<size_t> gaps;
  for (size_t i = 0; i < member.size(); ++i) {
    if (member[i] == '_') gaps.push_back(i);
  }
  std::vector<std::string> out = {EnumDef::FactSpelling(member)};
  if (gaps.empty()) return out;
  out.push_back(member);
  if (gaps.size() + 1 > kMixedSpellingsUpTo) return out;
  for (size_t mask = 1; mask + 1 < (size_t{1} << gaps.size()); ++mask) {
    std::string mixed = member;
    for (size_t g = 0; g < gaps.size(); ++g) mixed[gaps[g]] = mask & (size_t{1} << g) ? '-' : '_';
    out.push_back(std::move(mixed));
  }
  return out;
}

// A date as ParseDateTime reads it: a day of the calendar (Feb 29 in leap
// years only), then, for a date-time, `HH:MM[:SS]` and its UTC offset.
// Checked by pattern alone: JSON Schema's `date-time` format wants seconds
// and takes a leap second, which capops does not.
constexpr const char* kDatePattern =
    "^([0-9]{4}-((0[13578]|1[02])-(0[1-9]|[12][0-9]|3[01])|(0[469]|11)-(0[1-9]|[12][0-9]|30)|"
    "02-(0[1-9]|1[0-9]|2[0-8]))|([0-9]{2}(0[48]|[2468][048]|[13579][26])|"
    "([02468][048]|[13579][26])00)-02-29)"
    "([Tt]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9]))?$";

class SchemaWriter {
 public:
  explicit SchemaWriter(const Engine& engine)
      : engine_(engine), schema_(engine.program()->schema) {}

  Json Write() {
    Json defs = Json::object();
    std::vector<std::string> kinds;
    const check::SchemaDecls decls(*engine_.program());
    for (const check::SchemaDecls::Declared& r : decls.records()) {
      defs[r.decl->name] = Record(*r.def, *r.decl);
      if (r.decl->is_document) kinds.push_back(r.decl->name);
    }
    Json choices = Json::array();
    for (const std::string& kind : kinds) {
      choices.push_back(
          {{"if", {{"properties", {{"kind", {{"const", kind}}}}}, {"required", {"kind"}}}},
           {"then", {{"$ref", "#/$defs/" + kind}}}});
    }
    Json api_version = {{"const", facts::kApiVersion}}, kind = {{"enum", kinds}};
    Describe(&api_version, "The fact format's version.");
    Describe(&kind, "What this document holds.");
    Json out = {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                {"title", "capops facts"}};
    Describe(&out,
             "One YAML document of a capops fact file: a `CapacityPlan` or an `Inventory`, told "
             "apart by `kind`. Generated from the rule set's schema by `capops-lint schema "
             "--format json-schema`.");
    out["type"] = "object";
    out["required"] = {"apiVersion", "kind"};
    out["properties"] = {{"apiVersion", std::move(api_version)}, {"kind", std::move(kind)}};
    out["allOf"] = std::move(choices);
    out["$defs"] = std::move(defs);
    return out;
  }

 private:
  Json Record(const RecordDef& def, const syntax::RecordDecl& decl) {
    Json properties = Json::object(), required = Json::array();
    if (decl.is_document) {
      properties["apiVersion"] = {{"const", facts::kApiVersion}};
      properties["kind"] = {{"const", decl.name}};
    }
    for (const syntax::FieldDecl& f : decl.fields) {
      const FieldDef* field = def.Find(f.name);
      if (field == nullptr) continue;
      Json p = Type(field->type);
      if (!field->range.low.is(ValueKind::kNull))
        p["minimum"] = Json::parse(ValueJson(field->range.low));
      if (!field->range.high.is(ValueKind::kNull))
        p["maximum"] = Json::parse(ValueJson(field->range.high));
      std::string description = f.doc;
      std::string shape = FieldShape(schema_, *field);
      if (!shape.empty())
        description += (description.empty() ? "" : "\n\n") + Capitalised(shape) + ".";
      if (field->has_default) p["default"] = Json::parse(ValueJson(field->default_value));
      if (field->optional || field->has_default) {
        p = Nullable(std::move(p));  // null reads as absent
      } else {
        required.push_back(f.name);
      }
      Describe(&p, description);
      properties[f.name] = std::move(p);
    }
    Json out = {{"type", "object"}};
    Describe(&out, decl.doc);
    out["properties"] = std::move(properties);
    if (!required.empty()) out["required"] = std::move(required);
    out["additionalProperties"] = false;
    return out;
  }

  Json Type(TypeId id) {
    const capops::Type& t = schema_.Get(id);
    switch (t.kind) {
      case TypeKind::kBool:
        return {{"type", "boolean"}};
      case TypeKind::kInt:
        return {{"type", "integer"}};
      case TypeKind::kDouble:
        return {{"type", "number"}};
      // The loader takes a plain scalar's text where text is wanted
      // (`owner: 007` is "007"), so a YAML number or boolean is text here.
      case TypeKind::kString:
        return {{"type", {"string", "number", "boolean"}}};
      // A value that fails one of these gets the shape it should have
      // (`memory: 80`: a size needs its unit), not a type or a pattern.
      case TypeKind::kDate:
        return {{"type", "string"},
                {"pattern", kDatePattern},
                {"examples", {"2027-04-15", "2027-04-20T09:00+02:00"}},
                {"errorMessage", Expected(id)}};
      case TypeKind::kDuration:
        return {{"type", "string"},
                {"pattern", kDurationPattern},
                {"examples", {"5d", "36h", "2w"}},
                {"errorMessage", Expected(id)}};
      case TypeKind::kBytes:
        return {{"type", "string"},
                {"pattern", "^" + QuantityPattern() + "$"},
                {"examples", {"80GiB", "1.5TB"}},
                {"errorMessage", Expected(id)}};
      case TypeKind::kBandwidth:
        return {{"type", "string"},
                {"pattern", "^" + QuantityPattern() + "/s$"},
                {"examples", {"5GB/s"}},
                {"errorMessage", Expected(id)}};
      case TypeKind::kEnum: {
        // Each member's YAML spelling is what completion offers; its other
        // spellings (`production_replacement`), which capops reads as the
        // same member, are accepted by a pattern, which offers nothing.
        const EnumDef& e = schema_.enums[t.index];
        Json spellings = Json::array();
        std::string aliases;
        for (const std::string& m : e.members) {
          std::vector<std::string> all = Spellings(m);
          spellings.push_back(all[0]);
          for (size_t i = 1; i < all.size(); ++i) aliases += (aliases.empty() ? "" : "|") + all[i];
        }
        Json members = {{"enum", std::move(spellings)}};
        if (aliases.empty()) {
          members["errorMessage"] = Expected(id);
          return members;
        }
        return {{"anyOf",
                 {std::move(members), {{"type", "string"}, {"pattern", "^(" + aliases + ")$"}}}},
                {"errorMessage", Expected(id)}};
      }
      case TypeKind::kRef:
        return {{"type", {"string", "number", "boolean"}}};
      case TypeKind::kRecord:
        return {{"$ref", "#/$defs/" + schema_.records[t.index].name}};
      case TypeKind::kList: {
        Json list = {{"type", "array"}, {"items", Type(t.elem)}};
        if (t.is_set) list["uniqueItems"] = true;
        return list;
      }
      case TypeKind::kMap: {
        Json map = {{"type", "object"}, {"additionalProperties", Type(t.elem)}};
        if (schema_.KindOf(t.key) == TypeKind::kEnum) {
          map["propertyNames"] = Type(t.key);
          Json once = OneSpellingEach(schema_.enums[schema_.Get(t.key).index]);
          if (!once.empty()) map["dependentSchemas"] = std::move(once);
        }
        return map;
      }
      default:
        return Json::object();  // any value
    }
  }

  // Keys that are one member spelt two ways (`completion_window` and
  // `completion-window`) are one key to capops, and a repeated key is an
  // error: each spelling present forbids the others.
  static Json OneSpellingEach(const EnumDef& e) {
    Json out = Json::object();
    for (const std::string& m : e.members) {
      std::vector<std::string> spellings = Spellings(m);
      for (size_t i = 0; i + 1 < spellings.size(); ++i) {
        Json others = Json::array();
        for (size_t j = i + 1; j < spellings.size(); ++j)
          others.push_back({{"required", {spellings[j]}}});
        out[spellings[i]] = {{"not", {{"anyOf", std::move(others)}}}};
      }
    }
    return out;
  }

  // What a value of type `id` must be, for a validator's message.
  std::string Expected(TypeId id) const { return "expected " + ValueShape(schema_, id); }

  // `p`, or null (an optional field written `field:` or `field: null`).
  // A typed value takes null among its types, so that a wrong one is told
  // its own message, not "string | null"; others are one of two.
  static Json Nullable(Json p) {
    if (!p.contains("type") || p.contains("anyOf") || p.contains("$ref"))
      return {{"anyOf", {std::move(p), {{"type", "null"}}}}};
    Json types = p["type"].is_array() ? p["type"] : Json::array({p["type"]});
    types.push_back("null");
    p["type"] = std::move(types);
    return p;
  }

  // `text` as the description and, for editors that render it (the YAML
  // language server), as Markdown: `code` is shown as code, not escaped.
  static void Describe(Json* p, const std::string& text) {
    if (text.empty()) return;
    (*p)["description"] = text;
    (*p)["markdownDescription"] = text;
  }

  static std::string Capitalised(std::string text) {
    if (!text.empty() && text[0] >= 'a' && text[0] <= 'z')
      text[0] = static_cast<char>(text[0] - 'a' + 'A');
    return text;
  }

  const Engine& engine_;
  const TypeTable& schema_;
};

}  // namespace

std::string ValueShape(const TypeTable& schema, TypeId type) {
  const capops::Type& t = schema.Get(type);
  switch (t.kind) {
    case TypeKind::kList:
      return ValueShape(schema, t.elem);
    case TypeKind::kBytes:
      return "a size with its unit: `80GiB`, `1.5TB`, `512MB`";
    case TypeKind::kBandwidth:
      return "a rate with its unit: `5GB/s`, `800MiB/s`";
    case TypeKind::kDuration:
      return "a duration: `5d`, `36h`, `2w`, `1d12h`";
    case TypeKind::kDate:
      return "a calendar date, `2027-04-15` (00:00 UTC), or a date and time with its UTC offset, "
             "`2027-04-20T09:00+02:00`";
    case TypeKind::kDouble:
      return "a number: `0.8`";
    case TypeKind::kRef:
      return "an id: refers to the `" + schema.records[t.index].name + "` with that `id`";
    case TypeKind::kEnum: {
      std::string out = "one of";
      const EnumDef& e = schema.enums[t.index];
      for (size_t i = 0; i < e.members.size(); ++i)
        out += std::string(i == 0 ? " " : ", ") + "`" + EnumDef::FactSpelling(e.members[i]) + "`";
      return out;
    }
    default:
      return "";
  }
}

std::string FieldShape(const TypeTable& schema, const FieldDef& field) {
  if (!field.range.bounded()) return ValueShape(schema, field.type);
  return (schema.KindOf(field.type) == TypeKind::kInt ? "an integer " : "a number ") +
         field.range.Phrase();
}

std::string FactJsonSchema(const Engine& engine) {
  return SchemaWriter(engine).Write().dump(2) + "\n";
}

}  // namespace capops::report
