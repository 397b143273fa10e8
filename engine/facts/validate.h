// SPDX-License-Identifier: Apache-2.0
// Schema validation of fact documents: YAML values checked against CPL types.
//
// The loader keeps the text of plain scalars (Value::PlainText); this is
// where a fact document meets the schema (the `record`, `enum` and
// `document` declarations of stdlib/, built into a TypeTable by the
// checker). ValidateDocument checks one document against the document
// record its `kind` names and returns its root normalized: plain scalars
// typed by the type expected, defaults filled in, ints widened where a
// double is expected (and whole doubles made ints where an int is), lists
// re-keyed by id. CheckReferences then checks, across a plan and its merged
// inventory, that every `ref T` value names an existing T.
//
// Every problem is a Diagnostic of severity error and code "schema", located
// at the offending value (a missing field at the map that lacks it, an
// unknown key at the key when ValidateOptions::key_at can find it), and all
// of them are reported, up to ValidateOptions::max_diagnostics.
//
//   Diagnostics diags;
//   for (facts::Document& d : loaded.documents) {
//     d.root = facts::ValidateDocument(schema, d, &diags);
//   }
//   Value inventory = facts::MergeDocuments(inventory_docs, &diags);
//   facts::CheckReferences(schema, {{schema.Document("CapacityPlan"), plan.root},
//                                   {schema.Document("Inventory"), inventory}}, &diags);
//
// Both functions are linear in the size of the facts (keyed lookups by id,
// hash sets for repeats) and recurse at most ValidateOptions::max_depth deep.
// They only read `schema` and may run on several threads at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/common/diagnostic.h"
#include "engine/common/schema.h"
#include "engine/common/value.h"
#include "engine/facts/loader.h"
#include "engine/facts/locate.h"

namespace capops::facts {

struct ValidateOptions {
  /// Problems reported per call; past it, one "N more problems not shown".
  size_t max_diagnostics = 200;
  /// Dangling references that get a did-you-mean; later ones are reported without.
  size_t max_suggestions = 50;
  /// Ids considered for one did-you-mean or listed as known ids.
  size_t max_candidates = 1000;
  /// Nesting followed before giving up; the loader's own limit is lower.
  size_t max_depth = 500;
  /// Where the key is of the map entry whose value starts at `value_loc`,
  /// or an invalid SourceLoc when that is not known. A Value keeps no
  /// location for its map keys (keys live in shared layouts, see
  /// engine/common/value.h), so a diagnostic about a key (an unknown field,
  /// an unknown or repeated enum key, a `<<` merge key) asks here and falls
  /// back to the value's place. Called on the error path only, from the
  /// thread that validates; empty: always the value's place. KeyLocator
  /// (locate.h) makes one for a file.
  std::function<SourceLoc(SourceLoc value_loc)> key_at;
};

/// Validates `doc` against the document record named by its kind
/// (TypeTable::Document). Returns the document's root normalized:
///   - a field that is absent, or explicitly `null`, and has a default gets
///     the default, located at the map that lacks it; an optional one stays absent;
///   - a plain scalar (Value::PlainText) is typed for the type expected
///     there: `string`, `ref` and enum fields get its text exactly as
///     written (`007`, `1.10`, `90m`), other scalar types the value it
///     denotes (TypePlainScalar: `007` is 7 where an int is), and where no
///     one type is (`any`) it is typed by its text alone; no PlainText is
///     left anywhere in the result, whatever errors were found;
///   - a quoted literal where its type is expected (`"2027-04-12"` where a
///     date is) is an error whose help says to remove the quotes;
///   - `int` fields hold ints: a number with no fraction is one (`4.0` is
///     4, as JSON and JSON Schema's `integer` read it), `4.5` is an error;
///   - `double` fields hold doubles (an int is widened); `string` and `ref`
///     fields hold strings (a typed scalar of the tool's own files becomes
///     the text Value::ToString gives it);
///   - a list whose items changed is rebuilt, so that it is keyed again when
///     its records' ids are distinct;
///   - `apiVersion` and `kind` are kept as they are (the loader checked them).
/// Every value keeps its location; subtrees that need no change are shared
/// with `doc.root`, not copied. A value that fails its type is kept as
/// read and an unknown field is dropped, so the result of an invalid
/// document is a best effort: callers should not evaluate rules on it as if
/// it were valid. When the schema has no document record for the kind, that
/// is reported and `doc.root` returned unchanged. `diags` must not be null.
///
/// An unknown key of the document that reads as a misspelt list of records
/// (`poolz:` for `pools: list<Pool>`) says so in its help, and the record's
/// index goes to `*unlisted` when given: the ids that list held are unknown,
/// so CheckReferences should not report every reference to them (see
/// ValidatedRoot::unlisted).
Value ValidateDocument(const TypeTable& schema, const Document& doc, Diagnostics* diags,
                       const ValidateOptions& options = {},
                       std::vector<uint32_t>* unlisted = nullptr);
/// The same, consuming `doc`: the maps and lists of its tree that nothing
/// else holds are taken apart as the result is built, so a large document
/// is not held twice (peak memory of a lint run).
Value ValidateDocument(const TypeTable& schema, Document&& doc, Diagnostics* diags,
                       const ValidateOptions& options = {},
                       std::vector<uint32_t>* unlisted = nullptr);

/// Validates one value (a param value from a config file, say) against a
/// type, with the rules of ValidateDocument; returns it normalized.
Value ValidateValue(const TypeTable& schema, TypeId type, const Value& value, Diagnostics* diags,
                    const ValidateOptions& options = {});

/// A loaded tree with every plain scalar typed by its text alone
/// (TypePlainScalar), as ValidateDocument types the values of `any`: for
/// documents linted without a schema. Numbers out of range and impossible
/// dates are reported and kept as strings. No PlainText is left.
Value TypeByText(Value root, Diagnostics* diags, const ValidateOptions& options = {});

/// A document root that ValidateDocument (and MergeDocuments) produced.
struct ValidatedRoot {
  const RecordDef* record = nullptr;  // its document record, in the same TypeTable
  Value value;
  /// Records (indexes into TypeTable::records) whose list this root may lack
  /// because its key was misspelt (ValidateDocument's `unlisted`); that
  /// error is already reported, with a note that these references wait.
  std::vector<uint32_t> unlisted;
};

/// Checks that every value of a `ref T` field under `roots` (followed by the
/// schema: nested records, lists, maps, optional fields) is the id of a T
/// held in a list<T> field of one of the roots' document records; when
/// several fields hold T, the id may be in any of them. A dangling reference
/// is reported at the referring value ("no `Pool` with id `serve-eu-spar`")
/// with a did-you-mean over the known ids; a ref type that no root can
/// resolve at all is reported once, at its first use. Values that are not
/// strings (already reported by ValidateDocument) are skipped, and so are
/// roots without a record, and references to a record some root lists as
/// `unlisted`: one misspelt `pools:` key is one error, not one per
/// allocation. `diags` must not be null.
void CheckReferences(const TypeTable& schema, const std::vector<ValidatedRoot>& roots,
                     Diagnostics* diags, const ValidateOptions& options = {});

}  // namespace capops::facts
