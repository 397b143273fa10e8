// Scalar literals shared by CPL and YAML facts: dates, durations, quantities.
//
// Quantities are exact: an amount is an integer count of the dimension's base
// unit (bytes, or bytes per second), so `80GiB == 85899345920B` holds without
// rounding. Decimal amounts are accepted when they come to whole base units
// (`1.5KB` is 1500 bytes; `0.5B` is rejected).
//
//   int64_t days;   ParseDate("2027-04-12", &days);
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

/// `YYYY-MM-DD`, a real calendar day, to days since 1970-01-01.
bool ParseDate(std::string_view text, int64_t* days);
/// One or more `<digits><unit>` with units w, d, h, m, s, to seconds.
bool ParseDuration(std::string_view text, int64_t* seconds);
/// `<number><prefix>B[/s]` with SI (k, K, M, G, T, P, E) or binary (Ki … Ei) prefixes.
bool ParseQuantity(std::string_view text, Quantity* out);

std::string FormatDate(int64_t days);
/// Largest units first, e.g. 129600 → "1d12h"; 0 → "0s".
std::string FormatDuration(int64_t seconds);
/// The largest unit that divides the amount exactly, binary before SI: "80GiB", "5GB/s".
std::string FormatQuantity(const Quantity& q);

}  // namespace capops
