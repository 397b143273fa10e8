// SPDX-License-Identifier: Apache-2.0
// Shared start-up helpers for the libFuzzer harnesses: reading the shipped
// stdlib, rule pack and example inventory from the source tree they were
// built from (CAPOPS_SOURCE_DIR, a compile definition set by fuzz/CMakeLists.txt).
//
// Files are read once, before the first input; a missing file aborts the
// run (that is a broken build, not a finding), so harnesses never call exit().
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/api/engine.h"

namespace capops::fuzz {

/// A source file by its path relative to the source tree, read whole.
inline TextFile ReadSourceFile(const std::string& relative_path) {
  std::string full = std::string(CAPOPS_SOURCE_DIR) + "/" + relative_path;
  std::ifstream in(full, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "fuzz: cannot read %s\n", full.c_str());
    std::abort();
  }
  std::ostringstream text;
  text << in.rdbuf();
  return TextFile{relative_path, text.str()};
}

/// The `*.cpl` files of a source-tree folder, sorted by path.
inline std::vector<TextFile> ReadCplFolder(const std::string& relative_dir) {
  std::vector<std::string> names;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(CAPOPS_SOURCE_DIR) + "/" + relative_dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".cpl") {
      names.push_back(relative_dir + "/" + entry.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  std::vector<TextFile> files;
  for (const std::string& name : names) files.push_back(ReadSourceFile(name));
  return files;
}

/// stdlib/*.cpl: the shared definitions and the fact schema.
inline const std::vector<TextFile>& Stdlib() {
  static const std::vector<TextFile> files = ReadCplFolder("stdlib");
  return files;
}

/// An engine with the stdlib (and `extra` policies) compiled; aborts if they do not compile.
inline std::unique_ptr<Engine> CompiledEngine(const std::vector<TextFile>& extra) {
  auto engine = std::make_unique<Engine>();
  for (const TextFile& f : Stdlib()) engine->AddPolicy(f.path, f.text);
  for (const TextFile& f : extra) engine->AddPolicy(f.path, f.text);
  Diagnostics diagnostics;
  if (!engine->Compile(&diagnostics)) {
    std::fprintf(stderr, "fuzz: the shipped policies do not compile (%zu diagnostics)\n",
                 diagnostics.items().size());
    std::abort();
  }
  return engine;
}

}  // namespace capops::fuzz
