// SPDX-License-Identifier: Apache-2.0
// The skeletons completion offers in an empty fact file (skeletons.h).
// Entry point: SkeletonCompletion.
#include "engine/lsp/skeletons.h"

#include <string>
#include <utility>

#include "engine/facts/loader.h"

namespace capops::lsp {

using Json = nlohmann::json;

namespace {

// LSP's CompletionItemKind and InsertTextFormat.
constexpr int kItemSnippet = 15;
constexpr int kFormatSnippet = 2;

// A document of `kind` holding `body`.
std::string Document(const std::string& kind, const std::string& body) {
  return std::string("apiVersion: ") + facts::kApiVersion + "\nkind: " + kind + "\n" + body;
}

std::string PlanSnippet() {
  return Document("CapacityPlan",
                  "metadata:\n"
                  "  name: ${1:plan-name}\n"
                  "  owner: ${2:accountable-owner}\n"
                  "demands:\n"
                  "  - id: ${3:demand-1}\n"
                  "    slice: ${4|training,exploration,tuning,inference|}\n"
                  "    gpus: ${5:16}\n"
                  "    window: {start: ${6:2027-04-12}, duration: ${7:5d}}\n"
                  "allocations:\n"
                  "  - id: ${8:allocation-1}\n"
                  "    demand: ${3}\n"
                  "    pool: ${9:pool-1}\n"
                  "    gpus: ${5}\n"
                  "    evidence: [${10:supply-1}]\n"
                  "$0");
}

std::string InventorySnippet() {
  return Document(
      "Inventory",
      "accelerator_types:\n"
      "  - id: ${1:gpu-type}\n"
      "    model: ${2:H100}\n"
      "    memory: ${3:80GiB}\n"
      "    interconnect: ${4:nvlink4}\n"
      "pools:\n"
      "  - id: ${5:pool-1}\n"
      "    accelerator: ${1}\n"
      "    hosts: ${6:4}\n"
      "    gpus_per_host: ${7:4}\n"
      "    region: ${8:eu-west}\n"
      "    role: ${9|research,shared,production,production-replacement|}\n"
      "supply:\n"
      "  - id: ${10:supply-1}\n"
      "    kind: ${11|physical-confirmation,reservation,quota,forecast,catalog,commitment|}\n"
      "    accelerator: ${1}\n"
      "    gpus: ${12:16}\n"
      "    confirmation: {by: ${13:site-operations}, date: ${14:2027-03-01}}\n"
      "$0");
}

Json Item(const std::string& label, const std::string& detail, const std::string& doc,
          std::string snippet, bool first) {
  Json item = {{"label", label},
               {"kind", kItemSnippet},
               {"detail", detail},
               {"documentation", {{"kind", "markdown"}, {"value", doc}}},
               {"insertTextFormat", kFormatSnippet},
               {"insertText", std::move(snippet)},
               {"sortText", first ? "0" : "1"}};
  if (first) item["preselect"] = true;
  return item;
}

}  // namespace

Json SkeletonCompletion(bool inventory_first) {
  Json plan = Item("CapacityPlan", "a capacity plan skeleton",
                   "A plan: its metadata, one demand and the allocation that serves it, citing "
                   "the supply that backs it.",
                   PlanSnippet(), !inventory_first);
  Json inventory = Item("Inventory", "an inventory skeleton",
                        "An inventory: one accelerator type, a pool of it and the supply "
                        "record that confirms it exists.",
                        InventorySnippet(), inventory_first);
  Json items = inventory_first ? Json::array({std::move(inventory), std::move(plan)})
                               : Json::array({std::move(plan), std::move(inventory)});
  return {{"isIncomplete", false}, {"items", std::move(items)}};
}

}  // namespace capops::lsp
