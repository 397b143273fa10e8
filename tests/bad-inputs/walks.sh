#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Plan directories as careless and hostile users leave them, through the
# real binary: the config looked for from a subdirectory, links inside and
# outside the repository (to files, to directories, in loops, dangling, in
# chains), trees deeper than a path can name, and cold runs racing on a new
# cache directory. Each family is a few shapes; each must end as a user
# expects — never a silent pass, never a quoted file from outside.
# Usage: walks.sh CAPOPS_LINT SOURCE_DIR
set -uo pipefail
lint=$1
src=$2
example=$src/examples/visual-inspection
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
# expect NAME WANTED_EXIT ACTUAL_EXIT OUTPUT_FILE [MUST_CONTAIN [MUST_NOT_CONTAIN]]
expect() {
  local name=$1 want=$2 got=$3 out=$4 has=${5:-} hasnt=${6:-}
  if [[ $got -ne $want ]]; then
    echo "$name: exit $got, wanted $want; output: $(head -c 600 "$out")"; fail=1
  fi
  if [[ -n $has ]] && ! grep -qF -- "$has" "$out"; then
    echo "$name: no \`$has\` in: $(head -c 600 "$out")"; fail=1
  fi
  if [[ -n $hasnt ]] && grep -qF -- "$hasnt" "$out"; then
    echo "$name: \`$hasnt\` must not be printed: $(grep -F -- "$hasnt" "$out" | head -c 300)"; fail=1
  fi
}
plan_dir() {  # a directory with the example plan and its inventory
  mkdir -p "$1" && cp "$example/plan.yaml" "$example/inventory.yaml" "$1/"
}

# --- the config, looked for from a subdirectory -----------------------------
repo=$work/cfg/repo
mkdir -p "$repo/sub/deeper" && git init -q "$repo"
echo 'fail-on: never' >"$repo/.capops.yaml"
echo 'fail-on: info' >"$work/cfg/.capops.yaml"  # above the repository: never the one read
plan_dir "$repo/sub"
(cd "$repo/sub" && "$lint" --format short plan.yaml) >"$work/out" 2>&1
expect "config from a subdirectory" 0 $? "$work/out"
plan_dir "$repo/sub/deeper"
(cd "$repo/sub/deeper" && "$lint" --format short plan.yaml) >"$work/out" 2>&1
expect "config two levels up" 0 $? "$work/out"
(cd "$repo/sub/deeper/" && "$lint" --format short ./plan.yaml) >"$work/out" 2>&1
expect "config, the plan spelt ./" 0 $? "$work/out"
(cd "$repo/sub" && "$lint" --config ../.capops.yaml --format short plan.yaml) >"$work/out" 2>&1
expect "config named relative to a subdirectory" 0 $? "$work/out"
rm "$repo/.capops.yaml"
(cd "$repo/sub" && "$lint" --format short plan.yaml) >"$work/out" 2>&1
expect "no config in the repository: the nearest above it" 1 $? "$work/out" "CAP-SUP-001"

# A `.capops.yaml` that is not a file is an error, never passed over for
# one further up (which here would say `fail-on: info`).
for shape in fifo directory devnull dangling; do
  rm -rf "$repo/sub/.capops.yaml"
  case $shape in
    fifo) mkfifo "$repo/sub/.capops.yaml" ;;
    directory) mkdir "$repo/sub/.capops.yaml" ;;
    devnull) ln -s /dev/null "$repo/sub/.capops.yaml" ;;
    dangling) ln -s nowhere.yaml "$repo/sub/.capops.yaml" ;;
  esac
  (cd "$repo/sub" && timeout 20 "$lint" --format short plan.yaml) >"$work/out" 2>&1
  expect "a .capops.yaml that is a $shape" 2 $? "$work/out" ".capops.yaml"
done
rm -rf "$repo/sub/.capops.yaml"

# --- links under a plan directory --------------------------------------------
repo=$work/links/repo
mkdir -p "$repo/plans" "$work/links/elsewhere" && git init -q "$repo"
plan_dir "$repo/plans"
plan_dir "$repo/teams/b/plans"
sed -i 's/gpus: 16, evidence: \[r-apr\]}/gpus: 99, evidence: [r-apr]}/' "$repo/teams/b/plans/plan.yaml"
ln -s ../teams/b/plans "$repo/plans/team-b"
(cd "$repo" && "$lint" --format short plans) >"$work/out" 2>&1
expect "a linked plan directory inside the repository is read" 1 $? "$work/out" \
  "plans/team-b/plan.yaml:67:59: error[CAP-ALC-004]: pool \`train-eu\` has 16 GPUs but 99"

echo 'password: hunter2' >"$work/links/elsewhere/config.yaml"
plan_dir "$work/links/elsewhere/plans"
ln -s "$work/links/elsewhere/config.yaml" "$repo/plans/dc.yaml"
ln -s "$work/links/elsewhere/plans" "$repo/plans/out"
ln -s dc.yaml "$repo/plans/chain.yaml"  # a link to a link that leaves
ln -s .. "$repo/plans/loop"             # a loop: the walk ends
ln -s ../../repo/plans "$repo/teams/b/plans/back"  # and a loop through another directory
for format in text json sarif junit github html; do
  (cd "$repo" && timeout 20 "$lint" --format "$format" plans) >"$work/out" 2>&1
  expect "links out ($format)" 1 $? "$work/out" "leads outside the repository" "hunter2"
done
(cd "$repo" && "$lint" --format short plans) >"$work/out" 2>&1
for link in dc.yaml out chain.yaml; do
  expect "link out: $link" 1 1 "$work/out" "plans/$link\` is a link that leads outside the repository"
done
[[ $(grep -c "CAP-ALC-004" "$work/out") -eq 1 ]] ||
  { echo "a plan reached twice (a loop of links): $(grep CAP-ALC-004 "$work/out")"; fail=1; }
grep -q "^plans/team-b/plan.yaml:67:59: error\[CAP-ALC-004\]" "$work/out" ||
  { echo "a plan not spelt by the link that reaches it: $(grep CAP-ALC-004 "$work/out")"; fail=1; }
# Only links out of the repository are refused: outside any, out of the directory.
mkdir -p "$work/norepo/plans" && plan_dir "$work/norepo/plans"
ln -s "$work/links/elsewhere/config.yaml" "$work/norepo/plans/x.yaml"
"$lint" --format short "$work/norepo/plans" >"$work/out" 2>&1
expect "outside a repository: links out of the directory" 1 $? "$work/out" \
  "is a link that leads outside \`$work/norepo/plans\`" "hunter2"
# Named on the command line, a file outside is linted deliberately.
cp "$example/plan.yaml" "$work/links/elsewhere/named.yaml"
ln -s "$work/links/elsewhere/named.yaml" "$repo/named.yaml"
(cd "$repo" && "$lint" --format short --inventory plans/inventory.yaml named.yaml) >"$work/out" 2>&1
expect "a link named on the command line" 1 $? "$work/out" "CAP-SUP-001" "leads outside"
ln -s missing.yaml "$repo/plans/gone.yaml"
(cd "$repo" && "$lint" --format short plans) >"$work/out" 2>&1
expect "a dangling link is a file that cannot be read" 2 $? "$work/out" "plans/gone.yaml"
rm "$repo/plans/gone.yaml"

# --- names: what discovery takes is what naming takes -------------------------
names=$work/names
for name in upper.YAML mixed.Yml plan.json; do
  plan_dir "$names/$name.d"
  mv "$names/$name.d/plan.yaml" "$names/$name.d/$name"
done
"$lint" --format short "$names" >"$work/out" 2>&1
expect "plans named *.YAML, *.Yml, *.json under a directory" 1 $? "$work/out"
for name in upper.YAML mixed.Yml plan.json; do
  grep -qF "$names/$name.d/$name:" "$work/out" || { echo "a plan named $name was passed over"; fail=1; }
done
echo '{"name": "not-a-plan"}' >"$names/package.json"
"$lint" --format short "$names" >"$work/out" 2>&1
expect "a JSON file that is not a plan is said" 1 $? "$work/out" "package.json"

# --- foreign YAML in bulk: one note, not a page of errors ---------------------
dumps=$work/dumps
python3 - "$dumps" "$example/plan.yaml" <<'PY'
import os, sys
root, plan = sys.argv[1], open(sys.argv[2]).read()
deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app-%d}\n"
def write(name, docs):
    os.makedirs(os.path.join(root, name), exist_ok=True)
    open(os.path.join(root, name, "dump.yaml"), "w").write("---\n".join(docs))
write("k8s", [deployment % i for i in range(1500)])
write("broken-tail", [deployment % i for i in range(20)] + ["key: [unclosed\n"])
write("plan-inside", [deployment % 0, plan] + [deployment % i for i in range(1500)])
write("plans-only", [plan] * 1200)
write("plan-behind-limit", [deployment % i for i in range(1100)] + [plan])
PY
plan_dir "$dumps/k8s"
mv "$dumps/broken-tail/dump.yaml" "$dumps/k8s/tail.yaml"
# Classifying reads the documents' heads only, keeping nothing per
# document: a dump past the document limit is read to its end, one note.
"$lint" --format short "$dumps/k8s" >"$work/out" 2>&1
rc=$?
expect "a Kubernetes dump past the document limit" 1 $rc "$work/out" \
  "k8s/dump.yaml:2:7: info[discovery]: not linted: kind \`Deployment\`" "unsupported apiVersion"
expect "a Kubernetes dump with a broken tail" 1 $rc "$work/out" \
  "k8s/tail.yaml:2:7: error[discovery]: not linted: kind \`Deployment\`; the file could not be read to its end"
[[ $(grep -vc "/plan.yaml:" "$work/out") -eq 2 ]] ||
  { echo "foreign dumps: $(grep -v "/plan.yaml:" "$work/out" | head -c 400)"; fail=1; }
"$lint" --format short --inventory "$example/inventory.yaml" "$dumps/plan-inside" >"$work/out" 2>&1
expect "a plan among foreign documents is linted" 1 $? "$work/out" "more than 1000 documents"
mv "$dumps/plan-behind-limit/dump.yaml" "$dumps/k8s/behind.yaml"
"$lint" --format short "$dumps/k8s" >"$work/out" 2>&1
expect "a plan behind the document limit is found and linted" 1 $? "$work/out" \
  "behind.yaml:4000:1: error[yaml]: more than 1000 documents in one file" \
  "behind.yaml:2:7: error[discovery]: not linted"
"$lint" --format short --inventory "$example/inventory.yaml" "$dumps/plans-only" >"$work/out" 2>&1
expect "plans past the document limit" 1 $? "$work/out" "more than 1000 documents"

# --- foreign YAML is told apart in flat memory -------------------------------
# An 8 MB flow map of 500,000 keys on one line, and no `kind`: loaded whole
# to be called "not linted" it took 724 MB; its heads, read from the
# parser's events, take a few times its size (two of them: 60 MB). A return
# to a full parse (or to libfyaml holding the line back, document_head.cc)
# fails here.
big=$work/big
plan_dir "$big"
python3 - "$big" <<'PY'
import sys
keys = ", ".join("k%06d: %05d" % (i, i % 100000) for i in range(500000))
open(sys.argv[1] + "/map.yaml", "w").write("{" + keys + "}\n")
open(sys.argv[1] + "/marked.yaml", "w").write("%YAML 1.2\n---\n{" + keys + "}\n")
PY
/usr/bin/time -f "%M" -o "$work/rss" "$lint" --format short "$big" >"$work/out" 2>&1
rc=$?
expect "an 8 MB one-line flow map" 1 $rc "$work/out" \
  "big/map.yaml:1:1: info[discovery]: not linted: a YAML document without \`kind\`"
expect "the same after a directive and \`---\`" 1 $rc "$work/out" \
  "big/marked.yaml:3:1: info[discovery]: not linted: a YAML document without \`kind\`"
if [[ -z ${ASAN_OPTIONS:-} && $(tail -1 "$work/rss") -gt 150000 ]]; then
  echo "telling two 8 MB flow maps apart took $(tail -1 "$work/rss") KB"; fail=1
fi

# --- a plan without an inventory: one error, not one per reference -------------
alone=$work/alone
mkdir -p "$alone/two" && cp "$example/plan.yaml" "$alone/plan.yaml"
cp "$example/plan.yaml" "$alone/two/a.yaml" && cp "$example/plan.yaml" "$alone/two/b.yaml"
: >"$alone/empty.yaml"
"$lint" --format short "$alone/plan.yaml" >"$work/out" 2>&1
expect "a plan without an inventory" 1 $? "$work/out" "no \`Inventory\` document was given" \
  "no \`Pool\` with id"
[[ $(wc -l <"$work/out") -eq 1 ]] || { echo "a plan without an inventory: $(cat "$work/out")"; fail=1; }
"$lint" --format short "$alone/two" >"$work/out" 2>&1
expect "two plans without an inventory" 1 $? "$work/out" "b.yaml:4:1: error: no \`Inventory\`"
[[ $(wc -l <"$work/out") -eq 2 ]] || { echo "two plans without one: $(cat "$work/out")"; fail=1; }
"$lint" --format short --inventory "$alone/empty.yaml" "$alone/plan.yaml" >"$work/out" 2>&1
expect "an inventory file with no document" 1 $? "$work/out" "no \`Inventory\` document was given" \
  "no \`Supply\` with id"

# --- SARIF for runs cut short: each result identified, no machine path --------
# The pack sits outside the repository, as an installed one does.
sarif=$work/sarif
mkdir -p "$sarif/repo" && git init -q "$sarif/repo" && plan_dir "$sarif/repo/plans"
cp -r "$src/policies/capops-ai" "$sarif/pack"
for cut in "--max-steps 1" "--max-memory 100000" "--max-steps 2000"; do
  # shellcheck disable=SC2086
  (cd "$sarif/repo" && "$lint" --format sarif --policy "$sarif/pack" $cut plans) >"$work/out" 2>/dev/null
  python3 - "$work/out" "$sarif" "$cut" <<'PY' || fail=1
import json, sys
doc, machine, cut = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
bad = []
for r in doc["runs"][0]["results"]:
    if "partialFingerprints" not in r:
        bad.append("no partialFingerprints: " + r["message"]["text"][:80])
    for l in r.get("locations", []) + r.get("relatedLocations", []):
        uri = l["physicalLocation"]["artifactLocation"]["uri"]
        if uri.startswith("file:") or uri.startswith("/") or machine in uri:
            bad.append("a machine path: " + uri)
for b in bad[:3]:
    print("SARIF with %s: %s" % (cut, b))
sys.exit(1 if bad else 0)
PY
done

# --- deep trees ---------------------------------------------------------------
deep=$work/deep
plan_dir "$deep/plans"
python3 - "$deep/plans" <<'EOF'
import os, sys
os.chdir(sys.argv[1])
for depth in range(3000):
    os.mkdir("d")
    os.chdir("d")
    if depth == 1000:
        open("plan.yaml", "w").write(open("../" * 1001 + "plan.yaml").read())
        open("inventory.yaml", "w").write(open("../" * 1001 + "inventory.yaml").read())
EOF
/usr/bin/time -f "%M" -o "$work/rss" "$lint" --format short "$deep/plans" >"$work/out" 2>&1
expect "a tree deeper than a path can name" 1 $? "$work/out" "cannot be read (File name too long)"
[[ $(grep -c "CAP-SUP-001" "$work/out") -eq 2 ]] ||
  { echo "the plan 1,000 levels down is not linted: $(head -c 300 "$work/out")"; fail=1; }
# Memory grows with the depth, not its square (no sanitizer in the way).
if [[ -z ${ASAN_OPTIONS:-} && $(tail -1 "$work/rss") -gt 200000 ]]; then
  echo "a 3,000-level tree took $(tail -1 "$work/rss") KB"; fail=1
fi

# --- init on a full disk: all of a start or none of it --------------------------
# A small tmpfs in a mount namespace of its own fills at the first, the
# second or the third file; the directory given exists already or not.
for size in 4k 10k 40k; do
  for existing in no yes; do
    disk=$work/full-$size-$existing
    mkdir -p "$disk"
    unshare -rm sh -c "mount -t tmpfs -o size=$size tmpfs '$disk' &&
      { [ $existing = no ] || mkdir '$disk/start'; } &&
      '$lint' init '$disk/start' >'$work/init.out' 2>&1; echo \$? >'$work/init.rc';
      ls -A '$disk' '$disk/start' >'$work/init.ls' 2>/dev/null; true" ||
      { echo "init on a full disk: no mount namespace here"; fail=1; }
    expect "init on a $size disk (directory there: $existing)" 2 "$(cat "$work/init.rc")" \
      "$work/init.out" "nothing was written"
    leftover=$(grep -cE '\.(yaml|json)$' "$work/init.ls")
    [[ $leftover -eq 0 ]] || { echo "init on a $size disk left: $(cat "$work/init.ls")"; fail=1; }
    if [[ $existing == yes ]] && ! grep -q '^start$' "$work/init.ls"; then
      echo "init on a $size disk removed a directory it did not make"; fail=1
    fi
  done
done

# --- cold runs racing on a new cache directory ----------------------------------
race() {  # race NAME CACHE-DIR: nine runs at once, each must use the cache
  local name=$1 cache=$2 pids=() i
  for i in $(seq 1 9); do
    "$lint" --format short --cache="$cache" "$work/race/plans" >"$work/race/out$i" 2>"$work/race/err$i" &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do wait "${pids[$i]}"; done
  for i in $(seq 1 9); do
    if [[ -s $work/race/err$i ]]; then echo "$name: run $i: $(cat "$work/race/err$i")"; fail=1; fi
    cmp -s "$work/race/out1" "$work/race/out$i" || { echo "$name: run $i printed otherwise"; fail=1; }
  done
  [[ -f $cache/CACHEDIR.TAG ]] || { echo "$name: no CACHEDIR.TAG in $cache"; fail=1; }
}
plan_dir "$work/race/plans"
race "a new cache directory" "$work/race/plans/.cache"
race "a new cache directory, its parents too" "$work/race/a/b/c"
mkdir "$work/race/empty"
race "an empty directory made for the cache" "$work/race/empty"
race "the same cache, warm" "$work/race/plans/.cache"

# Entries that come and go while a run walks (another tool's temporary
# directories, renamed into place and removed) were never plans: no run
# reports them, however the walk and the churn interleave.
plan_dir "$work/churn"
churners=()
for k in 1 2; do
  python3 - "$work/churn" "$work/churn.stop" "$k" <<'PY' &
import os, sys
d, stop, k = sys.argv[1], sys.argv[2], sys.argv[3]
i = 0
while not os.path.exists(stop):  # a hundred at a time: a walk lists many, then they go
    i += 1
    made = [f"{d}/.tmp-{k}-{i}-{n}" for n in range(100)]
    for a in made: os.mkdir(a)
    for a in made: os.rename(a, a + ".new")
    for a in made: os.rmdir(a + ".new")
PY
  churners+=($!)
done
"$lint" --format short "$work/churn" >"$work/churn.want" 2>&1
for i in $(seq 1 12); do
  "$lint" --format short "$work/churn" >"$work/churn.out" 2>&1
  cmp -s "$work/churn.want" "$work/churn.out" ||
    { echo "a walk beside churning directories, run $i: $(diff "$work/churn.want" "$work/churn.out" | head -3)"; fail=1; break; }
done
touch "$work/churn.stop"; wait "${churners[@]}"

exit $fail
