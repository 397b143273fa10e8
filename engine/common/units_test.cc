// SPDX-License-Identifier: Apache-2.0
#include "engine/common/units.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "engine/common/value.h"
#include "engine/eval/read_ahead.h"

namespace capops {
namespace {

TEST_CASE("dates parse to days and print back", "[common]") {
  int64_t days = 0;
  REQUIRE(ParseDate("1970-01-01", &days));
  CHECK(days == 0);
  REQUIRE(ParseDate("2027-04-12", &days));
  CHECK(FormatDate(days) == "2027-04-12");
  int64_t end = 0;
  REQUIRE(ParseDate("2027-04-26", &end));
  CHECK(end - days == 14);
  CHECK(ParseDate("2028-02-29", &days));  // leap year
  CHECK_FALSE(ParseDate("2027-02-29", &days));
  CHECK_FALSE(ParseDate("2027-02-30", &days));
  CHECK_FALSE(ParseDate("2027-13-01", &days));
  CHECK_FALSE(ParseDate("2027-4-12", &days));
}

TEST_CASE("dates and date-times parse to instants and print as written", "[common]") {
  struct Case {
    const char* text;
    int64_t seconds;      // since 1970-01-01T00:00Z
    const char* printed;  // FormatDateTime
  };
  const Case cases[] = {
      {"1970-01-01", 0, "1970-01-01"},
      {"2027-04-12", 1807488000, "2027-04-12"},  // a plain date is 00:00 UTC
      {"2027-04-12T00:00Z", 1807488000, "2027-04-12T00:00Z"},
      {"2027-04-20T09:00+02:00", 1808204400, "2027-04-20T09:00+02:00"},
      {"2027-04-20T07:00Z", 1808204400, "2027-04-20T07:00Z"},
      {"2027-04-20T09:00:00Z", 1808211600, "2027-04-20T09:00Z"},  // zero seconds are not shown
      {"2027-04-20T17:30:15Z", 1808242215, "2027-04-20T17:30:15Z"},
      {"2027-04-20T09:00-05:30", 1808231400, "2027-04-20T09:00-05:30"},
      {"2027-04-20T09:00+00:00", 1808211600, "2027-04-20T09:00Z"},  // offset zero prints `Z`
      {"2027-04-20t09:00z", 1808211600, "2027-04-20T09:00Z"},       // RFC 3339 allows lower case
      {"2028-02-29T23:59:59+23:59", 1835395259, "2028-02-29T23:59:59+23:59"},
      {"0000-01-01T00:00Z", -62167219200, "0000-01-01T00:00Z"},
      {"9999-12-31T23:59:59-23:59", 253402387139, "9999-12-31T23:59:59-23:59"},
      {"1969-12-31T23:00Z", -3600, "1969-12-31T23:00Z"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    DateTime t;
    std::string error;
    REQUIRE(ParseDateTime(c.text, &t, &error));
    CHECK(error.empty());
    CHECK(t.seconds == c.seconds);
    CHECK(FormatDateTime(t) == c.printed);
    // What a Value packs comes back whole, negative instants too.
    CHECK(Value::Date(t).date_value().seconds == t.seconds);
    CHECK(Value::Date(t).ToString() == c.printed);
  }
}

TEST_CASE("invalid dates and date-times say what is wrong", "[common]") {
  const std::pair<const char*, const char*> cases[] = {
      {"2027-02-30", "`2027-02-30` is not a valid date"},
      {"2027-02-30T09:00Z", "`2027-02-30T09:00Z` is not a valid date"},
      {"2027-13-01T09:00Z", "`2027-13-01T09:00Z` is not a valid date"},
      {"2027-04-20T25:00Z", "`2027-04-20T25:00Z` is not a valid time: the hour runs from 00 to 23"},
      {"2027-04-20T09:60Z",
       "`2027-04-20T09:60Z` is not a valid time: the minute runs from 00 to 59"},
      {"2027-04-20T23:59:60Z",
       "`2027-04-20T23:59:60Z` is not a valid time: the second runs from 00 to 59"},
      {"2027-04-20T09:00",
       "`2027-04-20T09:00`: a time needs a UTC offset, such as `Z` or `+02:00`"},
      {"2027-04-20T09:00:30",
       "`2027-04-20T09:00:30`: a time needs a UTC offset, such as `Z` or `+02:00`"},
      {"2027-04-20T09:00+24:00",
       "`2027-04-20T09:00+24:00` has a UTC offset out of range: offsets run from `-23:59` to "
       "`+23:59`"},
      {"2027-04-20T09:00+02:60",
       "`2027-04-20T09:00+02:60` has a UTC offset out of range: offsets run from `-23:59` to "
       "`+23:59`"},
      {"2027-04-20T09:00-0530",
       "`2027-04-20T09:00-0530` has an invalid UTC offset `-0530`: write `Z`, or `+HH:MM` or "
       "`-HH:MM` such as `+02:00`"},
      {"2027-04-20T09:00 CEST",
       "`2027-04-20T09:00 CEST` has an invalid UTC offset ` CEST`: write `Z`, or `+HH:MM` or "
       "`-HH:MM` such as `+02:00`"},
      {"2027-04-20T09:00:00.5Z",
       "`2027-04-20T09:00:00.5Z` has a fraction of a second: times are given to the second"},
      {"2027-04-20T9:00Z",
       "`2027-04-20T9:00Z` is not a valid date-time: write `HH:MM` or `HH:MM:SS` after the `T`, "
       "such as `2027-04-20T09:00Z`"},
      {"2027-04-20T0900Z",
       "`2027-04-20T0900Z` is not a valid date-time: write `HH:MM` or `HH:MM:SS` after the `T`, "
       "such as `2027-04-20T09:00Z`"},
      {"12027-04-20T09:00Z", "`12027-04-20T09:00Z` is not a valid date: a year has four digits"},
      {"99999999999999999999-01-01",
       "`99999999999999999999-01-01` is not a valid date: a year has four digits"},
      {"2027-04-20Z",
       "`2027-04-20Z` is not a date: write `YYYY-MM-DD`, or a time with its UTC offset such as "
       "`2027-04-20T09:00+02:00`"},
  };
  for (const auto& [text, message] : cases) {
    INFO(text);
    DateTime t;
    std::string error;
    CHECK_FALSE(ParseDateTime(text, &t, &error));
    CHECK(error == message);
  }
}

TEST_CASE("what looks like a date is judged as one", "[common]") {
  for (const char* text :
       {"2027-04-12", "2027-04-12T09:00", "2027-04-12t9", "12027-04-12", "2027-02-30"}) {
    INFO(text);
    CHECK(LooksLikeDate(text));
  }
  // Text that merely starts with a date stays text (a waiver's reason, say).
  for (const char* text : {"2027-04-12 outage", "2027-04-12 09:00Z", "2027-04-12Tuesday",
                           "2027-04-12Z", "2027-4-12", "27-04-12", "2027-04-12T"}) {
    INFO(text);
    CHECK_FALSE(LooksLikeDate(text));
  }
}

TEST_CASE("dates compare by instant, whatever offset they were written at", "[common]") {
  auto date = [](const char* text) {
    DateTime t;
    std::string error;
    REQUIRE(ParseDateTime(text, &t, &error));
    return Value::Date(t);
  };
  CHECK(date("2027-04-12T23:00+02:00").date_value().seconds <
        date("2027-04-12T22:00Z").date_value().seconds);
  CHECK(date("2027-04-20T09:00+02:00") == date("2027-04-20T07:00Z"));
  CHECK(date("2027-04-12") == date("2027-04-12T02:00+02:00"));
  CHECK_FALSE(date("2027-04-12") == date("2027-04-12T00:00:01Z"));
  // A plain date off midnight (moved by hours) prints as a UTC date-time.
  CHECK(Value::Date({DateTime::Day(1).seconds + 3600, DateTime::kDateOnly}).ToString() ==
        "1970-01-02T01:00Z");
  CHECK(Value::Date(DateTime::Day(-1)).ToString() == "1969-12-31");
}

TEST_CASE("durations parse with mixed units", "[common]") {
  int64_t s = 0;
  REQUIRE(ParseDuration("5d", &s));
  CHECK(s == 5 * 86400);
  REQUIRE(ParseDuration("1d12h", &s));
  CHECK(s == 129600);
  CHECK(FormatDuration(s) == "1d12h");
  REQUIRE(ParseDuration("90m", &s));
  CHECK(FormatDuration(s) == "1h30m");
  REQUIRE(ParseDuration("8h", &s));
  CHECK(s == 8 * 3600);
  CHECK_FALSE(ParseDuration("1.5h", &s));  // no fractions: `1h30m`
  REQUIRE(ParseDuration("2w", &s));
  CHECK(FormatDuration(s) == "14d");
  CHECK_FALSE(ParseDuration("5", &s));
  CHECK_FALSE(ParseDuration("5x", &s));
  CHECK_FALSE(ParseDuration("d", &s));
  CHECK_FALSE(ParseDuration("99999999999999999999d", &s));
}

TEST_CASE("quantities are exact in base units", "[common]") {
  Quantity q;
  REQUIRE(ParseQuantity("80GiB", &q));
  CHECK(q.amount == 85899345920);
  CHECK(q.dimension == Dimension::kBytes);
  CHECK(FormatQuantity(q) == "80GiB");
  Quantity same;
  REQUIRE(ParseQuantity("85899345920B", &same));
  CHECK(Value::Quantity(q) == Value::Quantity(same));
  REQUIRE(ParseQuantity("5GB/s", &q));
  CHECK(q.amount == 5000000000);
  CHECK(q.dimension == Dimension::kBytesPerSecond);
  CHECK(FormatQuantity(q) == "5GB/s");
  REQUIRE(ParseQuantity("40TB", &q));
  CHECK(FormatQuantity(q) == "40TB");
  REQUIRE(ParseQuantity("1.5KB", &q));
  CHECK(q.amount == 1500);
  REQUIRE(ParseQuantity("1.5KiB", &q));
  CHECK(q.amount == 1536);
  CHECK_FALSE(ParseQuantity("0.5B", &q));
  CHECK_FALSE(ParseQuantity("80Gb", &q));
  CHECK_FALSE(ParseQuantity("GiB", &q));
  CHECK_FALSE(ParseQuantity("100000EB", &q));  // overflows int64
}

// A location is packed into the Value's word when it fits, else kept in a
// side table: both give back exactly what was set, through copies and moves,
// and the kind, dimension and payload beside it are untouched.
TEST_CASE("values keep every location exactly, also past the packed range", "[common]") {
  const std::vector<SourceLoc> locs = {
      SourceLoc{},  // none
      SourceLoc{0, 1, 1},
      SourceLoc{16381, (1u << 26) - 1, 65535},  // the largest that fit
      SourceLoc{16382, 3, 4},                   // the first file past them
      SourceLoc{2, 1u << 26, 1},                // a line past them
      SourceLoc{2, 7, 65536},                   // a column past them (a long flow line)
      SourceLoc{kNoFile, 5, 6},                 // no file, yet a position
      SourceLoc{UINT32_MAX - 1, UINT32_MAX, UINT32_MAX},
  };
  for (const SourceLoc& loc : locs) {
    CAPTURE(loc.file, loc.line, loc.column);
    Value q = Value::Quantity({5'000'000'000, Dimension::kBytesPerSecond});
    q.set_loc(loc);
    CHECK(q.loc() == loc);
    Value copy = q;
    Value moved = std::move(copy);
    CHECK(moved.loc() == loc);
    CHECK(moved.kind() == ValueKind::kQuantity);
    CHECK(moved.quantity_value() == capops::Quantity{5'000'000'000, Dimension::kBytesPerSecond});
    Value s = Value::String("text");
    s.set_loc(loc);
    Value borrowed;
    borrowed.Borrow(s);
    CHECK(borrowed.loc() == loc);
    CHECK(borrowed.string_value() == "text");
    s.set_loc(SourceLoc{1, 2, 3});  // moves the location, keeps the string
    CHECK(s.loc() == SourceLoc{1, 2, 3});
    CHECK(s.string_value() == "text");
  }
  // A computed value has no location.
  CHECK_FALSE(Value::Int(3).loc().valid());
}

TEST_CASE("keyed lists look items up by id", "[common]") {
  auto item = [](const char* id, int64_t gpus) {
    return Value::Map({{"id", Value::String(id)}, {"gpus", Value::Int(gpus)}});
  };
  Value keyed = Value::List({item("a", 1), item("b", 2)});
  REQUIRE(keyed.keyed());
  REQUIRE(keyed.FindById("b") != nullptr);
  CHECK(keyed.FindById("b")->Field("gpus")->int_value() == 2);
  CHECK(keyed.FindById("c") == nullptr);
  Value repeated = Value::List({item("a", 1), item("a", 2)});
  CHECK_FALSE(repeated.keyed());
  CHECK(repeated.FindById("a") == nullptr);
}

// Small maps are searched entry by entry, large ones through an index:
// both find every key, and keep a repeated key's first value.
TEST_CASE("maps of every size find their keys and keep the first of a repeat", "[common]") {
  for (int n : {3, 15, 16, 40, 300}) {
    MapEntries entries;
    for (int i = 0; i < n; ++i) entries.emplace_back(Key("k" + std::to_string(i)), Value::Int(i));
    entries.emplace_back(Key("k1"), Value::Int(-1));  // a repeat: dropped
    Value map = Value::Map(std::move(entries));
    CAPTURE(n);
    REQUIRE(map.entries().size() == static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      const Value* v = map.Field(Key("k" + std::to_string(i)));
      REQUIRE(v != nullptr);
      CHECK(v->int_value() == i);
    }
    CHECK(map.Field(Key("absent")) == nullptr);
  }
}

// Reading ahead changes nothing and reads nothing past the loop: the items
// are read only below `count` (a join's candidates are a vector of exactly
// that many, so a read past it is an overflow under the sanitizers); a map
// too large to be a record is left alone.
TEST_CASE("reading a loop's items ahead stays within the loop", "[common]") {
  auto record = [](int i, int fields) {
    MapEntries entries;
    entries.emplace_back(Key("id"), Value::String("item-" + std::to_string(i)));
    entries.emplace_back(Key("window"), Value::Map({{"start", Value::Int(i)}}));
    for (int f = 2; f < fields; ++f)
      entries.emplace_back(Key("f" + std::to_string(f)), Value::Int(f));
    return Value::Map(std::move(entries));
  };
  for (int n : {0, 1, 2, 3, 6, 7, 20}) {
    std::vector<Value> built;
    for (int i = 0; i < n; ++i)
      built.push_back(i % 3 == 2 ? Value::Int(i) : record(i, i % 2 == 0 ? 4 : 80));
    Value list = Value::List(std::move(built));
    ListView items = list.items();
    CAPTURE(n);
    for (size_t count : {size_t{0}, items.size() / 2, items.size()}) {
      std::vector<Value> picked(count);  // sized once: borrowed values must not move
      for (size_t k = 0; k < count; ++k) picked[k].Borrow(items[items.size() - 1 - k]);
      eval::ReadAhead all(ListView(items.begin(), count));
      eval::ReadAhead some(picked);
      for (size_t k = 0; k < count; ++k) {
        all.Step(k);
        some.Step(k);
      }
    }
    for (int i = 0; i < n; ++i) {
      if (i % 3 == 2) {
        CHECK(items[i].int_value() == i);
      } else {
        CHECK(items[i].Id() == "item-" + std::to_string(i));
        CHECK(items[i].entries().size() == (i % 2 == 0 ? 4u : 80u));
      }
    }
  }
}

TEST_CASE("a field hint is tried first and follows the maps it reads", "[common]") {
  Value ab = Value::Map({{"a", Value::Int(1)}, {"b", Value::Int(2)}});
  Value ba = Value::Map({{"b", Value::Int(20)}, {"a", Value::Int(10)}});
  Value c = Value::Map({{"c", Value::Int(3)}});
  FieldHint hint;
  CHECK(ab.Field(Key("b"), &hint)->int_value() == 2);
  CHECK(hint.at == 1);
  CHECK(ab.Field(Key("b"), &hint)->int_value() == 2);
  // Another layout moves the hint; a map without the field leaves it.
  CHECK(ba.Field(Key("b"), &hint)->int_value() == 20);
  CHECK(hint.at == 0);
  CHECK(c.Field(Key("b"), &hint) == nullptr);
  CHECK(hint.at == 0);
  // A hint past a small map's end, or at another key, is only a guess.
  hint.at = 7;
  CHECK(c.Field(Key("c"), &hint)->int_value() == 3);
  CHECK(ab.Field(Key("a"), &hint)->int_value() == 1);
  CHECK(Value::Int(1).Field(Key("a"), &hint) == nullptr);
}

// Maps with the same keys in the same order share one layout of keys, made
// once from any thread; the values stay each map's own.
TEST_CASE("maps with the same keys share them, and keep their own values", "[common]") {
  auto record = [](int64_t gpus, const char* region) {
    return Value::Map({{"gpus", Value::Int(gpus)}, {"region", Value::String(region)}});
  };
  Value a = record(8, "eu"), b = record(8, "eu"), c = record(16, "us");
  Value reordered = Value::Map({{"region", Value::String("eu")}, {"gpus", Value::Int(8)}});
  CHECK(a.SameKeys(c));
  CHECK(a == b);
  CHECK_FALSE(a == c);
  CHECK(c.Field("gpus")->int_value() == 16);
  CHECK(c.Field("region")->string_value() == "us");
  // Another order is another layout, and still the same map.
  CHECK_FALSE(a.SameKeys(reordered));
  CHECK(a == reordered);
  CHECK(reordered.entries()[0].first == "region");
  CHECK_FALSE(a.SameKeys(Value::Map({{"gpus", Value::Int(8)}})));
  CHECK_FALSE(a.SameKeys(Value::Int(1)));

  std::vector<Value> made(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < made.size(); ++t) {
    threads.emplace_back([&, t] { made[t] = record(static_cast<int64_t>(t), "eu"); });
  }
  for (std::thread& t : threads) t.join();
  for (size_t t = 0; t < made.size(); ++t) {
    CHECK(made[t].SameKeys(a));
    CHECK(made[t].Field("gpus")->int_value() == static_cast<int64_t>(t));
  }
}

// A map taken apart gives back its keys with its values, in order, and is
// left empty; one with more keys than a shared layout holds keeps its own.
TEST_CASE("a map's entries are taken back out with their keys", "[common]") {
  for (int n : {2, 70}) {
    MapEntries entries;
    for (int i = 0; i < n; ++i)
      entries.emplace_back(Key("t" + std::to_string(i)), Value::String(std::to_string(i)));
    Value map = Value::Map(entries);
    Value shared = map;
    MapEntries taken;
    CAPTURE(n);
    CHECK_FALSE(shared.TakeEntries(&taken));  // two holders
    shared = Value();
    REQUIRE(map.TakeEntries(&taken));
    REQUIRE(taken.size() == static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      CHECK(taken[i].first == Key("t" + std::to_string(i)));
      CHECK(taken[i].second.string_value() == std::to_string(i));
    }
    CHECK(map.entries().empty());
    CHECK(map.Field("t0") == nullptr);
    CHECK(map == Value::Map({}));
  }
}

// The index of a keyed list is built on the first lookup; lists made and
// looked up from several threads at once agree.
TEST_CASE("keyed lists index themselves once, from any thread", "[common]") {
  std::vector<Value> items;
  for (int i = 0; i < 1000; ++i) {
    items.push_back(
        Value::Map({{"id", Value::String("x" + std::to_string(i))}, {"n", Value::Int(i)}}));
  }
  Value list = Value::List(std::move(items));
  std::vector<int64_t> found(4, -1);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < found.size(); ++t) {
    threads.emplace_back([&, t] {
      const Value* item = list.FindById("x" + std::to_string(100 * t + 7));
      found[t] = item != nullptr ? item->Field("n")->int_value() : -2;
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(found == std::vector<int64_t>{7, 107, 207, 307});
  CHECK(list.keyed());
  CHECK_FALSE(Value::List({Value::Int(1)}).keyed());
}

// A hint says where an id was last found; in another list, or where that
// position holds another item, the id is looked up afresh. One hint is
// shared by every lookup here, so it is wrong more often than right.
TEST_CASE("an id hint is tried first and never misleads, in any list", "[common]") {
  auto item = [](const std::string& id, int64_t n) {
    return Value::Map({{"id", Value::String(id)}, {"n", Value::Int(n)}});
  };
  Value first = Value::List({item("a", 1), item("b", 2), item("c", 3)});
  Value second = Value::List({item("c", 30), item("a", 10)});
  Value a = Value::String("a"), c = Value::String("c"), b = Value::String("b");
  IdHint hint;
  for (int round = 0; round < 2; ++round) {
    REQUIRE(first.FindById(a, &hint) != nullptr);
    CHECK(hint.at == 1);
    CHECK(first.FindById(a, &hint)->Field("n")->int_value() == 1);
    REQUIRE(second.FindById(a, &hint) != nullptr);
    CHECK(hint.at == 2);
    CHECK(second.FindById(a, &hint)->Field("n")->int_value() == 10);
    CHECK(first.FindById(c, &hint)->Field("n")->int_value() == 3);
    CHECK(second.FindById(c, &hint)->Field("n")->int_value() == 30);
    CHECK(second.FindById(b, &hint) == nullptr);
    CHECK(hint.at == 1);  // not found: the hint stays
    hint.at = 2;          // in `second`, position 2 holds `a`
    CHECK(second.FindById(b, &hint) == nullptr);
    CHECK(first.FindById(b, &hint)->Field("n")->int_value() == 2);
    hint.at = 99;  // past the end: only a guess
    CHECK(first.FindById(c, &hint)->Field("n")->int_value() == 3);
  }
  CHECK(first.FindById(Value::Int(1), &hint) == nullptr);
  CHECK(Value::List({Value::Int(1)}).FindById(a, &hint) == nullptr);
}

TEST_CASE("a plain scalar's text is a string that says so, in no more space", "[common]") {
  static_assert(sizeof(Value) == 16);
  SourceLoc at{2, 40000, 70000};  // past the packed range: the location table
  Value text = Value::PlainText("007");
  REQUIRE(text.is(ValueKind::kString));
  CHECK(text.plain());
  CHECK_FALSE(Value::String("007").plain());
  CHECK(text == Value::String("007"));
  CHECK(text.ToString() == "007");
  CHECK(text.ToLiteral() == "\"007\"");
  text.set_loc(at);
  CHECK(text.plain());
  CHECK(text.loc() == at);
  Value copy = text;
  CHECK(copy.plain());
  CHECK(copy.Identity() == text.Identity());
  Value borrowed;
  borrowed.Borrow(text);
  CHECK(borrowed.plain());
  Value moved = std::move(copy);
  CHECK(moved.plain());
  CHECK(copy.is(ValueKind::kNull));  // NOLINT: a moved-from value is null
  CHECK_FALSE(copy.plain());
  // Unmarking changes the handle only: the text stays shared.
  Value typed = text;
  typed.set_plain(false);
  CHECK_FALSE(typed.plain());
  CHECK(text.plain());
  CHECK(typed.Identity() == text.Identity());
  CHECK(typed.loc() == at);
  // Only strings are ever marked.
  CHECK_FALSE(Value::Int(7).set_plain(true).plain());
  CHECK_FALSE(Value::Quantity({1024, Dimension::kBytesPerSecond}).set_plain(true).plain());
  CHECK(Value::Quantity({1024, Dimension::kBytesPerSecond}).set_plain(true).ToString() ==
        Value::Quantity({1024, Dimension::kBytesPerSecond}).ToString());
  // A map holds the mark of each value.
  Value map = Value::Map({{"a", Value::PlainText("1")}, {"b", Value::String("1")}});
  CHECK(map.Field("a")->plain());
  CHECK_FALSE(map.Field("b")->plain());
  CHECK(*map.Field("a") == *map.Field("b"));
}

TEST_CASE("values print for messages and literals", "[common]") {
  CHECK(Value::Double(0.1).ToString() == "0.1");
  CHECK(Value::String("x").ToLiteral() == "\"x\"");
  CHECK(Value::List({Value::Int(1), Value::String("a")}).ToLiteral() == "[1, \"a\"]");
  CHECK(Value::Int(1) == Value::Double(1.0));
  CHECK_FALSE(Value::Int(1) == Value::String("1"));
}

}  // namespace
}  // namespace capops
