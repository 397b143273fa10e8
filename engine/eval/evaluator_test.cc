// SPDX-License-Identifier: Apache-2.0
#include "engine/eval/evaluator.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

#include "engine/common/units.h"
#include "engine/eval/memo.h"
#include "engine/eval/shared_indexes.h"
#include "tests/support/fixture.h"

namespace capops::eval {
namespace {

using testing::CompilePolicy;
using testing::Lines;
using testing::LintText;
using testing::Messages;

const char* kPlan = R"(apiVersion: capops.dev/v1
kind: CapacityPlan
demands:
  - {id: explore, slice: exploration, gpus: 2}
  - {id: train, slice: training, gpus: 16, window: {start: 2027-04-12, duration: 5d}}
allocations:
  - {id: a1, demand: explore, pool: p-spare, gpus: 2}
  - {id: a2, demand: train, pool: p-research, gpus: 16}
  - {id: a3, demand: train, pool: p-missing, gpus: 4}
dataset: {size: 40TB, bandwidth: 5GB/s, memory: 80GiB}
)";

const char* kInventory = R"(apiVersion: capops.dev/v1
kind: Inventory
pools:
  - {id: p-spare, role: production-replacement, gpus: 4}
  - {id: p-research, role: research, gpus: 16}
)";

// The value of `expr` as a violation message would show it, or "error: …",
// checked with the schema when `typed`, against `plan` and `inventory`.
std::string ValueIn(const std::string& expr, bool typed, const char* plan, const char* inventory) {
  auto c = CompilePolicy("@id(\"T\") rule r {\n  let v = " + expr + "\n  deny \"{v}\"\n}\n", typed);
  if (!c->ok) return "compile error: " + c->diagnostics[0].message;
  LintReport r = LintText(*c, plan, inventory);
  if (!r.errors.empty())
    return "error: " + r.errors[0].message.substr(r.errors[0].message.find(": ") + 2);
  REQUIRE(r.violations.size() == 1);
  return r.violations[0].message;
}

std::string ValueOf(const std::string& expr) {
  return ValueIn(expr, false, kPlan, kInventory);
}

TEST_CASE("arithmetic and comparison", "[eval]") {
  CHECK(ValueOf("1 + 2 * 3") == "7");
  CHECK(ValueOf("7 / 2") == "3");
  CHECK(ValueOf("7 % 3") == "1");
  CHECK(ValueOf("1.5 * 2") == "3");
  CHECK(ValueOf("'a' + 'b'") == "ab");
  CHECK(ValueOf("[1] + [2]") == "[1, 2]");
  CHECK(ValueOf("1 / 0") == "error: division by zero");
  CHECK(ValueOf("9223372036854775807 + 1") == "error: integer overflow");
  CHECK(ValueOf("1 < 2 && 'a' < 'b'") == "true");
  CHECK(ValueOf("plan.demands[0].gpus < plan.demands[0].slice") ==
        "error: cannot compare int with string");
  CHECK(ValueOf("1 == 1.0") == "true");
  CHECK(ValueOf("plan.demands[0].gpus == plan.demands[0].slice") == "false");
  CHECK(ValueOf("2 in [1, 2]") == "true");
  CHECK(ValueOf("'gpus' in plan.demands[0]") == "true");
  CHECK(ValueOf("true ? 1 : 2") == "1");
}

TEST_CASE("quantities, durations and dates with units", "[eval]") {
  CHECK(ValueOf("80GiB == 85899345920B") == "true");
  CHECK(ValueOf("plan.dataset.memory == 80GiB") == "true");
  CHECK(ValueOf("plan.dataset.size / plan.dataset.bandwidth") == "2h13m20s");
  CHECK(ValueOf("40TB + 24GiB") == "40025769803776B");
  CHECK(ValueOf("80GiB * 2") == "160GiB");
  CHECK(ValueOf("80GiB / 40GiB") == "2");
  CHECK(ValueOf("80GiB > 40TB") == "false");
  CHECK(ValueOf("plan.dataset.memory + plan.dataset.bandwidth") ==
        "error: no operator `+` for bytes and bytes/s");
  CHECK(ValueOf("plan.dataset.memory < plan.dataset.bandwidth") ==
        "error: cannot compare bytes with bytes/s");
  CHECK(ValueOf("plan.demands[1].window.start + plan.demands[1].window.duration") == "2027-04-17");
  CHECK(ValueOf("2027-04-26 - 2027-04-12") == "14d");
  CHECK(ValueOf("2027-04-12 + 8h") == "2027-04-12T08:00Z");
  CHECK(ValueOf("2027-04-12 + 8h - 8h") == "2027-04-12");
  CHECK(ValueOf("5d > 36h") == "true");
  CHECK(ValueOf("1d12h * 2") == "3d");
}

TEST_CASE("date-times: exact arithmetic, comparison by instant, printing as written", "[eval]") {
  // A date moves to the second and keeps the offset it was written at.
  CHECK(ValueOf("2027-04-20T09:00+02:00 + 8h") == "2027-04-20T17:00+02:00");
  CHECK(ValueOf("2027-04-20T09:00+02:00 + 90m") == "2027-04-20T10:30+02:00");
  CHECK(ValueOf("2027-04-20T23:00-05:00 + 1d12h") == "2027-04-22T11:00-05:00");
  CHECK(ValueOf("2027-04-20T09:00:00Z - 1s") == "2027-04-20T08:59:59Z");
  CHECK(ValueOf("2027-04-20T17:30Z - 2027-04-20T09:00Z") == "8h30m");
  CHECK(ValueOf("2027-04-20T09:00Z - 2027-04-20T17:30Z") == "-8h30m");
  // Across offsets, by instant.
  CHECK(ValueOf("2027-04-12T23:00+02:00 < 2027-04-12T22:00Z") == "true");
  CHECK(ValueOf("2027-04-12T23:00+02:00 == 2027-04-12T21:00Z") == "true");
  CHECK(ValueOf("2027-04-12 == 2027-04-12T02:00+02:00") == "true");
  CHECK(ValueOf("2027-04-12 < 2027-04-12T00:00:01Z") == "true");
  CHECK(ValueOf("max([2027-04-12T23:00+02:00, 2027-04-12T22:00Z])") == "2027-04-12T22:00Z");
  CHECK(ValueOf("[2027-04-12T02:00+02:00, 2027-04-12].distinct()") == "[2027-04-12T02:00+02:00]");
  // Leap days, and a change of daylight saving time as its writer's offsets say.
  CHECK(ValueOf("2028-03-01 - 2028-02-28") == "2d");
  CHECK(ValueOf("2027-03-01 - 2027-02-28") == "1d");
  CHECK(ValueOf("2027-03-28T12:00+02:00 - 2027-03-27T12:00+01:00") == "23h");
  // Out of the range of dates, and a literal time without its offset.
  CHECK(ValueOf("9999-12-31 + 2000000000000000s") ==
        "error: date out of range: 9999-12-31 + 23148148148d3h33m20s");
  CHECK(ValueOf("2027-04-20T09:00 + 8h") ==
        "compile error: `2027-04-20T09:00`: a time needs a UTC offset, such as `Z` or `+02:00`");
  CHECK(ValueOf("2027-04-20T25:00Z") ==
        "compile error: `2027-04-20T25:00Z` is not a valid time: the hour runs from 00 to 23");
}

TEST_CASE("keyed lookup by id, and dangling references fail closed", "[eval]") {
  CHECK(ValueOf("plan.demands['train'].gpus") == "16");
  CHECK(ValueOf("inventory.pools[plan.allocations[0].pool].role") == "production-replacement");
  CHECK(ValueOf("plan.demands['nope']") == "error: no item with id `nope` in `plan.demands`");
  CHECK(ValueOf("plan.demands[5]") == "error: index 5 is out of range");
}

TEST_CASE("missing fields are errors with did-you-mean, has() tests presence", "[eval]") {
  CHECK(ValueOf("plan.demands[0].gpu") ==
        "error: `explore` has no field `gpu` (did you mean `gpus`?)");
  CHECK(ValueOf("has(plan.demands[0].window)") == "false");
  CHECK(ValueOf("has(plan.demands[1].window)") == "true");
  CHECK(ValueOf("plan.demands[0].gpus.x") == "error: cannot read field `x` of int");
}

TEST_CASE("conditional list elements are kept only when their condition holds", "[eval]") {
  CHECK(ValueOf("['a' if true, 'b' if false, 'c']") == "[a, c]");
  CHECK(ValueOf("['a' if false, 'b' if false]") == "[]");
  CHECK(ValueOf("[d.id if has(d.window), d.slice]") == "compile error: unknown name `d`");
  CHECK(ValueOf("plan.demands.map(d, [d.id if has(d.window)]).map(l, l.size())") == "[0, 1]");
  // The element is not evaluated when its condition is false; an error in
  // the condition is the list's error; so is a condition that is no bool.
  CHECK(ValueOf("[plan.demands[0].window.start if has(plan.demands[0].window)]") == "[]");
  CHECK(ValueOf("[1 if plan.nope]").rfind("error: ", 0) == 0);
  CHECK(ValueOf("[1 if plan.demands[0].gpus]") ==
        "error: the condition of a list element must be a bool, not int");
  CHECK(ValueOf("{'x' if true}") ==
        "compile error: cannot parse `{`x` if`");  // sets have no conditional elements
}

TEST_CASE("let inside an expression binds a value for its body", "[eval]") {
  CHECK(ValueOf("let x = 2; x * x") == "4");
  CHECK(ValueOf("[1, 2, 3].map(a, let b = a * 10; b + a)") == "[11, 22, 33]");
  CHECK(ValueOf("[1, 2].map(a, let b = a; [3, 4].map(c, let e = b * c; e))") == "[[3, 4], [6, 8]]");
  CHECK(ValueOf("cel.bind(y, 'ab', y + y)") == "abab");
  CHECK(ValueOf("plan.demands.map(d, let w = d.?window; w.hasValue())") == "[false, true]");
  // The value is bound as it is: an error only when the body reads it.
  CHECK(ValueOf("let x = 1 / 0; 3") == "3");
  CHECK(ValueOf("let x = 1 / 0; x + 1") == "error: division by zero");
  CHECK(ValueOf("let x = 1 / 0; false && x > 1") == "false");
  // Rebound on each item, including under a remembered comprehension.
  CHECK(ValueOf("[1, 2, 1].map(a, let b = a + 1; [1, 2, 3].filter(c, c > b).size())") ==
        "[1, 0, 1]");
}

TEST_CASE("optional selection: a.?b, orValue and hasValue", "[eval]") {
  CHECK(ValueOf("plan.demands[0].?window.hasValue()") == "false");
  CHECK(ValueOf("plan.demands[1].?window.hasValue()") == "true");
  CHECK(ValueOf("plan.demands[1].?window.?duration.orValue(1d)") == "5d");
  CHECK(ValueOf("plan.demands[0].?window.?duration.orValue(1d)") ==
        "1d");  // none stays none along a chain
  CHECK(ValueOf("plan.demands[1].?window.?end.orValue(2027-01-01)") == "2027-01-01");
  CHECK(ValueOf("plan.?dataset.?size.orValue(0B)") == "40TB");
  CHECK(ValueOf("(true ? plan.demands[1].?gpus : plan.demands[0].?gpus).orValue(0)") == "16");
  CHECK(ValueOf("plan.demands[0].gpus.?x.hasValue()") == "error: cannot read field `x` of int");
  CHECK(ValueOf("plan.?nope.orValue(plan.nope2)").rfind("error: ", 0) ==
        0);  // the default is evaluated
  CHECK(ValueOf("plan.demands[0].?gpus") ==
        "compile error: `v` is `optional<any>` where a value is needed");
}

TEST_CASE("&& and || short-circuit and absorb errors like CEL", "[eval]") {
  CHECK(ValueOf("false && plan.nope") == "false");
  CHECK(ValueOf("plan.nope && false") == "false");
  CHECK(ValueOf("true || plan.nope") == "true");
  CHECK(ValueOf("plan.nope || true") == "true");
  CHECK(ValueOf("true && plan.nope").rfind("error: ", 0) == 0);
  CHECK(ValueOf("plan.demands[0].gpus && true") == "error: `&&` needs bools, not int");
  CHECK(ValueOf("!plan.demands[0].gpus") == "error: `!` needs a bool, not int");
}

TEST_CASE("macros and aggregates", "[eval]") {
  CHECK(ValueOf("plan.allocations.all(a, a.gpus > 1)") == "true");
  CHECK(ValueOf("plan.allocations.exists(a, a.gpus > 10)") == "true");
  CHECK(ValueOf("plan.allocations.exists_one(a, a.gpus > 3)") == "false");
  CHECK(ValueOf("plan.allocations.filter(a, a.gpus > 3).map(a, a.id)") == "[a2, a3]");
  CHECK(ValueOf("plan.allocations.map(a, a.gpus > 3, a.gpus * 2)") == "[32, 8]");
  CHECK(ValueOf("sum(plan.allocations.map(a, a.gpus))") == "22");
  CHECK(ValueOf("plan.allocations.map(a, a.gpus).max()") == "16");
  CHECK(ValueOf("min([3d, 5h])") == "5h");
  CHECK(ValueOf("count(plan.demands)") == "2");
  CHECK(ValueOf("sum([])") == "0");
  CHECK(ValueOf("max([])") == "error: `max` of an empty list");
  // An error in one element does not matter when another decides `exists`.
  CHECK(ValueOf("[plan.demands[0].gpus, plan.demands[0].slice].exists(x, x > 0)") == "true");
  CHECK(ValueOf("[plan.demands[0].gpus, plan.demands[0].slice].all(x, x > 0)") ==
        "error: cannot compare string with int");
  CHECK(ValueOf("{'a': 1}.all(k, k == 'a')") == "true");
  CHECK(ValueOf("plan.allocations.all(x, x.gpus)") ==
        "error: the condition of `all` must be a bool, not int");
}

TEST_CASE("user functions run in their own frame", "[eval]") {
  auto c = CompilePolicy(R"(fn overlap(a: int, b: int, c: int, d: int): bool = a < d && c < b
fn total(xs: list<int>): int = sum(xs.map(x, x * 2))
@id("F") rule r {
  let v = overlap(1, 5, 4, 9) && !overlap(1, 2, 3, 4) && total([1, 2, 3]) == 12
  deny "{v}"
}
)",
                         false);
  REQUIRE(testing::Lines(c->diagnostics) == std::vector<std::string>{});
  LintReport r = LintText(*c, kPlan, kInventory);
  CHECK(Messages(r) == std::vector<std::string>{"true"});
}

TEST_CASE("string functions and regular expressions", "[eval]") {
  CHECK(ValueOf("'h100-80'.startsWith('h100')") == "true");
  CHECK(ValueOf("'h100-80'.matches('^h[0-9]+-80$')") == "true");
  // A literal pattern is checked at compile time; a computed one when it runs.
  CHECK(ValueOf("'abc'.matches('(')").rfind("compile error: invalid regular expression `(`", 0) ==
        0);
  CHECK(ValueOf("'abc'.matches(plan.demands[0].slice + '(')")
            .rfind("error: invalid regular expression `exploration(`", 0) == 0);
  CHECK(ValueOf("size('héllo')") == "5");
  CHECK(ValueOf("'AbC'.lowerAscii()") == "abc");
  CHECK(ValueOf("['a', 'b'].join('+')") == "a+b");
  CHECK(ValueOf("int('42') + 1") == "43");
  CHECK(ValueOf("string(5d)") == "5d");
}

TEST_CASE("a finding over computed values still shows the located fact it is about", "[eval]") {
  auto c = CompilePolicy(R"(@id("T-GOV") rule decision {
  let missing = ["size" if !has(plan.dataset.size), "slices" if size(plan.demands) > 0]
  where size(missing) > 0
  deny at plan.dataset "misses {missing.join(', ')}"
}
@id("T-BOUND") rule bound {
  for d in plan.demands
  deny at d.slice "{d.id}"
}
)",
                         false);
  REQUIRE(testing::Lines(c->diagnostics) == std::vector<std::string>{});
  LintReport r = LintText(*c, kPlan, kInventory);
  auto v = std::find_if(r.violations.begin(), r.violations.end(),
                        [](const Violation& x) { return x.rule_id == "T-GOV"; });
  CHECK(Lines(r.errors) == std::vector<std::string>{});
  REQUIRE(v != r.violations.end());
  REQUIRE(v->evidence.size() == 2);
  CHECK(v->evidence[0].name == "plan.dataset");
  CHECK(v->evidence[0].at_fact);
  CHECK(v->evidence[0].loc == v->loc);
  CHECK(v->evidence[0].loc.valid());
  CHECK(v->evidence[1].name == "missing");
  CHECK_FALSE(v->evidence[1].loc.valid());
  // A bound fact already shows where the finding is: nothing is added.
  for (const Violation& x : r.violations) {
    if (x.rule_id != "T-BOUND") continue;
    REQUIRE(x.evidence.size() == 1);
    CHECK(x.evidence[0].name == "d");
    CHECK_FALSE(x.evidence[0].at_fact);
  }
}

TEST_CASE("a rule yields a located violation per satisfying binding", "[eval]") {
  auto c = CompilePolicy(R"(@id("T-ALC") rule replacement {
  for a in plan.allocations
  let d = plan.demands[a.demand]
  where d.slice in research
  let p = inventory.pools[a.pool]
  where p.role == production_replacement
  deny at a.pool "`{a.id}` uses `{p.id}`" because "b" fix "f"
}
param research: set<Slice> = {exploration, training}
)",
                         false);
  REQUIRE(testing::Lines(c->diagnostics) == std::vector<std::string>{});
  LintReport r = LintText(*c, kPlan, kInventory);
  REQUIRE(Messages(r) == std::vector<std::string>{"`a1` uses `p-spare`"});
  const Violation& v = r.violations[0];
  CHECK(v.rule_id == "T-ALC");
  CHECK(v.loc.line == 7);
  CHECK(v.loc.column == 37);
  CHECK(v.because == "b");
  CHECK(v.fix == "f");
  REQUIRE(v.evidence.size() == 3);
  CHECK(v.evidence[0].name == "a");
  CHECK(v.evidence[0].value == "a1");
  CHECK(v.evidence[2].value == "p-spare");
  CHECK(v.evidence[2].loc.line == 4);
  // a3's pool does not exist: a located rule error, not a silent pass.
  REQUIRE(Lines(r.errors) ==
          std::vector<std::string>{
              "9:35: rule `T-ALC` could not be evaluated: no item with id `p-missing` in "
              "`inventory.pools`"});
  CHECK(r.errors[0].code == "T-ALC");
  REQUIRE(r.errors[0].related.size() == 1);
  CHECK(r.errors[0].related[0].loc.line == 5);
}

TEST_CASE("warn statements, when guards and traces", "[eval]") {
  auto c = CompilePolicy(R"(@id("T-W") rule big {
  for a in plan.allocations
  where a.gpus > 3
  warn when a.gpus > 10 at a.gpus "{a.id} is big"
  deny when a.gpus <= 10 "{a.id} is medium"
}
)",
                         false);
  REQUIRE(testing::Lines(c->diagnostics) == std::vector<std::string>{});
  LintOptions traced;
  traced.trace = true;
  LintReport r = LintText(*c, kPlan, kInventory, traced);
  REQUIRE(Messages(r) == std::vector<std::string>{"a2 is big", "a3 is medium"});
  CHECK(r.violations[0].severity == Severity::kWarning);
  CHECK(r.violations[1].severity == Severity::kError);
  // Without `at`, the violation points at the loop item.
  CHECK(r.violations[1].loc.line == 9);
  CHECK(r.violations[1].loc.column == 5);
  // The trace: the `where`, then the `when` of the statement that fired.
  REQUIRE(r.violations[0].trace.size() == 2);
  const TraceStep& step = r.violations[0].trace[0];
  CHECK(step.clause == "where a.gpus > 3");
  REQUIRE(step.values.size() == 3);
  CHECK(step.values[1].expr == "a.gpus");
  CHECK(step.values[1].value == "16");
  CHECK(step.values[1].fact.line == 8);
  CHECK(r.violations[0].trace[1].clause == "warn when a.gpus > 10");
  CHECK(r.violations[0].trace[1].value == "true");
}

TEST_CASE("traces show optionals as CEL writes them, and only the list elements kept", "[eval]") {
  auto c = CompilePolicy(R"(@id("T-O") rule windows {
  for d in plan.demands
  where d.?window.?duration.orValue(0d) > 1d || ['x' if d.gpus > 100, 'y'].size() > 5
  deny at d.id "{d.id}"
}
)",
                         false);
  REQUIRE(testing::Lines(c->diagnostics) == std::vector<std::string>{});
  LintOptions traced;
  traced.trace = true;
  LintReport r = LintText(*c, kPlan, kInventory, traced);
  REQUIRE(Messages(r) == std::vector<std::string>{"train"});
  REQUIRE(r.violations[0].trace.size() == 1);
  std::vector<std::string> shown;
  for (const TraceValue& v : r.violations[0].trace[0].values)
    shown.push_back(v.expr + " = " + v.value);
  CHECK(std::find(shown.begin(), shown.end(), "d.?window.?duration = optional.of(5d)") !=
        shown.end());
  CHECK(std::find(shown.begin(), shown.end(), "d.?window.?duration.orValue(0d) = 5d") !=
        shown.end());
  // A none, and a list that left an element out, as a trace shows them.
  auto none = CompilePolicy(R"(@id("T-N") rule none {
  for d in plan.demands
  where !d.?window.hasValue()
  where ['x' if d.gpus > 100, 'y'].size() == 1
  deny at d.id "{d.id}"
}
)",
                            false);
  r = LintText(*none, kPlan, kInventory, traced);
  REQUIRE(Messages(r) == std::vector<std::string>{"explore"});
  shown.clear();
  for (const TraceStep& step : r.violations[0].trace) {
    for (const TraceValue& v : step.values) shown.push_back(v.expr + " = " + v.value);
  }
  CHECK(std::find(shown.begin(), shown.end(), "d.?window = optional.none()") != shown.end());
  CHECK(std::find(shown.begin(), shown.end(), "d.gpus > 100 = false") != shown.end());
  CHECK(std::find(shown.begin(), shown.end(), "['x' if d.gpus > 100, 'y'] = [\"y\"]") !=
        shown.end());
}

TEST_CASE("a let-bound optional is evidence as CEL writes it", "[eval]") {
  auto c = CompilePolicy(R"(@id("T-L") rule lets {
  for d in plan.demands
  let w = d.?window
  let days = w.?duration
  deny at d.id "{d.id}"
}
)",
                         false);
  LintReport r = LintText(*c, kPlan, kInventory);
  REQUIRE(r.violations.size() == 2);
  std::vector<std::string> evidence;
  for (const Violation& v : r.violations) {
    for (const Evidence& e : v.evidence) evidence.push_back(e.name + " = " + e.value);
  }
  CHECK(evidence == std::vector<std::string>{"d = explore", "w = optional.none()",
                                             "days = optional.none()", "d = train",
                                             "w = optional.of({start: 2027-04-12, duration: 5d})",
                                             "days = optional.of(5d)"});
}

// A comprehension's body is evaluated once per item; a label is due to the
// item `exists` or `all` stopped at, not to those it went past, while one
// that went through every item rests on each of them. Untyped facts have
// no records to name a value by: a label names its path in the document.
TEST_CASE("labels show the witness of a comprehension, not the items before it", "[eval]") {
  auto labels_of = [](const std::string& condition) {
    auto c = CompilePolicy(
        "@id(\"T-L\") rule r {\n  for d in plan.demands\n  where d.id == \"train\"\n  where " +
            condition + "\n  deny at d.id \"{d.id}\"\n}\n",
        false);
    REQUIRE(testing::Lines(c->diagnostics) == std::vector<std::string>{});
    LintReport r = LintText(*c, kPlan, kInventory);
    REQUIRE(r.violations.size() == 1);
    std::vector<std::string> out;
    for (const Label& l : r.violations[0].labels)
      out.push_back(std::to_string(l.loc.line) + ": " + l.message);
    return out;
  };
  // The bounds read `d` so that the comprehension is evaluated (and traced)
  // for the binding rather than remembered. a1 (line 7) was looked at and
  // passed over; a2 (line 8) is the witness.
  CHECK(labels_of("plan.allocations.exists(b, b.gpus > size(d.id) + 4)") ==
        std::vector<std::string>{"8: `allocations[a2].gpus` is 16"});
  CHECK(labels_of("!plan.allocations.all(b, b.gpus < size(d.id) + 4)") ==
        std::vector<std::string>{"8: `allocations[a2].gpus` is 16"});
  // No allocation has 100 GPUs: each of them is a reason.
  CHECK(labels_of("!plan.allocations.exists(b, b.gpus >= size(d.id) * 20)") ==
        std::vector<std::string>{"7: `allocations[a1].gpus` is 2",
                                 "8: `allocations[a2].gpus` is 16",
                                 "9: `allocations[a3].gpus` is 4"});
}

TEST_CASE("non-bool where, non-list for and budget overruns are rule errors", "[eval]") {
  auto c = CompilePolicy(R"(@id("T-1") rule a { for d in plan.demands where d.gpus deny "x" }
@id("T-2") rule b { for d in plan.dataset deny "x" }
@id("T-3") rule c {
  for a in plan.allocations for b in plan.allocations for x in plan.allocations
  where [1,2,3,4,5,6,7,8,9,10].map(i, [1,2,3,4,5,6,7,8,9,10].map(j, i * j * (a.gpus + b.gpus + x.gpus))).size() < 0
  deny "x"
}
)",
                         false);
  REQUIRE(c->ok);
  c->engine.options().eval.max_steps = 5000;
  LintReport r = LintText(*c, kPlan, kInventory);
  CHECK(r.violations.empty());
  // Policy-located errors (file 1) sort before fact-located ones (plan.yaml).
  CHECK(Lines(r.errors) ==
        std::vector<std::string>{
            "5:9: rule `T-3` could not be evaluated: evaluation budget of 5000 steps exceeded",
            "4:45: rule `T-1` could not be evaluated: `where` needs a bool, not int",
            "5:40: rule `T-1` could not be evaluated: `where` needs a bool, not int",
            "10:10: rule `T-2` could not be evaluated: `for` needs a list, not map"});
}

TEST_CASE("skipped rules are not evaluated: no findings, no rule errors", "[eval]") {
  auto c = CompilePolicy(R"(@id("T-1") rule a { for d in plan.demands where d.gpus deny "x" }
@id("T-2") rule b { for a in plan.allocations deny "{a.id}" }
)",
                         false);
  REQUIRE(c->ok);
  LintReport all = LintText(*c, kPlan, kInventory);
  REQUIRE_FALSE(all.errors.empty());  // T-1 fails on every demand
  REQUIRE_FALSE(all.violations.empty());
  LintOptions skip;
  skip.skip_rules = {"T-1"};
  LintReport some = LintText(*c, kPlan, kInventory, skip);
  CHECK(some.errors.empty());
  CHECK(Messages(some) == Messages(all));
  skip.skip_rules = {"T-1", "T-2"};
  CHECK(LintText(*c, kPlan, kInventory, skip).violations.empty());
}

TEST_CASE("rules sharing a pass over a list find what each finds alone", "[eval]") {
  auto c = CompilePolicy(R"(@id("T-1") rule a { for a in plan.allocations deny "{a.id}" }
@id("T-2") rule b {
  for a in plan.allocations
  let p = inventory.pools[a.pool]
  where p.gpus < a.gpus * 4
  deny at a.gpus "{a.id} on {p.id}"
}
@id("T-3") rule c { for d in plan.demands where d.gpus deny "x" }
@id("T-4") rule d { for a in plan.allocations for b in plan.allocations where a.id < b.id deny "{a.id} {b.id}" }
@id("T-5") rule e { let n = size(plan.allocations) for a in plan.allocations where n > 2 deny "{a.id} of {n}" }
)",
                         false);
  REQUIRE(c->ok);
  Engine& engine = c->engine;
  engine.options().eval.max_violations_per_rule = 2;  // T-4 and T-1 stop early
  eval::Facts facts;
  Diagnostics problems;
  REQUIRE(engine.LoadFacts({{"plan.yaml", kPlan}}, {{"inventory.yaml", kInventory}}, &facts,
                           &problems));
  EvalOptions options = engine.options().eval;
  options.plan = engine.plan();
  std::vector<size_t> rules = {0, 1, 2, 3, 4};
  std::vector<EvalResult> together =
      EvaluateRules(*engine.program(), rules, engine.params(), facts, engine.sources(), options);
  REQUIRE(together.size() == rules.size());
  for (size_t r : rules) {
    INFO(engine.program()->rules[r].id);
    EvalResult alone =
        EvaluateRule(*engine.program(), r, engine.params(), facts, engine.sources(), options);
    std::vector<std::string> together_messages, alone_messages;
    for (const Violation& v : together[r].violations) together_messages.push_back(v.message);
    for (const Violation& v : alone.violations) alone_messages.push_back(v.message);
    CHECK(together_messages == alone_messages);
    CHECK(Lines(together[r].errors) == Lines(alone.errors));
  }
  CHECK(together[0].violations.size() == 2);  // capped, in the shared pass too
  CHECK_FALSE(together[2].errors.empty());    // T-3's rule errors
}

// An evaluation reports its work as the expressions it evaluated: the same
// for the same facts, planned or not, and in proportion for more items.
TEST_CASE("an evaluation counts the expressions it evaluates", "[eval]") {
  auto c = CompilePolicy(R"(@id("T") rule r {
  for a in plan.allocations
  where a.gpus > 2
  deny "{a.id}"
}
)",
                         false);
  REQUIRE(c->ok);
  auto steps = [&](int allocations, bool planned) {
    std::string plan =
        "apiVersion: capops.dev/v1\nkind: CapacityPlan\ndemands:\n  - {id: d, gpus: "
        "1}\nallocations:\n";
    for (int i = 0; i < allocations; ++i) {
      plan += "  - {id: a" + std::to_string(i) +
              ", demand: d, pool: p-spare, gpus: " + std::to_string(i) + "}\n";
    }
    Facts facts;
    Diagnostics problems;
    REQUIRE(c->engine.LoadFacts({{"plan.yaml", plan}}, {{"inventory.yaml", kInventory}}, &facts,
                                &problems));
    EvalOptions options;
    if (planned) options.plan = c->engine.plan();
    EvalResult r =
        Evaluate(*c->engine.program(), c->engine.params(), facts, c->engine.sources(), options);
    CHECK(r.violations.size() == static_cast<size_t>(std::max(allocations - 3, 0)));
    return r.steps;
  };
  uint64_t none = steps(0, false);
  CHECK(none > 0);  // the loop's list
  CHECK(steps(10, false) == steps(10, false));
  CHECK(steps(10, true) == steps(10, false));
  // From ten items on, each adds one violation and the same work.
  CHECK(steps(10, false) > none);
  CHECK(steps(30, false) - steps(20, false) == steps(20, false) - steps(10, false));
}

// Rules that read fields, look items up by id and join lists, so that an
// evaluation has hints and indexes of its own to keep.
const char* kSharedRules = R"(@id("T-1") rule lookup {
  for a in plan.allocations
  let p = inventory.pools[a.pool]
  where p.gpus < a.gpus * 4
  deny at a.gpus "{a.id} on {p.id} of role {p.role}"
}
@id("T-2") rule join {
  for a in plan.allocations
  let same = plan.allocations.filter(b, b.pool == a.pool && b.id != a.id)
  where size(same) > 0 || has(a.pool)
  deny "{a.id} shares {a.pool} with {size(same)}: {same.map(b, b.id)}"
}
@id("T-3") rule demand {
  for a in plan.allocations
  where plan.demands.exists(d, d.id == a.demand && d.gpus < a.gpus)
  deny "{a.id} takes more than {plan.demands[a.demand].gpus}"
}
)";

const char* kOtherPlan = R"(apiVersion: capops.dev/v1
kind: CapacityPlan
demands:
  - {id: train, slice: training, gpus: 1}
  - {id: explore, slice: exploration, gpus: 64}
allocations:
  - {id: b1, demand: train, pool: p-research, gpus: 8}
  - {id: b2, demand: explore, pool: p-research, gpus: 2}
  - {id: b3, demand: train, pool: p-spare, gpus: 1}
  - {id: b4, pool: p-spare, demand: explore, gpus: 3}
)";

// Every node of `v` by its path, with its literal, identity and location:
// equal lists mean that no node was rewritten, not even to an equal value.
void Snapshot(const Value& v, const std::string& path, std::vector<std::string>* out) {
  auto [kind, bits] = v.Identity();
  SourceLoc at = v.loc();
  out->push_back(path + " " + v.ToLiteral() + " " + std::to_string(kind) + ":" +
                 std::to_string(bits) + " @" + std::to_string(at.file) + ":" +
                 std::to_string(at.line) + ":" + std::to_string(at.column));
  for (size_t i = 0; i < v.items().size(); ++i)
    Snapshot(v.items()[i], path + "[" + std::to_string(i) + "]", out);
  for (const auto& [key, value] : v.entries()) Snapshot(value, path + "." + key.str(), out);
}

std::vector<std::string> Snapshot(const Facts& facts) {
  std::vector<std::string> out;
  Snapshot(facts.plan, "plan", &out);
  Snapshot(facts.inventory, "inventory", &out);
  return out;
}

std::vector<std::string> Outcome(const EvalResult& r) {
  std::vector<std::string> lines;
  for (const Violation& v : r.violations) lines.push_back(v.rule_id + " " + v.message);
  for (const std::string& e : Lines(r.errors)) lines.push_back(e);
  return lines;
}

// A compiled rule set is shared by every evaluation: what one evaluation
// learns as it runs (where fields are, which item an id names, the index of
// a join) is its own, so evaluations of two fact sets at once on several
// threads find exactly what each finds alone.
TEST_CASE("evaluations of two fact sets at once find what each finds alone", "[eval]") {
  auto c = CompilePolicy(kSharedRules, false);
  REQUIRE(c->ok);
  Engine& engine = c->engine;
  Facts first, second;
  Diagnostics problems;
  REQUIRE(engine.LoadFacts({{"plan.yaml", kPlan}}, {{"inventory.yaml", kInventory}}, &first,
                           &problems));
  REQUIRE(engine.LoadFacts({{"other.yaml", kOtherPlan}}, {{"inventory.yaml", kInventory}}, &second,
                           &problems));
  for (bool planned : {true, false}) {
    INFO(planned);
    EvalOptions options = engine.options().eval;
    options.plan = planned ? engine.plan() : nullptr;
    auto run = [&](const Facts& facts) {
      return Outcome(
          Evaluate(*engine.program(), engine.params(), facts, engine.sources(), options));
    };
    std::vector<std::string> alone_first = run(first);
    std::vector<std::string> alone_second = run(second);
    REQUIRE(alone_first != alone_second);
    CHECK(std::any_of(alone_second.begin(), alone_second.end(), [](const std::string& l) {
      return l.rfind("T-2 b1 shares p-research with 1", 0) == 0;
    }));
    constexpr int kThreads = 4, kRounds = 25;
    std::vector<int> mismatches(kThreads, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int round = 0; round < kRounds; ++round) {
          bool odd = (t + round) % 2 == 1;
          if (run(odd ? second : first) != (odd ? alone_second : alone_first)) ++mismatches[t];
        }
      });
    }
    for (std::thread& t : threads) t.join();
    CHECK(mismatches == std::vector<int>(kThreads, 0));
  }
}

// Evaluation only reads the facts: after any number of evaluations, every
// node of them is the value it was, held in the same place.
TEST_CASE("evaluating rules leaves every node of the facts as it was", "[eval]") {
  auto c = CompilePolicy(kSharedRules, false);
  REQUIRE(c->ok);
  Engine& engine = c->engine;
  Facts facts;
  Diagnostics problems;
  REQUIRE(engine.LoadFacts({{"plan.yaml", kPlan}}, {{"inventory.yaml", kInventory}}, &facts,
                           &problems));
  std::vector<std::string> before = Snapshot(facts);
  for (bool planned : {true, false}) {
    EvalOptions options = engine.options().eval;
    options.plan = planned ? engine.plan() : nullptr;
    EvalResult r = Evaluate(*engine.program(), engine.params(), facts, engine.sources(), options);
    CHECK_FALSE(r.violations.empty());
  }
  CHECK(Snapshot(facts) == before);
}

// The join indexes of one call are built once for all its rules, by
// whichever thread asks first, and kept apart per list, field and kind.
TEST_CASE("shared join indexes are built once per list, field and kind of join", "[eval]") {
  auto make_list = [] {
    std::vector<Value> items;
    for (int i = 0; i < 100; ++i) {
      items.push_back(Value::Map({{"id", Value::String("x" + std::to_string(i))},
                                  {"pool", Value::String(i % 4 == 0 ? "p1" : "p2")},
                                  {"zone", Value::String("z")}}));
    }
    return Value::List(std::move(items));
  };
  Value list = make_list();
  Value equal = make_list();  // the same value, another list
  SharedIndexes indexes;
  std::atomic<int> made{0};
  auto by = [&](const Value& of, const char* field) {
    return [&made, &of, field] {
      ++made;
      return std::make_unique<JoinIndex>(
          of, false, [field](const Value& item) -> const Value& { return *item.Field(field); });
    };
  };
  std::vector<const JoinIndex*> got(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < got.size(); ++t) {
    threads.emplace_back(
        [&, t] { got[t] = &indexes.Get(list, Key("pool"), false, by(list, "pool")); });
  }
  for (std::thread& t : threads) t.join();
  CHECK(made == 1);
  for (const JoinIndex* index : got) CHECK(index == got[0]);
  std::vector<Value> scratch;
  CHECK(got[0]->Candidates("p1", &scratch).size() == 25);
  CHECK(got[0]->Candidates("p3", &scratch).empty());
  CHECK(&indexes.Get(list, Key("zone"), false, by(list, "zone")) != got[0]);
  CHECK(&indexes.Get(list, Key("pool"), true, by(list, "pool")) != got[0]);
  CHECK(&indexes.Get(equal, Key("pool"), false, by(equal, "pool")) != got[0]);
  CHECK(&indexes.Get(list, Key("pool"), false, by(list, "pool")) == got[0]);
  CHECK(made == 4);
  CHECK(indexes.size() == 4);
}

// Engine::Lint shares one store between the rules of a call and frees it
// with the call: two lints of the same engine, and a rule joining the same
// list as another, find what each finds alone.
TEST_CASE("rules joining one list on one field find what each finds alone", "[eval]") {
  auto c = CompilePolicy(R"(@id("T-1") rule a {
  for a in plan.allocations
  where plan.allocations.exists(b, b.pool == a.pool && b.id != a.id)
  deny "{a.id} shares"
}
@id("T-2") rule b {
  for a in plan.allocations
  let n = size(plan.allocations.filter(b, b.pool == a.pool))
  deny "{a.id} with {n}"
}
)",
                         false);
  REQUIRE(c->ok);
  LintReport both = LintText(*c, kOtherPlan, kInventory);
  CHECK(Messages(both) == std::vector<std::string>{"b1 shares", "b1 with 2", "b2 shares",
                                                   "b2 with 2", "b3 shares", "b3 with 2",
                                                   "b4 shares", "b4 with 2"});
  CHECK(Messages(LintText(*c, kOtherPlan, kInventory)) == Messages(both));
  LintOptions skip;
  skip.skip_rules = {"T-1"};
  LintReport alone = LintText(*c, kOtherPlan, kInventory, skip);
  CHECK(alone.violations.size() == 4);
}

// Allocations with windows of each form: bounded, by duration, open-ended
// and none (a1 holds at all times, through its demand).
const char* kTimelinePlan = R"(apiVersion: capops.dev/v1
kind: CapacityPlan
metadata: {name: timelines, owner: test}
demands:
  - {id: explore, slice: exploration, gpus: 2}
  - {id: train, slice: training, gpus: 16, window: {start: 2027-04-12, duration: 5d}}
allocations:
  - {id: a1, demand: explore, pool: p, gpus: 2}
  - {id: a2, demand: train, pool: p, gpus: 8, window: {start: 2027-04-12, end: 2027-04-15}}
  - {id: a3, demand: train, pool: p, gpus: 4, window: {start: 2027-04-14, duration: 36h}}
  - {id: a4, demand: train, pool: p, gpus: 1, window: {start: 2027-04-20}}
  - {id: a5, demand: train, pool: p, gpus: 8, window: {start: 2027-04-15, end: 2027-04-16}}
)";

const char* kTimelineInventory = R"(apiVersion: capops.dev/v1
kind: Inventory
accelerator_types:
  - {id: h100, model: H100, memory: 80GiB, interconnect: nvlink4}
pools:
  - {id: p, accelerator: h100, hosts: 2, gpus_per_host: 8, region: eu, role: research}
)";

// The same against kTimelinePlan, typed.
std::string TimeValueOf(const std::string& expr) {
  return ValueIn(expr, true, kTimelinePlan, kTimelineInventory);
}

std::string Steps(const std::string& timeline_expr) {
  return TimeValueOf(timeline_expr +
                     ".steps().map(s, during(s.window) + ': ' + string(s.amount) + ' ' + "
                     "s.items.map(b, b.id).join('+'))");
}

TEST_CASE("a timeline is the sum of what holds at each moment, by one sweep", "[eval][timeline]") {
  std::string used = "plan.allocations.timeline(b, has(b.window) ? [b.window] : [], b.gpus)";
  // a3 ends 36h after it starts, at noon on 04-15; a2 ends as a5 begins.
  CHECK(Steps(used) ==
        "[until `2027-04-12`: 2 a1, from `2027-04-12` to `2027-04-14`: 10 a1+a2, "
        "from `2027-04-14` to `2027-04-15`: 14 a1+a2+a3, from `2027-04-15` to "
        "`2027-04-15T12:00Z`: 14 a1+a3+a5, from `2027-04-15T12:00Z` to `2027-04-16`: 10 a1+a5, "
        "from `2027-04-16` to `2027-04-20`: 2 a1, from `2027-04-20` on: 3 a1+a4]");
  CHECK(TimeValueOf(used + ".peak().amount") == "14");
  CHECK(TimeValueOf("during(" + used + ".peak().window)") == "from `2027-04-14` to `2027-04-15`");
  CHECK(TimeValueOf(used + ".at(2027-04-14)") == "14");
  CHECK(TimeValueOf(used + ".at(2027-04-16)") == "2");
  CHECK(TimeValueOf(used + ".at(1999-01-01)") == "2");
  // Two adjacent steps over the bound are one stretch, read at its worst
  // step (the first at the extreme): its amount, its items, its window.
  CHECK(TimeValueOf(used + ".over(10).map(s, s.amount)") == "[14]");
  CHECK(TimeValueOf(used + ".over(10).map(s, during(s.window) + ' / ' + during(s.worst))") ==
        "[from `2027-04-14` to `2027-04-15T12:00Z` / from `2027-04-14` to `2027-04-15`]");
  CHECK(TimeValueOf(used + ".over(10).map(s, s.items.map(b, b.id))") == "[[a1, a2, a3]]");
  CHECK(TimeValueOf(used + ".over(9).map(s, during(s.window))") ==
        "[from `2027-04-12` to `2027-04-16`]");
  CHECK(TimeValueOf(used + ".under(3).map(s, during(s.window))") ==
        "[until `2027-04-12`, from `2027-04-16` to `2027-04-20`]");
  CHECK(TimeValueOf(used + ".under(3).map(s, s.window == s.worst)") == "[true, true]");
  // The lowest step of a stretch under the bound is its worst.
  CHECK(TimeValueOf(used + ".under(13).map(s, string(s.amount) + ' ' + during(s.worst))") ==
        "[2 until `2027-04-12`, 2 from `2027-04-16` to `2027-04-20`]");
  // Within an interval: the stretches cut to it, and none outside it.
  CHECK(TimeValueOf(used + ".over(9, interval(2027-04-13, 2027-04-15)).map(s, during(s.window) + "
                           "' ' + string(s.amount))") == "[from `2027-04-13` to `2027-04-15` 14]");
  CHECK(TimeValueOf(used + ".over(9, interval(2027-04-13, 2027-04-14)).map(s, s.amount)") ==
        "[10]");
  CHECK(TimeValueOf(used + ".over(9, interval(2027-05-01, 2027-05-02)).map(s, s.amount)") == "[]");
  CHECK(TimeValueOf(used + ".over(9, interval(2027-04-13, 2027-04-13)).map(s, s.amount)") == "[]");
  CHECK(TimeValueOf(used + ".steps().map(s, s.amount)") == "[2, 10, 14, 14, 10, 2, 3]");
  // An item whose windows abut holds on without a new step.
  CHECK(Steps("plan.allocations.filter(b, b.id == 'a2').timeline(b, windows_of(b, "
              "plan.demands['train']) + "
              "windows_of(plan.allocations['a5'], plan.demands['train']), b.gpus)") ==
        "[until `2027-04-12`: 0 , from `2027-04-12` to `2027-04-16`: 8 a2, from `2027-04-16` on: 0 "
        "]");
}

TEST_CASE("the evidence shows a timeline and a step by their intervals, amounts and items",
          "[eval][timeline]") {
  auto c = CompilePolicy(R"(@id("T-1") rule r {
  for p in inventory.pools
  let used = plan.allocations.filter(b, b.pool == p.id).timeline(b, has(b.window) ? [b.window] : [], b.gpus)
  let idle = plan.allocations.filter(b, false).timeline(b, [], b.gpus)
  for o in used.over(12)
  let first = used.over(12)
  deny at p.id "over"
}
)",
                         true);
  REQUIRE(c->ok);
  LintReport r = LintText(*c, kTimelinePlan, kTimelineInventory);
  REQUIRE(r.violations.size() == 1);  // two steps over, one stretch: one finding
  std::map<std::string, std::string> shown;
  for (const Evidence& e : r.violations[0].evidence) shown[e.name] = e.value;
  // Stretches where nothing holds are left out; the rest is cut at the trace's width.
  CHECK(shown["used"] ==
        "until `2027-04-12`: 2 (a1); from `2027-04-12` to `2027-04-14`: 10 (a1, a2); "
        "from `2027-04-14` to `2027-04-15`: 14 (a1, a2, a3); from `2027-04-15` to `2027-04...");
  CHECK(shown["idle"] == "at all times: 0");
  // A stretch shows its worst step too, and every item of it.
  CHECK(shown["o"] ==
        "from `2027-04-14` to `2027-04-15T12:00Z`, at worst from `2027-04-14` to `2027-04-15`: "
        "14 (a1, a2, a3)");
  CHECK(shown["first"] == shown["o"]);
}

TEST_CASE("a finding made at a timeline step carries the step's window", "[eval][timeline]") {
  auto c = CompilePolicy(R"(@id("T-1") rule over {
  for p in inventory.pools
  for o in plan.allocations.timeline(b, windows_of(b, plan.demands[b.demand]), b.gpus).over(13)
  deny at p.id "`{p.id}` holds {o.amount} {during(o.window)}"
}
@id("T-2") rule plain {
  for a in plan.allocations
  where a.gpus > 4
  deny at a.gpus "{a.id}"
}
)");
  REQUIRE(c->ok);
  LintReport r = LintText(*c, kTimelinePlan, kTimelineInventory);
  std::vector<std::string> got;
  for (const Violation& v : r.violations) {
    std::string when = "none";
    if (v.interval)
      when = FormatDateTime(v.interval->Start()) + ".." + FormatDateTime(v.interval->End());
    got.push_back(v.rule_id + " " + when);
  }
  std::sort(got.begin(), got.end());
  // Two steps over 13 that abut are one stretch: one finding, spanning both.
  CHECK(got ==
        std::vector<std::string>{"T-1 2027-04-14..2027-04-15T12:00Z", "T-2 none", "T-2 none"});
}

TEST_CASE("timelines combine step by step, and empty ones are zero", "[eval][timeline]") {
  std::string a =
      "plan.allocations.filter(b, b.id == 'a2').timeline(b, windows_of(b, plan.demands[b.demand]), "
      "b.gpus)";
  std::string b =
      "plan.allocations.filter(b, b.id == 'a3').timeline(b, windows_of(b, plan.demands[b.demand]), "
      "b.gpus)";
  CHECK(Steps(a + ".minus(" + b + ")") ==
        "[until `2027-04-12`: 0 , from `2027-04-12` to `2027-04-14`: 8 a2, "
        "from `2027-04-14` to `2027-04-15`: 4 a2+a3, from `2027-04-15` to `2027-04-15T12:00Z`: "
        "-4 a3, from `2027-04-15T12:00Z` on: 0 ]");
  CHECK(TimeValueOf(a + ".plus(" + b + ").peak().amount") == "12");
  std::string none =
      "plan.allocations.filter(b, false).timeline(b, windows_of(b, plan.demands[b.demand]), "
      "b.gpus)";
  CHECK(Steps(none) == "[at all times: 0 ]");
  CHECK(TimeValueOf(none + ".under(1).size()") == "1");
  // Durations add up as durations, and a zero step compares with them.
  CHECK(TimeValueOf(
            "plan.demands.timeline(d, has(d.window) ? [d.window] : [], 2h).peak().amount") == "4h");
}

// Sessions of hours on one day: 09:00 to 17:00 and 18:00 to 22:00 local
// time (+02:00; the second written in UTC), and a short one that overlaps
// the first by an hour.
const char* kHourPlan = R"(apiVersion: capops.dev/v1
kind: CapacityPlan
metadata: {name: hours, owner: test}
demands:
  - {id: explore, slice: exploration, gpus: 8, max_hold: 8h}
allocations:
  - {id: day, demand: explore, pool: p, gpus: 8, window: {start: 2027-04-20T09:00+02:00, duration: 8h}}
  - {id: evening, demand: explore, pool: p, gpus: 8, window: {start: 2027-04-20T16:00Z, end: 2027-04-20T20:00Z}}
  - {id: late, demand: explore, pool: p, gpus: 4, window: {start: 2027-04-20T16:00+02:00, end: 2027-04-20T17:30+02:00}}
)";

TEST_CASE("a timeline of hour windows steps at the second they start and end", "[eval][timeline]") {
  auto hours = [](const std::string& expr) {
    return ValueIn(expr, true, kHourPlan, kTimelineInventory);
  };
  auto w = [](const std::string& id) {
    return "windows_of(plan.allocations['" + id + "'], plan.demands['explore'])[0]";
  };
  std::string sessions =
      "plan.allocations.filter(b, b.id != 'late').timeline(b, windows_of(b, "
      "plan.demands[b.demand]), b.gpus)";
  // Two sessions of one day do not overlap: the pool holds 8, not 16.
  CHECK(hours(sessions + ".peak().amount") == "8");
  CHECK(hours(w("day") + ".overlaps(" + w("evening") + ")") == "false");
  CHECK(hours(w("day") + ".overlaps(" + w("late") + ")") == "true");
  CHECK(hours(w("day") + ".end()") == "2027-04-20T17:00+02:00");
  CHECK(hours(w("day") + ".duration()") == "8h");
  CHECK(hours(w("late") + ".duration()") == "1h30m");
  CHECK(hours(w("day") + ".contains(2027-04-20T14:59:59Z)") == "true");
  CHECK(hours(w("day") + ".contains(2027-04-20T17:00+02:00)") == "false");  // ends are exclusive
  CHECK(hours("during(" + w("day") + ".intersect(" + w("late") + "))") ==
        "from `2027-04-20T16:00+02:00` to `2027-04-20T17:00+02:00`");
  // Each step's ends are printed as the window they come from was written.
  std::string all = "plan.allocations.timeline(b, windows_of(b, plan.demands[b.demand]), b.gpus)";
  CHECK(hours(all + ".steps().map(s, during(s.window) + ': ' + string(s.amount))") ==
        "[until `2027-04-20T09:00+02:00`: 0, "
        "from `2027-04-20T09:00+02:00` to `2027-04-20T16:00+02:00`: 8, "
        "from `2027-04-20T16:00+02:00` to `2027-04-20T17:00+02:00`: 12, "
        "from `2027-04-20T17:00+02:00` to `2027-04-20T17:30+02:00`: 4, "
        "from `2027-04-20T17:30+02:00` to `2027-04-20T16:00Z`: 0, "
        "from `2027-04-20T16:00Z` to `2027-04-20T20:00Z`: 8, from `2027-04-20T20:00Z` on: 0]");
  CHECK(hours("during(" + all + ".peak().window)") ==
        "from `2027-04-20T16:00+02:00` to `2027-04-20T17:00+02:00`");
  CHECK(hours(all + ".at(2027-04-20T14:59:59Z)") == "12");
  CHECK(hours(all + ".at(2027-04-20T18:00+02:00)") == "8");
  CHECK(hours(all + ".at(2027-04-20T17:45+02:00)") == "0");
}

TEST_CASE("a timeline kept as its steps prints, compares and reads as the list of its step maps",
          "[eval][timeline]") {
  std::string used =
      "plan.allocations.filter(b, b.id in ['a2', 'a3']).timeline(b, windows_of(b, "
      "plan.demands[b.demand]), b.gpus)";
  CHECK(TimeValueOf(used).rfind(
            "[{window: {end: 2027-04-12}, amount: 0, items: [], worst: {end: 2027-04-12}}, "
            "{window: {start: 2027-04-12, end: 2027-04-14}, amount: 8, items: [{id: \"a2\"",
            0) == 0);
  CHECK(TimeValueOf(used + " == " + used) == "true");
  CHECK(TimeValueOf(used + " == " + used + ".plus(" + used + ")") == "false");
  // Only a timeline has steps: an untyped value is refused where it is read.
  CHECK(ValueOf("plan.dataset.peak()") == "error: not a timeline: map");
  CHECK(ValueOf("plan.dataset.size.minus([1].timeline(x, [], x))") ==
        "error: not a timeline: bytes");
  CHECK(ValueOf("[1].timeline(x, [], x).peak().items") == "[1]");
}

TEST_CASE("timelines are typed: windows, amounts and bounds", "[eval][timeline][check]") {
  CHECK(
      TimeValueOf("plan.allocations.timeline(b, b.gpus, b.gpus)") ==
      "compile error: the windows of `timeline` must be a window or a list of windows, not `int`");
  CHECK(TimeValueOf("plan.allocations.timeline(b, [], b.id)") ==
        "compile error: the amount of `timeline` must be a number, a duration or a quantity, not "
        "`string`");
  CHECK(TimeValueOf("plan.allocations.timeline(b, [], b.gpus).over('x')") ==
        "compile error: the bound of a timeline of int must be a int, not `string`");
  CHECK(TimeValueOf(
            "plan.allocations.timeline(b, [], b.gpus).plus(plan.demands.timeline(d, [], 1h))") ==
        "compile error: a timeline of int combines only with another, not `timeline<Demand, "
        "duration>`");
  CHECK(TimeValueOf("[1].peak()") ==
        "compile error: this method needs a timeline (`xs.timeline(x, windows, amount)`), not "
        "`list<int>`");
  CHECK(TimeValueOf("plan.allocations.timeline(b)").find("compile error") == 0);
}

TEST_CASE("CEL's answers: duplicate map keys, join without a separator, the escape slash refused",
          "[eval][cel]") {
  CHECK(ValueOf("{'a': 1, 'b': 2, 'a': 3}.size()") == "error: duplicate key `a` in a map literal");
  CHECK(ValueOf("{'a': 1, 'b': 2}.size()") == "2");
  CHECK(ValueOf("['a', 'b'].join()") == "ab");
  CHECK(ValueOf("['a', 'b'].join('-')") == "a-b");
  CHECK(ValueOf("['a'].join('-', 'x')") == "compile error: the limit of `join` must be an int");
  CHECK(ValueOf("['a'].join('-', 1, 2)").rfind("compile error: `join` takes", 0) == 0);
  // A limit names that many and counts the rest.
  CHECK(ValueOf("['a', 'b', 'c'].join(', ', 2)") == "a, b and 1 more");
  CHECK(ValueOf("['a', 'b'].join(', ', 2)") == "a, b");
  CHECK(ValueOf("['a', 'b'].join(', ', 0)") == "2 more");
  CHECK(ValueOf("[].join(', ', 0)") == "");
  CHECK(ValueOf("['a'].join(', ', -1)") ==
        "error: the limit of `join` must be an int of 0 or more, not -1");
  CHECK(ValueOf("'a\\/b'").rfind("compile error: ", 0) == 0);
  CHECK(ValueOf("'a\\\\b'") == "a\\b");
}

TEST_CASE("hostile timelines end in a located error, not a wrong sum",
          "[eval][timeline][hostile]") {
  // Amounts that overflow where they meet, windows that are not windows,
  // and amounts of two kinds in one timeline.
  CHECK(TimeValueOf("plan.allocations.timeline(b, [], 9223372036854775807).peak().amount") ==
        "error: integer overflow");
  CHECK(ValueOf("plan.allocations.timeline(b, b.gpus, 1)") == "error: not an interval: int");
  CHECK(ValueOf("[plan.dataset.size, plan.dataset.bandwidth].timeline(x, [], x).peak().amount")
            .rfind("error: ", 0) == 0);
  CHECK(ValueOf("[1].timeline(x, [], x).over('a')") ==
        "compile error: the bound of a timeline of int must be a int, not `string`");
  CHECK(ValueOf("[1].timeline(x, [], x).over(plan.dataset.size).size()").rfind("error: ", 0) == 0);
  // Far dates and an empty window hold nothing and break nothing.
  CHECK(TimeValueOf("windows_of(plan.allocations['a2'], plan.demands['train'])[0].intersect("
                    "windows_of(plan.allocations['a4'], plan.demands['train'])[0]).duration()") ==
        "0s");
}

TEST_CASE("intervals: overlaps, contains, intersect, start, end, duration", "[eval][interval]") {
  auto w = [](const std::string& id) {
    return "windows_of(plan.allocations['" + id + "'], plan.demands['train'])[0]";
  };
  CHECK(TimeValueOf(w("a2") + ".overlaps(" + w("a3") + ")") == "true");
  CHECK(TimeValueOf(w("a2") + ".overlaps(" + w("a5") + ")") == "false");  // half-open
  CHECK(TimeValueOf(w("a4") + ".overlaps(" + w("a5") + ")") == "false");
  CHECK(TimeValueOf(w("a2") + ".contains(2027-04-14)") == "true");
  CHECK(TimeValueOf(w("a2") + ".contains(2027-04-15)") == "false");
  CHECK(TimeValueOf(w("a4") + ".contains(2999-01-01)") == "true");
  CHECK(TimeValueOf(w("a4") + ".contains(" + w("a5") + ")") == "false");
  CHECK(TimeValueOf("during(" + w("a2") + ".intersect(" + w("a3") + "))") ==
        "from `2027-04-14` to `2027-04-15`");
  CHECK(TimeValueOf(w("a2") + ".intersect(" + w("a4") + ").duration()") == "0s");
  CHECK(TimeValueOf(w("a3") + ".end()") == "2027-04-15T12:00Z");  // 36h on, to the second
  CHECK(TimeValueOf(w("a3") + ".duration()") == "1d12h");
  CHECK(TimeValueOf(w("a2") + ".start()") == "2027-04-12");
  CHECK(TimeValueOf(w("a4") + ".end()") == "error: the interval {start: 2027-04-20} is open-ended");
  CHECK(ValueOf("'abc'.contains('b')") == "true");
  CHECK(TimeValueOf("plan.demands[0].overlaps(plan.demands[0])") ==
        "compile error: `overlaps` needs two intervals (windows), not `Demand` and `Demand`");
}

TEST_CASE("distinct keeps the first of each value, and group lists items by key", "[eval]") {
  CHECK(TimeValueOf("[3, 1, 3, 2, 1].distinct()") == "[3, 1, 2]");
  CHECK(TimeValueOf("['a', 'b', 'a'].distinct()") == "[a, b]");
  CHECK(TimeValueOf("[1, 1.0, 2.5, 2.5].distinct()") == "[1, 2.5]");
  CHECK(TimeValueOf("distinct(plan.allocations.map(a, a.demand))") == "[explore, train]");
  CHECK(TimeValueOf("plan.allocations.group(a, a.demand).map(k, k + '=' + "
                    "string(size(plan.allocations.group(a, "
                    "a.demand)[k])))") == "[explore=1, train=4]");
  CHECK(TimeValueOf("plan.allocations.group(a, a.gpus)") ==
        "compile error: the key of `group` must be a string, an id or an enum member, not `int`");
  CHECK(TimeValueOf("distinct(1)") == "compile error: `distinct` needs a list, not `int`");
  CHECK(TimeValueOf("[[1, 2], [], [2]].flatten()") == "[1, 2, 2]");
  CHECK(TimeValueOf("plan.allocations.map(a, [a.id]).flatten().distinct()") ==
        "[a1, a2, a3, a4, a5]");
  CHECK(TimeValueOf("[1].flatten()") ==
        "compile error: `flatten` needs a list of lists, not `list<int>`");
}

}  // namespace
}  // namespace capops::eval
