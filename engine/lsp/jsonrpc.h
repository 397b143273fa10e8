// SPDX-License-Identifier: Apache-2.0
// The base protocol of the Language Server Protocol (3.17): JSON-RPC 2.0
// messages framed by `Content-Length` headers, over a byte stream.
//
//   Content-Length: 52\r\n
//   \r\n
//   {"jsonrpc":"2.0","id":1,"method":"shutdown"}
//
// A reader takes one framed message at a time. A body that is not JSON is
// the server's to answer (a Parse error); a stream whose framing is broken
// cannot be read on, because the next message's start is lost.
#pragma once

#include <istream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <string>
#include <string_view>

namespace capops::lsp {

enum class ReadStatus {
  kMessage,     // `*body` holds one message's bytes
  kEnd,         // the stream ended between messages
  kBadFraming,  // `*error` says what was wrong; nothing more can be read
  kTooLarge,    // a message over the limit, passed over unread (`*error` says so); read on
};

/// Reads one framed message. Headers are `Name: value` lines ended by CRLF
/// (a bare LF is accepted), each at most 4 KiB; `Content-Length` is
/// required, once, a decimal. A body over `max_body` bytes is skipped (its
/// bytes read and dropped, never held) and kTooLarge returned: one
/// oversized message does not end the stream; one over 16 times the limit
/// is taken for a broken stream (kBadFraming). Other headers
/// (`Content-Type`) are read and ignored.
ReadStatus ReadMessage(std::istream& in, size_t max_body, std::string* body, std::string* error);

/// What ReplaceNonUnicode changed in a message body.
struct UnicodeRepair {
  size_t replaced = 0;  // characters replaced with U+FFFD
  /// The object members whose string values held one (`uri`, `text`); ""
  /// for a string in an array.
  std::set<std::string> members;
};

/// `body` with what cannot be Unicode text read as U+FFFD, in its strings:
/// the JSON escape of a lone UTF-16 surrogate (`\ud800` not followed by
/// the escape of a low surrogate, or a lone `\udc00`), which JSON's grammar
/// allows (RFC 8259 §8.2) and a JavaScript client sends for a lone surrogate
/// in its buffer, and each byte that is not UTF-8. nlohmann's parser refuses
/// both, which would lose the whole message. A lone surrogate is one UTF-16
/// unit, as U+FFFD is, so positions the client counts in its text stay
/// right; a byte that is not UTF-8 was counted one unit too (position.h).
/// The rest of `body` is copied as it is: JSON that is broken stays broken.
std::string ReplaceNonUnicode(std::string_view body, UnicodeRepair* repair);

/// Writes `message` framed, and flushes.
void WriteMessage(std::ostream& out, const nlohmann::json& message);

/// JSON-RPC and LSP error codes.
namespace error_code {
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kServerNotInitialized = -32002;
}  // namespace error_code

}  // namespace capops::lsp
