// SPDX-License-Identifier: Apache-2.0
// The YAML test suite (tests/yaml-test-suite/) through facts::LoadRawYaml:
// every valid case must load, or be refused as a construct capops facts
// cannot hold, with the data its in.json gives; every invalid case must be
// refused with a located error. Prints the counts with the names of the
// cases refused, found different or wrongly accepted, so that a change of
// the loader shows which cases it moved.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/facts/loader.h"
#include "engine/facts/scalar.h"
#include "tests/support/paths.h"

namespace capops::facts {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kSuite = fs::path(capops::testing::SourceDir()) / "tests/yaml-test-suite";

// The counts of the copy in tests/yaml-test-suite/: a case lost in a copy
// must fail here rather than shrink the suite unnoticed.
constexpr size_t kCaseCount = 402;
constexpr size_t kInvalidCaseCount = 94;

// The one valid case capops may refuse as invalid YAML. None is known yet:
// name it here, with why capops is right to refuse it, when one is found.
constexpr const char* kRefusedValidCase = "";

// Valid cases whose loaded data may differ from in.json, each with why.
const std::set<std::string> kDataMismatchAllowed = {};

// Valid cases refused as "not supported in capops facts", at most: tags of
// other schemas, collection, null and alias keys, and the constructs built
// on them (sets, ordered maps, binary). A change that refuses more valid
// YAML this way must say why here.
constexpr size_t kUnsupportedAtMost = 44;

// How the loader words a valid construct that facts cannot hold (a custom
// tag, a collection, null or alias key).
constexpr std::string_view kUnsupported = "not supported in capops facts";

struct Case {
  std::string name;   // the folder under tests/yaml-test-suite: `2G84/00`
  std::string title;  // the first line of its `===` file
  fs::path dir;
  bool invalid;  // an `error` file is there
};

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every folder holding an in.yaml, by name.
std::vector<Case> FindCases() {
  std::vector<Case> cases;
  for (const auto& entry : fs::recursive_directory_iterator(kSuite)) {
    if (entry.path().filename() != "in.yaml") continue;
    fs::path dir = entry.path().parent_path();
    std::string title = ReadFile(dir / "===");
    title = title.substr(0, title.find('\n'));
    cases.push_back(
        {dir.lexically_relative(kSuite).generic_string(), title, dir, fs::exists(dir / "error")});
  }
  std::sort(cases.begin(), cases.end(),
            [](const Case& a, const Case& b) { return a.name < b.name; });
  return cases;
}

// Where the JSON value starting at `at` ends: in.json holds one value per
// document, one after another, which json::parse alone would refuse.
size_t JsonValueEnd(const std::string& text, size_t at) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = at; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
        if (depth == 0) return i + 1;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth == 0) return i + 1;
    } else if (depth == 0 && (c == ' ' || c == '\t' || c == '\r' || c == '\n')) {
      return i;
    }
  }
  return text.size();
}

std::vector<json> ParseJsonStream(const std::string& text) {
  std::vector<json> values;
  for (size_t at = text.find_first_not_of(" \t\r\n"); at != std::string::npos;
       at = text.find_first_not_of(" \t\r\n", at)) {
    size_t end = JsonValueEnd(text, at);
    values.push_back(json::parse(text.begin() + at, text.begin() + end));
    at = end;
  }
  return values;
}

std::string Shown(const json& expected) {
  std::string text = expected.dump();
  return text.size() > 80 ? text.substr(0, 77) + "..." : text;
}

// Why `value` is not the data `expected` gives, "" when it is. Plain
// scalars that JSON keeps as strings (`2001-01-01`, `5d`, `80GiB`) capops
// types by their text, so a JSON string also matches a date, duration or
// quantity that its text types as.
std::string Difference(const json& expected, const Value& value, const std::string& path) {
  std::string differ = path + ": expected " + Shown(expected) + ", got " + value.ToLiteral(80);
  switch (expected.type()) {
    case json::value_t::null:
      return value.is(ValueKind::kNull) ? "" : differ;
    case json::value_t::boolean:
      return value.is(ValueKind::kBool) && value.bool_value() == expected.get<bool>() ? "" : differ;
    case json::value_t::number_integer:
      return Value::Int(expected.get<int64_t>()) == value ? "" : differ;
    case json::value_t::number_unsigned:  // what json::parse makes of a non-negative integer
      if (expected.get<uint64_t>() <= INT64_MAX)
        return Value::Int(expected.get<int64_t>()) == value ? "" : differ;
      return Value::Double(expected.get<double>()) == value ? "" : differ;
    case json::value_t::number_float:
      return Value::Double(expected.get<double>()) == value ? "" : differ;
    case json::value_t::string: {
      const std::string& text = expected.get_ref<const std::string&>();
      if (value.is(ValueKind::kString)) return value.string_value() == text ? "" : differ;
      // in.json types plain scalars by the core schema only, so a JSON
      // string that is not a date, duration or quantity to capops came from
      // a quoted or tagged scalar (`"12"`, `! 12`, `''`): that must stay a
      // string, not match the int or null its text would type as.
      bool own_literal = value.is(ValueKind::kDate) || value.is(ValueKind::kDuration) ||
                         value.is(ValueKind::kQuantity);
      std::string error;
      return own_literal && TypePlainScalar(text, &error) == value ? "" : differ;
    }
    case json::value_t::array: {
      if (!value.is(ValueKind::kList) || value.items().size() != expected.size()) return differ;
      for (size_t i = 0; i < expected.size(); ++i) {
        std::string d =
            Difference(expected[i], value.items()[i], path + "[" + std::to_string(i) + "]");
        if (!d.empty()) return d;
      }
      return "";
    }
    case json::value_t::object: {
      // Equal sizes and every expected key found: the same key sets.
      if (!value.is(ValueKind::kMap) || value.entries().size() != expected.size()) return differ;
      for (const auto& [key, item] : expected.items()) {
        const Value* found = value.Field(std::string_view(key));
        if (found == nullptr) return path + ": key `" + key + "` missing";
        std::string d = Difference(item, *found, path + "." + key);
        if (!d.empty()) return d;
      }
      return "";
    }
    default:
      return path + ": unexpected JSON in in.json";
  }
}

// Why the loaded documents are not those of in.json, "" when they are.
// LoadRawYaml drops null documents (empty or `~`), so the JSON nulls go too.
std::string DocumentsDifference(const std::string& in_json, const std::vector<Value>& documents) {
  std::vector<json> expected;
  try {
    for (json& value : ParseJsonStream(in_json)) {
      if (!value.is_null()) expected.push_back(std::move(value));
    }
  } catch (const json::exception& e) {
    return std::string("in.json does not parse: ") + e.what();
  }
  if (expected.size() != documents.size()) {
    return "expected " + std::to_string(expected.size()) + " non-null documents, got " +
           std::to_string(documents.size());
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    std::string d = Difference(expected[i], documents[i], "document " + std::to_string(i + 1));
    if (!d.empty()) return d;
  }
  return "";
}

enum class Outcome { kAccepted, kUnsupported, kInvalid };

struct Verdict {
  Outcome outcome = Outcome::kAccepted;
  bool located = false;  // an invalid-YAML error has a line
  std::string error;     // the first invalid-YAML error, "line:col: message"
  std::string mismatch;  // for a valid case loaded cleanly: how its data differs
};

Verdict Run(const Case& c) {
  Verdict verdict;
  SourceManager sources;
  FileId file = sources.Add(c.name + "/in.yaml", ReadFile(c.dir / "in.yaml"));
  RawLoadResult result = LoadRawYaml(sources, file, LoadOptions{});
  bool unsupported = false;
  for (const Diagnostic& d : result.diagnostics.items()) {
    if (d.severity != Severity::kError) continue;
    if (d.code == "yaml" && d.message.rfind(kUnsupported, 0) == 0) {
      unsupported = true;
      continue;
    }
    if (verdict.error.empty()) {
      verdict.error = std::to_string(d.loc.line) + ":" + std::to_string(d.loc.column) + ": " +
                      d.message + (d.code == "yaml" ? "" : " [" + d.code + "]");
    }
    verdict.outcome = Outcome::kInvalid;
    verdict.located = verdict.located || d.loc.line >= 1;
  }
  if (verdict.outcome == Outcome::kInvalid) return verdict;
  if (unsupported) {
    verdict.outcome = Outcome::kUnsupported;
    return verdict;
  }
  if (!c.invalid && fs::exists(c.dir / "in.json")) {
    verdict.mismatch = DocumentsDifference(ReadFile(c.dir / "in.json"), result.documents);
  }
  return verdict;
}

std::string Listed(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += "    " + line + "\n";
  return out;
}

TEST_CASE("the YAML test suite loads as YAML 1.2 says", "[facts][yaml-suite]") {
  std::vector<Case> cases = FindCases();
  size_t invalid_cases =
      std::count_if(cases.begin(), cases.end(), [](const Case& c) { return c.invalid; });
  REQUIRE(cases.size() == kCaseCount);
  REQUIRE(invalid_cases == kInvalidCaseCount);

  size_t valid_accepted = 0, invalid_rejected = 0;
  std::vector<std::string> unsupported, valid_refused, invalid_accepted, unlocated, mismatches;
  std::vector<std::string> unexpected_refusals, unexpected_mismatches;
  for (const Case& c : cases) {
    std::string label = c.name + " (" + c.title + ")";
    Verdict v;
    try {
      v = Run(c);
    } catch (const std::exception& e) {
      FAIL_CHECK(label << ": the loader threw: " << e.what());
      continue;
    }
    if (c.invalid) {
      if (v.outcome != Outcome::kInvalid) {
        invalid_accepted.push_back(
            label + (v.outcome == Outcome::kUnsupported ? ": only unsupported" : ""));
      } else if (!v.located) {
        unlocated.push_back(label + ": " + v.error);
      } else {
        ++invalid_rejected;
      }
      continue;
    }
    switch (v.outcome) {
      case Outcome::kAccepted:
        ++valid_accepted;
        break;
      case Outcome::kUnsupported:
        unsupported.push_back(label);
        break;
      case Outcome::kInvalid:
        valid_refused.push_back(label + ": " + v.error);
        if (c.name != kRefusedValidCase) unexpected_refusals.push_back(valid_refused.back());
        break;
    }
    if (!v.mismatch.empty()) {
      mismatches.push_back(label + ": " + v.mismatch);
      if (kDataMismatchAllowed.count(c.name) == 0)
        unexpected_mismatches.push_back(mismatches.back());
    }
  }

  std::cout << "yaml-test-suite: " << cases.size() - invalid_cases << " valid cases, "
            << invalid_cases << " invalid\n"
            << "  valid accepted: " << valid_accepted << " (data mismatches: " << mismatches.size()
            << ")\n"
            << Listed(mismatches) << "  valid refused as unsupported: " << unsupported.size()
            << "\n"
            << Listed(unsupported) << "  valid refused as invalid: " << valid_refused.size() << "\n"
            << Listed(valid_refused) << "  invalid rejected: " << invalid_rejected << "\n"
            << "  invalid rejected without a location: " << unlocated.size() << "\n"
            << Listed(unlocated) << "  invalid accepted: " << invalid_accepted.size() << "\n"
            << Listed(invalid_accepted) << std::flush;

  {
    INFO("valid cases refused as invalid YAML:\n" << Listed(unexpected_refusals));
    CHECK(unexpected_refusals.empty());
  }
  {
    INFO("data that differs from in.json:\n" << Listed(unexpected_mismatches));
    CHECK(unexpected_mismatches.empty());
  }
  {
    INFO("invalid cases accepted:\n" << Listed(invalid_accepted));
    CHECK(invalid_accepted.empty());
  }
  {
    INFO("invalid cases rejected without a location:\n" << Listed(unlocated));
    CHECK(unlocated.empty());
  }
  {
    INFO("valid cases refused as not supported:\n" << Listed(unsupported));
    CHECK(unsupported.size() <= kUnsupportedAtMost);
  }
  CHECK(invalid_rejected == kInvalidCaseCount);
}

}  // namespace
}  // namespace capops::facts
