// SPDX-License-Identifier: Apache-2.0
// Scalar literals shared by CPL and YAML facts: dates, durations, quantities.
//
// A date is an instant to the second. It is written as a plain date,
// `2027-04-12`, which means 00:00 UTC of that day, or as an RFC 3339
// date-time with its UTC offset, `2027-04-20T09:00+02:00` or
// `2027-04-20T09:00:30Z` (`T`, and `Z` for offset zero; seconds optional, no
// fractions of a second). Instants compare and subtract as seconds; the form
// is kept only to print a date as it was written.
//
// Quantities are exact: an amount is an integer count of the dimension's base
// unit (bytes, or bytes per second), so `80GiB == 85899345920B` holds without
// rounding. Decimal amounts are accepted when they come to whole base units
// (`1.5KB` is 1500 bytes; `0.5B` is rejected).
//
//   int64_t days;   ParseDate("2027-04-12", &days);
//   DateTime t;     ParseDateTime("2027-04-20T09:00+02:00", &t, &error);
//                   // {1808204400, 120}: 07:00 UTC; FormatDateTime(t) gives the text back
//   int64_t secs;   ParseDuration("1d12h", &secs);       // 129600
//   Quantity q;     ParseQuantity("5GB/s", &q);          // {5000000000, kBytesPerSecond}
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace capops {

/// What a quantity measures.
enum class Dimension : uint8_t { kBytes, kBytesPerSecond };

/// "bytes" or "bytes/s".
const char* DimensionName(Dimension d);

struct Quantity {
  int64_t amount = 0;  // in base units: bytes, or bytes per second
  Dimension dimension = Dimension::kBytes;
  friend bool operator==(const Quantity&, const Quantity&) = default;
};

/// An instant, to the second, and the form it was written in.
struct DateTime {
  /// `offset` of a plain date.
  static constexpr int16_t kDateOnly = INT16_MIN;
  /// The instants a date may hold (about ±4 million years): what a Value
  /// packs (Value::Date), far beyond the years 0000 to 9999 one is written in.
  static constexpr int64_t kMaxSeconds = (int64_t{1} << 47) - 1;
  static constexpr int64_t kMinSeconds = -kMaxSeconds;
  static constexpr int64_t kSecondsPerDay = 86400;

  int64_t seconds = 0;  // since 1970-01-01T00:00Z
  /// Minutes east of UTC it was written at (`+02:00` is 120, `Z` is 0,
  /// never more than 23:59 either way), or kDateOnly: written as a plain
  /// date. Only printing reads it.
  int16_t offset = kDateOnly;

  /// 00:00 UTC of the day `days` after 1970-01-01, as a plain date.
  static DateTime Day(int64_t days) { return {days * kSecondsPerDay, kDateOnly}; }
  /// Written as a plain date, and at 00:00 UTC: a plain date moved by a
  /// duration that is not whole days prints as a UTC date-time (and as a
  /// plain date again once moved back).
  bool date_only() const { return offset == kDateOnly && seconds % kSecondsPerDay == 0; }
};

/// `YYYY-MM-DD`, a real calendar day, to days since 1970-01-01.
bool ParseDate(std::string_view text, int64_t* days);
/// A plain date or a date-time, `YYYY-MM-DD[THH:MM[:SS](Z|±HH:MM)]` (`t` and
/// `z` also in lower case). False, and `*error` a message that quotes the
/// text and says what is wrong with it, when it is not a valid one.
bool ParseDateTime(std::string_view text, DateTime* out, std::string* error);
/// Whether `text` has the shape of a date a writer meant, valid or not: four
/// or more digits, `-`, two digits, `-`, two digits, then nothing or a time
/// (`T` or `t` and a digit). Such text that does not parse is reported
/// (ParseDateTime's message) rather than taken for a string; other text
/// (`2001-11-23 15:01:42 -5`, a YAML 1.1 timestamp) is a string.
bool LooksLikeDate(std::string_view text);
/// One or more `<digits><unit>` with units w, d, h, m, s, to seconds.
bool ParseDuration(std::string_view text, int64_t* seconds);
/// `<number><prefix>B[/s]` with SI (k, K, M, G, T, P, E) or binary (Ki … Ei) prefixes.
bool ParseQuantity(std::string_view text, Quantity* out);

std::string FormatDate(int64_t days);
/// As written: `2027-04-12` for a plain date; else the date and time at
/// its own offset, seconds only when not zero, `Z` for offset zero:
/// `2027-04-20T09:00+02:00`, `2027-04-20T17:30:15Z`.
std::string FormatDateTime(const DateTime& t);
/// Largest units first, e.g. 129600 → "1d12h"; 0 → "0s".
std::string FormatDuration(int64_t seconds);
/// The largest unit that divides the amount exactly, binary before SI: "80GiB", "5GB/s".
std::string FormatQuantity(const Quantity& q);

}  // namespace capops
