#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CTest `junit.xsd`: capops-lint's JUnit XML, for findings, a clean plan,
# facts that break the schema and a run with waivers and warnings, is valid
# against Jenkins' JUnit schema (junit-10.xsd, see README.md), checked by
# libxml2's validator (xmllint). The schema has no `file` or `line` on a
# testcase, which GitLab's test reports read: those two attributes, and
# only those, are taken off before validating, and are checked to be there.
#
#   tests/junit/check_capops_junit.sh build/engine/capops-lint   (from the repository root)
set -euo pipefail
lint="$1"
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../support/checks.sh"
out=$tmp
run() {  # run NAME ARGS…: the JUnit report of ARGS as $out/NAME.xml
  local name=$1
  shift
  lint_report "$@" --format junit --output "$out/$name.xml"
}
run findings --no-config examples/visual-inspection/plan.yaml
run clean --no-config examples/visual-inspection/clean/plan.yaml
run schema-errors --no-config tests/golden/plan-schema-errors/plan.yaml
run waived --config examples/ci/.capops.yaml --fail-on never
grep -q '<testcase [^>]* file="examples/visual-inspection/plan.yaml" line="[0-9]*"' "$out/findings.xml" ||
  { echo "junit: no testcase names its file and line" >&2; exit 1; }
mkdir "$out/jenkins"
for f in "$out"/*.xml; do
  sed -E '/<testcase /s/ (file|line)="[^"]*"//g' "$f" >"$out/jenkins/$(basename "$f")"
done
xmllint --noout --schema "$here/junit-10.xsd" "$out"/jenkins/*.xml
# The validator is live: a testcase without its required name is refused.
printf '<testsuites><testsuite name="x" tests="1" failures="0" errors="0"><testcase classname="x"/></testsuite></testsuites>\n' \
  >"$out/broken.xml"
if xmllint --noout --schema "$here/junit-10.xsd" "$out/broken.xml" 2>/dev/null; then
  echo "junit: the schema accepted a testcase without a name" >&2
  exit 1
fi
echo "junit: $(find "$out/jenkins" -name '*.xml' | wc -l) reports valid against junit-10.xsd"
