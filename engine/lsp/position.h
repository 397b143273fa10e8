// SPDX-License-Identifier: Apache-2.0
// Positions in a document as the protocol counts them: 0-based lines and
// UTF-16 code units (the default `positionEncoding`), against the engine's
// 1-based lines and character columns.
//
//   uint32_t units = Utf16Column("µs = 1", 3);  // 2: `µ` is one unit
//   uint32_t column = CharColumn("µs = 1", 2);  // 3
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace capops::lsp {

/// The text of 0-based `line` (without its line break); nullopt past the
/// last line. A text ending in a line break has an empty line after it.
std::optional<std::string_view> LineAt(std::string_view text, uint32_t line);

/// The UTF-16 offset of 1-based character `column` of `line`: a character
/// past U+FFFF is two units, a byte that is not UTF-8 one; a column past
/// the line's end counts one unit a character.
uint32_t Utf16Column(std::string_view line, uint32_t column);

/// The 1-based character column at UTF-16 offset `units` of `line`; an
/// offset past the end is the line's end, one inside a surrogate pair the
/// character's start (as the protocol asks).
uint32_t CharColumn(std::string_view line, uint32_t units);

/// The byte offset in `line` of 1-based character `column` (its length
/// past the end).
size_t ByteOffset(std::string_view line, uint32_t column);

/// The characters of `text` (a byte that is not UTF-8 counts as one).
uint32_t CharCount(std::string_view text);

/// The byte offset in `text` of 1-based `line` and character `column`;
/// nullopt past the last line.
std::optional<size_t> TextOffset(std::string_view text, uint32_t line, uint32_t column);

/// `{"line", "character"}` for 1-based `line` and character `column` of
/// `text`.
nlohmann::json PositionIn(std::string_view text, uint32_t line, uint32_t column);

}  // namespace capops::lsp
