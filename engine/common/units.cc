// SPDX-License-Identifier: Apache-2.0
// Parsing and printing of dates, durations and quantities with units.
#include "engine/common/units.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <limits>

namespace capops {

namespace {

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

bool MulOverflows(int64_t a, int64_t b, int64_t* out) {
  return __builtin_mul_overflow(a, b, out);
}

bool AddOverflows(int64_t a, int64_t b, int64_t* out) {
  return __builtin_add_overflow(a, b, out);
}

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
// days_from_civil algorithm, written out here).
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void CivilFromDays(int64_t z, int64_t* y, unsigned* m, unsigned* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = static_cast<int64_t>(yoe) + era * 400 + (*m <= 2);
}

// The number written by the `n` digits of `text` from `at`; false when
// they are not all there or not all digits.
bool Digits(std::string_view text, size_t at, size_t n, int* out) {
  if (at > text.size() || text.size() - at < n) return false;
  int value = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (!IsDigit(text[i])) return false;
    value = value * 10 + (text[i] - '0');
  }
  *out = value;
  return true;
}

int64_t FloorDiv(int64_t a, int64_t b) {
  return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

unsigned DaysInMonth(int64_t y, unsigned m) {
  static constexpr std::array<unsigned, 12> kDays = {31, 28, 31, 30, 31, 30,
                                                     31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

struct UnitFactor {
  const char* prefix;
  int64_t factor;
};

// Binary prefixes first so that formatting prefers "80GiB" over "85.89GB".
constexpr std::array<UnitFactor, 13> kPrefixes = {{
    {"Ei", int64_t{1} << 60},
    {"Pi", int64_t{1} << 50},
    {"Ti", int64_t{1} << 40},
    {"Gi", int64_t{1} << 30},
    {"Mi", int64_t{1} << 20},
    {"Ki", int64_t{1} << 10},
    {"E", 1000000000000000000},
    {"P", 1000000000000000},
    {"T", 1000000000000},
    {"G", 1000000000},
    {"M", 1000000},
    {"k", 1000},
    {"", 1},
}};

bool LookupPrefix(std::string_view prefix, int64_t* factor) {
  if (prefix == "K") prefix = "k";  // `KB` is common enough to accept
  for (const UnitFactor& u : kPrefixes) {
    if (prefix == u.prefix) {
      *factor = u.factor;
      return true;
    }
  }
  return false;
}

}  // namespace

const char* DimensionName(Dimension d) {
  return d == Dimension::kBytes ? "bytes" : "bytes/s";
}

bool ParseDate(std::string_view text, int64_t* days) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!IsDigit(text[i])) return false;
  }
  int64_t y =
      (text[0] - '0') * 1000 + (text[1] - '0') * 100 + (text[2] - '0') * 10 + (text[3] - '0');
  unsigned m = (text[5] - '0') * 10 + (text[6] - '0');
  unsigned d = (text[8] - '0') * 10 + (text[9] - '0');
  if (m < 1 || m > 12 || d < 1 || d > DaysInMonth(y, m)) return false;
  *days = DaysFromCivil(y, m, d);
  return true;
}

bool LooksLikeDate(std::string_view text) {
  size_t year = 0;
  while (year < text.size() && IsDigit(text[year])) ++year;
  std::string_view rest = text.substr(year);  // `-MM-DD` and a time, if it is a date
  int month = 0, day = 0;
  if (year < 4 || rest.size() < 6 || rest[0] != '-' || !Digits(rest, 1, 2, &month) ||
      rest[3] != '-' || !Digits(rest, 4, 2, &day)) {
    return false;
  }
  if (rest.size() == 6) return true;
  return (rest[6] == 'T' || rest[6] == 't') && rest.size() > 7 && IsDigit(rest[7]);
}

bool ParseDateTime(std::string_view text, DateTime* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = "`" + std::string(text) + "`" + why;
    return false;
  };
  const std::string kShape =
      " is not a valid date-time: write `HH:MM` or `HH:MM:SS` after the `T`, such as "
      "`2027-04-20T09:00Z`";
  if (!LooksLikeDate(text)) {
    return fail(
        " is not a date: write `YYYY-MM-DD`, or a time with its UTC offset such as "
        "`2027-04-20T09:00+02:00`");
  }
  if (text.find('-') != 4) return fail(" is not a valid date: a year has four digits");
  int64_t days = 0;
  if (!ParseDate(text.substr(0, 10), &days)) return fail(" is not a valid date");
  if (text.size() == 10) {
    *out = DateTime::Day(days);
    return true;
  }
  std::string_view time = text.substr(11);
  int hour = 0, minute = 0, second = 0;
  size_t at = 5;  // after `HH:MM`
  if (!Digits(time, 0, 2, &hour) || time.size() < 5 || time[2] != ':' ||
      !Digits(time, 3, 2, &minute)) {
    return fail(kShape);
  }
  if (time.size() > at && time[at] == ':') {
    if (!Digits(time, at + 1, 2, &second)) return fail(kShape);
    at += 3;
  }
  if (time.size() > at && (time[at] == '.' || time[at] == ',')) {
    return fail(" has a fraction of a second: times are given to the second");
  }
  if (hour > 23) return fail(" is not a valid time: the hour runs from 00 to 23");
  if (minute > 59) return fail(" is not a valid time: the minute runs from 00 to 59");
  if (second > 59) return fail(" is not a valid time: the second runs from 00 to 59");
  std::string_view zone = time.substr(at);
  int offset = 0, zone_hours = 0, zone_minutes = 0;
  if (zone.empty()) return fail(": a time needs a UTC offset, such as `Z` or `+02:00`");
  if (zone != "Z" && zone != "z") {
    if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':' ||
        !Digits(zone, 1, 2, &zone_hours) || !Digits(zone, 4, 2, &zone_minutes)) {
      return fail(" has an invalid UTC offset `" + std::string(zone) +
                  "`: write `Z`, or `+HH:MM` or `-HH:MM` such as `+02:00`");
    }
    if (zone_hours > 23 || zone_minutes > 59) {
      return fail(" has a UTC offset out of range: offsets run from `-23:59` to `+23:59`");
    }
    offset = (zone[0] == '-' ? -1 : 1) * (zone_hours * 60 + zone_minutes);
  }
  out->seconds = days * DateTime::kSecondsPerDay + hour * 3600 + minute * 60 + second - offset * 60;
  out->offset = static_cast<int16_t>(offset);
  return true;
}

bool ParseDuration(std::string_view text, int64_t* seconds) {
  if (text.empty()) return false;
  int64_t total = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t start = i;
    while (i < text.size() && IsDigit(text[i])) ++i;
    if (i == start || i == text.size()) return false;
    int64_t n = 0;
    auto [ptr, ec] = std::from_chars(text.data() + start, text.data() + i, n);
    if (ec != std::errc()) return false;
    int64_t unit = 0;
    switch (text[i]) {
      case 'w':
        unit = 7 * 86400;
        break;
      case 'd':
        unit = 86400;
        break;
      case 'h':
        unit = 3600;
        break;
      case 'm':
        unit = 60;
        break;
      case 's':
        unit = 1;
        break;
      default:
        return false;
    }
    ++i;
    int64_t part = 0;
    if (MulOverflows(n, unit, &part) || AddOverflows(total, part, &total)) return false;
  }
  *seconds = total;
  return true;
}

bool ParseQuantity(std::string_view text, Quantity* out) {
  Dimension dim = Dimension::kBytes;
  if (text.size() > 2 && text.substr(text.size() - 2) == "/s") {
    dim = Dimension::kBytesPerSecond;
    text.remove_suffix(2);
  }
  if (text.empty() || text.back() != 'B') return false;
  text.remove_suffix(1);
  size_t i = 0;
  while (i < text.size() && IsDigit(text[i])) ++i;
  size_t int_end = i;
  size_t frac_begin = i, frac_end = i;
  if (i < text.size() && text[i] == '.') {
    frac_begin = ++i;
    while (i < text.size() && IsDigit(text[i])) ++i;
    frac_end = i;
    if (frac_end == frac_begin) return false;
  }
  if (int_end == 0) return false;
  int64_t factor = 0;
  if (!LookupPrefix(text.substr(i), &factor)) return false;

  // amount = whole × factor + fraction × factor / 10^digits, exactly.
  int64_t whole = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + int_end, whole);
  if (ec != std::errc()) return false;
  int64_t amount = 0;
  if (MulOverflows(whole, factor, &amount)) return false;
  if (frac_end > frac_begin) {
    if (frac_end - frac_begin > 18) return false;
    int64_t numerator = 0, denominator = 1;
    for (size_t k = frac_begin; k < frac_end; ++k) {
      numerator = numerator * 10 + (text[k] - '0');
      denominator *= 10;
    }
    __int128 scaled = static_cast<__int128>(numerator) * factor;
    if (scaled % denominator != 0) return false;  // finer than one base unit
    if (AddOverflows(amount, static_cast<int64_t>(scaled / denominator), &amount)) return false;
  }
  *out = Quantity{amount, dim};
  return true;
}

std::string FormatDate(int64_t days) {
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u", static_cast<long long>(y), m, d);
  return buf;
}

std::string FormatDateTime(const DateTime& t) {
  if (t.date_only()) return FormatDate(t.seconds / DateTime::kSecondsPerDay);
  int offset = t.offset == DateTime::kDateOnly ? 0 : t.offset;
  int64_t local = t.seconds + int64_t{offset} * 60;
  int64_t days = FloorDiv(local, DateTime::kSecondsPerDay);
  int64_t clock = local - days * DateTime::kSecondsPerDay;
  char buf[32];
  int n = std::snprintf(buf, sizeof buf, "T%02d:%02d", static_cast<int>(clock / 3600),
                        static_cast<int>(clock / 60 % 60));
  if (clock % 60 != 0) {
    n += std::snprintf(buf + n, sizeof buf - n, ":%02d", static_cast<int>(clock % 60));
  }
  if (offset == 0) {
    std::snprintf(buf + n, sizeof buf - n, "Z");
  } else {
    int size = offset < 0 ? -offset : offset;
    std::snprintf(buf + n, sizeof buf - n, "%c%02d:%02d", offset < 0 ? '-' : '+', size / 60,
                  size % 60);
  }
  return FormatDate(days) + buf;
}

std::string FormatDuration(int64_t seconds) {
  if (seconds == 0) return "0s";
  std::string out;
  uint64_t rest = seconds < 0 ? 0 - static_cast<uint64_t>(seconds) : static_cast<uint64_t>(seconds);
  if (seconds < 0) out += '-';
  static constexpr std::array<std::pair<uint64_t, char>, 4> kUnits = {
      {{86400, 'd'}, {3600, 'h'}, {60, 'm'}, {1, 's'}}};
  for (auto [size, unit] : kUnits) {
    if (rest >= size) {
      out += std::to_string(rest / size);
      out += unit;
      rest %= size;
    }
  }
  return out;
}

std::string FormatQuantity(const Quantity& q) {
  const char* suffix = q.dimension == Dimension::kBytesPerSecond ? "B/s" : "B";
  if (q.amount == 0) return std::string("0") + suffix;
  // The exact unit that prints the smallest number: 2TB rather than 1953125000KiB.
  const UnitFactor* best = &kPrefixes.back();
  for (const UnitFactor& u : kPrefixes) {
    if (q.amount % u.factor == 0 && q.amount / u.factor < q.amount / best->factor) best = &u;
  }
  // A mixed amount such as 40TB + 24GiB reads best as plain bytes.
  if (q.amount / best->factor >= 1000000) best = &kPrefixes.back();
  return std::to_string(q.amount / best->factor) + best->prefix + suffix;
}

}  // namespace capops
