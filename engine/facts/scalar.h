// SPDX-License-Identifier: Apache-2.0
// Typing of plain YAML scalars: the text `8h` becomes a duration, `80GiB` a quantity.
//
// Follows the YAML 1.2 core schema for null, booleans and numbers (so `yes`,
// `no`, `on` and `off` stay strings), then tries the engine's own literals:
// dates, durations and quantities. Only plain (unquoted, untagged) scalars are
// typed this way; the loader keeps quoted scalars as strings. Fact files keep
// a plain scalar's text (Value::PlainText) until validation knows what the
// schema expects there: only where it expects no one type is the text typed
// by its shape alone.
//
//   std::string error;
//   Value v = facts::TypePlainScalar("80GiB", &error);   // quantity 85899345920B
//   Value w = facts::TypePlainScalar("1e400", &error);   // string; error set
#pragma once

#include <string>
#include <string_view>

#include "engine/common/value.h"

namespace capops::facts {

/// The value a plain scalar's text denotes, without a location:
///   `null` `Null` `NULL` `~` and the empty text → null;
///   `true` `True` `TRUE` `false` `False` `FALSE` → bool;
///   `[-+]?[0-9]+`, `0x[0-9a-fA-F]+`, `0o[0-7]+` → int;
///   `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, `.inf`, `-.inf`, `.nan` → double;
///   `YYYY-MM-DD` and `YYYY-MM-DDTHH:MM[:SS](Z|±HH:MM)` → date (ParseDateTime);
///   ParseDuration → duration; ParseQuantity → quantity; anything else → string.
/// Text shaped like an int, a double or a date (LooksLikeDate) that is not a
/// valid one (out of range, `2027-02-30`, a time without its UTC offset)
/// sets `*error` to a message and comes back as a string,
/// so that later stages still see the text the user wrote. `*error` is left
/// alone otherwise; `error` must not be null.
Value TypePlainScalar(std::string_view text, std::string* error);

/// True for the texts TypePlainScalar makes null: `null` `Null` `NULL` `~` and "".
bool IsNullText(std::string_view text);

/// The value of a scalar the loader read, without a location. A quoted or
/// block scalar (`plain` false) is its text, a string. A plain one is, with
/// `keep_text` (fact documents), null if IsNullText and else a PlainText of
/// its text, with no typing and so no error; without it (the tool's own
/// files, read without a schema), TypePlainScalar(text, error).
Value ScalarValue(std::string_view text, bool plain, bool keep_text, std::string* error);

}  // namespace capops::facts
