internal import WaterflowJSON
internal import WaterflowReview
internal import Foundation

/// The preview page: one file with its style and script inline (the review's base style), so
/// it works offline under the server's Content-Security-Policy.
///
/// It long-polls `/api/state`, swaps the images of the pins that changed without reloading (the
/// scroll position stays), outlines them until the next save, and offers a blink of old against
/// new. A file that does not load shows its error where the pins are, over the last good images,
/// greyed. Hovering a cell shows its item's data. Keys: b blink the changed pins, f every cell's
/// frame and item with its template's boxes (padding, spacing, baselines), t the texts cut with
/// "…", s the selected pin's contact strip, r record the selected pin as a golden, a accept the selected golden (a
/// manifest's preview shows each golden beside its drawing, with `golden check`'s verdict), ? help.
enum PreviewPage {
  static func html(title: String) -> String {
    page.replacingOccurrences(of: "{{BASE_STYLE}}", with: ReviewPage.baseStyle)
      .replacingOccurrences(of: "{{TITLE}}", with: escapeHTML(title))
  }

  private static let page = #"""
    <!DOCTYPE html>
    <html lang="en"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Preview · {{TITLE}}</title>
    <style>
    {{BASE_STYLE}}
    body { height:auto; min-height:100vh; }
    #status { font-size:12px; color:#555; }
    #error { display:none; margin:12px 14px 0; padding:10px 12px; border:1px solid var(--bad); border-left-width:5px; background:#fff5f5; color:#5d0000; white-space:pre-wrap; font:12px/1.45 ui-monospace, monospace; }
    main { display:flex; flex-wrap:wrap; gap:16px; padding:14px; align-items:flex-start; }
    main.broken figure img { opacity:.35; filter:grayscale(1); }
    figure { margin:0; background:#fff; border:1px solid var(--line); border-radius:6px; padding:8px; }
    figure.changed { outline:2px solid var(--accent); outline-offset:2px; }
    figure.selected { box-shadow:0 0 0 3px #ffb300; }
    .pair { display:flex; gap:6px; }
    .pair .expected { display:none; }
    figure.golden .pair .expected { display:block; }
    .pair .expected img { opacity:.9; }
    .golden-line { font-size:11px; margin-top:4px; max-width:calc(2 * var(--w) + 6px); white-space:pre-wrap; }
    .golden-line b { text-transform:uppercase; font-size:10px; padding:0 4px; border-radius:3px; color:#fff; background:var(--ok); }
    figure.failed .golden-line b, figure.missing .golden-line b { background:var(--bad); }
    figure:not(.golden) .accept, figure.golden .record, figure.golden .remove, figure.atop .stripbutton, figure.golden a.full { display:none; }
    figure img { display:block; width:var(--w); height:auto; background:#eee; }
    figcaption { font-size:12px; color:#444; margin-top:6px; display:flex; gap:6px; align-items:center; justify-content:space-between; }
    figcaption button { padding:0 6px; font-size:12px; }
    .warn { font-size:11px; color:#8a4b00; max-width:var(--w); overflow-wrap:anywhere; }
    .pinerror { font-size:11px; color:var(--bad); max-width:var(--w); overflow-wrap:anywhere; }
    form { display:flex; gap:6px; align-items:center; font-size:12px; }
    form input { width:70px; font:inherit; }
    form select { font:inherit; }
    label.size { font-size:12px; }
    #toast { pointer-events:none; }
    #tip { position:fixed; display:none; pointer-events:none; background:#fff; border:1px solid #999; border-radius:4px; box-shadow:0 2px 8px rgba(0,0,0,.2); padding:6px 8px; font:11px/1.4 ui-monospace, monospace; max-width:420px; white-space:pre-wrap; z-index:2; }
    figure .hit { position:absolute; outline:1px solid var(--accent); pointer-events:none; display:none; }
    figure .frame { position:relative; overflow:hidden; }
    .cells { position:absolute; inset:0; pointer-events:none; display:none; }
    body.show-frames .cells { display:block; }
    .cells div { position:absolute; outline:1px dashed #e91e63; }
    .cells span { position:absolute; left:1px; top:1px; font:10px/1 ui-monospace, monospace; background:#e91e63; color:#fff; padding:1px 2px; }
    .fitmarks { position:absolute; inset:0; pointer-events:none; display:none; }
    body.show-fits .fitmarks { display:block; }
    .fitmarks div { position:absolute; outline:2px solid #ff6d00; background:rgba(255,109,0,.15); }
    .fitcount { font-size:11px; color:#b34700; }
    svg.boxes { position:absolute; inset:0; width:100%; height:100%; pointer-events:none; display:none; }
    body.show-frames svg.boxes { display:block; }
    svg.boxes .pad { fill:rgba(76,175,80,.28); fill-rule:evenodd; }
    svg.boxes .gap { fill:rgba(255,152,0,.38); }
    svg.boxes .box { fill:none; stroke:#1565c0; stroke-width:1; vector-effect:non-scaling-stroke; opacity:.8; }
    svg.boxes .box.text { stroke:#6a1b9a; }
    svg.boxes .base { stroke:#d50000; stroke-width:1; vector-effect:non-scaling-stroke; }
    #legend { display:none; font-size:11px; gap:10px; align-items:center; }
    body.show-frames #legend { display:flex; }
    #legend i { display:inline-block; width:12px; height:10px; vertical-align:middle; margin-right:3px; }
    .strip { display:none; margin-top:6px; max-width:calc(2 * var(--w)); }
    .strip img { display:block; width:100%; height:auto; border:1px solid var(--line); }
    .strip div { font-size:11px; color:#555; }
    figure.with-strip .strip { display:block; }
    a.full { font-size:12px; }
    </style></head>
    <body>
    <header>
      <h1>Preview · {{TITLE}}</h1>
      <span id="status">connecting…</span>
      <button id="blink" title="Blink the changed pins, old against new (b)">Blink changes</button>
      <button id="frames" title="Show every cell's frame and item, with its template's boxes: padding, spacing, baselines (f)">Frames</button>
      <button id="fits" title="Mark the texts cut with … because they do not fit (t)">Fits</button>
      <span id="legend"><span><i style="outline:1px dashed #e91e63"></i>cell</span><span><i style="border:1px solid #1565c0"></i>element</span><span><i style="background:rgba(76,175,80,.5)"></i>padding</span><span><i style="background:rgba(255,152,0,.6)"></i>spacing</span><span><i style="border-bottom:2px solid #d50000;height:6px"></i>baseline</span></span>
      <label class="size">width <input id="width" type="range" min="120" max="600" value="260"></label>
      <form id="add">
        <select name="scene"></select>
        <input name="offset" type="number" value="0" step="1" title="offset in points">
        <select name="device"></select>
        <select name="appearance"><option>light</option><option>dark</option></select>
        <select name="locale"></select>
        <button type="submit">Pin</button>
      </form>
    </header>
    <div id="error"></div>
    <main id="pins"></main>
    <div id="toast"></div>
    <div id="tip"></div>
    <script>
    "use strict";
    let version = -1, blinking = null, pins = new Map();
    const main = document.getElementById("pins");
    // One toast at a time: a new one restarts the clock, so "Recording…" cannot hide "Recorded".
    let toastTimer = 0;
    const toast = (text, bad) => { const t = document.getElementById("toast"); t.textContent = text; t.className = bad ? "error" : ""; t.style.display = "block"; clearTimeout(toastTimer); toastTimer = setTimeout(() => t.style.display = "none", 4000); };
    const api = (path, body) => fetch(path, body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }).then(r => r.json().then(j => { if (!r.ok) throw new Error(j.error || r.status); return j; }));
    function options(select, values) {
      const current = select.value;
      if (select.dataset.values === values.join("\n")) return;
      select.dataset.values = values.join("\n");
      select.replaceChildren(...values.map(v => { const o = document.createElement("option"); o.textContent = v; return o; }));
      if (values.includes(current)) select.value = current;
    }
    function render(s) {
      const err = document.getElementById("error");
      err.style.display = s.error ? "block" : "none";
      err.textContent = s.error ? s.error + "\n\nThe last good images stay below, greyed, until the file loads again." : "";
      main.classList.toggle("broken", !!s.error);
      const form = document.getElementById("add");
      form.style.display = s.manifest ? "none" : "";
      options(form.scene, s.scenes); options(form.device, s.devices); options(form.locale, s.locales);
      // Pins that changed since the last save are those drawn at the newest version.
      const newest = Math.max(0, ...s.pins.map(p => p.changedAt));
      const ids = new Set(s.pins.map(p => String(p.id)));
      pins = new Map(s.pins.map(p => [String(p.id), p]));
      for (const figure of [...main.children]) if (!ids.has(figure.dataset.id)) figure.remove();
      for (const pin of s.pins) {
        let figure = main.querySelector(`figure[data-id="${pin.id}"]`);
        if (!figure) {
          figure = document.createElement("figure");
          figure.dataset.id = pin.id;
          figure.innerHTML = `<div class="pair"><div class="frame"><img alt=""><svg class="boxes" preserveAspectRatio="none"></svg><div class="cells"></div><div class="fitmarks"></div><div class="hit"></div></div><div class="expected" title="The golden as recorded"><img alt="" class="golden-img"></div></div><figcaption><span class="label"></span><span><button class="accept" title="Accept this drawing as the golden (a)">Accept</button><button class="stripbutton" title="A contact strip of the scroll to this pin, new and reused cells marked (s)">Strip</button><button class="record" title="Record this pin as a golden (r)">Record</button> <a class="full" target="_blank" title="The pin at full size">full</a> <button class="remove" title="Remove this pin">×</button></span></figcaption><div class="strip"><div>Scrolling from the top to this pin: green cells were created, orange ones reused from the pool, since the frame before.</div><img alt="contact strip"></div><div class="golden-line"></div><div class="fitcount"></div><div class="pinerror"></div><div class="warn"></div>`;
          figure.querySelector("button.accept").onclick = () => accept(pin.id);
          figure.querySelector("button.remove").onclick = () => api("/api/pins", { remove: pin.id }).then(() => toast("Pin removed"), e => toast(e.message, true));
          figure.querySelector("button.record").onclick = () => record(pin.id);
          figure.querySelector("button.stripbutton").onclick = e => { e.stopPropagation(); strip(figure); };
          figure.querySelector("a.full").href = `/pins/${pin.id}.full.png`;
          figure.onclick = () => select(figure);
          const frame = figure.querySelector(".frame"), hit = figure.querySelector(".hit"), tip = document.getElementById("tip");
          frame.onmousemove = e => {
            const img = frame.querySelector("img"), current = pins.get(String(pin.id));
            if (!current || !img.naturalWidth) return;
            const k = current.width / img.clientWidth, x = e.offsetX * k, y = e.offsetY * k;
            const cell = current.cells.find(c => x >= c.x && x < c.x + c.width && y >= c.y && y < c.y + c.height);
            if (!cell) { tip.style.display = hit.style.display = "none"; return; }
            Object.assign(hit.style, { display: "block", left: cell.x / k + "px", top: cell.y / k + "px", width: cell.width / k + "px", height: cell.height / k + "px" });
            tip.textContent = `item ${cell.item}\n` + Object.entries(cell.data).map(([f, v]) => `${f}: ${v}`).join("\n");
            Object.assign(tip.style, { display: "block", left: Math.min(e.clientX + 14, innerWidth - 430) + "px", top: e.clientY + 14 + "px" });
          };
          frame.onmouseleave = () => { tip.style.display = hit.style.display = "none"; };
          main.appendChild(figure);
        }
        figure.querySelector(".label").textContent = pin.label;
        const img = figure.querySelector(".frame img");
        figure.classList.toggle("golden", !!pin.golden);
        for (const status of ["failed", "missing", "matched"]) figure.classList.toggle(status, !!pin.golden && pin.golden.status === status);
        if (pin.golden) {
          const line = figure.querySelector(".golden-line");
          line.innerHTML = "<b></b> <span></span>";
          line.querySelector("b").textContent = pin.golden.status === "matched" ? "passes" : pin.golden.status;
          line.querySelector("span").textContent = pin.golden.verdict;
          const expected = figure.querySelector(".golden-img");
          if (pin.golden.hasExpected) expected.src = `/pins/${pin.id}.expected.png?at=${pin.changedAt}-${pin.golden.status}`;
          else expected.removeAttribute("src");
        }
        if (pin.hasImage && img.dataset.at !== String(pin.changedAt)) { img.dataset.at = pin.changedAt; img.src = `/pins/${pin.id}.png?at=${pin.changedAt}`; }
        figure.classList.toggle("changed", pin.hasPrevious && pin.changedAt === newest);
        const cells = figure.querySelector(".cells");
        cells.replaceChildren(...pin.cells.map(c => { const d = document.createElement("div"); d.dataset.box = [c.x, c.y, c.width, c.height].join(","); const label = document.createElement("span"); label.textContent = c.item; d.appendChild(label); return d; }));
        figure.querySelector(".fitmarks").replaceChildren(...pin.truncated.map(t => { const d = document.createElement("div"); d.dataset.box = [t.x, t.y, t.width, t.height].join(","); d.title = t.text; return d; }));
        figure.querySelector(".fitcount").textContent = pin.truncated.length ? `${pin.truncated.length} text${pin.truncated.length === 1 ? "" : "s"} cut with … (t marks them)` : "";
        figure.dataset.width = pin.width;
        figure.querySelector("svg.boxes").setAttribute("viewBox", `0 0 ${pin.width} ${pin.height}`);
        figure.classList.toggle("atop", pin.pin.offset === 0 || !!pin.golden);
        if (figure.dataset.layoutAt !== String(pin.changedAt)) { figure.dataset.layoutAt = pin.changedAt; figure.dataset.layoutShown = ""; }
        if (document.body.classList.contains("show-frames")) showBoxes(figure);
        if (figure.classList.contains("with-strip")) figure.querySelector(".strip img").src = `/pins/${pin.id}.strip.png?at=${pin.changedAt}`;
        placeCells(figure);
        figure.querySelector(".pinerror").textContent = pin.error || "";
        figure.querySelector(".warn").textContent = pin.warnings.join("\n");
      }
      const r = s.redraw ? ` · last save: ${s.redraw.pins} redrawn in ${Math.round(s.redraw.loadMilliseconds + s.redraw.drawMilliseconds)} ms` : "";
      document.getElementById("status").textContent = `${s.pins.length} pins · ${s.error ? "the file does not load" : "watching for saves"}${r}`;
    }
    async function poll() {
      for (;;) {
        try {
          const s = await api(`/api/state?since=${version}`);
          if (s.version !== version) { version = s.version; render(s); }
        } catch (e) {
          document.getElementById("status").textContent = "disconnected: is `waterflow preview` still running?";
          await new Promise(r => setTimeout(r, 1000));
        }
      }
    }
    // The frames overlay in CSS pixels of the image as shown: placed again when it loads or resizes.
    function placeCells(figure) {
      const img = figure.querySelector("img");
      if (!img.naturalWidth || !img.clientWidth) return;
      const k = Number(figure.dataset.width || img.naturalWidth) / img.clientWidth;
      for (const d of figure.querySelectorAll(".cells div, .fitmarks div")) {
        const [x, y, w, h] = d.dataset.box.split(",").map(Number);
        Object.assign(d.style, { left: x / k + "px", top: y / k + "px", width: w / k + "px", height: h / k + "px" });
      }
    }
    document.addEventListener("load", e => { if (e.target.tagName === "IMG") placeCells(e.target.closest("figure")); }, true);
    function frames() { document.body.classList.toggle("show-frames"); document.getElementById("frames").classList.toggle("on"); for (const f of main.children) { placeCells(f); if (document.body.classList.contains("show-frames")) showBoxes(f); } }
    // The template's box tree of every cell (padding, spacing, elements, baselines), fetched
    // once per drawing, in the drawing's pixels: the SVG's viewBox scales it with the image.
    function showBoxes(figure) {
      if (figure.dataset.layoutShown === figure.dataset.layoutAt) return;
      figure.dataset.layoutShown = figure.dataset.layoutAt;
      fetch(`/pins/${figure.dataset.id}.layout.json?at=${figure.dataset.layoutAt}`).then(r => r.json()).then(boxes => {
        const ns = "http://www.w3.org/2000/svg", svg = figure.querySelector("svg.boxes"), parts = [];
        const rect = (r, cls) => { const e = document.createElementNS(ns, "rect"); e.setAttribute("class", cls); [["x", r[0]], ["y", r[1]], ["width", r[2]], ["height", r[3]]].forEach(([k, v]) => e.setAttribute(k, v)); return e; };
        const outline = r => `M${r[0]} ${r[1]}h${r[2]}v${r[3]}h${-r[2]}z`;
        for (const b of boxes) {
          if (b.content) { const e = document.createElementNS(ns, "path"); e.setAttribute("class", "pad"); e.setAttribute("d", outline(b.frame) + outline(b.content)); parts.push(e); }
          for (const g of b.gaps) parts.push(rect(g, "gap"));
          if (b.kind !== "cell") { const e = rect(b.frame, "box " + b.kind); const t = document.createElementNS(ns, "title"); t.textContent = `item ${b.item}: ${b.kind}`; e.appendChild(t); parts.push(e); }
          for (const y of b.baselines) { const e = document.createElementNS(ns, "line"); e.setAttribute("class", "base"); e.setAttribute("x1", b.frame[0]); e.setAttribute("x2", b.frame[0] + b.frame[2]); e.setAttribute("y1", y); e.setAttribute("y2", y); parts.push(e); }
        }
        svg.replaceChildren(...parts);
      }, () => { figure.dataset.layoutShown = ""; });
    }
    function strip(figure) {
      const pin = pins.get(figure.dataset.id);
      if (!pin) return;
      if (pin.pin.offset === 0 && !pin.golden) { toast("This pin is at the top, so it has no scroll: pin a screen further down", true); return; }
      if (pin.golden) { toast("A golden's pin has no strip: preview its scene", true); return; }
      figure.classList.toggle("with-strip");
      const img = figure.querySelector(".strip img");
      if (figure.classList.contains("with-strip")) img.src = `/pins/${pin.id}.strip.png?at=${pin.changedAt}`;
    }
    document.getElementById("frames").onclick = frames;
    function fits() { document.body.classList.toggle("show-fits"); document.getElementById("fits").classList.toggle("on"); for (const f of main.children) placeCells(f); }
    document.getElementById("fits").onclick = fits;
    function select(figure) { for (const f of main.querySelectorAll("figure.selected")) f.classList.remove("selected"); figure.classList.add("selected"); }
    function record(id) {
      toast("Recording…");
      api("/api/record", { id }).then(r => toast(`Recorded ${r.name} in ${r.manifest}`), e => toast(e.message, true));
    }
    function accept(id) {
      toast("Accepting…");
      api("/api/accept", { id }).then(r => toast(`Accepted ${r.name}`), e => toast(e.message, true));
    }
    function blink() {
      if (blinking) { clearInterval(blinking); blinking = null; for (const img of main.querySelectorAll("figure.changed img")) img.src = `/pins/${img.closest("figure").dataset.id}.png?at=${img.dataset.at}`; document.getElementById("blink").classList.remove("on"); return; }
      let old = false;
      document.getElementById("blink").classList.add("on");
      blinking = setInterval(() => { old = !old; for (const img of main.querySelectorAll("figure.changed img")) { const id = img.closest("figure").dataset.id; img.src = old ? `/pins/${id}.previous.png` : `/pins/${id}.png?at=${img.dataset.at}`; } }, 500);
    }
    document.getElementById("blink").onclick = blink;
    document.getElementById("width").oninput = e => { document.body.style.setProperty("--w", e.target.value + "px"); for (const f of main.children) placeCells(f); };
    document.body.style.setProperty("--w", "260px");
    document.getElementById("add").onsubmit = e => {
      e.preventDefault();
      const f = e.target;
      api("/api/pins", { add: { scene: f.scene.value, offset: Number(f.offset.value), device: f.device.value, appearance: f.appearance.value, locale: f.locale.value } })
        .then(() => toast("Pinned, and saved beside the file"), err => toast(err.message, true));
    };
    document.addEventListener("keydown", e => { if (e.target.tagName === "INPUT") return; if (e.key === "b") blink(); if (e.key === "f") frames(); if (e.key === "t") fits(); if (e.key === "s") { const f = main.querySelector("figure.selected"); if (f) strip(f); else toast("Click a pin first, then s shows its scroll's contact strip", true); } if (e.key === "a") { const f = main.querySelector("figure.selected.golden"); if (f) accept(Number(f.dataset.id)); else toast("Click a golden first, then a accepts it", true); } if (e.key === "r") { const f = main.querySelector("figure.selected"); if (f) record(Number(f.dataset.id)); else toast("Click a pin first, then r records it", true); } if (e.key === "?") toast("b: blink the changed pins, old against new · f: every cell's frame and item, its template's boxes (padding, spacing) and baselines · t: the texts cut with … · s: the selected pin's contact strip · r: record the selected pin as a golden · a: accept the selected golden · hover a cell for its data"); });
    poll();
    </script>
    </body></html>
    """#
}
