// SPDX-License-Identifier: Apache-2.0
// An engine that is destroyed gives back what it made: a long-running
// program (an editor server, a pre-merge service) creates engines, lints
// and drops them for hours. Under LeakSanitizer (the asan preset) anything
// left unreachable fails the run; here the resident memory must stay flat.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "engine/api/engine.h"
#include "tests/support/fixture.h"
#include "tests/support/paths.h"
#include "tests/support/temp_file.h"

namespace capops {
namespace {

// g++ says a sanitizer is on with __SANITIZE_*__, clang with __has_feature.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CAPOPS_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CAPOPS_SANITIZED 1
#endif
#endif

#ifdef CAPOPS_SANITIZED
// Sanitizers hold freed memory back (quarantine), so resident memory says
// nothing there; fewer rounds keep the leak check quick.
constexpr bool kMeasureResident = false;
constexpr int kEngines = 20;
#else
constexpr bool kMeasureResident = true;
constexpr int kEngines = 120;
#endif

std::string Slurp(const std::string& relative) {
  std::ifstream in(capops::testing::SourceDir() + "/" + relative, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

size_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  size_t total = 0, resident = 0;
  statm >> total >> resident;
  return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

// One engine's life: compile the shipped pack, lint the scenario twice
// (once into the engine's own sources, once into sources of the lint's
// own), then go.
size_t LintWithFreshEngine(const TextFile& plan, const TextFile& inventory) {
  Engine engine;
  testing::AddStdlib(&engine);
  testing::AddPolicyDir("policies/capops-ai", &engine);
  Diagnostics problems;
  if (!engine.Compile(&problems)) return 0;
  eval::LintReport own = engine.Lint({plan}, {inventory});
  SourceManager sources(&engine.sources());
  eval::LintReport apart = engine.Lint({plan}, {inventory}, {}, &sources);
  return own.violations.size() == apart.violations.size() ? own.violations.size() : 0;
}

TEST_CASE("engines created and destroyed one after another keep memory flat", "[api][memory]") {
  TextFile plan{"plan.yaml", Slurp("examples/visual-inspection/plan.yaml")};
  TextFile inventory{"inventory.yaml", Slurp("examples/visual-inspection/inventory.yaml")};
  // Warm up: the allocator's arenas and the process-wide tables of the
  // first engines are what later ones reuse.
  const int warm_up = kEngines / 10;
  size_t findings = LintWithFreshEngine(plan, inventory);
  REQUIRE(findings > 0);
  for (int i = 1; i < warm_up; ++i) REQUIRE(LintWithFreshEngine(plan, inventory) == findings);
  size_t before = ResidentBytes();
  for (int i = warm_up; i < kEngines; ++i)
    REQUIRE(LintWithFreshEngine(plan, inventory) == findings);
  size_t after = ResidentBytes();
  INFO("resident after " << warm_up << " engines: " << before << " bytes; after " << kEngines
                         << ": " << after);
  if (kMeasureResident) CHECK(after <= before + before / 10);
}

}  // namespace
}  // namespace capops

namespace capops {
namespace {

// The sources' file at `path`, or null.
const SourceFile* FileAt(const SourceManager& sources, const std::string& path) {
  for (FileId id = 0; id < sources.size(); ++id) {
    if (sources.file(id).path() == path) return &sources.file(id);
  }
  return nullptr;
}

TEST_CASE("an engine keeps its fact files' text unless told to give it back", "[api][memory]") {
  std::string plan = Slurp("examples/visual-inspection/plan.yaml");
  testing::TempFile file(plan);
  for (size_t release : {SIZE_MAX, size_t{0}}) {
    CAPTURE(release);
    Engine engine;
    testing::AddStdlib(&engine);
    testing::AddPolicyDir("policies/capops-ai", &engine);
    Diagnostics problems;
    REQUIRE(engine.Compile(&problems));
    if (release != SIZE_MAX) engine.options().release_text_bytes = release;
    TextFile inventory{"inventory.yaml", Slurp("examples/visual-inspection/inventory.yaml")};
    eval::LintReport report = engine.Lint({TextFile{file.path(), plan, file.Stamp()}}, {inventory});
    CHECK_FALSE(report.violations.empty());
    const SourceFile* linted = FileAt(engine.sources(), file.path());
    REQUIRE(linted != nullptr);
    if (release == SIZE_MAX) {
      CHECK_FALSE(linted->released());  // the default: a program holding sources may read them
      CHECK(linted->text() == plan);
    } else {
      CHECK(linted->released());
      CHECK_THROWS_AS(linted->text(), std::logic_error);  // documented: ReadText reads it back
      CHECK(linted->ReadText() == plan);
    }
  }
}

}  // namespace
}  // namespace capops
