#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the npm packages a test folder pins (DIR/package-lock.json) into
# DIR/node_modules, unless they are there already from that same lock file.
# The one way the validators' packages get installed: the CTest fixture
# npm.validators runs it before the tests that need them, and each check
# script runs it too when started by hand.
#
#   tests/support/npm_ci.sh tests/sarif
set -euo pipefail
dir=$(cd "${1:?usage: npm_ci.sh DIR}" && pwd)
if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
  echo "npm and node are needed (scripts/install-deps installs them)" >&2
  exit 2
fi
installed=$dir/node_modules/.package-lock.json  # written by npm ci, a copy of what it installed
if [[ -e $installed && ! $dir/package-lock.json -nt $installed ]]; then
  exit 0
fi
# Concurrent callers wait for one install rather than write one tree at once.
exec 9>"$dir/.npm-ci.lock"
flock 9
if [[ -e $installed && ! $dir/package-lock.json -nt $installed ]]; then
  exit 0
fi
(cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
