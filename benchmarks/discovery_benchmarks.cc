// SPDX-License-Identifier: Apache-2.0
// Telling a plan from foreign YAML under a plan directory
// (workspace::ClassifyFile, which reads the documents' heads) beside what
// that took before, a full load of the file (facts::LoadRawYaml), over an
// 8 MB one-line flow map of 500,000 keys and no `kind`, a dump of 1,500
// Kubernetes Deployments and the scenario's plan. Entry point:
// RegisterDiscoveryBenchmarks. Memory is what matters most here and Google
// Benchmark does not measure it: README.md has the peak RSS of capops-lint
// over the same files.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>

#include "benchmarks/bench_corpora.h"
#include "benchmarks/bench_registry.h"
#include "engine/facts/loader.h"
#include "engine/workspace/plan_set.h"

namespace capops::bench {

namespace {

std::string FlowMap() {
  std::string out = "{";
  char entry[32];
  for (int i = 0; i < 500000; ++i) {
    std::snprintf(entry, sizeof entry, "%sk%06d: %05d", i == 0 ? "" : ", ", i, i % 100000);
    out += entry;
  }
  return out + "}\n";
}

// A Deployment as `kubectl get -o yaml` writes one, less its status.
std::string KubernetesDump() {
  std::string out;
  for (int i = 0; i < 1500; ++i) {
    std::string n = std::to_string(i), team = std::to_string(i % 17), rev = std::to_string(i % 9);
    if (i > 0) out += "---\n";
    out += "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-" + n +
           "\n  namespace: team-" + team + "\n  labels: {app: app-" + n +
           ", tier: backend}\n  annotations:\n    deployment.kubernetes.io/revision: \"" + rev +
           "\"\nspec:\n  replicas: 3\n  selector:\n    matchLabels: {app: app-" + n +
           "}\n  template:\n    metadata:\n      labels: {app: app-" + n +
           "}\n    spec:\n      containers:\n        - name: app\n          image: "
           "registry.example.com/team-" +
           team + "/app:1." + rev +
           ".0\n          args: [\"--port=8080\"]\n          ports:\n            - "
           "{containerPort: 8080, name: http}\n          env:\n            - {name: MODE, "
           "value: production}\n          resources:\n            requests: {cpu: 250m, "
           "memory: 256Mi}\n            limits: {cpu: \"1\", memory: 512Mi, nvidia.com/gpu: "
           "\"1\"}\n          readinessProbe:\n            httpGet: {path: /healthz, port: "
           "8080}\n      nodeSelector: {accelerator: l4}\n";
  }
  return out;
}

std::string ScenarioPlan() {
  std::ifstream in(SourceDir() / "examples" / "visual-inspection" / "plan.yaml", std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void SetCounters(benchmark::State& state, const std::string& text) {
  state.counters["bytes"] = static_cast<double>(text.size());
  state.counters["MB/s"] = benchmark::Counter(static_cast<double>(text.size()) / 1e6,
                                              benchmark::Counter::kIsIterationInvariantRate);
}

void Classify(benchmark::State& state, const std::string* text, workspace::FileRole want) {
  workspace::FileRole role = want;
  for (auto _ : state) {
    Diagnostic note;
    role = workspace::ClassifyFile("plans/file.yaml", *text, facts::LoadOptions{}, &note);
    benchmark::DoNotOptimize(note);
  }
  if (role != want) state.SkipWithError("the file was not classified as expected");
  SetCounters(state, *text);
}

// What classifying cost before: the whole file loaded (up to the document limit).
void FullLoad(benchmark::State& state, const std::string* text) {
  for (auto _ : state) {
    SourceManager sources;
    facts::RawLoadResult loaded =
        facts::LoadRawYaml(sources, sources.Add("plans/file.yaml", *text), facts::LoadOptions{});
    benchmark::DoNotOptimize(loaded);
  }
  SetCounters(state, *text);
}

}  // namespace

void RegisterDiscoveryBenchmarks() {
  static const std::string flow_map = FlowMap(), dump = KubernetesDump(), plan = ScenarioPlan();
  const std::pair<const char*, const std::string*> files[] = {
      {"flow_map", &flow_map}, {"k8s_dump", &dump}, {"scenario_plan", &plan}};
  for (const auto& [name, text] : files) {
    workspace::FileRole want =
        text == &plan ? workspace::FileRole::kPlan : workspace::FileRole::kOther;
    benchmark::RegisterBenchmark((std::string("classify/") + name).c_str(), Classify, text, want)
        ->Unit(benchmark::kMillisecond)
        ->MeasureProcessCPUTime();
    benchmark::RegisterBenchmark((std::string("classify_full_load/") + name).c_str(), FullLoad,
                                 text)
        ->Unit(benchmark::kMillisecond)
        ->MeasureProcessCPUTime();
  }
}

}  // namespace capops::bench
