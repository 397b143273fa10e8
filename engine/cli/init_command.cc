// SPDX-License-Identifier: Apache-2.0
// The init command: an annotated plan and inventory to start from.
#include "engine/cli/init_command.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <set>

#include "engine/api/engine.h"
#include "engine/check/schema_decls.h"
#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/report/json_schema.h"
#include "engine/workspace/output_file.h"
#include "engine/workspace/pack_locator.h"
#include "engine/workspace/policy_loader.h"

namespace capops::cli {

namespace {

namespace fs = std::filesystem;

// The decision fields the planner writes themselves: left out of the plan.
const std::set<std::string> kLeftToWrite = {"trade_off", "residual_risk"};

// Writes facts with each field's doc as a trailing comment, the first time
// the field of that record appears.
class Annotator {
 public:
  explicit Annotator(const Engine& engine) : engine_(engine), schema_(engine.program()->schema) {}

  std::string Document(const YAML::Node& doc, const std::string& kind,
                       const std::vector<std::string>& header) {
    YAML::Emitter out;
    for (const std::string& line : header) out << YAML::Comment(line) << YAML::Newline;
    out << YAML::BeginMap;
    out << YAML::Key << "apiVersion" << YAML::Value << doc["apiVersion"].Scalar();
    out << YAML::Key << "kind" << YAML::Value << kind;
    Fields(doc, schema_.record_by_name.at(kind), /*top=*/true, out);
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
  }

 private:
  void Fields(const YAML::Node& map, uint32_t record, bool top, YAML::Emitter& out) {
    const RecordDef& def = schema_.records[record];
    for (const auto& entry : map) {
      std::string key = entry.first.Scalar();
      if (top && (key == "apiVersion" || key == "kind")) continue;
      if (def.name == "Decision" && kLeftToWrite.count(key) != 0) continue;
      const FieldDef* field = def.Find(key);
      std::string doc = field == nullptr ? std::string() : Doc(def.name, *field);
      out << YAML::Key << key;
      bool nested = !entry.second.IsScalar() && !IsScalarList(entry.second);
      if (nested && !doc.empty()) out << YAML::Comment(doc);
      out << YAML::Value;
      Value(entry.second, field == nullptr ? schema_.Any() : field->type, out);
      if (!nested && !doc.empty()) out << YAML::Comment(doc);
    }
  }

  void Value(const YAML::Node& node, TypeId type, YAML::Emitter& out) {
    const Type& t = schema_.Get(type);
    if (node.IsScalar()) {
      out << node.Scalar();
    } else if (node.IsSequence()) {
      bool flow = IsScalarList(node);
      out << (flow ? YAML::Flow : YAML::Block) << YAML::BeginSeq;
      for (const YAML::Node& item : node)
        Value(item, t.kind == TypeKind::kList ? t.elem : schema_.Any(), out);
      out << YAML::EndSeq;
    } else if (node.IsMap() && t.kind == TypeKind::kRecord) {
      out << YAML::Block << YAML::BeginMap;
      Fields(node, t.index, false, out);
      out << YAML::EndMap;
    } else if (node.IsMap()) {
      out << YAML::Flow << YAML::BeginMap;
      for (const auto& entry : node) {
        out << YAML::Key << entry.first.Scalar() << YAML::Value;
        Value(entry.second, t.kind == TypeKind::kMap ? t.elem : schema_.Any(), out);
      }
      out << YAML::EndMap;
    } else {
      out << YAML::Null;
    }
  }

  static bool IsScalarList(const YAML::Node& node) {
    if (!node.IsSequence()) return false;
    for (const YAML::Node& item : node) {
      if (!item.IsScalar()) return false;
    }
    return true;
  }

  // The field's doc comment, first sentence, on one line; once per field.
  std::string Doc(const std::string& record, const FieldDef& field) {
    if (!said_.insert(record + "." + field.name).second) return "";
    std::string doc = decls_.FieldDoc(record, field.name);
    std::string shape = report::ValueShape(schema_, field.type);
    for (char& c : doc) {
      if (c == '\n') c = ' ';
    }
    if (size_t end = doc.find(". "); end != std::string::npos) doc.resize(end + 1);
    if (!shape.empty()) doc += (doc.empty() ? "" : " ") + ("(" + shape + ")");
    return doc;
  }

  const Engine& engine_;
  const TypeTable& schema_;
  const check::SchemaDecls decls_{*engine_.program()};
  std::set<std::string> said_;
};

}  // namespace

int RunInit(const InitOptions& options, std::ostream& out, std::ostream& err) {
  fs::path dir(options.dir.empty() ? "." : options.dir);
  const fs::path files[] = {dir / "plan.yaml", dir / "inventory.yaml", dir / "capops.schema.json"};
  for (const fs::path& f : files) {
    std::error_code ec;
    if (fs::exists(fs::symlink_status(f, ec)))
      return Fail(err, "refusing to overwrite `" + f.string() + "`: init writes only new files");
  }
  Engine engine;
  std::string error;
  if (!LoadPack({}, false, &engine, err)) return kExitUsage;
  std::optional<fs::path> data = workspace::FindDataDir(&error);
  if (!data) return Fail(err, error);
  fs::path example = *data / "examples" / "visual-inspection" / "clean";
  YAML::Node plan, inventory;
  try {
    plan = YAML::LoadFile((example / "plan.yaml").string());
    inventory = YAML::LoadFile((example / "inventory.yaml").string());
  } catch (const YAML::Exception& e) {
    return Fail(err, "cannot read the shipped example in `" + example.string() + "`: " + e.what());
  }
  const std::string modeline = "yaml-language-server: $schema=capops.schema.json";
  Annotator annotator(engine);
  std::string inventory_text = annotator.Document(
      inventory, "Inventory",
      {modeline, "",
       "The capacity this plan draws on: accelerator types, pools and the supply behind them.",
       "Each field's comment is its meaning in the fact schema (capops-lint doc -o DIR has them "
       "all)."});
  std::string plan_text = annotator.Document(
      plan, "CapacityPlan",
      {modeline, "",
       "A capacity plan to start from: one demand of each slice, each allocation backed by",
       "confirmed supply in inventory.yaml. Lint it with: capops-lint plan.yaml", "",
       "It gives one finding until you finish the decision record: CAP-GOV-001, because",
       "`decision:` does not yet say its trade_off and residual_risk. Write them there."});
  std::error_code ec;
  bool made_dir = !fs::exists(dir, ec);
  fs::create_directories(dir, ec);
  if (ec) return Fail(err, "cannot create `" + dir.string() + "`: " + ec.message());
  const std::string texts[] = {plan_text, inventory_text, report::FactJsonSchema(engine)};
  // All or none: a start that half exists (a full disk at the third file)
  // is taken back, the files being new (checked above), and so is the
  // directory when this run made it.
  for (size_t i = 0; i < 3; ++i) {
    if (workspace::WriteFileAtomically(files[i].string(), texts[i], &error)) continue;
    for (size_t j = 0; j < i; ++j) fs::remove(files[j], ec);
    if (made_dir) fs::remove(dir, ec);
    return Fail(err, error + "; nothing was written");
  }
  out << "wrote " << files[0].string() << ", " << files[1].string() << " and " << files[2].string()
      << "; next: capops-lint " << files[0].string() << "\n";
  return kExitClean;
}

}  // namespace capops::cli
