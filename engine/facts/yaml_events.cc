// SPDX-License-Identifier: Apache-2.0
// EventSource over libfyaml's parser, and the locations of its events (see
// yaml_events.h).
#include "engine/facts/yaml_events.h"

#include <unistd.h>

#include <algorithm>

namespace capops::facts::yaml {

std::string DepthMessage(size_t max_depth) {
  return "nesting deeper than " + std::to_string(max_depth) + " levels";
}

std::string ParserMessage(std::string msg) {
  if (!msg.empty() && msg[0] >= 'A' && msg[0] <= 'Z' &&
      !(msg.size() > 1 && msg[1] >= 'A' && msg[1] <= 'Z')) {
    msg[0] = static_cast<char>(msg[0] - 'A' + 'a');
  }
  while (!msg.empty() && msg.back() == '.') msg.pop_back();
  return "invalid YAML: " + msg;
}

std::optional<TextProblem> FirstTextProblem(std::string_view text, size_t from, size_t to,
                                            size_t* next) {
  size_t i = from == 0 && text.substr(0, kBom.size()) == kBom ? kBom.size() : from;
  std::optional<TextProblem> found;
  while (i < std::min(to, text.size()) && !found) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    size_t length = c < 0x80 ? 1 : capops::Utf8SequenceLength(text, i);
    if (c == 0) {
      found = TextProblem{i, "file is not text: NUL byte", ""};
    } else if (c == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) {
      found = TextProblem{i,
                          "not supported in capops facts: a line break that is a lone carriage "
                          "return (CR)",
                          "save the file with LF or CRLF line breaks"};
    } else if (length == 0) {
      found = TextProblem{i, "invalid UTF-8", "save the file as UTF-8"};
    } else {
      i += c == '\r' ? 2 : length;  // CRLF is read whole
    }
  }
  if (next != nullptr) *next = std::max(i, from);
  return found;
}

std::string_view TokenText(fy_token* token) {
  size_t length = 0;
  const char* text = token == nullptr ? nullptr : fy_token_get_text(token, &length);
  return text == nullptr ? std::string_view("") : std::string_view(text, length);
}

EventSource::EventSource(std::string_view text) : EventSource() {
  if (parser_ != nullptr && fy_parser_set_string(parser_, text.data(), text.size()) != 0) Fail();
}

EventSource::EventSource(int fd) : EventSource() {
  stream_ = ::fdopen(fd, "rb");
  if (stream_ == nullptr) {
    ::close(fd);
    Fail();
  } else if (parser_ != nullptr && fy_parser_set_input_fp(parser_, "input", stream_) != 0) {
    Fail();
  }
}

EventSource::~EventSource() {
  Release();
  if (parser_ != nullptr) fy_parser_destroy(parser_);
  if (diag_ != nullptr) fy_diag_destroy(diag_);
  if (stream_ != nullptr) std::fclose(stream_);
}

fy_event* EventSource::Next() {
  Release();
  if (parser_ == nullptr || failed_) return nullptr;
  event_ = fy_parser_parse(parser_);
  return event_;
}

std::optional<EventSource::Error> EventSource::error() const {
  if (failed_) return Error{1, 1, "the input could not be read"};
  if (parser_ == nullptr || !fy_parser_get_stream_error(parser_)) return std::nullopt;
  void* iter = nullptr;
  while (fy_diag_error* e = fy_diag_errors_iterate(diag_, &iter)) {
    if (e->type >= FYET_ERROR) return Error{e->line, e->column, e->msg == nullptr ? "" : e->msg};
  }
  return Error{0, 0, ""};
}

EventSource::EventSource() {
  fy_diag_cfg diag_cfg;
  fy_diag_cfg_default(&diag_cfg);
  diag_cfg.fp = nullptr;
  diag_cfg.level = FYET_ERROR;
  diag_ = fy_diag_create(&diag_cfg);
  if (diag_ == nullptr) {
    Fail();
    return;
  }
  fy_diag_set_collect_errors(diag_, true);
  fy_parse_cfg cfg{};
  cfg.flags = static_cast<fy_parse_cfg_flags>(FYPCF_QUIET | FYPCF_COLLECT_DIAG);
  cfg.diag = diag_;
  parser_ = fy_parser_create(&cfg);
  if (parser_ == nullptr) Fail();
}

void EventSource::Release() {
  if (event_ != nullptr) fy_parser_event_free(parser_, event_);
  event_ = nullptr;
}

int MarkLag(fy_event* event) {
  const fy_mark* mark = fy_event_start_mark(event);
  if (mark == nullptr || mark->column == 0) return 0;
  if (event->type == FYET_ALIAS) return 1;
  if (event->type != FYET_SCALAR) return 0;
  fy_scalar_style style = fy_token_scalar_style(event->scalar.value);
  return style == FYSS_SINGLE_QUOTED || style == FYSS_DOUBLE_QUOTED ? 1 : 0;
}

std::optional<SourceLoc> NodeLoc(const Locator& at, fy_event* event) {
  const fy_mark* mark = fy_event_start_mark(event);
  if (mark == nullptr) return std::nullopt;
  return at.At(mark->line, mark->column - MarkLag(event));
}

}  // namespace capops::facts::yaml
