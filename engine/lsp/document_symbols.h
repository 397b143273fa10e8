// SPDX-License-Identifier: Apache-2.0
// The outline of a plan or inventory (textDocument/documentSymbol): each
// keyed list of a document (a plan's demands, allocations, substitutes and
// benchmarks; an inventory's accelerator types, pools, supply and managed
// services) and in it each record, named by its `id`, with a detail of
// what it is (a demand's slice and GPUs, an allocation's pool, a pool's
// role, a supply record's kind). Hierarchical DocumentSymbols; ranges in
// UTF-16 units; a file of several documents gets one symbol per document.
//
// The text is read as far as it parses (facts::YamlOutline): a document
// broken part-way still outlines what comes before the break.
//
//   nlohmann::json symbols = DocumentSymbols(text);
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

namespace capops::lsp {

/// DocumentSymbol[] for a YAML fact file's text; [] when nothing is found.
nlohmann::json DocumentSymbols(std::string_view text);

}  // namespace capops::lsp
