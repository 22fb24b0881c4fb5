#!/bin/sh
# Peer benchmark (not run by the tests): waterflow beside the outside tools it is measured against,
# in the same run so the ratios share the machine's load.
#  1. Diff: two pairs of bench-scene.json frames 3-4 pt apart (750x1334 px at scale 2, offsets
#     300/303; 1500x2668 px at scale 4, offsets 600/604), each compared, diff image written, by
#     `waterflow diff`, odiff 4.5 (--antialiasing) and the pixelmatch 7.2.0 CLI (threshold 0.1).
#     Whole processes under hyperfine -N, in ROUNDS rounds that alternate the tools' order
#     (RUNS runs of each in all, default 15; medians over every round), the pixel counts each tool
#     reports, and peak RSS (GNU time %M, median of MEMRUNS runs).
#  2. Encode: the frames `waterflow bench` takes its encoder figures on (flat: the reference
#     frame at 1500x2668; photo: the notes feed's first screen at 750x1624; written by
#     `bench --write-bench-frames` where the binary has it, else rendered), each encoded by fpnge
#     (level 1: Up for every row; level 2: Paeth for every row, the fast level issue 43 measures
#     against; level 4: its default, the cheapest filter per row), fpng (default, and
#     FPNG_ENCODE_SLOWER: two passes) and `waterflow bench --encode FILE`: median ms of ERUNS
#     in-process encodes, and bytes. Targets: the flat frame at least as fast as fpnge level 2 in
#     at most 0.85 of its bytes; the photo frame at least as fast as fpnge level 4 in at most its
#     bytes.
# Builds no peer and downloads nothing: each is taken from the environment, and a missing one skips
# only its own figures. The encode drivers are small C++ programs around each library (libpng
# decodes the PNG to 8-bit RGB/RGBA, then the library's encode call is timed in-process with
# steady_clock): `fpnge-encode IN.png OUT.png RUNS LEVEL` and `fpng-encode IN.png OUT.png RUNS
# FLAGS` print "median_ms bytes" and write OUT.png.
#   PEERS=/work/peers  ODIFF=$PEERS/bin/odiff  FPNGE=$PEERS/bin/fpnge-encode
#   FPNG=$PEERS/bin/fpng-encode  PIXELMATCH=$PEERS/pixelmatch/bin/pixelmatch (pngjs in its
#   node_modules)  NODE=node  B=.build/release/waterflow
# Needs: hyperfine, python3, /usr/bin/time. Builds the binary as `make release` does unless
# NOBUILD=1.
set -eu
cd "$(dirname "$0")/../../.."
[ "${NOBUILD:-0}" = 1 ] || make -s release >/dev/null
B=${B:-.build/release/waterflow}
[ -x "$B" ] || { echo "no waterflow binary at $B (set B=…, or drop NOBUILD=1)"; exit 1; }
PEERS=${PEERS:-/work/peers}
ODIFF=${ODIFF:-$PEERS/bin/odiff}
FPNGE=${FPNGE:-$PEERS/bin/fpnge-encode}
FPNG=${FPNG:-$PEERS/bin/fpng-encode}
PIXELMATCH=${PIXELMATCH:-$PEERS/pixelmatch/bin/pixelmatch}
NODE=${NODE:-node}
RUNS=${RUNS:-15}
ROUNDS=${ROUNDS:-5}
MEMRUNS=${MEMRUNS:-5}
ERUNS=${ERUNS:-15}
S=Tests/WaterflowMotionTests/Bench/bench-scene.json
NOTES=Assets/Feeds/notes.json
# In memory (/dev/shm) unless BENCH_DIR says otherwise, as bench.sh explains.
if [ -z "${BENCH_DIR:-}" ]; then
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then BENCH_DIR=/dev/shm; else BENCH_DIR=/tmp; fi
fi
T=$(mktemp -d -p "$BENCH_DIR")
trap 'rm -rf "$T"' EXIT

# Which peers are here: each missing one is named once, and only its comparisons are skipped.
has_odiff=0 has_pm=0 has_fpnge=0 has_fpng=0
missing() { echo "missing: $*"; }
if [ -x "$ODIFF" ]; then has_odiff=1; else missing "odiff (set ODIFF=… to a built odiff 4.5)"; fi
if ! command -v "$NODE" >/dev/null 2>&1; then
  missing "node (set NODE=… to a Node.js binary, for pixelmatch)"
elif [ ! -f "$PIXELMATCH" ]; then
  missing "pixelmatch (set PIXELMATCH=… to pixelmatch 7.2.0's bin/pixelmatch," \
    "pngjs in its node_modules)"
else has_pm=1; fi
if [ -x "$FPNGE" ]; then has_fpnge=1; else missing "fpnge (set FPNGE=… to a built fpnge-encode driver)"; fi
if [ -x "$FPNG" ]; then has_fpng=1; else missing "fpng (set FPNG=… to a built fpng-encode driver)"; fi
has_time=1
[ -x /usr/bin/time ] || { has_time=0; missing "/usr/bin/time (apt-get install time): no peak RSS"; }
has_hf=1
command -v hyperfine >/dev/null 2>&1 ||
  { has_hf=0; missing "hyperfine (apt-get install hyperfine): no diff timings"; }
[ $has_odiff = 0 ] || echo "odiff: $("$ODIFF" --version 2>&1 | head -1) ($ODIFF)"
[ $has_pm = 0 ] || python3 - "$PIXELMATCH" "$("$NODE" --version 2>&1)" <<'PY'
import json, os, sys
root = os.path.dirname(os.path.dirname(os.path.realpath(sys.argv[1])))
def version(path):
    try: return json.load(open(path))["version"]
    except Exception: return "?"
print("pixelmatch: %s, pngjs %s, node %s (%s)" % (version(root + "/package.json"),
      version(root + "/node_modules/pngjs/package.json"), sys.argv[2], sys.argv[1]))
PY
echo "outputs in $T ($(stat -f -c %T "$T"))"

# --- 1. Diff --------------------------------------------------------------------------------------
render() { "$B" render "$S" -o "$T/$1.png" --scale "$2" --offset "$3" >/dev/null; }
render a2 2 300; render b2 2 303; render a4 4 600; render b4 4 604

# check NAME EXPECTED-CODES CMD...: one untimed run, output kept in $T/NAME.out; a tool that exits
# with any other status (a crash, pngjs not found) is reported and dropped from the pair.
check() {
  name=$1 codes=$2; shift 2
  rc=0; "$@" >"$T/$name.out" 2>&1 || rc=$?
  case " $codes " in *" $rc "*) return 0 ;; esac
  echo "  $name failed (exit $rc): $(head -c 300 "$T/$name.out" | tr '\n' ' ')"
  return 1
}
# peak CMD...: median peak RSS in KB of MEMRUNS runs.
peak() {
  : >"$T/mem"; i=0
  while [ $i -lt "$MEMRUNS" ]; do
    /usr/bin/time -f %M -o "$T/m1" "$@" >/dev/null 2>&1 || true
    tail -1 "$T/m1" >>"$T/mem"; i=$((i + 1))
  done
  sort -n "$T/mem" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

for pair in "2 750x1334 300/303" "4 1500x2668 600/604"; do
  set -- $pair
  A=$T/a$1.png P=$T/b$1.png size=$2 offsets=$3
  echo "diff $size (bench-scene.json at offsets $offsets):"
  OURS="$B diff $A $P -o $T/d-ours.png"
  OD="$ODIFF $A $P $T/d-odiff.png --antialiasing"
  PM="$NODE $PIXELMATCH $A $P $T/d-pm.png 0.1"
  use_ours=0 use_od=0 use_pm=0
  check ours "0 1" $OURS --json && use_ours=1
  [ $has_odiff = 0 ] || { check odiff "0 22" $OD && use_od=1; }
  [ $has_pm = 0 ] || { check pixelmatch "0 66" $PM && use_pm=1; }
  mem_ours=- mem_od=- mem_pm=-
  if [ $has_time = 1 ]; then
    [ $use_ours = 0 ] || mem_ours=$(peak $OURS)
    [ $use_od = 0 ] || mem_od=$(peak $OD)
    [ $use_pm = 0 ] || mem_pm=$(peak $PM)
  fi
  if [ $has_hf = 1 ]; then
    per=$(((RUNS + ROUNDS - 1) / ROUNDS)) r=1
    while [ $r -le "$ROUNDS" ]; do
      # Odd rounds ours first, even rounds ours last: neither side always runs on a warmer machine.
      set --
      [ $use_ours = 0 ] || set -- "$@" -n ours "$OURS"
      [ $use_od = 0 ] || set -- "$@" -n odiff "$OD"
      [ $use_pm = 0 ] || set -- "$@" -n pixelmatch "$PM"
      if [ $((r % 2)) = 0 ]; then
        set --
        [ $use_pm = 0 ] || set -- "$@" -n pixelmatch "$PM"
        [ $use_od = 0 ] || set -- "$@" -n odiff "$OD"
        [ $use_ours = 0 ] || set -- "$@" -n ours "$OURS"
      fi
      # -i: a diff that finds differences exits 1 (ours), 22 (odiff) or 66 (pixelmatch); each
      # tool's exit status was checked above.
      hyperfine -N -i --style none --warmup 1 --runs "$per" --export-json "$T/hf$r.json" "$@" \
        >/dev/null 2>&1
      r=$((r + 1))
    done
  fi
  python3 - "$T" "$ROUNDS" "$has_hf" "$use_ours" "$use_od" "$use_pm" \
    "$mem_ours" "$mem_od" "$mem_pm" <<'PY'
import json, re, statistics, sys
T, rounds, has_hf = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
use = dict(zip(("ours", "odiff", "pixelmatch"), (a == "1" for a in sys.argv[4:7])))
mem = dict(zip(("ours", "odiff", "pixelmatch"), sys.argv[7:10]))
times = {k: [] for k in use}
if has_hf:
    for r in range(1, rounds + 1):
        for x in json.load(open("%s/hf%d.json" % (T, r)))["results"]:
            times[x["command"]] += x["times"]
ms = {k: statistics.median(v) * 1e3 for k, v in times.items() if v}

def count(name):
    text = open("%s/%s.out" % (T, name)).read()
    if name == "ours":
        m = re.search(r'"mismatched":\s*(\d+)', text)
    elif name == "odiff":
        if "identical" in text: return "0"
        m = re.search(r"Found (\d+) different pixels", text)
    else:
        m = re.search(r"different pixels: (\d+)", text)
    return m.group(1) if m else "? (%s)" % text.strip().replace("\n", " ")[:120]

labels = {"ours": "waterflow diff", "odiff": "odiff --antialiasing", "pixelmatch": "pixelmatch CLI"}
for k in ("ours", "odiff", "pixelmatch"):
    if not use[k]: continue
    t = "%9.1f ms" % ms[k] if k in ms else "         -"
    m = "%6.1f MB peak" % (int(mem[k]) / 1024) if mem[k].isdigit() else "             "
    print("  %-21s %s (median of %d)  %s  %s pixels differ"
          % (labels[k], t, len(times[k]), m, count(k)))
if "ours" in ms:
    line = []
    if "odiff" in ms:
        line.append("vs odiff %.2fx (odiff ms / ours; target >= 1.2)" % (ms["odiff"] / ms["ours"]))
    if "pixelmatch" in ms:
        line.append("vs pixelmatch %.1fx" % (ms["pixelmatch"] / ms["ours"]))
    if mem["ours"].isdigit() and mem["odiff"].isdigit():
        line.append("peak RSS ours/odiff %.2f" % (int(mem["ours"]) / int(mem["odiff"])))
    if line: print("  speed: " + "; ".join(line))
PY
done

# --- 2. Encode ------------------------------------------------------------------------------------
BH=$("$B" bench --help 2>&1 || true)
mkdir -p "$T/frames"
if printf '%s' "$BH" | grep -q -- --write-bench-frames; then
  "$B" bench --write-bench-frames "$T/frames" >/dev/null
  echo "encode frames: waterflow bench --write-bench-frames (the frames its encoder figures use)"
else
  cp "$T/a4.png" "$T/frames/flat.png"
  "$B" render "$NOTES" -o "$T/frames/photo.png" --scale 2 >/dev/null
  echo "encode frames: rendered (flat: bench-scene.json --scale 4 --offset 600;" \
    "photo: $NOTES --scale 2)"
fi
ours_encode=0
if printf '%s' "$BH" | grep -q -- '--encode <'; then ours_encode=1
else echo "waterflow bench --encode not available in this binary"; fi
runs_flag=
printf '%s' "$BH" | grep -q -- --runs && runs_flag="--runs $ERUNS"

for kind in flat photo; do
  F=$T/frames/$kind.png
  [ -f "$F" ] || { echo "encode $kind: no frame"; continue; }
  : >"$T/enc"
  if [ $ours_encode = 1 ]; then
    "$B" bench --encode "$F" $runs_flag >"$T/ours-enc.out" 2>&1 ||
      echo "  waterflow bench --encode failed: $(head -c 300 "$T/ours-enc.out")"
  fi
  # peer LABEL DRIVER ARG: "LABEL ms bytes same-pixels" into $T/enc
  peer() {
    out=$("$2" "$F" "$T/$kind-$3.png" "$ERUNS" "$3" 2>&1) || { echo "  $1 failed: $out"; return 0; }
    same=same
    "$B" diff --threshold 0 --include-aa "$F" "$T/$kind-$3.png" >/dev/null 2>&1 || same=DIFFERENT
    echo "$1|$out|$same" >>"$T/enc"
  }
  [ $has_fpnge = 0 ] || {
    peer "fpnge level 1 (Up)" "$FPNGE" 1
    peer "fpnge level 2 (Paeth)" "$FPNGE" 2
    peer "fpnge default (level 4)" "$FPNGE" 4
  }
  [ $has_fpng = 0 ] || { peer "fpng default" "$FPNG" 0; peer "fpng slower (two-pass)" "$FPNG" 1; }
  python3 - "$F" "$kind" "$T/enc" "$T/ours-enc.out" "$ours_encode" <<'PY'
import re, struct, sys
F, kind, enc, ours_out = sys.argv[1:5]
have = sys.argv[5] == "1"
w, h = struct.unpack(">II", open(F, "rb").read()[16:24])
print("encode %s frame, %dx%d (median of in-process encodes):" % (kind, w, h))
ours = None
if have:
    text = open(ours_out).read()
    # Loosely: "… <ms> ms <bytes> bytes" on a line, or lines "…_ms: <ms>" and "…_bytes: <bytes>".
    m = re.search(r"([\d.]+)\s*ms\b.*?([\d.]+)\s*bytes", text)
    if m: ours = (float(m.group(1)), float(m.group(2)))
    else:
        a, b = re.search(r"_ms:\s*([\d.]+)", text), re.search(r"_bytes:\s*([\d.]+)", text)
        if a and b: ours = (float(a.group(1)), float(b.group(1)))
    if ours: print("  %-26s %8.2f ms %9d bytes" % ("waterflow (frames)", ours[0], ours[1]))
    else: print("  waterflow: could not read ms and bytes from: %s" % text.strip()[:200])
for line in open(enc):
    label, figures, same = line.rstrip("\n").split("|")
    ms, size = figures.split()[:2]
    ms, size = float(ms), int(size)
    ratio = ""
    if ours:
        ratio = "  peer/ours time %.2fx, ours/peer bytes %.3f" % (ms / ours[0], ours[1] / size)
    print("  %-26s %8.2f ms %9d bytes%s%s" % (label, ms, size, ratio,
          "" if same == "same" else "  (DECODES TO OTHER PIXELS)"))
PY
done
