// EventSource over libfyaml's parser, and the locations of its events (see
// yaml_events.h).
#include "engine/facts/yaml_events.h"

#include <unistd.h>

namespace capops::facts::yaml {

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

std::optional<SourceLoc> NodeLoc(const Locator& at, fy_event* event) {
  const fy_mark* mark = fy_event_start_mark(event);
  if (mark == nullptr) return std::nullopt;
  bool after_indicator = event->type == FYET_ALIAS;
  if (event->type == FYET_SCALAR) {
    fy_scalar_style style = fy_token_scalar_style(event->scalar.value);
    after_indicator = style == FYSS_SINGLE_QUOTED || style == FYSS_DOUBLE_QUOTED;
  }
  if (after_indicator && mark->column > 0) return at.At(mark->line, mark->column - 1);
  return at.At(mark);
}

}  // namespace capops::facts::yaml
