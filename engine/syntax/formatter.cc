// SPDX-License-Identifier: Apache-2.0
// The CPL formatter: a printer over the token stream. Entry point:
// syntax::Format.
//
// The file is lexed with its comments and parsed once more by the generated
// parser, whose tree serves only to give each token a role: a binary `-` or
// a unary one, the `<` of a type or of a comparison, the `{` of a rule body
// or of a map, the token that starts a clause. The printer then walks the
// tokens once, decides for each gap between two tokens whether it is
// nothing, a space, a line break or a blank line, and indents every line
// from a stack of open brackets. Comments travel in the gap before the token
// that follows them. A last check lexes the result and compares its tokens
// and comments with the input's, so that no spacing rule can ever glue two
// tokens into a different program.
#include "engine/syntax/formatter.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "CPLLexer.h"
#include "CPLParser.h"
#include "antlr4-runtime.h"

namespace capops::syntax {

namespace {

using gen::CPLLexer;
using gen::CPLParser;

constexpr size_t kIndentWidth = 2;
constexpr size_t kCommentGap = 2;  // spaces, at least, before a trailing comment

// What a token is, for spacing, line breaks and indentation.
enum class Role : uint8_t {
  kPlain,      // names, literals, keywords
  kOpen,       // `(` around an expression, `[` of a list, `{` of a map or set
  kCallOpen,   // `(` of a call, a method, an annotation or a fn; `[` of an index
  kClose,      // `)`, `]`, and `}` of a map or set
  kBlockOpen,  // `{` of a rule, record or test body
  kBlockClose,
  kEnumOpen,  // `{` of an enum: `{ a, b }` on one line
  kEnumClose,
  kComma,      // in a type or an annotation, and the `;` of a `let` expression
  kListComma,  // between elements of a list, a call, a map, an enum
  kDot,
  kBinary,      // `&&`, `+`, `==`, `in`, `=` …
  kCondOp,      // `?` and `:` of a conditional
  kUnary,       // prefix `!` and `-`
  kTightColon,  // `name: T`, `key: value`
  kOptional,    // `?` of `name?: T`
  kTypeOpen,    // `<` of `map<K, V>`
  kTypeClose,
  kAt,      // `@` of an annotation
  kDash,    // `-` inside a rule id such as `CAP-ALC-001`
  kDotDot,  // `..` of a field's range: `in 0.0..1.0`, `in 1..`, `in ..100`
};

// Whether a token must start a line, and whether a blank line comes first.
enum class Line : uint8_t { kJoin, kBreak, kBlank };

struct Comment {
  std::string text;        // without trailing whitespace
  size_t newlines_before;  // in the source, since the token or comment before it
};

struct Token {
  size_t type = 0;
  std::string text;  // empty for the end of the file
  Role role = Role::kPlain;
  Line line = Line::kJoin;
  bool element = false;           // starts a statement or an annotation: no continuation indent
  bool break_before = false;      // a line break the author put right before it is kept
  bool break_after = false;       // … or right after it
  std::vector<Comment> comments;  // the comments between the token before and this one
  size_t newlines_before = 0;     // in the source, since the last comment or token
};

bool IsOpener(Role r) {
  return r == Role::kOpen || r == Role::kCallOpen || r == Role::kBlockOpen || r == Role::kEnumOpen;
}

bool IsCloser(Role r) {
  return r == Role::kClose || r == Role::kBlockClose || r == Role::kEnumClose;
}

bool IsComment(size_t type) {
  return type == CPLLexer::LINE_COMMENT || type == CPLLexer::DOC_COMMENT;
}

std::string TrimRight(std::string s) {
  s.erase(s.find_last_not_of(" \t\r\f\v") + 1);
  return s;
}

void Force(Token* t, Line line) {
  t->line = std::max(t->line, line);
}

// ---------------------------------------------------------------- roles

template <typename Context>
bool Is(antlr4::ParserRuleContext* ctx) {
  return dynamic_cast<Context*>(ctx) != nullptr;
}

Role BracketRole(const std::string& s, antlr4::ParserRuleContext* parent) {
  size_t rule = parent->getRuleIndex();
  bool open = s == "(" || s == "[" || s == "{";
  if (s == "{" || s == "}") {
    if (rule == CPLParser::RulePrimary) return open ? Role::kOpen : Role::kClose;
    if (Is<CPLParser::EnumDeclContext>(parent)) return open ? Role::kEnumOpen : Role::kEnumClose;
    return open ? Role::kBlockOpen : Role::kBlockClose;
  }
  if (!open) return Role::kClose;
  bool grouping = rule == CPLParser::RulePrimary && !Is<CPLParser::CallPrimaryContext>(parent);
  return grouping ? Role::kOpen : Role::kCallOpen;
}

// Punctuation is told apart by its text and by the grammar rule it belongs to.
Role RoleOf(const Token& t, antlr4::ParserRuleContext* parent) {
  const std::string& s = t.text;
  size_t rule = parent->getRuleIndex();
  if (s.size() == 1 && std::string_view("()[]{}").find(s[0]) != std::string_view::npos) {
    return BracketRole(s, parent);
  }
  if (t.type == CPLLexer::IN) return rule == CPLParser::RuleRelation ? Role::kBinary : Role::kPlain;
  if (s == "," || s == ";") {  // `;` ends the value of an expression's `let`
    bool inert = s == ";" || rule == CPLParser::RuleTypeRef || rule == CPLParser::RuleAnnotation;
    return inert ? Role::kComma : Role::kListComma;
  }
  if (s == ".") return Role::kDot;
  if (s == "..") return Role::kDotDot;
  if (s == "@") return Role::kAt;
  if (s == "!") return Role::kUnary;
  if (s == "?" || s == ":") {
    if (rule == CPLParser::RuleExpr) return Role::kCondOp;
    return s == "?" ? Role::kOptional : Role::kTightColon;
  }
  if (s == "<" || s == ">") {
    if (rule != CPLParser::RuleTypeRef) return Role::kBinary;
    return s == "<" ? Role::kTypeOpen : Role::kTypeClose;
  }
  if (s == "-") {
    if (rule == CPLParser::RuleCalc) return Role::kBinary;
    bool sign = rule == CPLParser::RuleUnary || rule == CPLParser::RuleRangeBound;
    return sign ? Role::kUnary : Role::kDash;
  }
  static constexpr std::string_view kBinary[] = {
      "&&", "||", "==", "!=", "<=", ">=", "*", "/", "%", "+", "="};
  bool binary = std::find(std::begin(kBinary), std::end(kBinary), s) != std::end(kBinary);
  return binary ? Role::kBinary : Role::kPlain;
}

void MarkTerminal(antlr4::tree::TerminalNode* node, Token* t) {
  auto* parent = static_cast<antlr4::ParserRuleContext*>(node->parent);
  size_t rule = parent->getRuleIndex();
  t->role = RoleOf(*t, parent);
  bool in_annotation = rule == CPLParser::RuleAnnotation;
  switch (t->role) {
    case Role::kOpen:
    case Role::kCallOpen:
    case Role::kEnumOpen:
      t->break_after = !in_annotation;
      break;
    case Role::kClose:
    case Role::kEnumClose:
      t->break_before = !in_annotation;
      break;
    case Role::kBlockClose:
      Force(t, Line::kBreak);
      break;
    case Role::kListComma:
    case Role::kBinary:
      t->break_after = true;
      break;
    case Role::kCondOp:
      t->break_before = true;
      break;
    case Role::kAt:
      t->break_before = t->element = true;
      break;
    default:
      break;
  }
  if (t->type == CPLLexer::IF)
    t->break_before = true;  // a long element may put its condition below
  bool emit = rule == CPLParser::RuleEmit;
  if (emit && (t->type == CPLLexer::BECAUSE || t->type == CPLLexer::FIX)) Force(t, Line::kBreak);
  if ((emit || rule == CPLParser::RuleTestExpect) &&
      (t->type == CPLLexer::WHEN || t->type == CPLLexer::AT)) {
    t->break_before = true;
  }
  if (rule == CPLParser::RuleDecl && t->type == CPLLexer::RULE) {
    Force(t, Line::kBreak);
    t->element = true;
  }
}

// Statements start lines: declarations (after a blank line), clauses, emits,
// fields and the lines of a test.
template <typename TokenAt>
void MarkContext(antlr4::ParserRuleContext* ctx, TokenAt at) {
  switch (ctx->getRuleIndex()) {
    case CPLParser::RuleModule:
      for (antlr4::tree::ParseTree* child : ctx->children) {
        auto* item = dynamic_cast<antlr4::ParserRuleContext*>(child);
        if (item == nullptr) continue;
        Token* t = at(item->getStart());
        Force(t, Line::kBlank);
        t->element = true;
      }
      return;
    case CPLParser::RuleClause:
    case CPLParser::RuleEmit:
    case CPLParser::RuleFieldDecl:
    case CPLParser::RuleTestFacts:
    case CPLParser::RuleTestExpect: {
      Token* t = at(ctx->getStart());
      Force(t, Line::kBreak);
      t->element = true;
      return;
    }
    case CPLParser::RuleTestOption:
      at(ctx->getStart())->break_before = true;
      return;
    default:
      return;
  }
}

// The file's tokens, each with the comments before it; the last one stands
// for the end of the file. `slot` maps ANTLR's token index to ours.
std::vector<Token> Collect(antlr4::CommonTokenStream& stream, std::vector<size_t>* slot) {
  std::vector<Token> toks;
  std::vector<Comment> comments;
  size_t newlines = 0;
  for (antlr4::Token* t : stream.getTokens()) {
    size_t type = t->getType();
    std::string text = type == antlr4::Token::EOF ? "" : t->getText();
    if (type == CPLLexer::WS) {
      newlines += std::count(text.begin(), text.end(), '\n');
    } else if (IsComment(type)) {
      comments.push_back({TrimRight(text), newlines});
      newlines = 0;
    } else {
      (*slot)[t->getTokenIndex()] = toks.size();
      Token& tok = toks.emplace_back();
      tok.type = type;
      tok.text = std::move(text);
      tok.comments = std::move(comments);
      tok.newlines_before = newlines;
      comments.clear();
      newlines = 0;
    }
  }
  return toks;
}

// The first token of the file starts no line; imports stand together; an
// empty block is `{}`.
void Settle(std::vector<Token>* toks) {
  bool last_import = false;
  for (size_t k = 0; k < toks->size(); ++k) {
    Token& t = (*toks)[k];
    if (t.line == Line::kBlank) {
      bool import = t.type == CPLLexer::IMPORT;
      if (import && last_import) t.line = Line::kBreak;
      last_import = import;
    }
    if (k > 0 && t.role == Role::kBlockClose && (*toks)[k - 1].role == Role::kBlockOpen) {
      t.line = Line::kJoin;
    }
  }
  toks->front().line = Line::kJoin;
  toks->back().element = true;
}

// Lexes and parses `text` again (it parsed before) and gives each token its
// role. Empty if the parser disagrees, which would be a bug.
std::vector<Token> Classify(const std::string& text) {
  antlr4::ANTLRInputStream input(text);
  CPLLexer lexer(&input);
  lexer.removeErrorListeners();
  antlr4::CommonTokenStream stream(&lexer);
  stream.fill();
  CPLParser parser(&stream);
  parser.removeErrorListeners();
  CPLParser::ModuleContext* module = parser.module();
  if (parser.getNumberOfSyntaxErrors() != 0) return {};
  std::vector<size_t> slot(stream.size());
  std::vector<Token> toks = Collect(stream, &slot);
  auto at = [&](antlr4::Token* t) { return &toks[slot[t->getTokenIndex()]]; };
  // Iteratively: a parse tree may be a thousand levels deep.
  std::vector<antlr4::tree::ParseTree*> stack{module};
  while (!stack.empty()) {
    antlr4::tree::ParseTree* node = stack.back();
    stack.pop_back();
    if (auto* terminal = dynamic_cast<antlr4::tree::TerminalNode*>(node)) {
      antlr4::Token* symbol = terminal->getSymbol();
      if (symbol->getType() != antlr4::Token::EOF) MarkTerminal(terminal, at(symbol));
    } else if (auto* ctx = dynamic_cast<antlr4::ParserRuleContext*>(node)) {
      MarkContext(ctx, at);
      stack.insert(stack.end(), ctx->children.begin(), ctx->children.end());
    }
  }
  Settle(&toks);
  return toks;
}

// ---------------------------------------------------------------- layout

// The author's line breaks that stay: those at a break point, after moving
// a break before a binary operator to after it, and one after `?` or `:` to
// before it. breaks[k]: a line break before token k.
std::vector<bool> Breaks(const std::vector<Token>& toks) {
  std::vector<bool> breaks(toks.size());
  for (size_t k = 1; k + 1 < toks.size(); ++k) {
    const Token& t = toks[k];
    const Token& before = toks[k - 1];
    if (!t.comments.empty() || t.newlines_before == 0) continue;
    if (t.role == Role::kBinary) {
      breaks[k + 1] = true;
    } else if (before.role == Role::kCondOp) {
      breaks[k - 1] = true;
    } else if (t.break_before || before.break_after) {
      breaks[k] = true;
    }
  }
  return breaks;
}

// Whether two tokens on one line are separated by a space.
bool Spaced(const Token& before, const Token& t) {
  // `..` holds on to its bounds, and is apart from what is not one.
  if (t.role == Role::kDotDot) return before.type == CPLLexer::IN;
  switch (t.role) {
    case Role::kComma:
    case Role::kListComma:
    case Role::kClose:
    case Role::kDot:
    case Role::kCallOpen:
    case Role::kTightColon:
    case Role::kOptional:
    case Role::kTypeOpen:
    case Role::kTypeClose:
    case Role::kDash:
      return false;
    default:
      break;
  }
  if (before.role == Role::kDotDot)
    return t.role != Role::kUnary && t.type != CPLLexer::INT && t.type != CPLLexer::DOUBLE;
  switch (before.role) {
    case Role::kOpen:
    case Role::kCallOpen:
    case Role::kDot:
    case Role::kUnary:
    case Role::kOptional:
    case Role::kTypeOpen:
    case Role::kAt:
    case Role::kDash:
      return false;
    case Role::kBlockOpen:
      return t.role != Role::kBlockClose;
    default:
      return true;
  }
}

struct OutLine {
  size_t indent = 0;    // in levels
  std::string code;     // empty on a line that holds only a comment
  std::string comment;  // a trailing comment, or the line's only content
  bool blank_before = false;
  size_t comment_column = 0;
};

// An open bracket: the indent of the line that opened it, and of the lines inside.
struct Frame {
  size_t base = 0;
  size_t inner = 0;
};

// Lays the tokens out in lines. A line inside brackets is indented one level
// deeper than the line that opened the innermost of them (however many
// brackets that line opened); a line that continues an element or statement
// rather than starting one goes one level deeper still; a line that starts
// with a closing bracket lines up with the line that opened it.
class Printer {
 public:
  explicit Printer(const std::vector<Token>& toks) : toks_(toks), breaks_(Breaks(toks)) {}

  std::vector<OutLine> Print() {
    for (size_t k = 0; k < toks_.size(); ++k) {
      bool standalone = PlaceComments(k);
      if (k + 1 == toks_.size()) break;  // the end of the file
      PlaceToken(k, standalone);
      Role role = toks_[k].role;
      size_t indent = lines_.back().indent;
      if (IsOpener(role)) frames_.push_back({indent, indent + 1});
      if (IsCloser(role) && frames_.size() > 1) frames_.pop_back();
    }
    return std::move(lines_);
  }

 private:
  bool StartsElement(size_t k) const {
    if (k == 0 || toks_[k].element) return true;
    Role before = toks_[k - 1].role;
    return IsOpener(before) || before == Role::kListComma;
  }

  size_t IndentOf(size_t k) const {
    const Frame& top = frames_.back();
    if (IsCloser(toks_[k].role)) return top.base;
    return top.inner + (StartsElement(k) ? 0 : 1);
  }

  void StartLine(size_t indent, bool blank) {
    lines_.push_back(OutLine{indent, "", "", blank && !lines_.empty()});
  }

  // A comment right after a token stays on its line; the others get lines
  // of their own, indented like the token after them (like the inside of
  // the block, before a closing bracket). Blank lines the author left before
  // and after these are kept, one at most, except next to a bracket. True
  // when a comment got a line of its own.
  bool PlaceComments(size_t k) {
    const Token& t = toks_[k];
    size_t i = 0;
    if (!lines_.empty() && !t.comments.empty() && t.comments[0].newlines_before == 0) {
      lines_.back().comment = t.comments[0].text;
      i = 1;
    }
    size_t first = i;
    bool after_opener = k > 0 && IsOpener(toks_[k - 1].role);
    size_t indent = IsCloser(t.role) ? frames_.back().inner : IndentOf(k);
    for (; i < t.comments.size(); ++i) {
      bool blank = t.comments[i].newlines_before >= 2 && (i > first || !after_opener);
      if (i == first && t.line == Line::kBlank) blank = true;
      StartLine(indent, blank);
      lines_.back().comment = t.comments[i].text;
    }
    return i > first;
  }

  void PlaceToken(size_t k, bool after_standalone) {
    const Token& t = toks_[k];
    if (lines_.empty()) {
      StartLine(IndentOf(k), false);
    } else if (!t.comments.empty() || t.line != Line::kJoin || breaks_[k]) {
      bool blank =
          after_standalone ? t.newlines_before >= 2 && !IsCloser(t.role) : t.line == Line::kBlank;
      StartLine(IndentOf(k), blank);
    } else if (Spaced(toks_[k - 1], t)) {
      lines_.back().code += ' ';
    }
    lines_.back().code += t.text;
  }

  const std::vector<Token>& toks_;
  std::vector<bool> breaks_;
  std::vector<Frame> frames_{Frame{}};
  std::vector<OutLine> lines_;
};

size_t Width(std::string_view s) {
  return std::count_if(s.begin(), s.end(),
                       [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
}

// Trailing comments line up: within a run of lines of one indent, with no
// blank line and no comment-only line between them, every trailing comment
// starts two columns after the longest code that carries one.
void AlignComments(std::vector<OutLine>* lines) {
  for (size_t i = 0; i < lines->size();) {
    const OutLine& head = (*lines)[i];
    size_t end = i + 1;
    while (!head.code.empty() && end < lines->size() && !(*lines)[end].blank_before &&
           !(*lines)[end].code.empty() && (*lines)[end].indent == head.indent) {
      ++end;
    }
    size_t width = 0;
    for (size_t j = i; j < end; ++j) {
      const OutLine& l = (*lines)[j];
      if (!l.code.empty() && !l.comment.empty()) width = std::max(width, Width(l.code));
    }
    for (size_t j = i; j < end; ++j)
      (*lines)[j].comment_column = head.indent * kIndentWidth + width + kCommentGap;
    i = end;
  }
}

std::string Render(std::vector<OutLine> lines) {
  AlignComments(&lines);
  std::string out;
  for (const OutLine& l : lines) {
    if (l.blank_before) out += '\n';
    size_t column = l.indent * kIndentWidth;
    out.append(column, ' ');
    out += l.code;
    if (!l.code.empty() && !l.comment.empty()) {
      column += Width(l.code);
      out.append(l.comment_column - column, ' ');
    }
    out += l.comment;
    out += '\n';
  }
  return out;
}

// Tokens and comments of a text, without the whitespace between them.
std::vector<std::string> Lexemes(const std::string& text) {
  antlr4::ANTLRInputStream input(text);
  CPLLexer lexer(&input);
  lexer.removeErrorListeners();
  antlr4::CommonTokenStream stream(&lexer);
  stream.fill();
  std::vector<std::string> out;
  for (antlr4::Token* t : stream.getTokens()) {
    if (t->getType() == CPLLexer::WS || t->getType() == antlr4::Token::EOF) continue;
    out.push_back(std::to_string(t->getType()) + ' ' + TrimRight(t->getText()));
  }
  return out;
}

}  // namespace

FormatResult Format(const SourceManager& sources, FileId file, const ParseOptions& options) {
  FormatResult result;
  ParseResult parsed = Parse(sources, file, options);
  result.diagnostics = std::move(parsed.diagnostics);
  if (!parsed.module) return result;
  const std::string& text = sources.file(file).text();
  std::vector<Token> toks = Classify(text);
  if (toks.empty()) {
    result.internal_error =
        "the formatter could not parse `" + sources.file(file).path() + "` again";
    return result;
  }
  std::string formatted = Render(Printer(toks).Print());
  if (Lexemes(formatted) != Lexemes(text)) {
    result.internal_error =
        "formatting `" + sources.file(file).path() + "` would change its tokens";
    return result;
  }
  result.text = std::move(formatted);
  result.ok = true;
  return result;
}

}  // namespace capops::syntax
