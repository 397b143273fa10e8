// SPDX-License-Identifier: Apache-2.0
// gen_corpus: writes a synthetic, deterministic fact corpus for the
// benchmarks (see corpus.h for what it holds).
//
//   gen_corpus --allocations 10000 --pools 1000 [--plans 4] [--seed 7] [--defects 0.01] -o DIR
//
// writes DIR/inventory.yaml and DIR/plan.yaml (DIR/plan-000.yaml … with
// --plans), then prints one line of sizes. Exit 0, or 2 on a usage error.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "benchmarks/corpus.h"

namespace {

constexpr const char* kUsage =
    "usage: gen_corpus --allocations N --pools M [--plans K] [--seed S] [--defects RATE] -o DIR\n"
    "  writes DIR/inventory.yaml and DIR/plan.yaml (or K files plan-000.yaml … that split\n"
    "  the demands and their allocations and share the one inventory); the plans break no\n"
    "  rule of the shipped pack, unless --defects RATE (0 to 1) breaks that share of the\n"
    "  sites each kind of defect can break\n";

int Usage(const std::string& problem) {
  std::cerr << "gen_corpus: error: " << problem << "\n" << kUsage;
  return 2;
}

bool ParseCount(const char* text, uint64_t* out) {
  if (text == nullptr || *text == '\0' || *text == '-') return false;
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *out = v;
  return true;
}

// A rate in [0, 1], written as a plain decimal number (no NaN, no
// infinity, no hexadecimal, no trailing text).
bool ParseRate(const char* text, double* out) {
  if (text == nullptr || *text == '\0') return false;
  for (const char* c = text; *c != '\0'; ++c) {
    if (std::strchr("0123456789.eE+-", *c) == nullptr) return false;
  }
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(text, &end);
  if (errno != 0 || *end != '\0' || !(v >= 0 && v <= 1)) return false;
  *out = v;
  return true;
}

// Reads the flags into `options` and `out_dir`; a usage problem in `*problem`.
bool ParseArgs(int argc, char** argv, capops::bench::CorpusOptions* options, std::string* out_dir,
               std::string* problem) {
  auto fail = [problem](std::string text) {
    *problem = std::move(text);
    return false;
  };
  bool have_allocations = false, have_pools = false;
  for (int i = 1; i < argc; i += 2) {
    std::string flag = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    uint64_t n = 0;
    if (flag == "-o" || flag == "--output") {
      if (value == nullptr) return fail("`-o` needs a directory");
      *out_dir = value;
    } else if (flag == "--defects") {
      if (!ParseRate(value, &options->defects)) {
        return fail("`--defects` needs a number from 0 to 1, not `" +
                    std::string(value == nullptr ? "" : value) + "`");
      }
    } else if (flag == "--allocations" || flag == "--pools" || flag == "--plans" ||
               flag == "--seed") {
      if (!ParseCount(value, &n)) return fail("`" + flag + "` needs a non-negative integer");
      have_allocations = have_allocations || flag == "--allocations";
      have_pools = have_pools || flag == "--pools";
      if (flag == "--allocations") options->allocations = n;
      if (flag == "--pools") options->pools = n;
      if (flag == "--plans") options->plans = n;
      if (flag == "--seed") options->seed = n;
    } else {
      return fail("unknown argument `" + flag + "`");
    }
  }
  if (!have_allocations || !have_pools || out_dir->empty()) {
    return fail("`--allocations`, `--pools` and `-o` are required");
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "-h" || std::string(argv[i]) == "--help") {
      std::cout << kUsage;
      return 0;
    }
  }
  capops::bench::CorpusOptions options;
  std::string out_dir, problem;
  if (!ParseArgs(argc, argv, &options, &out_dir, &problem)) return Usage(problem);
  if (options.allocations == 0 || options.plans == 0)
    return Usage("`--allocations` and `--plans` must be positive");
  if (options.pools < 12)
    return Usage("`--pools` must be at least 12 (one of each role in three regions)");
  capops::bench::Corpus corpus = capops::bench::GenerateCorpus(options);
  std::string error;
  if (!capops::bench::WriteCorpus(corpus, out_dir, &error)) {
    std::cerr << "gen_corpus: error: " << error << "\n";
    return 1;
  }
  size_t bytes = corpus.inventory.size();
  for (const std::string& p : corpus.plans) bytes += p.size();
  std::printf(
      "%s: %zu plan file(s), %zu demands, %zu allocations, %zu pools, %zu supply, %zu bytes\n",
      out_dir.c_str(), corpus.plans.size(), corpus.demands, corpus.allocations,
      std::max<size_t>(options.pools, 12), corpus.supply, bytes);
  return 0;
}
