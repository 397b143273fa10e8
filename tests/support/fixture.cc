// SPDX-License-Identifier: Apache-2.0
// Test helpers shared by the stage tests (see fixture.h).
#include "tests/support/fixture.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "tests/support/paths.h"

namespace capops::testing {

std::string ReadSourceFile(const std::string& relative_path) {
  std::ifstream in(capops::testing::SourceDir() + "/" + relative_path, std::ios::binary);
  if (!in) throw std::runtime_error("test fixture missing: " + relative_path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void AddStdlib(Engine* engine) {
  AddPolicyDir("stdlib", engine);
}

void AddPolicyDir(const std::string& relative_dir, Engine* engine) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const auto& entry :
       fs::directory_iterator(fs::path(capops::testing::SourceDir()) / relative_dir)) {
    if (entry.path().extension() == ".cpl")
      files.push_back(relative_dir + "/" + entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) engine->AddPolicy(f, ReadSourceFile(f));
}

std::unique_ptr<Compiled> CompilePolicy(const std::string& cpl, bool typed) {
  auto c = std::make_unique<Compiled>();
  if (typed) {
    AddStdlib(&c->engine);
  } else {
    c->engine.AddPolicy("stdlib/capops.cpl",
                        ReadSourceFile("stdlib/capops.cpl"));  // enums, no schema
  }
  c->engine.AddPolicy("test.cpl", cpl);
  c->ok = c->engine.Compile(&c->diagnostics);
  return c;
}

eval::LintReport LintText(Compiled& compiled, const std::string& plan, const std::string& inventory,
                          const LintOptions& lint) {
  return compiled.engine.Lint({{"plan.yaml", plan}}, {{"inventory.yaml", inventory}}, lint);
}

std::vector<std::string> Lines(const Diagnostics& diagnostics) {
  std::vector<std::string> out;
  for (const Diagnostic& d : diagnostics.items()) {
    out.push_back(std::to_string(d.loc.line) + ":" + std::to_string(d.loc.column) + ": " +
                  d.message);
  }
  return out;
}

std::vector<std::string> Messages(const eval::LintReport& report) {
  std::vector<std::string> out;
  for (const eval::Violation& v : report.violations) out.push_back(v.message);
  return out;
}

std::vector<std::string> Findings(const eval::LintReport& report) {
  std::vector<std::string> out;
  for (const eval::Violation& v : report.violations) {
    std::string s = v.rule_id + " " + std::to_string(v.loc.line) + ":" +
                    std::to_string(v.loc.column) + " " + v.message + " |";
    for (const eval::Evidence& e : v.evidence) s += " " + e.name + "=" + e.value;
    out.push_back(s);
  }
  for (const Diagnostic& d : report.errors.items()) {
    out.push_back("error " + std::to_string(d.loc.line) + ":" + std::to_string(d.loc.column) + " " +
                  d.message);
  }
  return out;
}

}  // namespace capops::testing
