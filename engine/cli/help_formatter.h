// SPDX-License-Identifier: Apache-2.0
// The `--help` pages of capops-lint: CLI11's layout, made to read as a
// man page's synopsis does and to fit a terminal.
//
//   app.formatter(std::make_shared<cli::HelpFormatter>());
//
// An option is shown with its value as a word (`--policy PATH`, `-j N`,
// `--format text|json`), never CLI11's type notation (`TEXT:{…}`,
// `UINT:INT in [1 - 256]`, `x 2`); a range, a default, a requirement and the
// options it needs or excludes go to the end of its description, which is
// wrapped at 80 columns under its own column.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace capops::cli {

/// Whether `opt` is a flag whose value is attached with `=` when given
/// (`--cache[=DIR]`): its option text says so, starting with `[=`.
bool AttachedValue(const CLI::Option* opt);

class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter();
  std::string make_option(const CLI::Option* opt, bool positional) const override;
  std::string make_option_name(const CLI::Option* opt, bool positional) const override;
  std::string make_option_opts(const CLI::Option* opt) const override;
  std::string make_option_desc(const CLI::Option* opt) const override;
  std::string make_option_usage(const CLI::Option* opt) const override;
  std::string make_subcommand(const CLI::App* sub) const override;
  std::string make_description(const CLI::App* app) const override;
};

/// `text` wrapped at `width` columns, every line after the first indented by
/// `indent` spaces (words longer than a line stay whole).
std::string WrapText(const std::string& text, size_t indent, size_t width);

}  // namespace capops::cli
