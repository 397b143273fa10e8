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
for file in "$@"; do
  log="$work/$(basename "$file").validation.sarif"
  # The multitool exits 0 even when it finds errors; its log says what it found.
  if ! DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 \
      "$pkg/Sarif.Multitool" validate "$file" --output "$log" --quiet >"$work/console" 2>&1; then
    echo "sarif: the validator failed on $file:" >&2
    cat "$work/console" >&2
    status=1
    continue
  fi
  if ! node - "$log" "$file" "$strict" <<'JS'
const [log, file, strict] = process.argv.slice(2);
const results = JSON.parse(require('fs').readFileSync(log, 'utf8')).runs.flatMap(r => r.results || []);
const text = r => {
  const m = r.message || {};
  return m.text || [m.id, ...(m.arguments || [])].join(' ');
};
const errors = results.filter(r => strict === '1' || (r.level || 'warning') === 'error');
for (const r of results) {
  console.error(`sarif: ${file}: ${r.level || 'warning'} ${r.ruleId}: ${text(r)}`);
}
process.exit(errors.length ? 1 : 0);
JS
  then
    status=1
  fi
  # ajv picks its parser by extension: give it `.json`.
  cp "$file" "$work/data.json"
  if ! (cd "$here" && node_modules/.bin/ajv validate --spec=draft2020 --strict=false --all-errors --errors=text \
      -c ajv-formats -s "$pkg/sarif-2.1.0.json" -d "$work/data.json") >"$work/ajv" 2>&1; then
    echo "sarif: $file does not match the SARIF 2.1.0 schema:" >&2
    cat "$work/ajv" >&2
    status=1
  fi
done
exit $status
