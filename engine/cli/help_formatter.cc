// SPDX-License-Identifier: Apache-2.0
// The help pages' layout (help_formatter.h): CLI11's type names turned into
// words, and descriptions wrapped.
#include "engine/cli/help_formatter.h"

#include <cctype>
#include <regex>
#include <set>
#include <sstream>

namespace capops::cli {

namespace {

constexpr size_t kNameColumn = 30;  // where descriptions start
constexpr size_t kWidth = 80;

// CLI11's full type name is the type, then each validator's description
// after a `:` (`TEXT:{text,json}`, `UINT:INT in [1 - 256]`).
struct TypeName {
  std::string base;     // `TEXT`, `UINT`, or a name given with type_name()
  std::string members;  // `text|json` from an IsMember check
  std::string range;    // `1 to 256` from a Range check
};

TypeName SplitTypeName(const std::string& full) {
  TypeName t;
  size_t colon = full.find(':');
  t.base = full.substr(0, colon);
  if (colon == std::string::npos) return t;
  std::string checks = full.substr(colon + 1);
  std::smatch m;
  if (std::regex_search(checks, m, std::regex(R"(\{([^}]*)\})"))) {
    t.members = m[1];
    for (char& c : t.members) {
      if (c == ',') c = '|';
    }
  }
  if (std::regex_search(checks, m, std::regex(R"(\[([^ \]]+) - ([^ \]]+)\])")))
    t.range = std::string(m[1]) + " to " + std::string(m[2]);
  return t;
}

bool IsNumberType(const std::string& base) {
  return base == "UINT" || base == "INT" || base == "FLOAT" || base == "NUMBER";
}

// The word that stands for an option's value.
std::string ValueWord(const CLI::Option* opt) {
  TypeName t = SplitTypeName(opt->get_type_name());
  if (!t.members.empty()) return t.members;
  if (IsNumberType(t.base)) return "N";
  if (t.base == "TEXT" || t.base.empty()) return "VALUE";
  return t.base;
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

bool Repeats(const CLI::Option* opt) {
  return opt->get_expected_max() == CLI::detail::expected_max_vector_size;
}

// One entry: its name in the first column, its description wrapped beside
// it, or below it from the description's column when the name is too long.
std::string FormatEntry(const std::string& name, const std::string& desc) {
  std::string head = "  " + name;
  std::string out = head;
  if (desc.empty()) return out + "\n";
  if (head.size() + 2 > kNameColumn) {
    out += "\n" + std::string(kNameColumn, ' ');
  } else {
    out += std::string(kNameColumn - head.size(), ' ');
  }
  return out + WrapText(desc, kNameColumn, kWidth) + "\n";
}

}  // namespace

bool AttachedValue(const CLI::Option* opt) {
  return opt->get_option_text().rfind("[=", 0) == 0;
}

HelpFormatter::HelpFormatter() {
  column_width(kNameColumn);
}

std::string HelpFormatter::make_option_name(const CLI::Option* opt, bool positional) const {
  // A flag whose value may be attached with `=` as it is written
  // (`--cache[=DIR]`, its option text), not CLI11's notation for a flag's
  // default value (`--cache{.capops-cache}`).
  if (!positional && AttachedValue(opt))
    return "--" + opt->get_single_name() + opt->get_option_text();
  if (positional) return Upper(opt->get_name(true, false));
  return CLI::Formatter::make_option_name(opt, positional);
}

std::string HelpFormatter::make_option_opts(const CLI::Option* opt) const {
  if (AttachedValue(opt)) return "";
  if (!opt->get_option_text().empty()) return " " + opt->get_option_text();
  if (opt->get_expected_max() == 0) return "";  // a flag
  std::string word = ValueWord(opt);
  if (opt->get_expected_min() > 1) return " " + word;  // a type_name of several words: `OLD NEW`
  return " " + word + (Repeats(opt) ? "..." : "");
}

std::string HelpFormatter::make_option_desc(const CLI::Option* opt) const {
  std::string desc = opt->get_description();
  std::vector<std::string> notes;
  if (opt->get_expected_max() != 0) {
    TypeName t = SplitTypeName(opt->get_type_name());
    if (!t.range.empty()) notes.push_back(t.range);
    if (!opt->get_default_str().empty() && !AttachedValue(opt))
      notes.push_back("default: " + opt->get_default_str());
  }
  if (opt->get_required()) notes.push_back("required");
  // CLI11 keeps these in sets ordered by address: sorted by name, the page
  // is the same from run to run.
  std::set<std::string> needs, excludes;
  for (const CLI::Option* need : opt->get_needs()) needs.insert(need->get_name());
  for (const CLI::Option* other : opt->get_excludes()) excludes.insert(other->get_name());
  for (const std::string& name : needs) notes.push_back("needs " + name);
  for (const std::string& name : excludes) notes.push_back("not with " + name);
  if (notes.empty()) return desc;
  std::string joined;
  for (const std::string& n : notes) joined += (joined.empty() ? "" : "; ") + n;
  return desc + " (" + joined + ")";
}

std::string HelpFormatter::make_option_usage(const CLI::Option* opt) const {
  std::string name = make_option_name(opt, true);
  return opt->get_required() ? name + (Repeats(opt) ? "..." : "")
                             : "[" + name + (Repeats(opt) ? "..." : "") + "]";
}

std::string HelpFormatter::make_option(const CLI::Option* opt, bool positional) const {
  std::string name = make_option_name(opt, positional);
  name += positional ? (Repeats(opt) ? "..." : "") : make_option_opts(opt);
  return FormatEntry(name, make_option_desc(opt));
}

std::string HelpFormatter::make_description(const CLI::App* app) const {
  const std::string& desc = app->get_description();
  return desc.empty() ? "" : WrapText(desc, 0, kWidth) + "\n";
}

std::string HelpFormatter::make_subcommand(const CLI::App* sub) const {
  return FormatEntry(sub->get_display_name(), sub->get_description());
}

std::string WrapText(const std::string& text, size_t indent, size_t width) {
  std::istringstream words(text);
  std::string word, out;
  size_t column = indent;
  bool first = true;
  while (words >> word) {
    if (!first && column + 1 + word.size() > width) {
      out += "\n" + std::string(indent, ' ');
      column = indent;
    } else if (!first) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    first = false;
  }
  return out;
}

}  // namespace capops::cli
