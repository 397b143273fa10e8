// SPDX-License-Identifier: Apache-2.0
// Escaping of untrusted text for terminals, XML, HTML and Markdown (see
// escape.h): a strict UTF-8 decoder and one table of what must not be shown raw.
#include "engine/common/escape.h"

#include <algorithm>
#include <cstdint>

namespace capops {

namespace {

// Length of the well-formed UTF-8 sequence at `s[i]` (RFC 3629: no overlong
// forms, no surrogates, nothing past U+10FFFF) with its code point, or 0.
size_t Decode(std::string_view s, size_t i, char32_t* cp) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char b0 = byte(i);
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;  // U+D800..U+DFFF are surrogates, never text
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  char32_t value = b0 & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    unsigned char b = byte(i + k);
    if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return 0;
    value = (value << 6) | (b & 0x3F);
  }
  *cp = value;
  return n;
}

// Formatting characters that reorder or break what a reader sees.
bool IsLayoutControl(char32_t cp) {
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029;
}

bool MustEscape(char32_t cp, Keep keep) {
  if (cp == '\t') return keep == Keep::kNothing;
  if (cp == '\n') return keep != Keep::kTabNewline;
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || IsLayoutControl(cp) || cp == 0xFFFE ||
         cp == 0xFFFF;
}

void AppendHex(uint32_t value, size_t min_digits, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  std::string digits;
  do {
    digits.insert(digits.begin(), kHex[value & 15]);
    value >>= 4;
  } while (value != 0 || digits.size() < min_digits);
  *out += digits;
}

void AppendEscape(char32_t cp, std::string* out) {
  switch (cp) {
    case '\n':
      *out += "\\n";
      return;
    case '\r':
      *out += "\\r";
      return;
    case '\t':
      *out += "\\t";
      return;
  }
  if (cp < 0x80) {
    *out += "\\x";
    AppendHex(cp, 2, out);
  } else {
    *out += "\\u{";
    AppendHex(cp, 1, out);
    *out += '}';
  }
}

// Visible(), then the characters markup gives a meaning to as entities.
std::string Entities(std::string_view text, Keep keep, const char* apostrophe, bool quotes) {
  std::string out;
  for (char c : Visible(text, keep)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += quotes ? "&quot;" : "\"";
        break;
      case '\'':
        out += quotes ? apostrophe : "'";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace

std::string Visible(std::string_view text, Keep keep) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    size_t n = Decode(text, i, &cp);
    if (n == 0) {
      out += "\\x";
      AppendHex(static_cast<unsigned char>(text[i]), 2, &out);
      ++i;
      continue;
    }
    if (MustEscape(cp, keep)) {
      AppendEscape(cp, &out);
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string XmlText(std::string_view text, Keep keep) {
  return Entities(text, keep, "&apos;", true);
}

std::string HtmlText(std::string_view text, Keep keep) {
  return Entities(text, keep, "&#39;", true);
}

std::string MarkdownText(std::string_view text, Keep keep) {
  return Entities(text, keep, "", false);
}

std::string MarkdownCodeSpan(std::string_view text) {
  std::string shown = Visible(text);
  if (shown.empty()) return shown;
  size_t longest = 0, run = 0;
  for (char c : shown) longest = std::max(longest, run = c == '`' ? run + 1 : 0);
  std::string fence(longest + 1, '`');
  bool pad = shown.front() == '`' || shown.back() == '`' ||
             (shown.front() == ' ' && shown.back() == ' ' &&
              shown.find_first_not_of(' ') != std::string::npos);
  return pad ? fence + " " + shown + " " + fence : fence + shown + fence;
}

std::string MarkdownCell(std::string_view text, Cell as) {
  std::string inline_text;
  if (as == Cell::kCode) {
    inline_text = MarkdownCodeSpan(text);
  } else if (as == Cell::kText) {
    for (char c : MarkdownText(text, Keep::kNothing)) {
      if (std::string_view("\\`*_[]~$").find(c) != std::string_view::npos) inline_text += '\\';
      inline_text += c;
    }
  } else {
    // A line break in prose is a space; a paragraph cannot be in a cell.
    for (char c : MarkdownText(text, Keep::kTabNewline)) inline_text += c == '\n' ? ' ' : c;
  }
  std::string cell;
  cell.reserve(inline_text.size());
  for (char c : inline_text) {
    if (c == '|') cell += '\\';
    cell += c;
  }
  return cell;
}

std::string PercentEncoded(std::string_view text, std::string_view keep) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alnum || std::string_view("-._~").find(ch) != std::string_view::npos ||
        keep.find(ch) != std::string_view::npos) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

size_t CodePoints(std::string_view text) {
  size_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

}  // namespace capops
