// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness for the CPL front end: parse a fuzzed policy file and,
// when it parses, check it together with the shipped stdlib (names, types
// against the schema, cost) and evaluate its param defaults — everything
// Engine::Compile does, without an Engine so that the parse-only path stays fast.
//
// The stdlib texts are read once; each input gets a fresh SourceManager, so
// nothing grows across runs.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/check/checker.h"
#include "engine/common/source.h"
#include "engine/eval/evaluator.h"
#include "engine/syntax/parser.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  capops::fuzz::Stdlib();  // read before the first input
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace capops;
  SourceManager sources;
  FileId input = sources.Add("fuzz.cpl", std::string(reinterpret_cast<const char*>(data), size));
  syntax::ParseResult parsed = syntax::Parse(sources, input);
  if (!parsed.module) return 0;  // syntax errors: nothing to check

  std::vector<std::unique_ptr<syntax::Module>> modules;
  for (const TextFile& f : fuzz::Stdlib()) {
    syntax::ParseResult std_parsed = syntax::Parse(sources, sources.Add(f.path, f.text));
    if (std_parsed.module) modules.push_back(std::move(std_parsed.module));
  }
  modules.push_back(std::move(parsed.module));
  check::CheckResult checked = check::Check(std::move(modules), sources);
  if (checked.program) {
    Diagnostics diagnostics;
    eval::EvaluateParams(*checked.program, sources, &diagnostics);
  }
  return 0;
}
