// SPDX-License-Identifier: Apache-2.0
// Fixes as edits of a text: offsets from lines and columns, replacements
// applied, and the edits refused that would make a guess of the result.
#include "engine/common/fix.h"

#include <catch2/catch.hpp>

#include "engine/facts/scalar_fix.h"

namespace capops {
namespace {

std::string Apply(std::string_view text, std::vector<Replacement> r) {
  std::string out, why;
  return ApplyReplacements(text, std::move(r), &out, &why) ? out : "(refused: " + why + ")";
}

Replacement At(std::string_view text, uint32_t offset, uint32_t length, std::string with) {
  std::optional<Replacement> r = MakeReplacement(0, text, offset, length, std::move(with));
  REQUIRE(r);
  return *r;
}

TEST_CASE("ByteOffsetAt and MakeReplacement count characters, not bytes", "[common]") {
  const std::string text = "é: 1\nab: ü2\n";
  CHECK(ByteOffsetAt(text, 1, 1) == 0u);
  CHECK(ByteOffsetAt(text, 1, 2) == 2u);
  CHECK(ByteOffsetAt(text, 2, 5) == 10u);  // `ü`, after a two-byte `é` on line 1
  CHECK(ByteOffsetAt(text, 2, 6) == 12u);  // `2`, after the two-byte `ü`
  CHECK(ByteOffsetAt(text, 2, 7) == 13u);  // the line's end
  CHECK(ByteOffsetAt(text, 2, 8) == std::nullopt);
  CHECK(ByteOffsetAt(text, 9, 1) == std::nullopt);
  CHECK(ByteOffsetAt(text, 0, 1) == std::nullopt);
  Replacement r = At(text, 10, 2, "x");
  CHECK(r.begin == SourceLoc{0, 2, 5});
  CHECK(r.end == SourceLoc{0, 2, 6});
  // Inside a character, or past the text: no replacement.
  CHECK_FALSE(MakeReplacement(0, text, 1, 1, "x"));
  CHECK_FALSE(MakeReplacement(0, text, 9, 2, "x"));
  CHECK_FALSE(MakeReplacement(0, text, 14, 1, "x"));
  CHECK(MakeReplacement(0, text, 14, 0, "x"));  // an insertion at the very end
}

TEST_CASE("ApplyReplacements: bytes outside the spans are kept, overlaps refused", "[common]") {
  const std::string text = "a: [x, y]  # keep\nb: 1\n";
  CHECK(Apply(text, {At(text, 4, 1, "xx"), At(text, 21, 1, "2")}) == "a: [xx, y]  # keep\nb: 2\n");
  CHECK(Apply(text, {At(text, 21, 1, "2"), At(text, 4, 1, "xx")}) == "a: [xx, y]  # keep\nb: 2\n");
  CHECK(Apply(text, {At(text, 8, 0, ", z")}) == "a: [x, y, z]  # keep\nb: 1\n");
  CHECK(Apply(text, {}) == text);
  // Two edits of one span, an insertion where another edit starts, two
  // insertions at one place: the order would be a guess.
  CHECK(Apply(text, {At(text, 4, 1, "p"), At(text, 4, 1, "q")}).rfind("(refused: two edits", 0) ==
        0);
  CHECK(Apply(text, {At(text, 4, 3, "p"), At(text, 6, 1, "q")}).rfind("(refused", 0) == 0);
  CHECK(Apply(text, {At(text, 4, 0, "p"), At(text, 4, 1, "q")}).rfind("(refused", 0) == 0);
  CHECK(Apply(text, {At(text, 4, 0, "p"), At(text, 4, 0, "q")}).rfind("(refused", 0) == 0);
  // Adjacent spans do not overlap.
  CHECK(Apply(text, {At(text, 4, 1, "p"), At(text, 5, 1, ";")}) == "a: [p; y]  # keep\nb: 1\n");
  Replacement past = At(text, 0, 1, "z");
  past.offset = 500;
  CHECK(Apply(text, {past}).rfind("(refused: an edit reaches past", 0) == 0);
}

TEST_CASE("HelpReplacements: the texts a help names, and none where it names no one text",
          "[facts]") {
  using V = std::vector<std::string>;
  using facts::HelpReplacements;
  CHECK(HelpReplacements("did you mean `slice`?") == V{"slice"});
  CHECK(
      HelpReplacements("did you mean `allocations`? references to `Allocation` are not checked") ==
      V{"allocations"});
  CHECK(HelpReplacements("did you mean `exploration`? expected one of `exploration`, `training`") ==
        V{"exploration"});
  CHECK(HelpReplacements("add a unit (w, d, h, m, s), e.g. `8h` or `8d`") == V{"8h", "8d"});
  CHECK(HelpReplacements("write it without spaces: `80GB`") == V{"80GB"});
  CHECK(HelpReplacements("write `T` between the date and the time: `2027-04-20T09:00Z`") ==
        V{"2027-04-20T09:00Z"});
  CHECK(HelpReplacements("expected one of `a`, `b`").empty());
  CHECK(HelpReplacements("did you mean ``?").empty());
  CHECK(HelpReplacements("did you mean `unclosed").empty());
  CHECK(HelpReplacements("add a unit (w, d, h, m, s), e.g. `8h").empty());
  CHECK(HelpReplacements("").empty());
}

TEST_CASE("ScalarAt: the scalar the message names is the span, and nothing it does not name",
          "[facts]") {
  const std::string text = "a: {role: 'resarch', pool: x}\nb: [\"tran\", y]\n";
  auto fix = [&](uint32_t line, uint32_t column, const std::string& message,
                 const std::string& with) {
    std::string old;
    std::optional<Replacement> r = facts::ScalarAt(0, text, line, column, message, &old);
    if (!r) return std::string("(none)");
    r->text = with;
    return Apply(text, {*r});
  };
  // Single and double quotes are kept.
  CHECK(fix(1, 11, "unknown PoolRole `resarch`", "research") ==
        "a: {role: 'research', pool: x}\nb: [\"tran\", y]\n");
  CHECK(fix(2, 5, "no `Demand` with id `tran`", "train") ==
        "a: {role: 'resarch', pool: x}\nb: [\"train\", y]\n");
  // A location on a scalar the message does not name (a key it could not
  // locate, underlined at its value): no fix rather than a wrong one.
  CHECK(fix(1, 28, "unknown field `pol` in `A`", "pool") == "(none)");
  // A place outside the text, or on no scalar.
  CHECK(fix(8, 1, "unknown field `x`", "y") == "(none)");
  CHECK(fix(1, 1, "unknown field ``", "y") == "(none)");
}

}  // namespace
}  // namespace capops
