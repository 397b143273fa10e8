// SPDX-License-Identifier: Apache-2.0
// Result cache entries: their keys, their seal and the JSON form of the
// findings they hold (the directory they live in is workspace/result_cache_dir).
#include "engine/lint/result_cache.h"

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/common/json_text.h"
#include "engine/common/sha256.h"

namespace capops::lint {

namespace {

using Json = nlohmann::json;

// Bumped whenever an entry's layout or meaning changes: older entries miss.
constexpr int kFormatVersion = 11;
constexpr const char* kMagic = "capops-cache";

#if defined(__GLIBCXX__) && defined(__x86_64__)
// A tripwire: a new field in a finding must be written and read below (and
// kFormatVersion bumped), or cached reports would silently lose it.
// Violation::params is not cached: the session names them again on every
// finding, cached or not (Engine::NameParams), so they follow the config.
// Nor is Violation::at_owners, which the lint run reads and clears, nor
// Label::value and Label::field, which it words the label's message with
// and clears, nor Violation::fixes and Violation::acquisition, which the
// project computes after the cache answers.
static_assert(sizeof(SourceLoc) == 12 && sizeof(eval::Evidence) == 112 &&
                  sizeof(eval::TraceValue) == 104 && sizeof(eval::Label) == 112 &&
                  sizeof(eval::TraceStep) == 104 && sizeof(eval::Violation) == 640 &&
                  sizeof(RelatedLoc) == 48 && sizeof(Diagnostic) == 168,
              "a finding changed shape: update result_cache.cc and bump kFormatVersion");
#endif

// A finding's measure, exactly: [kind, value] or [kind, amount, dimension]
// for a quantity; null for none (a baseline's measure is never cached: it
// is applied after the cache).
Json MeasureJson(const Value& m) {
  auto kind = static_cast<int>(m.kind());
  switch (m.kind()) {
    case ValueKind::kInt:
    case ValueKind::kDuration:
      return Json::array({kind, m.int_value()});
    case ValueKind::kDouble:
      return Json::array({kind, m.double_value()});
    case ValueKind::kQuantity:
      return Json::array(
          {kind, m.quantity_value().amount, static_cast<int>(m.quantity_value().dimension)});
    default:
      return nullptr;
  }
}

Value MeasureOf(const Json& j) {
  if (j.is_null()) return Value();
  switch (static_cast<ValueKind>(j.at(0).get<int>())) {
    case ValueKind::kInt:
      return Value::Int(j.at(1).get<int64_t>());
    case ValueKind::kDuration:
      return Value::Duration(j.at(1).get<int64_t>());
    case ValueKind::kDouble:
      return Value::Double(j.at(1).get<double>());
    case ValueKind::kQuantity: {
      int dimension = j.at(2).get<int>();
      if (dimension != static_cast<int>(Dimension::kBytes) &&
          dimension != static_cast<int>(Dimension::kBytesPerSecond))
        throw std::out_of_range("dimension");
      return Value::Quantity({j.at(1).get<int64_t>(), static_cast<Dimension>(dimension)});
    }
    default:
      throw std::out_of_range("measure");
  }
}

// Findings to JSON; files are numbered in a table as they are met.
class Encoder {
 public:
  explicit Encoder(const SourceManager& sources) : sources_(sources) {}

  Json Loc(const SourceLoc& loc) {
    int64_t file = -1;
    if (loc.file != kNoFile) {
      auto [it, added] = index_.emplace(loc.file, files_.size());
      if (added) files_.push_back(std::string(sources_.Path(loc.file)));
      file = static_cast<int64_t>(it->second);
    }
    return Json::array({file, loc.line, loc.column});
  }

  Json Violation(const eval::Violation& v) {
    Json evidence = Json::array(), labels = Json::array(), trace = Json::array();
    for (const eval::Evidence& e : v.evidence)
      evidence.push_back({e.name, e.value, Loc(e.loc), e.at_fact, e.shown});
    for (const eval::Label& l : v.labels) labels.push_back({Loc(l.loc), l.message});
    for (const eval::TraceStep& s : v.trace) {
      Json values = Json::array();
      for (const eval::TraceValue& t : s.values)
        values.push_back({t.expr, t.value, Loc(t.loc), Loc(t.fact), Loc(t.anchor)});
      trace.push_back({s.clause, s.value, Loc(s.loc), std::move(values)});
    }
    Json suppression = nullptr;
    if (const auto& s = v.suppression)
      suppression = {s->owner, s->justification, s->expires, Loc(s->loc)};
    return {
        {"rule", v.rule_id},
        {"name", v.rule_name},
        {"severity", static_cast<int>(v.severity)},
        {"message", v.message},
        {"loc", Loc(v.loc)},
        {"policy_loc", Loc(v.policy_loc)},
        {"because", v.because},
        {"fix", v.fix},
        {"evidence", evidence},
        {"labels", labels},
        {"trace", trace},
        {"suppression", suppression},
        {"statement", v.statement},
        {"subject", v.subject},
        {"via", Loc(v.via)},
        {"interval", v.interval ? Json::array({v.interval->start, v.interval->end,
                                               v.interval->start_offset, v.interval->end_offset})
                                : Json(nullptr)},
        {"measure", MeasureJson(v.measure)},
        {"measure_of", v.measure_of}};
  }

  Json Fixes(const std::vector<Fix>& fixes) {
    Json out = Json::array();
    for (const Fix& f : fixes) {
      Json edits = Json::array();
      for (const Replacement& r : f.replacements)
        edits.push_back({Loc(r.begin), Loc(r.end), r.offset, r.length, r.text});
      out.push_back({f.description, std::move(edits)});
    }
    return out;
  }

  Json Error(const Diagnostic& d) {
    Json related = Json::array();
    for (const RelatedLoc& r : d.related) related.push_back({Loc(r.loc), r.message});
    return {{"severity", static_cast<int>(d.severity)},
            {"loc", Loc(d.loc)},
            {"message", d.message},
            {"help", d.help},
            {"code", d.code},
            {"related", related},
            {"length", d.length},
            {"fixes", Fixes(d.fixes)}};
  }

  Json Of(const Findings& f) {
    Json violations = Json::array(), errors = Json::array();
    for (const eval::Violation& v : f.violations) violations.push_back(Violation(v));
    for (const Diagnostic& d : f.errors.items()) errors.push_back(Error(d));
    return {{"plans", f.plans}, {"violations", violations}, {"errors", errors}};
  }

  std::vector<std::string> files() const { return files_; }

 private:
  const SourceManager& sources_;
  std::map<FileId, size_t> index_;
  std::vector<std::string> files_;
};

// JSON back to findings; throws Json::exception (or std::out_of_range) on
// any deviation from what Encoder writes.
class Decoder {
 public:
  explicit Decoder(std::vector<FileId> files) : files_(std::move(files)) {}

  SourceLoc Loc(const Json& j) const {
    if (!j.is_array() || j.size() != 3) throw std::out_of_range("loc");
    int64_t file = j[0].get<int64_t>();
    FileId id = file < 0 ? kNoFile : files_.at(static_cast<size_t>(file));
    return SourceLoc{id, j[1].get<uint32_t>(), j[2].get<uint32_t>()};
  }

  static Severity Grade(const Json& j) {
    int s = j.get<int>();
    if (s < static_cast<int>(Severity::kInfo) || s > static_cast<int>(Severity::kError))
      throw std::out_of_range("severity");
    return static_cast<Severity>(s);
  }

  eval::Violation Violation(const Json& j) const {
    eval::Violation v;
    v.rule_id = j.at("rule").get<std::string>();
    v.rule_name = j.at("name").get<std::string>();
    v.severity = Grade(j.at("severity"));
    v.message = j.at("message").get<std::string>();
    v.loc = Loc(j.at("loc"));
    v.policy_loc = Loc(j.at("policy_loc"));
    v.because = j.at("because").get<std::string>();
    v.fix = j.at("fix").get<std::string>();
    v.statement = j.at("statement").get<std::string>();
    v.subject = j.at("subject").get<std::string>();
    v.via = Loc(j.at("via"));
    for (const Json& e : j.at("evidence"))
      v.evidence.push_back({e.at(0), e.at(1), Loc(e.at(2)), e.at(3).get<bool>(), e.at(4)});
    for (const Json& l : j.at("labels")) v.labels.push_back({Loc(l.at(0)), l.at(1)});
    for (const Json& s : j.at("trace")) {
      eval::TraceStep step{s.at(0), s.at(1), Loc(s.at(2)), {}};
      for (const Json& t : s.at(3))
        step.values.push_back({t.at(0), t.at(1), Loc(t.at(2)), Loc(t.at(3)), Loc(t.at(4))});
      v.trace.push_back(std::move(step));
    }
    const Json& s = j.at("suppression");
    if (!s.is_null()) v.suppression = eval::Suppression{s.at(0), s.at(1), s.at(2), Loc(s.at(3))};
    const Json& i = j.at("interval");
    if (!i.is_null()) {
      v.interval = eval::Interval{i.at(0).get<int64_t>(), i.at(1).get<int64_t>(),
                                  i.at(2).get<int16_t>(), i.at(3).get<int16_t>()};
    }
    v.measure = MeasureOf(j.at("measure"));
    v.measure_of = j.at("measure_of").get<std::string>();
    return v;
  }

  void Error(const Json& j, Diagnostics* into) const {
    Diagnostic& d =
        into->Add(Grade(j.at("severity")), Loc(j.at("loc")), j.at("message").get<std::string>());
    d.help = j.at("help").get<std::string>();
    d.code = j.at("code").get<std::string>();
    for (const Json& r : j.at("related")) d.related.push_back({Loc(r.at(0)), r.at(1)});
    d.length = j.at("length").get<uint32_t>();
    for (const Json& f : j.at("fixes")) {
      Fix fix{f.at(0).get<std::string>(), {}};
      for (const Json& r : f.at(1)) {
        SourceLoc begin = Loc(r.at(0));
        fix.replacements.push_back({begin.file, begin, Loc(r.at(1)), r.at(2).get<uint32_t>(),
                                    r.at(3).get<uint32_t>(), r.at(4).get<std::string>()});
      }
      d.fixes.push_back(std::move(fix));
    }
  }

  Findings Of(const Json& j) const {
    Findings f;
    f.plans = j.at("plans").get<size_t>();
    for (const Json& v : j.at("violations")) f.violations.push_back(Violation(v));
    for (const Json& e : j.at("errors")) Error(e, &f.errors);
    return f;
  }

 private:
  std::vector<FileId> files_;
};

}  // namespace

std::string EncodeEntry(const CacheEntry& entry, const SourceManager& sources) {
  Encoder encoder(sources);
  Json main = encoder.Of(entry.main);
  Json solo = entry.solo ? encoder.Of(*entry.solo) : Json(nullptr);
  Json out = {{"files", encoder.files()}, {"main", std::move(main)}, {"solo", std::move(solo)}};
  return JsonText(out);
}

bool DecodeEntry(std::string_view text, const FileResolver& resolve, CacheEntry* entry) {
  try {
    Json j = Json::parse(text);
    std::vector<FileId> files;
    for (const Json& path : j.at("files")) {
      std::optional<FileId> id = resolve(path.get<std::string>());
      if (!id) return false;
      files.push_back(*id);
    }
    Decoder decoder(std::move(files));
    entry->main = decoder.Of(j.at("main"));
    entry->solo.reset();
    if (!j.at("solo").is_null()) entry->solo = decoder.Of(j.at("solo"));
    return true;
  } catch (const std::exception&) {  // Json::exception, or std::out_of_range from a bad index
    return false;
  }
}

CacheKeys::CacheKeys(const Engine& engine, const LintOptions& lint) {
  const EngineOptions& o = engine.options();
  Sha256 h;
  h.Add(kMagic)
      .Add(static_cast<size_t>(kFormatVersion))
      .Add(CAPOPS_VERSION)
      .Add(engine.ruleset_digest());
  // Every option that can change a finding; `jobs` and the like cannot.
  for (size_t limit :
       {o.parse.max_file_bytes, o.parse.max_depth, o.parse.max_errors, o.facts.max_file_bytes,
        o.facts.max_depth, o.facts.max_nodes, o.facts.max_documents, o.facts.max_string_length,
        o.eval.max_errors_per_rule, o.eval.max_violations_per_rule}) {
    h.Add(limit);
  }
  h.Add(std::to_string(o.eval.max_steps)).Add(std::to_string(o.eval.max_memory));
  h.Add(lint.trace ? "trace" : "no-trace");
  h.Add(o.optimize ? "planned" : "as-written");
  // Rules not evaluated find nothing: a run that enables one must not reuse
  // an entry stored without it.
  h.Add(lint.skip_rules.size());
  for (const std::string& id : lint.skip_rules) h.Add(id);
  // The policy texts: the digest ignores layout and file names, but
  // findings point into the policies by line and column.
  const SourceManager& sources = engine.sources();
  h.Add(sources.size());
  for (FileId f = 0; f < sources.size(); ++f)
    h.Add(sources.file(f).path()).Add(sources.file(f).text());
  context_ = h.Hex();
}

std::string CacheKeys::InventoryDigest(const std::vector<TextFile>& inventories) const {
  Sha256 h;
  h.Add("inventories").Add(inventories.size());
  for (const TextFile& f : inventories) h.Add(f.path).Add(f.text);
  return h.Hex();
}

std::string CacheKeys::PlanKey(const std::string& inventory_digest, const TextFile& plan) const {
  return Sha256()
      .Add("plan")
      .Add(context_)
      .Add(inventory_digest)
      .Add(plan.path)
      .Add(plan.text)
      .Hex();
}

std::string CacheKeys::GroupKey(const std::vector<std::string>& plan_keys) const {
  Sha256 h;
  h.Add("group").Add(context_).Add(plan_keys.size());
  for (const std::string& k : plan_keys) h.Add(k);
  return h.Hex();
}

std::string SealEntry(const std::string& key, std::string_view body) {
  return fmt::format("{} {} {} {}\n", kMagic, kFormatVersion, key, Sha256().Add(body).Hex()) +
         std::string(body);
}

std::optional<std::string_view> UnsealEntry(const std::string& key, std::string_view text) {
  size_t newline = text.find('\n');
  if (newline == std::string_view::npos) return std::nullopt;
  std::string_view body = text.substr(newline + 1);
  if (SealEntry(key, body) != text) return std::nullopt;
  return body;
}

}  // namespace capops::lint
