// SPDX-License-Identifier: Apache-2.0
// YAML emission of the corpus model (corpus_model.h), and writing a corpus
// to a directory (WriteCorpus, corpus.h). Lists of small records are written
// one flow map per line, as people write allocations and pools; demands and
// the decision in block style. Free text is always quoted; ids, numbers,
// dates, durations and quantities are plain, so the loader types them.
#include <cstdio>
#include <fstream>

#include "benchmarks/corpus.h"
#include "benchmarks/corpus_model.h"

namespace capops::bench {

namespace {

/// The fields of one map, in order; empty values are left out.
class Fields {
 public:
  Fields& Add(const char* key, const std::string& value) {
    if (!value.empty()) items_.emplace_back(key, value);
    return *this;
  }
  Fields& Quoted(const char* key, const std::string& text) {
    return text.empty() ? *this : Add(key, "\"" + text + "\"");
  }
  Fields& Int(const char* key, int value) { return Add(key, std::to_string(value)); }
  /// A count that is absent when negative.
  Fields& Count(const char* key, int value) { return value < 0 ? *this : Int(key, value); }
  Fields& Flag(const char* key, bool value) { return value ? Add(key, "true") : *this; }
  Fields& Date(const char* key, int day) { return day < 0 ? *this : Add(key, DateText(day)); }

  std::string Flow() const {
    std::string out = "{";
    for (size_t i = 0; i < items_.size(); ++i) {
      if (i > 0) out += ", ";
      out += items_[i].first + ": " + items_[i].second;
    }
    return out + "}";
  }
  /// As an item of a block list, its keys indented by `indent` spaces.
  std::string Block(int indent) const {
    std::string out;
    std::string pad(indent, ' ');
    for (size_t i = 0; i < items_.size(); ++i) {
      out +=
          (i == 0 ? pad.substr(2) + "- " : pad) + items_[i].first + ": " + items_[i].second + "\n";
    }
    return out;
  }

 private:
  std::vector<std::pair<std::string, std::string>> items_;
};

/// One item of a block list, written as a flow map on its own line.
std::string Item(const Fields& f) {
  return "  - " + f.Flow() + "\n";
}

std::string List(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i > 0 ? ", " : "") + items[i];
  return out + "]";
}

std::string WindowText(const std::optional<Window>& w) {
  if (!w) return "";
  Fields f;
  if (w->minute >= 0) {
    char time[16];
    std::snprintf(time, sizeof time, "T%02d:%02dZ", w->minute / 60, w->minute % 60);
    f.Add("start", DateText(w->start) + time);
  } else {
    f.Date("start", w->start);
  }
  return f.Date("end", w->end).Add("duration", w->duration).Flow();
}

std::string ApprovalText(const std::optional<Approval>& a) {
  if (!a) return "";
  return Fields()
      .Add("by", a->by)
      .Add("role", a->role)
      .Date("date", a->date)
      .Add("reference", a->reference)
      .Flow();
}

std::string SupplyLine(const Inventory& inv, const Supply& s) {
  Fields f;
  f.Add("id", s.id).Add("kind", s.kind).Add("accelerator", inv.types[s.accel].id);
  if (s.region >= 0) f.Add("region", kRegions[s.region]);
  f.Int("gpus", s.gpus).Add("window", WindowText(s.window)).Add("quota_status", s.quota_status);
  if (s.confirmation) {
    const Confirmation& c = *s.confirmation;
    f.Add("confirmation", Fields().Add("by", c.by).Date("date", c.date).Add("site", c.site).Flow());
  }
  f.Add("term", s.term).Add("term_acceptance", ApprovalText(s.term_acceptance));
  if (s.service >= 0) f.Add("service", inv.services[s.service].id);
  return Item(f);
}

const char* RoleText(PoolRole role) {
  static const char* kNames[] = {"research", "shared", "production", "production-replacement"};
  return kNames[static_cast<int>(role)];
}

const char* SliceText(Slice slice) {
  static const char* kNames[] = {"exploration", "training", "tuning", "inference", "aggregate"};
  return kNames[static_cast<int>(slice)];
}

std::string GroupText(const std::optional<GroupSize>& g) {
  return g ? Fields().Int("gpus", g->gpus).Count("hosts", g->hosts).Flow() : "";
}

std::string DatasetText(const std::optional<Dataset>& d) {
  if (!d) return "";
  std::vector<std::string> approved;
  for (int r : d->approved_regions) approved.push_back(kRegions[r]);
  return Fields()
      .Add("region", kRegions[d->region])
      .Add("size", d->size)
      .Add("permissions", d->permissions)
      .Add("approved_regions", approved.empty() ? "" : List(approved))
      .Add("transfer_bandwidth", d->transfer_bandwidth)
      .Add("measured_read", d->measured_read)
      .Flow();
}

std::string ReadinessText(const std::optional<Readiness>& r) {
  if (!r) return "";
  static const char* kItems[] = {"dataset", "image", "software", "network_path",
                                 "storage_throughput"};
  Fields f;
  for (size_t i = 0; i < r->items.size(); ++i) f.Add(kItems[i], r->items[i]);
  return f.Date("ready_by", r->ready_by).Flow();
}

std::string DemandBlock(const Inventory& inv, const Demand& d) {
  Fields f;
  f.Add("id", d.id).Add("slice", SliceText(d.slice)).Count("gpus", d.gpus);
  if (d.accel >= 0) f.Add("accelerator", inv.types[d.accel].id);
  if (d.service >= 0) f.Add("service", inv.services[d.service].id);
  f.Count("hosts", d.hosts)
      .Count("gpus_per_host", d.gpus_per_host)
      .Flag("concurrent", d.concurrent);
  f.Add("schedule", d.schedule).Flag("interruptible", d.interruptible).Add("max_hold", d.max_hold);
  f.Add("window", WindowText(d.window));
  f.Add("minimum_viable", GroupText(d.minimum_viable)).Add("preferred", GroupText(d.preferred));
  f.Date("business_window_end", d.business_window_end);
  if (d.requirements) {
    const Requirements& r = *d.requirements;
    f.Add("requires", Fields()
                          .Add("memory", r.memory)
                          .Add("interconnect", r.interconnect)
                          .Add("interconnect_bandwidth", r.interconnect_bandwidth)
                          .Add("fabric_bandwidth", r.fabric_bandwidth)
                          .Add("host_memory", r.host_memory)
                          .Add("storage_read", r.storage_read)
                          .Flow());
  }
  f.Add("image", d.image)
      .Add("dataset", DatasetText(d.dataset))
      .Add("readiness", ReadinessText(d.readiness));
  if (d.checkpoint) {
    f.Add("checkpoint", Fields()
                            .Add("restore_tested", d.checkpoint->restore_tested ? "true" : "false")
                            .Add("stoppable", d.checkpoint->stoppable ? "true" : "false")
                            .Flow());
  }
  f.Add("based_on", d.based_on).Count("max_parallel_trials", d.max_parallel_trials);
  f.Count("gpus_per_trial", d.gpus_per_trial).Add("model_version", d.model_version);
  f.Flag("continuous", d.continuous)
      .Count("floor", d.floor)
      .Add("scale_out_of", d.scale_out_of)
      .Count("tested_envelope", d.tested_envelope)
      .Quoted("release_condition", d.release_condition);
  f.Add("model_life", d.model_life).Add("utilization_target", d.utilization_target);
  f.Add("max_cost_per_1000_units", d.max_cost);
  f.Quoted("quality_gate", d.quality_gate).Add("quality_gate_result", d.quality_gate_result);
  return f.Block(4);
}

std::string AllocationLine(const Inventory& inv, const Allocation& a) {
  Fields f;
  f.Add("id", a.id).Add("demand", a.demand).Add("pool", inv.pools[a.pool].id).Int("gpus", a.gpus);
  if (!a.evidence.empty()) f.Add("evidence", List(a.evidence));
  f.Add("window", WindowText(a.window)).Flag("interruptible", a.interruptible);
  f.Add("alternative_to", a.alternative_to).Count("queue_position", a.queue_position);
  f.Add("max_hold", a.max_hold).Quoted("release_condition", a.release_condition);
  f.Add("approval", ApprovalText(a.approval));
  return Item(f);
}

std::string DecisionBlock(const Decision& d) {
  std::string out = "decision:\n";
  auto line = [&](const char* key, const std::string& value) {
    if (!value.empty()) out += std::string("  ") + key + ": " + value + "\n";
  };
  line("decision", "\"" + d.decision + "\"");
  line("owner", d.owner);
  line("readiness_owner", d.readiness_owner);
  line("headroom_owner", d.headroom_owner);
  line("deadline", d.deadline < 0 ? "" : DateText(d.deadline));
  line("evidence", List(d.evidence));
  line("trade_off", d.trade_off.empty() ? "" : "\"" + d.trade_off + "\"");
  line("residual_risk", "\"" + d.residual_risk + "\"");
  line("revisit", List(d.revisit));
  line("release_condition", "\"" + d.release_condition + "\"");
  return out;
}

}  // namespace

std::string InventoryYaml(const Inventory& inv) {
  std::string out =
      "# A synthetic inventory written by benchmarks/gen_corpus.\n"
      "apiVersion: capops.dev/v1\nkind: Inventory\naccelerator_types:\n";
  for (const AcceleratorType& t : inv.types) {
    Fields f;
    f.Add("id", t.id)
        .Add("model", t.model)
        .Add("memory", t.memory)
        .Add("interconnect", t.interconnect)
        .Add("interconnect_bandwidth", t.interconnect_bandwidth);
    out += Item(f.Add("expected_life", t.expected_life));
  }
  out += "managed_services:\n";
  for (const ManagedService& s : inv.services) {
    Fields f;
    f.Add("id", s.id).Add("provider", s.provider);
    out += Item(f.Quoted("capacity_documentation", s.capacity_documentation));
  }
  out += "pools:\n";
  for (const Pool& p : inv.pools) {
    Fields f;
    f.Add("id", p.id).Add("accelerator", inv.types[p.accel].id).Int("hosts", p.hosts);
    f.Int("gpus_per_host", p.gpus_per_host)
        .Add("region", kRegions[p.region])
        .Add("role", RoleText(p.role));
    f.Add("host_memory", p.host_memory)
        .Add("cost_per_gpu_hour", p.cost_per_gpu_hour)
        .Add("fabric_bandwidth", p.fabric_bandwidth);
    f.Add("service_owner", p.service_owner);
    if (p.service >= 0) f.Add("service", inv.services[p.service].id);
    f.Add("failure_domain", p.failure_domain).Date("failover_tested", p.failover_tested);
    if (!p.evidence.empty()) f.Add("evidence", List(p.evidence));
    out += Item(f);
  }
  out += "supply:\n";
  for (const Supply& s : inv.supply) out += SupplyLine(inv, s);
  return out;
}

std::string PlanYaml(const Inventory& inv, const Plan& plan) {
  std::string out =
      "# A synthetic capacity plan written by benchmarks/gen_corpus.\n"
      "apiVersion: capops.dev/v1\nkind: CapacityPlan\n";
  out += "metadata: " +
         Fields()
             .Add("name", plan.name)
             .Add("owner", plan.owner)
             .Add("period", WindowText(plan.period))
             .Flow() +
         "\n";
  out += plan.demands.empty() ? "demands: []\n" : "demands:\n";
  for (const Demand& d : plan.demands) out += DemandBlock(inv, d);
  out += plan.allocations.empty() ? "allocations: []\n" : "allocations:\n";
  for (const Allocation& a : plan.allocations) out += AllocationLine(inv, a);
  out += "substitutes:\n";
  for (const Substitute& s : plan.substitutes) {
    Fields validation;
    for (const auto& [check, status] : s.validation) validation.Add(check.c_str(), status);
    Fields f;
    f.Add("replaces", inv.types[s.replaces].id).Add("candidate", inv.types[s.candidate].id);
    if (s.service >= 0) f.Add("service", inv.services[s.service].id);
    out += f.Add("validation", validation.Flow()).Block(4);
  }
  out += plan.benchmarks.empty() ? "benchmarks: []\n" : "benchmarks:\n";
  for (const Benchmark& b : plan.benchmarks) {
    Fields f;
    f.Add("id", b.id).Add("demand", b.demand).Add("accelerator", inv.types[b.accel].id);
    f.Add("model_version", b.model_version).Add("data_version", b.data_version).Int("gpus", b.gpus);
    f.Add("useful_work_per_hour", b.useful_work_per_hour)
        .Add("memory_pressure", b.memory_pressure)
        .Add("input_stall", b.input_stall);
    out += Item(f.Add("p99_latency_ms", b.p99_latency_ms).Add("latency_slo_ms", b.latency_slo_ms));
  }
  return out + DecisionBlock(plan.decision);
}

std::vector<std::string> PlanFileNames(size_t plans) {
  if (plans <= 1) return {"plan.yaml"};
  std::vector<std::string> names;
  for (size_t i = 0; i < plans; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "plan-%03zu.yaml", i);
    names.emplace_back(buf);
  }
  return names;
}

bool WriteCorpus(const Corpus& corpus, const std::filesystem::path& dir, std::string* error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    *error = "cannot create `" + dir.string() + "`: " + ec.message();
    return false;
  }
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) *error = "cannot write `" + (dir / name).string() + "`";
    return static_cast<bool>(out);
  };
  // A directory holds one corpus: plan files of an earlier, larger split go.
  for (const std::filesystem::directory_entry& e : std::filesystem::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    bool numbered = name.size() == 13 && name.rfind("plan-", 0) == 0 && name.ends_with(".yaml");
    if (name == "plan.yaml" || numbered) std::filesystem::remove(e.path(), ec);
  }
  if (!write("inventory.yaml", corpus.inventory)) return false;
  std::vector<std::string> names = PlanFileNames(corpus.plans.size());
  for (size_t i = 0; i < corpus.plans.size(); ++i) {
    if (!write(names[i], corpus.plans[i])) return false;
  }
  return true;
}

}  // namespace capops::bench
