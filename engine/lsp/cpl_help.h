// SPDX-License-Identifier: Apache-2.0
// What capops-lsp says about a place in a `.cpl` file: hover and
// go-to-definition, from the program the file compiled into (the checker's
// side tables say what each name resolved to, so nothing is guessed from
// spelling):
//
//   - hover on a rule's name or annotations: its id, severity, owner, doc
//     comment, each deny/warn's because and fix, and its cost;
//   - hover on a param, a function call, a field access or a type name:
//     its declaration's doc comment and type;
//   - definition of a param, a `fn`, a record field (`a.pool` goes to
//     `pool` in the record `a` is), a record or an enum named in a type.
//
// Both need a program compiled from the file's current text: a file that
// does not compile answers null until it does (its diagnostics say why).
//
//   nlohmann::json hover = CplHover(engine, path, text, 12, 9);
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/api/engine.h"

namespace capops::lsp {

/// `engine` compiled the file at `path`; `line` and `column` are 1-based
/// (characters). A Hover, or null.
nlohmann::json CplHover(const Engine& engine, const std::string& path, uint32_t line,
                        uint32_t column);
/// Location[] or null.
nlohmann::json CplDefinition(const Engine& engine, const std::string& path, uint32_t line,
                             uint32_t column);

}  // namespace capops::lsp
