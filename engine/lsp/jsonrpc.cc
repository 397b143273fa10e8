// SPDX-License-Identifier: Apache-2.0
// The LSP base protocol (jsonrpc.h): `Content-Length`-framed JSON-RPC
// messages read from and written to a stream.
#include "engine/lsp/jsonrpc.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <vector>

#include "engine/common/source.h"

namespace capops::lsp {
namespace {

constexpr size_t kMaxHeaderLine = 4096;

// One header line without its line end; nullopt at the end of the stream
// (`*ended_clean` when nothing of the line was read).
std::optional<std::string> HeaderLine(std::istream& in, bool* too_long, bool* ended_clean) {
  std::string line;
  *too_long = false;
  *ended_clean = false;
  for (int c = in.get(); c != std::char_traits<char>::eof(); c = in.get()) {
    if (c == '\n') {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    if (line.size() == kMaxHeaderLine) {
      *too_long = true;
      return std::nullopt;
    }
    line.push_back(static_cast<char>(c));
  }
  *ended_clean = line.empty();
  return std::nullopt;
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// The UTF-16 code unit of the `\uXXXX` escape at `i`, or -1.
int EscapedUnit(std::string_view s, size_t i) {
  if (i + 6 > s.size() || s[i] != '\\' || s[i + 1] != 'u') return -1;
  int unit = 0;
  for (size_t k = i + 2; k < i + 6; ++k) {
    char c = s[k];
    int digit = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
    if (digit < 0) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}

bool IsHighSurrogate(int unit) {
  return unit >= 0xD800 && unit <= 0xDBFF;
}
bool IsLowSurrogate(int unit) {
  return unit >= 0xDC00 && unit <= 0xDFFF;
}

// Copies the JSON string whose opening quote is at `i` to `*out`, each lone
// surrogate escape and byte that is not UTF-8 as U+FFFD (counted in
// `*replaced`); returns the index after its closing quote (the end of `s`
// for a string never closed).
size_t CopyString(std::string_view s, size_t i, std::string* out, size_t* replaced) {
  out->push_back(s[i++]);
  while (i < s.size() && s[i] != '"') {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == '\\') {
      int unit = EscapedUnit(s, i);
      size_t length = unit < 0 ? std::min<size_t>(2, s.size() - i) : 6;
      if (IsHighSurrogate(unit) && IsLowSurrogate(EscapedUnit(s, i + 6))) length = 12;
      if (IsHighSurrogate(unit) ? length == 6 : IsLowSurrogate(unit)) {
        out->append("\\ufffd");
        ++*replaced;
      } else {
        out->append(s.substr(i, length));
      }
      i += length;
    } else if (size_t length = c < 0x80 ? 1 : Utf8SequenceLength(s, i); length > 0) {
      out->append(s.substr(i, length));
      i += length;
    } else {
      out->append("\xEF\xBF\xBD");
      ++*replaced;
      ++i;
    }
  }
  if (i < s.size()) out->push_back(s[i++]);
  return i;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

ReadStatus ReadMessage(std::istream& in, size_t max_body, std::string* body, std::string* error) {
  std::optional<size_t> length;
  bool first = true;
  for (;;) {
    bool too_long = false, ended_clean = false;
    std::optional<std::string> line = HeaderLine(in, &too_long, &ended_clean);
    if (!line) {
      if (too_long) {
        *error = "a header line is longer than " + std::to_string(kMaxHeaderLine) + " bytes";
      } else if (first && ended_clean) {
        return ReadStatus::kEnd;
      } else {
        *error = "the stream ended inside a message's headers";
      }
      return ReadStatus::kBadFraming;
    }
    first = false;
    if (line->empty()) break;
    size_t colon = line->find(':');
    if (colon == std::string::npos) {
      *error = "a header line has no `:`";
      return ReadStatus::kBadFraming;
    }
    std::string_view name = Trim(std::string_view(*line).substr(0, colon));
    std::string_view value = Trim(std::string_view(*line).substr(colon + 1));
    if (!EqualsIgnoringCase(name, "Content-Length")) continue;
    if (length) {
      *error = "`Content-Length` is given twice";
      return ReadStatus::kBadFraming;
    }
    size_t n = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || end != value.data() + value.size() || value.empty()) {
      *error = "`Content-Length` is not a byte count: `" + std::string(value.substr(0, 40)) + "`";
      return ReadStatus::kBadFraming;
    }
    length = n;
  }
  if (!length) {
    *error = "a message has no `Content-Length` header";
    return ReadStatus::kBadFraming;
  }
  if (*length > max_body) {
    *error = "a message of " + std::to_string(*length) + " bytes is over the limit of " +
             std::to_string(max_body);
    // So far over that it is not a message but a broken stream: skipping it
    // would swallow every message after it.
    if (*length / 16 > max_body) return ReadStatus::kBadFraming;
    // Read and dropped a piece at a time (not istream::ignore, which looks
    // for one byte more than it skips and so waits for the next message).
    char scratch[1 << 16];
    for (size_t left = *length; left > 0;) {
      auto step = static_cast<std::streamsize>(std::min(left, sizeof scratch));
      in.read(scratch, step);
      if (in.gcount() != step) {
        *error = "the stream ended inside a message of " + std::to_string(*length) + " bytes";
        return ReadStatus::kBadFraming;
      }
      left -= static_cast<size_t>(step);
    }
    return ReadStatus::kTooLarge;
  }
  body->assign(*length, '\0');
  in.read(body->data(), static_cast<std::streamsize>(*length));
  if (static_cast<size_t>(in.gcount()) != *length) {
    *error = "the stream ended inside a message of " + std::to_string(*length) + " bytes";
    return ReadStatus::kBadFraming;
  }
  return ReadStatus::kMessage;
}

std::string ReplaceNonUnicode(std::string_view body, UnicodeRepair* repair) {
  std::string out;
  out.reserve(body.size());
  std::vector<char> open;  // the brackets of the arrays and objects the scan is in
  bool name_next = false;  // the next string is an object member's name
  std::string member;      // the name of the member whose value comes next
  for (size_t i = 0; i < body.size();) {
    char c = body[i];
    if (c != '"') {
      if (c == '{' || c == '[') open.push_back(c);
      if ((c == '}' || c == ']') && !open.empty()) open.pop_back();
      if (c == '{' || c == ',') name_next = !open.empty() && open.back() == '{';
      if (c == ':' || c == '[') name_next = false;
      out.push_back(c);
      ++i;
      continue;
    }
    size_t replaced = 0, start = out.size();
    i = CopyString(body, i, &out, &replaced);
    if (name_next) {
      member = out.substr(start + 1, out.size() - start - 2);
      name_next = false;
    }
    if (replaced == 0) continue;
    repair->replaced += replaced;
    repair->members.insert(!open.empty() && open.back() == '{' ? member : "");
  }
  return out;
}

void WriteMessage(std::ostream& out, const nlohmann::json& message) {
  // Invalid UTF-8 in a string (a path, a quoted line) is replaced, never thrown on.
  std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  out.flush();
}

}  // namespace capops::lsp
