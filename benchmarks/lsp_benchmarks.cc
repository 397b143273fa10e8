// The language server's latency: from a didChange of the scenario plan to
// its publishDiagnostics, in process (Server::Handle answers before it
// returns), the pack compiled once at initialize as in an editor session.
// Entry point: RegisterLspBenchmark.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

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

}  // namespace

void RegisterLspBenchmark() {
  auto run = [](benchmark::State& state) {
    std::filesystem::path dir = SourceDir() / "examples" / "visual-inspection";
    std::string plan = Slurp(dir / "plan.yaml"), inventory = Slurp(dir / "inventory.yaml");
    std::string plan_uri = lsp::UriOfPath((dir / "plan.yaml").string());
    std::ostringstream out;
    lsp::Server server(lsp::ServerOptions{}, out);
    server.Handle(Message("initialize", Json::object(), 1).dump());
    server.Handle(Message("textDocument/didOpen",
                          {{"textDocument",
                            {{"uri", lsp::UriOfPath((dir / "inventory.yaml").string())},
                             {"languageId", "yaml"}, {"version", 1}, {"text", inventory}}}})
                      .dump());
    server.Handle(Message("textDocument/didOpen",
                          {{"textDocument", {{"uri", plan_uri}, {"languageId", "yaml"}, {"version", 1}, {"text", plan}}}})
                      .dump());
    // Two versions in turn, so that every change is a real one.
    std::string edited = plan + "# edited\n";
    int version = 1;
    for (auto _ : state) {
      ++version;
      out.str("");
      bool ok = server.Handle(Message("textDocument/didChange",
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
}

}  // namespace capops::bench
