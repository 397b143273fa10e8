// SPDX-License-Identifier: Apache-2.0
// The CPL parser: runs the ANTLR-generated lexer and parser, collects syntax
// errors as Diagnostics, and builds the AST. Entry point: syntax::Parse.
//
// ANTLR counts positions in code points; spans are byte offsets, so every
// token position goes through an OffsetMap. Message templates are parsed
// here too: each `{expr}` hole is parsed on its own with the `exprOnly` rule
// and its spans are shifted to the hole's place in the file.
#include "engine/syntax/parser.h"

#include <charconv>
#include <cmath>
#include <functional>

#include "CPLLexer.h"
#include "CPLParser.h"
#include "antlr4-runtime.h"
#include "engine/common/units.h"

namespace capops::syntax {

namespace {

using gen::CPLLexer;
using gen::CPLParser;

// Maps a code point index of the text ANTLR parsed to a byte offset in the file.
struct OffsetMap {
  const SourceFile* file = nullptr;    // the whole file was parsed
  uint32_t base = 0;                   // or a hole starting at this byte offset
  std::vector<uint32_t> hole_offsets;  // code point → byte within the hole

  uint32_t ToByte(size_t index) const {
    if (file != nullptr) return file->ByteOffsetOfCodePoint(index);
    if (hole_offsets.empty()) return base + static_cast<uint32_t>(index);
    if (index >= hole_offsets.size()) return base + hole_offsets.back();
    return base + hole_offsets[index];
  }
};

std::vector<uint32_t> CodePointOffsets(std::string_view text) {
  std::vector<uint32_t> out;
  bool ascii = true;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
      out.push_back(static_cast<uint32_t>(i));
    ascii = ascii && static_cast<unsigned char>(text[i]) < 0x80;
  }
  out.push_back(static_cast<uint32_t>(text.size()));
  if (ascii) out.clear();
  return out;
}

// ANTLR phrases its errors as "mismatched input 'x' expecting {...}"; ours
// read like a compiler's: "unexpected `x`, expected `y`".
std::string Backticks(std::string text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\'' && (i + 1 < text.size())) {
      size_t end = text.find('\'', i + 1);
      if (end != std::string::npos) {
        std::string inner = text.substr(i + 1, end - i - 1);
        out += inner == "<EOF>" ? "end of file" : "`" + inner + "`";
        i = end;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

std::string ExpectedSet(std::string set) {
  if (set.size() > 2 && set.front() == '{') set = set.substr(1, set.size() - 2);
  size_t alternatives = 1;
  for (char c : set) alternatives += c == ',';
  if (alternatives > 6) return "";
  std::string out = Backticks(set);
  // Token names (IDENT, STRING …) read better as words.
  static const std::pair<const char*, const char*> kNames[] = {
      {"IDENT", "a name"}, {"STRING", "a string"}, {"INT", "an integer"}, {"EOF", "end of file"}};
  for (auto [token, word] : kNames) {
    size_t at = out.find(token);
    if (at != std::string::npos) out.replace(at, std::string(token).size(), word);
  }
  return out;
}

std::string RewriteAntlrMessage(const std::string& msg) {
  auto after = [&](const char* prefix) { return msg.substr(std::string(prefix).size()); };
  auto split_expecting = [&](const std::string& rest, const char* what) {
    size_t at = rest.find(" expecting ");
    std::string head = Backticks(rest.substr(0, at));
    std::string out = std::string(what) + head;
    if (at != std::string::npos) {
      std::string expected = ExpectedSet(rest.substr(at + 11));
      if (!expected.empty()) out += ", expected " + expected;
    }
    return out;
  };
  if (msg.rfind("mismatched input ", 0) == 0)
    return split_expecting(after("mismatched input "), "unexpected ");
  if (msg.rfind("extraneous input ", 0) == 0)
    return split_expecting(after("extraneous input "), "unexpected ");
  if (msg.rfind("missing ", 0) == 0) {
    std::string rest = after("missing ");
    size_t at = rest.find(" at ");
    if (at == std::string::npos) return "missing " + Backticks(rest);
    std::string expected = ExpectedSet(rest.substr(0, at));
    // Too many alternatives to list (a field name may be any keyword): say what is there.
    if (expected.empty()) return "unexpected " + Backticks(rest.substr(at + 4));
    return "missing " + expected + " before " + Backticks(rest.substr(at + 4));
  }
  if (msg.rfind("no viable alternative at input ", 0) == 0) {
    return "cannot parse " + Backticks(after("no viable alternative at input "));
  }
  return Backticks(msg);
}

class ErrorCollector : public antlr4::BaseErrorListener {
 public:
  ErrorCollector(FileId file, const OffsetMap* offsets, const SourceManager* sources,
                 Diagnostics* out, size_t max_errors)
      : file_(file), offsets_(offsets), sources_(sources), out_(out), max_errors_(max_errors) {}

  void syntaxError(antlr4::Recognizer*, antlr4::Token* token, size_t, size_t,
                   const std::string& msg, std::exception_ptr) override {
    ++count_;
    if (count_ > max_errors_) return;
    uint32_t offset =
        token != nullptr ? offsets_->ToByte(token->getStartIndex()) : offsets_->ToByte(0);
    std::string text = RewriteAntlrMessage(msg);
    if (token != nullptr && token->getType() == CPLLexer::ERROR_CHAR) {
      text = "unexpected character `" + token->getText() + "`";
    }
    uint32_t end = offset + 1;
    if (token != nullptr && token->getType() != antlr4::Token::EOF) {
      end = offsets_->ToByte(token->getStopIndex() + 1);
    }
    out_->Error(*sources_, Span{file_, offset, std::max(end, offset + 1)}, text).code = "syntax";
  }

  size_t count() const { return count_; }

 private:
  FileId file_;
  const OffsetMap* offsets_;
  const SourceManager* sources_;
  Diagnostics* out_;
  size_t max_errors_;
  size_t count_ = 0;
};

// Rejects nesting that would take the recursive-descent parser too deep:
// brackets, and conditionals, which nest to the right.
bool CheckTokenDepth(antlr4::CommonTokenStream& tokens, const OffsetMap& offsets, FileId file,
                     const SourceManager& sources, size_t max_depth, Diagnostics* diags) {
  std::vector<size_t> conditionals = {0};
  size_t unary_run = 0;  // `!!!!x` nests as deep as it is long
  std::string before;
  for (antlr4::Token* t : tokens.getTokens()) {
    std::string text = t->getType() == antlr4::Token::EOF ? "" : t->getText();
    unary_run = (text == "!" || text == "-") ? unary_run + 1 : 0;
    if (text == "(" || text == "[" || text == "{") conditionals.push_back(0);
    if ((text == ")" || text == "]" || text == "}") && conditionals.size() > 1)
      conditionals.pop_back();
    // The `?` of `a.?b` is a selection, not a conditional that nests.
    if (text == "?" && before != ".") ++conditionals.back();
    if (t->getChannel() == antlr4::Token::DEFAULT_CHANNEL) before = text;
    size_t kind = t->getType();
    if (kind == CPLLexer::RULE || kind == CPLLexer::WHERE || kind == CPLLexer::LET ||
        kind == CPLLexer::FOR || kind == CPLLexer::DENY || kind == CPLLexer::WARN ||
        kind == CPLLexer::PARAM || kind == CPLLexer::FN) {
      conditionals.back() = 0;
    }
    if (conditionals.size() + conditionals.back() + unary_run > max_depth) {
      uint32_t offset = offsets.ToByte(t->getStartIndex());
      diags
          ->Error(sources, Span{file, offset, offset + 1},
                  "expression nested more than " + std::to_string(max_depth) + " levels deep")
          .code = "syntax";
      return false;
    }
  }
  return true;
}

// The parse tree of a long operator chain is deep even without brackets; the
// AST builder recurses over it, so measure its depth without recursing first.
// `*deepest_node` receives the deepest node, to locate the error.
size_t ParseTreeDepth(antlr4::tree::ParseTree* root,
                      antlr4::tree::ParseTree** deepest_node = nullptr) {
  size_t deepest = 0;
  std::vector<std::pair<antlr4::tree::ParseTree*, size_t>> stack = {{root, 1}};
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    if (depth > deepest && deepest_node != nullptr) *deepest_node = node;
    deepest = std::max(deepest, depth);
    for (antlr4::tree::ParseTree* child : node->children) stack.emplace_back(child, depth + 1);
  }
  return deepest;
}

// Decodes the escapes of a string token's body: \n \t \r \b \f \uXXXX, and
// any other escaped character stands for itself (\\ \" \' \{ \}).
bool Unescape(std::string_view body, std::string* out, std::string* error) {
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\') {
      *out += body[i];
      continue;
    }
    if (++i >= body.size()) break;
    switch (body[i]) {
      case 'n':
        *out += '\n';
        break;
      case 't':
        *out += '\t';
        break;
      case 'r':
        *out += '\r';
        break;
      case 'b':
        *out += '\b';
        break;
      case 'f':
        *out += '\f';
        break;
      case 'u': {
        uint32_t cp = 0;
        auto [p, ec] = std::from_chars(body.data() + i + 1, body.data() + i + 5, cp, 16);
        if (ec != std::errc() || p != body.data() + i + 5 || (cp >= 0xD800 && cp <= 0xDFFF)) {
          *error = "invalid `\\u` escape";
          return false;
        }
        if (cp < 0x80) {
          *out += static_cast<char>(cp);
        } else if (cp < 0x800) {
          *out += static_cast<char>(0xC0 | (cp >> 6));
          *out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
          *out += static_cast<char>(0xE0 | (cp >> 12));
          *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
          *out += static_cast<char>(0x80 | (cp & 0x3F));
        }
        i += 4;
        break;
      }
      default:
        *out += body[i];  // \\ \" \' \{ \}
    }
  }
  return true;
}

class AstBuilder {
 public:
  AstBuilder(const SourceManager& sources, FileId file, const ParseOptions& options,
             Diagnostics* diags, NodeId* next_id)
      : sources_(sources), file_(file), options_(options), diags_(diags), next_id_(next_id) {}

  void set_offsets(const OffsetMap* offsets) { offsets_ = offsets; }
  /// Parses `text` (a hole, or a whole expression file) at `byte_offset`.
  ExprPtr ParseHole(std::string_view text, uint32_t byte_offset);

  void BuildModule(CPLParser::ModuleContext* ctx, antlr4::CommonTokenStream& tokens,
                   Module* module);
  ExprPtr BuildExpr(CPLParser::ExprContext* ctx);

 private:
  Span SpanOf(antlr4::ParserRuleContext* ctx) const {
    return Span{file_, offsets_->ToByte(ctx->getStart()->getStartIndex()),
                offsets_->ToByte(ctx->getStop()->getStopIndex() + 1)};
  }
  Span SpanOf(antlr4::Token* token) const {
    return Span{file_, offsets_->ToByte(token->getStartIndex()),
                offsets_->ToByte(token->getStopIndex() + 1)};
  }
  Diagnostic& Error(Span span, std::string message) {
    Diagnostic& d = diags_->Error(sources_, span, std::move(message));
    d.code = "syntax";
    return d;
  }
  ExprPtr NewExpr(ExprKind kind, Span span) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->span = span;
    e->id = (*next_id_)++;
    return e;
  }

  std::string DocBefore(antlr4::ParserRuleContext* ctx, antlr4::CommonTokenStream& tokens);
  void BuildRule(CPLParser::RuleDeclContext* ctx, Rule* rule);
  void BuildEmit(CPLParser::EmitContext* ctx, Emit* emit);
  void BuildTest(CPLParser::TestDeclContext* ctx, TestDecl* test);
  void BuildExpectation(CPLParser::TestExpectContext* ctx, TestExpectation* expect);
  TypeRef BuildType(CPLParser::TypeRefContext* ctx);
  FieldRange BuildRange(CPLParser::FieldRangeContext* ctx);
  void BuildRecord(CPLParser::RecordDeclContext* ctx, antlr4::CommonTokenStream& tokens,
                   RecordDecl* record);
  std::string StringToken(antlr4::Token* token);
  std::string PlainText(antlr4::Token* token, const char* what);
  Template BuildTemplate(antlr4::Token* token);

  bool ChainTooLong(size_t operands, antlr4::ParserRuleContext* ctx);
  ExprPtr BuildOr(CPLParser::ConditionalOrContext* ctx);
  ExprPtr BuildAnd(CPLParser::ConditionalAndContext* ctx);
  ExprPtr BuildRelation(CPLParser::RelationContext* ctx);
  ExprPtr BuildCalc(CPLParser::CalcContext* ctx);
  ExprPtr BuildUnary(CPLParser::UnaryContext* ctx);
  ExprPtr BuildMember(CPLParser::MemberContext* ctx);
  ExprPtr BuildMethod(CPLParser::MethodMemberContext* ctx);
  std::string VariableName(CPLParser::ExprContext* arg, const std::string& macro);
  ExprPtr BuildPrimary(CPLParser::PrimaryContext* ctx);
  ExprPtr BuildLiteral(CPLParser::LiteralContext* ctx);
  ExprPtr Binary(BinaryOp op, ExprPtr lhs, ExprPtr rhs, Span span);
  void BuildList(CPLParser::ExprListContext* ctx, Expr* into);
  void BuildElements(CPLParser::ListElementsContext* ctx, Expr* into);

  const SourceManager& sources_;
  FileId file_;
  const ParseOptions& options_;
  Diagnostics* diags_;
  NodeId* next_id_;
  const OffsetMap* offsets_ = nullptr;
};

std::string AstBuilder::DocBefore(antlr4::ParserRuleContext* ctx,
                                  antlr4::CommonTokenStream& tokens) {
  std::string doc;
  for (antlr4::Token* t : tokens.getHiddenTokensToLeft(ctx->getStart()->getTokenIndex(), 2)) {
    std::string line = t->getText().substr(3);
    if (!line.empty() && line[0] == ' ') line.erase(0, 1);
    doc += (doc.empty() ? "" : "\n") + line;
  }
  return doc;
}

void AstBuilder::BuildModule(CPLParser::ModuleContext* ctx, antlr4::CommonTokenStream& tokens,
                             Module* module) {
  if (auto* pkg = ctx->packageDecl()) module->package = pkg->qualifiedName()->getText();
  for (auto* imp : ctx->importDecl()) {
    module->imports.push_back(
        Import{imp->qualifiedName()->getText(), SpanOf(imp->qualifiedName())});
  }
  for (CPLParser::DeclContext* decl : ctx->decl()) {
    if (auto* r = dynamic_cast<CPLParser::RuleDeclContext*>(decl)) {
      Rule& rule = module->rules.emplace_back();
      rule.doc = DocBefore(r, tokens);
      BuildRule(r, &rule);
    } else if (auto* p = dynamic_cast<CPLParser::ParamDeclContext*>(decl)) {
      Param& param = module->params.emplace_back();
      param.name = p->name->getText();
      param.name_span = SpanOf(p->name);
      param.span = SpanOf(p);
      param.doc = DocBefore(p, tokens);
      param.type = BuildType(p->typeRef());
      param.default_value = BuildExpr(p->expr());
    } else if (auto* fn = dynamic_cast<CPLParser::FnDeclContext*>(decl)) {
      FunctionDecl& f = module->functions.emplace_back();
      f.name = fn->name->getText();
      f.name_span = SpanOf(fn->name);
      f.span = SpanOf(fn);
      f.doc = DocBefore(fn, tokens);
      for (auto* p : fn->fnParam())
        f.params.push_back({p->name->getText(), SpanOf(p->name), BuildType(p->typeRef())});
      f.result = BuildType(fn->typeRef());
      f.body = BuildExpr(fn->expr());
    } else if (auto* r = dynamic_cast<CPLParser::RecordDeclContext*>(decl)) {
      BuildRecord(r, tokens, &module->records.emplace_back());
    } else if (auto* t = dynamic_cast<CPLParser::TestDeclContext*>(decl)) {
      TestDecl& test = module->tests.emplace_back();
      test.doc = DocBefore(t, tokens);
      BuildTest(t, &test);
    } else if (auto* e = dynamic_cast<CPLParser::EnumDeclContext*>(decl)) {
      EnumDecl& en = module->enums.emplace_back();
      en.name = e->name->getText();
      en.name_span = SpanOf(e->name);
      en.span = SpanOf(e);
      en.doc = DocBefore(e, tokens);
      for (auto* v : e->enumValue()) en.members.push_back({v->IDENT()->getText(), SpanOf(v)});
    }
  }
}

void AstBuilder::BuildRule(CPLParser::RuleDeclContext* ctx, Rule* rule) {
  rule->name = ctx->name->getText();
  rule->name_span = SpanOf(ctx->name);
  rule->span = SpanOf(ctx);
  for (auto* a : ctx->annotation()) {
    Annotation& ann = rule->annotations.emplace_back();
    ann.name = a->name->getText();
    ann.span = SpanOf(a);
    for (auto* arg : a->annotationArg()) {
      if (auto* s = dynamic_cast<CPLParser::StringArgContext*>(arg)) {
        ann.args.push_back(StringToken(s->STRING()->getSymbol()));
      } else {
        ann.args.push_back(arg->getText());
      }
    }
  }
  for (auto* c : ctx->clause()) {
    Clause& clause = rule->clauses.emplace_back();
    clause.span = SpanOf(c);
    clause.id = (*next_id_)++;
    if (auto* f = dynamic_cast<CPLParser::ForClauseContext*>(c)) {
      clause.kind = ClauseKind::kFor;
      clause.var = f->var->getText();
      clause.var_span = SpanOf(f->var);
      clause.expr = BuildExpr(f->expr());
    } else if (auto* l = dynamic_cast<CPLParser::LetClauseContext*>(c)) {
      clause.kind = ClauseKind::kLet;
      clause.var = l->var->getText();
      clause.var_span = SpanOf(l->var);
      clause.expr = BuildExpr(l->expr());
    } else if (auto* w = dynamic_cast<CPLParser::WhereClauseContext*>(c)) {
      clause.kind = ClauseKind::kWhere;
      clause.expr = BuildExpr(w->expr());
    }
  }
  for (auto* e : ctx->emit()) BuildEmit(e, &rule->emits.emplace_back());
}

void AstBuilder::BuildEmit(CPLParser::EmitContext* ctx, Emit* emit) {
  emit->is_warn = ctx->kind->getType() == CPLLexer::WARN;
  emit->span = SpanOf(ctx);
  if (ctx->cond != nullptr) emit->when = BuildExpr(ctx->cond);
  if (ctx->at != nullptr) emit->at = BuildExpr(ctx->at);
  emit->message = BuildTemplate(ctx->message);
  if (ctx->because != nullptr) emit->because = PlainText(ctx->because, "because");
  if (ctx->fix != nullptr) emit->fix = PlainText(ctx->fix, "fix");
}

// The length of a message hole's text at `open` (`{a.id}`, `{w.end()}`):
// a name, then `.name` or `()` steps, then `}`; 0 when it is not one.
size_t HoleLength(std::string_view raw, size_t open) {
  auto name_start = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  auto name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  size_t i = open + 1;
  if (i >= raw.size() || !name_start(raw[i])) return 0;
  while (i < raw.size()) {
    if (name_char(raw[i])) {
      ++i;
    } else if (raw[i] == '.' && i + 1 < raw.size() && name_start(raw[i + 1])) {
      ++i;
    } else if (raw.substr(i, 2) == "()") {
      i += 2;
    } else {
      break;
    }
  }
  return i < raw.size() && raw[i] == '}' ? i + 1 - open : 0;
}

// A `because` or `fix`: shown as written, so `{a.id}` in it would be shown
// as those characters. Each such hole is an error where it is written.
std::string AstBuilder::PlainText(antlr4::Token* token, const char* what) {
  std::string raw = token->getText();
  Span span = SpanOf(token);
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\') {
      ++i;  // an escaped character, `\{` among them
      continue;
    }
    size_t length = raw[i] == '{' ? HoleLength(raw, i) : 0;
    if (length == 0) continue;
    uint32_t begin = span.begin + static_cast<uint32_t>(i);
    Error(Span{span.file, begin, begin + static_cast<uint32_t>(length)},
          "`" + raw.substr(i, length) + "` is not filled in: a `" + what + "` is shown as written")
        .help =
        "only the deny or warn message fills `{…}`; say it in words, or write `\\{` to show a "
        "brace";
  }
  return StringToken(token);
}

void AstBuilder::BuildTest(CPLParser::TestDeclContext* ctx, TestDecl* test) {
  test->name = StringToken(ctx->name);
  test->name_span = SpanOf(ctx->name);
  test->span = SpanOf(ctx);
  for (auto* f : ctx->testFacts()) {
    std::string kind = f->kind->getText();
    if (kind == "param") {
      test->params.push_back({StringToken(f->value), SpanOf(f)});
      continue;
    }
    TestDecl::Facts facts{TestDecl::Facts::Kind::kFile, StringToken(f->value), SpanOf(f)};
    if (kind == "inventory") {
      facts.kind = TestDecl::Facts::Kind::kInventoryFile;
    } else if (kind == "yaml") {
      facts.kind = TestDecl::Facts::Kind::kInlineYaml;
    } else if (kind != "facts") {
      Error(SpanOf(f->kind), "unknown fact source `" + kind + "`").help =
          "write `facts \"FILE\"`, `inventory \"FILE\"`, `yaml \"TEXT\"` or `param \"NAME: "
          "VALUE\"`";
    }
    test->facts.push_back(std::move(facts));
  }
  for (auto* e : ctx->testExpect()) BuildExpectation(e, &test->expectations.emplace_back());
  if (test->facts.empty()) Error(SpanOf(ctx->name), "test `" + test->name + "` names no facts");
}

void AstBuilder::BuildExpectation(CPLParser::TestExpectContext* ctx, TestExpectation* expect) {
  std::string kind = ctx->kind->getText();
  expect->span = SpanOf(ctx);
  expect->none = kind == "expect_none";
  if (kind != "expect" && kind != "expect_none") {
    Error(SpanOf(ctx->kind), "unknown test statement `" + kind + "`").help =
        "a test lists `facts`, `inventory` or `yaml` first, then `expect` and `expect_none`";
  }
  expect->rule_id = ctx->ruleRef()->getText();
  if (ctx->at != nullptr) expect->at = StringToken(ctx->at);
  for (auto* o : ctx->testOption()) {
    std::string name = o->name->getText();
    if (name == "count" && o->INT() != nullptr && !expect->none) {
      auto [p, ec] =
          std::from_chars(o->INT()->getText().data(),
                          o->INT()->getText().data() + o->INT()->getText().size(), expect->count);
      if (ec != std::errc()) Error(SpanOf(o), "count is out of range");
    } else if (name == "message" && o->STRING() != nullptr) {
      expect->message = StringToken(o->STRING()->getSymbol());
    } else {
      std::string problem = name == "count" && expect->none ? "`expect_none` takes no `count`"
                            : name == "count"               ? "`count` takes a number"
                            : name == "message"             ? "`message` takes a string"
                                                : "unknown option `" + name + "` of `" + kind + "`";
      Error(SpanOf(o), problem).help =
          expect->none ? "`expect_none` takes `at \"SELECTOR\"` and `message \"TEXT\"`"
                       : "`expect` takes `at \"SELECTOR\"`, `count N` and `message \"TEXT\"`";
    }
  }
}

TypeRef AstBuilder::BuildType(CPLParser::TypeRefContext* ctx) {
  if (auto* r = dynamic_cast<CPLParser::RefTypeContext*>(ctx)) {
    return TypeRef{r->IDENT()->getText(), {}, true, SpanOf(ctx)};
  }
  auto* named = static_cast<CPLParser::NamedTypeContext*>(ctx);
  TypeRef type{named->IDENT()->getText(), {}, false, SpanOf(ctx)};
  for (auto* arg : named->typeRef()) type.args.push_back(BuildType(arg));
  return type;
}

void AstBuilder::BuildRecord(CPLParser::RecordDeclContext* ctx, antlr4::CommonTokenStream& tokens,
                             RecordDecl* record) {
  record->name = ctx->name->getText();
  record->name_span = SpanOf(ctx->name);
  record->span = SpanOf(ctx);
  record->doc = DocBefore(ctx, tokens);
  record->is_document = ctx->kind->getType() == CPLLexer::DOCUMENT;
  for (auto* f : ctx->fieldDecl()) {
    FieldDecl& field = record->fields.emplace_back();
    field.name = f->name->getText();
    field.name_span = SpanOf(f->name);
    field.doc = DocBefore(f, tokens);
    field.optional = f->optional != nullptr;
    field.type = BuildType(f->typeRef());
    if (f->fieldRange() != nullptr) field.range = BuildRange(f->fieldRange());
    if (f->expr() != nullptr) field.default_value = BuildExpr(f->expr());
  }
}

FieldRange AstBuilder::BuildRange(CPLParser::FieldRangeContext* ctx) {
  FieldRange range;
  range.span = SpanOf(ctx);
  if (ctx->low == nullptr && ctx->high == nullptr) Error(range.span, "a range needs a bound");
  auto bound = [&](CPLParser::RangeBoundContext* b, Value* value, Span* span) {
    if (b == nullptr) return;
    *span = SpanOf(b);
    *value = BuildLiteral(b->literal())->literal;
    if (b->neg == nullptr) return;
    if (value->is(ValueKind::kInt)) {
      *value = Value::Int(-value->int_value());
    } else if (value->is(ValueKind::kDouble)) {
      *value = Value::Double(-value->double_value());
    }  // else no number: the checker says so
  };
  bound(ctx->low, &range.bounds.low, &range.low_span);
  bound(ctx->high, &range.bounds.high, &range.high_span);
  return range;
}

std::string AstBuilder::StringToken(antlr4::Token* token) {
  std::string raw = token->getText();
  std::string out, error;
  if (!Unescape(std::string_view(raw).substr(1, raw.size() - 2), &out, &error)) {
    Error(SpanOf(token), error);
  }
  return out;
}

// The index of the `}` that closes the hole opening at `open` (braces and
// quotes inside the hole's expression skipped), or body.size() when none.
size_t HoleEnd(std::string_view body, size_t open) {
  size_t depth = 0;
  char quote = 0;
  for (size_t i = open; i < body.size(); ++i) {
    char c = body[i];
    if (quote != 0) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && --depth == 0) {
      return i;
    }
  }
  return body.size();
}

// Splits a message into literal text and `{expr}` holes. Holes are found in
// the raw token text so their byte offsets are exact; `\{` is a literal brace.
Template AstBuilder::BuildTemplate(antlr4::Token* token) {
  Template t;
  t.span = SpanOf(token);
  std::string raw = token->getText();
  std::string_view body = std::string_view(raw).substr(1, raw.size() - 2);
  uint32_t body_offset = t.span.begin + 1;
  std::string pending;
  size_t i = 0;
  auto flush = [&](size_t end, size_t start) {
    std::string text, error;
    if (!Unescape(body.substr(start, end - start), &text, &error)) Error(t.span, error);
    pending += text;
  };
  size_t literal_start = 0;
  while (i < body.size()) {
    if (body[i] == '\\') {
      i += 2;
      continue;
    }
    if (body[i] == '}') {
      Error(Span{file_, body_offset + static_cast<uint32_t>(i),
                 body_offset + static_cast<uint32_t>(i) + 1},
            "unmatched `}` in message");
      ++i;
      continue;
    }
    if (body[i] != '{') {
      ++i;
      continue;
    }
    flush(i, literal_start);
    size_t open = i;
    i = HoleEnd(body, open);
    uint32_t hole_at = body_offset + static_cast<uint32_t>(open);
    if (i >= body.size()) {
      Error(Span{file_, hole_at, hole_at + 1},
            "unclosed `{` in message (write `\\{` for a literal brace)");
      return t;
    }
    if (!pending.empty()) t.parts.push_back({std::move(pending), nullptr});
    pending.clear();
    std::string_view hole = body.substr(open + 1, i - open - 1);
    if (hole.find_first_not_of(" \t") == std::string_view::npos) {
      Error(Span{file_, hole_at, hole_at + 2}, "empty `{}` in message");
    } else {
      t.parts.push_back({"", ParseHole(hole, hole_at + 1)});
    }
    literal_start = ++i;
  }
  flush(body.size(), literal_start);
  if (!pending.empty()) t.parts.push_back({std::move(pending), nullptr});
  return t;
}

// A hole is parsed on its own; its tokens count code points of the hole.
ExprPtr AstBuilder::ParseHole(std::string_view text, uint32_t byte_offset) {
  OffsetMap hole_offsets{nullptr, byte_offset, CodePointOffsets(text)};
  antlr4::ANTLRInputStream input{std::string(text)};
  CPLLexer lexer(&input);
  lexer.removeErrorListeners();
  antlr4::CommonTokenStream tokens(&lexer);
  tokens.fill();
  ErrorCollector errors(file_, &hole_offsets, &sources_, diags_, options_.max_errors);
  if (!CheckTokenDepth(tokens, hole_offsets, file_, sources_, options_.max_depth, diags_)) {
    return nullptr;
  }
  CPLParser parser(&tokens);
  parser.removeErrorListeners();
  parser.addErrorListener(&errors);
  auto* tree = parser.exprOnly();
  if (errors.count() > 0) return nullptr;
  if (ParseTreeDepth(tree) > options_.max_depth * 10) {
    Error(Span{file_, byte_offset, byte_offset + 1}, "expression in message is nested too deeply");
    return nullptr;
  }
  const OffsetMap* saved = offsets_;
  offsets_ = &hole_offsets;
  ExprPtr e = BuildExpr(tree->expr());
  offsets_ = saved;
  return e;
}

ExprPtr AstBuilder::Binary(BinaryOp op, ExprPtr lhs, ExprPtr rhs, Span span) {
  ExprPtr e = NewExpr(ExprKind::kBinary, span);
  e->binary_op = op;
  e->args.push_back(std::move(lhs));
  e->args.push_back(std::move(rhs));
  return e;
}

ExprPtr AstBuilder::BuildExpr(CPLParser::ExprContext* ctx) {
  if (ctx->LET() != nullptr) {
    ExprPtr e = NewExpr(ExprKind::kLet, SpanOf(ctx));
    e->name = ctx->var->getText();
    e->args.push_back(BuildExpr(ctx->value));
    e->args.push_back(BuildExpr(ctx->body));
    return e;
  }
  ExprPtr cond = BuildOr(ctx->cond);
  if (ctx->then == nullptr) return cond;
  ExprPtr e = NewExpr(ExprKind::kConditional, SpanOf(ctx));
  e->args.push_back(std::move(cond));
  e->args.push_back(BuildOr(ctx->then));
  e->args.push_back(BuildExpr(ctx->otherwise));
  return e;
}

// `a || b || c` is a left-leaning chain, as CEL builds it.
// A chain of N operands becomes a tree N deep; later stages recurse over it.
bool AstBuilder::ChainTooLong(size_t operands, antlr4::ParserRuleContext* ctx) {
  if (operands <= options_.max_depth * 4) return false;
  Error(SpanOf(ctx),
        "a chain of more than " + std::to_string(options_.max_depth * 4) + " operands");
  return true;
}

ExprPtr AstBuilder::BuildOr(CPLParser::ConditionalOrContext* ctx) {
  auto parts = ctx->conditionalAnd();
  if (ChainTooLong(parts.size(), ctx)) return NewExpr(ExprKind::kLiteral, SpanOf(ctx));
  ExprPtr e = BuildAnd(parts[0]);
  for (size_t i = 1; i < parts.size(); ++i) {
    Span span{file_, SpanOf(parts[0]).begin, SpanOf(parts[i]).end};
    e = Binary(BinaryOp::kOr, std::move(e), BuildAnd(parts[i]), span);
  }
  return e;
}

ExprPtr AstBuilder::BuildAnd(CPLParser::ConditionalAndContext* ctx) {
  auto parts = ctx->relation();
  if (ChainTooLong(parts.size(), ctx)) return NewExpr(ExprKind::kLiteral, SpanOf(ctx));
  ExprPtr e = BuildRelation(parts[0]);
  for (size_t i = 1; i < parts.size(); ++i) {
    Span span{file_, SpanOf(parts[0]).begin, SpanOf(parts[i]).end};
    e = Binary(BinaryOp::kAnd, std::move(e), BuildRelation(parts[i]), span);
  }
  return e;
}

ExprPtr AstBuilder::BuildRelation(CPLParser::RelationContext* ctx) {
  if (auto* c = dynamic_cast<CPLParser::CalcRelationContext*>(ctx)) return BuildCalc(c->calc());
  auto* b = static_cast<CPLParser::BinaryRelationContext*>(ctx);
  static const std::pair<const char*, BinaryOp> kOps[] = {
      {"<", BinaryOp::kLt},  {"<=", BinaryOp::kLe}, {">", BinaryOp::kGt}, {">=", BinaryOp::kGe},
      {"==", BinaryOp::kEq}, {"!=", BinaryOp::kNe}, {"in", BinaryOp::kIn}};
  BinaryOp op = BinaryOp::kEq;
  for (auto [text, value] : kOps) {
    if (b->op->getText() == text) op = value;
  }
  return Binary(op, BuildRelation(b->relation(0)), BuildRelation(b->relation(1)), SpanOf(ctx));
}

ExprPtr AstBuilder::BuildCalc(CPLParser::CalcContext* ctx) {
  if (auto* u = dynamic_cast<CPLParser::UnaryCalcContext*>(ctx)) return BuildUnary(u->unary());
  std::vector<CPLParser::CalcContext*> operands;
  std::string op;
  if (auto* m = dynamic_cast<CPLParser::MulCalcContext*>(ctx)) {
    operands = m->calc();
    op = m->op->getText();
  } else {
    auto* a = static_cast<CPLParser::AddCalcContext*>(ctx);
    operands = a->calc();
    op = a->op->getText();
  }
  BinaryOp bop = op == "*"   ? BinaryOp::kMul
                 : op == "/" ? BinaryOp::kDiv
                 : op == "%" ? BinaryOp::kMod
                 : op == "+" ? BinaryOp::kAdd
                             : BinaryOp::kSub;
  return Binary(bop, BuildCalc(operands[0]), BuildCalc(operands[1]), SpanOf(ctx));
}

ExprPtr AstBuilder::BuildUnary(CPLParser::UnaryContext* ctx) {
  if (auto* m = dynamic_cast<CPLParser::MemberUnaryContext*>(ctx)) return BuildMember(m->member());
  UnaryOp op = UnaryOp::kNot;
  size_t count = 0;
  ExprPtr operand;
  if (auto* n = dynamic_cast<CPLParser::NotUnaryContext*>(ctx)) {
    count = n->ops.size();
    operand = BuildMember(n->member());
  } else {
    auto* g = static_cast<CPLParser::NegUnaryContext*>(ctx);
    op = UnaryOp::kNegate;
    count = g->ops.size();
    // `-5` is the literal -5, so that the smallest int64 can be written.
    if (count == 1) {
      std::string text = g->member()->getText();
      if (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0])) &&
          text.find_first_not_of("0123456789") == std::string::npos) {
        ExprPtr lit = NewExpr(ExprKind::kLiteral, SpanOf(ctx));
        int64_t v = 0;
        auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() && text == "9223372036854775808") {
          lit->literal = Value::Int(INT64_MIN);
        } else if (ec != std::errc()) {
          Error(SpanOf(ctx), "integer `-" + text + "` is out of range");
        } else {
          lit->literal = Value::Int(-v);
        }
        return lit;
      }
    }
    operand = BuildMember(g->member());
  }
  // An even run of `!` or `-` cancels out except for its type check, so keep
  // all of them; chains are short in real rules and bounded by the parser.
  for (size_t i = 0; i < count; ++i) {
    ExprPtr e = NewExpr(ExprKind::kUnary, SpanOf(ctx));
    e->unary_op = op;
    e->args.push_back(std::move(operand));
    operand = std::move(e);
  }
  return operand;
}

ExprPtr AstBuilder::BuildMember(CPLParser::MemberContext* ctx) {
  if (auto* p = dynamic_cast<CPLParser::PrimaryMemberContext*>(ctx))
    return BuildPrimary(p->primary());
  auto* s = dynamic_cast<CPLParser::SelectMemberContext*>(ctx);
  auto* o = dynamic_cast<CPLParser::OptSelectMemberContext*>(ctx);
  if (s != nullptr || o != nullptr) {  // `a.b`, or `a.?b`
    ExprPtr e = NewExpr(s != nullptr ? ExprKind::kSelect : ExprKind::kOptSelect, SpanOf(ctx));
    e->name = (s != nullptr ? s->field : o->field)->getText();
    e->field = Key(e->name);
    e->args.push_back(BuildMember(s != nullptr ? s->member() : o->member()));
    return e;
  }
  if (auto* i = dynamic_cast<CPLParser::IndexMemberContext*>(ctx)) {
    ExprPtr e = NewExpr(ExprKind::kIndex, SpanOf(ctx));
    e->args.push_back(BuildMember(i->member()));
    e->args.push_back(BuildExpr(i->index));
    return e;
  }
  return BuildMethod(static_cast<CPLParser::MethodMemberContext*>(ctx));
}

// `xs.all(x, p)` and friends are macros: their first argument names a
// variable, as in CEL. Anything else is an ordinary method call.
ExprPtr AstBuilder::BuildMethod(CPLParser::MethodMemberContext* ctx) {
  static const std::pair<const char*, MacroKind> kMacros[] = {{"all", MacroKind::kAll},
                                                              {"exists", MacroKind::kExists},
                                                              {"exists_one", MacroKind::kExistsOne},
                                                              {"map", MacroKind::kMap},
                                                              {"filter", MacroKind::kFilter},
                                                              {"group", MacroKind::kGroup},
                                                              {"timeline", MacroKind::kTimeline}};
  std::string name = ctx->method->getText();
  std::vector<CPLParser::ExprContext*> args;
  if (ctx->args != nullptr) args = ctx->args->expr();
  if (name == "bind" && ctx->member()->getText() == "cel") {  // CEL's spelling of `let`
    if (args.size() != 3) {
      Error(SpanOf(ctx), "`cel.bind` takes a variable, its value and an expression");
      return NewExpr(ExprKind::kLiteral, SpanOf(ctx));
    }
    ExprPtr e = NewExpr(ExprKind::kLet, SpanOf(ctx));
    e->name = VariableName(args[0], "cel.bind");
    e->args.push_back(BuildExpr(args[1]));
    e->args.push_back(BuildExpr(args[2]));
    return e;
  }
  for (auto [macro_name, kind] : kMacros) {
    if (name != macro_name) continue;
    bool three = (kind == MacroKind::kMap || kind == MacroKind::kTimeline) && args.size() == 3;
    if ((args.size() != 2 || kind == MacroKind::kTimeline) && !three) {
      Error(SpanOf(ctx),
            "`" + name + "` takes a variable and " +
                (kind == MacroKind::kMap        ? "one or two expressions"
                 : kind == MacroKind::kTimeline ? "two expressions (its windows and its amount)"
                                                : "one expression"));
      return NewExpr(ExprKind::kLiteral, SpanOf(ctx));
    }
    ExprPtr e = NewExpr(ExprKind::kMacro, SpanOf(ctx));
    e->macro = kind;
    e->name = VariableName(args[0], name);
    e->args.push_back(BuildMember(ctx->member()));
    for (size_t i = 1; i < args.size(); ++i) e->args.push_back(BuildExpr(args[i]));
    return e;
  }
  ExprPtr e = NewExpr(ExprKind::kCall, SpanOf(ctx));
  e->name = name;
  e->is_method = true;
  e->args.push_back(BuildMember(ctx->member()));
  for (auto* a : args) e->args.push_back(BuildExpr(a));
  return e;
}

// The first argument of a macro or of `cel.bind`: a name, not an expression.
std::string AstBuilder::VariableName(CPLParser::ExprContext* arg, const std::string& macro) {
  std::string var = arg->getText();
  if (var.empty() || !(std::isalpha(static_cast<unsigned char>(var[0])) || var[0] == '_') ||
      var.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
          std::string::npos) {
    Error(SpanOf(arg), "the first argument of `" + macro + "` must be a variable name");
  }
  return var;
}

void AstBuilder::BuildList(CPLParser::ExprListContext* ctx, Expr* into) {
  if (ctx == nullptr) return;
  for (auto* a : ctx->expr()) into->args.push_back(BuildExpr(a));
}

// `[x if c, y]`: a conditional element is a kListIf node {x, c}.
void AstBuilder::BuildElements(CPLParser::ListElementsContext* ctx, Expr* into) {
  if (ctx == nullptr) return;
  for (auto* element : ctx->listElement()) {
    ExprPtr value = BuildExpr(element->value);
    if (element->cond == nullptr) {
      into->args.push_back(std::move(value));
      continue;
    }
    ExprPtr e = NewExpr(ExprKind::kListIf, SpanOf(element));
    e->args.push_back(std::move(value));
    e->args.push_back(BuildExpr(element->cond));
    into->args.push_back(std::move(e));
  }
}

ExprPtr AstBuilder::BuildPrimary(CPLParser::PrimaryContext* ctx) {
  if (auto* c = dynamic_cast<CPLParser::CallPrimaryContext*>(ctx)) {
    std::string name = c->fn->getText();
    ExprPtr e = NewExpr(name == "has" ? ExprKind::kHas : ExprKind::kCall, SpanOf(ctx));
    e->name = name;
    BuildList(c->args, e.get());
    if (e->kind == ExprKind::kHas &&
        (e->args.size() != 1 || e->args[0]->kind != ExprKind::kSelect)) {
      Error(SpanOf(ctx), "`has` takes one field selection, like `has(d.checkpoint)`");
    }
    return e;
  }
  if (auto* i = dynamic_cast<CPLParser::IdentPrimaryContext*>(ctx)) {
    ExprPtr e = NewExpr(ExprKind::kIdent, SpanOf(ctx));
    e->name = i->IDENT()->getText();
    return e;
  }
  if (auto* p = dynamic_cast<CPLParser::ParenPrimaryContext*>(ctx)) return BuildExpr(p->expr());
  if (auto* l = dynamic_cast<CPLParser::ListPrimaryContext*>(ctx)) {
    ExprPtr e = NewExpr(ExprKind::kList, SpanOf(ctx));
    BuildElements(l->listElements(), e.get());
    return e;
  }
  if (auto* m = dynamic_cast<CPLParser::MapPrimaryContext*>(ctx)) {
    ExprPtr e = NewExpr(ExprKind::kMap, SpanOf(ctx));
    if (m->mapEntries() != nullptr) {
      for (auto* a : m->mapEntries()->expr()) e->args.push_back(BuildExpr(a));
    }
    return e;
  }
  if (auto* s = dynamic_cast<CPLParser::SetPrimaryContext*>(ctx)) {
    ExprPtr e = NewExpr(ExprKind::kSet, SpanOf(ctx));
    BuildList(s->exprList(), e.get());
    return e;
  }
  return BuildLiteral(static_cast<CPLParser::LiteralPrimaryContext*>(ctx)->literal());
}

ExprPtr AstBuilder::BuildLiteral(CPLParser::LiteralContext* ctx) {
  ExprPtr e = NewExpr(ExprKind::kLiteral, SpanOf(ctx));
  std::string text = ctx->getText();
  auto bad = [&](const std::string& what) { Error(SpanOf(ctx), what); };
  if (dynamic_cast<CPLParser::NullLitContext*>(ctx)) {
    e->literal = Value::Null();
  } else if (dynamic_cast<CPLParser::TrueLitContext*>(ctx)) {
    e->literal = Value::Bool(true);
  } else if (dynamic_cast<CPLParser::FalseLitContext*>(ctx)) {
    e->literal = Value::Bool(false);
  } else if (dynamic_cast<CPLParser::IntLitContext*>(ctx)) {
    bool hex = text.rfind("0x", 0) == 0;
    int64_t v = 0;
    const char* begin = text.data() + (hex ? 2 : 0);
    auto [p, ec] = std::from_chars(begin, text.data() + text.size(), v, hex ? 16 : 10);
    if (ec != std::errc()) bad("integer `" + text + "` is out of range");
    e->literal = Value::Int(v);
  } else if (dynamic_cast<CPLParser::DoubleLitContext*>(ctx)) {
    double d = std::strtod(text.c_str(), nullptr);
    if (std::isinf(d)) bad("number `" + text + "` is out of range");
    e->literal = Value::Double(d);
  } else if (auto* s = dynamic_cast<CPLParser::StringLitContext*>(ctx)) {
    e->literal = Value::String(StringToken(s->STRING()->getSymbol()));
  } else if (dynamic_cast<CPLParser::DateLitContext*>(ctx)) {
    DateTime t;
    std::string error;
    if (!ParseDateTime(text, &t, &error)) bad(error);
    e->literal = Value::Date(t);
  } else if (dynamic_cast<CPLParser::DurationLitContext*>(ctx)) {
    int64_t seconds = 0;
    if (!ParseDuration(text, &seconds)) bad("duration `" + text + "` is out of range");
    e->literal = Value::Duration(seconds);
  } else {
    Quantity q;
    if (!ParseQuantity(text, &q)) bad("quantity `" + text + "` is out of range or finer than 1B");
    e->literal = Value::Quantity(q);
  }
  return e;
}

}  // namespace

namespace {

// A policy file the parser must not be given: too large, binary, or not
// UTF-8 (the ANTLR runtime throws on malformed UTF-8). False with the error.
bool Parsable(const SourceManager& sources, FileId file, const ParseOptions& options,
              Diagnostics* diagnostics) {
  std::string_view text = sources.file(file).text();
  if (text.size() > options.max_file_bytes) {
    std::string limit = std::to_string(options.max_file_bytes);
    diagnostics->Error(SourceLoc{file, 1, 1}, "policy file is larger than " + limit + " bytes")
        .code = "syntax";
    return false;
  }
  auto refuse = [&](size_t at, const char* why) {
    diagnostics
        ->Error(sources, Span{file, static_cast<uint32_t>(at), static_cast<uint32_t>(at) + 1}, why)
        .code = "syntax";
    return false;
  };
  if (size_t nul = text.find('\0'); nul != std::string::npos)
    return refuse(nul, "file is not text: NUL byte");
  if (size_t bad = FirstInvalidUtf8(text); bad != std::string::npos)
    return refuse(bad, "invalid UTF-8");
  return true;
}

}  // namespace

ParseResult Parse(const SourceManager& sources, FileId file, const ParseOptions& options) {
  ParseResult result;
  const SourceFile& source = sources.file(file);
  if (!Parsable(sources, file, options, &result.diagnostics)) return result;
  OffsetMap offsets{&source, 0, {}};
  antlr4::ANTLRInputStream input(source.text());
  CPLLexer lexer(&input);
  lexer.removeErrorListeners();
  antlr4::CommonTokenStream tokens(&lexer);
  tokens.fill();
  if (!CheckTokenDepth(tokens, offsets, file, sources, options.max_depth, &result.diagnostics)) {
    return result;
  }
  ErrorCollector errors(file, &offsets, &sources, &result.diagnostics, options.max_errors);
  CPLParser parser(&tokens);
  parser.removeErrorListeners();
  parser.addErrorListener(&errors);
  CPLParser::ModuleContext* tree = parser.module();
  if (errors.count() > options.max_errors) {
    result.diagnostics
        .Error(
            SourceLoc{file, source.line_count(), 1},
            std::to_string(errors.count() - options.max_errors) + " more syntax errors not shown")
        .code = "syntax";
  }
  antlr4::tree::ParseTree* deepest = nullptr;
  if (errors.count() == 0 && ParseTreeDepth(tree, &deepest) > options.max_depth * 10) {
    SourceLoc loc{file, 1, 1};
    if (auto* terminal = dynamic_cast<antlr4::tree::TerminalNode*>(deepest)) {
      uint32_t at = offsets.ToByte(terminal->getSymbol()->getStartIndex());
      loc = sources.Resolve(Span{file, at, at + 1});
    }
    result.diagnostics.Error(loc, "an expression is nested too deeply").code = "syntax";
  }
  if (result.diagnostics.HasErrors()) {
    result.diagnostics.Sort();
    return result;
  }
  auto module = std::make_unique<Module>();
  module->file = file;
  AstBuilder builder(sources, file, options, &result.diagnostics, &module->node_count);
  builder.set_offsets(&offsets);
  builder.BuildModule(tree, tokens, module.get());
  result.diagnostics.Sort();
  if (!result.diagnostics.HasErrors()) result.module = std::move(module);
  return result;
}

ExpressionParseResult ParseExpression(const SourceManager& sources, FileId file,
                                      const ParseOptions& options) {
  ExpressionParseResult result;
  const std::string& text = sources.file(file).text();
  if (text.size() > options.max_file_bytes) {
    result.diagnostics.Error(
        SourceLoc{file, 1, 1},
        "expression is longer than " + std::to_string(options.max_file_bytes) + " bytes");
    return result;
  }
  if (size_t bad = FirstInvalidUtf8(text); bad != std::string::npos) {
    result.diagnostics.Error(sources,
                             Span{file, static_cast<uint32_t>(bad), static_cast<uint32_t>(bad) + 1},
                             "invalid UTF-8");
    return result;
  }
  AstBuilder builder(sources, file, options, &result.diagnostics, &result.node_count);
  ExprPtr e = builder.ParseHole(text, 0);
  result.diagnostics.Sort();
  if (!result.diagnostics.HasErrors()) result.expr = std::move(e);
  return result;
}

}  // namespace capops::syntax
