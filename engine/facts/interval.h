// SPDX-License-Identifier: Apache-2.0
// Consistency of interval records: a window must end after it starts.
//
// The schema language types fields one by one and has no constraints across
// fields, so a `Window {start: 2027-04-15, end: 2027-04-10}` is well typed,
// yet it holds no time: every rule that asks what the window covers sees
// nothing, and the allocation it belongs to silently disappears from
// timelines. ValidateDocument therefore checks every record shaped as an
// interval (IsIntervalRecord) once its fields are typed:
//
//   - `end` must be after `start` (ends are exclusive), reported at `end`;
//   - `duration` must be positive, reported at `duration`;
//   - when both `end` and `duration` are given they must agree
//     (`start` + `duration` == `end`, to the second: from
//     `2027-03-27T12:00+01:00` to `2027-03-28T12:00+02:00` is `23h`),
//     reported at `duration`.
//
// The check is by shape, not by record name: stdlib's `Window` is the one
// such record today, and any other record declared with the same fields
// gets the same check.
#pragma once

#include <string>
#include <vector>

#include "engine/common/schema.h"
#include "engine/common/source.h"
#include "engine/common/value.h"

namespace capops::facts {

/// True when `def` has a `start: date` field and an `end: date` or a
/// `duration: duration` field (either may be optional).
bool IsIntervalRecord(const TypeTable& schema, const RecordDef& def);

/// One inconsistency of an interval, located at the field to change.
struct IntervalProblem {
  SourceLoc loc;
  std::string message;
  std::string help;
};

/// The inconsistencies of one interval record's fields, already typed by
/// validation. Fields that are absent or not of their type (reported
/// elsewhere) are not judged. Empty when the interval is consistent.
std::vector<IntervalProblem> CheckInterval(MapView fields);

}  // namespace capops::facts
