// SPDX-License-Identifier: Apache-2.0
// The fact schema as a JSON Schema (draft 2020-12), for the editors and
// validators planners already use: the YAML language server's completion
// and hover (`yaml.schemas`, or a `# yaml-language-server: $schema=`
// modeline), ajv in CI.
//
//   std::string text = report::FactJsonSchema(engine);  // one document
//
// Generated from the rule set's `document` and `record` declarations
// (stdlib/schema.cpl and any pack's own): each record an object that allows
// no other key, each field with its doc comment as `description`; required
// fields listed; defaults given; an optional or defaulted field may be
// `null` (the loader reads that as absent); enums as their YAML spellings
// (`production-replacement`, also written `production_replacement`), and
// a map keyed by an enum allows one spelling of each member; dates,
// durations, sizes and rates as strings with the loader's patterns (a
// calendar day, a time of day, a size of whole bytes in a decimal unit)
// and examples; a `ref` as a string naming the record it refers to. A
// file's documents are told apart by `kind`.
//
// Not expressible here, so left to capops-lint (README, "what the JSON
// Schema cannot check"; tests/schema/ holds a case of each): ids unique in
// their list, references that name an existing record, values past 64
// bits, a size in a binary unit finer than a byte (`0.1KiB`), comparisons
// between fields (a window whose `end` and `duration` disagree), a quoted
// date, duration or size, `.nan` or `.inf` where text is expected, and
// enum members of more than four words written with `-` and `_` mixed.
#pragma once

#include <string>

#include "engine/api/engine.h"

namespace capops::report {

/// The JSON Schema of a compiled rule set's fact documents, as JSON text.
std::string FactJsonSchema(const Engine& engine);

/// What a value of `type` looks like in YAML, for people: "a size with its
/// unit: `80GiB`, `1.5TB`, `512MB`"; "" for plain types.
std::string ValueShape(const TypeTable& schema, TypeId type);

/// The same for a field, with its range: "a number from 0.0 to 1.0", "an
/// integer of at least 1"; ValueShape of its type when it has none.
std::string FieldShape(const TypeTable& schema, const FieldDef& field);

}  // namespace capops::report
