#!/bin/sh
# Render benchmark (not run by the tests): one 375x667 pt frame of bench-scene.json to a PNG, as
# whole processes, `waterflow render` against render_cairo.c (the same cells drawn straight with
# cairo, written with cairo_surface_write_to_png), at scale 2 (750x1334 px) and at scale 4
# (1500x2668 px, `waterflow bench`'s reference frame), in one hyperfine run so the ratios share
# the machine's load. Needs: hyperfine, a C compiler (gcc), libcairo2-dev. Builds the binary as
# `make release` does unless NOBUILD=1.
set -eu
cd "$(dirname "$0")/../../.."
[ "${NOBUILD:-0}" = 1 ] || make -s release >/dev/null
B=.build/release/waterflow
S=Tests/WaterflowMotionTests/Bench/bench-scene.json
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cc -O2 -o "$T/render_cairo" Tests/WaterflowMotionTests/Bench/render_cairo.c \
  $(pkg-config --cflags --libs cairo) -lm
hyperfine -N --warmup 3 --runs "${RUNS:-30}" --export-json "${EXPORT:-$T/bench.json}" \
  -n waterflow@2 "$B render $S -o $T/w2.png --scale 2" \
  -n cairo-c@2 "$T/render_cairo $S $T/c2.png 0 2" \
  -n waterflow@4 "$B render $S -o $T/w4.png --scale 4" \
  -n cairo-c@4 "$T/render_cairo $S $T/c4.png 0 4"
python3 - "${EXPORT:-$T/bench.json}" <<'PY'
import json, sys
r = {x["command"]: x["median"] for x in json.load(open(sys.argv[1]))["results"]}
for s in (2, 4):
    w, c = r["waterflow@%d" % s], r["cairo-c@%d" % s]
    print("scale %d: waterflow render %.1f ms, C with cairo %.1f ms (medians): ratio %.2f"
          % (s, w * 1e3, c * 1e3, w / c))
PY
