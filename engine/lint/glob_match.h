// SPDX-License-Identifier: Apache-2.0
// Matching `/`-separated paths against globs, as plan arguments and waiver
// `file:` entries spell them.
#pragma once

#include <string_view>

namespace capops::lint {

/// True when `path` (`/`-separated) matches `pattern`: `*` and `?` within a
/// segment, `[…]` classes, `**` for any number of segments.
bool GlobMatch(std::string_view pattern, std::string_view path);

}  // namespace capops::lint
