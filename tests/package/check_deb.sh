#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Debian package, built with cpack from the build tree and checked with
# dpkg's own tools:
#   - its control fields (name, version, architecture, the libraries it
#     needs, found by dpkg-shlibdeps) and its files (the binary, the stdlib,
#     the pack, the scenario example its tests read, the man page, the bash
#     completion, the copyright file);
#   - unpacked anywhere (dpkg-deb -x), the binary finds its own data beside
#     it, not the source tree: it lints the example, its pack's tests pass;
#   - dpkg accepts it for installation (--dry-run, as root);
#   - the man page renders without a groff warning, and it and the
#     completion name every option and subcommand `--help` lists.
# Usage: [DEBS=DIR] check_deb.sh BUILD_DIR SOURCE_DIR: the packages in DEBS
# (tests/package/build_debs.sh made them), else made here by cpack.
# Exit 77 (skipped) without cpack or dpkg-deb.
set -uo pipefail

build=$1
src=$2
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../support/checks.sh"
debs=${DEBS:-$tmp/out}
if [[ -z ${DEBS:-} ]]; then
  "$here/build_debs.sh" "$build" "$debs" >"$tmp/build_debs.log"
  status=$?
  ((status == 0)) || { cat "$tmp/build_debs.log"; exit $status; }
fi
for tool in dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || { echo "skipped: $tool is not installed (scripts/install-deps installs it)"; exit 77; }
done
deb=$(ls "$debs"/capops_*.deb 2>/dev/null)
[[ -n $deb && -s $deb ]] || { fail "no capops .deb in $debs: $(ls "$debs")"; exit 1; }
dev=$(ls "$debs"/capops-dev_*.deb 2>/dev/null)
[[ -n $dev && -s $dev ]] || { fail "no capops-dev .deb in $debs: $(ls "$debs")"; exit 1; }

version=$("$build/engine/capops-lint" --version | head -1 | grep -o '[0-9][0-9.]*' | head -1)
field() { dpkg-deb --field "$deb" "$1"; }
expect "Package" capops "$(field Package)"
expect "Version" "$version" "$(field Version)"
expect "Architecture" "$(dpkg --print-architecture)" "$(field Architecture)"
for lib in libfyaml libre2 libantlr4-runtime libssl3 libstdc++6 libjemalloc2; do
  [[ $(field Depends) == *"$lib"* ]] || fail "Depends does not name $lib: $(field Depends)"
done
[[ -n $(field Maintainer) && -n $(field Description) ]] || fail "no Maintainer or Description"

dpkg-deb -c "$deb" | awk '{print $NF}' >"$tmp/files"
for f in ./usr/bin/capops-lint ./usr/bin/capops-lsp ./usr/share/man/man1/capops-lint.1.gz \
    ./usr/share/man/man1/capops-lsp.1.gz \
    ./usr/share/bash-completion/completions/capops-lint ./usr/share/doc/capops/copyright \
    ./usr/share/doc/capops/changelog.gz ./usr/share/zsh/vendor-completions/_capops-lint \
    ./usr/share/fish/vendor_completions.d/capops-lint.fish \
    ./usr/share/capops/stdlib/schema.cpl ./usr/share/capops/policies/capops-ai/allocation.cpl \
    ./usr/share/capops/examples/visual-inspection/plan.yaml ./usr/share/capops/schema/capops.schema.json; do
  grep -qx -- "$f" "$tmp/files" || fail "the package has no $f"
done
grep -q -- "$build\|$src" "$tmp/files" && fail "the package lists a path of the build machine"
grep -q -- "^./usr/include/\|\.a$\|/cmake/" "$tmp/files" && fail "the package carries the embedding files (component dev)"

# capops-dev: the embedding files and nothing else, tied to this version of capops.
dpkg-deb -c "$dev" | awk '{print $NF}' >"$tmp/dev-files"
for f in ./usr/include/capops/engine/api/engine.h ./usr/lib/capops/libcapops_report.a \
    ./usr/lib/cmake/capops/capopsConfig.cmake ./usr/lib/cmake/capops/capopsTargets.cmake; do
  grep -qx -- "$f" "$tmp/dev-files" || fail "capops-dev has no $f"
done
grep -q -- "^./usr/bin/\|^./usr/share/capops/" "$tmp/dev-files" && fail "capops-dev carries the tools or their data"
[[ $(dpkg-deb --field "$dev" Depends) == *"capops (= $version)"* ]] ||
  fail "capops-dev does not depend on capops $version: $(dpkg-deb --field "$dev" Depends)"

root=$tmp/root
dpkg-deb -x "$deb" "$root"
lint=$root/usr/bin/capops-lint
file "$lint" 2>/dev/null | grep -q "not stripped" && fail "the binary is not stripped"
file "$root/usr/bin/capops-lsp" 2>/dev/null | grep -q "not stripped" && fail "capops-lsp is not stripped"
# The packaged language server: one session on the packaged example, its diagnostics published.
plan_uri="file://$root/usr/share/capops/examples/visual-inspection/plan.yaml"
python3 - "$plan_uri" "$root/usr/share/capops/examples/visual-inspection/plan.yaml" >"$tmp/lsp.in" <<'PY'
import json, sys
uri, path = sys.argv[1], sys.argv[2]
msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": open(path).read()}}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}, {"jsonrpc": "2.0", "method": "exit"}]
for m in msgs:
    b = json.dumps(m)
    sys.stdout.write("Content-Length: %d\r\n\r\n%s" % (len(b.encode()), b))
PY
"$root/usr/bin/capops-lsp" <"$tmp/lsp.in" >"$tmp/lsp.out" 2>"$tmp/lsp.err"
expect "exit code of a packaged capops-lsp session" 0 $?
grep -q '"code":"CAP-SUP-005"' "$tmp/lsp.out" || fail "the packaged capops-lsp published no CAP-SUP-005: $(head -c 300 "$tmp/lsp.out")"
"$lint" -v --no-config "$root/usr/share/capops/examples/visual-inspection/plan.yaml" >"$tmp/lint.out" 2>"$tmp/lint.err"
expect "exit code linting the packaged example" 1 $?
grep -q "error\[CAP-SUP-005\]" "$tmp/lint.out" || fail "the packaged binary found no CAP-SUP-005 in the example"
grep "debug: policy " "$tmp/lint.err" >"$tmp/policies"
[[ -s $tmp/policies ]] || fail "no policy logged with -v"
if grep -v -- "debug: policy $root/usr/share/capops/" "$tmp/policies" | grep -q .; then
  fail "policies read from outside the package: $(grep -v -- "$root/usr/share/capops/" "$tmp/policies" | head -3)"
fi
(cd "$tmp" && "$lint" test >"$tmp/test.out" 2>&1)
expect "exit code of the packaged pack's tests" 0 $?
grep -q " 0 failed" "$tmp/test.out" || fail "the packaged pack's tests: $(tail -1 "$tmp/test.out")"

"$lint" init "$tmp/started" >/dev/null 2>"$tmp/init.err"
expect "exit code of init from the package" 0 $?
[[ -s $tmp/started/plan.yaml ]] || fail "init from the package wrote no plan: $(cat "$tmp/init.err")"

if [[ $(id -u) -eq 0 ]]; then
  dpkg --dry-run -i "$deb" "$dev" >"$tmp/dpkg.log" 2>&1 || fail "dpkg --dry-run -i refused the packages: $(cat "$tmp/dpkg.log")"
fi

gzip -t "$root"/usr/share/man/man1/capops-{lint,lsp}.1.gz "$root/usr/share/doc/capops/changelog.gz" ||
  fail "a compressed file of the package is damaged"
zcat "$root/usr/share/doc/capops/changelog.gz" | head -1 | grep -q "^capops ($(field Version)) " ||
  fail "the changelog does not open with this version: $(zcat "$root/usr/share/doc/capops/changelog.gz" | head -1)"
man=$tmp/capops-lint.1
zcat "$root/usr/share/man/man1/capops-lint.1.gz" >"$man"
if command -v groff >/dev/null; then
  # What each page says is checked in package.man-pages; here, the installed files.
  warnings=$(groff -man -ww -z "$man" 2>&1; zcat "$root/usr/share/man/man1/capops-lsp.1.gz" | groff -man -ww -z 2>&1)
  [[ -z $warnings ]] || fail "groff warns about a man page: $warnings"
else
  echo "note: groff is not installed; the man page was not rendered"
fi
completion=$root/usr/share/bash-completion/completions/capops-lint
help=$("$lint" --help)
options=$(grep -o -- '--[a-z][a-z-]*' <<<"$help" | sort -u)
# Entries start two spaces in; a description wrapped onto further lines, further.
subcommands=$(sed -n '/^Subcommands:/,$p' <<<"$help" | awk 'NR > 1 && /^  [^ ]/ {print $1}')
zsh_completion=$root/usr/share/zsh/vendor-completions/_capops-lint
fish_completion=$root/usr/share/fish/vendor_completions.d/capops-lint.fish
for word in $options $subcommands; do
  escaped=${word//-/\\\\-}
  grep -q -- "$escaped\|$word" "$man" || fail "the man page does not name $word"
  grep -qw -- "$word" "$completion" || fail "the bash completion does not offer $word"
  grep -qF -- "$word" "$zsh_completion" || fail "the zsh completion does not offer $word"
  if [[ $word == --max-* ]]; then
    grep -q -- "^for limit in.* ${word#--}\( \|$\)\| -l ${word#--} " "$fish_completion" || fail "the fish completion does not offer $word"
  elif [[ $word == --* ]]; then
    grep -q -- " -l ${word#--} " "$fish_completion" || fail "the fish completion does not offer $word"
  else
    grep -q -- " -a $word " "$fish_completion" || fail "the fish completion does not offer $word"
  fi
done
# fish's own completion engine, on the packaged file.
if command -v fish >/dev/null; then
  offered=$(fish -c "source '$fish_completion'; complete -C'capops-lint --format '" | cut -f1 | sort | tr '\n' ' ')
  expect "fish completion of --format" "github html json junit sarif short text " "$offered"
  offered=$(fish -c "source '$fish_completion'; complete -C'capops-lint eval --format '" | cut -f1 | sort | tr '\n' ' ')
  expect "fish completion of eval --format" "json text " "$offered"
  offered=$(fish -c "source '$fish_completion'; complete -C'capops-lint che'" | cut -f1)
  expect "fish completion of a subcommand" "check-rules" "$offered"
else
  echo "note: fish is not installed; its completion was not run"
fi
# zsh parses the completion, and it hands each subcommand its own specs to _arguments.
if command -v zsh >/dev/null; then
  zsh -n "$zsh_completion" || fail "zsh cannot parse the completion"
  specs() { zsh -f -c '_arguments() { print -rl -- "$@" }; _describe() {}; words=("$@"); source "$0"' "$zsh_completion" "$@"; }
  specs capops-lint --format | grep -qxF -- '--format[output format]:format:(text short json sarif junit github html)' ||
    fail "zsh: the lint's --format values"
  specs capops-lint eval --format | grep -qxF -- '--format[output format]:format:(text json)' || fail "zsh: eval's --format values"
  specs capops-lint rules | grep -qF -- '--diff[' || fail "zsh: the options of rules"
else
  echo "note: zsh is not installed; its completion was not parsed"
fi
offered=$(bash -c "source '$completion'; COMP_WORDS=(capops-lint --format ''); COMP_CWORD=2; _capops_lint; echo \${COMPREPLY[*]}")
expect "completion of --format" "text short json sarif junit github html" "$offered"
offered=$(bash -c "source '$completion'; COMP_WORDS=(capops-lint che); COMP_CWORD=1; _capops_lint; echo \${COMPREPLY[*]}")
expect "completion of a subcommand" "check-rules" "$offered"

finish "$(basename "$deb"): $(du -h "$deb" | cut -f1), $(wc -l <"$tmp/files") entries; unpacked, it lints and tests with its own data"
