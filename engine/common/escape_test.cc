// SPDX-License-Identifier: Apache-2.0
// Visible() and the markup escapes over hostile bytes: controls, bidi
// overrides, XML-forbidden code points and every kind of ill-formed UTF-8.
#include "engine/common/escape.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace capops {
namespace {

TEST_CASE("Visible shows controls and bad bytes as escapes", "[common][escape]") {
  CHECK(Visible("a\x1b[2Jb\x07") == "a\\x1b[2Jb\\x07");
  CHECK(Visible("line\nforged:1:1: error") == "line\\nforged:1:1: error");
  CHECK(Visible(std::string("nul\0!", 5)) == "nul\\x00!");
  CHECK(Visible("tab\there\r") == "tab\\there\\r");
  CHECK(Visible("del\x7f") == "del\\x7f");
  CHECK(Visible("c1\xc2\x9b"
                "31m") == "c1\\u{9b}31m");            // CSI as a C1 character
  CHECK(Visible("x\xe2\x80\xaey") == "x\\u{202e}y");  // right-to-left override
  CHECK(Visible("\xe2\x81\xa6\xe2\x80\xa8") == "\\u{2066}\\u{2028}");
  CHECK(Visible("caf\xe9") == "caf\\xe9");                       // Latin-1
  CHECK(Visible("\xc0\xaf") == "\\xc0\\xaf");                    // overlong `/`
  CHECK(Visible("\xed\xa0\x80") == "\\xed\\xa0\\x80");           // a lone surrogate
  CHECK(Visible("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
  CHECK(Visible("cut\xe2\x82") == "cut\\xe2\\x82");
  CHECK(Visible("\xef\xbf\xbe\xef\xbf\xbf") == "\\u{fffe}\\u{ffff}");
  // Text that is fine stays as it is, backslashes included.
  CHECK(Visible("caf\xc3\xa9 \xe2\x80\xa6 \xf0\x9f\x99\x82 C:\\x") ==
        "caf\xc3\xa9 \xe2\x80\xa6 \xf0\x9f\x99\x82 C:\\x");
}

TEST_CASE("Visible keeps tabs and newlines only when asked", "[common][escape]") {
  CHECK(Visible("a\tb\nc", Keep::kTab) == "a\tb\\nc");
  CHECK(Visible("a\tb\nc\x1b", Keep::kTabNewline) == "a\tb\nc\\x1b");
}

TEST_CASE("markup escapes leave no markup and no forbidden character", "[common][escape]") {
  CHECK(XmlText("<a href='x'>&\"\xef\xbf\xbf\x01") ==
        "&lt;a href=&apos;x&apos;&gt;&amp;&quot;\\u{ffff}\\x01");
  CHECK(HtmlText("<script>'") == "&lt;script&gt;&#39;");
  CHECK(MarkdownText("<script>alert(\"x\")</script> & **b**") ==
        "&lt;script&gt;alert(\"x\")&lt;/script&gt; &amp; **b**");
}

TEST_CASE("percent-encoding keeps the unreserved characters and those asked for",
          "[common][escape]") {
  CHECK(PercentEncoded("a-Z_0.~") == "a-Z_0.~");
  CHECK(PercentEncoded("a b|c)#%") == "a%20b%7Cc%29%23%25");
  CHECK(PercentEncoded("/tmp/\xc3\xbc x", "/") == "/tmp/%C3%BC%20x");
  CHECK(PercentEncoded("/") == "%2F");
}

// A cell of a table row as GitHub's parser reads it: a `|` after a `\` is
// the cell's (the backslash taken out, even after another backslash), any
// other ends it; then a code span's fences and one space each side go.
struct ReadCell {
  std::string content;
  size_t cells = 0;  // how many cells `| <cell> |` makes of the row
};

ReadCell Read(const std::string& cell) {
  std::string row = "| " + cell + " |", content;
  ReadCell read;
  for (size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
      content += '|';
      ++i;
    } else if (row[i] == '|') {
      ++read.cells;
    } else {
      content += row[i];
    }
  }
  read.cells -= 1;
  content = content.substr(1, content.size() - 2);  // the spaces around the cell
  size_t fence = content.find_first_not_of('`');
  if (fence != 0 && fence != std::string::npos) {
    content = content.substr(fence, content.size() - 2 * fence);
    if (content.size() >= 2 && content.front() == ' ' && content.back() == ' ' &&
        content.find_first_not_of(' ') != std::string::npos)
      content = content.substr(1, content.size() - 2);
  }
  read.content = content;
  return read;
}

TEST_CASE("a table cell holds any text in one cell of one row", "[common][escape]") {
  struct Case {
    std::string text, code, as_text;
  };
  const std::vector<Case> cases = {
      {"a|b", "`a\\|b`", "a\\|b"},
      {"||", "`\\|\\|`", "\\|\\|"},
      {"a\nb", "`a\\nb`", "a\\\\nb"},  // a line break shown, never a new row
      {"a\r\nb", "`a\\r\\nb`", "a\\\\r\\\\nb"},
      {"x`y", "``x`y``", "x\\`y"},
      {"``a```", "```` ``a``` ````", "\\`\\`a\\`\\`\\`"},  // longer than the longest run
      {"`", "`` ` ``", "\\`"},
      {"a\\", "`a\\`", "a\\\\"},  // a backslash at the end does not escape the cell's end
      {"a\\|b", "`a\\\\|b`", "a\\\\\\|b"},
      {"\\`|", "``\\`\\|``", "\\\\\\`\\|"},
      {" a ", "`  a  `", " a "},
      {"*x* _y_ [z](u) ~w~ $m$", "`*x* _y_ [z](u) ~w~ $m$`",
       "\\*x\\* \\_y\\_ \\[z\\](u) \\~w\\~ \\$m\\$"},
      {"<b>&", "`<b>&`", "&lt;b&gt;&amp;"},
      {"", "", ""},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    std::string code = MarkdownCell(c.text, Cell::kCode), text = MarkdownCell(c.text, Cell::kText);
    CHECK(code == c.code);
    CHECK(text == c.as_text);
    for (const std::string& cell : {code, text, MarkdownCell(c.text, Cell::kMarkdown)}) {
      CHECK(cell.find('\n') == std::string::npos);
      CHECK(Read(cell).cells == 1);
    }
    // A code span shows the text, as Visible() shows it.
    if (!c.text.empty()) CHECK(Read(code).content == Visible(c.text));
  }
  // Prose keeps its markup; a line break is the space it means.
  CHECK(MarkdownCell("one `code` *b*\nline | two\r\n<i>", Cell::kMarkdown) ==
        "one `code` *b* line \\| two\\r &lt;i&gt;");
  CHECK(MarkdownCodeSpan("a|b") == "`a|b`");  // outside a table a `|` is the text's
}

}  // namespace
}  // namespace capops
