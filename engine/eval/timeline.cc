// SPDX-License-Identifier: Apache-2.0
// Intervals and timelines: the sweep that builds a timeline, and the
// methods that read one.
#include "engine/eval/timeline.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "engine/eval/operators.h"

namespace capops::eval {

using check::FunctionId;

namespace {

constexpr size_t kStepChars = 120;  // where a list of steps cuts each one's items

// The field names of intervals and steps, interned once.
struct Names {
  Key start{"start"}, end{"end"}, duration{"duration"}, window{"window"}, amount{"amount"},
      items{"items"}, worst{"worst"};
};
const Names& N() {
  static const Names names;
  return names;
}

// Zero of the kind of `like` (an amount): what a step holding nothing has.
Value ZeroLike(const Value& like) {
  switch (like.kind()) {
    case ValueKind::kDouble:
      return Value::Double(0);
    case ValueKind::kDuration:
      return Value::Duration(0);
    case ValueKind::kQuantity:
      return Value::Quantity({0, like.quantity_value().dimension});
    default:
      return Value::Int(0);
  }
}

bool IsZeroInt(const Value& v) {
  return v.is(ValueKind::kInt) && v.int_value() == 0;
}

// `a op b` for amounts, where a plain 0 (a step of no items, whose kind is
// not known) takes the other side's kind.
Value Combine(syntax::BinaryOp op, const Value& a, const Value& b, Budget* budget) {
  if (IsZeroInt(a) && !b.is(ValueKind::kInt)) return ApplyBinary(op, ZeroLike(b), b, budget);
  if (IsZeroInt(b) && !a.is(ValueKind::kInt)) return ApplyBinary(op, a, ZeroLike(a), budget);
  return ApplyBinary(op, a, b, budget);
}

// -1, 0, 1 as `a` is below, at or above `b`; an error value when they do
// not compare.
Value Order(const Value& a, const Value& b, int* order) {
  std::string error;
  const Value& x = IsZeroInt(a) && !b.is(ValueKind::kInt) ? ZeroLike(b) : a;
  const Value& y = IsZeroInt(b) && !a.is(ValueKind::kInt) ? ZeroLike(a) : b;
  if (!Compare(x, y, order, &error)) return Value::Error(error);
  return Value();
}

// A timeline in its own form: the items it was made from, and its steps
// in time order, covering all time. A step's items are a stretch of `held`
// (positions in `items`, in the order they began); a step becomes a map
// `{window, amount, items, worst}` only when a rule reads it as one.
class Steps final : public Value::Native {
 public:
  // A step, or a stretch of steps read as one (`over`, `under`): `window`
  // spans it, and `amount` and the items are those of its step farthest
  // from the bound, which spans `worst`.
  struct Step {
    Interval window;
    Value amount;
    uint32_t first = 0;  // its items: held[first, first + count)
    uint32_t count = 0;
    Interval worst;
  };
  std::vector<Value> items;
  std::vector<uint32_t> held;
  std::vector<Step> steps;

  const char* name() const override { return "timeline"; }
  Value Plain() const override {
    std::vector<Value> out;
    out.reserve(steps.size());
    for (const Step& step : steps) out.push_back(Segment(step));
    return Value::List(std::move(out));
  }
  // `step` as the `Segment` record a rule reads.
  Value Segment(const Step& step) const {
    std::vector<Value> its;
    its.reserve(step.count);
    for (uint32_t k = 0; k < step.count; ++k) its.push_back(items[held[step.first + k]]);
    MapEntries entries;
    entries.reserve(4);
    entries.emplace_back(N().window, IntervalValue(step.window));
    entries.emplace_back(N().amount, step.amount);
    entries.emplace_back(N().items, Value::List(std::move(its)));
    entries.emplace_back(N().worst, IntervalValue(step.worst));
    return Value::Map(std::move(entries));
  }
  Value Segment(const Step& step, Budget* budget) const {
    if (!budget->Allocate(MapBytes(4) + 2 * MapBytes(2) + ListBytes(step.count)))
      return budget->Error();
    return Segment(step);
  }
  // Appends a step holding `holding` (positions in `items`).
  void Add(const Interval& window, Value amount, const uint32_t* holding, size_t count) {
    steps.push_back({window, std::move(amount), static_cast<uint32_t>(held.size()),
                     static_cast<uint32_t>(count), window});
    held.insert(held.end(), holding, holding + count);
  }
  static bool Charge(size_t steps, size_t held, Budget* budget) {
    return budget->Allocate(steps * sizeof(Step) + held * sizeof(uint32_t));
  }
};

// A step map's parts, read back; `worst` is the window when the map has
// none.
bool ReadStep(const Value& step, Interval* window, const Value** amount, const Value** items,
              Interval* worst = nullptr) {
  const Value* w = step.Field(N().window);
  *amount = step.Field(N().amount);
  *items = step.Field(N().items);
  if (w == nullptr || *amount == nullptr || *items == nullptr || !(*items)->is(ValueKind::kList) ||
      ToInterval(*w, window).is_error()) {
    return false;
  }
  if (worst == nullptr) return true;
  const Value* at = step.Field(N().worst);
  *worst = *window;
  return at == nullptr || !ToInterval(*at, worst).is_error();
}

// Appends the step map `step` to `*out`; false when it is not one.
bool AddPlainStep(const Value& step, Steps* out) {
  Interval window, worst;
  const Value* amount = nullptr;
  const Value* its = nullptr;
  if (!step.is(ValueKind::kMap) || !ReadStep(step, &window, &amount, &its, &worst)) return false;
  std::vector<uint32_t> holding;
  for (const Value& item : its->items()) {
    holding.push_back(static_cast<uint32_t>(out->items.size()));
    out->items.push_back(item);
  }
  out->Add(window, *amount, holding.data(), holding.size());
  out->steps.back().worst = worst;
  return true;
}

Value NotATimeline(const Value& v) {
  return Value::Error("not a timeline: " + DescribeKind(v), v.loc());
}

// The steps of a timeline; null when `timeline` is not one (an untyped
// value).
const Steps* StepsOf(const Value& timeline) {
  const Value::Native* native = timeline.native();
  return native != nullptr ? dynamic_cast<const Steps*>(native) : nullptr;
}

struct Event {
  int64_t at;
  uint32_t item;
  bool starts;
  int16_t offset;  // how the date of `at` was written
};

// The state of a sweep: how many windows of each item hold now, the items
// holding in the order they began (by index among those that began
// together), and the sum of their amounts.
struct Sweep {
  std::vector<uint32_t> open;
  std::vector<bool> holds;
  std::vector<uint32_t> holding;
  std::vector<uint32_t> touched, changed;  // of one moment
  Value amount = Value::Int(0);

  // Starts or stops counting `item`; an error value when amounts do not add.
  Value Flip(uint32_t item, const Value& its_amount, Budget* budget) {
    bool now = open[item] > 0;
    Value next =
        Combine(now ? syntax::BinaryOp::kAdd : syntax::BinaryOp::kSub, amount, its_amount, budget);
    if (next.is_error()) return next;
    amount = std::move(next);
    holds[item] = now;
    if (now) {
      holding.push_back(item);
    } else {
      holding.erase(std::find(holding.begin(), holding.end(), item));
    }
    return Value();
  }
  // Applies the events of one moment, from `*i`, leaving in `changed` the
  // items they touch whose holding changes (an item whose window ends as
  // another of its windows starts does not).
  void Apply(const std::vector<Event>& events, size_t* i) {
    int64_t at = events[*i].at;
    touched.clear();
    changed.clear();
    for (; *i < events.size() && events[*i].at == at; ++(*i)) {
      const Event& e = events[*i];
      open[e.item] += e.starts ? 1 : -1;
      touched.push_back(e.item);
    }
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (uint32_t item : touched) {
      if ((open[item] > 0) != holds[item]) changed.push_back(item);
    }
  }
};

Value Timeline(const std::vector<TimelineItem>& items, std::vector<Event>* events, Budget* budget) {
  // Ends first: windows are half-open. Then by item, so that the form a
  // moment is printed in (its first event's) does not depend on the sort.
  std::sort(events->begin(), events->end(), [](const Event& a, const Event& b) {
    if (a.at != b.at) return a.at < b.at;
    if (a.starts != b.starts) return a.starts < b.starts;
    return a.item != b.item ? a.item < b.item : a.offset < b.offset;
  });
  auto out = std::make_unique<Steps>();
  out->items.reserve(items.size());
  for (const TimelineItem& item : items) out->items.push_back(item.item);
  out->steps.reserve(events->size() + 1);
  Sweep sweep;
  sweep.open.assign(items.size(), 0);
  sweep.holds.assign(items.size(), false);
  Interval step;  // from the last change on
  for (size_t i = 0; i < events->size();) {
    int64_t at = (*events)[i].at;
    int16_t offset = (*events)[i].offset;
    sweep.Apply(*events, &i);
    if (sweep.changed.empty()) continue;
    if (at != Interval::kOpenStart) {
      if (!Steps::Charge(1, sweep.holding.size(), budget)) return budget->Error();
      step.end = at;
      step.end_offset = offset;
      out->Add(step, sweep.amount, sweep.holding.data(), sweep.holding.size());
    }
    for (uint32_t item : sweep.changed) {
      Value bad = sweep.Flip(item, items[item].amount, budget);
      if (bad.is_error()) return bad;
    }
    step = Interval{at, Interval::kOpenEnd, offset};
  }
  if (!Steps::Charge(1, sweep.holding.size(), budget)) return budget->Error();
  out->Add(step, sweep.amount, sweep.holding.data(), sweep.holding.size());
  return Value::Make(std::move(out));
}

// `window` cut to `clip` (an open side of either keeps the other's); empty
// (end <= start) when they do not meet.
Interval Clip(const Interval& window, const Interval& clip) {
  Interval out = window;
  if (clip.start > out.start) {
    out.start = clip.start;
    out.start_offset = clip.start_offset;
  }
  if (clip.end < out.end) {
    out.end = clip.end;
    out.end_offset = clip.end_offset;
  }
  return out;
}

// `interval(start, end)`: an error when it ends before it starts.
Value MakeInterval(const Value& start, const Value& end, Budget* budget) {
  if (!start.is(ValueKind::kDate) || !end.is(ValueKind::kDate))
    return Value::Error("`interval` needs two dates, not " + DescribeKind(start) + " and " +
                        DescribeKind(end));
  if (end.date_value().seconds < start.date_value().seconds)
    return Value::Error("the interval from " + start.ToLiteral(40) + " to " + end.ToLiteral(40) +
                        " ends before it starts");
  if (!budget->Allocate(MapBytes(2))) return budget->Error();
  return IntervalValue(Interval{start.date_value().seconds, end.date_value().seconds,
                                start.date_value().offset, end.date_value().offset});
}

// The stretches of `timeline` whose amount is above (`above`) or below
// `bound`, within `within` when it is an interval: each run of adjacent
// steps beyond it is one, read at its step farthest from the bound (the
// first such).
Value Beyond(const Value& timeline, const Value& bound, const Value& within, bool above,
             Budget* budget) {
  const Steps* steps = StepsOf(timeline);
  if (steps == nullptr) return NotATimeline(timeline);
  Interval clip;
  if (!within.is(ValueKind::kNull)) {
    Value bad = ToInterval(within, &clip);
    if (bad.is_error()) return bad;
  }
  std::vector<Value> out;
  std::optional<Steps::Step> run;
  auto close = [&]() {
    if (!run) return Value();
    Value stretch = steps->Segment(*run, budget);
    run.reset();
    if (stretch.is_error()) return stretch;
    out.push_back(std::move(stretch));
    return Value();
  };
  for (Steps::Step step : steps->steps) {
    step.window = Clip(step.window, clip);
    step.worst = step.window;
    if (step.window.end <= step.window.start) continue;  // outside `within`
    int order = 0;
    Value error = Order(step.amount, bound, &order);
    if (error.is_error()) return error;
    if (above ? order <= 0 : order >= 0) {
      if (Value bad = close(); bad.is_error()) return bad;
      continue;
    }
    if (run && run->window.end == step.window.start) {
      error = Order(step.amount, run->amount, &order);
      if (error.is_error()) return error;
      Interval window{run->window.start, step.window.end, run->window.start_offset,
                      step.window.end_offset};
      if (above ? order > 0 : order < 0) run = step;
      run->window = window;
      continue;
    }
    if (Value bad = close(); bad.is_error()) return bad;
    run = step;
  }
  if (Value bad = close(); bad.is_error()) return bad;
  if (!budget->Allocate(ListBytes(out.size()))) return budget->Error();
  return Value::List(std::move(out));
}

// Every step, in time order.
Value AllSteps(const Value& timeline, Budget* budget) {
  const Steps* steps = StepsOf(timeline);
  if (steps == nullptr) return NotATimeline(timeline);
  std::vector<Value> out;
  out.reserve(steps->steps.size());
  for (const Steps::Step& step : steps->steps) {
    Value segment = steps->Segment(step, budget);
    if (segment.is_error()) return segment;
    out.push_back(std::move(segment));
  }
  if (!budget->Allocate(ListBytes(out.size()))) return budget->Error();
  return Value::List(std::move(out));
}

Value Peak(const Value& timeline, Budget* budget) {
  const Steps* steps = StepsOf(timeline);
  if (steps == nullptr) return NotATimeline(timeline);
  size_t best = 0;
  for (size_t i = 1; i < steps->steps.size(); ++i) {
    int order = 0;
    Value error = Order(steps->steps[i].amount, steps->steps[best].amount, &order);
    if (error.is_error()) return error;
    if (order > 0) best = i;
  }
  return steps->Segment(steps->steps[best], budget);
}

Value At(const Value& timeline, const Value& date) {
  const Steps* steps = StepsOf(timeline);
  if (steps == nullptr) return NotATimeline(timeline);
  if (!date.is(ValueKind::kDate))
    return Value::Error("`at` needs a date, not " + DescribeKind(date));
  auto it = std::upper_bound(steps->steps.begin(), steps->steps.end(), date.date_value().seconds,
                             [](int64_t t, const Steps::Step& s) { return t < s.window.end; });
  if (it == steps->steps.end()) return NotATimeline(timeline);
  return it->amount;
}

// `a.plus(b)`, `a.minus(b)`: one step per stretch where neither changes,
// listing the items of both.
Value Merge(const Value& a, const Value& b, syntax::BinaryOp op, Budget* budget) {
  const Steps* x = StepsOf(a);
  const Steps* y = StepsOf(b);
  if (x == nullptr || y == nullptr) return NotATimeline(x == nullptr ? a : b);
  if (!budget->Allocate(ListBytes(x->items.size() + y->items.size()))) return budget->Error();
  auto out = std::make_unique<Steps>();
  out->items.reserve(x->items.size() + y->items.size());
  out->items.insert(out->items.end(), x->items.begin(), x->items.end());
  out->items.insert(out->items.end(), y->items.begin(), y->items.end());
  uint32_t offset = static_cast<uint32_t>(x->items.size());
  std::vector<uint32_t> holding;
  size_t i = 0, j = 0;
  Interval step;  // from the last change of either on
  while (i < x->steps.size() && j < y->steps.size()) {
    const Steps::Step& s = x->steps[i];
    const Steps::Step& t = y->steps[j];
    const Interval& first = t.window.end < s.window.end ? t.window : s.window;
    step.end = first.end;
    step.end_offset = first.end_offset;
    Value amount = Combine(op, s.amount, t.amount, budget);
    if (amount.is_error()) return amount;
    holding.assign(x->held.begin() + s.first, x->held.begin() + s.first + s.count);
    for (uint32_t k = 0; k < t.count; ++k) holding.push_back(offset + y->held[t.first + k]);
    if (!Steps::Charge(1, holding.size(), budget)) return budget->Error();
    out->Add(step, std::move(amount), holding.data(), holding.size());
    step = Interval{step.end, Interval::kOpenEnd, step.end_offset};
    if (s.window.end == step.start) ++i;
    if (t.window.end == step.start) ++j;
  }
  return Value::Make(std::move(out));
}

// What makes two values equal for `distinct`: numbers by value, dates by
// instant, else the literal text.
std::string DistinctKey(const Value& v) {
  if (v.is(ValueKind::kDate)) return "t" + std::to_string(v.date_value().seconds);
  if (v.is(ValueKind::kDouble) && std::nearbyint(v.double_value()) == v.double_value() &&
      std::fabs(v.double_value()) < 9e15) {
    return Value::Int(static_cast<int64_t>(v.double_value())).ToLiteral();
  }
  if (v.is(ValueKind::kString)) return std::string("s") + std::string(v.string_value());
  return v.ToLiteral();
}

Value Distinct(const Value& list, Budget* budget) {
  if (!list.is(ValueKind::kList))
    return Value::Error("`distinct` needs a list, not " + DescribeKind(list));
  std::unordered_set<std::string> seen;
  std::vector<Value> out;
  for (const Value& v : list.items()) {
    std::string key = DistinctKey(v);
    if (!budget->Scan(key.size() + 64)) return budget->Error();
    if (seen.insert(std::move(key)).second) out.push_back(v);
  }
  if (!budget->Allocate(ListBytes(out.size()))) return budget->Error();
  return Value::List(std::move(out));
}

Value Flatten(const Value& list, Budget* budget) {
  if (!list.is(ValueKind::kList))
    return Value::Error("`flatten` needs a list, not " + DescribeKind(list));
  std::vector<Value> out;
  for (const Value& inner : list.items()) {
    if (!inner.is(ValueKind::kList))
      return Value::Error("`flatten` needs a list of lists, not of " + DescribeKind(inner));
    if (!budget->Allocate(ListBytes(inner.items().size()))) return budget->Error();
    for (const Value& v : inner.items()) out.push_back(v);
  }
  return Value::List(std::move(out));
}

Value IntervalMethod(FunctionId id, const std::vector<Value>& args, Budget* budget) {
  Interval a, b;
  Value bad = ToInterval(args[0], &a);
  if (bad.is_error()) return bad;
  if (id == FunctionId::kStart || id == FunctionId::kEnd || id == FunctionId::kDuration) {
    bool open = (id != FunctionId::kEnd && a.start == Interval::kOpenStart) ||
                (id != FunctionId::kStart && a.end == Interval::kOpenEnd);
    if (open)
      return Value::Error("the interval " + IntervalValue(a).ToLiteral() + " is open-ended");
    if (id == FunctionId::kStart) return Value::Date(a.Start());
    if (id == FunctionId::kEnd) return Value::Date(a.End());
    return Value::Duration(a.end - a.start);
  }
  if (id == FunctionId::kContains && args[1].is(ValueKind::kDate)) {
    int64_t t = args[1].date_value().seconds;
    return Value::Bool(a.start <= t && t < a.end);
  }
  bad = ToInterval(args[1], &b);
  if (bad.is_error()) return bad;
  switch (id) {
    case FunctionId::kOverlaps:
      return Value::Bool(std::max(a.start, b.start) < std::min(a.end, b.end));
    case FunctionId::kContains:
      return Value::Bool(a.start <= b.start && b.end <= a.end);
    default: {  // kIntersect: empty (start == end) when they do not overlap
      if (!budget->Allocate(MapBytes(2))) return budget->Error();
      Interval both = Clip(a, b);
      if (both.end < both.start)
        both = Interval{both.start, both.start, both.start_offset, both.start_offset};
      return IntervalValue(both);
    }
  }
}

// As the stdlib's `during` words it: "from `2027-04-15` to `2027-04-17`",
// "from `2027-04-15` on", "until `2027-04-17`", "at all times".
std::string IntervalText(const Interval& i) {
  auto date = [](const DateTime& t) { return "`" + FormatDateTime(t) + "`"; };
  bool from = i.start != Interval::kOpenStart, to = i.end != Interval::kOpenEnd;
  if (from && to) return "from " + date(i.Start()) + " to " + date(i.End());
  if (from) return "from " + date(i.Start()) + " on";
  if (to) return "until " + date(i.End());
  return "at all times";
}

// One step that holds something: its interval (and its worst step's, for
// a stretch), amount and items, cut after `item_chars` of items.
std::string StepText(const Steps& steps, const Steps::Step& step, size_t item_chars) {
  std::string text = IntervalText(step.window);
  if (!(step.window == step.worst)) text += ", at worst " + IntervalText(step.worst);
  text += ": " + step.amount.ToLiteral(40);
  if (step.count == 0) return text;
  text += " (";
  size_t listed = text.size();
  for (uint32_t k = 0; k < step.count; ++k) {
    const Value& item = steps.items[steps.held[step.first + k]];
    std::string_view id = item.Id();
    text += (k > 0 ? ", " : "") + (id.empty() ? item.ToLiteral(40) : std::string(id));
    if (text.size() - listed > item_chars && k + 1 < step.count) return text + ", …)";
  }
  return text + ")";
}

}  // namespace

std::string StepsText(const Value& v, size_t max_chars) {
  // A timeline, or what its methods return: a step or a list of steps.
  Steps scratch;
  const Steps* steps = StepsOf(v);
  if (steps == nullptr && v.is(ValueKind::kMap) && AddPlainStep(v, &scratch))
    return StepText(scratch, scratch.steps[0], SIZE_MAX);  // one step, whole
  if (steps == nullptr && v.is(ValueKind::kList) &&
      std::all_of(v.items().begin(), v.items().end(),
                  [&](const Value& s) { return AddPlainStep(s, &scratch); })) {
    steps = &scratch;
  }
  if (steps == nullptr) return v.ToLiteral(max_chars);
  std::string text;
  for (const Steps::Step& step : steps->steps) {
    if (step.count == 0 && steps->steps.size() > 1)
      continue;  // a stretch of a timeline where nothing holds
    text += (text.empty() ? "" : "; ") + StepText(*steps, step, kStepChars);
    if (text.size() > max_chars) return text.substr(0, max_chars - 3) + "...";
  }
  if (text.empty()) return steps->steps.empty() ? "[]" : "nothing held";
  return text;
}

Value ToInterval(const Value& v, Interval* out) {
  if (!v.is(ValueKind::kMap)) return Value::Error("not an interval: " + DescribeKind(v), v.loc());
  *out = Interval{};
  const Value* start = v.Field(N().start);
  const Value* end = v.Field(N().end);
  const Value* duration = v.Field(N().duration);
  if (start != nullptr && start->is(ValueKind::kDate)) {
    out->start = start->date_value().seconds;
    out->start_offset = start->date_value().offset;
  }
  if (end != nullptr && end->is(ValueKind::kDate)) {
    out->end = end->date_value().seconds;
    out->end_offset = end->date_value().offset;
  } else if (duration != nullptr && duration->is(ValueKind::kDuration) &&
             out->start != Interval::kOpenStart) {
    // Exact to the second, and written as its start is; a window past the
    // last date a value holds ends there.
    int64_t seconds = std::clamp<int64_t>(duration->int_value(), 0, DateTime::kMaxSeconds);
    out->end = std::min(out->start + seconds, DateTime::kMaxSeconds);
    out->end_offset = out->start_offset;
  }
  return Value();
}

Value IntervalValue(const Interval& i) {
  MapEntries entries;
  if (i.start != Interval::kOpenStart) entries.emplace_back(N().start, Value::Date(i.Start()));
  if (i.end != Interval::kOpenEnd) entries.emplace_back(N().end, Value::Date(i.End()));
  return Value::Map(std::move(entries));
}

bool StepWindow(const Value& v, Interval* out) {
  const Value* amount = nullptr;
  const Value* items = nullptr;
  return v.is(ValueKind::kMap) && ReadStep(v, out, &amount, &items);
}

Value BuildTimeline(const std::vector<TimelineItem>& items, Budget* budget) {
  std::vector<Event> events;
  for (uint32_t k = 0; k < items.size(); ++k) {
    const TimelineItem& item = items[k];
    if (item.windows.empty()) {
      events.push_back({Interval::kOpenStart, k, true, DateTime::kDateOnly});
      continue;
    }
    for (const Interval& w : item.windows) {
      if (w.end <= w.start) continue;  // holds at no moment
      events.push_back({w.start, k, true, w.start_offset});
      if (w.end != Interval::kOpenEnd) events.push_back({w.end, k, false, w.end_offset});
    }
  }
  if (!budget->Allocate(events.size() * sizeof(Event))) return budget->Error();
  // Sorting n events: about n log n steps.
  uint64_t log = 1;
  while ((uint64_t{1} << log) < events.size()) ++log;
  if (!budget->Steps(events.size() * log)) return budget->Error();
  return Timeline(items, &events, budget);
}

Value GroupItems(const std::vector<std::pair<Value, Value>>& keyed, Budget* budget) {
  std::vector<std::pair<std::string, std::vector<Value>>> groups;
  std::unordered_map<std::string, size_t> index;
  for (const auto& [key, item] : keyed) {
    if (!key.is(ValueKind::kString))
      return Value::Error("the key of `group` must be a string, not " + DescribeKind(key));
    std::string text(key.string_value());
    auto [it, fresh] = index.emplace(text, groups.size());
    if (fresh) groups.emplace_back(std::move(text), std::vector<Value>{});
    groups[it->second].second.push_back(item);
  }
  if (!budget->Allocate(MapBytes(groups.size()) + ListBytes(keyed.size()))) return budget->Error();
  MapEntries entries;
  for (auto& [key, list] : groups) entries.emplace_back(Key(key), Value::List(std::move(list)));
  return Value::Map(std::move(entries));
}

Value CallTimeBuiltin(FunctionId id, const std::vector<Value>& args, Budget* budget) {
  switch (id) {
    case FunctionId::kDistinct:
      return Distinct(args[0], budget);
    case FunctionId::kFlatten:
      return Flatten(args[0], budget);
    case FunctionId::kPeak:
      return Peak(args[0], budget);
    case FunctionId::kSteps:
      return AllSteps(args[0], budget);
    case FunctionId::kAt:
      return At(args[0], args[1]);
    case FunctionId::kOver:
    case FunctionId::kUnder:
      return Beyond(args[0], args[1], args.size() > 2 ? args[2] : Value(), id == FunctionId::kOver,
                    budget);
    case FunctionId::kInterval:
      return MakeInterval(args[0], args[1], budget);
    case FunctionId::kPlus:
    case FunctionId::kMinus:
      return Merge(args[0], args[1],
                   id == FunctionId::kPlus ? syntax::BinaryOp::kAdd : syntax::BinaryOp::kSub,
                   budget);
    default:
      return IntervalMethod(id, args, budget);
  }
}

}  // namespace capops::eval
