// Tiles and the table drawing shared by the play page (app.js) and the replay viewer (replay.js).
// A tile is a kind 0..41 (envs/tiles.py); its face is the symbol #t<kind> of tiles.svg, its hover
// text the notation and 中文 (META.tiles, sent by the server or inlined in a review page).
"use strict";
const WIND_ZH = "東南西北", WIND_EN = "ESWN";
const MELD_NAMES = ["chi", "pon", "kong", "addkong", "ankong"];
const MELD_ZH = ["吃", "碰", "明槓", "加槓", "暗槓"];
let META = {tiles: [], items: {}};

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

function tileName(k) { const t = META.tiles[k]; return t ? t.name + " " + t.zh : "?"; }

function tile(k, opts) {
  opts = opts || {};
  const e = el("span", "tile" + (opts.cls ? " " + opts.cls : ""));
  const back = k === null || k === undefined;
  e.title = back ? "hidden tile" : tileName(k) + (opts.note ? " — " + opts.note : "");
  if (!back) e.dataset.kind = k;
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 60 80");
  const use = document.createElementNS(NS, "use");
  use.setAttribute("href", back ? "#tback" : "#t" + k);
  svg.appendChild(use);
  e.appendChild(svg);
  return e;
}

// Notation -> kinds: "123m 55p EEE f1" (envs.tiles.parse_tiles for the kinds a log writes).
function parseTiles(text) {
  const out = [];
  const re = /(\d+)([mps])|f([1-8])|([ESWNCFP])/g;
  let m;
  while ((m = re.exec(text || "")) !== null) {
    if (m[1]) for (const d of m[1]) out.push("mps".indexOf(m[2]) * 9 + Number(d) - 1);
    else if (m[3]) out.push(34 + Number(m[3]) - 1);
    else out.push(27 + "ESWNCFP".indexOf(m[4]));
  }
  return out;
}

function meldKinds(type, kinds) { return kinds; }

// One seat's panel: name, wind, score, melds, flowers, hand (face up or backs).
function seatPanel(s, t, opts) {
  opts = opts || {};
  const box = el("div", "seat" + (t.to_act === s.seat ? " to-act" : "") + (s.seat === t.me ? " me" : ""));
  box.dataset.seat = s.seat;
  const head = el("div", "seat-head");
  head.appendChild(el("span", "wind", WIND_ZH[s.wind] + " " + WIND_EN[s.wind]));
  head.appendChild(el("span", "name", "p" + s.seat + " " + s.name));
  if (s.dealer) head.appendChild(el("span", "badge dealer", "莊 dealer" + (t.streak ? " 連" + t.streak : "")));
  if (s.ready) head.appendChild(el("span", "badge ready", "聽 ready"));
  head.appendChild(el("span", "score", (s.score >= 0 ? "+" : "") + s.score));
  box.appendChild(head);
  const row = el("div", "tiles-row");
  const hand = el("div", "hand");
  if (s.hand) {
    for (const k of s.hand) hand.appendChild(tile(k, {cls: opts.clickable && opts.clickable.has(k) ? "click" : ""}));
    if (s.drawn !== null && s.drawn !== undefined) {
      const d = tile(s.drawn, {cls: "drawn" + (opts.clickable && opts.clickable.has(s.drawn) ? " click" : ""), note: "drawn"});
      hand.appendChild(d);
    }
  } else {
    for (let i = 0; i < s.count; i++) hand.appendChild(tile(null, {cls: "small"}));
  }
  row.appendChild(hand);
  const melds = el("div", "melds");
  for (const m of s.melds) {
    const g = el("span", "meld");
    g.title = MELD_NAMES[m.type] + " " + MELD_ZH[m.type] + (m.from !== s.seat && m.type !== 4 ? " from p" + m.from : "");
    if (m.hidden) for (let i = 0; i < 4; i++) g.appendChild(tile(null, {cls: "small"}));
    else for (const k of m.kinds) g.appendChild(tile(k, {cls: "small"}));
    melds.appendChild(g);
  }
  row.appendChild(melds);
  const fl = el("div", "flowers");
  for (const k of s.flowers) fl.appendChild(tile(k, {cls: "small flower"}));
  row.appendChild(fl);
  box.appendChild(row);
  return box;
}

// A seat's river, in order; claimed tiles dimmed and marked, the last discard outlined.
function riverBox(s, t) {
  const box = el("div", "river");
  box.dataset.seat = s.seat;
  box.appendChild(el("div", "river-label", "p" + s.seat + " " + WIND_ZH[s.wind]));
  const tiles = el("div", "river-tiles");
  for (const r of s.river) {
    const cls = "small" + (r.claimed ? " claimed" : "") + (r.i === t.last_discard ? " last" : "");
    tiles.appendChild(tile(r.k, {cls: cls, note: r.claimed ? "claimed" : (r.i === t.last_discard ? "last discard" : "")}));
  }
  box.appendChild(tiles);
  return box;
}

// The whole table: the person at the bottom, the others round it, the rivers in the middle.
function drawTable(root, t, opts) {
  root.innerHTML = "";
  const pos = ["bottom", "right", "top", "left"];
  const grid = el("div", "table");
  for (let k = 0; k < 4; k++) {
    const s = t.seats[(t.me + k) % 4];
    const p = seatPanel(s, t, k === 0 ? opts : {});
    p.classList.add("pos-" + pos[k]);
    grid.appendChild(p);
  }
  const mid = el("div", "centre");
  const info = el("div", "info");
  info.appendChild(el("div", "round", WIND_ZH[t.round_wind] + "風 round " + WIND_EN[t.round_wind]));
  info.appendChild(el("div", "wall", "wall " + t.wall + " tiles left"));
  if (t.claim) info.appendChild(el("div", "claim", "p" + t.claim.from + (t.claim.rob ? " adds a kong with " : " discarded ") + tileName(t.claim.tile)));
  mid.appendChild(info);
  for (let k = 0; k < 4; k++) {
    const rb = riverBox(t.seats[(t.me + k) % 4], t);
    rb.classList.add("rv-" + pos[k]);
    mid.appendChild(rb);
  }
  grid.appendChild(mid);
  root.appendChild(grid);
}

// Outline the winning tile of a finished hand: the discard won on (the last in the rivers) or the
// winner's drawn tile (a self-draw).
function markWin(root, winBy, winner) {
  let t = null;
  if (winBy === "discard") t = root.querySelector(".river .tile.last");
  else if (winBy === "self_draw") t = root.querySelector('.seat[data-seat="' + winner + '"] .tile.drawn');
  if (t) { t.classList.add("win"); t.title += " — the winning tile"; }
}

async function loadSprite(url) {
  if (document.getElementById("tile-sprite")) return;
  const text = await (await fetch(url)).text();
  const holder = el("div");
  holder.id = "tile-sprite";
  holder.innerHTML = text;
  document.body.prepend(holder);
}
