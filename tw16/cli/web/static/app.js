// The play page: one websocket to the server (tw16/cli/web/app.py); every state message redraws the
// table; clicks and keys send the person's actions with the table version they were chosen at.
"use strict";
let ws = null, state = null, retry = 0;

function gameId() { return new URLSearchParams(location.search).get("game"); }

function showError(text) {
  const e = document.getElementById("error");
  e.textContent = text;
  e.classList.toggle("on", !!text);
}

function send(msg) {
  if (!ws || ws.readyState !== 1) { showError("not connected: reconnecting…"); return; }
  ws.send(JSON.stringify(msg));
}

function act(action) { send({type: "act", action: action, version: state.version}); }

function connect() {
  const gid = gameId();
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws" + (gid ? "?game=" + encodeURIComponent(gid) : "");
  ws = new WebSocket(url);
  ws.onopen = () => { retry = 0; document.getElementById("status").textContent = "connected"; };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => {
    document.getElementById("status").textContent = "disconnected — reconnecting";
    setTimeout(connect, Math.min(5000, 300 * ++retry));
  };
}

function onMessage(m) {
  if (m.type === "error") { showError(m.message); return; }
  if (m.type === "advice") { drawAdvice(m); return; }
  if (m.type === "search") { drawSearch(m); return; }
  if (m.type !== "state") return;
  if (gameId() !== m.game) history.replaceState(null, "", "?game=" + m.game);  // a reload resumes this game
  if (state && m.version !== state.version) { showError(""); document.getElementById("agent-out").innerHTML = ""; }
  state = m;
  draw();
}

function draw() {
  const t = state.table;
  document.getElementById("handinfo").textContent = "hand " + state.hand_no + " · " + WIND_ZH[t.round_wind] + "風 · dealer p" + t.dealer + (t.streak ? " 連莊 " + t.streak : "");
  const d = state.duplicate;
  document.getElementById("dup").textContent = d ? "duplicate " + d.set + ": hand " + (d.index + 1) + " of " + d.of + " (wall " + (d.wall + 1) + ")" : "";
  const discards = new Map();
  for (const c of state.choices) if (c.verb === "discard") discards.set(c.kinds[0], c.action);
  drawTable(document.getElementById("board"), t, {clickable: new Set(discards.keys())});
  document.querySelectorAll(".pos-bottom .hand .tile").forEach((e) => {
    e.addEventListener("click", () => {
      const k = Number(e.dataset.kind);
      if (discards.has(k)) act(discards.get(k));
      else showError(state.your_turn ? "you cannot discard " + tileName(k) + " now" : "it is not your turn to discard");
    });
  });
  const ctl = document.getElementById("controls");
  ctl.innerHTML = "";
  if (state.your_turn) {
    ctl.appendChild(el("span", "", "your move:"));
    state.choices.forEach((c, i) => {
      if (c.verb === "discard") return;
      const b = el("button", "choice", c.label + " " + c.zh);
      b.dataset.action = c.action;
      const k = el("span", "key", c.key || String(i + 1));
      b.appendChild(k);
      b.onclick = () => act(c.action);
      ctl.appendChild(b);
    });
    if (discards.size) ctl.appendChild(el("span", "", "click a tile of your hand to discard it"));
  } else if (!state.result) {
    ctl.appendChild(el("span", "", "waiting for p" + t.to_act));
  }
  document.getElementById("notes").innerHTML = "";
  for (const n of state.notes) document.getElementById("notes").appendChild(el("div", "note", n));
  document.getElementById("events").textContent = state.events.join(" · ");
  drawResult(state.result);
}

function drawResult(r) {
  const box = document.getElementById("result");
  box.innerHTML = "";
  box.classList.toggle("on", !!r);
  if (!r) return;
  const me = state.table.me;
  const who = (p) => p === me ? "you" : "p" + p;
  box.appendChild(el("h2", "", r.drawn ? "drawn hand 流局" : r.winners.map((w) => who(w.seat) + (w.seat === me ? " win" : " wins")).join(", ")
    + (r.drawn ? "" : " — " + ({discard: "on a discard 放槍", self_draw: "self-draw 自摸", rob_kong: "robbing a kong 搶槓", flowers: "flowers 花胡"}[r.win_by] || r.win_by)
    + (r.payer !== null && r.payer !== undefined ? ", p" + r.payer + " pays" : ""))));
  if (r.table) {
    const tb = el("div", "end-table"); drawTable(tb, r.table, {}); box.appendChild(tb);
    if (r.winners.length) markWin(tb, r.win_by, r.winners[0].seat);
  }
  for (const w of r.winners) {
    const tbl = el("table", "tai");
    tbl.appendChild(el("caption", "", "tai breakdown 台數 — " + who(w.seat)));
    for (const it of w.items) {
      const tr = el("tr");
      tr.appendChild(el("td", "", it.zh)); tr.appendChild(el("td", "", it.key.replace(/_/g, " "))); tr.appendChild(el("td", "", it.tai + " tai"));
      tbl.appendChild(tr);
    }
    if (!w.items.length) { const tr = el("tr"); tr.appendChild(el("td", "", "屁胡 no scoring item")); tbl.appendChild(tr); }
    const tot = el("tr"); tot.appendChild(el("th", "", "合計")); tot.appendChild(el("th", "", "total")); tot.appendChild(el("th", "", w.tai + " tai"));
    tbl.appendChild(tot);
    box.appendChild(tbl);
  }
  const pay = el("table", "payments");
  const h = el("tr"); h.appendChild(el("th", "", "")); for (let p = 0; p < 4; p++) h.appendChild(el("th", "", who(p)));
  pay.appendChild(h);
  const d = el("tr"); d.appendChild(el("td", "", "this hand")); r.deltas.forEach((x) => d.appendChild(el("td", "", (x >= 0 ? "+" : "") + x))); pay.appendChild(d);
  const s = el("tr"); s.appendChild(el("td", "", r.game_over ? "final standing" : "standing")); r.totals.forEach((x) => s.appendChild(el("td", "", (x >= 0 ? "+" : "") + x))); pay.appendChild(s);
  box.appendChild(pay);
  if (r.game_over) box.appendChild(el("p", "", "the game (一將) is over; next deals a new game"));
  if (r.log) { const a = el("a", "", "replay this hand (" + r.log + ")"); a.href = "/replay?log=" + encodeURIComponent(r.log); a.target = "_blank"; box.appendChild(a); }
  const b = el("button", "", "next hand"); b.id = "next-btn"; b.appendChild(el("span", "key", "n"));
  b.onclick = () => send({type: "next"});
  box.appendChild(el("div")).appendChild(b);
}

function drawAdvice(m) {
  const out = document.getElementById("agent-out");
  out.innerHTML = "";
  const t = el("table", "advice");
  t.appendChild(el("caption", "", "agent " + m.agent + (m.value !== null ? " · value " + m.value.toFixed(3) + " (≈ " + m.value_chips.toFixed(1) + " chips)" : " · no probabilities (not a network)")));
  for (const a of m.top) {
    const tr = el("tr");
    tr.appendChild(el("td", "", a.name));
    const td = el("td");
    if (a.p !== null) { const bar = el("span", "bar"); bar.style.width = Math.round(120 * a.p) + "px"; td.appendChild(bar); td.appendChild(el("span", "", " " + (100 * a.p).toFixed(1) + "%")); }
    else td.textContent = "its choice";
    tr.appendChild(td);
    t.appendChild(tr);
  }
  out.appendChild(t);
}

function drawSearch(m) {
  const out = document.getElementById("agent-out");
  out.querySelectorAll(".searching").forEach((e) => e.remove());
  const t = el("table", "search");
  t.appendChild(el("caption", "", "search EVs: chips over the rest of the hand, " + m.k + " rollouts each (95% interval)"));
  for (const r of m.rows) {
    const tr = el("tr");
    tr.appendChild(el("td", "", r.name));
    tr.appendChild(el("td", "", (r.ev >= 0 ? "+" : "") + r.ev.toFixed(1) + " [" + r.ci95[0].toFixed(1) + ", " + r.ci95[1].toFixed(1) + "]"));
    t.appendChild(tr);
  }
  out.appendChild(t);
}

document.addEventListener("keydown", (e) => {
  if (!state || e.ctrlKey || e.metaKey || e.altKey) return;
  if (state.result && (e.key === "n" || e.key === "Enter")) { send({type: "next"}); return; }
  if (e.key === "a") { send({type: "advice"}); return; }
  if (e.key === "s") { send({type: "search"}); return; }
  if (!state.your_turn) return;
  const byKey = state.choices.find((c) => c.key === e.key);
  if (byKey) { act(byKey.action); return; }
  const i = Number(e.key);
  if (i >= 1 && i <= 9 && state.choices[i - 1] && state.choices[i - 1].verb !== "discard") act(state.choices[i - 1].action);
});

document.getElementById("advice-btn").onclick = () => send({type: "advice"});
document.getElementById("search-btn").onclick = () => { send({type: "search"}); document.getElementById("agent-out").appendChild(el("div", "searching", "searching…")); };

(async () => {
  await loadSprite("/static/tiles.svg");
  META = await (await fetch("/api/meta")).json();
  connect();
})();
