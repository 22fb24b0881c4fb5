internal import WaterflowJSON

/// The review page: one file, its style and script inline, nothing loaded from elsewhere, so it
/// works offline and the server's Content-Security-Policy can forbid every other origin.
///
/// The page reads `/api/goldens` and posts to `/api/accept` and `/api/undo`, as any script may.
/// Keys: j/k next and previous, a accept, s skip, u undo, g accept the group, 1–4 the views
/// (side by side, slider, blink, diff), +/- zoom, 0 fit, ? help.
public enum ReviewPage {
  /// The page, with `title` in its heading.
  public static func html(title: String) -> String {
    page.replacingOccurrences(of: "{{BASE_STYLE}}", with: baseStyle)
      .replacingOccurrences(of: "{{TITLE}}", with: escapeHTML(title))
  }

  /// The style every local page shares (the review's, the preview's): colours, the header, the
  /// buttons and the toast.
  package static let baseStyle = #"""
    :root { --bad:#c62828; --ok:#2e7d32; --skip:#6d6d6d; --bg:#fafafa; --line:#ddd; --accent:#1565c0; }
    * { box-sizing: border-box; }
    body { margin:0; font:14px/1.4 system-ui, sans-serif; background:var(--bg); color:#222; display:flex; flex-direction:column; height:100vh; }
    header { display:flex; gap:16px; align-items:center; padding:8px 14px; border-bottom:1px solid var(--line); background:#fff; flex-wrap:wrap; }
    header h1 { font-size:16px; margin:0; }
    button { font:inherit; border:1px solid var(--line); background:#fff; border-radius:4px; padding:3px 8px; cursor:pointer; }
    button.on { background:var(--accent); color:#fff; border-color:var(--accent); }
    button:disabled { opacity:.5; cursor:default; }
    #toast { position:fixed; bottom:14px; left:50%; transform:translateX(-50%); background:#333; color:#fff; padding:8px 14px; border-radius:4px; display:none; max-width:80%; }
    #toast.error { background:var(--bad); }
    """#

  private static let page = #"""
    <!DOCTYPE html>
    <html lang="en"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Review goldens · {{TITLE}}</title>
    <style>
    {{BASE_STYLE}}
    #progress { font-weight:600; }
    .bar { height:6px; width:160px; background:#eee; border-radius:3px; overflow:hidden; display:inline-block; vertical-align:middle; }
    .bar i { display:block; height:100%; background:var(--ok); width:0; }
    main { flex:1; display:flex; min-height:0; }
    nav { width:330px; overflow:auto; border-right:1px solid var(--line); background:#fff; }
    nav .group { border-bottom:1px solid var(--line); padding:6px 0; }
    nav .cause { padding:2px 10px; font-size:12px; color:#444; display:flex; justify-content:space-between; gap:6px; align-items:center; }
    nav ul { list-style:none; margin:0; padding:0; }
    nav li { padding:3px 10px 3px 18px; cursor:pointer; display:flex; justify-content:space-between; gap:6px; }
    nav li.current { background:#e3f2fd; }
    nav li .state { font-size:11px; text-transform:uppercase; }
    li.accepted .state { color:var(--ok); } li.skipped .state { color:var(--skip); } li.failed .state, li.missing .state { color:var(--bad); }
    .verdict { font-size:11px; border-radius:3px; padding:0 5px; color:#fff; background:#777; text-transform:uppercase; }
    .verdict.layout { background:#6a1b9a; } .verdict.content { background:#ef6c00; } .verdict.reuse { background:#00838f; } .verdict.drawing { background:#546e7a; } .verdict.missing { background:var(--bad); }
    section#detail { flex:1; overflow:auto; padding:12px 16px; }
    #detail h2 { margin:0 0 4px; font-size:18px; display:flex; gap:8px; align-items:center; }
    #detail pre { white-space:pre-wrap; background:#fff; border:1px solid var(--line); padding:8px; font-size:12px; max-height:10em; overflow:auto; }
    .views { display:flex; gap:10px; align-items:flex-start; flex-wrap:wrap; }
    figure { margin:0; } figcaption { font-size:12px; color:#555; }
    .views img { image-rendering:pixelated; border:1px solid var(--line); background:#fff; }
    .stack { position:relative; display:inline-block; }
    .stack img.top { position:absolute; left:0; top:0; }
    #help { position:fixed; inset:0; background:rgba(0,0,0,.4); display:none; align-items:center; justify-content:center; }
    #help div { background:#fff; padding:16px 22px; border-radius:6px; }
    #help kbd, .keys kbd { border:1px solid #bbb; border-bottom-width:2px; border-radius:3px; padding:0 4px; font-size:12px; background:#f5f5f5; }
    .keys { font-size:12px; color:#555; }
    .empty { padding:40px; font-size:16px; color:#555; }
    </style></head>
    <body>
    <header>
      <h1>Review goldens · {{TITLE}}</h1>
      <span id="progress">…</span><span class="bar"><i id="progressbar"></i></span>
      <span id="filters" aria-label="filter by verdict"></span>
      <span id="views" aria-label="view">
        <button data-view="side">1 side by side</button><button data-view="slider">2 slider</button><button data-view="blink">3 blink</button><button data-view="diff">4 diff</button>
      </span>
      <span class="keys"><kbd>j</kbd>/<kbd>k</kbd> move · <kbd>a</kbd> accept · <kbd>s</kbd> skip · <kbd>g</kbd> group · <kbd>u</kbd> undo · <kbd>?</kbd> help</span>
    </header>
    <main><nav id="list" aria-label="failures by cause"></nav><section id="detail" aria-live="polite"></section></main>
    <div id="toast" role="status"></div>
    <div id="help" role="dialog" aria-label="keys"><div>
      <h3>Keys</h3>
      <p><kbd>j</kbd> next · <kbd>k</kbd> previous</p>
      <p><kbd>a</kbd> accept this golden (writes it, as <code>waterflow golden record</code> does)</p>
      <p><kbd>g</kbd> accept every golden of this cause</p>
      <p><kbd>s</kbd> skip (kept for the progress only) · <kbd>u</kbd> undo the last accept</p>
      <p><kbd>1</kbd> side by side · <kbd>2</kbd> slider · <kbd>3</kbd> blink · <kbd>4</kbd> diff only</p>
      <p><kbd>+</kbd> / <kbd>-</kbd> zoom by whole factors · <kbd>0</kbd> fit</p>
      <p><kbd>?</kbd> or <kbd>Esc</kbd> closes this</p>
    </div></div>
    <script>
    "use strict";
    const token = new URLSearchParams(location.search).get("token") || "";
    const state = { goldens: [], groups: [], current: 0, skipped: new Set(), view: "side", filter: "all", canUndo: false, busy: false, blink: null, zoom: 0 };
    const $ = (id) => document.getElementById(id);
    const el = (tag, attrs = {}, ...children) => {
      const e = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs)) { if (k === "class") e.className = v; else e.setAttribute(k, v); }
      for (const c of children) e.append(c);
      return e;
    };

    async function api(method, path, body) {
      const response = await fetch(path, {
        method, headers: { "X-Waterflow-Token": token, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin" });
      const data = await response.json().catch(() => ({ error: response.statusText }));
      if (!response.ok) throw new Error(data.error || response.statusText);
      return data;
    }

    function toast(text, error) {
      const t = $("toast");
      t.textContent = text; t.className = error ? "error" : ""; t.style.display = "block";
      clearTimeout(toast.timer); toast.timer = setTimeout(() => { t.style.display = "none"; }, error ? 8000 : 2500);
    }

    async function load() {
      const data = await api("GET", "/api/goldens");
      state.goldens = data.goldens; state.groups = data.groups; state.canUndo = data.canUndo;
      render();
    }

    const visible = () => state.goldens.filter((g) => state.filter === "all" || g.verdict === state.filter);
    const current = () => state.goldens[state.current];
    const isReviewed = (g) => g.status === "accepted" || state.skipped.has(g.name);

    function render() {
      const reviewed = state.goldens.filter(isReviewed).length;
      $("progress").textContent = `${reviewed} of ${state.goldens.length} reviewed`;
      $("progressbar").style.width = state.goldens.length ? `${100 * reviewed / state.goldens.length}%` : "0";
      const verdicts = ["all", ...new Set(state.goldens.map((g) => g.verdict))];
      $("filters").replaceChildren(...verdicts.map((v) => {
        const b = el("button", { "data-filter": v, class: state.filter === v ? "on" : "" }, v);
        b.onclick = () => { state.filter = v; moveTo(visible()[0]); };
        return b;
      }));
      for (const b of document.querySelectorAll("#views button")) b.classList.toggle("on", b.dataset.view === state.view);
      const list = $("list");
      list.replaceChildren(...state.groups.map((group, i) => {
        const members = state.goldens.filter((g) => g.group === i && (state.filter === "all" || g.verdict === state.filter));
        if (!members.length) return "";
        const open = members.filter((g) => g.status !== "accepted").length;
        const accept = el("button", { "data-group": String(i), title: "accept the whole group (g)" }, open ? `accept ${open}` : "accepted");
        accept.onclick = () => acceptGroup(i);
        accept.disabled = open === 0;
        return el("div", { class: "group" },
          el("div", { class: "cause" }, el("span", {}, el("span", { class: `verdict ${group.verdict}` }, group.verdict), " ", group.cause), accept),
          el("ul", {}, ...members.map((g) => {
            const item = el("li", { class: `${state.skipped.has(g.name) && g.status !== "accepted" ? "skipped" : g.status}${g === current() ? " current" : ""}`, "data-name": g.name },
              el("span", {}, g.name), el("span", { class: "state" }, state.skipped.has(g.name) && g.status !== "accepted" ? "skipped" : g.status));
            item.onclick = () => moveTo(g);
            return item;
          })));
      }));
      renderDetail();
    }

    // Zoom 0 fits: a golden drawn at 1× (a few hundred pixels wide) is shown twice as large, a
    // large one at its size; + and - step through whole factors, so pixels stay square.
    function sized(img) {
      const apply = () => { img.style.width = `${img.naturalWidth * factor(img)}px`; };
      if (img.complete && img.naturalWidth) apply(); else img.addEventListener("load", apply);
      return img;
    }
    function factor(img) { return state.zoom || (img && img.naturalWidth && img.naturalWidth < 400 ? 2 : 1); }
    function image(src, alt, extra = {}) { return src ? sized(el("img", { src, alt, ...extra })) : el("span", {}, `(no ${alt})`); }

    function renderDetail() {
      clearInterval(state.blink);
      const g = current();
      const detail = $("detail");
      if (!g) { detail.replaceChildren(el("p", { class: "empty" }, "No failures to review.")); return; }
      const views = el("div", { class: "views", id: "view", "data-view": state.view });
      const { expected, actual, diff } = g.images;
      if (state.view === "side" || !expected) {
        views.append(el("figure", {}, el("figcaption", {}, "expected (the golden)"), image(expected, "expected")),
                     el("figure", {}, el("figcaption", {}, "actual (this rendering)"), image(actual, "actual")));
      } else if (state.view === "slider") {
        const top = image(actual, "actual", { class: "top", style: "clip-path: inset(0 0 0 50%)" });
        const range = el("input", { type: "range", min: "0", max: "100", value: "50", "aria-label": "slider position" });
        range.oninput = () => { top.style.clipPath = `inset(0 0 0 ${range.value}%)`; };
        views.append(el("figure", {}, el("figcaption", {}, "slider: expected left, actual right"), el("div", { class: "stack" }, image(expected, "expected"), top), el("br"), range));
      } else if (state.view === "blink") {
        const top = image(actual, "actual", { class: "top" });
        const caption = el("figcaption", {}, "blink: actual");
        state.blink = setInterval(() => { top.hidden = !top.hidden; caption.textContent = top.hidden ? "blink: expected" : "blink: actual"; }, 600);
        views.append(el("figure", {}, caption, el("div", { class: "stack" }, image(expected, "expected"), top)));
      } else {
        views.append(el("figure", {}, el("figcaption", {}, "diff: expected | actual | differences in red"), image(diff, "diff")));
      }
      const status = state.skipped.has(g.name) && g.status !== "accepted" ? "skipped" : g.status;
      detail.replaceChildren(
        el("h2", {}, el("span", { class: `verdict ${g.verdict}` }, g.verdict), g.name, el("small", { id: "status", "data-status": status }, status)),
        el("p", {}, g.summary + (g.frames > 1 ? ` — frame ${g.frame} of ${g.frames}` : "")),
        views, el("pre", {}, g.message));
    }

    function moveTo(g) {
      if (!g) return;
      state.current = state.goldens.indexOf(g);
      render();
      document.querySelector("nav li.current")?.scrollIntoView({ block: "nearest" });
    }

    function step(by) {
      const list = visible();
      if (!list.length) return;
      const at = list.indexOf(current());
      moveTo(list[Math.min(list.length - 1, Math.max(0, (at < 0 ? 0 : at + by)))]);
    }

    function nextUnreviewed() {
      const list = visible();
      const at = list.indexOf(current());
      const next = list.slice(at + 1).concat(list.slice(0, at + 1)).find((g) => !isReviewed(g));
      moveTo(next || current());
    }

    async function accept(names, what) {
      if (state.busy || !names.length) return;
      state.busy = true;
      try {
        const result = await api("POST", "/api/accept", { names });
        toast(`Accepted ${what}: ${result.accepted.join(", ")}`);
        await load();
        nextUnreviewed();
      } catch (error) { toast(error.message, true); }
      finally { state.busy = false; }
    }

    function acceptGroup(i) {
      const names = state.goldens.filter((g) => g.group === i && g.status !== "accepted").map((g) => g.name);
      return accept(names, `the group “${state.groups[i].cause}”`);
    }

    async function undo() {
      if (state.busy) return;
      state.busy = true;
      try {
        const result = await api("POST", "/api/undo");
        toast(`Restored ${result.restored.join(", ")}`);
        await load();
        const first = state.goldens.find((g) => g.name === result.restored[0]);
        if (first) moveTo(first);
      } catch (error) { toast(error.message, true); }
      finally { state.busy = false; }
    }

    function setView(view) { state.view = view; render(); }
    for (const b of document.querySelectorAll("#views button")) b.onclick = () => setView(b.dataset.view);

    document.addEventListener("keydown", (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.target.tagName === "INPUT") return;
      const help = $("help");
      if (event.key === "?" || (event.key === "Escape" && help.style.display === "flex")) {
        help.style.display = help.style.display === "flex" ? "none" : "flex"; return;
      }
      const g = current();
      switch (event.key) {
        case "j": step(1); break;
        case "k": step(-1); break;
        case "a": if (g && g.status !== "accepted") accept([g.name], g.name); break;
        case "g": if (g) acceptGroup(g.group); break;
        case "s": if (g) { state.skipped.add(g.name); nextUnreviewed(); } break;
        case "u": undo(); break;
        case "1": setView("side"); break;
        case "2": setView("slider"); break;
        case "3": setView("blink"); break;
        case "4": setView("diff"); break;
        case "+": case "=": state.zoom = Math.min(8, factor(document.querySelector("#view img")) + 1); render(); break;
        case "-": state.zoom = Math.max(1, factor(document.querySelector("#view img")) - 1); render(); break;
        case "0": state.zoom = 0; render(); break;
        default: return;
      }
      event.preventDefault();
    });

    load().catch((error) => { $("detail").replaceChildren(el("p", { class: "empty" }, `Cannot load the failures: ${error.message}`)); });
    </script>
    </body></html>
    """#
}
