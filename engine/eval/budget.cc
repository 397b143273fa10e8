// SPDX-License-Identifier: Apache-2.0
// The evaluation budget's messages, and the bounds that let work on large
// values be charged before it is done: Extent, Render, ChargeEquality.
#include "engine/eval/budget.h"

#include <string>
#include <vector>

namespace capops::eval {

Value Budget::Error() const {
  if (memory_)
    return Value::Error("evaluation budget of " + std::to_string(max_bytes_) + " bytes exceeded");
  return Value::Error("evaluation budget of " + std::to_string(max_steps_) + " steps exceeded");
}

const char* Budget::Help() const {
  if (memory_) {
    return "raise the budget with `--max-memory`, or build smaller values: every string, list and "
           "map the rule "
           "builds counts";
  }
  return "raise the budget with `--max-steps`, or bound the rule's loops and the lengths of the "
         "strings it scans";
}

// Iterative: a value built by nesting calls may be deep.
uint64_t Extent(const Value& v, uint64_t limit) {
  // A scalar as text, or an item's separator and brackets; a string may be
  // quoted, each character escaped.
  constexpr uint64_t kNode = 32;
  uint64_t total = 0;
  auto add = [&](const Value& x) {
    total += kNode;
    if (x.is(ValueKind::kString) || x.is(ValueKind::kError)) total += 2 * x.string_value().size();
    return (x.is(ValueKind::kList) && !x.items().empty()) ||
           (x.is(ValueKind::kMap) && !x.entries().empty());
  };
  struct Frame {
    const Value* parent;
    size_t next;
  };
  std::vector<Frame> stack;
  if (add(v)) stack.push_back({&v, 0});
  while (!stack.empty() && total <= limit) {
    Frame& top = stack.back();
    const Value& parent = *top.parent;
    bool list = parent.is(ValueKind::kList);
    if (top.next == (list ? parent.items().size() : parent.entries().size())) {
      stack.pop_back();
      continue;
    }
    size_t i = top.next++;
    const Value* child = nullptr;
    if (list) {
      child = &parent.items()[i];
    } else {
      MapView::Entry entry = parent.entries()[i];
      total += entry.first.str().size();
      child = &entry.second;
    }
    if (add(*child)) stack.push_back({child, 0});
  }
  return total;
}

bool Render(const Value& v, Budget* budget, std::string* out) {
  if (v.is(ValueKind::kString)) {
    if (!budget->Allocate(StringBytes(v.string_value().size()))) return false;
    *out = std::string(v.string_value());
    return true;
  }
  if (!v.is(ValueKind::kList) && !v.is(ValueKind::kMap)) {
    std::string text = v.ToString();  // a scalar: a few bytes
    if (!budget->Allocate(StringBytes(text.size()))) return false;
    *out = std::move(text);
    return true;
  }
  uint64_t bound = Extent(v, budget->bytes_left());
  if (!budget->Allocate(StringBytes(bound))) return false;
  *out = v.ToString();
  return true;
}

bool ChargeDeepEquality(const Value& a, const Value& b, Budget* budget) {
  uint64_t left = budget->steps_left();
  uint64_t limit =
      left > UINT64_MAX / Budget::kBytesPerStep ? UINT64_MAX : left * Budget::kBytesPerStep;
  uint64_t work = Extent(a, limit);
  if (work > limit) return budget->Steps(UINT64_MAX);  // more than is left, whatever the rounding
  return budget->Scan(std::min(work, Extent(b, work)));
}

std::string Shown(std::string_view text) {
  constexpr size_t kMax = 120;
  if (text.size() <= kMax) return std::string(text);
  size_t cut = kMax - 20;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "… (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace capops::eval
