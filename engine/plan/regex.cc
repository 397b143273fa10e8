// SPDX-License-Identifier: Apache-2.0
// The RE2 adapter: compile with a memory limit and without logging, match.
#include "engine/plan/regex.h"

#include <re2/re2.h>

namespace capops::plan {

struct Regex::Impl {
  explicit Impl(std::string_view pattern, const re2::RE2::Options& options)
      : re(re2::StringPiece(pattern.data(), pattern.size()), options) {}
  re2::RE2 re;
};

Regex::Regex(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Regex::~Regex() = default;

std::unique_ptr<const Regex> Regex::Compile(std::string_view pattern, std::string* error,
                                            size_t max_memory) {
  re2::RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(static_cast<int64_t>(max_memory));
  auto impl = std::make_unique<Impl>(pattern, options);
  if (!impl->re.ok()) {
    *error = impl->re.error();
    return nullptr;
  }
  return std::unique_ptr<const Regex>(new Regex(std::move(impl)));
}

bool Regex::PartialMatch(std::string_view text) const {
  return re2::RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), impl_->re);
}

size_t Regex::program_size() const {
  return static_cast<size_t>(impl_->re.ProgramSize());
}

}  // namespace capops::plan
