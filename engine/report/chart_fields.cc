// SPDX-License-Identifier: Apache-2.0
// CheckChartView: the charts' view of the fact schema held against a
// compiled schema (see chart_fields.h).
#include "engine/report/chart_fields.h"

namespace capops::report {

std::vector<std::string> CheckChartView(const TypeTable& schema,
                                        std::span<const SchemaField> fields,
                                        std::span<const SchemaMember> members) {
  std::vector<std::string> problems;
  for (const SchemaField& f : fields) {
    std::string place = std::string(f.record) + "." + std::string(f.name);
    auto record = schema.record_by_name.find(f.record);
    if (record == schema.record_by_name.end()) {
      problems.push_back(place + ": no record `" + std::string(f.record) + "` in the schema");
      continue;
    }
    const FieldDef* field = schema.records[record->second].Find(f.name);
    if (field == nullptr) {
      problems.push_back(place + ": no such field in the schema");
    } else if (std::string type = schema.Name(field->type); type != f.type) {
      problems.push_back(place + ": of type `" + type + "` in the schema, not `" +
                         std::string(f.type) + "`");
    }
  }
  for (const SchemaMember& m : members) {
    std::string place = std::string(m.enum_name) + "." + std::string(m.spelling);
    auto e = schema.enum_by_name.find(m.enum_name);
    if (e == schema.enum_by_name.end()) {
      problems.push_back(place + ": no enum `" + std::string(m.enum_name) + "` in the schema");
    } else if (schema.enums[e->second].FindFact(m.spelling) < 0) {
      problems.push_back(place + ": no such member in the schema");
    }
  }
  return problems;
}

}  // namespace capops::report
