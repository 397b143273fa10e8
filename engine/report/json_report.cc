// SPDX-License-Identifier: Apache-2.0
// JSON reports, in the shape of DESIGN.md's output contract. Keys are
// written in a fixed order (nlohmann::ordered_json) so output is stable.
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/common/json_text.h"
#include "engine/report/report.h"

namespace capops::report {

namespace {

using Json = nlohmann::ordered_json;

Json Location(const SourceManager& sources, const SourceLoc& loc) {
  if (!loc.valid()) return nullptr;
  return Json{{"file", std::string(sources.ShownPath(loc.file))},
              {"line", loc.line},
              {"column", loc.column}};
}

// The edits that repair a finding or diagnostic (common/fix.h): each fix's
// description and replacements, located as findings are, with their byte
// span in the file as it was linted.
Json FixesJson(const SourceManager& sources, const std::vector<Fix>& fixes) {
  Json out = Json::array();
  for (const Fix& f : fixes) {
    Json replacements = Json::array();
    for (const Replacement& r : f.replacements) {
      replacements.push_back({{"file", std::string(sources.ShownPath(r.file))},
                              {"start", {{"line", r.begin.line}, {"column", r.begin.column}}},
                              {"end", {{"line", r.end.line}, {"column", r.end.column}}},
                              {"offset", r.offset},
                              {"length", r.length},
                              {"text", r.text}});
    }
    out.push_back({{"description", f.description}, {"replacements", std::move(replacements)}});
  }
  return out;
}

// A waived finding: who accepted it, why, until when, and the waiver's place.
Json SuppressionJson(const SourceManager& sources, const eval::Violation& v) {
  if (!v.suppression) return nullptr;
  const eval::Suppression& s = *v.suppression;
  return Json{{"kind", "waiver"},
              {"owner", s.owner},
              {"justification", s.justification},
              {"expires", s.expires},
              {"location", Location(sources, s.loc)}};
}

// The size of the problem the rule states (Violation::measure), or null.
Json MeasureJson(const Value& m) {
  return m.is(ValueKind::kNull) ? Json(nullptr) : Json::parse(ValueJson(m));
}

// A finding a baseline lists and that grew: what the baseline recorded; else null.
Json BaselineJson(const eval::Violation& v) {
  if (v.baseline_measure.is(ValueKind::kNull)) return nullptr;
  return Json{{"state", "worse"},
              {"measure", MeasureJson(v.baseline_measure)},
              {"note", eval::BaselineNote(v)}};
}

Json ViolationJson(const SourceManager& sources, const eval::Violation& v) {
  Json evidence = Json::array();
  for (const eval::Evidence& e : v.evidence) {
    Json binding = {{"name", e.name}, {"value", e.value}, {"location", Location(sources, e.loc)}};
    if (!e.shown.empty()) binding["shown"] = e.shown;  // "allocation `a-explore`"
    evidence.push_back(std::move(binding));
  }
  Json trace = Json::array();
  for (const eval::TraceStep& step : v.trace) {
    Json values = Json::array();
    for (const eval::TraceValue& t : step.values) {
      values.push_back({{"expr", t.expr},
                        {"value", t.value},
                        {"location", Location(sources, t.loc)},
                        {"fact_location", Location(sources, t.fact)}});
    }
    trace.push_back({{"clause", step.clause},
                     {"value", step.value},
                     {"location", Location(sources, step.loc)},
                     {"values", std::move(values)}});
  }
  Json labels = Json::array();
  for (const eval::Label& l : v.labels) {
    labels.push_back({{"message", l.message}, {"location", Location(sources, l.loc)}});
  }
  return Json{{"rule", v.rule_id},
              {"name", v.rule_name},
              {"severity", SeverityName(v.severity)},
              {"message", v.message},
              {"location", Location(sources, v.loc)},
              {"policy_location", Location(sources, v.policy_loc)},
              {"because", v.because},
              {"fix", v.fix},
              {"fixes", FixesJson(sources, v.fixes)},
              {"acquisition", Json::parse(AcquisitionJson(v))},
              {"evidence", std::move(evidence)},
              {"related", std::move(labels)},
              {"trace", std::move(trace)},
              {"params", Json::parse(ParamsJson(v))},
              {"suppression", SuppressionJson(sources, v)},
              {"measure", MeasureJson(v.measure)},
              {"baseline", BaselineJson(v)}};
}

Json DiagnosticJson(const SourceManager& sources, const Diagnostic& d) {
  Json related = Json::array();
  for (const RelatedLoc& r : d.related) {
    related.push_back({{"message", r.message}, {"location", Location(sources, r.loc)}});
  }
  return Json{{"code", d.code},
              {"severity", SeverityName(d.severity)},
              {"message", d.message},
              {"location", Location(sources, d.loc)},
              {"help", d.help},
              {"related", std::move(related)},
              {"fixes", FixesJson(sources, d.fixes)}};
}

Json DiagnosticsArray(const SourceManager& sources, const Diagnostics& diagnostics) {
  Json errors = Json::array();
  for (const Diagnostic& d : diagnostics.items()) errors.push_back(DiagnosticJson(sources, d));
  return errors;
}

Json ValueToJson(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kNull:
      return nullptr;
    case ValueKind::kBool:
      return v.bool_value();
    case ValueKind::kInt:
      return v.int_value();
    case ValueKind::kDouble: {
      // JSON has no NaN or infinity; they are written as protobuf's JSON writes them.
      double d = v.double_value();
      if (std::isnan(d)) return "NaN";
      if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
      return d;
    }
    case ValueKind::kError:
      return Json{{"error", v.string_value()}};
    case ValueKind::kList: {
      Json items = Json::array();
      for (const Value& item : v.items()) items.push_back(ValueToJson(item));
      return items;
    }
    case ValueKind::kNative:
      return ValueToJson(v.native()->Plain());
    case ValueKind::kMap: {
      Json object = Json::object();
      for (const auto& [key, value] : v.entries()) object[key] = ValueToJson(value);
      return object;
    }
    default:
      return v.ToString();  // strings, dates, durations, quantities
  }
}

}  // namespace

std::string ParamText(const eval::ParamUse& param) {
  return param.name + " = " + param.value.ToLiteral() + " (" + param.set_at + ")";
}

std::string ParamsJson(const eval::Violation& violation) {
  Json params = Json::array();
  if (violation.params) {
    for (const eval::ParamUse& p : *violation.params) {
      params.push_back({{"name", p.qualified},
                        {"value", Json::parse(ValueJson(p.value))},
                        {"set_at", p.set_at}});
    }
  }
  return JsonText(params);
}

std::string AcquisitionJson(const eval::Violation& violation) {
  if (!violation.acquisition) return "null";
  const eval::Acquisition& q = *violation.acquisition;
  auto text = [](const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); };
  return JsonText(Json{{"description", q.description},
                       {"gpus", q.gpus},
                       {"accelerator", q.accelerator},
                       {"region", text(q.region)},
                       {"service", text(q.service)},
                       {"window", {{"start", text(q.start)}, {"end", text(q.end)}}}});
}

std::string ValueJson(const Value& value) {
  return JsonText(ValueToJson(value));
}

std::string DiagnosticsJson(const SourceManager& sources, const Diagnostics& diagnostics) {
  return JsonText(DiagnosticsArray(sources, diagnostics));
}

void WriteJson(const SourceManager& sources, const eval::LintReport& report,
               const std::string& version, std::ostream& out) {
  Json violations = Json::array();
  for (const eval::Violation& v : report.violations)
    violations.push_back(ViolationJson(sources, v));
  Json errors = DiagnosticsArray(sources, report.errors);
  Counts c = CountFindings(report);
  Json doc = {{"version", version},
              {"ruleset_digest", report.ruleset_digest},
              {"violations", std::move(violations)},
              {"errors", std::move(errors)},
              {"summary",
               {{"files", report.files},
                {"plans", report.plans},
                {"rules", report.rules},
                {"violations", report.violations.size()},
                {"waived", static_cast<size_t>(std::count_if(
                               report.violations.begin(), report.violations.end(),
                               [](const auto& v) { return v.suppression.has_value(); }))},
                {"baselined", report.baselined},
                {"worse_than_baseline", CountWorse(report)},
                {"errors", c.errors},
                {"warnings", c.warnings},
                {"infos", c.infos}}}};
  // Invalid UTF-8 in a message is replaced rather than aborting the report.
  out << JsonText(doc, 2) << '\n';
}

}  // namespace capops::report
