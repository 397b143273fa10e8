// SPDX-License-Identifier: Apache-2.0
// KeyLocator and PointAt (locate.h): one pass of libfyaml's events over a
// YAML text, for where a key is and for what is at a cursor.
#include "engine/facts/locate.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "engine/facts/yaml_events.h"

namespace capops::facts {

using yaml::EventSource;
using yaml::Locator;
using yaml::NodeLoc;
using yaml::TokenText;

namespace {

uint64_t Packed(const SourceLoc& loc) {
  return static_cast<uint64_t>(loc.line) << 32 | loc.column;
}

// Every map entry of a text whose value has a place of its own, as (value,
// key) packed locations, sorted by value.
std::vector<std::pair<uint64_t, uint64_t>> EntryPlaces(std::string_view text, const Locator& at) {
  struct Open {
    bool is_map;
    bool expect_key = true;
    SourceLoc key;
  };
  std::vector<std::pair<uint64_t, uint64_t>> places;
  std::vector<Open> stack;
  EventSource events(text);
  while (fy_event* event = events.Next()) {
    bool starts = event->type == FYET_SCALAR || event->type == FYET_ALIAS ||
                  event->type == FYET_MAPPING_START || event->type == FYET_SEQUENCE_START;
    if (starts && !stack.empty() && stack.back().is_map) {
      Open& map = stack.back();
      std::optional<SourceLoc> loc = NodeLoc(at, event);
      if (map.expect_key) {
        map.key = loc.value_or(SourceLoc{});
      } else if (loc && map.key.valid()) {
        places.emplace_back(Packed(*loc), Packed(map.key));
      }
      map.expect_key = !map.expect_key;
    }
    if (event->type == FYET_MAPPING_START || event->type == FYET_SEQUENCE_START) {
      stack.push_back(Open{event->type == FYET_MAPPING_START});
    } else if ((event->type == FYET_MAPPING_END || event->type == FYET_SEQUENCE_END) &&
               !stack.empty()) {
      stack.pop_back();
    } else if (event->type == FYET_DOCUMENT_START) {
      stack.clear();
    }
  }
  std::sort(places.begin(), places.end());
  return places;
}

}  // namespace

std::optional<YamlPoint> PointAt(std::string_view text, uint32_t line, uint32_t column) {
  using Mark = std::pair<int, int>;  // 0-based line and column, as libfyaml marks
  if (line == 0 || column == 0) return std::nullopt;
  const Mark at{static_cast<int>(line) - 1, static_cast<int>(column) - 1};
  struct Frame {
    bool is_map = false;
    bool expect_key = true;
    std::string key;  // the key whose value comes (or came) last
    Mark key_end{-1, -1};
    size_t items = 0;
    std::vector<std::string> keys;
  };
  std::vector<Frame> stack;
  std::optional<YamlPoint> found;
  size_t found_depth = 0;  // the mapping whose keys are still gathered; 0: none
  size_t document = 0;
  bool started = false;
  std::string kind;
  EventSource events(text);
  while (fy_event* event = events.Next()) {
    fy_event_type type = event->type;
    if (type == FYET_DOCUMENT_START) {
      if (found) break;
      if (started) ++document;
      started = true;
      stack.clear();
      kind.clear();
      continue;
    }
    if (type == FYET_DOCUMENT_END && found) break;
    if (type == FYET_MAPPING_END || type == FYET_SEQUENCE_END) {
      if (stack.size() == found_depth) found_depth = 0;
      if (!stack.empty()) stack.pop_back();
      continue;
    }
    if (type != FYET_SCALAR && type != FYET_ALIAS && type != FYET_MAPPING_START &&
        type != FYET_SEQUENCE_START)
      continue;
    Frame* top = stack.empty() ? nullptr : &stack.back();
    bool is_key = top != nullptr && top->is_map && top->expect_key;
    bool is_value = top != nullptr && top->is_map && !top->expect_key;
    std::string scalar =
        type == FYET_SCALAR ? std::string(TokenText(event->scalar.value)) : std::string();
    Mark begin{-1, -1}, end{-1, -1};
    if (const fy_mark* s = fy_event_start_mark(event), *e = fy_event_end_mark(event);
        s != nullptr && e != nullptr) {
      begin = {s->line, s->column};
      end = {e->line, e->column};
      fy_scalar_style style =
          type == FYET_SCALAR ? fy_token_scalar_style(event->scalar.value) : FYSS_PLAIN;
      if ((style == FYSS_SINGLE_QUOTED || style == FYSS_DOUBLE_QUOTED) && begin.second > 0)
        --begin.second;
    }
    bool found_here = false;
    if (!found && type == FYET_SCALAR) {
      bool empty = begin == end;
      bool hit = !empty && begin <= at && at <= end;
      if (empty && is_value && top->key_end.first == at.first && at >= top->key_end) {
        hit = true;  // `pool:` with nothing after it yet
        begin = end = at;
      }
      if (hit) {
        YamlPoint point;
        point.document = document;
        for (size_t i = 0; i < stack.size(); ++i) {
          const Frame& f = stack[i];
          bool last = i + 1 == stack.size();
          if (f.is_map && (!last || is_value)) point.path.push_back(PathStep{false, f.key, 0});
          if (!f.is_map) point.path.push_back(PathStep{true, "", last ? f.items : f.items - 1});
        }
        point.on_key = is_key;
        point.text = scalar;
        point.begin = SourceLoc{kNoFile, static_cast<uint32_t>(begin.first) + 1,
                                static_cast<uint32_t>(begin.second) + 1};
        point.end = SourceLoc{kNoFile, static_cast<uint32_t>(end.first) + 1,
                              static_cast<uint32_t>(end.second) + 1};
        if (top != nullptr && top->is_map) {
          point.keys = top->keys;
          found_depth = stack.size();
        }
        found = std::move(point);
        found_here = true;
      }
    }
    if (is_value && stack.size() == 1 && top->key == "kind" && type == FYET_SCALAR) kind = scalar;
    if (top != nullptr) {
      if (top->is_map) {
        if (is_key) {
          top->key = scalar;
          top->key_end = end;
          top->keys.push_back(scalar);
          if (found && !found_here && found_depth == stack.size()) found->keys.push_back(scalar);
        }
        top->expect_key = !top->expect_key;
      } else {
        ++top->items;
      }
    }
    if (type == FYET_MAPPING_START || type == FYET_SEQUENCE_START) {
      stack.emplace_back();
      stack.back().is_map = type == FYET_MAPPING_START;
    }
  }
  if (found) found->kind = kind;
  return found;
}

std::function<SourceLoc(SourceLoc)> KeyLocator(const SourceManager& sources, FileId file) {
  struct Table {
    bool built = false;
    std::vector<std::pair<uint64_t, uint64_t>> places;
  };
  auto table = std::make_shared<Table>();
  return [&sources, file, table](SourceLoc value) -> SourceLoc {
    if (value.file != file) return SourceLoc{};
    if (!table->built) {
      table->built = true;
      const SourceFile& source = sources.file(file);
      std::optional<std::string> read_back;
      if (source.released()) read_back = source.ReadText();
      std::string_view text =
          source.released() ? std::string_view(read_back.value_or("")) : source.text();
      table->places = EntryPlaces(text, Locator(source, file));
    }
    auto it = std::lower_bound(table->places.begin(), table->places.end(),
                               std::make_pair(Packed(value), uint64_t{0}));
    if (it == table->places.end() || it->first != Packed(value)) return SourceLoc{};
    return SourceLoc{file, static_cast<uint32_t>(it->second >> 32),
                     static_cast<uint32_t>(it->second)};
  };
}

}  // namespace capops::facts
