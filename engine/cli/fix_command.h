// SPDX-License-Identifier: Apache-2.0
// `capops-lint --fix` and `--fix-dry-run`: apply the fixes the lint gives.
//
// Each round takes, from the last lint of the plans (as the check lints
// them, the repair search proposing its alternatives unproved: engine/
// repair), one fix per fixable finding — the first fix of each diagnostic,
// or when there is none (a plan that breaks the schema is not evaluated)
// of each unwaived finding; for a computed repair, the first alternative
// not yet found wanting — leaving out any whose spans meet one taken
// before it (left for a later round). It applies them all and proves the
// batch with ONE relint: each fix's finding gone (for a repair, every
// finding of its rule about the allocation), no error that the last lint
// did not have (for a batch of diagnostics' fixes, no new diagnostic: a
// plan that now passes the schema is evaluated and its findings come with
// it). When the relint does not prove the batch, each half is proved on
// its own, the second on top of the first when that was proved, down to
// single fixes: a fix that fails costs about 2 log2(n) relints, not n, and
// the others still apply. A proved relint is the next round's lint.
//
// A plain fix (not a computed repair) that cannot be proved alone is then
// applied as it is, the first such one a round and alone, as every fix was
// applied before rounds proved batches; it is not put in a batch again. A
// computed repair that cannot be proved is never applied; its next
// alternative is tried in the next round. The rounds stop when a round
// applies nothing and finds no repair wanting, or at kMaxFixes fixes; a fix that would bring a file
// back to a text it had before (its path and text by SHA-256) is not
// applied. Only the bytes of the spans a fix names change; the rest of the
// file is kept as it was (comments, key order, flow or block style). A fix
// in an inventory file is applied only with `--fix-inventory`; one that
// does not apply (spans that meet, a text that would come back) is passed
// over. The repairs left in the last lint are proposals that could not be
// proved: the report of what remains shows none.
//
// Cost: the first lint, then one per round whose batch is proved (the
// last round finds nothing to fix in the lint before it and runs none); a
// fix that fails adds about 2 log2(n) lints to its round of n.
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

/// Most fixes applied in one run (a batch is cut to what is left of it).
inline constexpr size_t kMaxFixes = 500;

/// Runs `--fix` or `--fix-dry-run` (options.fix / fix_dry_run) and returns
/// the exit code (driver.h).
int RunFix(const CheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
