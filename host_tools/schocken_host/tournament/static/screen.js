// The hall's big screen (tournament/hall.py, docs/turnier.md): every table's live state, the standings, the
// clock and the next draw, from /screen.json every two seconds; ?spieler=NAME marks a player's table and
// place (his phone); ?lang=en in English. Everything is text put into the page (textContent), never HTML.
"use strict";
const params = new URLSearchParams(location.search);
const EN = params.get("lang") === "en";
const ME = params.get("spieler") || params.get("player") || "";
const T = EN ? {tables: "Tables", standings: "Standings", round: "Round", final: "final", table: "Table",
  games: "games", place: "place", name: "name", points: "points", lost: "games lost", halves: "halves lost",
  deckel: "Deckel", next: "Next draw", end: "The tournament ends after this round", held: "held back",
  missing: "games to come", you: "You", at: "at table", on: "place", teams: "Teams", still: "still in",
  out: "out in final round", prizes: "Prizes", noround: "not drawn yet", silent: "silent"}
  : {tables: "Tische", standings: "Stand", round: "Runde", final: "Finale", table: "Tisch", games: "Spiele",
  place: "Platz", name: "Name", points: "Punkte", lost: "verl. Spiele", halves: "verl. Hälften",
  deckel: "Deckel", next: "Nächste Auslosung", end: "Das Turnier endet nach dieser Runde",
  held: "zurückgehalten", missing: "Spiele ausstehend", you: "Du", at: "an Tisch", on: "Platz",
  teams: "Teams", still: "noch dabei", out: "raus in Finalrunde", prizes: "Preise", noround: "noch nicht ausgelost",
  silent: "still"};
document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = T[el.dataset.t]; });

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function draw(m) {
  window.schockenScreen = m;
  m.seen = Date.now();
  shown = m;
  document.getElementById("title").textContent = m.name;
  document.title = m.name;
  const kind = m.kind === "final" ? " (" + T.final + ")" : "";
  document.getElementById("round").textContent = m.round ? T.round + " " + m.round + kind + " · " +
    m.missing + " " + T.missing + (m.held ? " · " + m.held + " " + T.held : "") : T.noround;
  const grid = document.querySelector("#tables .grid");
  grid.replaceChildren();
  for (const t of m.tables) {
    const live = m.live[String(t.table)];
    const box = el("div", null, "table");
    if (t.players.includes(ME)) box.classList.add("mine");
    box.dataset.table = t.table;
    box.append(el("h3", T.table + " " + t.table + " · " + t.counted + "/" + t.due + " " + T.games));
    const ul = el("ul");
    for (const name of t.players) {
      const p = live && live.players ? live.players.find((q) => q.name === name) : null;
      const li = el("li");
      if (live && live.on_turn === name) li.classList.add("turn");
      li.append(el("span", name));
      li.append(el("span", p ? p.deckel + " D · " + p.halves + " H" : ""));
      ul.append(li);
    }
    box.append(ul);
    if (live) box.append(el("div", (live.phase || "") + (live.age > 30 ? " · " + T.silent + " " +
      Math.round(live.age) + " s" : ""), live.age > 30 ? "stale" : ""));
    grid.append(box);
  }
  const head = document.querySelector("#standings thead");
  head.replaceChildren();
  const hr = el("tr");
  for (const h of [T.place, T.name, T.games, T.points, T.lost, T.halves, T.deckel]) hr.append(el("th", h));
  head.append(hr);
  const body = document.querySelector("#standings tbody");
  body.replaceChildren();
  for (const s of m.standings) {
    const tr = el("tr");
    if (s.name === ME) tr.className = "mine";
    for (const v of [s.place, s.name, s.games, s.points, s.games_lost, s.halves_lost, s.deckel]) {
      tr.append(el("td", v));
    }
    body.append(tr);
  }
  const teams = document.getElementById("teams");
  teams.replaceChildren();
  if (m.teams.length) {
    teams.append(el("h2", T.teams));
    for (const t of m.teams) teams.append(el("div", t.team + ": " + t.points + " " + T.points));
  }
  const fin = document.getElementById("final");
  fin.replaceChildren();
  if (m.final) {
    fin.append(el("h2", T.final));
    for (const r of m.final.ranking) {
      fin.append(el("div", r.name + " · " + r.lost + " " + T.lost + (r.out_in ? " · " + T.out + " " +
        r.out_in : " · " + T.still)));
    }
  }
  const prizes = document.getElementById("prizes");
  prizes.replaceChildren();
  if (m.prizes.length) {
    prizes.append(el("h2", T.prizes));
    for (const p of m.prizes) prizes.append(el("div", p.place + ". " + p.amount.toFixed(2) + " €"));
  }
  const mine = document.getElementById("mine");
  if (ME) {
    const place = m.standings.find((s) => s.name === ME);
    const table = m.tables.find((t) => t.players.includes(ME));
    mine.hidden = false;
    mine.textContent = T.you + " (" + ME + "): " + (table ? T.at + " " + table.table + " · " : "") +
      (place ? T.on + " " + place.place + " · " + place.points + " " + T.points : "?");
  }
  tick();
  document.getElementById("next").textContent = m.next ? T.next + ": " + T.round + " " + m.next.round +
    (m.next.kind === "final" ? " (" + T.final + ")" : "") : T.end;
}

let shown = null;   // the latest model: the round's clock runs from its draw

function tick() {
  const now = new Date();
  let text = now.toLocaleTimeString(EN ? "en-GB" : "de-DE");
  if (shown && shown.round_drawn_at) {
    // the director's clock, not the screen's: the round's time since its draw
    const s = Math.max(0, Math.floor(shown.clock - shown.round_drawn_at + (Date.now() - shown.seen) / 1000));
    const hms = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60];
    text += " · " + T.round + " " + hms[0] + ":" + String(hms[1]).padStart(2, "0") + ":" +
      String(hms[2]).padStart(2, "0");
  }
  document.getElementById("clock").textContent = text;
}

async function poll() {
  try {
    const r = await fetch("/screen.json", {cache: "no-store"});
    if (r.ok) draw(await r.json());
  } catch (e) { /* the next poll tries again */ }
  setTimeout(poll, 2000);
}
setInterval(tick, 1000);
tick();
poll();
