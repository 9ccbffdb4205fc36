// The replay viewer: a replay log (envs/engine/replay.py: line 1 the rules, seed and deal; then one
// line per step with the action, the tiles drawn, the meld made, a new deal, the hand's result) is
// played forward here, in the page, into one table per step; back and forward step by decision.
// A review page (tw16 review --html) inlines this file with the log and its annotations (REVIEW).
"use strict";
const SEATS = "ESWN";
let R = null;  // {frames, i, view, review}

function showReplayError(text) {
  const e = document.getElementById("error");
  e.textContent = text; e.classList.toggle("on", !!text);
}

function emptySeat() { return {hand: new Array(34).fill(0), flowers: [], melds: [], ready: false}; }

function dealState(deal, prev) {
  const s = {seats: [0, 1, 2, 3].map(emptySeat), river: [], dealer: SEATS.indexOf(deal.dealer), streak: deal.streak,
             wind: SEATS.indexOf(deal.wind), turnNext: null, drawn: null, scores: prev ? prev.scores.slice() : [0, 0, 0, 0],
             hand: deal.hand, result: null, caption: "deal", actor: null};
  deal.hands.forEach((h, p) => { for (const k of parseTiles(h)) s.seats[p].hand[k]++; });
  deal.flowers.forEach((f, p) => { s.seats[p].flowers = parseTiles(f); });
  return s;
}

function clone(s) { return JSON.parse(JSON.stringify(s)); }

function applyMeld(s, text) {
  // "S pon 555m", "W chi 234s", "N kong 9999p", "E addkong 5555m", "E ankong 7777p"
  const [who, type, tiles] = text.split(" ");
  const p = SEATS.indexOf(who), t = MELD_NAMES.indexOf(type), kinds = parseTiles(tiles);
  const seat = s.seats[p];
  if (t === 3) {  // added kong: the pon grows, one tile leaves the hand
    const m = seat.melds.find((m) => m.type === 1 && m.kinds[0] === kinds[0]);
    if (m) { m.type = 3; m.kinds = kinds; }
    seat.hand[kinds[0]]--;
    return p;
  }
  if (t === 4) { seat.hand[kinds[0]] -= 4; seat.melds.push({type: 4, kinds: kinds, from: p}); return p; }
  const last = s.river[s.river.length - 1];  // a claim: the last discard leaves the river
  last.claimed = true;
  const fromHand = kinds.slice();
  fromHand.splice(fromHand.indexOf(last.k), 1);
  for (const k of fromHand) seat.hand[k]--;
  seat.melds.push({type: t, kinds: kinds, from: last.seat});
  return p;
}

function step(s, ev) {
  const p = SEATS.indexOf(ev.seat);
  s.caption = "#" + (ev.i + 1) + "  p" + p + " " + WIND_ZH[(p - s.dealer + 4) % 4] + ": " + ev.action;
  s.actor = p; s.result = null;
  const a = ev.action;
  if (a.startsWith("discard ")) {
    const k = parseTiles(a.slice(8))[0];
    s.seats[p].hand[k]--;
    s.river.push({k: k, seat: p, claimed: false});
    s.turnNext = (p + 1) % 4; s.drawn = null;
  } else if (/^kong ./.test(a)) {
    s.turnNext = p;
  } else if (a === "ready") {
    s.seats[p].ready = true;
  }
  let drawer = s.turnNext;
  if (ev.meld) {
    const q = applyMeld(s, ev.meld);
    if (ev.meld.split(" ")[1] === "kong") drawer = q;
    if (ev.meld.split(" ")[1] !== "kong" && !/^kong ./.test(a)) s.drawn = null;
  }
  if (ev.drew && drawer !== null) {
    for (const k of parseTiles(ev.drew.join(" "))) {
      if (k >= 34) s.seats[drawer].flowers.push(k);
      else { s.seats[drawer].hand[k]++; s.drawn = {seat: drawer, k: k}; }
    }
  }
  if (ev.result) {
    s.result = ev.result;
    ev.result.deltas.forEach((d, q) => { s.scores[q] += d; });
  }
  return s;
}

function buildFrames(lines) {
  const head = lines[0];
  if (!head || !head.rules || !head.deal) throw new Error("line 1 is not the head of a replay log (rules, seed, deal)");
  const frames = [];
  let s = dealState(head.deal, null);
  s.rules = head.rules;
  if (head.result) { s.result = head.result; head.result.deltas.forEach((d, q) => { s.scores[q] += d; }); }
  frames.push(clone(s));
  for (const ev of lines.slice(1)) {
    if (typeof ev.action !== "string" || !SEATS.includes(ev.seat)) throw new Error("line " + (ev.i + 2) + " has no action or seat");
    s = step(s, ev);
    frames.push(clone(s));
    if (ev.deal) {  // the next hand of a game: the result stays on this frame, the deal starts the next
      const rules = s.rules;
      s = dealState(ev.deal, s); s.rules = rules;
    }
  }
  return frames;
}

// A frame as the table drawing (tiles.js drawTable) takes it, seen by `view` ("all" or a seat).
function tableOf(f, view, next) {
  const me = view === "all" ? 0 : Number(view);
  const open = view === "all" || !!f.result;
  const total = f.rules && f.rules.flowers === false ? 136 : 144;
  let used = 0;
  let idx = 0;
  const riverIdx = f.river.map(() => idx++);
  const seats = f.seats.map((x, p) => {
    const kinds = [];
    x.hand.forEach((n, k) => { for (let j = 0; j < n; j++) kinds.push(k); });
    used += kinds.length + x.flowers.length + x.melds.reduce((a, m) => a + m.kinds.length, 0);
    let drawn = null;
    if (f.drawn && f.drawn.seat === p && kinds.includes(f.drawn.k)) { kinds.splice(kinds.indexOf(f.drawn.k), 1); drawn = f.drawn.k; }
    const show = open || p === me;
    return {seat: p, name: "", wind: (p - f.dealer + 4) % 4, dealer: p === f.dealer, ready: x.ready, score: f.scores[p],
            hand: show ? kinds : null, drawn: show ? drawn : null, count: kinds.length + (drawn !== null ? 1 : 0),
            melds: x.melds.map((m) => ({type: m.type, kinds: m.kinds, from: m.from, hidden: m.type === 4 && !show})),
            flowers: x.flowers, river: []};
  });
  f.river.forEach((r, i) => { seats[r.seat].river.push({k: r.k, claimed: r.claimed, i: riverIdx[i]}); used += r.claimed ? 0 : 1; });
  // envs' tiles_left: the undrawn tiles minus the dead wall (one more per kong with dead_wall_per_kong)
  const kongs = f.seats.reduce((a, x) => a + x.melds.filter((m) => m.type >= 2).length, 0);
  const dead = (f.rules ? f.rules.dead_wall : 16) + (f.rules && f.rules.dead_wall_per_kong ? kongs : 0);
  return {me: me, round_wind: f.wind, dealer: f.dealer, streak: f.streak, wall: Math.max(0, total - dead - used),
          to_act: next, last_discard: f.river.length ? f.river.length - 1 : null, claim: null, seats: seats};
}

function resultText(r) {
  if (r.kind === "drawn") return "drawn hand 流局 · chips " + r.deltas.map((d) => (d >= 0 ? "+" : "") + d).join(" ");
  const parts = [];
  for (const [w, x] of Object.entries(r.winners)) {
    const items = Object.entries(x.items).map(([k, t]) => (META.items[k] || "") + " " + k.replace(/_/g, " ") + " " + t);
    parts.push("p" + SEATS.indexOf(w) + " wins (" + r.win_by + (r.payer ? ", p" + SEATS.indexOf(r.payer) + " pays" : "") + "): "
               + x.tai + " tai — " + (items.length ? items.join(" · ") : "屁胡 no item"));
  }
  return parts.join("; ") + " · chips " + r.deltas.map((d) => (d >= 0 ? "+" : "") + d).join(" ");
}

function drawAnnotation(i) {
  const box = document.getElementById("ann");
  box.innerHTML = "";
  if (!R.review) { box.style.display = "none"; return; }
  box.style.display = "block";
  const d = R.review.decisions[String(i)];  // the decision taken at log line i + 2 (frame i -> i + 1)
  box.appendChild(el("div", "summary", "review of p" + R.review.seat + ": " + R.review.summary));
  if (!d) return;
  box.appendChild(el("div", d.bad ? "bad" : "", "p" + R.review.seat + " played " + d.taken + (d.p_taken !== null ? " (" + (100 * d.p_taken).toFixed(1) + "%)" : "")
    + (d.loss !== null ? " · EV loss " + d.loss.toFixed(1) + " chips" : "") + (d.bad ? " · bad move" : "") + (d.match ? " · matches the agent" : "")));
  const t = el("table");
  for (const a of d.top) {
    const tr = el("tr");
    tr.appendChild(el("td", "", a.name));
    tr.appendChild(el("td", "", a.p !== null ? (100 * a.p).toFixed(1) + "%" : ""));
    tr.appendChild(el("td", "", a.ev !== null ? (a.ev >= 0 ? "+" : "") + a.ev.toFixed(1) + " [" + a.ci95[0].toFixed(1) + ", " + a.ci95[1].toFixed(1) + "]" : ""));
    t.appendChild(tr);
  }
  box.appendChild(t);
}

function show(i) {
  R.i = Math.max(0, Math.min(R.frames.length - 1, i));
  const f = R.frames[R.i];
  const nextLine = R.lines[R.i + 1];
  const next = nextLine ? SEATS.indexOf(nextLine.seat) : -1;
  drawTable(document.getElementById("board"), tableOf(f, R.view, next), {});
  if (f.result && f.result.winners) markWin(document.getElementById("board"), f.result.win_by, SEATS.indexOf(Object.keys(f.result.winners)[0]));
  document.getElementById("pos").textContent = (R.i + 1) + " / " + R.frames.length;
  document.getElementById("caption").textContent = "hand " + (f.hand + 1) + " · " + f.caption + (next >= 0 ? " · next to act: p" + next : " · end");
  const rr = document.getElementById("rresult");
  rr.textContent = f.result ? resultText(f.result) : "";
  drawAnnotation(R.i);
}

function openReplay(text, review) {
  showReplayError("");
  let lines;
  try {
    lines = text.split(/\r?\n/).filter((x) => x.trim()).map((x, n) => { try { return JSON.parse(x); } catch (e) { throw new Error("line " + (n + 1) + " is not JSON"); } });
    R = {lines: lines, frames: buildFrames(lines), i: 0, view: document.getElementById("view").value, review: review};
  } catch (e) { showReplayError("not a replay log: " + e.message); return; }
  show(0);
}

document.addEventListener("keydown", (e) => {
  if (!R) return;
  if (e.key === "ArrowRight") show(R.i + 1);
  if (e.key === "ArrowLeft") show(R.i - 1);
});
document.getElementById("fwd").onclick = () => R && show(R.i + 1);
document.getElementById("prev").onclick = () => R && show(R.i - 1);
document.getElementById("view").onchange = (e) => { if (R) { R.view = e.target.value; show(R.i); } };
