// SPDX-License-Identifier: Apache-2.0
// FirstDifference (load_compare.h): two loads, two diagnostic lists or two
// Value trees compared field by field, stopping at the first difference
// with a path to it. Value trees are walked with an explicit stack holding
// the path from the root, so a deep tree costs no native stack and the path
// is there when a difference is found.
#include "engine/facts/load_compare.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace capops::facts {

namespace {

using Difference = std::optional<std::string>;

std::string LocText(const SourceLoc& loc) {
  return std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

// "loc 12:14 vs 12:15"; the files are named only when they differ.
Difference LocDifference(const SourceLoc& a, const SourceLoc& b) {
  if (a == b) return std::nullopt;
  if (a.file != b.file) {
    return "loc file " + std::to_string(a.file) + " " + LocText(a) + " vs file " +
           std::to_string(b.file) + " " + LocText(b);
  }
  return "loc " + LocText(a) + " vs " + LocText(b);
}

std::string Quoted(std::string_view text) {
  constexpr size_t kShown = 80;
  std::string out = "`" + std::string(text.substr(0, kShown));
  if (text.size() > kShown) out += "...(" + std::to_string(text.size()) + " bytes)";
  return out + "`";
}

Difference TextDifference(std::string_view a, std::string_view b) {
  if (a == b) return std::nullopt;
  return Quoted(a) + " vs " + Quoted(b);
}

template <typename T>
Difference NumberDifference(T a, T b) {
  if (a == b) return std::nullopt;
  return std::to_string(a) + " vs " + std::to_string(b);
}

// Doubles compare by their bits: the same text typed the same way gives the
// same bits, and `-0.0` or a NaN would hide behind ==.
Difference DoubleDifference(double a, double b) {
  uint64_t bits_a = 0, bits_b = 0;
  std::memcpy(&bits_a, &a, sizeof a);
  std::memcpy(&bits_b, &b, sizeof b);
  if (bits_a == bits_b) return std::nullopt;
  char text[96];
  std::snprintf(text, sizeof text, "%.17g (%#" PRIx64 ") vs %.17g (%#" PRIx64 ")", a, bits_a, b,
                bits_b);
  return std::string(text);
}

// What differs between two values themselves, their children aside.
Difference NodeDifference(const Value& a, const Value& b) {
  if (a.kind() != b.kind())
    return std::string("kind ") + KindName(a.kind()) + " vs " + KindName(b.kind());
  if (Difference d = LocDifference(a.loc(), b.loc())) return d;
  if (a.plain() != b.plain())
    return std::string(a.plain() ? "plain" : "not plain") + " vs " +
           (b.plain() ? "plain" : "not plain");
  switch (a.kind()) {
    case ValueKind::kNull:
      return std::nullopt;
    case ValueKind::kBool:
      return NumberDifference(a.bool_value(), b.bool_value());
    case ValueKind::kInt:
    case ValueKind::kDuration:
      return NumberDifference(a.int_value(), b.int_value());
    case ValueKind::kDouble:
      return DoubleDifference(a.double_value(), b.double_value());
    case ValueKind::kString:
    case ValueKind::kError:
      return TextDifference(a.string_value(), b.string_value());
    case ValueKind::kDate:
      if (Difference d = NumberDifference(a.date_value().seconds, b.date_value().seconds)) return d;
      if (Difference d = NumberDifference(a.date_value().offset, b.date_value().offset)) {
        return "offset " + *d;
      }
      return std::nullopt;
    case ValueKind::kQuantity:
      if (a.quantity_value() == b.quantity_value()) return std::nullopt;
      return TextDifference(a.ToString(), b.ToString());
    case ValueKind::kList:
      if (Difference d = NumberDifference(a.items().size(), b.items().size())) return "items " + *d;
      return std::nullopt;
    case ValueKind::kMap: {
      MapView ea = a.entries(), eb = b.entries();
      if (Difference d = NumberDifference(ea.size(), eb.size())) return "entries " + *d;
      for (size_t i = 0; i < ea.size(); ++i) {
        if (ea[i].first != eb[i].first) {
          return "key of entry " + std::to_string(i) + " " +
                 *TextDifference(ea[i].first.str(), eb[i].first.str());
        }
      }
      return std::nullopt;
    }
    case ValueKind::kNative:
      if (a == b) return std::nullopt;
      return TextDifference(a.ToLiteral(200), b.ToLiteral(200));
  }
  return std::nullopt;
}

// The first difference under two values, as a path of steps (`.key`,
// `[3]`) and what differs.
std::optional<std::pair<std::string, std::string>> TreeDifference(const Value& a, const Value& b) {
  struct Frame {
    const Value* a;
    const Value* b;
    std::string step;
    size_t next = 0;  // the child to compare next
  };
  std::vector<Frame> stack;
  stack.push_back({&a, &b, ""});
  bool entered = false;  // the top frame's own values were compared
  while (!stack.empty()) {
    if (!entered) {
      entered = true;
      if (Difference d = NodeDifference(*stack.back().a, *stack.back().b)) {
        std::string path;
        for (const Frame& f : stack) path += f.step;
        return std::make_pair(std::move(path), std::move(*d));
      }
    }
    Frame& top = stack.back();
    // The kinds and sizes are the same by now.
    bool is_map = top.a->is(ValueKind::kMap);
    size_t children = is_map                        ? top.a->entries().size()
                      : top.a->is(ValueKind::kList) ? top.a->items().size()
                                                    : 0;
    if (top.next == children) {
      stack.pop_back();
      continue;
    }
    size_t i = top.next++;
    Frame child;
    if (is_map) {
      child = {&top.a->entries()[i].second, &top.b->entries()[i].second,
               "." + top.a->entries()[i].first.str()};
    } else {
      child = {&top.a->items()[i], &top.b->items()[i], "[" + std::to_string(i) + "]"};
    }
    stack.push_back(std::move(child));  // `top` is not used after this
    entered = false;
  }
  return std::nullopt;
}

std::string Indexed(std::string_view name, size_t i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

// "3 vs 4 (the first extra: …)" when two lists differ in length.
template <typename T, typename Describe>
Difference CountDifference(const std::vector<T>& a, const std::vector<T>& b, Describe describe) {
  if (a.size() == b.size()) return std::nullopt;
  const std::vector<T>& longer = a.size() > b.size() ? a : b;
  return std::to_string(a.size()) + " vs " + std::to_string(b.size()) +
         " (the first extra: " + describe(longer[std::min(a.size(), b.size())]) + ")";
}

Difference FieldDifference(std::string_view field, Difference d) {
  if (!d) return std::nullopt;
  return std::string(field) + ": " + *d;
}

Difference DiagnosticDifference(const Diagnostic& a, const Diagnostic& b) {
  if (a.severity != b.severity) {
    return std::string("severity: ") + SeverityName(a.severity) + " vs " + SeverityName(b.severity);
  }
  if (Difference d = FieldDifference("loc", LocDifference(a.loc, b.loc))) return d;
  if (Difference d = FieldDifference("message", TextDifference(a.message, b.message))) return d;
  if (Difference d = FieldDifference("code", TextDifference(a.code, b.code))) return d;
  if (Difference d = FieldDifference("help", TextDifference(a.help, b.help))) return d;
  if (Difference d = FieldDifference("length", NumberDifference(a.length, b.length))) return d;
  auto describe = [](const RelatedLoc& r) { return LocText(r.loc) + " " + Quoted(r.message); };
  if (Difference d = FieldDifference("related", CountDifference(a.related, b.related, describe)))
    return d;
  for (size_t i = 0; i < a.related.size(); ++i) {
    std::string at = Indexed("related", i);
    if (Difference d = FieldDifference(at, LocDifference(a.related[i].loc, b.related[i].loc)))
      return d;
    if (Difference d = FieldDifference(at + ".message",
                                       TextDifference(a.related[i].message, b.related[i].message)))
      return d;
  }
  auto fix = [](const Fix& f) { return Quoted(f.description); };
  if (Difference d = FieldDifference("fixes", CountDifference(a.fixes, b.fixes, fix))) return d;
  for (size_t i = 0; i < a.fixes.size(); ++i) {
    if (!(a.fixes[i] == b.fixes[i])) {
      return Indexed("fixes", i) + ": " + fix(a.fixes[i]) + " vs " + fix(b.fixes[i]) +
             " (or their edits)";
    }
  }
  return std::nullopt;
}

Difference DocumentsDifference(const std::vector<Document>& a, const std::vector<Document>& b) {
  auto describe = [](const Document& d) {
    return std::string(DocumentKindName(d.kind)) + " at " + LocText(d.loc);
  };
  if (Difference d = FieldDifference("documents", CountDifference(a, b, describe))) return d;
  for (size_t i = 0; i < a.size(); ++i) {
    std::string at = Indexed("documents", i);
    if (a[i].kind != b[i].kind) {
      return at + ".kind: " + DocumentKindName(a[i].kind) + " vs " + DocumentKindName(b[i].kind);
    }
    if (Difference d = FieldDifference(at + ".loc", LocDifference(a[i].loc, b[i].loc))) return d;
    if (auto d = TreeDifference(a[i].root, b[i].root)) {
      return at + ".root" + d->first + ": " + d->second;
    }
  }
  return std::nullopt;
}

template <typename T, typename Same, typename Describe>
Difference ListDifference(std::string_view name, const std::vector<T>& a, const std::vector<T>& b,
                          Same same, Describe describe) {
  if (Difference d = FieldDifference(name, CountDifference(a, b, describe))) return d;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!same(a[i], b[i]))
      return Indexed(name, i) + ": " + describe(a[i]) + " vs " + describe(b[i]);
  }
  return std::nullopt;
}

Difference AliasesDifference(const LoadResult& a, const LoadResult& b) {
  auto same_use = [](const AliasUse& x, const AliasUse& y) {
    return x.use == y.use && x.anchor == y.anchor && x.name == y.name;
  };
  auto use = [](const AliasUse& x) {
    return "*" + x.name + " at " + LocText(x.use) + " of " + LocText(x.anchor);
  };
  if (Difference d = ListDifference("aliases", a.aliases, b.aliases, same_use, use)) return d;
  auto same_site = [](const MergeSite& x, const MergeSite& y) {
    return x.site == y.site && x.into == y.into && x.from == y.from && x.name == y.name;
  };
  auto site = [](const MergeSite& x) {
    return "<< " + x.name + " at " + LocText(x.site) + " into " + LocText(x.into) + " from " +
           LocText(x.from);
  };
  if (Difference d = ListDifference("merges", a.merges, b.merges, same_site, site)) return d;
  auto same_merged = [](const MergedValue& x, const MergedValue& y) {
    return x.at == y.at && x.site == y.site;
  };
  auto merged = [](const MergedValue& x) {
    return LocText(x.at) + " by merge " + std::to_string(x.site);
  };
  return ListDifference("merged", a.merged, b.merged, same_merged, merged);
}

// The simple reader reads no anchors, aliases or merge keys.
Difference SimpleReaderMerged(const LoadResult& r, std::string_view side) {
  if (r.reader != YamlReader::kSimple) return std::nullopt;
  if (r.aliases.empty() && r.merges.empty() && r.merged.empty()) return std::nullopt;
  return "the " + std::string(side) + " load, read by the simple reader, has aliases or merges";
}

}  // namespace

std::optional<std::string> FirstDifference(const Value& a, const Value& b) {
  auto d = TreeDifference(a, b);
  if (!d) return std::nullopt;
  std::string_view path = d->first;
  if (!path.empty() && path[0] == '.') path.remove_prefix(1);
  if (path.empty()) return d->second;
  return std::string(path) + ": " + d->second;
}

std::optional<std::string> FirstDifference(const Diagnostics& a, const Diagnostics& b) {
  auto describe = [](const Diagnostic& d) { return LocText(d.loc) + " " + Quoted(d.message); };
  if (Difference d =
          FieldDifference("diagnostics", CountDifference(a.items(), b.items(), describe)))
    return d;
  for (size_t i = 0; i < a.size(); ++i) {
    if (Difference d = DiagnosticDifference(a[i], b[i]))
      return Indexed("diagnostics", i) + "." + *d;
  }
  return std::nullopt;
}

std::optional<std::string> FirstDifference(const LoadResult& a, const LoadResult& b) {
  if (Difference d = SimpleReaderMerged(a, "first")) return d;
  if (Difference d = SimpleReaderMerged(b, "second")) return d;
  // Diagnostics first: they say why a document is missing.
  if (Difference d = FirstDifference(a.diagnostics, b.diagnostics)) return d;
  if (Difference d = DocumentsDifference(a.documents, b.documents)) return d;
  return AliasesDifference(a, b);
}

std::optional<std::string> FirstDifference(const RawLoadResult& a, const RawLoadResult& b) {
  if (Difference d = FirstDifference(a.diagnostics, b.diagnostics)) return d;
  auto describe = [](const Value& v) {
    return std::string(KindName(v.kind())) + " at " + LocText(v.loc());
  };
  if (Difference d =
          FieldDifference("documents", CountDifference(a.documents, b.documents, describe)))
    return d;
  for (size_t i = 0; i < a.documents.size(); ++i) {
    if (auto d = TreeDifference(a.documents[i], b.documents[i])) {
      return Indexed("documents", i) + d->first + ": " + d->second;
    }
  }
  return std::nullopt;
}

}  // namespace capops::facts
