// SPDX-License-Identifier: Apache-2.0
// Reading `-` (stdin_plan.h): the checks of the command line and of the
// descriptor, then the bytes, bounded.
#include "engine/cli/stdin_plan.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace capops::cli {

namespace {

// What standard input is, when it is no readable stream: a reason, else "".
std::string DescriptorProblem() {
  struct stat st {};
  if (fstat(STDIN_FILENO, &st) != 0) {
    return errno == EBADF ? "standard input is closed: give the plan on it, or name a file"
                          : std::string("cannot read standard input: ") + std::strerror(errno);
  }
  if (S_ISDIR(st.st_mode)) return "standard input is a directory, not a plan";
  return "";
}

}  // namespace

bool TakeStdinPlan(std::vector<std::string>* plans, const std::string& stdin_filename,
                   bool stdin_filename_given, std::istream& in, bool process_stdin, size_t limit,
                   StdinPlan* plan, std::string* error) {
  size_t dashes = std::count(plans->begin(), plans->end(), "-");
  if (dashes > 1) {
    *error = "`-` (standard input) is given " + std::to_string(dashes) + " times: it is read once";
    return false;
  }
  if (stdin_filename_given && stdin_filename.empty()) {
    *error = "--stdin-filename needs a path: the name the plan on standard input is linted as";
    return false;
  }
  if (dashes == 0) {
    if (!stdin_filename_given) return true;
    *error = "--stdin-filename names the plan read from standard input: give `-` among the plans";
    return false;
  }
  plan->used = true;
  plan->name = stdin_filename_given ? stdin_filename : kStdinName;
  std::replace(plans->begin(), plans->end(), std::string("-"), plan->name);
  if (process_stdin) {
    *error = DescriptorProblem();
    if (!error->empty()) return false;
  }
  // One byte past the limit, no more: the lint then refuses it as too
  // large, located and naming --max-file-size, as it would a file.
  std::string& text = plan->text;
  char chunk[1 << 16];
  while (text.size() <= limit && in.read(chunk, sizeof chunk).gcount() > 0) {
    text.append(chunk, static_cast<size_t>(in.gcount()));
  }
  if (text.size() > limit + 1) text.resize(limit + 1);
  if (in.bad()) {
    *error = std::string("cannot read standard input") +
             (process_stdin && errno != 0 ? std::string(": ") + std::strerror(errno) : "");
    return false;
  }
  return true;
}

}  // namespace capops::cli
