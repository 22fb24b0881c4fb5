#!/bin/sh
# Template-cell benchmark (not run by the tests), in one hyperfine run so the ratios share the
# machine's load: 60 scroll frames of the notes feed (Assets/Feeds/notes.json, template cells with
# photos, shaped text, emoji and icons, 375×812 pt at scale 2) against the pycairo peer drawing
# today's cells (scroll_pycairo.py, 375×667 at scale 2), and against `waterflow scroll` of today's
# cells (bench-scene.json). Then `waterflow bench --templates-only`: the layout of 100,000
# self-sized items with distinct titles, and one screen of template cells against one of today's
# photo-and-title cells. Needs: hyperfine, pycairo (Debian's python3-cairo, for /usr/bin/python3).
# Builds the binary as `make release` does unless NOBUILD=1.
set -eu
cd "$(dirname "$0")/../../.."
[ "${NOBUILD:-0}" = 1 ] || make -s release >/dev/null
B=.build/release/waterflow
S=Tests/WaterflowMotionTests/Bench/bench-scene.json
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
hyperfine --warmup 1 --runs "${RUNS:-5}" --export-json "${EXPORT:-$T/bench.json}" \
  -n pycairo "/usr/bin/python3 Tests/WaterflowMotionTests/Bench/scroll_pycairo.py $T/py" \
  -n today "$B scroll $S -o $T/today --to 2000 --frames 60 --curve linear --jobs 1" \
  -n templates "$B scroll Assets/Feeds/notes.json -o $T/notes --to 2000 --frames 60 --curve linear --jobs 1 --scale 2"
$B bench --templates-only --runs "${RUNS:-5}"
