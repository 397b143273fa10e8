// SPDX-License-Identifier: Apache-2.0
// The language server's latency: from a didChange of a plan (the
// scenario's, and a generated plan of 2,000 allocations that lints clean) to
// its publishDiagnostics, and from a completion request to its answer, in
// process (Server::Handle answers before it returns), the pack compiled
// once at initialize as in an editor session.
// Entry point: RegisterLspBenchmark.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "benchmarks/bench_corpora.h"
#include "benchmarks/bench_registry.h"
#include "engine/lsp/server.h"

namespace capops::bench {
namespace {

using Json = nlohmann::json;

std::string Slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

Json Message(const std::string& method, Json params, int id = 0) {
  Json m = {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
  if (id != 0) m["id"] = id;
  return m;
}

// A server initialized with `inventory` and `plan` open, as in an editor;
// `*plan_text` and `*plan_uri` are the plan's.
void OpenPlan(lsp::Server* server, const std::filesystem::path& inventory,
              const std::filesystem::path& plan, std::string* plan_text, std::string* plan_uri) {
  *plan_text = Slurp(plan);
  *plan_uri = lsp::UriOfPath(plan.string());
  server->Handle(Message("initialize", Json::object(), 1).dump());
  server->Handle(Message("textDocument/didOpen", {{"textDocument",
                                                   {{"uri", lsp::UriOfPath(inventory.string())},
                                                    {"languageId", "yaml"},
                                                    {"version", 1},
                                                    {"text", Slurp(inventory)}}}})
                     .dump());
  server->Handle(
      Message(
          "textDocument/didOpen",
          {{"textDocument",
            {{"uri", *plan_uri}, {"languageId", "yaml"}, {"version", 1}, {"text", *plan_text}}}})
          .dump());
}

void OpenScenario(lsp::Server* server, std::string* plan, std::string* plan_uri) {
  std::filesystem::path dir = SourceDir() / "examples" / "visual-inspection";
  OpenPlan(server, dir / "inventory.yaml", dir / "plan.yaml", plan, plan_uri);
}

// Edits of an open plan, each a real change (two versions in turn), until
// the state is done; each must publish diagnostics (none, when `clean`).
void ChangeInTurn(benchmark::State& state, lsp::Server* server, std::ostringstream* out,
                  const std::string& plan, const std::string& plan_uri, bool clean) {
  std::string edited = plan + "# edited\n";
  int version = 1;
  for (auto _ : state) {
    ++version;
    out->str("");
    bool ok =
        server->Handle(Message("textDocument/didChange",
                               {{"textDocument", {{"uri", plan_uri}, {"version", version}}},
                                {"contentChanges", {{{"text", version % 2 ? plan : edited}}}}})
                           .dump());
    benchmark::DoNotOptimize(ok);
    if (out->str().find("publishDiagnostics") == std::string::npos) {
      state.SkipWithError("no diagnostics were published");
      break;
    }
    if (clean && out->str().find("\"diagnostics\":[]") == std::string::npos) {
      state.SkipWithError(("the clean plan has diagnostics: " + out->str().substr(0, 400)).c_str());
      break;
    }
  }
}

}  // namespace

void RegisterLspBenchmark() {
  auto run = [](benchmark::State& state) {
    std::ostringstream out;
    lsp::Server server(lsp::ServerOptions{}, out);
    std::string plan, plan_uri;
    OpenScenario(&server, &plan, &plan_uri);
    ChangeInTurn(state, &server, &out, plan, plan_uri, false);
  };
  benchmark::RegisterBenchmark("lsp/did_change_scenario", run)->Unit(benchmark::kMillisecond);

  // A generated plan of 2,000 allocations on 200 pools (clean): what a
  // planner's editor re-lints after each edit of a real plan.
  auto run_corpus = [](benchmark::State& state) {
    const CorpusFiles& corpus = CorpusOf(static_cast<size_t>(state.range(0)));
    std::ostringstream out;
    lsp::Server server(lsp::ServerOptions{}, out);
    std::string plan, plan_uri;
    OpenPlan(&server, corpus.dir / "inventory.yaml", corpus.dir / "plan.yaml", &plan, &plan_uri);
    ChangeInTurn(state, &server, &out, plan, plan_uri, true);
  };
  benchmark::RegisterBenchmark("lsp/did_change_corpus", run_corpus)
      ->Arg(2000)
      ->Unit(benchmark::kMillisecond);

  // A completion of the pool of the scenario's training allocation: the
  // inventory's pool ids, read from the open buffer.
  auto complete = [](benchmark::State& state) {
    std::ostringstream out;
    lsp::Server server(lsp::ServerOptions{}, out);
    std::string plan, plan_uri;
    OpenScenario(&server, &plan, &plan_uri);
    size_t at = plan.find("pool: train-eu,");
    int line = static_cast<int>(
        std::count(plan.begin(), plan.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    int character = static_cast<int>(at - plan.rfind('\n', at) - 1 + 6);
    std::string request = Message("textDocument/completion",
                                  {{"textDocument", {{"uri", plan_uri}}},
                                   {"position", {{"line", line}, {"character", character}}}},
                                  2)
                              .dump();
    for (auto _ : state) {
      out.str("");
      benchmark::DoNotOptimize(server.Handle(request));
      if (out.str().find("train-eu-a100") == std::string::npos) {
        state.SkipWithError("the completion has no pool ids");
        break;
      }
    }
  };
  benchmark::RegisterBenchmark("lsp/completion_scenario", complete)->Unit(benchmark::kMillisecond);
}

}  // namespace capops::bench
