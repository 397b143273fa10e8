// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness for the YAML fact loader and schema validation: load a
// fuzzed fact file, validate each document against the shipped schema, merge
// its inventories and check the references of each plan document against the
// example inventory — what Engine::Lint does before any rule runs. Then, when
// the simple reader read the input (LoadOptions::simple_reader), load it again
// with libfyaml alone, as facts and raw: any difference (load_compare.h) is a
// finding, reported by a trap.
//
// The schema (stdlib compiled once) and the example inventory (loaded and
// validated once) are built at start-up; each input gets its own SourceManager.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/common/source.h"
#include "engine/facts/load_compare.h"
#include "engine/facts/loader.h"
#include "engine/facts/validate.h"
#include "fuzz/fuzz_support.h"

namespace {

using namespace capops;

struct Setup {
  std::unique_ptr<Engine> engine = fuzz::CompiledEngine({});
  SourceManager inventory_sources;
  Value inventory;
  const TypeTable& schema() const { return engine->program()->schema; }

  Setup() {
    TextFile f = fuzz::ReadSourceFile("examples/visual-inspection/inventory.yaml");
    FileId id = inventory_sources.Add(f.path, f.text);
    facts::LoadResult loaded = facts::LoadYaml(inventory_sources, id, {});
    Diagnostics diagnostics;
    std::vector<facts::Document> docs = std::move(loaded.documents);
    std::vector<const facts::Document*> pointers;
    for (facts::Document& d : docs) {
      d.root = facts::ValidateDocument(schema(), d, &diagnostics);
      pointers.push_back(&d);
    }
    inventory = facts::MergeDocuments(pointers, &diagnostics);
  }
};

// The simple reader must load what libfyaml loads: traps, for libFuzzer to
// keep the input, when it does not. `by_default` is the load as it was
// before validation changed its documents.
void CompareWithLibfyaml(const SourceManager& sources, FileId input,
                         const facts::LoadResult& by_default) {
  if (by_default.reader != facts::YamlReader::kSimple) return;
  facts::LoadOptions by_libfyaml;
  by_libfyaml.simple_reader = false;
  std::optional<std::string> difference =
      facts::FirstDifference(facts::LoadYaml(sources, input, by_libfyaml), by_default);
  if (!difference) {
    difference = facts::FirstDifference(facts::LoadRawYaml(sources, input, by_libfyaml),
                                        facts::LoadRawYaml(sources, input, {}));
  }
  if (!difference) {
    // Read in halves wherever a split is found, as a lint reads a large plan.
    facts::LoadOptions in_halves;
    in_halves.halves_from = 0;
    difference = facts::FirstDifference(by_default, facts::LoadYaml(sources, input, in_halves));
  }
  if (!difference) return;
  std::fprintf(stderr, "facts_fuzzer: the simple reader's load differs from libfyaml's: %s\n",
               difference->c_str());
  __builtin_trap();
}

const Setup& GetSetup() {
  static const Setup* setup = new Setup();  // lives for the process: not a leak
  return *setup;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  GetSetup();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Setup& setup = GetSetup();
  const TypeTable& schema = setup.schema();
  SourceManager sources;
  FileId input = sources.Add("fuzz.yaml", std::string(reinterpret_cast<const char*>(data), size));
  facts::LoadResult loaded = facts::LoadYaml(sources, input, {});
  // Values are shared, not copied: what validation replaces stays here.
  const facts::LoadResult as_loaded = loaded;

  Diagnostics diagnostics;
  std::vector<const facts::Document*> inventories;
  for (facts::Document& d : loaded.documents) {
    d.root = facts::ValidateDocument(schema, d, &diagnostics);
    if (d.kind == facts::DocumentKind::kInventory) inventories.push_back(&d);
  }
  Value merged = facts::MergeDocuments(inventories, &diagnostics);
  const RecordDef* plan_record = schema.Document("CapacityPlan");
  const RecordDef* inventory_record = schema.Document("Inventory");
  if (plan_record != nullptr && inventory_record != nullptr) {
    for (const facts::Document& d : loaded.documents) {
      if (d.kind == facts::DocumentKind::kCapacityPlan) {
        // Against the example inventory, and against the input's own inventories.
        facts::CheckReferences(schema,
                               {{plan_record, d.root, {}}, {inventory_record, setup.inventory, {}}},
                               &diagnostics);
        facts::CheckReferences(schema, {{plan_record, d.root, {}}, {inventory_record, merged, {}}},
                               &diagnostics);
      }
    }
  }
  CompareWithLibfyaml(sources, input, as_loaded);
  return 0;
}
