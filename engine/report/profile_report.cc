// SPDX-License-Identifier: Apache-2.0
// capops-lint --profile: the per-rule cost table. Entry point: WriteProfile.
#include "engine/report/profile_report.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace capops::report {

namespace {

using Json = nlohmann::ordered_json;
using Line = std::pair<std::string, eval::RuleCost>;

std::vector<Line> ByCost(const eval::Profile& profile) {
  std::vector<Line> lines(profile.rules.begin(), profile.rules.end());
  std::stable_sort(lines.begin(), lines.end(),
                   [](const Line& a, const Line& b) { return a.second.nanos > b.second.nanos; });
  return lines;
}

// 1234567 -> "1,234,567": counts read at a glance.
std::string Grouped(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string Fixed(double value, const char* unit) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%s", value, unit);
  return text;
}

std::string Bytes(uint64_t n) {
  if (n < 1024) return std::to_string(n) + " B";
  if (n < (1u << 20)) return Fixed(static_cast<double>(n) / 1024, " KiB");
  return Fixed(static_cast<double>(n) / (1u << 20), " MiB");
}

void WriteText(const std::vector<Line>& lines, uint64_t total, const eval::Profile& profile,
               std::ostream& out) {
  const std::vector<std::string> head = {"rule",    "time",   "share",  "runs",  "steps",
                                         "visited", "probes", "picked", "built", "findings"};
  std::vector<std::vector<std::string>> rows = {head};
  for (const auto& [rule, c] : lines) {
    double share = total == 0 ? 0 : 100.0 * static_cast<double>(c.nanos) / total;
    rows.push_back({rule, Fixed(static_cast<double>(c.nanos) / 1e6, " ms"), Fixed(share, "%"),
                    Grouped(c.evaluations), Grouped(c.steps), Grouped(c.visited),
                    Grouped(c.index_probes), Grouped(c.index_picked), Bytes(c.bytes),
                    Grouped(c.findings)});
  }
  std::vector<size_t> width(head.size(), 0);
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  out << "profile: " << lines.size() << " rules, " << Fixed(static_cast<double>(total) / 1e6, " ms")
      << " of evaluation, one rule at a time; " << profile.shared_indexes
      << " join indexes shared between rules (the first rule to ask builds one)\n";
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      std::string pad(width[i] - row[i].size(), ' ');
      line += i == 0 ? row[i] + pad : "  " + pad + row[i];  // names left, figures right
    }
    out << line << '\n';
  }
}

}  // namespace

void WriteProfile(const eval::Profile& profile, ProfileFormat format, std::ostream& out) {
  std::vector<Line> lines = ByCost(profile);
  uint64_t total = 0;
  for (const auto& line : lines) total += line.second.nanos;
  if (format == ProfileFormat::kText) return WriteText(lines, total, profile, out);
  Json rules = Json::array();
  for (const auto& [rule, c] : lines) {
    rules.push_back(Json{{"rule", rule},
                         {"seconds", static_cast<double>(c.nanos) / 1e9},
                         {"evaluations", c.evaluations},
                         {"steps", c.steps},
                         {"visited", c.visited},
                         {"index_probes", c.index_probes},
                         {"index_picked", c.index_picked},
                         {"bytes_built", c.bytes},
                         {"findings", c.findings}});
  }
  out << Json{{"seconds", static_cast<double>(total) / 1e9},
              {"shared_indexes", profile.shared_indexes},
              {"rules", rules}}
             .dump(2)
      << '\n';
}

}  // namespace capops::report
