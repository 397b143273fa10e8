// SPDX-License-Identifier: Apache-2.0
// The outline of a fact file (document_symbols.h). Entry point:
// DocumentSymbols.
#include "engine/lsp/document_symbols.h"

#include <string>
#include <utility>

#include "engine/facts/yaml_outline.h"
#include "engine/lsp/position.h"

namespace capops::lsp {

using Json = nlohmann::json;
using facts::YamlNode;

namespace {

// LSP's SymbolKind.
constexpr int kSymbolModule = 2;
constexpr int kSymbolField = 8;
constexpr int kSymbolArray = 18;
constexpr int kSymbolObject = 19;

// The facts that say what a record is, in the order its detail shows them.
constexpr std::string_view kDetailFields[] = {"slice",  "kind", "role",
                                              "demand", "pool", "accelerator"};

Json Range(std::string_view text, const SourceLoc& begin, const SourceLoc& end) {
  SourceLoc last = end.line != 0 && !(end.line < begin.line ||
                                      (end.line == begin.line && end.column < begin.column))
                       ? end
                       : begin;
  return {{"start", PositionIn(text, begin.line, begin.column)},
          {"end", PositionIn(text, last.line, last.column)}};
}

// A symbol whose range runs from its key (when it has one) to its end.
Json Symbol(std::string_view text, std::string name, int kind, const YamlNode& node,
            const SourceLoc& select_begin, const SourceLoc& select_end) {
  SourceLoc begin = node.has_key ? node.key_at : node.begin;
  if (name.empty()) name = "(unnamed)";  // the protocol wants a name
  return {{"name", std::move(name)},
          {"kind", kind},
          {"range", Range(text, begin, node.end)},
          {"selectionRange", Range(text, select_begin, select_end)}};
}

std::string Detail(const YamlNode& record) {
  std::string out;
  auto add = [&](const std::string& part) { out += (out.empty() ? "" : " · ") + part; };
  for (std::string_view field : kDetailFields) {
    const YamlNode* v = record.Child(field);
    if (v != nullptr && v->shape == YamlNode::Shape::kScalar && !v->text.empty()) {
      add(field == "pool" || field == "demand" || field == "accelerator"
              ? std::string(field) + " " + v->text
              : v->text);
    }
  }
  const YamlNode* gpus = record.Child("gpus");
  if (gpus != nullptr && gpus->shape == YamlNode::Shape::kScalar && !gpus->text.empty())
    add(gpus->text + (gpus->text == "1" ? " GPU" : " GPUs"));
  return out;
}

// The records of one keyed list, each named by its id (else its place).
Json Items(std::string_view text, const YamlNode& list) {
  Json out = Json::array();
  for (size_t i = 0; i < list.children.size(); ++i) {
    const YamlNode& item = list.children[i];
    const YamlNode* id = item.Child("id");
    bool named = id != nullptr && id->shape == YamlNode::Shape::kScalar && !id->text.empty();
    Json s = named ? Symbol(text, id->text, kSymbolObject, item, id->begin, id->end)
                   : Symbol(text, "#" + std::to_string(i + 1), kSymbolObject, item, item.begin,
                            item.begin);
    if (std::string detail = Detail(item); !detail.empty()) s["detail"] = detail;
    out.push_back(std::move(s));
  }
  return out;
}

// A document's symbols: its lists of records, and its metadata.
Json Outline(std::string_view text, const YamlNode& root) {
  Json out = Json::array();
  for (const YamlNode& field : root.children) {
    if (!field.has_key) continue;
    SourceLoc key_end{kNoFile, field.key_at.line, field.key_at.column + CharCount(field.key)};
    if (field.shape == YamlNode::Shape::kList) {
      Json s = Symbol(text, field.key, kSymbolArray, field, field.key_at, key_end);
      s["detail"] = std::to_string(field.children.size()) +
                    (field.children.size() == 1 ? " record" : " records");
      s["children"] = Items(text, field);
      out.push_back(std::move(s));
    } else if (field.key == "metadata" && field.shape == YamlNode::Shape::kMap) {
      Json s = Symbol(text, field.key, kSymbolField, field, field.key_at, key_end);
      const YamlNode* name = field.Child("name");
      if (name != nullptr && name->shape == YamlNode::Shape::kScalar) s["detail"] = name->text;
      out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace

Json DocumentSymbols(std::string_view text) {
  std::vector<YamlNode> roots = facts::YamlOutline(text);
  Json out = Json::array();
  for (const YamlNode& root : roots) {
    if (root.shape != YamlNode::Shape::kMap) continue;
    Json symbols = Outline(text, root);
    if (roots.size() == 1) return symbols;
    const YamlNode* kind = root.Child("kind");
    std::string name =
        kind != nullptr && kind->shape == YamlNode::Shape::kScalar ? kind->text : "document";
    Json s = Symbol(text, name, kSymbolModule, root, kind != nullptr ? kind->begin : root.begin,
                    kind != nullptr ? kind->end : root.begin);
    s["children"] = std::move(symbols);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace capops::lsp
