// SPDX-License-Identifier: Apache-2.0
// Tests for ClassifyFile: what a YAML file found under a plan directory is,
// from its documents' heads (facts/document_head.h); all input in memory.
#include "engine/workspace/plan_set.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace capops::workspace {
namespace {

const std::string kPlanHead = "apiVersion: capops.dev/v1\nkind: CapacityPlan\n";
const std::string kDeployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app}\n";

const char* RoleName(FileRole role) {
  switch (role) {
    case FileRole::kPlan:
      return "plan";
    case FileRole::kInventory:
      return "inventory";
    case FileRole::kCapopsFile:
      return "capops file";
    case FileRole::kOther:
      return "other";
  }
  return "?";
}

// "plan", "inventory", "capops file", or for a file that is not linted its
// note: "info 2:7: not linted: kind `Deployment`".
std::string Classified(const std::string& text, const std::string& path = "plans/x.yaml") {
  Diagnostic note;
  FileRole role = ClassifyFile(path, text, facts::LoadOptions{}, &note);
  if (role != FileRole::kOther) return RoleName(role);
  return std::string(note.severity == Severity::kError ? "error " : "info ") +
         std::to_string(note.loc.line) + ":" + std::to_string(note.loc.column) + ": " +
         note.message;
}

std::string Repeat(const std::string& doc, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += "---\n" + doc;
  return out;
}

// A MiB of block scalar, a long flow list, a deep map: what a plan may hold
// before its `apiVersion` and `kind`.
std::string LargeValues() {
  std::string out = "metadata:\n  notes: |\n";
  for (int i = 0; i < 1000; ++i) out += "    " + std::string(1000, 'n') + "\n";
  out += "demands: [" + std::string(50000, '1').replace(1, 1, ",") + "]\n";
  out += "deep: " + std::string(50, '{') + "a: 1" + std::string(50, '}') + "\n";
  return out;
}

TEST_CASE("classify: a plan is a plan however it is written", "[workspace]") {
  const std::vector<std::pair<const char*, std::string>> plans = {
      {"block", kPlanHead + "demands: []\n"},
      {"the keys last, after large values", LargeValues() + kPlanHead},
      {"flow style", "{apiVersion: capops.dev/v1, kind: CapacityPlan, demands: []}"},
      {"quoted keys", "\"apiVersion\": capops.dev/v1\n'kind': \"CapacityPlan\"\n"},
      {"an escaped key", "\"\\u006bind\": CapacityPlan\n"},
      {"the kind through an alias", "x: &k CapacityPlan\nkind: *k\n"},
      {"after a BOM", "\xEF\xBB\xBF" + kPlanHead},
      {"only the kind", "kind: CapacityPlan\n"},
      {"only our apiVersion", "apiVersion: capops.dev/v1\nmetadata: {}\n"},
      {"another version of our API", "apiVersion: capops.dev/v2\nkind: Deployment\n"},
      {"our API group spelt in capitals", "apiVersion: Capops.Dev/v1beta1\nkind: X\n"},
      {"a kind in another case", "kind: capacityplan\n"},
      {"a misspelt kind", "apiVersion: apps/v1\nkind: CapcityPlan\n"},
      {"a kind given twice", "kind: Deployment\napiVersion: apps/v1\nkind: CapacityPlan\n"},
      {"a merge that may bring the kind", "b: &b {kind: CapacityPlan}\n<<: *b\n"},
      {"an alias to nothing", "kind: *nowhere\n"},
      {"a plan after a foreign document", kDeployment + "---\n" + kPlanHead},
      {"a plan behind more documents than a file may hold",
       Repeat(kDeployment, 1100) + "---\n" + kPlanHead},
      {"an inventory then a plan", "kind: Inventory\n---\n" + kPlanHead},
  };
  for (const auto& [what, text] : plans) {
    INFO(what);
    CHECK(Classified(text) == "plan");
  }
}

TEST_CASE("classify: broken text is linted unless its first document is foreign", "[workspace]") {
  // Before the keys are known it may be a broken plan: the lint says what
  // is wrong with it.
  CHECK(Classified("a: \xff\nkind: CapacityPlan\n") == "plan");
  CHECK(Classified("kind: Dep\xffloyment\napiVersion: apps/v1\n") == "plan");
  CHECK(Classified("a: [1\n" + kPlanHead) == "plan");
  CHECK(Classified("kind: [CapacityPlan\n") == "plan");
  CHECK(Classified("a: " + std::string(100, '[') + std::string(100, ']') + "\n" + kPlanHead) ==
        "plan");
  // After a first document that is somebody else's, it is one error: the
  // file was not read to its end, and a plan further in would be missed.
  CHECK(Classified(kDeployment + "---\nspec: \xff\n---\n" + kPlanHead) ==
        "error 2:7: not linted: kind `Deployment`; the file could not be read to its end "
        "(invalid UTF-8), so a plan further in would be missed");
  CHECK(Classified(kDeployment + "---\nkey: [unclosed\n")
            .find("error 2:7: not linted: kind `Deployment`; the file could not be read to its end "
                  "(invalid YAML") == 0);
  std::string nul = kDeployment + "x: a";
  nul += '\0';
  nul += "\n---\n" + kPlanHead;
  CHECK(Classified(nul).find("error 2:7: not linted: kind `Deployment`; the file could not be "
                             "read to its end (file is not text: NUL byte)") == 0);
}

TEST_CASE("classify: what is not a plan is said once, where it says so", "[workspace]") {
  CHECK(Classified(kDeployment) == "info 2:7: not linted: kind `Deployment`");
  CHECK(Classified("\xEF\xBB\xBF" + kDeployment) == "info 2:7: not linted: kind `Deployment`");
  CHECK(Classified("{apiVersion: v1, kind: ConfigMap}") ==
        "info 1:24: not linted: kind `ConfigMap`");
  CHECK(Classified("x: &k Deployment\nkind: *k\n") == "info 2:7: not linted: kind `Deployment`");
  CHECK(Classified("apiVersion: capops.devx/v1\nkind: Job\n") ==
        "info 2:7: not linted: kind `Job`");
  CHECK(Classified("kind: {a: 1}\n") == "info 1:7: not linted: a `kind` that is not a string");
  CHECK(Classified("name: ci\non: push\n") ==
        "info 1:1: not linted: a YAML document without `kind`");
  // A first document that is not a mapping, even one holding a plan's keys.
  CHECK(Classified("- " + kPlanHead.substr(0, 26) + "  kind: CapacityPlan\n") ==
        "info 1:1: not linted: a YAML document without `kind`");
  CHECK(Classified("") == "info 1:1: not linted: no YAML documents");
  CHECK(Classified("---\n...\n") == "info 1:1: not linted: no YAML documents");
  // A dump of any length is read to its end, with no document limit.
  CHECK(Classified(Repeat(kDeployment, 1500)) == "info 3:7: not linted: kind `Deployment`");
  // An 8 MB one-line flow map, read as events (the memory it takes is
  // tests/bad-inputs/walks.sh's to bound).
  std::string flow = "{";
  for (int i = 0; i < 20000; ++i) flow += "k" + std::to_string(i) + ": " + std::to_string(i) + ", ";
  CHECK(Classified(flow + "}\n") == "info 1:1: not linted: a YAML document without `kind`");
}

TEST_CASE("classify: inventories and capops's own files are neither linted nor said",
          "[workspace]") {
  CHECK(Classified("apiVersion: capops.dev/v1\nkind: Inventory\n") == "inventory");
  CHECK(Classified(kDeployment + "---\nkind: Inventory\n") == "inventory");
  CHECK(Classified("waivers: []\n") == "capops file");
  CHECK(Classified("findings: []\n") == "capops file");
  CHECK(Classified("fail-on: never\n", "plans/.capops.yaml") == "capops file");
  // `waivers` beside a kind is somebody else's.
  CHECK(Classified("kind: Deployment\nwaivers: []\n") == "info 1:7: not linted: kind `Deployment`");
}

}  // namespace
}  // namespace capops::workspace
