#!/bin/sh
# Scroll benchmark (not run by the tests): 60 frames of a 375x667@2x scene to a PNG folder.
# Compares `waterflow scroll` (release build) with the pycairo baseline, and --jobs 2 with --jobs 1,
# all in one hyperfine run so the ratios share the machine's load. Needs: hyperfine, pip install pycairo.
# Builds the binary as `make release` does (static Swift runtime) unless NOBUILD=1.
set -eu
cd "$(dirname "$0")/../../.."
[ "${NOBUILD:-0}" = 1 ] || make -s release >/dev/null
B=.build/release/waterflow
S=Tests/WaterflowMotionTests/Bench/bench-scene.json
# The frames go to memory (/dev/shm) unless BENCH_DIR says otherwise: on this VM's disk, ext4
# without a journal, every new file looks for an inode past those deleted in the last minutes,
# so each command paid for the runs before it (jobs2 after jobs1 the most: 83.8 ms against 65.6
# in memory after a few hundred runs). BENCH_DIR=/tmp measures the disk as it is.
if [ -z "${BENCH_DIR:-}" ]; then
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then BENCH_DIR=/dev/shm; else BENCH_DIR=/tmp; fi
fi
T=$(mktemp -d -p "$BENCH_DIR")
trap 'rm -rf "$T"' EXIT
echo "outputs in $T ($(stat -f -c %T "$T"))"
hyperfine --warmup 1 --runs "${RUNS:-5}" --export-json "${EXPORT:-$T/bench.json}" \
  -n pycairo "/usr/bin/python3 Tests/WaterflowMotionTests/Bench/scroll_pycairo.py $T/py" \
  -n jobs1 "$B scroll $S -o $T/j1 --to 2000 --frames 60 --curve linear --jobs 1" \
  -n jobs2 "$B scroll $S -o $T/j2 --to 2000 --frames 60 --curve linear --jobs 2" \
  -n two-jobs1-at-once "sh -c '$B scroll $S -o $T/c1 --to 2000 --frames 60 --curve linear --jobs 1 & \
    $B scroll $S -o $T/c2 --to 2000 --frames 60 --curve linear --jobs 1; wait'"
# The last command bounds what --jobs 2 can reach here: two independent single-threaded jobs at once
# share nothing, so 2 x jobs1 / two-jobs1-at-once is the machine's own two-core speed-up: 1.5-1.7
# when other VMs load this host (a pure register loop run twice at once then got 1.48x), 1.8 when
# they do not (the same loop: 1.94x). Each independent job pays its own start and end in parallel,
# which --jobs 2 cannot: see the in-process figures below.
python3 - "${EXPORT:-$T/bench.json}" <<'PY'
import json, sys
r = {x["command"]: x["median"] for x in json.load(open(sys.argv[1]))["results"]}
print("medians: pycairo %.0f ms, jobs1 %.1f ms, jobs2 %.1f ms, two jobs1 at once %.1f ms"
      % tuple(r[k] * 1e3 for k in ("pycairo", "jobs1", "jobs2", "two-jobs1-at-once")))
print("scroll vs pycairo: %.1fx; --jobs 2 vs --jobs 1: %.2fx; the machine's own two-core speed-up: %.2fx"
      % (r["pycairo"] / r["jobs2"], r["jobs1"] / r["jobs2"], 2 * r["jobs1"] / r["two-jobs1-at-once"]))
PY
# The same job inside one process, where nothing but the frame loop is timed (no process start,
# no argument parsing): how --jobs 2 scales when the fixed costs above are taken out.
"$B" bench --scroll-only --runs "${RUNS:-5}"
