// Visible() and the markup escapes over hostile bytes: controls, bidi
// overrides, XML-forbidden code points and every kind of ill-formed UTF-8.
#include "engine/common/escape.h"

#include <catch2/catch.hpp>

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

}  // namespace
}  // namespace capops
