// SPDX-License-Identifier: Apache-2.0
// Unified diffs (unified_diff.h): Myers' shortest edit script over lines,
// then hunks with three lines of context. Entry point: UnifiedDiff.
#include "engine/report/unified_diff.h"

#include <algorithm>
#include <vector>

namespace capops::report {

namespace {

constexpr size_t kContext = 3;

// Lines with their line break; the last may have none.
std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> out;
  for (size_t at = 0; at < text.size();) {
    size_t nl = text.find('\n', at);
    size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    out.push_back(text.substr(at, end - at));
    at = end;
  }
  return out;
}

enum class Op { kKeep, kDelete, kInsert };

// The edit script from `a` to `b`, in order (Myers 1986, greedy forward
// search; each step's frontier kept to walk back). Past `max_d` changes:
// everything deleted, then everything inserted.
std::vector<Op> Script(const std::vector<std::string_view>& a,
                       const std::vector<std::string_view>& b, size_t max_d) {
  const long n = static_cast<long>(a.size()), m = static_cast<long>(b.size());
  const long offset = n + m + 1;
  std::vector<long> v(2 * offset + 1, 0);
  std::vector<std::vector<long>> trace;
  long found = -1;
  for (long d = 0; d <= n + m && d <= static_cast<long>(max_d); ++d) {
    trace.push_back(v);
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
                   ? v[offset + k + 1]
                   : v[offset + k - 1] + 1;
      long y = x - k;
      while (x < n && y < m && a[x] == b[y]) ++x, ++y;
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    if (found >= 0) break;
  }
  std::vector<Op> ops;
  if (found < 0) {
    ops.assign(a.size(), Op::kDelete);
    ops.insert(ops.end(), b.size(), Op::kInsert);
    return ops;
  }
  long x = n, y = m;
  for (long d = found; d > 0; --d) {
    const std::vector<long>& prev = trace[d];  // the frontier before step d
    long k = x - y;
    bool down = k == -d || (k != d && prev[offset + k - 1] < prev[offset + k + 1]);
    long prev_k = down ? k + 1 : k - 1;
    long prev_x = prev[offset + prev_k], prev_y = prev_x - prev_k;
    while (x > prev_x && y > prev_y) {
      ops.push_back(Op::kKeep);
      --x, --y;
    }
    ops.push_back(down ? Op::kInsert : Op::kDelete);
    x = prev_x, y = prev_y;
  }
  while (x > 0 && y > 0) {
    ops.push_back(Op::kKeep);
    --x, --y;
  }
  std::reverse(ops.begin(), ops.end());
  return ops;
}

void Line(char mark, std::string_view line, std::string* out) {
  *out += mark;
  *out += line;
  if (line.empty() || line.back() != '\n') *out += "\n\\ No newline at end of file\n";
}

std::string Range(size_t start, size_t count) {
  // `diff -u`: a range of one line is its number; an empty range is the line before it.
  if (count == 1) return std::to_string(start + 1);
  return std::to_string(count == 0 ? start : start + 1) + "," + std::to_string(count);
}

}  // namespace

std::string UnifiedDiff(const std::string& path, std::string_view before, std::string_view after) {
  if (before == after) return "";
  std::vector<std::string_view> a = Lines(before), b = Lines(after);
  std::vector<Op> ops = Script(a, b, kMaxDiffEdits);
  std::string out = "--- " + path + "\n+++ " + path + "\n";
  // Positions in `ops` of changes; a hunk runs from a change's context to the
  // last change whose context meets it.
  size_t i = 0;
  std::vector<size_t> ai(ops.size() + 1), bi(ops.size() + 1);  // lines before op i
  for (size_t k = 0; k < ops.size(); ++k) {
    ai[k + 1] = ai[k] + (ops[k] != Op::kInsert);
    bi[k + 1] = bi[k] + (ops[k] != Op::kDelete);
  }
  while (i < ops.size()) {
    while (i < ops.size() && ops[i] == Op::kKeep) ++i;
    if (i == ops.size()) break;
    size_t start = i >= kContext ? i - kContext : 0;
    size_t end = i;  // past the last change of the hunk
    for (size_t k = i; k < ops.size(); ++k) {
      if (ops[k] == Op::kKeep) continue;
      if (k > end + 2 * kContext) break;
      end = k + 1;
    }
    size_t stop = std::min(ops.size(), end + kContext);
    out += "@@ -" + Range(ai[start], ai[stop] - ai[start]) + " +" +
           Range(bi[start], bi[stop] - bi[start]) + " @@\n";
    for (size_t k = start; k < stop; ++k) {
      if (ops[k] == Op::kKeep) Line(' ', a[ai[k]], &out);
      if (ops[k] == Op::kDelete) Line('-', a[ai[k]], &out);
      if (ops[k] == Op::kInsert) Line('+', b[bi[k]], &out);
    }
    i = stop;
  }
  return out;
}

}  // namespace capops::report
