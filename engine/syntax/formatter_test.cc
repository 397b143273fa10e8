#include "engine/syntax/formatter.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace capops::syntax {
namespace {

namespace fs = std::filesystem;

std::string FormatText(const std::string& text) {
  SourceManager sources;
  FormatResult r = Format(sources, sources.Add("f.cpl", text));
  return r.ok ? r.text : "error: " + r.diagnostics[0].message;
}

// The AST dump and canonical form of a text (spans left out by both).
std::string AstOf(const std::string& text) {
  SourceManager sources;
  ParseResult r = Parse(sources, sources.Add("f.cpl", text));
  if (!r.module) return "error";
  std::string tests;
  for (const TestDecl& t : r.module->tests) {
    tests += t.name + ":" + t.doc + ":" + std::to_string(t.facts.size()) + ":" +
             std::to_string(t.expectations.size());
  }
  return DumpModule(*r.module) + CanonicalModule(*r.module) + tests;
}

TEST_CASE("fmt re-indents by bracket depth and keeps every comment", "[syntax][fmt]") {
  std::string messy =
      "\n\n// header   \n"
      "package   p\n\n\n\n"
      "/// doc\n"
      "@id(\"X-1\")   // trailing\n"
      "rule r {\n"
      "for a in plan.allocations   \n"
      "        where a.gpus > 1 && // why\n"
      "  a.gpus < 9\n"
      "let s = sum(plan.allocations.map(b,\n"
      "b.gpus))\n"
      "\tdeny at a.gpus \"too {a.gpus}\"\n"
      "because \"b\"\n"
      "        fix \"f\"\n"
      "    }\n\n\n";
  std::string want =
      "// header\n"
      "package   p\n\n"
      "/// doc\n"
      "@id(\"X-1\")   // trailing\n"
      "rule r {\n"
      "  for a in plan.allocations\n"
      "  where a.gpus > 1 && // why\n"
      "  a.gpus < 9\n"
      "  let s = sum(plan.allocations.map(b,\n"
      "      b.gpus))\n"
      "  deny at a.gpus \"too {a.gpus}\"\n"
      "    because \"b\"\n"
      "    fix \"f\"\n"
      "}\n";
  CHECK(FormatText(messy) == want);
  CHECK(FormatText(want) == want);
  CHECK(AstOf(messy) == AstOf(want));
  CHECK(FormatText("rule r {").rfind("error: ", 0) == 0);
}

TEST_CASE("fmt is idempotent and keeps the AST of every shipped CPL file", "[syntax][fmt]") {
  size_t files = 0;
  for (const char* dir : {"policies", "stdlib"}) {
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(CAPOPS_SOURCE_DIR) / dir)) {
      if (entry.path().extension() != ".cpl") continue;
      ++files;
      INFO(entry.path().string());
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      std::string once = FormatText(text.str());
      REQUIRE(once.rfind("error: ", 0) != 0);
      CHECK(FormatText(once) == once);
      CHECK(AstOf(once) == AstOf(text.str()));
      // No comment is lost: every `//` line survives, trimmed.
      std::istringstream lines(text.str());
      for (std::string line; std::getline(lines, line);) {
        size_t at = line.find("//");
        if (at != std::string::npos && line.find('"') == std::string::npos) {
          std::string comment = line.substr(at);
          comment.erase(comment.find_last_not_of(" \t\r") + 1);
          CHECK(once.find(comment) != std::string::npos);
        }
      }
    }
  }
  CHECK(files >= 10);
}

}  // namespace
}  // namespace capops::syntax
