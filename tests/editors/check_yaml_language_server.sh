#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CTest `editors.yaml-language-server`: the JSON Schema `capops-lint schema`
# writes, in the YAML language server (npm's yaml-language-server, pinned by
# tests/editors/package-lock.json) driven over stdio as an editor drives it
# (check_yaml_language_server.js): the schema's own messages, the aliases
# accepted but not offered, the Markdown hover.
# Usage: check_yaml_language_server.sh CAPOPS_LINT SOURCE_DIR. Exit 77
# (skipped) without npm and node.
set -uo pipefail

lint=$1
src=$2
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
  echo "skipped: npm and node are not installed (scripts/install-deps installs them)"
  exit 77
fi
"$src/tests/support/npm_ci.sh" "$here" || exit 1
source "$src/tests/support/checks.sh"

"$lint" schema --format json-schema -o "$tmp/capops.schema.json" || fail "capops-lint schema"
timeout 90 node "$here/check_yaml_language_server.js" "$tmp/capops.schema.json" "$tmp" >"$tmp/out.txt" 2>&1 ||
  fail "the YAML language server disagrees: $(grep -v '^ok: ' "$tmp/out.txt" | cut -c1-300)"
cut -c1-160 "$tmp/out.txt"
finish "yaml-language-server: $(grep -c '^ok: ' "$tmp/out.txt") checks of the JSON Schema passed"
