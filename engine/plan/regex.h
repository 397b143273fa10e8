// SPDX-License-Identifier: Apache-2.0
// Regex: a compiled regular expression (RE2 syntax), the one adapter of RE2.
//
// RE2 runs in time linear in the text (no catastrophic backtracking on a
// hostile pattern or input) and refuses patterns whose program would pass a
// memory limit. The planner compiles each literal pattern of a rule set once
// (ModulePlan::patterns); the evaluator compiles the patterns it computes,
// into a cache of its own.
//
//   std::string error;
//   std::unique_ptr<const plan::Regex> re = plan::Regex::Compile("^[a-z]+$", &error);
//   if (re) re->PartialMatch("abc");  // true
//
// Thread-safety: a compiled Regex may be matched from any number of threads
// at once.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace capops::plan {

class Regex {
 public:
  /// The memory a pattern written in a policy may use: its program and the
  /// states matching builds, together (RE2's max_mem).
  static constexpr size_t kMaxMemory = 8 << 20;

  /// The compiled `pattern`, or null with `*error` saying why it is not a
  /// usable regular expression (its syntax, or a program that would pass
  /// `max_memory`). The Regex never holds more than about `max_memory`.
  static std::unique_ptr<const Regex> Compile(std::string_view pattern, std::string* error,
                                              size_t max_memory = kMaxMemory);
  ~Regex();
  Regex(const Regex&) = delete;
  Regex& operator=(const Regex&) = delete;

  /// Whether the pattern matches somewhere in `text`.
  bool PartialMatch(std::string_view text) const;
  /// The size of the compiled program (RE2 instructions): what matching a
  /// byte of text may cost at worst, and what compiling cost.
  size_t program_size() const;

 private:
  struct Impl;
  explicit Regex(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace capops::plan
