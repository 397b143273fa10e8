#!/usr/bin/env bash
# CTest `cel.conformance`: CEL's conformance cases against capops-lint eval
# (tests/cel/conformance.js). Installs the pinned test data (package-lock.json)
# on first use; needs npm (scripts/install-deps installs it).
#
#   tests/cel/run.sh build/engine/capops-lint
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if ! command -v npm >/dev/null; then
  echo "cel: npm is needed (scripts/install-deps installs it)" >&2
  exit 2
fi
if [[ ! -e "$here/node_modules/@bufbuild/cel-spec/package.json" ]]; then
  (cd "$here" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
fi
exec node "$here/conformance.js" "$@"
