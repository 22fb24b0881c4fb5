#!/bin/sh
# Goldens at scale (not run by the tests): manifests of 500 and N goldens (default 5,000) over the
# sample scenes and feeds, two fifths of them photo feeds drawn with templates, at scale 2.
#  1. `golden record` of all N new goldens, then a full `golden check`, both on JOBS jobs.
#  2. `golden check --changed` with nothing changed (every golden skipped).
#  3. A template edit in notes.json (a fifth of the goldens): `golden check --changed` with
#     --report, --junit and --results, which checks exactly those, and the report opened in
#     headless Chromium (it must load and show its table).
#  4. Peak RSS (GNU time, %M) of each run, and of a full check of 500, to see it stay flat.
# Prints one line per figure. Needs: GNU time and chromium (apt-get install time chromium).
# Builds the binary as `make release` does unless NOBUILD=1.
set -eu
cd "$(dirname "$0")/../../.."
[ "${NOBUILD:-0}" = 1 ] || make -s release >/dev/null
B=$PWD/.build/release/waterflow
N=${N:-5000}
JOBS=${JOBS:-2}
T=${BENCH_DIR:-$(mktemp -d)}
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/Assets"
cp -r Assets/Scenes Assets/Feeds Assets/Shop "$T/Assets/"

python3 - "$T" "$N" <<'PY'
import json, sys
root, n = sys.argv[1], int(sys.argv[2])
kinds = [("reference", "Scenes/reference.json", 2000), ("shop", "Scenes/shop.json", 2000),
         ("sections", "Scenes/sections.json", 800), ("notes", "Feeds/notes.json", 1200),
         ("products", "Feeds/products.json", 900)]
for count, name in [(500, "G500"), (n, "G")]:
    entries = []
    for i in range(count):
        kind, scene, reach = kinds[i % len(kinds)]
        offset = (i // len(kinds)) * 7 % reach
        entries.append({"name": "%s/%05d" % (kind, i), "scene": "../Assets/" + scene,
                        "offset": offset, "scale": 2})
    import os
    os.makedirs("%s/%s" % (root, name), exist_ok=True)
    json.dump({"goldens": entries}, open("%s/%s/manifest.json" % (root, name), "w"))
PY

run() {  # label, then the command: prints wall seconds and peak RSS
  label=$1; shift
  out=$( { /usr/bin/time -f "%e %M" "$@" >/dev/null 2>"$T/err" || true; } 2>&1; tail -1 "$T/err")
  set -- $out
  printf '%-46s %8.2f s  %6d MB\n' "$label" "$1" "$(($2 / 1024))"
}
M=$T/G/manifest.json
A="--artifacts $T/artifacts --jobs $JOBS"
run "record $N new goldens" "$B" golden record --manifest "$M" $A
run "full check of $N" "$B" golden check --manifest "$M" $A
"$B" golden record --manifest "$T/G500/manifest.json" $A >/dev/null
run "full check of 500" "$B" golden check --manifest "$T/G500/manifest.json" $A
run "--changed, nothing changed ($N)" "$B" golden check --manifest "$M" $A --changed
# A template edit: the notes' titles one point larger.
sed -i 's/"size": 13, "weight": "medium"/"size": 14, "weight": "medium"/' "$T/Assets/Feeds/notes.json"
grep -q '"size": 14, "weight": "medium"' "$T/Assets/Feeds/notes.json" || { echo "the edit did not apply"; exit 1; }
run "--changed after a template edit (report, junit)" "$B" golden check --manifest "$M" $A --changed \
  --report "$T/report.html" --junit "$T/junit.xml" --results "$T/results"
"$B" golden check --manifest "$M" $A --changed --json > "$T/after.jsonl" || true
python3 - "$T/after.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
skipped = sum(1 for l in lines if "skipped" in l)
print("after the edit, a second --changed: %d goldens, %d skipped, %d checked (the failed ones)" % (len(lines), skipped, len(lines) - skipped))
PY
# The results folder links the artifacts: du counts a linked file once across both folders.
printf 'report %d KB, junit %d KB, artifacts %d MB, results folder %d MB more\n' \
  $(($(stat -c %s "$T/report.html") / 1024)) $(($(stat -c %s "$T/junit.xml") / 1024)) \
  $(($(du -sk "$T/artifacts" | cut -f1) / 1024)) \
  $(( ($(du -sk "$T/artifacts" "$T/results" | awk '{s += $1} END {print s}') - $(du -sk "$T/artifacts" | cut -f1)) / 1024 ))
start=$(date +%s%N)
chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=10000 --dump-dom "file://$T/report.html" \
  > "$T/dom.html" 2>/dev/null
rows=$(grep -o 'class="bad st-failed"' "$T/dom.html" | wc -l)
echo "chromium loaded the report in $((($(date +%s%N) - start) / 1000000)) ms: $rows failed rows"
