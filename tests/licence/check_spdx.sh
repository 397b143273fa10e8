#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every tracked source file of the project carries its licence as an SPDX
# line, `SPDX-License-Identifier: Apache-2.0`, in its first three lines
# (after a `#!` or `#compdef` line): C++, CMake, shell and other scripts,
# the grammar, and the CPL of the stdlib and the shipped pack. Test data is
# not source: the CPL and YAML under tests/ are inputs whose line numbers
# the expected outputs quote. Reads `git ls-files`; exit 77 (skipped)
# outside a git checkout.
# Usage: check_spdx.sh SOURCE_DIR
set -uo pipefail
src=$1
cd "$src" || exit 1
if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "skipped: $src is not a git checkout"
  exit 77
fi

# The project's own source files, one a line: by name, then by `#!`.
sources() {
  git ls-files -- '*.cc' '*.h' '*CMakeLists.txt' '*.cmake' '*.cmake.in' '*.sh' '*.g4' '*.js' \
    '*.lua' '*.fish' '*.bash-completion' 'packaging/_capops-lint' 'stdlib/*.cpl' 'policies/*.cpl'
  git ls-files -z | xargs -0 grep -l -m1 -I '^#!' 2>/dev/null | while read -r f; do
    [[ $(head -c 2 "$f") == '#!' ]] && echo "$f"
  done
}

missing=0 checked=0
while read -r f; do
  [[ -f $f ]] || continue
  checked=$((checked + 1))
  if ! head -3 "$f" | grep -q 'SPDX-License-Identifier: Apache-2\.0$'; then
    echo "FAIL: $f has no \`SPDX-License-Identifier: Apache-2.0\` line at its top"
    missing=$((missing + 1))
  fi
done < <(sources | sort -u)
((checked > 300)) || { echo "FAIL: only $checked source files found"; exit 1; }
((missing == 0)) || { echo "$missing of $checked source files without the SPDX line"; exit 1; }
echo "$checked source files carry SPDX-License-Identifier: Apache-2.0"
