// SPDX-License-Identifier: Apache-2.0
// Load comparison: the first way two loads of one text differ, for holding
// the simple reader (LoadOptions::simple_reader) to libfyaml's results. The
// tests (simple_yaml_test.cc) and the facts fuzzer compare with this one
// definition of "the same load".
//
// Two loads are the same when they have the same documents (kind, place,
// root), the same diagnostics (severity, place, message, code, help, length,
// related places, fixes) in the same order, and the same alias uses and
// merges. Two Values are the same when they have the same kind, the same
// scalar (bit for bit: a double's sign and NaN, a date's written offset),
// the same plain mark (Value::plain), the same place (file, line, column),
// and, for collections, the same keys in the same order and the same items.
// Which reader read a load (LoadResult::reader) is not compared; a load the
// simple reader read must have no aliases or merges, whatever the other has.
//
//   facts::LoadOptions by_libfyaml;
//   by_libfyaml.simple_reader = false;
//   std::optional<std::string> why = facts::FirstDifference(
//       facts::LoadYaml(sources, file, by_libfyaml), facts::LoadYaml(sources, file, {}));
//   // e.g. "documents[0].root.demands[3].window.start: loc 12:14 vs 12:15"
#pragma once

#include <optional>
#include <string>

#include "engine/common/diagnostic.h"
#include "engine/common/value.h"
#include "engine/facts/loader.h"

namespace capops::facts {

/// Where and how `b` first differs from `a` (a path from the values given,
/// `demands[3].window.start`, then what differs, `a`'s side first), or
/// nullopt when they are the same. Walks without recursion.
std::optional<std::string> FirstDifference(const Value& a, const Value& b);

/// The first difference of two diagnostic lists (`diagnostics[2].help: …`).
std::optional<std::string> FirstDifference(const Diagnostics& a, const Diagnostics& b);

/// The first difference of two loads (`documents[0].root.pools[1]: …`,
/// `diagnostics[0].loc: …`, `aliases: …`), or nullopt.
std::optional<std::string> FirstDifference(const LoadResult& a, const LoadResult& b);

/// The same for two raw loads (`documents[1].owner: …`).
std::optional<std::string> FirstDifference(const RawLoadResult& a, const RawLoadResult& b);

}  // namespace capops::facts
