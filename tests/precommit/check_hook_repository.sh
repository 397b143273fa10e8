#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# capops as a pre-commit hook repository, run by the real pre-commit
# framework (Debian's `pre-commit`): a fresh git repository whose
# .pre-commit-config.yaml uses this checkout as `repo:` at its HEAD commit,
# with the scenario's corrected plan and its inventory, then
#   - the clean plan passes;
#   - a broken plan (the scenario's production squeeze) fails, naming a rule;
#   - a change to the inventory alone (the training reservation halved)
#     fails: the hook re-lints the plans, not only the files changed;
#   - without a .capops.yaml naming plans the hook fails, saying why.
# Usage: check_hook_repository.sh CAPOPS_LINT SOURCE_DIR. Exit 77 (skipped)
# without pre-commit, or when SOURCE_DIR is not a git checkout.
set -uo pipefail

lint=$1
src=$2
if ! command -v pre-commit > /dev/null; then
  echo "skipped: pre-commit is not installed (scripts/install-deps installs it)"
  exit 77
fi
rev=$(git -C "$src" rev-parse HEAD 2> /dev/null) || { echo "skipped: $src is not a git checkout"; exit 77; }
if ! git -C "$src" cat-file -e "$rev:.pre-commit-hooks.yaml" 2> /dev/null; then
  echo "FAIL: commit $rev has no .pre-commit-hooks.yaml"
  exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PRE_COMMIT_HOME=$tmp/cache
export PATH=$(dirname "$(readlink -f "$lint")"):$PATH
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

repo=$tmp/repo
mkdir -p "$repo/plans"
cd "$repo" || exit 1
git init -q .
cp "$src/examples/visual-inspection/clean/plan.yaml" "$src/examples/visual-inspection/clean/inventory.yaml" plans/
printf 'plans: [plans/plan.yaml]\n' > .capops.yaml
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $src
    rev: $rev
    hooks:
      - id: capops-lint
YAML
git add -A && git commit -qm "a clean plan"

# run NAME EXPECTED_EXIT ARGS...: pre-commit's output in $tmp/NAME.out.
run() {
  local name=$1 expected=$2
  shift 2
  pre-commit run "$@" > "$tmp/$name.out" 2>&1
  local got=$?
  if [[ $got -ne $expected ]]; then
    fail "$name: pre-commit exited $got, not $expected"
    cat "$tmp/$name.out"
  fi
}

run clean 0 --all-files
grep -q "capops-lint (capacity plans).*Passed" "$tmp/clean.out" || fail "clean: the hook did not run and pass"

cp "$src/examples/visual-inspection/production-squeeze/plan.yaml" plans/plan.yaml
git add plans/plan.yaml
run broken 1
grep -q "error\[CAP-ALC-004\]" "$tmp/broken.out" || fail "broken: no rule's finding in the hook's output"
git checkout -q HEAD -- plans/plan.yaml

# Only the inventory changes: the 16-GPU training reservation becomes 8.
sed -i 's/{id: r-apr, kind: reservation, accelerator: h100-80, gpus: 16,/{id: r-apr, kind: reservation, accelerator: h100-80, gpus: 8,/' plans/inventory.yaml
grep -q "id: r-apr, kind: reservation, accelerator: h100-80, gpus: 8," plans/inventory.yaml || fail "inventory: the edit did not apply"
git add plans/inventory.yaml
[[ $(git diff --cached --name-only) == plans/inventory.yaml ]] || fail "inventory: more than the inventory is staged"
run inventory 1
grep -q "error\[CAP-SUP-005\]" "$tmp/inventory.out" || fail "inventory: the plan was not re-linted against the changed inventory"
git checkout -q HEAD -- plans/inventory.yaml

git rm -q --cached .capops.yaml && rm .capops.yaml
run no-config 1 --all-files
grep -q "no plan files given" "$tmp/no-config.out" || fail "no-config: the hook did not say why it failed"

if [[ $failures -ne 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "pre-commit ran the capops-lint hook from $src at $rev: clean passed, a broken plan and an inventory-only change failed"
