// SPDX-License-Identifier: Apache-2.0
// YamlOutline (yaml_outline.h): one pass of libfyaml's events over a YAML
// text, the open nodes kept on a stack of their own (no recursion).
#include "engine/facts/yaml_outline.h"

#include <utility>

#include "engine/facts/yaml_events.h"

namespace capops::facts {

using yaml::EventSource;
using yaml::TokenText;

const YamlNode* YamlNode::Child(std::string_view name) const {
  if (shape != Shape::kMap) return nullptr;
  for (const YamlNode& c : children) {
    if (c.has_key && c.key == name) return &c;
  }
  return nullptr;
}

namespace {

SourceLoc At(const fy_mark* mark) {
  if (mark == nullptr) return SourceLoc{};
  return SourceLoc{kNoFile, static_cast<uint32_t>(mark->line) + 1,
                   static_cast<uint32_t>(mark->column) + 1};
}

bool Before(const SourceLoc& a, const SourceLoc& b) {
  return a.line < b.line || (a.line == b.line && a.column < b.column);
}

struct Open {
  YamlNode node;
  bool kept = true;        // false past max_depth: its events are only counted
  bool expect_key = true;  // a mapping's next scalar is a key
  std::string key;         // the key whose value comes next
  SourceLoc key_at;
};

class Builder {
 public:
  explicit Builder(size_t max_depth) : max_depth_(max_depth) {}

  void Event(fy_event* event, std::string_view text) {
    fy_event_type type = event->type;
    const fy_mark* start = fy_event_start_mark(event);
    const fy_mark* stop = fy_event_end_mark(event);
    if (type == FYET_DOCUMENT_START) {
      CloseAll();
      return;
    }
    if (type == FYET_MAPPING_END || type == FYET_SEQUENCE_END) {
      // A flow collection ends with its bracket; a block one with the last
      // thing in it (its end mark is where the next line's token starts).
      bool flow = start != nullptr && start->input_pos < text.size() &&
                  (text[start->input_pos] == '}' || text[start->input_pos] == ']');
      if (flow) last_end_ = At(stop);
      Close();
      return;
    }
    if (type != FYET_SCALAR && type != FYET_ALIAS && type != FYET_MAPPING_START &&
        type != FYET_SEQUENCE_START)
      return;
    YamlNode node;
    node.begin = At(start);
    node.end = At(stop);
    if (type == FYET_SCALAR) {
      node.text = std::string(TokenText(event->scalar.value));
      fy_scalar_style style = fy_token_scalar_style(event->scalar.value);
      if ((style == FYSS_SINGLE_QUOTED || style == FYSS_DOUBLE_QUOTED) && node.begin.column > 1)
        --node.begin.column;  // the mark is past the opening quote
    }
    Open* parent = stack_.empty() ? nullptr : &stack_.back();
    if (parent != nullptr && parent->node.shape == YamlNode::Shape::kMap && parent->expect_key) {
      parent->expect_key = false;
      parent->key = type == FYET_SCALAR ? node.text : "";
      parent->key_at = node.begin;
      last_end_ = node.end;
      // A key: the value that follows carries it; a complex key is read
      // through and left out.
      if (type == FYET_MAPPING_START || type == FYET_SEQUENCE_START)
        stack_.push_back(Opened(std::move(node), false));
      return;
    }
    if (parent != nullptr && parent->node.shape == YamlNode::Shape::kMap) {
      parent->expect_key = true;
      node.has_key = true;
      node.key = std::move(parent->key);
      node.key_at = parent->key_at;
    }
    if (type == FYET_MAPPING_START || type == FYET_SEQUENCE_START) {
      node.shape = type == FYET_MAPPING_START ? YamlNode::Shape::kMap : YamlNode::Shape::kList;
      bool kept = stack_.size() < max_depth_ && (parent == nullptr || parent->kept);
      stack_.push_back(Opened(std::move(node), kept));
      last_end_ = stack_.back().node.begin;
      return;
    }
    last_end_ = node.end;
    Keep(std::move(node));
  }

  std::vector<YamlNode> Finish() {
    CloseAll();
    return std::move(roots_);
  }

 private:
  static Open Opened(YamlNode node, bool kept) {
    Open open;
    open.node = std::move(node);
    open.kept = kept;
    return open;
  }
  void Keep(YamlNode node) {
    if (stack_.empty()) {
      roots_.push_back(std::move(node));
    } else if (stack_.back().kept) {
      stack_.back().node.children.push_back(std::move(node));
    }
  }
  void Close() {
    if (stack_.empty()) return;
    Open open = std::move(stack_.back());
    stack_.pop_back();
    if (Before(open.node.begin, last_end_)) open.node.end = last_end_;
    if (open.kept) Keep(std::move(open.node));
  }
  void CloseAll() {
    while (!stack_.empty()) Close();
  }

  size_t max_depth_;
  std::vector<Open> stack_;
  std::vector<YamlNode> roots_;
  SourceLoc last_end_;
};

}  // namespace

std::vector<YamlNode> YamlOutline(std::string_view text, size_t max_depth) {
  Builder builder(max_depth);
  EventSource events(text);
  while (fy_event* event = events.Next()) builder.Event(event, text);
  return builder.Finish();
}

}  // namespace capops::facts
