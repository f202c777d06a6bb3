// The live page: the game as Server-Sent Events (every event with its log line as id, then the page's model),
// drawn for a TV or a phone. window.schocken is the API the in-browser check (/check/check.js) builds on.
const params = new URLSearchParams(location.search);
const lang = params.get("lang") === "en" ? "en" : "de";
const events = [];
const shown = [];                           // shown[i]: when events[i] was drawn (bench/web.py)
const listeners = [];
let T = {};
let view = null;
let gameId = null;
let source = null;

// The terminal's QR code carries the table's key after the # (the page's own QR code does not): kept for this
// tab only and taken out of the address bar, so a shared link or a photo of the screen does not carry it.
const KEY_STORE = "schocken-key";
const hashKey = new URLSearchParams(location.hash.slice(1)).get("k");
if (hashKey) {
  sessionStorage.setItem(KEY_STORE, hashKey);
  history.replaceState(null, "", location.pathname + location.search);
}
let tableKey = sessionStorage.getItem(KEY_STORE);

window.schocken = {
  events,                                   // every event so far, in log order (events[i] is line i + 1)
  onEvent(cb) { listeners.push(cb); },      // cb(event, id) for each new event
  standings() { return view ? view.standings : null; },   // what `schocken replay --json` prints
  view() { return view; },
  lang,
  shown,                                    // wall-clock ms (timeOrigin + now()) each event was on the page
};

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
function t(key, fields = {}) {
  const text = T[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in fields ? fields[k] : m));
}
const nameOf = (seat) => (view && view.players[seat] ? view.players[seat].name : String(seat + 1));

const PIPS = {1: [[50, 50]], 2: [[27, 27], [73, 73]], 3: [[25, 25], [50, 50], [75, 75]],
  4: [[27, 27], [73, 27], [27, 73], [73, 73]], 5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
  6: [[27, 25], [73, 25], [27, 50], [73, 50], [27, 75], [73, 75]]};
function die(v, cls = "") {
  const pips = (PIPS[v] || []).map(([x, y]) => `<circle cx="${x}" cy="${y}" r="9"/>`).join("");
  return `<svg class="die ${cls}" viewBox="0 0 100 100" data-v="${v}" role="img" aria-label="${v}"><rect x="5" y="5" width="90" height="90" rx="18"/>${pips}</svg>`;
}
const hidden = () => `<svg class="die hidden" viewBox="0 0 100 100" role="img" aria-label="${esc(t("hidden_die"))}"><rect x="5" y="5" width="90" height="90" rx="18"/></svg>`;

// --- the connection -----------------------------------------------------------------------------------------
function connect() {
  const q = new URLSearchParams({last: String(events.length)});
  if (gameId) q.set("game", gameId);
  source = new EventSource("/events?" + q);
  source.addEventListener("reset", () => { events.length = 0; shown.length = 0; gameId = null; });
  source.addEventListener("ev", (m) => {
    const id = Number(m.lastEventId);
    if (id <= events.length) return;                       // seen before the connection dropped
    if (id !== events.length + 1) { reconnect(0); return; }  // a gap: ask again from what we have
    const ev = JSON.parse(m.data);
    events.push(ev);
    if (ev.ev === "start") gameId = ev.game_id;
    for (const cb of listeners) {
      try { cb(ev, id); } catch (e) { console.error(e); }
    }
  });
  source.addEventListener("view", (m) => {
    view = JSON.parse(m.data);              // window.schocken.view() is the latest model at once (the check)
    online(true);
    drawSoon();
  });
  source.onerror = () => { online(false); reconnect(1000); };
}
function reconnect(ms) {
  if (source) source.close();
  source = null;
  setTimeout(() => { if (!source) connect(); }, ms);
}
function online(yes) {
  document.body.classList.toggle("offline", !yes);
  $("conn").textContent = yes ? "" : t("offline");
  if (view && !frame) fitAll();           // the header's line beside the game's end: fitted again
}

// --- drawing ------------------------------------------------------------------------------------------------
// The page draws the latest model once per animation frame, however many came since the last: models between
// two frames would never be painted. A hidden tab has no frames: it draws when it is shown again.
let frame = 0;                              // the animation frame a draw waits for, 0 when none does
function drawSoon() {
  if (!frame) frame = requestAnimationFrame(draw);
}
function draw() {
  if (!frame) return;
  cancelAnimationFrame(frame);
  frame = 0;
  render();
  // events past the drawn model's (a burst on its way to its own model) are not drawn yet
  const drawn = Math.min(events.length, view.id ?? events.length);
  const now = performance.timeOrigin + performance.now();
  while (shown.length < drawn) shown.push(now);
}
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") draw(); });

function render() {
  const v = view;
  const n = v.players.length;
  $("phase").textContent = t("phase_" + v.phase);
  $("round").textContent = v.round ? t("round", {n: v.round}) : "";
  if (v.on_turn !== null && v.on_turn !== undefined) {
    $("turn").textContent = t("on_turn", {name: nameOf(v.on_turn), n: v.throw, limit: v.limit});
  } else {
    $("turn").textContent = v.game_id ? (v.over ? "" : t("reveal_wait")) : t("waiting");
  }
  $("middle").textContent = v.middle;
  const cols = n <= 2 ? Math.max(n, 1) : n <= 4 ? 2 : n <= 6 ? 3 : n <= 8 ? 4 : n <= 12 ? 4 : 6;
  const cards = $("cards");
  cards.style.setProperty("--cols", cols);
  cards.style.setProperty("--rows", Math.max(1, Math.ceil(n / cols)));
  cards.innerHTML = v.players.map(card).join("");
  drawLast(v);
  drawHalves(v);
  $("history-list").innerHTML = v.history.slice().reverse().map((h) => `<li>${esc(historyText(h))}</li>`).join("");
  // The end of the game is said in the header, in place of whose turn it is: it covers no dice and no line.
  const banner = $("banner");
  if (v.over && v.loser !== null) {
    banner.innerHTML = `<span class="over">${esc(t("game_over", {name: nameOf(v.loser)}))}</span>`
      + (v.blattschuss ? ` <span class="blatt">${esc(t("blatt"))}</span>` : "");
    banner.hidden = false;
  } else if (v.stopped !== null && v.stopped !== undefined) {
    banner.innerHTML = `<span class="over">${esc(t("stopped", {reason: v.stopped}))}</span>`;
    banner.hidden = false;
  } else {
    banner.hidden = true;
  }
  $("turn").hidden = !banner.hidden;
  document.body.classList.toggle("ended", !banner.hidden);
  // a connection lost after this model came and before this frame keeps its "offline" line
  if (v.error && !document.body.classList.contains("offline")) {
    $("conn").textContent = `! ${v.error.line}: ${v.error.text}`;
  }
  announce(v);
  fitAll();
}

// --- nothing cut ----------------------------------------------------------------------------------------------
// A line that does not fit its box is set smaller, step by step down to the last factor, and wrapped at its
// spaces if it still does not fit: never cut with an ellipsis. Every line of a step is measured at once (one
// layout per step, not one per line).
const FIT_STEPS = [1, 0.9, 0.8, 0.7];
function fit(elements) {
  let open = elements.filter((e) => !e.hidden);
  for (const e of open) { e.style.removeProperty("--fit"); e.classList.remove("wrap"); }
  for (let i = 1; open.length && i <= FIT_STEPS.length; i++) {
    open = open.filter((e) => e.scrollWidth > e.clientWidth + 1);
    for (const e of open) {
      if (i < FIT_STEPS.length) e.style.setProperty("--fit", FIT_STEPS[i]);
      else e.classList.add("wrap");
    }
  }
}

// The history shows its newest lines whole: a line its box cannot hold to its end is hidden with all older
// ones (a phone's history scrolls instead).
function fitHistory() {
  const box = $("history");
  const items = [...$("history-list").children];
  for (const li of items) li.hidden = false;
  if (getComputedStyle(box).overflowY !== "hidden") return;
  const bottom = box.getBoundingClientRect().bottom - parseFloat(getComputedStyle(box).paddingBottom);
  const past = items.findIndex((li) => li.getBoundingClientRect().bottom > bottom + 0.5);
  if (past >= 0) for (const li of items.slice(past)) li.hidden = true;
}

function fitAll() {
  fit([$("banner"), ...document.querySelectorAll(".card .name, .card .label, .card .status, .card .lost, .card .battery")]);
  fitHistory();
}
window.addEventListener("resize", () => { if (view) fitAll(); });
// the check's panel above it grows when its verdict comes: the history is fitted again
new ResizeObserver(() => { if (view) fitHistory(); }).observe($("history"));

// --- said in words ------------------------------------------------------------------------------------------
// The newest result (a round, a half, the game's end) goes to the page's live region once, for screen
// readers: set only when it changes, so a redraw says nothing again.
let announced = null;
function announce(v) {
  let text = "";
  if (v.over && v.loser !== null) {
    text = t("game_over", {name: nameOf(v.loser)}) + (v.blattschuss ? " " + t("blatt") : "");
  } else if (v.stopped !== null && v.stopped !== undefined) {
    text = t("stopped", {reason: v.stopped});
  } else if (v.history.length) {
    text = historyText(v.history[v.history.length - 1]);
  }
  if (text !== announced) {
    $("announce").textContent = text;
    announced = text;
  }
}

function card(p) {
  const v = view;
  const cls = ["card"];
  const playing = ["half1", "half2", "final"].includes(v.phase);
  if (v.on_turn === p.seat) cls.push("on-turn");
  if (playing && !p.in_half) cls.push("out");
  if (p.paused || p.asked) cls.push("paused");
  if (p.flagged) cls.push("flagged");
  if (v.over && v.loser === p.seat) cls.push("loser");
  let status = "";
  if (p.paused) status = t("paused", {reason: p.paused});
  if (p.asked) status = t("asked");
  if (p.flagged) status = t("flagged", {reason: p.flagged});
  let mark = "";
  if (!status && v.over && v.loser === p.seat) { status = t("game_lost"); mark = "game-lost"; }
  // A reveal stays on the card until the next round's first throw (model.py: the last round's is "past"),
  // and with it, in words, what it did: the best throw, the loser's Deckel (the colours say it only twice).
  let dice = "";
  const shown = p.reveal;
  if (shown && !(shown.past && p.throws > 0)) {
    const which = shown.worst ? "worst" : shown.best ? "best" : "";
    dice = `<span class="faces${shown.past ? " past" : ""}">${shown.dice.map((d) => die(d)).join("")}</span>`
      + `<span class="label${which ? " " + which : ""}">${esc(shown.label || "")}</span>`;
    if (!status && which) { status = verdict(v.last_round, which); mark = which; }
  } else if (p.throws > 0) {
    dice = p.public.map((d) => die(d, "aside")).join("") + hidden().repeat(Math.max(0, 3 - p.public.length));
  }
  if (!status && playing && !p.in_half) status = t(v.phase === "final" ? "out_final" : "out");
  if (!status && p.done && !p.revealed) status = t("done", {n: p.throws});
  const halves = (v.halves || []).filter((h) => h.seat === p.seat && h.phase !== "final");
  const lost = halves.length
    ? `<div class="lost">${esc(t("lost_halves", {halves: halves.map((h) => t("phase_" + h.phase)).join(", ")}))}</div>` : "";
  const coach = v.coach && v.coach.seat === p.seat ? `<div class="coach">${esc(coachText(v.coach, p.name))}</div>` : "";
  // The cup's charge (links/battery.py): its percent or USB, a warning when it will not last the evening.
  const b = p.battery;
  const charge = b ? `<div class="battery${b.low ? " low" : ""}">${esc(b.usb ? t("usb")
    : b.low ? t("battery_low", {percent: b.percent, left: b.hours === null ? "" : t("battery_left", {hours: b.hours})})
    : t("battery", {percent: b.percent}))}</div>` : "";
  return `<div class="${cls.join(" ")}" data-seat="${p.seat}">
    <div class="name">${esc(p.name)}</div>
    <div class="deckel" data-deckel="${p.deckel}">${p.deckel}</div>
    <div class="dice">${dice}</div>
    <div class="status${mark ? " " + mark : ""}">${esc(status)}</div>${lost}${charge}${coach}</div>`;
}

// What a ranked reveal did, in words: the round's loser takes its Deckel, the best throw is named; in a
// throw-off the best opens.
function verdict(last, which) {
  if (!last) return "";
  if (last.kind === "throw_off") return which === "best" ? t("opens") : "";
  if (which === "best") return t("best");
  return last.deckel === "all" ? t("takes_all") : t("takes", {deckel: last.taken});
}

// The coach's line (schocken play/watch --coach; the same words as the scoreboard's, texts/coach.py).
const number = (x, digits = 1) => { const s = x.toFixed(digits); return lang === "de" ? s.replace(".", ",") : s; };
const percent = (p) => number(100 * p, p >= 0.01 || p === 0 ? 0 : 1) + " %";
function coachText(c, name) {
  const head = t("coach_head", {name});
  if (c.error) return head + t("coach_error", {error: c.error});
  if (c.pending) return head + t("coach_pending");
  if (c.expected === null || c.expected === undefined) return head + t("coach_last");
  const again = c.throws > 0;
  const parts = [c.first ? t("coach_opener") : t(again ? "coach_chance_again" : "coach_chance", {chance: percent(c.chance)})];
  if (again && c.aside.length) parts.push(t("coach_aside", {aside: c.aside.join("-")}));
  parts.push(t("coach_expected", {deckel: number(c.expected)}));
  if (c.stand) parts.push(t("coach_stand", {label: c.stand}));
  return head + parts.join(" · ");
}

// The last round in the sidebar: its loser and its best throw (a throw-off: who opens), each named with what
// it did in words, its dice and class; every player's own dice are on his card meanwhile.
function drawLast(v) {
  const last = v.last_round;
  // A throw-off has no round number (model.py: rounds as people count them).
  $("last-title").textContent = t("last_round") + (last ? " · " + (last.round === null ? t("phase_throw_off")
    : t("round", {n: last.round})) : "");
  if (!last) { $("last-body").innerHTML = ""; return; }
  const rows = [["worst", last.worst], ["best", last.best]].filter(([, seat]) => seat !== null && seat !== undefined);
  $("last-body").innerHTML = rows.map(([which, seat]) => {
    const r = last.reveals.find((x) => x.seat === seat) || {dice: [], label: ""};
    return `<div class="reveal ${which}" data-seat="${seat}"><p class="who"><span class="name">${esc(nameOf(seat))}</span>`
      + ` <span class="role">${esc(verdict(last, which))}</span></p>`
      + `<span class="faces">${(r.dice || []).map((d) => die(d)).join("")}</span>`
      + `<span class="label">${esc(r.label || "")}</span></div>`;
  }).join("");
}

function drawHalves(v) {
  const halves = v.halves || [];
  $("halves-list").innerHTML = halves.length
    ? halves.map((h) => `<li data-phase="${esc(h.phase)}" data-seat="${h.seat}">`
      + `${esc(t("half_lost", {phase: t("phase_" + h.phase), name: nameOf(h.seat)}))}</li>`).join("")
    : `<li class="none">${esc(t("halves_none"))}</li>`;
}

function historyText(h) {
  const name = (s) => nameOf(s);
  switch (h.kind) {
    case "round": return t("hist_round", {round: h.round, worst: name(h.worst), best: name(h.best), deckel: h.deckel, label: h.label});
    case "all": return t("hist_all", {round: h.round, worst: name(h.worst), best: name(h.best)});
    case "throw_off": return t("hist_throw_off", {name: name(h.seat)});
    case "half": return t("hist_half", {name: name(h.seat), phase: t("phase_" + h.phase)});
    case "penalty": return t("hist_penalty", {name: name(h.seat)});
    case "einwuerfeln": return t("hist_ein", {name: name(h.seat)});
    case "forfeit": return t("hist_forfeit", {name: name(h.seat)});
    case "cheat": return t("hist_cheat", {name: name(h.seat), reason: h.reason});
    case "replay": return t("hist_replay");
    case "bot": return t("hist_bot", {name: name(h.seat), reason: h.reason});
    default: return h.kind;
  }
}

// --- the table's actions (with the PIN) ---------------------------------------------------------------------
async function sendAction(e) {
  e.preventDefault();
  const word = `${$("action-word").value} ${$("action-seat").value}`;
  const out = $("action-result");
  try {
    const r = await fetch(`/action?lang=${lang}`, {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify(tableKey ? {key: tableKey, word} : {pin: $("action-pin").value, word})});
    const answer = await r.json();
    if (tableKey && r.status === 403) {         // a key of an earlier game: the PIN again
      sessionStorage.removeItem(KEY_STORE);
      tableKey = null;
      $("pin-label").hidden = false;
      $("key-note").textContent = "";
    }
    out.textContent = answer.ok ? t("sent", {word}) : t("refused", {why: answer.error});
    out.className = answer.ok ? "ok" : "refused";
  } catch (err) {
    out.textContent = t("refused", {why: String(err)});
    out.className = "refused";
  }
}

// The table-action form only where the server takes actions (play: with the PIN); watch has no table.
async function showActions() {
  try {
    const page = await (await fetch("/page.json")).json();
    $("actions").hidden = !page.actions;
  } catch (e) {
    console.error(e);
  }
}

// --- the in-browser check, when the host has it -------------------------------------------------------------
async function loadCheck() {
  try {
    const r = await fetch("/check/check.js", {method: "HEAD"});
    if (r.ok) { await import("/check/check.js"); $("check-status").textContent = ""; return; }
  } catch (e) {
    console.error(e);
  }
  $("check-status").textContent = t("check_missing");
}

async function main() {
  document.documentElement.lang = lang;
  T = await (await fetch(`/texts.json?lang=${lang}`)).json();
  document.title = t("title");
  $("middle-label").textContent = t("middle");
  $("history-title").textContent = t("history");
  $("halves-title").textContent = t("halves");
  $("last-title").textContent = t("last_round");
  $("page-title").textContent = t("title");
  $("players-title").textContent = t("players");
  $("scan").textContent = t("scan");
  $("qr").src = `/qr.svg?lang=${lang}`;
  $("qr").alt = t("qr_alt");
  $("season-link").href = `/season?lang=${lang}`;
  $("season-link").textContent = t("season");
  const other = lang === "de" ? "en" : "de";       // the other language, named in itself
  $("lang-link").href = `/?lang=${other}`;
  $("lang-link").hreflang = other;
  $("lang-link").lang = other;
  $("lang-link").textContent = t("other_lang");
  $("actions-title").textContent = t("actions");
  $("word-label").textContent = t("word");
  $("seat-label").textContent = t("seat");
  $("pin-word").textContent = t("pin");
  $("action-send").textContent = t("send");
  if (tableKey) { $("pin-label").hidden = true; $("key-note").textContent = t("key"); }
  for (const w of ["drop", "ein", "wait", "forfeit"]) $("opt-" + w).textContent = t(w);
  $("action-form").addEventListener("submit", sendAction);
  $("turn").textContent = t("waiting");
  showActions();
  connect();
  loadCheck();
}
main();
