// SPDX-License-Identifier: Apache-2.0
// A reader of the simple subset of YAML most fact files are written in,
// line by line, with no token or event objects in between: block mappings
// and sequences indented with spaces, plain scalars on one line, quoted
// scalars on one line, flow collections on one line, comments, and `---`
// between documents. Anything else (anchors, aliases, tags, block scalars,
// multi-line scalars or collections, complex keys, tabs, CRLF, directives)
// is unsupported: the reader says so and the loader reads the whole text
// again with libfyaml. Both give the same node events for the texts this
// reader reads (engine/facts/simple_yaml_test.cc holds it to that), so the
// same document builder makes the same values of them. Internal to facts.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/facts/node_event.h"
#include "engine/facts/yaml_events.h"

namespace capops::facts {

/// Where a large text can be read in two halves (FindSimpleSplit): the
/// start of an item of a block sequence that is the value of a top-level
/// key, about half way through the text.
struct SimpleYamlSplit {
  size_t offset = 0;       // the item's line, in the text
  int line = 0;            // its 0-based line number
  size_t item_indent = 0;  // the column of its `-`
  std::string key;         // the top-level key whose sequence it is in
};

/// A place to split `text`, guessed from its lines alone: the reader of
/// each half checks that it holds (StoppedBetweenItems, and the second
/// half's reading of its own text). Nullopt when none is seen.
std::optional<SimpleYamlSplit> FindSimpleSplit(std::string_view text);

class SimpleYamlReader {
 public:
  /// Over text the caller keeps alive.
  SimpleYamlReader(std::string_view text, const yaml::Locator& at);
  /// Over a file on disk, read in blocks from where `fd` is; `fd` stays the
  /// caller's.
  SimpleYamlReader(int fd, const yaml::Locator& at);

  enum class Step { kDocumentStart, kNode, kDocumentEnd, kEnd, kUnsupported };
  /// The next step; with kNode, `*event` (its texts valid until the next
  /// call). After kEnd or kUnsupported, the same again.
  Step Next(NodeEvent* event);

  /// The first half of a split text: reads no line from `split.offset` on,
  /// and ends its document there.
  void StopAt(const SimpleYamlSplit& split);
  /// After kEnd, with StopAt: whether the text read up to the split left
  /// the reader where the split says, in one document, inside the
  /// top-level key's sequence and between two of its items.
  bool StoppedBetweenItems() const { return stopped_between_items_; }
  /// The second half: the reader starts at `split.offset` (the text's, or
  /// where the descriptor stands) inside the document the first half
  /// began, in the top-level key's sequence, before an item; its first
  /// step is a node, not kDocumentStart.
  void ResumeAt(const SimpleYamlSplit& split);

 private:
  struct Frame {
    bool is_map = false;
    size_t indent = 0;        // the column its entries start at
    bool indentless = false;  // a sequence at its key's own indent (`key:` then `- a`)
  };
  // What the line before left open in the innermost collection.
  enum class Pending { kNone, kMapValue, kSequenceItem };

  // Reads lines until steps are queued; false when the text is not simple.
  bool Fill();
  bool NextLine(std::string_view* line);
  bool ReadNextLine(std::string_view* line);
  bool SettleBeforeItem(size_t indent);
  bool ReadLine(std::string_view line);
  bool ReadContent(size_t indent);
  bool MapEntry(size_t key_at, size_t key_end);
  bool SequenceEntry(size_t dash_at);
  // The node that starts at `at` and ends the line; `owner` is the indent
  // of the collection it is in (a plain scalar's next line must not be
  // deeper: it would continue it).
  bool Inline(size_t at, size_t owner);
  bool Flow(size_t* at, size_t depth);
  bool FlowPlain(size_t* at, bool key);
  bool Quoted(size_t* at);
  // Only spaces, then the end of the line or a comment, from `at`.
  bool RestIsBlank(size_t at) const;
  // The end of a `key:` at `at` (the colon's offset), or npos.
  size_t KeyEnd(size_t at) const;
  bool IsSequenceEntry(size_t at) const;

  void OpenDocument();
  bool CloseDocument();
  void Open(bool is_map, size_t indent, size_t at, bool indentless = false);
  void Close();
  void Scalar(size_t at, std::string_view text, bool plain);
  void Empty();
  SourceLoc At(size_t offset) const;

  // A queued step; a node's event in the fields this reader sets (it
  // never gives a tag or an anchor).
  struct Item {
    Step step = Step::kNode;
    NodeEvent::Type type = NodeEvent::Type::kScalar;
    bool plain = false;
    bool located = false;
    SourceLoc loc;
    std::string_view text;
  };
  void Push(NodeEvent::Type type, std::optional<SourceLoc> loc, std::string_view text = {},
            bool plain = false);

  const yaml::Locator& at_;
  std::string_view text_;  // in memory
  size_t text_at_ = 0;
  int fd_ = -1;  // else from disk
  std::string buffer_;
  size_t buffer_at_ = 0;
  bool eof_ = false;

  bool failed_ = false;
  bool done_ = false;
  std::vector<Item> items_;
  size_t next_item_ = 0;
  std::deque<std::string> texts_;  // this line's unescaped quoted texts

  size_t next_offset_ = 0;  // where the next line starts
  size_t end_ = static_cast<size_t>(-1);
  const SimpleYamlSplit* split_ = nullptr;  // with StopAt
  bool stopped_between_items_ = false;
  size_t documents_ = 0;

  std::string_view line_;
  bool ascii_ = true;  // line_ has no byte above 0x7F
  int line_number_ = -1;
  bool in_document_ = false;
  bool root_done_ = false;
  std::vector<Frame> stack_;
  Pending pending_ = Pending::kNone;
  size_t plain_owner_ = kNoOwner;  // the indent a block plain scalar ending the last line was under
  static constexpr size_t kNoOwner = static_cast<size_t>(-1);
};

}  // namespace capops::facts
