// SPDX-License-Identifier: Apache-2.0
// The benchmarks' inputs (bench_corpora.h): corpora made once per run, the
// shipped pack read once, and the environment settings.
#include "benchmarks/bench_corpora.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "benchmarks/corpus.h"

namespace capops::bench {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void Die(const std::string& message) {
  std::cerr << "capops_bench: error: " << message << "\n";
  std::exit(2);
}

std::vector<size_t> ParseSizes(const char* name, const std::string& text) {
  std::vector<size_t> sizes;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    unsigned long long n = std::strtoull(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || n < 12) {
      Die(std::string(name) +
          " must list allocation counts of at least 12, comma-separated, not `" + text + "`");
    }
    sizes.push_back(n);
  }
  return sizes;
}

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Die("cannot read `" + path.string() + "`");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

uint64_t Seed() {
  const char* env = std::getenv("CAPOPS_BENCH_SEED");
  return env != nullptr && *env != '\0' ? std::strtoull(env, nullptr, 10) : 1;
}

// The directory corpora go in: CAPOPS_BENCH_CORPUS_DIR, else a fresh
// temporary one.
const fs::path& CorpusRoot(bool* temporary) {
  static fs::path root;
  static bool made_temporary = false;
  if (root.empty()) {
    const char* env = std::getenv("CAPOPS_BENCH_CORPUS_DIR");
    if (env != nullptr && *env != '\0') {
      root = env;
    } else {
      std::string pattern = (fs::temp_directory_path() / "capops-bench-XXXXXX").string();
      if (mkdtemp(pattern.data()) == nullptr) Die("cannot make a temporary directory");
      root = pattern;
      made_temporary = true;
    }
  }
  if (temporary != nullptr) *temporary = made_temporary;
  return root;
}

std::unique_ptr<CorpusFiles> MakeCorpus(size_t allocations, double defects) {
  auto c = std::make_unique<CorpusFiles>();
  c->allocations = allocations;
  c->pools = std::max<size_t>(allocations / 10, 12);
  std::ostringstream name;
  name << allocations;
  if (defects > 0) name << "-defects-" << defects;
  c->dir = CorpusRoot(nullptr) / name.str();
  std::error_code ec;
  if (!fs::exists(c->dir / "inventory.yaml", ec) || !fs::exists(c->dir / "plan.yaml", ec)) {
    CorpusOptions options;
    options.allocations = allocations;
    options.pools = c->pools;
    options.seed = Seed();
    options.defects = defects;
    std::string error;
    if (!WriteCorpus(GenerateCorpus(options), c->dir, &error)) Die(error);
  }
  c->inventory = {(c->dir / "inventory.yaml").string(), ReadText(c->dir / "inventory.yaml")};
  c->plan = {(c->dir / "plan.yaml").string(), ReadText(c->dir / "plan.yaml")};
  return c;
}

}  // namespace

std::vector<size_t> BenchSizes() {
  const char* env = std::getenv("CAPOPS_BENCH_SIZES");
  if (env == nullptr || *env == '\0') return {1000, 10000, 100000};
  return ParseSizes("CAPOPS_BENCH_SIZES", env);
}

std::vector<size_t> RuleSizes(const std::vector<size_t>& sizes) {
  const char* env = std::getenv("CAPOPS_BENCH_RULE_SIZES");
  if (env != nullptr && std::string(env) == "none") return {};
  if (env != nullptr && *env != '\0') return ParseSizes("CAPOPS_BENCH_RULE_SIZES", env);
  // Two sizes a decade apart: each rule's growth between them (its exponent).
  std::vector<size_t> picked;
  for (size_t n : {size_t{10000}, size_t{100000}}) {
    if (std::find(sizes.begin(), sizes.end(), n) != sizes.end()) picked.push_back(n);
  }
  return picked;
}

const CorpusFiles& CorpusOf(size_t allocations, double defects) {
  static std::map<std::pair<size_t, double>, std::unique_ptr<CorpusFiles>> corpora;
  std::unique_ptr<CorpusFiles>& c = corpora[{allocations, defects}];
  if (c == nullptr) c = MakeCorpus(allocations, defects);
  return *c;
}

void RemoveTemporaryCorpora() {
  bool temporary = false;
  const fs::path& root = CorpusRoot(&temporary);
  std::error_code ec;
  if (temporary) fs::remove_all(root, ec);
}

fs::path SourceDir() {
  return CAPOPS_SOURCE_DIR;
}

const std::vector<TextFile>& PackFiles() {
  static const std::vector<TextFile> files = [] {
    std::vector<TextFile> out;
    for (const char* dir : {"stdlib", "policies/capops-ai"}) {
      std::vector<fs::path> paths;
      for (const fs::directory_entry& e : fs::directory_iterator(SourceDir() / dir)) {
        if (e.is_regular_file() && e.path().extension() == ".cpl") paths.push_back(e.path());
      }
      std::sort(paths.begin(), paths.end());
      for (const fs::path& p : paths)
        out.push_back({fs::relative(p, SourceDir()).string(), ReadText(p)});
    }
    if (out.empty()) Die("no policies under `" + SourceDir().string() + "`");
    return out;
  }();
  return files;
}

size_t PackBytes() {
  size_t bytes = 0;
  for (const TextFile& f : PackFiles()) bytes += f.text.size();
  return bytes;
}

EngineOptions BenchEngineOptions() {
  EngineOptions options;
  options.facts.max_file_bytes = size_t{1} << 30;
  options.facts.max_nodes = 100'000'000;
  if (std::optional<uint64_t> steps = MaxSteps()) options.eval.max_steps = *steps;
  return options;
}

std::optional<uint64_t> MaxSteps() {
  const char* env = std::getenv("CAPOPS_BENCH_MAX_STEPS");
  if (env == nullptr || *env == '\0') return std::nullopt;
  if (std::string(env) == "unlimited") return UINT64_MAX;
  char* end = nullptr;
  unsigned long long n = std::strtoull(env, &end, 10);
  if (*end != '\0' || n == 0)
    Die(std::string("CAPOPS_BENCH_MAX_STEPS must be a positive count or `unlimited`, not `") + env +
        "`");
  return n;
}

std::unique_ptr<Engine> CompiledEngine(const EngineOptions& options) {
  auto engine = std::make_unique<Engine>(options);
  for (const TextFile& f : PackFiles()) engine->AddPolicy(f.path, f.text);
  Diagnostics problems;
  if (!engine->Compile(&problems)) {
    std::string text;
    for (const Diagnostic& d : problems.items()) text += "\n  " + d.message;
    Die("the shipped pack does not compile:" + text);
  }
  return engine;
}

}  // namespace capops::bench
