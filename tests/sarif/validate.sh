#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Validates SARIF files the way a real consumer would read them:
#   1. Microsoft's SARIF validator (npm @microsoft/sarif-multitool, `validate`),
#      whose JSON, schema and SARIF-rule findings come back as a SARIF log;
#      any result at level `error` fails, and with `--no-warnings` any
#      result at all;
#   2. the SARIF 2.1.0 JSON schema shipped in that package, with ajv (strict
#      about enums and minimums that the multitool lets through).
# Installs the pinned packages (package-lock.json) on first use.
#
#   tests/sarif/validate.sh [--no-warnings] report.sarif [more.sarif …]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
strict=0
if [[ ${1:-} == --no-warnings ]]; then
  strict=1
  shift
fi
if (($# == 0)); then
  echo "usage: $0 [--no-warnings] FILE.sarif…" >&2
  exit 2
fi
"$here/../support/npm_ci.sh" "$here"
pkg="$here/node_modules/@microsoft/sarif-multitool-linux"
# npm does not run the package's postinstall, which would make it executable.
chmod u+x "$pkg/Sarif.Multitool"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
# One validator run for all the files (its start-up is most of its time):
# its log locates each finding in the file it is about.
log="$work/validation.sarif"
# The multitool exits 0 even when it finds errors; its log says what it found.
if ! DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 \
    "$pkg/Sarif.Multitool" validate "$@" --output "$log" --quiet >"$work/console" 2>&1; then
  echo "sarif: the validator failed on $*:" >&2
  cat "$work/console" >&2
  exit 1
fi
if ! node - "$log" "$strict" "$@" <<'JS'
const [log, strict, ...files] = process.argv.slice(2);
const results = JSON.parse(require('fs').readFileSync(log, 'utf8')).runs.flatMap(r => r.results || []);
const text = r => {
  const m = r.message || {};
  return m.text || [m.id, ...(m.arguments || [])].join(' ');
};
const fileOf = r => {
  const uri = (((r.locations || [])[0] || {}).physicalLocation || {}).artifactLocation?.uri || '';
  return decodeURIComponent(uri.replace(/^file:\/\//, '')) || files.join(' ');
};
// Every file given was read: one the validator did not scan is not validated.
const scanned = JSON.parse(require('fs').readFileSync(log, 'utf8')).runs
  .flatMap(r => (r.artifacts || []).map(a => decodeURIComponent((a.location?.uri || '').replace(/^file:\/\//, ''))));
let missing = 0;
for (const f of files) {
  const full = require('path').resolve(f);
  if (scanned.length && !scanned.includes(full)) {
    console.error(`sarif: the validator did not scan ${f}`);
    missing++;
  }
}
const errors = results.filter(r => strict === '1' || (r.level || 'warning') === 'error');
for (const r of results) {
  console.error(`sarif: ${fileOf(r)}: ${r.level || 'warning'} ${r.ruleId}: ${text(r)}`);
}
process.exit(errors.length || missing ? 1 : 0);
JS
then
  status=1
fi
# ajv, once for all the files; it picks its parser by extension: give each `.json`.
data=()
n=0
for file in "$@"; do
  n=$((n + 1))
  cp "$file" "$work/data-$n.json"
  data+=(-d "$work/data-$n.json")
done
if ! (cd "$here" && node_modules/.bin/ajv validate --spec=draft2020 --strict=false --all-errors --errors=text \
    -c ajv-formats -s "$pkg/sarif-2.1.0.json" "${data[@]}") >"$work/ajv" 2>&1; then
  echo "sarif: not all of $* match the SARIF 2.1.0 schema (data-N is the N-th file):" >&2
  cat "$work/ajv" >&2
  status=1
fi
exit $status
