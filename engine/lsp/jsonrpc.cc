// The LSP base protocol (jsonrpc.h): `Content-Length`-framed JSON-RPC
// messages read from and written to a stream.
#include "engine/lsp/jsonrpc.h"

#include <algorithm>
#include <charconv>
#include <optional>

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

void WriteMessage(std::ostream& out, const nlohmann::json& message) {
  // Invalid UTF-8 in a string (a path, a quoted line) is replaced, never thrown on.
  std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  out.flush();
}

}  // namespace capops::lsp
