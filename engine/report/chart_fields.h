// SPDX-License-Identifier: Apache-2.0
// The part of the fact schema (stdlib/schema.cpl) that the capacity charts
// read (capacity_chart.cc): every field, with the record that declares it and
// its type, and every enum member the charts compare with, named in one table
// each. CheckChartView holds the tables against a compiled schema, and a test
// does so against the shipped one: a field renamed, removed or retyped there
// fails that test instead of leaving the charts silently empty. Internal to
// engine/report.
//
//   const Value* pools = inventory.Field(FieldName(ChartField::kInventoryPools));
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/common/schema.h"

namespace capops::report {

/// A field the charts read.
enum class ChartField : uint8_t {
  kInventoryPools,
  kInventorySupply,
  kPoolRole,
  kPoolAccelerator,
  kPoolRegion,
  kPoolHosts,
  kPoolGpusPerHost,
  kSupplyKind,
  kSupplyAccelerator,
  kSupplyRegion,
  kSupplyGpus,
  kSupplyWindow,
  kPlanDemands,
  kPlanAllocations,
  kDemandSlice,
  kDemandWindow,
  kDemandHosts,
  kDemandGpusPerHost,
  kDemandMinimumViable,
  kDemandPreferred,
  kDemandBusinessWindowEnd,
  kDemandFloor,
  kGroupSizeGpus,
  kAllocationDemand,
  kAllocationPool,
  kAllocationGpus,
  kAllocationWindow,
  kAllocationAlternativeTo,
  kAllocationEvidence,
  kCount,
};

/// An enum member the charts compare a field's text with.
enum class ChartMember : uint8_t {
  kSliceTraining,
  kSliceInference,
  kRoleProduction,
  kCount,
};

/// A field as the schema declares it.
struct SchemaField {
  ChartField field;
  std::string_view record;  // the record or document declaring it
  std::string_view name;    // as facts write it
  std::string_view type;    // as TypeTable::Name writes it
};

/// An enum member as facts write it.
struct SchemaMember {
  ChartMember member;
  std::string_view enum_name;
  std::string_view spelling;
};

// clang-format off
inline constexpr SchemaField kChartFields[] = {
    {ChartField::kInventoryPools,           "Inventory",    "pools",               "list<Pool>"},
    {ChartField::kInventorySupply,          "Inventory",    "supply",              "list<Supply>"},
    {ChartField::kPoolRole,                 "Pool",         "role",                "PoolRole"},
    {ChartField::kPoolAccelerator,          "Pool",         "accelerator",         "ref AcceleratorType"},
    {ChartField::kPoolRegion,               "Pool",         "region",              "string"},
    {ChartField::kPoolHosts,                "Pool",         "hosts",               "int"},
    {ChartField::kPoolGpusPerHost,          "Pool",         "gpus_per_host",       "int"},
    {ChartField::kSupplyKind,               "Supply",       "kind",                "SupplyKind"},
    {ChartField::kSupplyAccelerator,        "Supply",       "accelerator",         "ref AcceleratorType"},
    {ChartField::kSupplyRegion,             "Supply",       "region",              "string"},
    {ChartField::kSupplyGpus,               "Supply",       "gpus",                "int"},
    {ChartField::kSupplyWindow,             "Supply",       "window",              "Window"},
    {ChartField::kPlanDemands,              "CapacityPlan", "demands",             "list<Demand>"},
    {ChartField::kPlanAllocations,          "CapacityPlan", "allocations",         "list<Allocation>"},
    {ChartField::kDemandSlice,              "Demand",       "slice",               "Slice"},
    {ChartField::kDemandWindow,             "Demand",       "window",              "Window"},
    {ChartField::kDemandHosts,              "Demand",       "hosts",               "int"},
    {ChartField::kDemandGpusPerHost,        "Demand",       "gpus_per_host",       "int"},
    {ChartField::kDemandMinimumViable,      "Demand",       "minimum_viable",      "GroupSize"},
    {ChartField::kDemandPreferred,          "Demand",       "preferred",           "GroupSize"},
    {ChartField::kDemandBusinessWindowEnd,  "Demand",       "business_window_end", "date"},
    {ChartField::kDemandFloor,              "Demand",       "floor",               "int"},
    {ChartField::kGroupSizeGpus,            "GroupSize",    "gpus",                "int"},
    {ChartField::kAllocationDemand,         "Allocation",   "demand",              "ref Demand"},
    {ChartField::kAllocationPool,           "Allocation",   "pool",                "ref Pool"},
    {ChartField::kAllocationGpus,           "Allocation",   "gpus",                "int"},
    {ChartField::kAllocationWindow,         "Allocation",   "window",              "Window"},
    {ChartField::kAllocationAlternativeTo,  "Allocation",   "alternative_to",      "ref Allocation"},
    {ChartField::kAllocationEvidence,       "Allocation",   "evidence",            "list<ref Supply>"},
};

inline constexpr SchemaMember kChartMembers[] = {
    {ChartMember::kSliceTraining,  "Slice",    "training"},
    {ChartMember::kSliceInference, "Slice",    "inference"},
    {ChartMember::kRoleProduction, "PoolRole", "production"},
};
// clang-format on

// Each table lists its enum in order, all of it: the enum indexes the table.
template <typename Entry, size_t N, typename Enum>
constexpr bool ListsInOrder(const Entry (&table)[N], Enum Entry::*key) {
  if (N != static_cast<size_t>(Enum::kCount)) return false;
  for (size_t i = 0; i < N; ++i) {
    if (static_cast<size_t>(table[i].*key) != i) return false;
  }
  return true;
}
static_assert(ListsInOrder(kChartFields, &SchemaField::field));
static_assert(ListsInOrder(kChartMembers, &SchemaMember::member));

/// The name of a field the charts read, as facts write it.
constexpr std::string_view FieldName(ChartField field) {
  return kChartFields[static_cast<size_t>(field)].name;
}

/// The spelling of an enum member the charts compare with.
constexpr std::string_view MemberSpelling(ChartMember member) {
  return kChartMembers[static_cast<size_t>(member)].spelling;
}

/// What of `fields` and `members` `schema` does not declare as they say,
/// one line each ("Pool.hosts: no such field in the schema"); empty when
/// the schema has them all.
std::vector<std::string> CheckChartView(const TypeTable& schema,
                                        std::span<const SchemaField> fields = kChartFields,
                                        std::span<const SchemaMember> members = kChartMembers);

}  // namespace capops::report
