"""External protocol bots as tw16 agents: ``olympiad:COMMAND`` (``OlympiadAgent``) and the referee that
talks to them (``Referee``, driven by ``agents.evaluation.arena.run_games``).

The referee translates the engine's game to the protocol as the events' referee does
(shared/protocol/OLYMPIAD.md): every action announced to every bot seat, the actor included; a seat's
own draws as ``/mo``; requests only when they can be granted: ``/ask hu`` only for a legal win,
``/ask gong`` / ``/ask throw`` on the seat's turn, claims on a discard asked in priority order (wins in
turn order, then kong and pong, then the next seat's chow) and the first accepted one granted and
announced before anyone else is asked. The engine asks every seat that may claim, in turn order, and
resolves by priority; the referee therefore settles the whole claim round when it opens (asking the
in-process seats' agents for their one decision when the round reaches them) and hands the engine
each seat's answer when the engine asks it. The outcome is the engine's own resolution of those answers.

Every answer is checked (its tiles held, the action in the legal mask). A timeout, a crash, a line of
256+ characters, an unparsable or illegal answer is a fault: the fallback agent (Greedy by default)
makes that move and the seat's remaining moves of the hand, the fault is counted (``faults``) and
logged with the transcript's tail (``fault_log``), and the process is restarted at the next hand.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import numpy as np

from agents.olympiad.codec import WINDS, ProtocolError, kind_of_id, line, parse_answer, tile_id
from agents.olympiad.process import BotFault, BotProcess
from envs.engine import state as st
from envs.engine.actions import CHI, DISCARD, KONG, PASS, PON, SELF_KONG, WIN
from envs.tiles import MELD_CHI, MELD_PON

DEFAULT_TIMEOUT = 5.0  # seconds per request
OPTIONS = ("cwd", "timeout", "fallback", "name", "log")
CLAIM_BITS = (
    (st.C_CHI_LOW, CHI),
    (st.C_CHI_MID, CHI + 1),
    (st.C_CHI_HIGH, CHI + 2),
    (st.C_PON, PON),
    (st.C_KONG, KONG),
    (st.C_WIN, WIN),
)


class IllegalAnswer(ProtocolError):
    """A well-formed answer that the game does not allow (a tile not held, a claim not on offer)."""


def parse_spec(spec: str) -> dict:
    """``olympiad:COMMAND`` or ``olympiad[cwd=DIR,timeout=S,fallback=AGENT,name=NAME]:COMMAND`` -> the
    agent's keyword arguments (``command`` and the options given)."""
    if not spec.startswith("olympiad"):
        raise ValueError(f"{spec!r} is not an olympiad: agent spec")
    rest = spec[len("olympiad") :]
    opts: dict = {}
    if rest.startswith("["):
        close = rest.find("]:")
        if close < 0:
            raise ValueError(f"agent spec {spec!r}: options end with ']:' before the command")
        for part in filter(None, rest[1:close].split(",")):
            key, eq, val = part.partition("=")
            if not eq or key not in OPTIONS:
                raise ValueError(
                    f"agent spec {spec!r}: option {part!r} (known: {', '.join(k + '=...' for k in OPTIONS)})"
                )
            opts[key] = val
        rest = rest[close + 1 :]
    if not rest.startswith(":") or not rest[1:].strip():
        raise ValueError(f"agent spec {spec!r}: expected olympiad:COMMAND (a shell command that runs the bot)")
    opts["command"] = rest[1:].strip()
    if "log" in opts:
        opts["log_dir"] = opts.pop("log")
    if "timeout" in opts:
        try:
            opts["timeout"] = float(opts["timeout"])
        except ValueError:
            raise ValueError(f"agent spec {spec!r}: timeout must be seconds, got {opts['timeout']!r}") from None
        if not 0 < opts["timeout"] <= 3600:
            raise ValueError(f"agent spec {spec!r}: timeout must be in (0, 3600] seconds")
    if "cwd" in opts and not Path(opts["cwd"]).is_dir():
        raise ValueError(f"agent spec {spec!r}: cwd {opts['cwd']!r} is not a directory")
    return opts


def with_option(spec: str, key: str, value: str) -> str:
    """``spec`` with option ``key=value`` added (``olympiad[...]:COMMAND``)."""
    opts = parse_spec(spec)
    command = opts.pop("command")
    if "log_dir" in opts:
        opts["log"] = opts.pop("log_dir")
    opts[key] = value
    if any("," in str(v) or "]" in str(v) for v in opts.values()):
        raise ValueError(f"option values of {spec!r} may not hold ',' or ']'")
    return "olympiad[" + ",".join(f"{k}={v}" for k, v in opts.items()) + "]:" + command


def check_rules(rules) -> None:
    """Refuse rules the protocol's bots cannot play (ValueError naming each): another profile than the
    events' (``agents.olympiad.BOT_PROFILE``), or options on top of it the protocol cannot express."""
    from agents.olympiad import BOT_PROFILE

    bad = []
    if rules.profile != BOT_PROFILE:
        bad.append(f"profile {rules.profile!r} is not the events' ({BOT_PROFILE!r})")
    if rules.flowers:
        bad.append("flowers are on (the protocol has no flower tiles)")
    if rules.multi_win:
        bad.append("multi_win is on (the events have one winner on a discard)")
    if rules.declare_ready:
        bad.append("declare_ready is on (the protocol has no ready declaration)")
    if rules.rob_kong:
        bad.append("rob_kong is on (the protocol has no robbing a kong)")
    if bad:
        raise ValueError(
            f"olympiad: bots cannot play these rules: {'; '.join(bad)}; use --profile {BOT_PROFILE} (docs/olympiad.md)"
        )


class OlympiadAgent:
    """An external protocol bot; its moves are made by ``Referee`` (``agents.evaluation.arena.run_games``)."""

    olympiad = True

    def __init__(
        self,
        command: str,
        make_agent,
        cwd: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        fallback: str = "greedy",
        seed: int | None = 0,
        name: str | None = None,
        log_dir: str | None = None,
    ):
        """``make_agent``: ``agents.make_agent`` (passed in: the package imports this module)."""
        if fallback.startswith("olympiad"):
            raise ValueError("the fallback of an olympiad: agent must be an in-process agent")
        self.command, self.cwd, self.timeout = command, cwd, float(timeout)
        self.fallback = make_agent(fallback, seed=seed)
        if getattr(self.fallback, "needs_engine", False):
            raise ValueError(
                f"fallback {fallback!r} reads the engine; give an observation agent (greedy, defensive ...)"
            )
        self.name = name or f"olympiad:{command}"
        self.log_dir = log_dir
        self.procs: dict[int, BotProcess] = {}  # one per game slot of the batch, reused across hands
        self.faults: Counter = Counter()  # kind -> count
        self.fault_log: list[dict] = []
        self.requests = 0

    @classmethod
    def from_spec(cls, spec: str, make_agent, seed: int | None = 0) -> OlympiadAgent:
        return cls(make_agent=make_agent, seed=seed, **parse_spec(spec))

    def act(self, obs, mask):
        raise TypeError(
            f"{self.name!r} is an external bot: it plays through the referee of agents.evaluation.arena.run_games "
            "(tw16 eval, agents.evaluation.paired), which needs the engine"
        )

    def reset(self, seed: int | None = None) -> None:
        self.fallback.reset(seed)

    def process(self, game: int) -> BotProcess:
        """The bot of game slot ``game``, started when there is none (a fault on start is raised)."""
        p = self.procs.get(game)
        if p is None or p.proc.poll() is not None:
            if p is not None:
                p.close()
            p = self.procs[game] = BotProcess(self.command, self.cwd, self.timeout)
        return p

    def restart(self, game: int) -> None:
        p = self.procs.pop(game, None)
        if p is not None:
            p.close()

    def fault(self, game: int, seat: int, err: Exception, proc: BotProcess | None) -> None:
        kind = err.kind if isinstance(err, BotFault) else "illegal" if isinstance(err, IllegalAnswer) else "unparsable"
        self.faults[kind] += 1
        self.fault_log.append(
            {
                "kind": kind,
                "detail": str(err),
                "game": game,
                "seat": seat + 1,
                "tail": list(proc.tail) if proc is not None else [],
            }
        )

    @property
    def n_faults(self) -> int:
        return sum(self.faults.values())

    def close(self) -> None:
        for g in list(self.procs):
            self.restart(g)

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class _Seat:
    """A bot seat of one game during a hand: its process (None once it faulted this hand)."""

    def __init__(self, agent: OlympiadAgent, game: int, seat: int):
        self.agent, self.game, self.seat = agent, game, seat
        self.proc: BotProcess | None = None


class Referee:
    """The protocol side of ``run_games`` for a batch whose tables hold ``OlympiadAgent`` seats."""

    def __init__(self, eng, agents, seat_agent: np.ndarray, derived: bool = False):
        from envs.obs.planes_v0 import PlanesV0

        check_rules(eng.rules)
        for a in agents:
            if getattr(a, "needs_engine", False):
                raise ValueError(
                    f"{a.name!r} reads the engine: it cannot sit beside olympiad: seats (the referee asks "
                    "claims in the events' order, before the engine would ask it)"
                )
        self.eng, self.agents, self.seat_agent = eng, agents, np.asarray(seat_agent)
        self.enc = PlanesV0(derived=derived)
        self.buf = self.enc.alloc(1)
        B = eng.batch_size
        self.seats = [
            [
                _Seat(agents[self.seat_agent[b, s]], b, s)
                if getattr(agents[self.seat_agent[b, s]], "olympiad", False)
                else None
                for s in range(4)
            ]
            for b in range(B)
        ]
        self.held = [[[] for _ in range(4)] for _ in range(B)]  # ids each seat holds, in the order received
        self.free = [[[0, 1, 2, 3] for _ in range(34)] for _ in range(B)]
        self.answers = np.full((B, 4), -1, np.int64)  # the claim round's answers, handed to the engine
        self.claim_ids: dict[int, list[int]] = {}  # game -> the bot's own tiles of the granted claim
        self.thrown: dict[int, int] = {}  # game -> the id the bot chose to throw / kong (this step)
        self.last_id = np.full(B, -1, np.int64)  # the last discard's id
        self.actions: list[list[int]] = [[] for _ in range(B)]
        self.seeds = np.array(eng._seeds, np.uint64)
        self.hand_no = np.zeros(B, np.int64)  # the hand of the episode being played (G_HANDS at its deal)
        for b in range(B):
            self._deal(b)

    # -- tiles --------------------------------------------------------------------------------
    def _give(self, b: int, s: int, kind: int) -> int:
        tid = tile_id(kind, self.free[b][kind].pop(0))
        self.held[b][s].append(tid)
        return tid

    def _take(self, b: int, s: int, kind: int, tid: int | None = None) -> int:
        """Remove a tile of ``kind`` from seat s (``tid`` if given, else the last received)."""
        h = self.held[b][s]
        if tid is None:
            tid = next(t for t in reversed(h) if kind_of_id(t) == kind)
        h.remove(tid)
        return tid

    # -- messages ---------------------------------------------------------------------------------
    def _send(self, b: int, s: int, text: str) -> None:
        seat = self.seats[b][s]
        if seat is None or seat.proc is None:
            return
        try:
            seat.proc.send(text)
        except BotFault as e:
            self._fault(seat, e)

    def _announce(self, b: int, text: str, actor: int | None = None, private: str | None = None) -> None:
        for s in range(4):
            self._send(b, s, private if (private is not None and s == actor) else text)

    def _fault(self, seat: _Seat, err: Exception) -> None:
        seat.agent.fault(seat.game, seat.seat, err, seat.proc)
        self._write_transcript(seat)
        seat.proc = None  # the fallback plays the rest of the hand; restarted at the next one
        seat.agent.restart(seat.game)

    def _ask(self, seat: _Seat, what: str) -> tuple[str, list[int]]:
        seat.agent.requests += 1
        return parse_answer(seat.proc.ask(line("/ask", what)), what)

    def _deal(self, b: int) -> None:
        eng = self.eng
        dealer = int(eng.dealer[b])
        self.held[b] = [[] for _ in range(4)]
        self.free[b] = [[0, 1, 2, 3] for _ in range(34)]
        self.answers[b] = -1
        self.hand_no[b] = int(eng.s.g[b, st.G_HANDS])
        for s in range(4):
            for k in np.repeat(np.arange(34), eng.hands[b, s]):
                self._give(b, s, int(k))
        h, k17 = self.held[b][dealer], int(eng.last_drawn[b])
        if k17 >= 0:  # the dealer's 17th tile (its first draw) goes last: /initCard lists it last
            h.append(h.pop(max(i for i, t in enumerate(h) if kind_of_id(t) == k17)))
        for s in range(4):
            seat = self.seats[b][s]
            if seat is None:
                continue
            try:
                seat.proc = seat.agent.process(b)
                seat.proc.transcript = []
                if seat.proc.seat != s:
                    seat.proc.seat = s
                    seat.proc.send(line("/start", "MJ", s + 1))
                    seat.proc.handshake()
                wind = WINDS[int(eng.round_wind[b])]
                seat.proc.send(
                    line(
                        "/initGame",
                        wind,
                        WINDS[(s - dealer) % 4],
                        int(eng.s.g[b, st.G_ROT]) + 1,
                        dealer + 1,
                        int(eng.streak[b]),
                    )
                )
                h = self.held[b][s]
                seat.proc.send(line("/initCard", *(sorted(h[:-1]) + h[-1:] if s == dealer else sorted(h))))
            except (BotFault, ProtocolError) as e:
                self._fault(seat, e)

    # -- decisions ----------------------------------------------------------------------------------
    def decide(
        self, live: np.ndarray, cur: np.ndarray, obs: np.ndarray, mask: np.ndarray, acts: np.ndarray, who: np.ndarray
    ) -> None:
        """Decide the rows of ``live`` the referee owns (claim rounds, bot seats' turns): their action
        into ``acts``, ``who`` set to -1 (``act_by_seat`` leaves them)."""
        phase = self.eng.phase
        for i, b in enumerate(live):
            s, ph = int(cur[i]), int(phase[b])
            if ph == st.PH_CLAIM:
                if self.answers[b, s] < 0:
                    self._claim_round(b)
                acts[i], who[i] = self.answers[b, s], -1
            elif self.seats[b][s] is not None:
                acts[i], who[i] = self._bot_move(b, s, ph, obs[i], mask[i]), -1

    def _fallback(self, seat: _Seat, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(seat.agent.fallback.act(obs[None], mask[None])[0])

    def _bot_move(self, b: int, s: int, ph: int, obs: np.ndarray, mask: np.ndarray) -> int:
        seat = self.seats[b][s]
        if seat.proc is None or ph != st.PH_TURN:  # faulted this hand, or a question the protocol has not (robbing)
            return self._fallback(seat, obs, mask)
        try:
            return self._turn(seat, b, s, mask)
        except (BotFault, ProtocolError) as e:
            self._fault(seat, e)
            return self._fallback(seat, obs, mask)

    def _turn(self, seat: _Seat, b: int, s: int, mask: np.ndarray) -> int:
        hand = self.eng.hands[b, s]
        if mask[WIN]:
            if self._ask(seat, "hu")[0] == "hu":
                return WIN
        if mask[SELF_KONG:WIN].any():
            word, args = self._ask(seat, "gong")
            if word == "gong":
                how, tiles = args[0], args[1:]
                kinds = {kind_of_id(t) for t in tiles}
                k = kinds.pop() if len(kinds) == 1 else -1
                if (
                    k < 0
                    or not set(tiles) <= set(self.held[b][s])
                    or not mask[SELF_KONG + k]
                    or how == 4
                    or (how == 0) != (hand[k] == 4)
                ):
                    raise IllegalAnswer(f"/gong {how} {' '.join(map(str, tiles))}: not a kong on offer")
                self.thrown[b] = tiles
                return SELF_KONG + k
        word, (tid,) = self._ask(seat, "throw")
        k = kind_of_id(tid)
        if tid not in self.held[b][s] or not mask[DISCARD + k]:
            raise IllegalAnswer(
                f"/throw {tid}: {'not in the hand' if tid not in self.held[b][s] else 'not a legal discard'}"
            )
        self.thrown[b] = [tid]
        return DISCARD + k

    def _claim_round(self, b: int) -> None:
        """Every asked seat's answer to the discard, asked in the events' order (module docstring)."""
        eng = self.eng
        d, t = int(eng.turn_seat[b]), int(eng.claim_tile[b])
        bits = eng.s.p[b, :, st.P_CLAIM].copy()
        full: dict[int, int] = {}
        self.answers[b] = np.where(bits != 0, PASS, -1)

        def wants(s: int, what: str) -> int | None:
            seat = self.seats[b][s]
            if seat is not None and seat.proc is not None:
                try:
                    return self._bot_claim(seat, b, s, what, t, int(bits[s]))
                except (BotFault, ProtocolError) as e:
                    self._fault(seat, e)
            if s not in full:
                full[s] = self._inprocess_claim(b, s, int(bits[s]), seat)
            a = full[s]
            ok = {"hu": a == WIN, "gong": a == KONG, "pong": a == PON, "eat": CHI <= a < PON}[what]
            return a if ok else None

        order = [(d + i) % 4 for i in (1, 2, 3)]
        steps = [(s, "hu") for s in order if bits[s] & st.C_WIN]
        steps += [(s, q) for s in order for q, bit in (("gong", st.C_KONG), ("pong", st.C_PON)) if bits[s] & bit]
        steps += [(order[0], "eat")] if bits[order[0]] & (st.C_CHI_LOW | st.C_CHI_MID | st.C_CHI_HIGH) else []
        for s, what in steps:
            a = wants(s, what)
            if a is not None:
                self.answers[b, s] = a
                return

    def _inprocess_claim(self, b: int, s: int, bits: int, seat: _Seat | None) -> int:
        agent = seat.agent.fallback if seat is not None else self.agents[self.seat_agent[b, s]]
        obs = self.enc.encode_rows(self.eng, self.buf, np.array([b], np.int64), np.array([s], np.int64))
        mask = np.zeros((1, 76), bool)
        mask[0, PASS] = True
        for bit, a in CLAIM_BITS:
            mask[0, a] = bool(bits & bit)
        return int(agent.act(obs.copy(), mask)[0])

    def _bot_claim(self, seat: _Seat, b: int, s: int, what: str, t: int, bits: int) -> int | None:
        word, tiles = self._ask(seat, what)
        if word == "pass":
            return None
        how = tiles.pop(0) if what == "gong" else None
        held = self.held[b][s]
        if not set(tiles) <= set(held):
            raise IllegalAnswer(f"/{what} {' '.join(map(str, tiles))}: tiles not in the hand")
        kinds = sorted(kind_of_id(x) for x in tiles)
        if what == "hu":
            return WIN
        if what == "gong":
            if how != 4 or kinds != [t] * 3:
                raise IllegalAnswer(
                    f"/gong {how} {' '.join(map(str, tiles))}: expected /gong 4 and three tiles of the discard's kind"
                )
            self.claim_ids[b] = tiles
            return KONG
        if what == "pong":
            if kinds != [t, t]:
                raise IllegalAnswer(f"/pong {tiles[0]} {tiles[1]}: not two tiles of the discard's kind")
            self.claim_ids[b] = tiles
            return PON
        lo = min(kinds + [t])
        pos = t - lo
        ok = sorted(kinds + [t]) == [lo, lo + 1, lo + 2] and lo // 9 == (lo + 2) // 9 and lo + 2 < 27
        if not ok or not bits & (st.C_CHI_LOW << pos):
            raise IllegalAnswer(f"/eat {tiles[0]} {tiles[1]}: not a chow on offer with the discard")
        self.claim_ids[b] = tiles
        return CHI + pos

    # -- announcements after each step -------------------------------------------------------------
    def before_step(self, actions: np.ndarray) -> None:
        e = self.eng
        self.pre = {
            "phase": e.phase.copy(),
            "cur": e.current_player.copy(),
            "hands": e.hands.copy(),
            "nm": e.n_melds.copy(),
            "drawn": e.last_drawn.copy(),
            "term": e.terminated.copy(),
        }
        self.step_actions = np.asarray(actions).copy()

    def after_step(self) -> None:
        e, pre = self.eng, self.pre
        for b in np.flatnonzero(~pre["term"]):
            s, a, ph = int(pre["cur"][b]), int(self.step_actions[b]), int(pre["phase"][b])
            self.actions[b].append(a)
            ended = bool(e.terminated[b]) or e.s.g[b, st.G_HANDS] > self.hand_no[b]
            if ph == st.PH_TURN:
                self._after_turn(b, s, a)
            elif e.phase[b] == ph and not ended:
                continue  # the claim round goes on
            else:
                self._after_round(b, ended)
            if ended:
                self._hand_over(b)
                if not e.terminated[b]:  # episode "game": the next hand is dealt
                    self._deal(b)
            elif e.phase[b] == st.PH_TURN and e.last_drawn[b] >= 0:  # a draw ended this step (module docstring)
                drawer = int(e.turn_seat[b])
                self._send(b, drawer, line("/mo", self._give(b, drawer, int(e.last_drawn[b]))))
            self.thrown.pop(b, None)

    def _after_turn(self, b: int, s: int, a: int) -> None:
        _e, pre = self.eng, self.pre
        own = self.thrown.get(b)
        if DISCARD <= a < CHI:
            tid = self._take(b, s, a - DISCARD, own[0] if own else None)
            self.last_id[b] = tid
            self._announce(b, line("/throw", s + 1, tid))
        elif SELF_KONG <= a < WIN:
            k = a - SELF_KONG
            if pre["hands"][b, s, k] == 4:
                tiles = [self._take(b, s, k, x) for x in (own or [None] * 4)]
                self._announce(b, line("/gong", s + 1, 0), actor=s, private=line("/gong", s + 1, 0, *tiles))
            else:
                tid = self._take(b, s, k, own[0] if own else None)
                self.last_id[b] = tid  # (the tile a rob would win on)
                self._announce(b, line("/gong", s + 1, 1, tid))
        elif a == WIN:
            tid = self._take(b, s, int(pre["drawn"][b]))
            self._announce(b, line("/hu", s + 1, tid, *sorted(self.held[b][s])))

    def _after_round(self, b: int, ended: bool) -> None:
        e, pre = self.eng, self.pre
        self.answers[b] = -1
        own = self.claim_ids.pop(b, None)
        tid = int(self.last_id[b])
        t = kind_of_id(tid)
        rec = e.last_hand(b) if ended else None
        if rec is not None and len(rec.winners):
            w = int(rec.winners[0])
            self._announce(b, line("/hu", w + 1, tid, *sorted(self.held[b][w])))
            return
        grown = np.flatnonzero(e.n_melds[b] > pre["nm"][b])
        if not grown.size:
            return
        c = int(grown[0])
        mtype, lo = (
            int(e.melds[b, c, e.n_melds[b, c] - 1, st.MC_TYPE]),
            int(e.melds[b, c, e.n_melds[b, c] - 1, st.MC_KIND]),
        )
        if mtype == MELD_CHI:
            kinds = [k for k in (lo, lo + 1, lo + 2) if k != t]
            mine = [self._take(b, c, k, x) for k, x in zip(kinds, sorted(own, key=kind_of_id) if own else (None, None))]
            self._announce(b, line("/eat", c + 1, mine[0], tid, mine[1]))
        elif mtype == MELD_PON:
            mine = [self._take(b, c, t, x) for x in (own or (None, None))]
            self._announce(b, line("/pong", c + 1, mine[0], mine[1], tid))
        else:
            mine = [self._take(b, c, t, x) for x in (own or (None, None, None))]
            self._announce(b, line("/gong", c + 1, 4, *mine, tid))

    def _hand_over(self, b: int) -> None:
        for s in range(4):
            seat = self.seats[b][s]
            if seat is not None and seat.proc is not None:
                self._write_transcript(seat)

    def _hand_label(self, b: int, hand: bool = False) -> str:
        game = self.eng.rules.episode == "game"
        return f"wall{int(self.seeds[b]):020d}-g{b:03d}" + (f"-h{self.hand_no[b] + 1:02d}" if hand and game else "")

    def _write_transcript(self, seat: _Seat) -> None:
        if not seat.agent.log_dir or seat.proc is None:
            return
        os.makedirs(seat.agent.log_dir, exist_ok=True)
        path = Path(seat.agent.log_dir) / f"{self._hand_label(seat.game, True)}-seat{seat.seat + 1}.txt"
        path.write_text("".join(x + "\n" for x in seat.proc.transcript))
