#!/bin/sh
# The live preview's speed (not run by the tests): from a save to the page's updated images, in
# headless Chromium, for one changed template with 12 pins (3 devices × 2 locales × 2
# appearances: a shot file over the notes feed) and with one pin. Each figure is the median of
# RUNS saves, alternating two versions of the template so that every save changes every pin.
# The save time is taken just before the rename; the update time is the latest `load` event of
# the pins' images, both on the machine's clock.
# SCALE=1 measures `preview --scale 1`.
# Needs: chromium, chromium-driver and python3-selenium (as `make test` installs them).
# Builds the binary as `make release` does unless NOBUILD=1.
set -eu
cd "$(dirname "$0")/../../.."
[ "${NOBUILD:-0}" = 1 ] || make -s release >/dev/null
B=$PWD/.build/release/waterflow
RUNS=${RUNS:-9}
T=$(mktemp -d)
trap 'kill $P 2>/dev/null || true; rm -rf "$T"' EXIT
cp -r Assets/Shots Assets/Feeds "$T/"
cat > "$T/Shots/preview.json" <<'JSON'
{
  "scenes": ["notes.json"],
  "devices": ["iphone-6.9", "iphone-4.7", "ipad-13"],
  "appearances": ["light", "dark"],
  "locales": {"en": "strings/en.json", "ar": "strings/ar.json"}
}
JSON

measure() {  # label, pins file (or empty for the shot file's 12)
  label=$1
  rm -f "$T/Shots/preview.json.preview.json"
  [ -z "$2" ] || printf '%s\n' "$2" > "$T/Shots/preview.json.preview.json"
  rm -f "$T/out"
  "$B" preview --no-open --port 0 ${SCALE:+--scale $SCALE} "$T/Shots/preview.json" > "$T/out" 2>/dev/null &
  P=$!
  while ! grep -q "Preview at" "$T/out" 2>/dev/null; do sleep 0.1; done
  python3 - "$(sed 's/Preview at //' "$T/out")" "$T/Shots/notes.json" "$RUNS" "$label" <<'PY'
import os, socket, statistics, subprocess, sys, tempfile, time
from selenium import webdriver
address, scene, runs, label = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def until(check, seconds=60):
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline: raise SystemExit("gave up")
        time.sleep(0.002)
def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0)); return s.getsockname()[1]
profile = tempfile.mkdtemp()
browser = subprocess.Popen(["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000",
    "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", f"--user-data-dir={profile}", "about:blank"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
active = os.path.join(profile, "DevToolsActivePort")
until(lambda: os.path.exists(active) and open(active).read().strip())
port = free_port()
driver_process = subprocess.Popen(["chromedriver", f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def up():
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close(); return True
    except OSError: return False
until(up)
options = webdriver.ChromeOptions(); options.debugger_address = "127.0.0.1:" + open(active).read().split()[0]
driver = webdriver.Remote(command_executor=f"http://127.0.0.1:{port}", options=options)
good = open(scene).read()
try:
    driver.get(address)
    count = lambda: driver.execute_script("return document.querySelectorAll('figure .frame img').length")
    until(lambda: count() > 0 and driver.execute_script("return [...document.querySelectorAll('figure .frame img')].every(i => i.complete && i.naturalWidth > 0)"))
    pins = count()
    # Every image load, on the machine's clock.
    driver.execute_script("window.loads = []; document.addEventListener('load', e => { if (e.target.tagName === 'IMG') window.loads.push(performance.timeOrigin + performance.now()); }, true);")
    variants = [good.replace('"size": 13, "weight": "medium"', '"size": 14, "weight": "medium"'), good]
    times, server = [], []
    for run in range(runs):
        driver.execute_script("window.loads = []")
        with open(scene + ".tmp", "w") as f: f.write(variants[run % 2])
        saved = time.time() * 1000
        os.replace(scene + ".tmp", scene)
        until(lambda: driver.execute_script("return window.loads.length") >= pins)
        times.append(max(driver.execute_script("return window.loads")) - saved)
        # The server's own share: loading the file and drawing the pins it redrew.
        redraw = driver.execute_async_script("const done = arguments[arguments.length - 1]; fetch('/api/state?since=-1').then(r => r.json()).then(s => done(s.redraw))")
        server.append(redraw["loadMilliseconds"] + redraw["drawMilliseconds"])
    print(f"{label}: {pins} pins, median {statistics.median(times):.0f} ms (runs: {' '.join(f'{t:.0f}' for t in times)}); "
          f"the server's load and drawing {statistics.median(server):.0f} ms")
finally:
    with open(scene, "w") as f: f.write(good)  # as it was, for the next measurement
    driver.quit(); browser.kill(); driver_process.kill()
PY
  kill $P; wait $P 2>/dev/null || true
}
measure "12 pins" ""
measure "1 pin" '{"pins": [{"scene": "notes", "offset": 0, "device": "iphone-6.9", "appearance": "light", "locale": "en"}]}'
