#!/bin/sh
# Golden check benchmark (not run by the tests): 200 goldens at 750×1334 (two scenes at scale 2).
# 1. `golden check --jobs 2` against `--jobs 1`, in one hyperfine run (medians), with two
#    `--jobs 1` runs at once as the machine's own two-core bound, as bench.sh does for scroll.
# 2. Peak RSS (GNU time, %M) of `golden check` for 50 and 200 goldens: it should not grow.
# 3. The report of a run where 100 of the 200 fail: its size, and whether images went to a folder.
# Needs: hyperfine, GNU time (apt-get install hyperfine time). Builds the binary as `make release`
# does unless NOBUILD=1.
set -eu
cd "$(dirname "$0")/../../.."
[ "${NOBUILD:-0}" = 1 ] || make -s release >/dev/null
B=$PWD/.build/release/waterflow
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/G" "$T/Scenes"
cp Assets/Scenes/reference.json Assets/Scenes/shop.json "$T/Scenes/"
cp -r Assets/Shop "$T/Shop"

# N goldens: half of the reference scene, half of the shop, at offsets 0, 20, 40, …
manifest() {
  n=$1
  {
    echo '{"goldens": ['
    i=0
    while [ $i -lt "$n" ]; do
      scene=reference; [ $((i % 2)) = 1 ] && scene=shop
      [ $i -gt 0 ] && echo ','
      printf '{"name": "g/%03d", "scene": "../Scenes/%s.json", "offset": %d, "scale": 2}' $i $scene $((i / 2 * 20))
      i=$((i + 1))
    done
    echo ']}'
  } > "$T/G/manifest-$n.json"
}
manifest 200
manifest 50
"$B" golden record --manifest "$T/G/manifest-200.json" --jobs 2 >/dev/null

C="$B golden check --manifest $T/G/manifest-200.json --artifacts $T/a"
hyperfine --warmup 1 --runs "${RUNS:-5}" --export-json "${EXPORT:-$T/golden-bench.json}" \
  -n jobs1 "$C --jobs 1" \
  -n jobs2 "$C --jobs 2" \
  -n two-jobs1-at-once "sh -c '$C --jobs 1 >/dev/null & $C --jobs 1 >/dev/null; wait'"
python3 - "${EXPORT:-$T/golden-bench.json}" <<'PY'
import json, sys
r = {x["command"]: x["median"] for x in json.load(open(sys.argv[1]))["results"]}
print("medians: jobs1 %.2f s, jobs2 %.2f s, two jobs1 at once %.2f s" % (r["jobs1"], r["jobs2"], r["two-jobs1-at-once"]))
print("speed-up --jobs 2 / --jobs 1: %.2fx (the machine's two-core bound: %.2fx)" % (r["jobs1"] / r["jobs2"], 2 * r["jobs1"] / r["two-jobs1-at-once"]))
PY

for n in 50 200; do
  for j in 1 2; do
    kb=$(/usr/bin/time -f %M "$B" golden check --manifest "$T/G/manifest-$n.json" --artifacts "$T/a" --jobs $j 2>&1 >/dev/null | tail -1)
    echo "peak RSS, $n goldens, --jobs $j: $((kb / 1024)) MB"
  done
done

# Half fail: another seed in the reference scene.
sed -i 's/"seed": 1/"seed": 2/' "$T/Scenes/reference.json"
kb=$(/usr/bin/time -f %M "$B" golden check --manifest "$T/G/manifest-200.json" --artifacts "$T/a" --jobs 2 \
  --report "$T/report.html" --junit "$T/junit.xml" 2>&1 >/dev/null | tail -1) || true
echo "peak RSS, 200 goldens of which 100 fail, with report: $((kb / 1024)) MB"
echo "report: $(du -k "$T/report.html" | cut -f1) KB page$( [ -d "$T/report-images" ] && echo ", $(du -sk "$T/report-images" | cut -f1) KB of images in report-images/ ($(ls "$T/report-images" | grep -c png) files)")"
