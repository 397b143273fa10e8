// SPDX-License-Identifier: Apache-2.0
// `capops-lint --fix` and `--fix-dry-run`: apply the fixes the lint gives.
//
// Each round lints the plans (as the check does, with repairs searched:
// engine/repair) and applies the first fix of the first fixable diagnostic
// or finding — diagnostics first, since a plan that breaks the schema is not
// evaluated — then lints again, until none is left that applies. Only the
// bytes of the spans a fix names change; the rest of the file is kept as
// it was (comments, key order, flow or block style). A fix in an inventory
// file is applied only with `--fix-inventory`; one that does not apply
// (spans that meet, a text that would come back) is passed over.
//
// `--fix` then writes each changed file over itself (RewriteFile: atomic,
// through a link to its target, refused when the file is read-only or
// changed since it was read) and reports what remains; `--fix-dry-run`
// writes nothing and prints a unified diff of each file it would change.
// The exit code is the check's, for the findings that remain. A plan read
// from standard input (`-`) has nowhere to be written back: refused.
#pragma once

#include <ostream>

#include "engine/cli/check_command.h"

namespace capops::cli {

/// Most fixes applied in one run: each costs a lint.
inline constexpr size_t kMaxFixes = 500;

/// Runs `--fix` or `--fix-dry-run` (options.fix / fix_dry_run) and returns
/// the exit code (driver.h).
int RunFix(const CheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
