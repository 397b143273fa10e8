// SPDX-License-Identifier: Apache-2.0
// The declarations a rule set's schema was made from, for what shows the
// schema to people (`doc`, the JSON Schema, `init`'s comments, the editor's
// hovers): each record's syntax::RecordDecl beside its RecordDef, in the
// order the modules declare them, and its field declarations by name.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/check/checker.h"

namespace capops::check {

class SchemaDecls {
 public:
  /// A record as declared and as the schema holds it.
  struct Declared {
    const syntax::RecordDecl* decl;
    const RecordDef* def;
  };

  /// `program` must outlive this.
  explicit SchemaDecls(const Program& program);

  /// Every declared record of the schema, in declaration order.
  const std::vector<Declared>& records() const { return records_; }
  /// The declaration of record `name`, or nullptr.
  const syntax::RecordDecl* Find(std::string_view name) const;
  /// The declaration of `record`'s field `field`, or nullptr.
  const syntax::FieldDecl* FindField(std::string_view record, std::string_view field) const;
  /// That field's doc comment, or "".
  const std::string& FieldDoc(std::string_view record, std::string_view field) const;

 private:
  std::vector<Declared> records_;
  std::map<std::string, size_t, std::less<>> by_name_;  // into records_
};

}  // namespace capops::check
