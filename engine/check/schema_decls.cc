// SPDX-License-Identifier: Apache-2.0
#include "engine/check/schema_decls.h"

namespace capops::check {

SchemaDecls::SchemaDecls(const Program& program) {
  for (const auto& module : program.modules) {
    for (const syntax::RecordDecl& decl : module->records) {
      auto it = program.schema.record_by_name.find(decl.name);
      if (it == program.schema.record_by_name.end()) continue;
      if (by_name_.emplace(decl.name, records_.size()).second) {
        records_.push_back({&decl, &program.schema.records[it->second]});
      }
    }
  }
}

const syntax::RecordDecl* SchemaDecls::Find(std::string_view name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : records_[it->second].decl;
}

const syntax::FieldDecl* SchemaDecls::FindField(std::string_view record,
                                                std::string_view field) const {
  const syntax::RecordDecl* decl = Find(record);
  if (decl == nullptr) return nullptr;
  for (const syntax::FieldDecl& f : decl->fields) {
    if (f.name == field) return &f;
  }
  return nullptr;
}

const std::string& SchemaDecls::FieldDoc(std::string_view record, std::string_view field) const {
  static const std::string kNone;
  const syntax::FieldDecl* f = FindField(record, field);
  return f == nullptr ? kNone : f->doc;
}

}  // namespace capops::check
