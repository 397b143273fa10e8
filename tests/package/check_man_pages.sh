#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The man pages (packaging/*.1), rendered as man renders them:
#   - groff gives no warning (-ww), and man -l renders them too, when present;
#   - every option a rendered page names (`--format`) is one the tool's
#     --help lists, so two words run together (`--formatjson-schema`) or a
#     stale option fail; every option --help lists is on the page;
#   - capops-lint.1 names every subcommand under SUBCOMMANDS and under
#     EXIT STATUS.
# Usage: check_man_pages.sh CAPOPS_LINT CAPOPS_LSP SOURCE_DIR
# Exit 77 (skipped) without groff.
set -uo pipefail

lint=$1 lsp=$2 src=$3
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../support/checks.sh"
command -v groff >/dev/null || { echo "skipped: groff is not installed (scripts/install-deps installs groff-base)"; exit 77; }

# The text of a page: no hyphenation, lines long enough not to break a
# word, no bold or underline, the hyphen and minus glyphs as `-`.
render() {
  groff -man -Tutf8 -rHY=0 -rLL=1000n -P-cbou "$1" 2>/dev/null | sed 's/\xe2\x80\x90/-/g; s/\xe2\x88\x92/-/g'
}
# The long options --help lists, top-level and per subcommand.
lint_subcommands=$("$lint" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && /^  [^ ]/ {print $1}')
lint_options() {
  { "$lint" --help; for s in $lint_subcommands; do "$lint" "$s" --help; done; } |
    grep -E '^  -' | grep -o -- '--[a-z][a-z-]*' | sort -u
}

pages=0
for page in "$src"/packaging/*.1; do
  name=$(basename "$page" .1)
  pages=$((pages + 1))
  warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
  [[ -z $warnings ]] || fail "$name.1: groff warns: $warnings"
  if command -v man >/dev/null; then
    out=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
    [[ -z $out ]] || fail "$name.1: man -l warns: $out"
  fi
  case $name in
    capops-lint) known=$(lint_options) ;;
    capops-lsp) known=$({ "$lsp" --help; echo --help; } | grep -o -- '--[a-z][a-z-]*' | sort -u) ;;
    *) fail "$name.1: no tool of that name"; continue ;;
  esac
  text=$(render "$page")
  [[ -n $text ]] || { fail "$name.1 renders to nothing"; continue; }
  for option in $(grep -o -- '--[a-zA-Z][a-zA-Z-]*' <<<"$text" | sort -u); do
    grep -qxF -- "$option" <<<"$known" || fail "$name.1 names $option, which --help does not list"
  done
  for option in $known; do
    [[ $option == --help ]] && continue
    grep -qF -- "$option" <<<"$text" || fail "$name.1 does not name $option"
  done
  if [[ $name == capops-lint ]]; then
    for section in SUBCOMMANDS "EXIT STATUS"; do
      body=$(sed -n "/^$section\$/,/^[A-Z]/p" <<<"$text")
      for s in $lint_subcommands; do
        grep -qE -- "(^|[ ,])$s([ ,]|$)" <<<"$body" || fail "$name.1: $section does not name $s"
      done
    done
  fi
done
((pages >= 2)) || fail "expected the man pages of capops-lint and capops-lsp, found $pages"
finish "$pages man pages render cleanly and name the options their tools list"
