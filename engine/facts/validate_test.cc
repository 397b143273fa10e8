// SPDX-License-Identifier: Apache-2.0
// Tests for schema validation of fact documents and for reference checks;
// the schema is built by hand as the checker would, all input is in memory.
#include "engine/facts/validate.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/common/units.h"

namespace capops::facts {
namespace {

// One field as CPL declares it: `name: T` (how ' '), `name?: T` ('?') or
// `name: T = value` ('=').
struct FieldSpec {
  FieldSpec(const char* name, TypeId type, char how = ' ', Value value = {})
      : name(name), type(type), how(how), value(std::move(value)) {}

  const char* name;
  TypeId type;
  char how;
  Value value;
};

// Builds a TypeTable the way the checker does from CPL declarations.
class SchemaBuilder {
 public:
  TypeId Enum(const char* name, std::vector<std::string> members) {
    uint32_t index = static_cast<uint32_t>(table.enums.size());
    table.enums.push_back(EnumDef{name, std::move(members), {}});
    table.enum_by_name[name] = index;
    return table.Enum(index);
  }
  /// `record Name` or `document Name`; fields come later, so records may refer to each other.
  uint32_t Declare(const char* name, bool document = false) {
    uint32_t index = static_cast<uint32_t>(table.records.size());
    table.records.push_back(RecordDef{name, {}, document, {}});
    table.record_by_name[name] = index;
    return index;
  }
  void Fields(uint32_t record, std::vector<FieldSpec> fields) {
    for (FieldSpec& spec : fields) {
      FieldDef f;
      f.name = spec.name;
      f.key = Key(spec.name);
      f.type = spec.type;
      f.optional = spec.how == '?';
      f.has_default = spec.how == '=';
      f.default_value = std::move(spec.value);
      table.records[record].fields.push_back(std::move(f));
    }
  }
  TypeId Prim(TypeKind kind) { return table.Primitive(kind); }
  /// A declared record's index.
  uint32_t R(const char* name) const { return table.record_by_name.at(name); }

  TypeTable table;
};

// `record AcceleratorType`, `Window`, `Pool`, `Supply`, as an inventory lists them.
void DefineInventoryRecords(SchemaBuilder* b) {
  TypeTable& t = b->table;
  TypeId str = b->Prim(TypeKind::kString), integer = b->Prim(TypeKind::kInt);
  TypeId date = b->Prim(TypeKind::kDate), acc = t.Ref(b->R("AcceleratorType"));
  b->Fields(
      b->R("AcceleratorType"),
      {{"id", str}, {"model", str}, {"memory", b->Prim(TypeKind::kBytes)}, {"interconnect", str}});
  b->Fields(b->R("Window"),
            {{"start", date}, {"end", date, '?'}, {"duration", b->Prim(TypeKind::kDuration), '?'}});
  TypeId role = b->Enum("PoolRole", {"research", "shared", "production", "production_replacement"});
  b->Fields(b->R("Pool"), {{"id", str},
                           {"accelerator", acc},
                           {"hosts", integer},
                           {"gpus_per_host", integer},
                           {"region", str},
                           {"role", role},
                           {"labels", t.Map(str, str), '?'}});
  TypeId kind = b->Enum("SupplyKind", {"quota", "reservation", "physical_confirmation"});
  b->Fields(b->R("Supply"), {{"id", str},
                             {"kind", kind},
                             {"accelerator", acc},
                             {"gpus", integer},
                             {"window", t.Record(b->R("Window")), '?'}});
}

// The records a plan holds: `Metadata`, `Demand`, `Allocation`, `Substitute` …
void DefinePlanRecords(SchemaBuilder* b) {
  TypeTable& t = b->table;
  TypeId str = b->Prim(TypeKind::kString), integer = b->Prim(TypeKind::kInt);
  TypeId boolean = b->Prim(TypeKind::kBool), acc = t.Ref(b->R("AcceleratorType"));
  b->Fields(b->R("Team"), {{"id", str}});
  b->Fields(b->R("Metadata"), {{"name", str}, {"owner", str}, {"team", t.Ref(b->R("Team")), '?'}});
  b->Fields(b->R("Requires"), {{"memory", b->Prim(TypeKind::kBytes), '?'},
                               {"storage_read", b->Prim(TypeKind::kBandwidth), '?'}});
  TypeId slice = b->Enum("Slice", {"exploration", "training", "tuning", "inference"});
  b->Fields(b->R("Demand"), {{"id", str},
                             {"slice", slice},
                             {"gpus", integer, '?'},
                             {"window", t.Record(b->R("Window")), '?'},
                             {"requires", t.Record(b->R("Requires")), '?'},
                             {"interruptible", boolean, '=', Value::Bool(false)},
                             {"max_hold", b->Prim(TypeKind::kDuration), '?'},
                             {"regions", t.List(str, /*is_set=*/true), '?'},
                             {"utilization", b->Prim(TypeKind::kDouble), '?'},
                             {"based_on", t.Ref(b->R("Demand")), '?'}});
  b->Fields(b->R("Allocation"), {{"id", str},
                                 {"demand", t.Ref(b->R("Demand"))},
                                 {"pool", t.Ref(b->R("Pool"))},
                                 {"gpus", integer},
                                 {"evidence", t.List(t.Ref(b->R("Supply"))), '=', Value::List({})},
                                 {"interruptible", boolean, '=', Value::Bool(false)}});
  TypeId check = b->Enum("Check", {"quality", "memory", "numerics", "completion_window"});
  TypeId status = b->Enum("CheckStatus", {"passed", "pending", "failed"});
  b->Fields(b->R("Substitute"),
            {{"replaces", acc}, {"candidate", acc}, {"validation", t.Map(check, status)}});
  b->Fields(b->R("Node"),
            {{"name", str}, {"children", t.List(t.Record(b->R("Node"))), '=', Value::List({})}});
}

// A reduced CapOps schema:
//   enum PoolRole { research, shared, production, production_replacement }
//   record Pool { id: string, accelerator: ref AcceleratorType, hosts: int, … }
//   record Allocation { id: string, demand: ref Demand, pool: ref Pool, gpus: int,
//                       evidence: list<ref Supply> = [], interruptible: bool = false }
//   document Inventory { accelerator_types: list<AcceleratorType> = [], pools: … = [], … }
//   document CapacityPlan { metadata: Metadata, demands: list<Demand>, … }
TypeTable BuildSchema(bool with_inventory = true) {
  SchemaBuilder b;
  for (const char* name : {"AcceleratorType", "Window", "Pool", "Supply", "Team", "Metadata",
                           "Requires", "Demand", "Allocation", "Substitute", "Node"}) {
    b.Declare(name);
  }
  DefineInventoryRecords(&b);
  DefinePlanRecords(&b);
  TypeTable& t = b.table;
  auto list = [&](const char* record) { return t.List(t.Record(b.R(record))); };
  const Value none = Value::List({});
  if (with_inventory) {
    b.Fields(b.Declare("Inventory", true),
             {{"accelerator_types", list("AcceleratorType"), '=', none},
              {"pools", list("Pool"), '=', none},
              {"supply", list("Supply"), '=', none}});
  }
  b.Fields(b.Declare("CapacityPlan", true),
           {{"metadata", t.Record(b.R("Metadata"))},
            {"demands", list("Demand")},
            {"allocations", list("Allocation"), '=', none},
            {"substitutes", list("Substitute"), '=', none},
            {"tree", t.Record(b.R("Node")), '?'},
            {"notes", t.Map(b.Prim(TypeKind::kString), t.Any()), '?'}});
  return std::move(b.table);
}

const TypeTable& Schema() {
  static const TypeTable schema = BuildSchema();
  return schema;
}

constexpr const char* kInventory =
    "apiVersion: capops.dev/v1\n"
    "kind: Inventory\n"
    "accelerator_types:\n"
    "  - {id: h100-80, model: H100-SXM, memory: 80GiB, interconnect: nvlink4}\n"
    "  - {id: l4-24, model: L4, memory: 24GiB, interconnect: pcie4}\n"
    "pools:\n"
    "  - {id: train-eu, accelerator: h100-80, hosts: 4, gpus_per_host: 4, region: eu-west,"
    " role: research}\n"
    "  - {id: serve-eu-spare, accelerator: l4-24, hosts: 1, gpus_per_host: 4, region: eu-west,"
    " role: production-replacement}\n"
    "supply:\n"
    "  - {id: q-h100, kind: quota, accelerator: h100-80, gpus: 32}\n"
    "  - {id: r-apr, kind: reservation, accelerator: h100-80, gpus: 16,"
    " window: {start: 2027-04-12, end: 2027-04-17}}\n";

// A plan: lines 1-3 are the header and metadata, `body` starts on line 4.
std::string Plan(const std::string& body) {
  return "apiVersion: capops.dev/v1\nkind: CapacityPlan\nmetadata: {name: q2, owner: ai}\n" + body;
}

// Lines 4-6 of a plan; allocations then start on line 7.
constexpr const char* kDemands =
    "demands:\n"
    "  - {id: train, slice: training, gpus: 16}\n"
    "  - {id: serve, slice: inference, gpus: 4}\n";

// An inventory: lines 1-2 are the header, `body` starts on line 3.
std::string Inventory(const std::string& body) {
  return "apiVersion: capops.dev/v1\nkind: Inventory\n" + body;
}

// The plain scalars' texts (Value::PlainText) left anywhere in `v`.
size_t PlainTexts(const Value& v) {
  size_t n = v.plain() ? 1 : 0;
  if (v.is(ValueKind::kList)) {
    for (const Value& item : v.items()) n += PlainTexts(item);
  } else if (v.is(ValueKind::kMap)) {
    for (const auto& [key, value] : v.entries()) n += PlainTexts(value);
  }
  return n;
}

// Every node of `v` by its path, with its literal, identity and location.
void Snapshot(const Value& v, const std::string& path, std::vector<std::string>* out) {
  auto [kind, bits] = v.Identity();
  out->push_back(path + " " + v.ToLiteral() + " " + std::to_string(kind) + ":" +
                 std::to_string(bits) + " @" + std::to_string(v.loc().line) + ":" +
                 std::to_string(v.loc().column));
  for (size_t i = 0; i < v.items().size(); ++i)
    Snapshot(v.items()[i], path + "[" + std::to_string(i) + "]", out);
  for (const auto& [key, value] : v.entries()) Snapshot(value, path + "." + key.str(), out);
}

// Loads `text` as case.yaml and the base inventory as inventory.yaml,
// validates every document and checks references across them.
struct Checked {
  SourceManager sources;
  Diagnostics diags;
  std::vector<ValidatedRoot> roots;
  FileId file = 0;

  explicit Checked(const std::string& text, const TypeTable& schema = Schema(),
                   const ValidateOptions& options = {}) {
    file = sources.Add("case.yaml", text);
    Load(file, schema, options);
    // A second inventory is fine: references may resolve in either.
    if (schema.Document("Inventory") != nullptr) {
      Load(sources.Add("inventory.yaml", kInventory), schema, options);
    }
    CheckReferences(schema, roots, &diags, options);
    diags.Sort();
  }

  // Every document is validated twice, from two loads: consumed (its tree
  // taken apart, as a lint run does) and shared (its tree kept); both must
  // give the same value and the same diagnostics.
  void Load(FileId id, const TypeTable& schema, const ValidateOptions& options) {
    LoadResult loaded = LoadYaml(sources, id, {});
    LoadResult again = LoadYaml(sources, id, {});
    diags.Append(loaded.diagnostics);
    REQUIRE(loaded.documents.size() == again.documents.size());
    for (size_t i = 0; i < loaded.documents.size(); ++i) {
      const Document& kept = again.documents[i];
      Diagnostics shared_diags;
      std::vector<uint32_t> shared_unlisted;
      Value shared = ValidateDocument(schema, kept, &shared_diags, options, &shared_unlisted);
      Diagnostics consumed_diags;
      std::vector<uint32_t> unlisted;
      Value root = ValidateDocument(schema, std::move(loaded.documents[i]), &consumed_diags,
                                    options, &unlisted);
      // A `.nan` is unequal to itself; its literal is not.
      CHECK((root == shared || root.ToLiteral() == shared.ToLiteral()));
      // Rules only ever see typed values, whatever was wrong.
      CHECK(PlainTexts(root) == 0);
      CHECK(PlainTexts(shared) == 0);
      CHECK(Lines(consumed_diags) == Lines(shared_diags));
      CHECK(unlisted == shared_unlisted);
      diags.Append(consumed_diags);
      const RecordDef* record = schema.Document(DocumentKindName(kept.kind));
      if (record != nullptr) roots.push_back(ValidatedRoot{record, root, unlisted});
    }
  }

  static std::vector<std::string> Lines(const Diagnostics& ds) {
    std::vector<std::string> lines;
    for (const Diagnostic& d : ds.items()) {
      lines.push_back(std::to_string(d.loc.line) + ":" + std::to_string(d.loc.column) + " " +
                      d.message + " | " + d.help);
    }
    return lines;
  }

  const Value& plan() const { return Root("CapacityPlan"); }
  const Value& inventory() const { return Root("Inventory"); }

  const Value& Root(const char* kind) const {
    for (const ValidatedRoot& r : roots) {
      if (r.record->name == kind) return r.value;
    }
    FAIL("no " << kind);
    return roots[0].value;
  }

  // "line:col: message" and an indented "help: …" line per diagnostic; the
  // file name only when it is not case.yaml.
  std::string Dump() const {
    std::string out;
    for (const Diagnostic& d : diags.items()) {
      if (d.loc.file != file) out += std::string(sources.Path(d.loc.file)) + ":";
      out +=
          std::to_string(d.loc.line) + ":" + std::to_string(d.loc.column) + ": " + d.message + "\n";
      if (!d.help.empty()) out += "  help: " + d.help + "\n";
    }
    return out;
  }
};

struct Case {
  const char* name;
  std::string text;
  std::string expected;
};

// Runs each case and compares its dump; every problem is a schema error.
void CheckCases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    INFO(c.name << "\n" << c.text);
    Checked checked(c.text);
    CHECK(checked.Dump() == c.expected);
    for (const Diagnostic& d : checked.diags.items()) {
      CHECK(d.code == "schema");
      CHECK(d.severity == Severity::kError);
    }
  }
}

TEST_CASE("values of the wrong type are diagnosed where they are", "[schema]") {
  const std::string alloc = std::string(kDemands) + "allocations:\n";
  CheckCases({
      {"int field given a word", Plan("demands:\n  - {id: d, slice: training, gpus: four}\n"),
       "5:36: expected an integer, got string `four`\n"},
      {"int field given a fraction", Plan("demands:\n  - {id: d, slice: training, gpus: 16.5}\n"),
       "5:36: expected an integer, got `16.5`\n"},
      {"size without a unit",
       Inventory("accelerator_types:\n"
                 "  - {id: x, model: X, memory: 80, interconnect: pcie4}\n"),
       "4:31: `80` has no unit; expected a size such as `80GiB`\n"},
      {"size with an unknown unit",
       Inventory("accelerator_types:\n"
                 "  - {id: x, model: X, memory: 80Gb, interconnect: pcie4}\n"),
       "4:31: `80Gb` is not a size\n"
       "  help: units are B, kB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB\n"},
      {"bandwidth written with a space",
       Plan("demands:\n  - id: d\n    slice: training\n    requires: {storage_read: 5 GB/s}\n"),
       "7:30: `5 GB/s` is not a bandwidth\n"
       "  help: write it without spaces: `5GB/s`\n"},
      {"size given a bandwidth",
       Plan("demands:\n  - {id: d, slice: training, requires: {memory: 5GB/s}}\n"),
       "5:49: expected bytes, got bytes/s `5GB/s`\n"},
      {"date given a duration",
       Plan("demands:\n  - id: d\n    slice: training\n    window: {start: 5d, duration: 5d}\n"),
       "7:21: expected a date such as `2027-04-12`, got `5d`\n"},
      {"duration given a bare number",
       Plan("demands:\n  - {id: d, slice: exploration, max_hold: 8}\n"),
       "5:43: expected a duration such as `8h` or `5d`, got `8`\n"
       "  help: add a unit (w, d, h, m, s), e.g. `8h` or `8d`\n"},
      {"bool given yes", Plan("demands:\n  - {id: d, slice: exploration, interruptible: yes}\n"),
       "5:48: expected `true` or `false`, got string `yes`\n"},
      {"number given a word", Plan("demands:\n  - {id: d, slice: inference, utilization: high}\n"),
       "5:44: expected a number, got string `high`\n"},
      {"number given NaN", Plan("demands:\n  - {id: d, slice: inference, utilization: .nan}\n"),
       "5:44: expected a finite number, got `.nan`\n"},
      {"number given NaN, capitalized",
       Plan("demands:\n  - {id: d, slice: inference, utilization: .NaN}\n"),
       "5:44: expected a finite number, got `.nan`\n"},
      {"number given infinity",
       Plan("demands:\n  - {id: d, slice: inference, utilization: .inf}\n"),
       "5:44: expected a finite number, got `.inf`\n"},
      {"number given minus infinity",
       Plan("demands:\n  - {id: d, slice: inference, utilization: -.Inf}\n"),
       "5:44: expected a finite number, got `-.inf`\n"},
      {"number given plus infinity",
       Plan("demands:\n  - {id: d, slice: inference, utilization: +.inf}\n"),
       "5:44: expected a finite number, got `.inf`\n"},
      {"record given a scalar",
       "apiVersion: capops.dev/v1\nkind: CapacityPlan\nmetadata: q2\n" + std::string(kDemands),
       "3:11: expected a `Metadata` mapping, got string `q2`\n"},
      {"unknown enum member with a close one",
       Inventory("pools:\n  - {id: p, accelerator: l4-24, hosts: 1, gpus_per_host: 4,"
                 " region: eu, role: resarch}\n"),
       "4:79: unknown PoolRole `resarch`\n"
       "  help: did you mean `research`? expected one of `research`, `shared`, `production`, "
       "`production-replacement`\n"},
      {"unknown enum member in CPL spelling", Plan("demands:\n  - {id: d, slice: batch}\n"),
       "5:20: unknown Slice `batch`\n"
       "  help: expected one of `exploration`, `training`, `tuning`, `inference`\n"},
      {"enum-keyed map with an unknown value",
       Plan(kDemands + std::string("substitutes:\n"
                                   "  - {replaces: h100-80, candidate: l4-24,"
                                   " validation: {completion-window: pass}}\n")),
       "8:75: unknown CheckStatus `pass`\n"
       "  help: did you mean `passed`? expected one of `passed`, `pending`, `failed`\n"},
      {"string given a mapping",
       Inventory("pools:\n  - {id: p, accelerator: l4-24, hosts: 1, gpus_per_host: 4,"
                 " region: {name: eu}, role: shared}\n"),
       "4:69: expected a string, got a mapping\n"},
      {"map of strings given a list value",
       Inventory("pools:\n  - {id: p, accelerator: l4-24, hosts: 1, gpus_per_host: 4,"
                 " region: eu, role: shared, labels: {tier: [a]}}\n"),
       "4:102: expected a string, got a list\n"},
      {"list given a mapping", Plan("demands: {id: d, slice: training}\n"),
       "4:10: expected a list, got a mapping\n"},
      {"list given a scalar",
       Plan(alloc + "  - {id: a, demand: train, pool: train-eu, gpus: 4, evidence: r-apr}\n"),
       "8:63: expected a list, got string `r-apr`\n"
       "  help: write `[r-apr]` for a list of one\n"},
      {"reference given a list",
       Plan(alloc + "  - {id: a, demand: train, pool: [train-eu], gpus: 4}\n"),
       "8:34: expected the id of a `Pool`, got a list\n"},
  });
}

TEST_CASE("unknown, missing and repeated entries are diagnosed", "[schema]") {
  const std::string alloc = std::string(kDemands) + "allocations:\n";
  CheckCases({
      {"unknown field with a close name",
       Inventory("pools:\n  - {id: p, accelerator: l4-24, hosts: 1, gpus_per_host: 4,"
                 " region: eu, rol: research}\n"),
       "4:78: unknown field `rol` in `Pool`\n"
       "  help: did you mean `role`?\n"},
      {"unknown field without a close name",
       "apiVersion: capops.dev/v1\nkind: CapacityPlan\n"
       "metadata: {name: q2, owner: ai, colour: red}\n" +
           std::string(kDemands),
       "3:41: unknown field `colour` in `Metadata`\n"
       "  help: `Metadata` has fields `name`, `owner`, `team`\n"},
      {"unknown document field", Plan(kDemands + std::string("alocations: []\n")),
       "7:13: unknown field `alocations` in `CapacityPlan`\n"
       "  help: did you mean `allocations`?\n"},
      {"missing field in a named record",
       Plan(alloc + "  - {id: a-train, demand: train, pool: train-eu}\n"),
       "8:5: missing field `gpus` in `Allocation` `a-train`\n"
       "  help: add `gpus:` with a value of type `int`\n"},
      {"null for a required field",
       Plan(alloc + "  - id: a-train\n    demand: train\n    pool: train-eu\n    gpus:\n"),
       "11:5: missing value for `gpus`\n"
       "  help: give `gpus` a value of type `int`\n"},
      {"missing document field", Plan("allocations: []\n"),
       "1:1: missing field `demands` in `CapacityPlan`\n"
       "  help: add `demands:` with a value of type `list<Demand>`\n"},
      {"duplicate id in a keyed list",
       Plan(alloc + "  - {id: a-x, demand: train, pool: train-eu, gpus: 4}\n"
                    "  - {id: a-x, demand: serve, pool: serve-eu-spare, gpus: 4}\n"),
       "9:10: duplicate id `a-x` in `allocations`\n"},
      {"set with a repeat",
       Plan("demands:\n  - {id: d, slice: training, regions: [eu-west, us-east, eu-west]}\n"),
       "5:58: `eu-west` is listed twice in `regions`\n"},
      {"enum-keyed map with an unknown key",
       Plan(kDemands + std::string("substitutes:\n"
                                   "  - replaces: h100-80\n"
                                   "    candidate: l4-24\n"
                                   "    validation: {quality: passed, numerix: passed}\n")),
       "10:44: unknown key `numerix`\n"
       "  help: did you mean `numerics`? keys are Check values: `quality`, `memory`, `numerics`, "
       "`completion-window`\n"},
      {"nested record field",
       Plan("demands:\n  - id: d\n    slice: training\n"
            "    window: {start: 2027-04-12, duraton: 5d}\n"),
       "7:42: unknown field `duraton` in `Window`\n"
       "  help: did you mean `duration`?\n"},
      {"nested record in the inventory",
       Inventory("supply:\n  - {id: s, kind: reservation, accelerator: h100-80, gpus: 8,"
                 " window: {end: 2027-04-17}}\n"),
       "4:71: missing field `start` in `Window`\n"
       "  help: add `start:` with a value of type `date`\n"},
  });
}

// A window that holds no time hides its allocation from every time-based
// rule, so it is a located error, at the field to change.
TEST_CASE("a window must end after it starts", "[schema]") {
  auto window = [](const std::string& fields) {
    return Plan("demands:\n  - {id: d, slice: training, window: {start: 2027-04-15, " + fields +
                "}}\n");
  };
  CheckCases({
      {"end before start", window("end: 2027-04-10"),
       "5:63: `end` `2027-04-10` is not after `start` `2027-04-15`\n"
       "  help: `end` is exclusive: a window of one day from `2027-04-15` ends on `2027-04-16`\n"},
      {"end on the start date", window("end: 2027-04-15"),
       "5:63: `end` `2027-04-15` is not after `start` `2027-04-15`\n"
       "  help: `end` is exclusive: a window of one day from `2027-04-15` ends on `2027-04-16`\n"},
      {"zero duration in days", window("duration: 0d"),
       "5:68: `duration` `0s` is not positive: the window holds no time\n"
       "  help: give its length, such as `5d`, or leave `duration` out for a window that runs "
       "on from its start\n"},
      {"zero duration in seconds", window("duration: 0s"),
       "5:68: `duration` `0s` is not positive: the window holds no time\n"
       "  help: give its length, such as `5d`, or leave `duration` out for a window that runs "
       "on from its start\n"},
      // A duration has no sign in facts: `-1d` is not a duration at all.
      {"negative duration", window("duration: -1d"),
       "5:68: expected a duration such as `8h` or `5d`, got string `-1d`\n"},
      {"end and duration that disagree", window("end: 2027-04-20, duration: 4d"),
       "5:85: `duration` `4d` disagrees with `end` `2027-04-20`, which is `5d` after `start` "
       "`2027-04-15`\n"
       "  help: give either `end` or `duration`: rules read `end` when both are given\n"},
      // Each wrong field is reported once; their disagreement is not a third error.
      {"both wrong", window("end: 2027-04-10, duration: 0h"),
       "5:63: `end` `2027-04-10` is not after `start` `2027-04-15`\n"
       "  help: `end` is exclusive: a window of one day from `2027-04-15` ends on `2027-04-16`\n"
       "5:85: `duration` `0s` is not positive: the window holds no time\n"
       "  help: give its length, such as `5d`, or leave `duration` out for a window that runs "
       "on from its start\n"},
      {"in the inventory",
       Inventory("supply:\n  - {id: s, kind: reservation, accelerator: h100-80, gpus: 8,"
                 " window: {start: 2027-04-17, end: 2027-04-12}}\n"),
       "4:96: `end` `2027-04-12` is not after `start` `2027-04-17`\n"
       "  help: `end` is exclusive: a window of one day from `2027-04-17` ends on `2027-04-18`\n"},
      // Near misses: the shortest windows that hold time, and an end and a
      // duration that agree.
      {"end the day after start", window("end: 2027-04-16"), ""},
      {"one second", window("duration: 1s"), ""},
      {"end and duration that agree", window("end: 2027-04-20, duration: 5d"), ""},
      {"start alone runs on",
       Plan("demands:\n  - {id: d, slice: training, window: {start: 2027-04-15}}\n"), ""},
  });
}

// Windows of hours: exact to the second, whatever offsets their ends are
// written at.
TEST_CASE("a window of date-times is checked to the second", "[schema]") {
  auto window = [](const std::string& fields) {
    return Plan("demands:\n  - {id: d, slice: exploration, window: {" + fields + "}}\n");
  };
  CheckCases({
      {"eight hours", window("start: 2027-04-20T09:00+02:00, duration: 8h"), ""},
      {"an end and a duration that agree",
       window("start: 2027-04-20T09:00:00Z, end: 2027-04-20T17:30Z, duration: 8h30m"), ""},
      // A change of daylight saving time is the writer's: this day is 23h.
      {"across a change of offset",
       window("start: 2027-03-27T12:00+01:00, end: 2027-03-28T12:00+02:00, duration: 23h"), ""},
      {"a day that is not 24h",
       window("start: 2027-03-27T12:00+01:00, end: 2027-03-28T12:00+02:00, duration: 1d"),
       "5:112: `duration` `1d` disagrees with `end` `2027-03-28T12:00+02:00`, which is `23h` "
       "after `start` `2027-03-27T12:00+01:00`\n"
       "  help: give either `end` or `duration`: rules read `end` when both are given\n"},
      {"a leap day", window("start: 2028-02-28, end: 2028-03-01, duration: 2d"), ""},
      {"a date and a date-time", window("start: 2027-04-20, end: 2027-04-20T08:00Z, duration: 8h"),
       ""},
      {"an end at the start's instant, written at another offset",
       window("start: 2027-04-20T09:00+02:00, end: 2027-04-20T07:00Z"),
       "5:78: `end` `2027-04-20T07:00Z` is not after `start` `2027-04-20T09:00+02:00`\n"
       "  help: `end` is exclusive: a window of one hour from `2027-04-20T09:00+02:00` ends at "
       "`2027-04-20T10:00+02:00`\n"},
      {"just after", window("start: 2027-04-20T09:00+02:00, end: 2027-04-20T07:00:01Z"), ""},
      {"an end before the start in another offset",
       window("start: 2027-04-20T09:00+02:00, end: 2027-04-20T06:00Z"),
       "5:78: `end` `2027-04-20T06:00Z` is not after `start` `2027-04-20T09:00+02:00`\n"
       "  help: `end` is exclusive: a window of one hour from `2027-04-20T09:00+02:00` ends at "
       "`2027-04-20T10:00+02:00`\n"},
  });
}

// Each spelling a planner may get wrong is reported where it is written,
// saying what is wrong with it.
TEST_CASE("an invalid date-time is reported at its text", "[schema]") {
  auto start = [](const std::string& text) {
    return Plan("demands:\n  - {id: d, slice: exploration, window: {start: " + text +
                ", duration: 8h}}\n");
  };
  struct Spelling {
    const char* name;
    std::string text;
    std::string expected;
  };
  const Spelling cases[] = {
      {"no such day", start("2027-02-30T09:00Z"),
       "5:49: expected a date such as `2027-04-12`, got string `2027-02-30T09:00Z`\n"
       "5:49: `2027-02-30T09:00Z` is not a valid date\n"},
      {"no such hour", start("2027-04-20T25:00Z"),
       "5:49: expected a date such as `2027-04-12`, got string `2027-04-20T25:00Z`\n"
       "5:49: `2027-04-20T25:00Z` is not a valid time: the hour runs from 00 to 23\n"},
      {"no offset", start("2027-04-20T09:00"),
       "5:49: expected a date such as `2027-04-12`, got string `2027-04-20T09:00`\n"
       "5:49: `2027-04-20T09:00`: a time needs a UTC offset, such as `Z` or `+02:00`\n"},
      {"an offset of a day", start("2027-04-20T09:00+24:00"),
       "5:49: expected a date such as `2027-04-12`, got string `2027-04-20T09:00+24:00`\n"
       "5:49: `2027-04-20T09:00+24:00` has a UTC offset out of range: offsets run from `-23:59` "
       "to `+23:59`\n"},
      {"a year of five digits", start("12027-04-20T09:00Z"),
       "5:49: expected a date such as `2027-04-12`, got string `12027-04-20T09:00Z`\n"
       "5:49: `12027-04-20T09:00Z` is not a valid date: a year has four digits\n"},
      {"a space for the T", start("2027-04-20 09:00Z"),
       "5:49: expected a date such as `2027-04-12`, got string `2027-04-20 09:00Z`\n"
       "  help: write `T` between the date and the time: `2027-04-20T09:00Z`\n"},
  };
  for (const Spelling& c : cases) {
    INFO(c.name << "\n" << c.text);
    Checked checked(c.text);
    CHECK(checked.Dump() == c.expected);
  }
}

TEST_CASE("dangling references are diagnosed at the referring value", "[schema]") {
  const std::string alloc = std::string(kDemands) + "allocations:\n";
  CheckCases({
      {"dangling reference with a close id",
       Plan(alloc + "  - {id: a, demand: serve, pool: serve-eu-spar, gpus: 4}\n"),
       "8:34: no `Pool` with id `serve-eu-spar`\n"
       "  help: did you mean `serve-eu-spare`?\n"},
      {"dangling reference without a close id",
       Plan(alloc + "  - {id: a, demand: serve, pool: gpu-farm-9, gpus: 4}\n"),
       "8:34: no `Pool` with id `gpu-farm-9`\n"
       "  help: known ids: `train-eu`, `serve-eu-spare`\n"},
      {"reference within the plan",
       Plan(alloc + "  - {id: a, demand: trian, pool: train-eu, gpus: 4}\n"),
       "8:21: no `Demand` with id `trian`\n"
       "  help: did you mean `train`?\n"},
      {"list of references",
       Plan(alloc +
            "  - {id: a, demand: train, pool: train-eu, gpus: 4, evidence: [q-h100, nope]}\n"),
       "8:72: no `Supply` with id `nope`\n"
       "  help: known ids: `q-h100`, `r-apr`\n"},
      {"reference to records no document holds",
       "apiVersion: capops.dev/v1\nkind: CapacityPlan\n"
       "metadata: {name: q2, owner: ai, team: infra}\n" +
           std::string(kDemands),
       "3:39: no document holds a list of `Team`\n"
       "  help: the schema has no document with a `list<Team>` field\n"},
      {"reference in the inventory",
       Inventory("pools:\n  - {id: p, accelerator: h100-8, hosts: 1, gpus_per_host: 4,"
                 " region: eu, role: shared}\n"),
       "4:26: no `AcceleratorType` with id `h100-8`\n"
       "  help: did you mean `h100-80`?\n"},
  });
}

TEST_CASE("a valid plan and inventory produce no diagnostics", "[schema]") {
  Checked checked(Plan(
      "demands:\n"
      "  - {id: explore, slice: exploration, gpus: 2, interruptible: true, max_hold: 8h}\n"
      "  - id: train-v3\n"
      "    slice: training\n"
      "    gpus: 16\n"
      "    window: {start: 2027-04-12, duration: 5d}\n"
      "    requires: {memory: 80GiB, storage_read: 5GB/s}\n"
      "    regions: [eu-west, eu-north]\n"
      "    utilization: 1\n"
      "  - {id: tune-v3, slice: tuning, based_on: train-v3}\n"
      "allocations:\n"
      "  - {id: a-train, demand: train-v3, pool: train-eu, gpus: 16, evidence: [r-apr, q-h100]}\n"
      "  - {id: a-explore, demand: explore, pool: serve-eu-spare, gpus: 2}\n"
      "substitutes:\n"
      "  - {replaces: h100-80, candidate: l4-24,"
      " validation: {quality: passed, completion-window: failed}}\n"
      "tree: {name: root, children: [{name: leaf}]}\n"
      "notes: {anything: [1, {goes: here}]}\n"));
  CHECK(checked.Dump() == "");
  const Value& plan = checked.plan();
  CHECK(plan.Field("allocations")->keyed());
  CHECK(plan.Field("demands")->FindById("train-v3")->Field("utilization")->is(ValueKind::kDouble));
  CHECK(*plan.Field("apiVersion") == Value::String("capops.dev/v1"));
  CHECK(*plan.Field("kind") == Value::String("CapacityPlan"));
}

TEST_CASE("absent fields get their defaults, located at their map", "[schema]") {
  Checked checked(Plan(std::string(kDemands) +
                       "allocations:\n"
                       "  - {id: a, demand: train, pool: train-eu, gpus: 4, interruptible: null}\n"
                       "  - id: b\n"
                       "    demand: serve\n"
                       "    pool: serve-eu-spare\n"
                       "    gpus: 4\n"
                       "    evidence: ~\n"));
  REQUIRE(checked.Dump() == "");
  const Value& plan = checked.plan();
  const Value* a = plan.Field("allocations")->FindById("a");
  REQUIRE(a != nullptr);
  REQUIRE(a->Field("evidence") != nullptr);
  CHECK(*a->Field("evidence") == Value::List({}));
  CHECK(*a->Field("interruptible") == Value::Bool(false));
  CHECK(a->Field("interruptible")->loc() == a->loc());
  CHECK(a->loc().line == 8);
  const Value* b = plan.Field("allocations")->FindById("b");
  REQUIRE(b != nullptr);
  CHECK(*b->Field("evidence") == Value::List({}));
  CHECK(b->Field("evidence")->loc() == b->loc());
  // A document's own defaults are filled in too.
  CHECK(*plan.Field("substitutes") == Value::List({}));
  CHECK(plan.Field("substitutes")->loc() == plan.loc());
  // Defaults within defaults: an inventory with no lists at all.
  Checked empty(Inventory("") + Plan(kDemands).insert(0, "---\n"));
  REQUIRE(empty.roots.size() == 3);  // with the base inventory
  CHECK(*empty.roots[0].value.Field("pools") == Value::List({}));
}

TEST_CASE("null for an optional field leaves it absent", "[schema]") {
  Checked checked(
      Plan("demands:\n"
           "  - id: d\n"
           "    slice: training\n"
           "    window: null\n"
           "    max_hold: ~\n"
           "    gpus:\n"));
  REQUIRE(checked.Dump() == "");
  const Value* d = checked.plan().Field("demands")->FindById("d");
  REQUIRE(d != nullptr);
  CHECK(d->Field("window") == nullptr);
  CHECK(d->Field("max_hold") == nullptr);
  CHECK(d->Field("gpus") == nullptr);
  CHECK(*d->Field("interruptible") == Value::Bool(false));
}

TEST_CASE("scalars where a string is expected become strings", "[schema]") {
  Checked checked(
      Plan("demands:\n"
           "  - {id: 8h, slice: training}\n"
           "  - {id: 2027, slice: tuning, based_on: 8h}\n"
           "  - {id: 2027-04-12, slice: inference, based_on: 2027}\n"
           "  - {id: d, slice: inference, regions: [1, 80GiB, true]}\n"));
  REQUIRE(checked.Dump() == "");
  const Value* demands = checked.plan().Field("demands");
  REQUIRE(demands->keyed());
  const Value* d = demands->FindById("8h");
  REQUIRE(d != nullptr);
  CHECK(*d->Field("id") == Value::String("8h"));
  CHECK(d->Field("id")->loc().line == 5);
  CHECK(d->Field("id")->loc().column == 10);
  REQUIRE(demands->FindById("2027") != nullptr);
  CHECK(*demands->FindById("2027")->Field("based_on") == Value::String("8h"));
  REQUIRE(demands->FindById("2027-04-12") != nullptr);
  CHECK(*demands->FindById("d")->Field("regions") ==
        Value::List({Value::String("1"), Value::String("80GiB"), Value::String("true")}));
}

// Each plain scalar is typed for its field: a string gets the text written.
TEST_CASE("plain scalars are typed for the type expected where they are", "[schema]") {
  Checked checked(
      "apiVersion: capops.dev/v1\nkind: CapacityPlan\nmetadata: {name: 1.10, owner: 007}\n"
      "demands:\n"
      "  - {id: 1d, slice: training, gpus: 007, max_hold: 90m, utilization: 1e3,"
      " regions: [1.0, 2027-04-12, 24h, 1d]}\n"
      "  - {id: 24h, slice: tuning, window: {start: 2027-04-12}, requires: {memory: 80GiB},"
      " interruptible: true, based_on: 1d}\n"
      "allocations:\n"
      "  - {id: a1, demand: 24h, pool: train-eu, gpus: 0x10}\n"
      "  - {id: a2, demand: 1d, pool: train-eu, gpus: 2}\n");
  REQUIRE(checked.Dump() == "");
  const Value& plan = checked.plan();
  CHECK(*plan.Field("metadata")->Field("name") == Value::String("1.10"));
  CHECK(*plan.Field("metadata")->Field("owner") == Value::String("007"));
  const Value* demands = plan.Field("demands");
  REQUIRE(demands->keyed());
  const Value* day = demands->FindById("1d");
  const Value* hours = demands->FindById("24h");
  REQUIRE(day != nullptr);
  REQUIRE(hours != nullptr);
  CHECK(day != hours);
  CHECK(*day->Field("gpus") == Value::Int(7));
  CHECK(day->Field("gpus")->is(ValueKind::kInt));
  CHECK(*day->Field("max_hold") == Value::Duration(5400));
  CHECK(day->Field("utilization")->is(ValueKind::kDouble));
  CHECK(day->Field("utilization")->double_value() == 1000.0);
  CHECK(day->Field("regions")->ToLiteral() == "[\"1.0\", \"2027-04-12\", \"24h\", \"1d\"]");
  CHECK(day->Field("slice")->string_value() == "training");
  CHECK(hours->Field("window")->Field("start")->is(ValueKind::kDate));
  CHECK(hours->Field("requires")->Field("memory")->is(ValueKind::kQuantity));
  CHECK(*hours->Field("interruptible") == Value::Bool(true));
  CHECK(*hours->Field("based_on") == Value::String("1d"));
  const Value* allocations = plan.Field("allocations");
  CHECK(*allocations->FindById("a1")->Field("demand") == Value::String("24h"));
  CHECK(*allocations->FindById("a1")->Field("gpus") == Value::Int(16));
  CHECK(allocations->FindById("a2")->Field("gpus")->loc().line == 9);
}

TEST_CASE("a plain scalar that does not fit is reported where a number is, kept where text is",
          "[schema]") {
  Checked checked(
      Plan("demands:\n"
           "  - {id: 99999999999999999999, slice: training, gpus: 99999999999999999999}\n"
           "  - {id: 1e400, slice: tuning, utilization: 1e400, window: {start: 2027-02-30}}\n"));
  CHECK(checked.Dump() ==
        "5:55: expected an integer, got string `99999999999999999999`\n"
        "5:55: integer `99999999999999999999` is out of range\n"
        "6:45: expected a number, got string `1e400`\n"
        "6:45: number `1e400` is out of range\n"
        "6:68: expected a date such as `2027-04-12`, got string `2027-02-30`\n"
        "6:68: `2027-02-30` is not a valid date\n");
  CHECK(checked.diags[1].code == "yaml");  // as the tool's own files report it
  CHECK(checked.diags[1].length == 20);
  CHECK(checked.diags[0].code == "schema");
  const Value* demands = checked.plan().Field("demands");
  REQUIRE(demands->keyed());
  CHECK(demands->FindById("99999999999999999999") != nullptr);
  CHECK(demands->FindById("1e400") != nullptr);
}

TEST_CASE("a quoted literal where its type is expected says to remove the quotes", "[schema]") {
  const std::string demand = "demands:\n  - {id: d, slice: training, ";
  CheckCases({
      {"a quoted date", Plan(demand + "window: {start: \"2027-04-12\"}}\n"),
       "5:46: expected a date such as `2027-04-12`, got string `2027-04-12`\n"
       "  help: quoted: remove the quotes to make it a date\n"},
      {"a quoted int", Plan(demand + "gpus: '16'}\n"),
       "5:36: expected an integer, got string `16`\n"
       "  help: quoted: remove the quotes to make it an integer\n"},
      {"a quoted duration", Plan(demand + "max_hold: \"8h\"}\n"),
       "5:40: expected a duration such as `8h` or `5d`, got string `8h`\n"
       "  help: quoted: remove the quotes to make it a duration\n"},
      {"a quoted number", Plan(demand + "utilization: \"0.5\"}\n"),
       "5:43: expected a number, got string `0.5`\n"
       "  help: quoted: remove the quotes to make it a number\n"},
      {"a quoted bool", Plan(demand + "interruptible: \"true\"}\n"),
       "5:45: expected `true` or `false`, got string `true`\n"
       "  help: quoted: remove the quotes to make it a boolean\n"},
      {"a quoted size", Plan(demand + "requires: {memory: \"80GiB\"}}\n"),
       "5:49: `80GiB` is not a size\n"
       "  help: quoted: remove the quotes to make it a size\n"},
      {"a quoted bandwidth", Plan(demand + "requires: {storage_read: '5GB/s'}}\n"),
       "5:55: `5GB/s` is not a bandwidth\n"
       "  help: quoted: remove the quotes to make it a bandwidth\n"},
      // No hint when the quotes are not what is wrong.
      {"a quoted word", Plan(demand + "gpus: \"four\"}\n"),
       "5:36: expected an integer, got string `four`\n"},
      {"a quoted bandwidth for a size", Plan(demand + "requires: {memory: \"5GB/s\"}}\n"),
       "5:49: `5GB/s` is not a size\n"
       "  help: units are B, kB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB\n"},
      {"an impossible quoted date", Plan(demand + "window: {start: \"2027-02-30\"}}\n"),
       "5:46: expected a date such as `2027-04-12`, got string `2027-02-30`\n"},
      {"a quoted infinity", Plan(demand + "utilization: \".inf\"}\n"),
       "5:43: expected a number, got string `.inf`\n"},
  });
}

// Wherever a value is wrong or not typed by the schema, its plain scalars
// are still typed (Checked checks that none is left).
TEST_CASE("no plain text is left where the schema expects no one type or the shape is wrong",
          "[schema]") {
  CheckCases({
      {"a record given a list",
       "apiVersion: capops.dev/v1\nkind: CapacityPlan\n"
       "metadata: [q2, {owner: 007}]\ndemands: []\n",
       "3:11: expected a `Metadata` mapping, got a list\n"},
      {"a list given a mapping", Plan("demands: {a: 1, b: [2, {c: 3}]}\n"),
       "4:10: expected a list, got a mapping\n"},
      {"a scalar given collections",
       Plan("demands:\n  - {id: d, slice: [a, {b: 1}], gpus: {x: 8h}, based_on: [d]}\n"),
       "5:20: expected a Slice, got a list\n"
       "  help: expected one of `exploration`, `training`, `tuning`, `inference`\n"
       "5:39: expected an integer, got a mapping\n"
       "5:58: expected the id of a `Demand`, got a list\n"},
  });
  Checked any(
      Plan(std::string(kDemands) + "notes: {a: 8h, b: [007, {c: x-1, d: 2027-04-12}], e: '8h'}\n"));
  REQUIRE(any.Dump() == "");
  const Value* notes = any.plan().Field("notes");
  CHECK(*notes->Field("a") == Value::Duration(8 * 3600));
  CHECK(notes->Field("b")->ToLiteral() == "[7, {c: \"x-1\", d: 2027-04-12}]");
  CHECK(*notes->Field("e") == Value::String("8h"));
  ValidateOptions shallow;
  shallow.max_depth = 4;
  Checked deep(Plan(std::string(kDemands) + "notes: {a: [[[[x]]]]}\n"), Schema(), shallow);
  CHECK(deep.Dump() == "7:15: nesting deeper than 4 levels\n");
}

TEST_CASE("ints are widened where a double is expected", "[schema]") {
  Checked checked(Plan("demands:\n  - {id: d, slice: inference, utilization: 1}\n"));
  REQUIRE(checked.Dump() == "");
  const Value* u = checked.plan().Field("demands")->items()[0].Field("utilization");
  REQUIRE(u->is(ValueKind::kDouble));
  CHECK(u->double_value() == 1.0);
  CHECK(u->loc().line == 5);
}

TEST_CASE("a whole number is an int where an int is expected, as JSON reads it", "[schema]") {
  Checked checked(
      Plan("demands:\n  - {id: d, slice: inference, gpus: 4.0}\n"
           "  - {id: e, slice: inference, gpus: 1e3}\n"));
  REQUIRE(checked.Dump() == "");
  const Value& demands = *checked.plan().Field("demands");
  for (auto [i, want] : {std::pair{0u, 4}, std::pair{1u, 1000}}) {
    const Value* gpus = demands.items()[i].Field("gpus");
    REQUIRE(gpus->is(ValueKind::kInt));
    CHECK(gpus->int_value() == want);
    CHECK(gpus->loc().line == 5 + i);
  }
  // A fraction, or a whole number past 64 bits, is no int.
  Checked past(
      Plan("demands:\n  - {id: d, slice: inference, gpus: 1e19}\n"
           "  - {id: e, slice: inference, gpus: -0.5}\n"));
  CHECK(past.Dump() ==
        "5:37: expected an integer, got `1e+19`\n"
        "6:37: expected an integer, got `-0.5`\n");
  Checked quoted(Plan("demands:\n  - {id: d, slice: inference, gpus: \"4.0\"}\n"));
  CHECK(quoted.Dump() ==
        "5:37: expected an integer, got string `4.0`\n"
        "  help: quoted: remove the quotes to make it an integer\n");
}

TEST_CASE("a number outside its field's range is located, naming the range", "[schema]") {
  TypeTable schema = Schema();
  RecordDef& demand = schema.records[schema.record_by_name.at("Demand")];
  for (FieldDef& f : demand.fields) {
    if (f.name == "gpus") f.range = {Value::Int(1), Value()};
    if (f.name == "utilization") f.range = {Value::Double(0.0), Value::Double(1.0)};
  }
  Checked checked(Plan("demands:\n  - {id: d, slice: inference, gpus: 0, utilization: 1.5}\n"
                       "  - {id: e, slice: inference, gpus: 4.0, utilization: 1}\n"
                       "  - {id: f, slice: inference, gpus: many, utilization: -0.0}\n"),
                  schema);
  // Bounds included; an int in range where a double is wanted; a value of
  // the wrong type is reported as such, not as out of range.
  CHECK(checked.Dump() ==
        "5:37: `gpus` is `0`, outside its range `1..`\n"
        "  help: give a value of at least 1\n"
        "5:53: `utilization` is `1.5`, outside its range `0.0..1.0`\n"
        "  help: give a value from 0.0 to 1.0\n"
        "7:37: expected an integer, got string `many`\n");
}

TEST_CASE("enum values are stored in their YAML spelling, `_` read as `-`", "[schema]") {
  Checked checked(
      Inventory("pools:\n  - {id: p, accelerator: l4-24, hosts: 1, gpus_per_host: 4,"
                " region: eu, role: production-replacement}\n"));
  REQUIRE(checked.Dump() == "");
  Checked cpl_spelling(
      Inventory("pools:\n  - {id: p, accelerator: l4-24, hosts: 1,"
                " gpus_per_host: 4, region: eu, role: production_replacement}\n"));
  REQUIRE(cpl_spelling.Dump() == "");
  const Value* role = cpl_spelling.inventory().Field("pools")->items()[0].Field("role");
  CHECK(role->string_value() == "production-replacement");
  CHECK(role->loc().line == 4);
}

TEST_CASE("a duplicate id points at the first one", "[schema]") {
  Checked checked(Plan("demands:\n  - {id: d, slice: training}\n  - {id: d, slice: tuning}\n"));
  REQUIRE(checked.diags.size() == 1);
  const Diagnostic& d = checked.diags[0];
  CHECK(d.message == "duplicate id `d` in `demands`");
  CHECK(d.loc.line == 6);
  REQUIRE(d.related.size() == 1);
  CHECK(d.related[0].loc.line == 5);
  CHECK(d.related[0].loc.column == 10);
  CHECK(d.related[0].message == "the first `d` is here");
  CHECK_FALSE(checked.plan().Field("demands")->keyed());
}

TEST_CASE("references resolve in a list left unkeyed by a repeated id", "[schema]") {
  Checked checked(
      Inventory("accelerator_types:\n"
                "  - {id: a, model: A, memory: 1GiB, interconnect: x}\n"
                "  - {id: a, model: A, memory: 1GiB, interconnect: x}\n"
                "pools:\n  - {id: p, accelerator: a, hosts: 1, gpus_per_host: 1, region: eu,"
                " role: shared}\n"));
  CHECK(checked.Dump() == "5:10: duplicate id `a` in `accelerator_types`\n");
}

TEST_CASE("references into documents that were not given are reported once", "[schema]") {
  static const TypeTable no_inventory = BuildSchema(false);
  Checked checked(Plan(std::string(kDemands) + "allocations:\n" +
                       "  - {id: a, demand: train, pool: p1, gpus: 4}\n"
                       "  - {id: b, demand: train, pool: p2, gpus: 4}\n"),
                  no_inventory);
  CHECK(checked.Dump() ==
        "8:34: no document holds a list of `Pool`\n"
        "  help: the schema has no document with a `list<Pool>` field\n");

  // The schema has inventories, but none was passed along.
  SourceManager sources;
  FileId f = sources.Add("plan.yaml", Plan(std::string(kDemands) + "allocations:\n" +
                                           "  - {id: a, demand: train, pool: p1, gpus: 4}\n"));
  LoadResult loaded = LoadYaml(sources, f, {});
  REQUIRE(loaded.documents.size() == 1);
  Diagnostics diags;
  Value plan = ValidateDocument(Schema(), loaded.documents[0], &diags);
  CheckReferences(Schema(), {{Schema().Document("CapacityPlan"), plan, {}}}, &diags);
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].message == "no document holds a list of `Pool`");
  CHECK(diags[0].help ==
        "`Pool` records are listed in `pools` of `Inventory` documents, and none "
        "was given");

  // An inventory without pools: the ids are looked for, and there are none.
  FileId g = sources.Add("inventory.yaml", Inventory(""));
  LoadResult empty = LoadYaml(sources, g, {});
  REQUIRE(empty.documents.size() == 1);
  Diagnostics more;
  Value inventory = ValidateDocument(Schema(), empty.documents[0], &more);
  CheckReferences(Schema(),
                  {{Schema().Document("CapacityPlan"), plan, {}},
                   {Schema().Document("Inventory"), inventory, {}}},
                  &more);
  REQUIRE(more.size() == 1);
  CHECK(more[0].message == "no `Pool` with id `p1`");
  CHECK(more[0].help == "no `Pool` is listed in any document");
}

TEST_CASE("a document kind the schema lacks is reported", "[schema]") {
  static const TypeTable no_inventory = BuildSchema(false);
  SourceManager sources;
  FileId f = sources.Add("inventory.yaml", kInventory);
  LoadResult loaded = LoadYaml(sources, f, {});
  REQUIRE(loaded.documents.size() == 1);
  Diagnostics diags;
  Value root = ValidateDocument(no_inventory, loaded.documents[0], &diags);
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].message == "the schema declares no `Inventory` document");
  // Returned typed by its texts alone, as a run without a schema reads it.
  CHECK(PlainTexts(root) == 0);
  CHECK(root.ToLiteral() == TypeByText(loaded.documents[0].root, &diags).ToLiteral());
  const Value& pool = root.Field("pools")->items()[0];
  CHECK(*pool.Field("id") == Value::String("train-eu"));
  CHECK(*pool.Field("hosts") == Value::Int(4));
  CHECK(pool.Field("hosts")->loc().line == 7);
  CHECK(root.Field("accelerator_types")->items()[0].Field("memory")->is(ValueKind::kQuantity));
  CHECK(diags.size() == 1);
}

TEST_CASE("without a schema, plain scalars are typed by their text alone", "[schema]") {
  SourceManager sources;
  FileId f =
      sources.Add("case.yaml", Plan("a: [007, 1.10, 24h, {b: 2027-04-12, c: 1e400}]\nd: \"5\"\n"));
  LoadResult loaded = LoadYaml(sources, f, {});
  REQUIRE(loaded.documents.size() == 1);
  Diagnostics diags;
  Value root = TypeByText(std::move(loaded.documents[0].root), &diags);
  CHECK(PlainTexts(root) == 0);
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].message == "number `1e400` is out of range");
  CHECK(diags[0].code == "yaml");
  CHECK(diags[0].loc.line == 4);
  CHECK(diags[0].loc.column == 40);
  CHECK(diags[0].length == 5);
  CHECK(root.Field("a")->ToLiteral() == "[7, 1.1, 1d, {b: 2027-04-12, c: \"1e400\"}]");
  CHECK(*root.Field("d") == Value::String("5"));
  CHECK(*root.Field("kind") == Value::String("CapacityPlan"));
}

TEST_CASE("problems past the cap are counted, not shown", "[schema]") {
  std::string body = "demands:\n";
  for (int i = 0; i < 300; ++i) body += "  - {id: d" + std::to_string(i) + ", slice: nope}\n";
  ValidateOptions options;
  options.max_diagnostics = 200;
  Checked checked(Plan(body), Schema(), options);
  REQUIRE(checked.diags.size() == 201);
  const Diagnostic& last = checked.diags[0];  // at the document start, sorted first
  CHECK(last.message == "100 more problems not shown");
  CHECK(last.loc.line == 1);
}

TEST_CASE("only the first dangling references get a suggestion", "[schema]") {
  std::string body = std::string(kDemands) + "allocations:\n";
  for (int i = 0; i < 60; ++i) {
    body += "  - {id: a" + std::to_string(i) + ", demand: train, pool: train-e, gpus: 1}\n";
  }
  ValidateOptions options;
  options.max_suggestions = 50;
  Checked checked(Plan(body), Schema(), options);
  REQUIRE(checked.diags.size() == 60);
  size_t with_help = 0;
  for (const Diagnostic& d : checked.diags.items()) {
    CHECK(d.message == "no `Pool` with id `train-e`");
    if (!d.help.empty()) ++with_help;
  }
  CHECK(with_help == 50);
  CHECK(checked.diags[0].help == "did you mean `train-eu`?");
}

TEST_CASE("nesting beyond the depth limit is reported once", "[schema]") {
  ValidateOptions options;
  options.max_depth = 4;
  Checked checked(Plan(std::string(kDemands) +
                       "tree: {name: a, children: [{name: b, children: [{name: c, children: "
                       "[{name: d, children: [{name: e}]}]}]}]}\n"),
                  Schema(), options);
  CHECK(checked.Dump() == "7:49: nesting deeper than 4 levels\n");
}

TEST_CASE("long user text is cut in messages", "[schema]") {
  std::string word(200, 'x');
  Checked checked(Plan("demands:\n  - {id: d, slice: " + word + "}\n"));
  REQUIRE(checked.diags.size() == 1);
  CHECK(checked.diags[0].message == "unknown Slice `" + std::string(60, 'x') + "…`");
}

// A stand-in for the loader's key locator: value place → key place.
ValidateOptions KeysAt(std::vector<std::pair<SourceLoc, SourceLoc>> value_to_key) {
  ValidateOptions options;
  options.key_at = [value_to_key](SourceLoc value) {
    for (const auto& [v, k] : value_to_key) {
      if (v.line == value.line && v.column == value.column)
        return SourceLoc{value.file, k.line, k.column};
    }
    return SourceLoc{};
  };
  return options;
}

TEST_CASE("diagnostics about keys are placed at the key when key_at finds it", "[schema]") {
  // `alocations: []` on line 7: the value at 7:13, its key at 7:1.
  std::string text =
      Plan(kDemands + std::string("alocations: []\n"
                                  "substitutes:\n"
                                  "  - replaces: h100-80\n"
                                  "    candidate: l4-24\n"
                                  "    validation: {quality: passed, numerix: passed,"
                                  " completion_window: failed, completion-window: passed}\n"
                                  "colour: red\n"));
  ValidateOptions options = KeysAt({{{0, 7, 13}, {0, 7, 1}},
                                    {{0, 11, 44}, {0, 11, 35}},
                                    {{0, 11, 71}, {0, 11, 52}},
                                    {{0, 11, 98}, {0, 11, 79}}});
  Checked checked(text, Schema(), options);
  CHECK(checked.Dump() ==
        "7:1: unknown field `alocations` in `CapacityPlan`\n"
        "  help: did you mean `allocations`?\n"
        "11:35: unknown key `numerix`\n"
        "  help: did you mean `numerics`? keys are Check values: `quality`, `memory`, `numerics`, "
        "`completion-window`\n"
        "11:79: duplicate key `completion-window`\n"
        "  help: `_` and `-` are the same in a key; keep one of them\n"
        // The locator does not know this one: the value stands in.
        "12:9: unknown field `colour` in `CapacityPlan`\n"
        "  help: `CapacityPlan` has fields `metadata`, `demands`, `allocations`, `substitutes`, "
        "`tree`, `notes`\n");
  const Diagnostic* duplicate = nullptr;
  for (const Diagnostic& d : checked.diags.items()) {
    if (d.message.rfind("duplicate key", 0) == 0) duplicate = &d;
  }
  REQUIRE(duplicate != nullptr);
  REQUIRE(duplicate->related.size() == 1);
  CHECK(duplicate->related[0].loc.column == 52);
  CHECK(duplicate->related[0].message == "the same key is first written `completion_window` here");
  // Only one of the two spellings is kept.
  const Value* validation = checked.plan().Field("substitutes")->items()[0].Field("validation");
  REQUIRE(validation != nullptr);
  CHECK(validation->entries().size() == 2);
}

TEST_CASE("a merge key adds its fields, located where they are written", "[schema]") {
  Checked checked(Plan(kDemands + std::string("allocations:\n"
                                              "  - {id: a, demand: train, pool: train-eu, gpus: 4,"
                                              " <<: {interruptible: true, gpus: 8}}\n")));
  CHECK(checked.Dump() == "");
  const Value& allocation = checked.roots[0].value.Field("allocations")->items()[0];
  CHECK(*allocation.Field("interruptible") == Value::Bool(true));
  CHECK(allocation.Field("interruptible")->loc().column == 73);  // `true`, after the `<<`
  CHECK(*allocation.Field("gpus") == Value::Int(4));             // the map's own key wins
}

TEST_CASE("a quoted `<<` is an ordinary key", "[schema]") {
  Checked checked(Plan(kDemands + std::string("allocations:\n"
                                              "  - {id: a, demand: train, pool: train-eu, gpus: 4,"
                                              " \"<<\": {interruptible: true}}\n")));
  CHECK(checked.Dump().find("unknown field `<<` in `Allocation`") != std::string::npos);
}

TEST_CASE("an unknown field without a close name lists every field", "[schema]") {
  // A record with more fields than any list used to show.
  SchemaBuilder b;
  uint32_t wide = b.Declare("Wide");
  std::vector<std::string> names;
  for (int i = 0; i < 40; ++i) names.push_back("field_number_" + std::to_string(i));
  std::vector<FieldSpec> fields;
  for (const std::string& n : names) fields.emplace_back(n.c_str(), b.Prim(TypeKind::kInt), '?');
  b.Fields(wide, std::move(fields));
  MapEntries entries;
  entries.emplace_back(Key("colour"), Value::String("red"));
  Diagnostics diags;
  ValidateValue(b.table, b.table.Record(wide), Value::Map(std::move(entries)), &diags);
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].message == "unknown field `colour` in `Wide`");
  std::string expected = "`Wide` has fields ";
  for (size_t i = 0; i < names.size(); ++i) expected += (i > 0 ? ", `" : "`") + names[i] + "`";
  CHECK(diags[0].help == expected);
}

TEST_CASE("plural, case and separator misspellings of fields are suggested", "[schema]") {
  CheckCases({
      {"singular list field", Plan(kDemands + std::string("allocation: []\n")),
       "7:13: unknown field `allocation` in `CapacityPlan`\n"
       "  help: did you mean `allocations`?\n"},
      {"capitalized", Inventory("Pools: []\n"),
       "3:8: unknown field `Pools` in `Inventory`\n"
       "  help: did you mean `pools`?\n"},
      {"dashes for underscores", Inventory("accelerator-types: []\n"),
       "3:20: unknown field `accelerator-types` in `Inventory`\n"
       "  help: did you mean `accelerator_types`?\n"},
      {"a word of the field", Inventory("accelerators: []\n"),
       "3:15: unknown field `accelerators` in `Inventory`\n"
       "  help: did you mean `accelerator_types`?\n"},
      {"singular set field", Plan("demands:\n  - {id: d, slice: training, region: [eu-west]}\n"),
       "5:38: unknown field `region` in `Demand`\n"
       "  help: did you mean `regions`?\n"},
  });
}

TEST_CASE("a misspelt list hides its ids: one error, not one per reference", "[schema]") {
  SECTION("pools under `poolz:` in an inventory beside the plan") {
    Checked checked(
        Plan(kDemands + std::string("allocations:\n"
                                    "  - {id: a, demand: train, pool: p1, gpus: 4}\n"
                                    "  - {id: b, demand: serve, pool: p2, gpus: 4}\n"
                                    "  - {id: c, demand: serve, pool: p3, gpus: 4}\n")) +
        "---\n" +
        Inventory("poolz:\n"
                  "  - {id: p1, accelerator: h100-80, hosts: 1, gpus_per_host: 4, region: eu,"
                  " role: shared}\n"));
    CHECK(
        checked.Dump() ==
        "15:3: unknown field `poolz` in `Inventory`\n"
        "  help: did you mean `pools`? references to `Pool` are not checked until this is fixed\n");
    REQUIRE(checked.diags.HasErrors());  // never a silent pass
  }
  SECTION("demands under `demandz:`: neither missing nor dangling") {
    Checked checked(
        Plan("demandz:\n  - {id: train, slice: training}\n"
             "allocations:\n"
             "  - {id: a, demand: train, pool: train-eu, gpus: 4}\n"
             "  - {id: b, demand: train, pool: nowhere, gpus: 4}\n"));
    CHECK(checked.Dump() ==
          "5:3: unknown field `demandz` in `CapacityPlan`\n"
          "  help: did you mean `demands`? references to `Demand` are not checked until this is "
          "fixed\n"
          "8:34: no `Pool` with id `nowhere`\n"
          "  help: known ids: `train-eu`, `serve-eu-spare`\n");
  }
  SECTION("a misspelt field that lists nothing hides nothing") {
    Checked checked(Plan(
        kDemands + std::string("allocations:\n"
                               "  - {id: a, demand: train, pool: p9, gpus: 4, evidenze: []}\n")));
    CHECK(checked.Dump() ==
          "8:34: no `Pool` with id `p9`\n"
          "  help: known ids: `train-eu`, `serve-eu-spare`\n"
          "8:57: unknown field `evidenze` in `Allocation`\n"
          "  help: did you mean `evidence`?\n");
  }
}

TEST_CASE("known ids are listed with a count of the rest", "[schema]") {
  std::string pools = "pools:\n";
  for (int i = 0; i < 12; ++i) {
    pools += "  - {id: pool-number-" + std::to_string(i) +
             ", accelerator: h100-80, hosts: 1, gpus_per_host: 4, region: eu, role: shared}\n";
  }
  Checked checked(
      Plan(kDemands +
           std::string("allocations:\n  - {id: a, demand: train, pool: zzz, gpus: 4}\n")) +
      "---\n" + Inventory(pools));
  REQUIRE(checked.diags.size() == 1);
  CHECK(checked.diags[0].help ==
        "known ids: `pool-number-0`, `pool-number-1`, `pool-number-2`, `pool-number-3`, "
        "`pool-number-4` and 9 more");
}

TEST_CASE("hostile unknown keys get a short message and no suggestion", "[schema]") {
  const std::string fields =
      "  help: `CapacityPlan` has fields `metadata`, `demands`, `allocations`, `substitutes`, "
      "`tree`, "
      "`notes`\n";
  // A key as long as YAML allows (1 KB), and one of bytes that are not
  // UTF-8: cut in the message, matched against nothing.
  std::string huge(1000, 'p');
  Checked long_key(Plan(kDemands + huge + "s: [1]\n"));
  CHECK(long_key.Dump() ==
        "7:1004: unknown field `" + std::string(60, 'p') + "…` in `CapacityPlan`\n" + fields);
  Checked bad_bytes(Plan(kDemands + std::string("\"\\xFF\\xFEpools\": [1]\n")));
  REQUIRE(bad_bytes.diags.size() == 1);
  CHECK(bad_bytes.diags[0].help.rfind("did you mean", 0) != 0);
  // A plural key that is a list of the wrong thing still hides the ids it names.
  Checked plural(Plan(kDemands + std::string("allocationz: {a: 1}\n"
                                             "substitutes: [{replaces: h100-80, candidate: l4-24,"
                                             " validation: {}}]\n")));
  CHECK(plural.Dump() ==
        "7:14: unknown field `allocationz` in `CapacityPlan`\n"
        "  help: did you mean `allocations`? references to `Allocation` are not checked until this "
        "is "
        "fixed\n");
}

// The reference check only reads: the facts it checked are, node for node,
// the values they were, held in the same places (rules then find each
// reference's item by its id, as any lookup does).
TEST_CASE("checking references leaves every fact as it was", "[facts]") {
  SourceManager sources;
  FileId plan_file =
      sources.Add("plan.yaml", Plan(std::string(kDemands) + "allocations:\n" +
                                    "  - {id: a, demand: train, pool: train-eu, gpus: 4}\n" +
                                    "  - {id: b, demand: serve, pool: serve-eu-spare, gpus: 2}\n" +
                                    "  - {id: c, demand: nothing, pool: train-eu, gpus: 1}\n"));
  FileId inventory_file = sources.Add("inventory.yaml", kInventory);
  Diagnostics diags;
  Value plan = ValidateDocument(Schema(), LoadYaml(sources, plan_file, {}).documents.at(0), &diags);
  Value inventory =
      ValidateDocument(Schema(), LoadYaml(sources, inventory_file, {}).documents.at(0), &diags);
  REQUIRE_FALSE(diags.HasErrors());
  std::vector<std::string> before;
  Snapshot(plan, "plan", &before);
  Snapshot(inventory, "inventory", &before);
  CheckReferences(Schema(),
                  {{Schema().Document("CapacityPlan"), plan, {}},
                   {Schema().Document("Inventory"), inventory, {}}},
                  &diags);
  // Only the dangling one is reported: the others resolved.
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].message.find("`nothing`") != std::string::npos);
  CHECK(diags[0].loc.line == 10);
  std::vector<std::string> after;
  Snapshot(plan, "plan", &after);
  Snapshot(inventory, "inventory", &after);
  CHECK(after == before);
}

}  // namespace
}  // namespace capops::facts
