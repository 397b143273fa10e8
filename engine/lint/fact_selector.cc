// SPDX-License-Identifier: Apache-2.0
// Resolving a fact selector (fact_selector.h). Entry point: SelectFact.
#include "engine/lint/fact_selector.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace capops::lint {

namespace {

// `plan.allocations[a-train].window` → the value there, or nullptr. Without
// `plan.` or `inventory.`, a path starts in the plan, or in the inventory
// when only the inventory has its first field (`pools[train-eu]`).
const Value* Resolve(const eval::Facts& facts, std::string path, std::string* error) {
  const Value* at = nullptr;
  for (const char* root : {"plan.", "inventory."}) {
    if (path.rfind(root, 0) == 0) {
      at = std::string(root) == "plan." ? &facts.plan : &facts.inventory;
      path = path.substr(std::string(root).size());
    }
  }
  if (at == nullptr) {
    std::string first = path.substr(0, path.find_first_of(".["));
    bool inventory_only = facts.plan.Field(first) == nullptr &&
                          facts.inventory.is(ValueKind::kMap) &&
                          facts.inventory.Field(first) != nullptr;
    at = inventory_only ? &facts.inventory : &facts.plan;
  }
  size_t i = 0;
  while (i < path.size() && at != nullptr) {
    if (path[i] == '.') ++i;
    size_t name_end = path.find_first_of(".[", i);
    std::string name =
        path.substr(i, name_end == std::string::npos ? std::string::npos : name_end - i);
    if (!name.empty()) at = at->Field(name);
    i = name_end == std::string::npos ? path.size() : name_end;
    while (at != nullptr && i < path.size() && path[i] == '[') {
      size_t close = path.find(']', i);
      if (close == std::string::npos) {
        *error = "unclosed `[` in selector";
        return nullptr;
      }
      std::string key = path.substr(i + 1, close - i - 1);
      bool number = !key.empty() && std::all_of(key.begin(), key.end(), ::isdigit);
      const Value* item =
          number && std::stoul(key) < at->items().size() ? &at->items()[std::stoul(key)] : nullptr;
      at = item != nullptr ? item : at->FindById(key);
      i = close + 1;
    }
  }
  if (at == nullptr && error->empty()) *error = "nothing in the facts at this selector";
  return at;
}

// `plan.yaml:37` selects the item that starts on that line.
bool ParseFileLine(const std::string& selector, std::string* file, uint32_t* line) {
  size_t colon = selector.rfind(':');
  if (colon == std::string::npos || colon + 1 == selector.size()) return false;
  std::string digits = selector.substr(colon + 1);
  if (!std::all_of(digits.begin(), digits.end(), ::isdigit) || digits.size() > 9) return false;
  *file = selector.substr(0, colon);
  *line = static_cast<uint32_t>(std::stoul(digits));
  return true;
}

// True when some fact value satisfies `focus`; walked without recursion, so
// deep facts cannot overflow the stack.
bool AnyFact(const eval::Facts& facts, const std::function<bool(const Value&)>& focus) {
  std::vector<const Value*> pending = {&facts.plan, &facts.inventory};
  while (!pending.empty()) {
    const Value* v = pending.back();
    pending.pop_back();
    if (focus(*v)) return true;
    if (v->is(ValueKind::kList)) {
      for (const Value& item : v->items()) pending.push_back(&item);
    } else if (v->is(ValueKind::kMap)) {
      for (const auto& [key, value] : v->entries()) pending.push_back(&value);
    }
  }
  return false;
}

}  // namespace

bool SelectFact(const eval::Facts& facts, const SourceManager& sources, const std::string& selector,
                std::function<bool(const Value&)>* focus, std::string* error) {
  std::string file;
  uint32_t line = 0;
  if (ParseFileLine(selector, &file, &line)) {
    const SourceManager* in = &sources;
    *focus = [in, file, line](const Value& v) {
      std::string_view path = in->Path(v.loc().file);
      return v.loc().line == line && path.size() >= file.size() &&
             path.substr(path.size() - file.size()) == file;
    };
    // A line with no fact on it (past the end, a comment, another file) is
    // a selector that selects nothing: said, never answered as "not in the domain".
    if (AnyFact(facts, *focus)) return true;
    *error =
        "`" + selector + "`: no fact starts on line " + std::to_string(line) + " of `" + file + "`";
    return false;
  }
  std::string why;
  const Value* target = Resolve(facts, selector, &why);
  if (target == nullptr || !target->loc().valid()) {
    *error = "`" + selector + "`: " + why;
    return false;
  }
  SourceLoc loc = target->loc();
  *focus = [loc](const Value& v) { return v.loc() == loc; };
  return true;
}

}  // namespace capops::lint
