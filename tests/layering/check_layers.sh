#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The engine's stages depend one way (STYLE.md):
#   common ← syntax ← check ← plan ← eval ← api ← repair ← lint ← workspace, report ← cli, lsp;
#   facts ← common
# (cli and lsp are two front ends on the same stages: neither includes the
# other; workspace, the only stage that touches the disk, and report, which
# renders, do not include each other)
# Every library sees the whole source tree as its include root, so the
# compiler alone would let a lower stage include a higher one; this check
# fails on any such include in production code (tests beside the code may
# drive the command line). Usage: check_layers.sh SOURCE_DIR
set -uo pipefail
cd "$1/engine" || exit 2

declare -A allowed=(
  [common]="common"
  [syntax]="common syntax"
  [check]="common syntax check"
  [plan]="common syntax check plan"
  [facts]="common facts"
  [eval]="common syntax check plan eval"
  [api]="common syntax check plan eval facts api"
  [repair]="common syntax check plan eval facts api repair"
  [lint]="common syntax check plan eval facts api repair lint"
  [workspace]="common syntax check plan eval facts api repair lint workspace"
  [report]="common syntax check plan eval facts api repair lint report"
  [cli]="common syntax check plan eval facts api repair lint workspace report cli"
  [lsp]="common syntax check plan eval facts api repair lint workspace report lsp"
)

fail=0
stages=0
for dir in */; do
  stage=${dir%/}
  if [[ -z ${allowed[$stage]+set} ]]; then
    echo "engine/$stage: a stage this check does not know; add it to the table"
    fail=1
    continue
  fi
  stages=$((stages + 1))
  while IFS=: read -r file line include; do
    target=$(sed -n 's|.*#include "engine/\([a-z_]*\)/.*|\1|p' <<<"$include")
    [[ -z $target ]] && continue
    if [[ " ${allowed[$stage]} " != *" $target "* ]]; then
      echo "engine/$file:$line: \`$stage\` includes the later stage \`$target\`: $include"
      fail=1
    fi
  done < <(grep -n '#include "engine/' --include='*.h' --include='*.cc' -r "$stage" | grep -v '_test\.cc:')
done
# The lint and its reports are pure: files reach them as text through the
# workspace (engine/workspace/file_system.h). No stream on a file, no log,
# no std::filesystem call that reads the disk or the working directory
# (path arithmetic such as lexically_normal is fine).
disk_calls='<fstream>|spdlog|getenv|current_path|(fs|filesystem)::(absolute|canonical|weakly_canonical|proximate|relative|exists|status|symlink_status|is_[a-z_]*|file_size|last_write_time|directory_iterator|recursive_directory_iterator|create_director[a-z]*|remove[a-z_]*|rename|copy[a-z_]*|temp_directory_path|equivalent|read_symlink|space)\b'
while IFS=: read -r file line text; do
  echo "engine/$file:$line: \`${file%%/*}\` touches the disk or the environment: $text"
  fail=1
done < <(grep -nE "$disk_calls" --include='*.h' --include='*.cc' -r lint report | grep -v '_test\.cc:')
if [[ $stages -lt ${#allowed[@]} ]]; then
  echo "only $stages of ${#allowed[@]} stages found under engine/"
  fail=1
fi
exit $fail
