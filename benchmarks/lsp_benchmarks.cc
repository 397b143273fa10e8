// SPDX-License-Identifier: Apache-2.0
// The language server's latency: from a didChange of the scenario plan to
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

// A server initialized with the scenario's inventory and plan open, as in
// an editor; `*plan` and `*plan_uri` are the plan's.
void OpenScenario(lsp::Server* server, std::string* plan, std::string* plan_uri) {
  std::filesystem::path dir = SourceDir() / "examples" / "visual-inspection";
  *plan = Slurp(dir / "plan.yaml");
  *plan_uri = lsp::UriOfPath((dir / "plan.yaml").string());
  server->Handle(Message("initialize", Json::object(), 1).dump());
  server->Handle(
      Message("textDocument/didOpen", {{"textDocument",
                                        {{"uri", lsp::UriOfPath((dir / "inventory.yaml").string())},
                                         {"languageId", "yaml"},
                                         {"version", 1},
                                         {"text", Slurp(dir / "inventory.yaml")}}}})
          .dump());
  server->Handle(
      Message("textDocument/didOpen",
              {{"textDocument",
                {{"uri", *plan_uri}, {"languageId", "yaml"}, {"version", 1}, {"text", *plan}}}})
          .dump());
}

}  // namespace

void RegisterLspBenchmark() {
  auto run = [](benchmark::State& state) {
    std::ostringstream out;
    lsp::Server server(lsp::ServerOptions{}, out);
    std::string plan, plan_uri;
    OpenScenario(&server, &plan, &plan_uri);
    // Two versions in turn, so that every change is a real one.
    std::string edited = plan + "# edited\n";
    int version = 1;
    for (auto _ : state) {
      ++version;
      out.str("");
      bool ok =
          server.Handle(Message("textDocument/didChange",
                                {{"textDocument", {{"uri", plan_uri}, {"version", version}}},
                                 {"contentChanges", {{{"text", version % 2 ? plan : edited}}}}})
                            .dump());
      benchmark::DoNotOptimize(ok);
      if (out.str().find("publishDiagnostics") == std::string::npos) {
        state.SkipWithError("no diagnostics were published");
        break;
      }
    }
  };
  benchmark::RegisterBenchmark("lsp/did_change_scenario", run)->Unit(benchmark::kMillisecond);

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
