// SPDX-License-Identifier: Apache-2.0
// Intervals and timelines (engine/eval; reports read fact windows and
// findings' steps with ToInterval and StepWindow).
//
// An interval is a span of time [start, end), to the second and open at
// either side. A `Window` fact is one: its end is `end`, or exactly
// `start + duration`, or open. A timeline is a step function of an amount over time,
// made from items that each hold an amount in their windows, and built by
// one sweep over their sorted endpoints: O(n log n) for n windows, plus the
// items it lists per step. It stands for the list of its steps, in time
// order and covering all time, each a map
//   {window: {start?, end?}, amount, items: [...], worst: {start?, end?}}
// where `items` are the items holding their amount in that step, in the
// order they began, and `worst` is the step's own window; it is kept as an
// array of steps (a Value::Native), and a step becomes such a map only when
// a method returns it (`peak`). `over` and `under` return stretches in the
// same form: a run of adjacent steps beyond the bound, `window` spanning
// the run, read at its step farthest from the bound (`worst`, `amount`,
// `items`). The methods also read a list of step maps built by hand.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/check/functions.h"
#include "engine/common/value.h"
#include "engine/eval/budget.h"
#include "engine/eval/result.h"

namespace capops::eval {

/// The interval a `Window` or `Interval` value spans; an error value (else
/// null) when `v` is not one.
Value ToInterval(const Value& v, Interval* out);
/// The window of a timeline step (a map `{window, amount, items, worst}`); false
/// when `v` is not one.
bool StepWindow(const Value& v, Interval* out);
/// `{start, end}` as an `Interval` record value, without the open sides.
Value IntervalValue(const Interval& i);

/// One item of a timeline: the windows it holds `amount` in (none: at all
/// times).
struct TimelineItem {
  Value item;
  std::vector<Interval> windows;
  Value amount;
};

/// The timeline of `items`, or an error value (the budget is spent, or the
/// amounts do not add up).
Value BuildTimeline(const std::vector<TimelineItem>& items, Budget* budget);

/// A step, a list of steps or a timeline as a person reads it: each step
/// as its interval, its amount and its items (by id), e.g.
///   from `2027-04-15` to `2027-04-17`: 20 (a-train, a-tune)
/// a stretch with its worst step's interval too,
///   from `2027-04-15` to `2027-04-20`, at worst from `2027-04-16` to
///   `2027-04-17`: 24 (a-train, a-tune, a-eval)
/// leaving out the stretches of a timeline where nothing holds ("nothing
/// held" when that is all of them; "at all times: 0" for the timeline of
/// no items). A list or timeline is cut at `max_chars` (> 3); one step is
/// shown whole, with every item: it is what a finding on it names.
std::string StepsText(const Value& v, size_t max_chars);

/// `group`: the items by key, keys in the order first seen.
Value GroupItems(const std::vector<std::pair<Value, Value>>& keyed, Budget* budget);

/// The interval and timeline built-ins, `distinct` and `flatten`: `args` are
/// evaluated, receiver first.
Value CallTimeBuiltin(check::FunctionId id, const std::vector<Value>& args, Budget* budget);

}  // namespace capops::eval
