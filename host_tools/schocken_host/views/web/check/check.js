// The browser as a second referee (docs/web-check.md): MicroPython's WebAssembly port runs the unchanged
// rules package and the host's TableState (check.py) over a game's events, rechecks every reveal and every
// fair-play throw, and says "geprüft" or names the first event where browser and host differ.
//
// On the live page (window.schocken = {events, onEvent(cb), standings()} and <section id="check">) it checks
// the running game; on check.html it checks a dropped .jsonl log (or ?log=URL). Everything is fetched from
// where this module lies: ./vendor/ (MicroPython), ../py/ (the Python it runs).

const HERE = new URL(".", import.meta.url);
const VENDOR = new URL("vendor/", HERE);
const PY = new URL("../py/", HERE);

// What check.py imports, as the server lays it out under /py/ (check/__init__.py: py_files()).
export const PY_FILES = [
  "schocken/__init__.py", "schocken/fair.py", "schocken/game.py", "schocken/half.py", "schocken/hostside.py",
  "schocken/protocol.py", "schocken/ranking.py", "schocken/results.py", "schocken/rules.py",
  "schocken/texts.py", "schocken/throws.py", "schocken/turn.py",
  "schocken_host/__init__.py", "schocken_host/i18n.py", "schocken_host/texts/__init__.py",
  "schocken_host/texts/input_errors.py", "schocken_host/table/__init__.py", "schocken_host/table/events.py",
  "schocken_host/table/replay.py", "schocken_host/table/state.py", "schocken_host/table/game_check.py",
];

const TEXTS = {
  de: {
    loading: "Zweiter Schiedsrichter: lädt …",
    checking: "prüft …",
    ok: "geprüft",
    okDetail: (r) => `${r.events} Ereignisse nachgerechnet, Stand gleich` +
      (r.fair ? `, ${r.throws_checked} von ${r.throws_total} Würfen geprüft` : ", ohne Fair Play"),
    differs: (d) => `Unterschied bei Ereignis ${d.line} (${evName(d.event)}): ${d.reason}`,
    host: "Host", browser: "Browser",
    missing: "Prüfung im Browser nicht verfügbar: ",
    noRuntime: "MicroPython-WebAssembly fehlt (npm-Paket nicht installiert: make installiert es, wo Node.js da ist)",
    failed: "Prüfung fehlgeschlagen: ",
    throws: "Würfe", round: "Runde", seat: "Platz",
    drop: "Spiel-Log (.jsonl) hierher ziehen oder auswählen",
    ready: (ms) => `bereit in ${ms} ms`,
  },
  en: {
    loading: "Second referee: loading …",
    checking: "checking …",
    ok: "checked",
    okDetail: (r) => `${r.events} events recomputed, standings equal` +
      (r.fair ? `, ${r.throws_checked} of ${r.throws_total} throws checked` : ", no fair play"),
    differs: (d) => `Difference at event ${d.line} (${evName(d.event)}): ${d.reason}`,
    host: "host", browser: "browser",
    missing: "No check in this browser: ",
    noRuntime: "MicroPython WebAssembly is missing (npm package not installed: make installs it where Node.js is)",
    failed: "Check failed: ",
    throws: "throws", round: "round", seat: "seat",
    drop: "Drop a game log (.jsonl) here or choose one",
    ready: (ms) => `ready in ${ms} ms`,
  },
};

function evName(ev) {
  return ev && typeof ev === "object" ? ev.ev : "?";
}

export function lang() {
  return new URLSearchParams(location.search).get("lang") === "en" ? "en" : "de";
}

function t(key, ...args) {
  const v = TEXTS[lang()][key];
  return typeof v === "function" ? v(...args) : v;
}

// --- the interpreter ------------------------------------------------------------------------------------
let runtime = null;

/** MicroPython with the check's Python in its file system: {mp, module, ms}. Loaded once per page. */
export function loadRuntime() {
  if (!runtime) runtime = startRuntime();
  return runtime;
}

async function startRuntime() {
  const t0 = performance.now();
  let loadMicroPython;
  try {
    ({loadMicroPython} = await import(new URL("micropython.mjs", VENDOR).href));
  } catch (e) {
    throw new CheckUnavailable(t("noRuntime"));
  }
  const sources = Promise.all(PY_FILES.map(async (path) => {
    const r = await fetch(new URL(path, PY));
    if (!r.ok) throw new Error(`/py/${path}: HTTP ${r.status}`);
    return [path, await r.text()];
  }));
  const mp = await loadMicroPython({url: new URL("micropython.wasm", VENDOR).href, heapsize: 8 * 1024 * 1024,
                                    stdout: () => {}, stderr: (line) => console.warn("micropython:", line)});
  for (const [path, text] of await sources) {
    const full = "/lib/" + path;
    mp.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
    mp.FS.writeFile(full, text);
  }
  const module = mp.pyimport("schocken_host.table.game_check");
  return {mp, module, ms: Math.round(performance.now() - t0)};
}

export class CheckUnavailable extends Error {}

/** A live check: feed(event), compare(standings), report(). */
export async function newChecker() {
  const {module} = await loadRuntime();
  const c = module.Check();
  return {
    feed: (ev) => c.feed_json(JSON.stringify(ev)),
    compare: (standings) => c.compare_json(JSON.stringify(standings ?? null)),
    report: () => JSON.parse(c.report_json()),
  };
}

/** A whole log's text checked at once: the report. */
export async function checkLog(text) {
  const {module} = await loadRuntime();
  return JSON.parse(module.check_lines_json(text));
}

// --- the panel ------------------------------------------------------------------------------------------
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

function short(value) {
  const s = JSON.stringify(value);
  return s === undefined ? "—" : s.length > 160 ? s.slice(0, 157) + "…" : s;
}

/** Draw a report into ``panel`` (an element): the verdict line, the difference, the throws checked. */
export function render(panel, report) {
  panel.replaceChildren();
  const d = report.first_difference;
  const status = el("p", {class: "check-status", "data-state": report.ok ? "ok" : d ? "differs" : "waiting"});
  if (report.ok) {
    status.append(el("strong", {}, "✓ " + t("ok")), el("span", {class: "detail"}, t("okDetail", report)));
  } else if (d) {
    status.append(el("strong", {}, "✗ " + t("differs", d)));
  } else {
    status.append(t("checking"));
  }
  panel.append(status);
  if (d) {
    panel.append(el("dl", {class: "check-difference"},
      el("dt", {}, t("host")), el("dd", {}, short(d.host)),
      el("dt", {}, t("browser")), el("dd", {}, short(d.browser))));
  }
  if (report.throws.length) {
    const list = el("ol", {class: "check-throws"});
    for (const [index, round, seat, n] of report.throws) {
      const name = report.names[seat] ?? `${t("seat")} ${seat}`;
      const mark = report.fair ? "✓".repeat(n) : "–";
      list.append(el("li", {"data-event": String(index), "data-checked": String(n)},
        `${t("round")} ${round}, ${name}: ${mark}`));
    }
    panel.append(el("details", {class: "check-detail"},
      el("summary", {}, `${report.throws_checked} / ${report.throws_total} ${t("throws")}`), list));
  }
  panel.dataset.state = status.dataset.state;
}

function say(panel, text, state) {
  panel.replaceChildren(el("p", {class: "check-status", "data-state": state}, text));
  panel.dataset.state = state;
}

function failure(panel, e) {
  if (e instanceof CheckUnavailable) say(panel, t("missing") + e.message, "unavailable");
  else say(panel, t("failed") + (e && e.message ? e.message : String(e)), "error");
  console.warn("check:", e);
}

/** The live page: check window.schocken's events as they come, against its standings. */
export async function mountLive(section, table) {
  say(section, t("loading"), "loading");
  let checker, fed = 0, pending = false, awaiting = false;
  try {
    checker = await newChecker();
  } catch (e) {
    failure(section, e);
    return null;
  }
  // The panel shows the latest report once per animation frame: reports between two frames would never be
  // painted. window.schockenCheck is the report the panel shows; a hidden tab draws when it is shown again.
  let latest = null, frame = 0;
  const draw = () => {
    if (!frame) return;
    cancelAnimationFrame(frame);
    frame = 0;
    render(section, latest);
    window.schockenCheck = latest;
  };
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") draw(); });
  const catchUp = async () => {
    pending = false;
    const events = table.events || [];
    if (events.length < fed) {          // the page resynchronised from the start: check again from the start
      checker = await newChecker();
      fed = 0;
    }
    while (fed < events.length) checker.feed(events[fed++]);
    if (typeof table.standings === "function") {
      const host = await table.standings();
      // A burst's model comes after its events: standings of fewer events than were fed are compared once
      // the model of these has come (the page's view carries the count of its events as its id).
      const model = typeof table.view === "function" ? table.view() : null;
      if (fed === (table.events || []).length && host) {
        if (!model || model.id === fed) checker.compare(host);
        else if (!awaiting) {
          awaiting = true;
          setTimeout(() => { awaiting = false; catchUp(); }, 100);
        }
      }
    }
    latest = checker.report();
    if (!frame) frame = requestAnimationFrame(draw);
  };
  if (typeof table.onEvent === "function") {
    table.onEvent(() => {
      if (pending) return;           // a burst of events is checked once
      pending = true;
      // The page draws the event first: the check runs after the next frame (on the one thread it would
      // hold up the drawing), or after 250 ms where no frame comes (a hidden tab).
      let started = false;
      const start = () => { if (!started) { started = true; setTimeout(catchUp, 0); } };
      requestAnimationFrame(start);
      setTimeout(start, 250);
    });
  }
  await catchUp();
  return checker;
}

/** check.html: a dropped or chosen log file, or ?log=URL. */
export async function mountFile(root) {
  const panel = root.querySelector("#check");
  const input = root.querySelector("#log-file");
  const zone = root.querySelector("#drop");
  zone.querySelector(".drop-text").textContent = t("drop");
  say(panel, t("loading"), "loading");
  const check = async (text) => {
    say(panel, t("checking"), "checking");
    try {
      const report = await checkLog(text);
      render(panel, report);
      window.schockenCheck = report;
    } catch (e) {
      failure(panel, e);
    }
  };
  input.addEventListener("change", async () => {
    if (input.files.length) await check(await input.files[0].text());
  });
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", async (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    const file = e.dataTransfer.files[0];
    if (file) await check(await file.text());
  });
  try {
    const {ms} = await loadRuntime();
    window.schockenCheckReadyMs = ms;
    say(panel, t("ready", ms), "ready");
  } catch (e) {
    failure(panel, e);
    return;
  }
  const url = new URLSearchParams(location.search).get("log");
  if (url) {
    const r = await fetch(url);
    await check(await r.text());
  }
}

// Loaded by the live page: check its game at once.
const section = typeof document !== "undefined" && document.querySelector("section#check");
if (section && window.schocken && !document.querySelector("#log-file")) {
  const t0 = performance.now();
  mountLive(section, window.schocken).then(() => {
    window.schockenCheckReadyMs = Math.round(performance.now() - t0);
  });
}
