// The CPL formatter: lines re-indented from the token stream. Entry point:
// syntax::Format. Only whitespace outside tokens changes; every token,
// comment included, stays on its line in its order.
#include "engine/syntax/formatter.h"

#include <algorithm>
#include <sstream>

#include "CPLLexer.h"
#include "antlr4-runtime.h"

namespace capops::syntax {

namespace {

using gen::CPLLexer;

constexpr size_t kIndent = 2;

// Per line (1-based): the bracket depth before its first token, how many
// closing brackets open the line, and whether it continues a statement.
struct LineShape {
  size_t depth = 0;
  size_t leading_closers = 0;
  bool continuation = false;
  bool seen = false;  // the line has a token
};

std::vector<LineShape> Shapes(const std::string& text, size_t line_count) {
  std::vector<LineShape> shapes(line_count + 2);
  antlr4::ANTLRInputStream input(text);
  CPLLexer lexer(&input);
  lexer.removeErrorListeners();
  antlr4::CommonTokenStream tokens(&lexer);
  tokens.fill();
  size_t depth = 0;
  bool counting_closers = false;
  for (antlr4::Token* t : tokens.getTokens()) {
    size_t type = t->getType();
    if (type == antlr4::Token::EOF || type == CPLLexer::WS) continue;
    size_t line = t->getLine();
    if (line >= shapes.size()) break;
    std::string s = type == CPLLexer::STRING || t->getChannel() != 0 ? "" : t->getText();
    bool closer = s == ")" || s == "]" || s == "}";
    LineShape& shape = shapes[line];
    if (!shape.seen) {
      shape.seen = true;
      shape.depth = depth;
      // `because`, `fix`, `when` and `at` continue a deny/warn; a leading
      // operator continues an expression.
      shape.continuation = type == CPLLexer::BECAUSE || type == CPLLexer::FIX ||
                           type == CPLLexer::WHEN || type == CPLLexer::AT || s == "?" || s == ":" ||
                           s == "&&" || s == "||";
      counting_closers = true;
    }
    if (counting_closers && closer) {
      ++shape.leading_closers;
    } else {
      counting_closers = false;
    }
    if (s == "(" || s == "[" || s == "{") ++depth;
    if (closer && depth > 0) --depth;
  }
  return shapes;
}

std::string_view Trim(std::string_view line) {
  const char* kSpace = " \t\r\f\v";
  size_t begin = line.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return {};
  size_t end = line.find_last_not_of(kSpace);
  return line.substr(begin, end - begin + 1);
}

}  // namespace

FormatResult Format(const SourceManager& sources, FileId file, const ParseOptions& options) {
  FormatResult result;
  ParseResult parsed = Parse(sources, file, options);
  result.diagnostics = std::move(parsed.diagnostics);
  if (!parsed.module) return result;
  const std::string& text = sources.file(file).text();
  std::vector<std::string_view> lines;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(std::string_view(text).substr(start, end - start));
    start = end + 1;
  }
  std::vector<LineShape> shapes = Shapes(text, lines.size());
  size_t blank_run = 0;
  bool started = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view body = Trim(lines[i]);
    if (body.empty()) {
      ++blank_run;
      continue;
    }
    if (started && blank_run > 0) result.text += '\n';
    blank_run = 0;
    started = true;
    const LineShape& shape = shapes[i + 1];
    size_t level =
        shape.depth - std::min(shape.depth, shape.leading_closers) + (shape.continuation ? 1 : 0);
    result.text += std::string(level * kIndent, ' ');
    result.text += body;
    result.text += '\n';
  }
  result.ok = true;
  return result;
}

}  // namespace capops::syntax
