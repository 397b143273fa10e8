// SPDX-License-Identifier: Apache-2.0
// What the repair tests share (repair_test_support.h).
#include "engine/repair/repair_test_support.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "engine/facts/loader.h"
#include "engine/repair/plan_edits.h"
#include "engine/repair/repair.h"
#include "tests/support/paths.h"
#include "tests/support/run_cli.h"
#include "tests/support/temp_dir.h"

namespace capops::repair::testing {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

// The allocation a finding's repairs change (RepairedBinding).
std::string AllocationOf(const Json& finding) {
  std::string_view binding = RepairedBinding(finding["rule"].get<std::string>());
  for (const Json& e : finding["evidence"]) {
    if (!binding.empty() && e["name"] == binding) return e["value"];
  }
  return "";
}

// The errors of a JSON report: a finding by its rule and the located facts
// it is about, a diagnostic by its code and message.
std::set<std::string> Errors(const Json& report) {
  std::set<std::string> out;
  for (const Json& v : report["violations"]) {
    if (v["severity"] != "error") continue;
    std::string key = v["rule"];
    for (const Json& e : v["evidence"]) {
      if (e["location"].is_null()) continue;
      // As the engine keys it (repair::ErrorKey): a value of the facts by
      // where it is, a record by its id.
      std::string shown = e.value("shown", ""), value = e["value"];
      size_t is = shown.find("` is ");
      key += " " + e["name"].get<std::string>() + "=" +
             (is == std::string::npos ? value : shown.substr(0, is + 1));
    }
    out.insert(key);
  }
  for (const Json& d : report["errors"]) {
    if (d["severity"] == "error")
      out.insert(d["code"].get<std::string>() + " " + d["message"].get<std::string>());
  }
  return out;
}

std::string Applied(std::string text, const Json& fix) {
  std::vector<Json> edits(fix["replacements"].begin(), fix["replacements"].end());
  std::sort(edits.begin(), edits.end(),
            [](const Json& a, const Json& b) { return a["offset"] > b["offset"]; });
  for (const Json& e : edits) {
    text.replace(e["offset"].get<size_t>(), e["length"].get<size_t>(),
                 e["text"].get<std::string>());
  }
  return text;
}

// `text` (a plan file, maybe with inventory documents) with `id` added to
// allocation `allocation`'s evidence.
std::string Citing(const std::string& text, const std::string& allocation, const std::string& id) {
  SourceManager sources;
  FileId file = sources.Add("plan.yaml", text);
  for (const Value& doc : facts::LoadRawYaml(sources, file, {}).documents) {
    const Value* allocations = doc.Field("allocations");
    if (allocations == nullptr || !allocations->is(ValueKind::kList)) continue;
    for (const Value& a : allocations->items()) {
      const Value* a_id = a.Field("id");
      if (a_id && a_id->is(ValueKind::kString) && a_id->string_value() == allocation)
        return Edited(text, AddToList(file, text, a, "evidence", id));
    }
  }
  FAIL("no allocation " << allocation);
  return text;
}

// An Inventory holding the confirmed record a finding's `acquisition`
// (JSON) advises, as `id`: written here from the report, not by the engine.
std::string AcquiredInventory(const Json& q, const std::string& id) {
  std::string out =
      "apiVersion: capops.dev/v1\nkind: Inventory\nsupply:\n  - id: " + id +
      "\n    kind: reservation\n    accelerator: " + q["accelerator"].get<std::string>() +
      "\n    gpus: " + std::to_string(q["gpus"].get<int64_t>()) + "\n";
  for (const char* key : {"region", "service"}) {
    if (!q[key].is_null())
      out += std::string("    ") + key + ": " + q[key].get<std::string>() + "\n";
  }
  const Json& w = q["window"];
  if (!w["start"].is_null())
    out += "    window:\n      start: " + w["start"].get<std::string>() + "\n";
  if (!w["end"].is_null()) out += "      end: " + w["end"].get<std::string>() + "\n";
  return out;
}

}  // namespace

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

Offered CheckRepairs(const std::vector<fs::path>& plans, const std::string& inventory,
                     const std::vector<std::string>& extra) {
  capops::testing::TempDir dir("capops-repair");
  Offered offered;
  for (const fs::path& path : plans) {
    std::string name = path.filename().string();
    INFO(path.string());
    std::string text = ReadText(path);
    std::vector<std::string> args = {"--format", "json", "--max-repair-lints", "64"};
    if (extra.empty()) args.push_back("--no-config");
    args.insert(args.end(), extra.begin(), extra.end());
    if (!inventory.empty()) args.insert(args.end(), {"--inventory", inventory});
    // The lint after a repair only shows whether it holds: it searches none.
    auto lint = [&](const std::string& file, bool search = true, const std::string& record = "") {
      std::vector<std::string> a = args;
      if (!search) a[3] = "0";
      if (!record.empty()) a.insert(a.end(), {"--inventory", record});
      a.push_back(file);
      auto r = capops::testing::RunCli(a);
      REQUIRE(r.exit_code <= 1);
      return Json::parse(r.out);
    };
    Json before = lint(dir.Write(name, text));
    std::set<std::string> errors = Errors(before);
    for (const Json& v : before["violations"]) {
      const Json& q = v["acquisition"];
      if (v["fixes"].empty() && q.is_null()) continue;
      std::string rule = v["rule"];
      REQUIRE(HasRepairSearch(rule));
      std::string allocation = AllocationOf(v);
      REQUIRE_FALSE(allocation.empty());
      // Advice only where no edit repairs the finding.
      CHECK((v["fixes"].empty() || q.is_null()));
      // The findings of a rule about one allocation are repaired together:
      // each carries the same repairs (an acquisition's as "help: …"), tried once.
      std::vector<std::string> descriptions;
      for (const Json& fix : v["fixes"]) descriptions.push_back(fix["description"]);
      if (!q.is_null()) descriptions.push_back("help: " + q["description"].get<std::string>());
      auto [it, first] = offered.try_emplace(rule + " " + name + " " + allocation, descriptions);
      CHECK(it->second == descriptions);
      if (!first) continue;
      auto holds = [&](const Json& after) {
        for (const Json& w : after["violations"])
          CHECK_FALSE((w["rule"] == rule && AllocationOf(w) == allocation));
        for (const std::string& e : Errors(after)) {
          INFO(e);
          CHECK(errors.count(e) == 1);
        }
      };
      for (const Json& fix : v["fixes"]) {
        INFO(fix["description"]);
        CHECK_FALSE(fix["replacements"].empty());
        holds(lint(dir.Write("fixed-" + name, Applied(text, fix)), false));
      }
      if (q.is_null()) continue;
      // An acquisition is never applied as an edit: the plan citing a
      // record of exactly it, added as an inventory of its own, must show
      // the finding gone and no new error.
      INFO(q.dump());
      const std::string id = "acquired-by-test";
      holds(lint(dir.Write("citing-" + name, Citing(text, allocation, id)), false,
                 dir.Write("acquired-" + name, AcquiredInventory(q, id))));
    }
  }
  return offered;
}

std::vector<fs::path> RepairFixtures(const std::string& only) {
  std::vector<fs::path> out;
  fs::path fixtures = fs::path(capops::testing::SourceDir()) / "policies/capops-ai/fixtures";
  for (const fs::directory_entry& rule : fs::directory_iterator(fixtures)) {
    std::string id = rule.path().filename().string();
    if (!HasRepairSearch(id) || (!only.empty() && id != only)) continue;
    for (const fs::directory_entry& entry : fs::directory_iterator(rule.path())) {
      if (entry.path().extension() == ".yaml") out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

Offered OfRule(const Offered& offered, const std::string& rule) {
  Offered out;
  std::string prefix = rule + " ";
  for (const auto& [key, descriptions] : offered) {
    if (key.rfind(prefix, 0) == 0) out[key.substr(prefix.size())] = descriptions;
  }
  return out;
}

Loaded::Loaded(const std::string& text) {
  file = sources.Add("plan.yaml", text);
  facts::RawLoadResult r = facts::LoadRawYaml(sources, file, {});
  REQUIRE(r.documents.size() == 1);
  doc = r.documents[0];
}

const Value& Loaded::At(const std::string& id) const {
  for (const Value& a : doc.Field("allocations")->items()) {
    if (a.Field("id")->string_value() == id) return a;
  }
  FAIL("no allocation " << id);
  return doc;
}

std::string Line(const std::string& text, int n) {
  size_t at = 0;
  for (int i = 1; i < n; ++i) at = text.find('\n', at) + 1;
  return text.substr(at, text.find('\n', at) - at);
}

std::string Edited(const std::string& text, std::optional<std::vector<Replacement>> edits) {
  if (!edits) return "(none)";
  std::string out, why;
  REQUIRE(ApplyReplacements(text, *edits, &out, &why));
  return out;
}
}  // namespace capops::repair::testing
