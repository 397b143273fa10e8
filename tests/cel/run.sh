#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CTest `cel.conformance`: CEL's conformance cases against capops-lint eval
# (tests/cel/conformance.js). Installs the pinned test data (package-lock.json)
# on first use; needs npm (scripts/install-deps installs it).
#
#   tests/cel/run.sh build/engine/capops-lint
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
"$here/../support/npm_ci.sh" "$here"
exec node "$here/conformance.js" "$@"
