// SPDX-License-Identifier: Apache-2.0
// The CPL parser: source text → Module, with every syntax error collected.
//
// This is the one place the ANTLR runtime is used. The generated parser builds
// a parse tree; an AST builder turns it into syntax::Module (ast.h) and gives
// each node a span and an id. Syntax errors never go to the console: each is a
// Diagnostic with a location and a compiler-style message, and all errors of a
// file are reported (capped at ParseOptions::max_errors).
//
// Hostile input is bounded: nesting deeper than `max_depth` is rejected before
// the recursive-descent parser or the tree builder could exhaust the stack.
//
//   SourceManager sm;
//   FileId f = sm.Add("p.cpl", "rule r { for a in plan.x deny \"bad {a.id}\" }");
//   syntax::ParseResult r = syntax::Parse(sm, f);
//   if (r.diagnostics.HasErrors()) …; else use *r.module
#pragma once

#include <memory>

#include "engine/common/diagnostic.h"
#include "engine/common/source.h"
#include "engine/syntax/ast.h"

namespace capops::syntax {

struct ParseOptions {
  size_t max_file_bytes = 4 << 20;  // a policy file larger than this is refused
  size_t max_depth = 128;           // brackets, conditionals and operator chains
  size_t max_errors = 50;           // syntax errors reported per file
};

struct ParseResult {
  std::unique_ptr<Module> module;  // null when the file has syntax errors
  Diagnostics diagnostics;         // sorted by location
};

/// Parses a whole CPL file held by `sources`.
ParseResult Parse(const SourceManager& sources, FileId file, const ParseOptions& options = {});

struct ExpressionParseResult {
  ExprPtr expr;           // null when there are syntax errors
  NodeId node_count = 0;  // ids of the expression's nodes are 0 … node_count-1
  Diagnostics diagnostics;
};

/// Parses a file that holds one expression (for `capops-lint eval`).
ExpressionParseResult ParseExpression(const SourceManager& sources, FileId file,
                                      const ParseOptions& options = {});

}  // namespace capops::syntax
