// SPDX-License-Identifier: Apache-2.0
// What completion offers in an empty fact file: a plan or an inventory as a
// snippet (placeholders to tab through, an enum's members as a choice), the
// required fields of each record filled with ids that match across the two,
// so that a plan and an inventory both written from them load and resolve.
//
//   nlohmann::json list = SkeletonCompletion(/*inventory_first=*/false);
#pragma once

#include <nlohmann/json.hpp>

namespace capops::lsp {

/// A CompletionList of the two skeletons; the one for the file at hand
/// (an inventory when `inventory_first`, else a plan) first and preselected.
nlohmann::json SkeletonCompletion(bool inventory_first);

}  // namespace capops::lsp
