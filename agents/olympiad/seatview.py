"""One seat's game rebuilt from the protocol's messages alone (the ``tw16 bot`` side of the bridge).

``SeatView`` keeps the public state the messages tell (own tiles and draws, every seat's discards,
claims and kongs, the other seats' draws implied by their next action, wall counters) in the engine's
state layout (``envs.engine.state``, one game), with the other seats' concealed tiles as counts only;
the observation is then the engine's own encoder (``PlanesV0.encode_rows``) and the legal actions the
engine's own mask (``mask_rows``, ``claim_options``), so any tw16 agent decides as it would in process.
"""

from __future__ import annotations

import numpy as np

from agents.olympiad.codec import WINDS, ProtocolError, ids, kind_of_id, seat_token
from envs._core import claim_options, mask_rows
from envs.engine import state as st
from envs.engine.actions import CHI, DISCARD, KONG, N_ACTIONS, PON, SELF_KONG, WIN
from envs.engine.mask import native_rules
from envs.tiles import MELD_ADDKONG, MELD_ANKONG, MELD_CHI, MELD_KONG, MELD_PON

DEALT = 16  # tiles dealt to each seat (the dealer's 17th is its first draw)


def _counts(n: int) -> np.ndarray:
    """Some 34 counts (each 0..4) summing to n: a hidden hand, of which only the size is used."""
    out = np.zeros(34, np.int8)
    out[: n // 4] = 4
    if n % 4:
        out[n // 4] = n % 4
    return out


class SeatView:
    """The seat's game; ``decide(what)`` answers an ``/ask``. Raises ``ProtocolError`` on a message
    that contradicts the game (the bot loop reports it and answers a legal default)."""

    def __init__(self, rules, agent):
        self.rules, self.agent = rules, agent
        self.s = st.alloc(1)
        self.me = 0
        self.sizes = np.zeros(4, np.int64)  # concealed tiles per seat
        self.held: list[int] = []  # own ids, in the order received
        self.in_hand = False
        self.pending = None  # (discarder, kind) of a discard whose claims are not settled yet
        self.replacement = None  # SRC_* of the own draw to come after an own kong
        self.cache = None  # (epoch, action): the decision of the current question round
        self.epoch = 0

    # -- engine-state helpers -----------------------------------------------------------------------
    @property
    def native(self):
        """The rules compiled once (the encoders, mask_rows and claim_options take them, as from an Engine)."""
        return native_rules(self.rules)

    @property
    def g(self) -> np.ndarray:
        return self.s.g[0]

    def _sync_hands(self) -> None:
        h = self.s.hands[0]
        h[self.me] = np.bincount([kind_of_id(t) for t in self.held], minlength=34)
        for o in range(4):
            if o != self.me:
                h[o] = _counts(int(self.sizes[o]))

    def _meld(self, seat: int, mtype: int, lo: int, frm: int) -> None:
        n = int(self.s.p[0, seat, st.P_NMELDS])
        if n >= st.MAX_MELDS:
            raise ProtocolError(f"seat {seat + 1} would have more than {st.MAX_MELDS} melds")
        self.s.melds[0, seat, n] = (mtype, lo, frm)
        self.s.p[0, seat, st.P_NMELDS] = n + 1
        self.g[st.G_ANY_MELD] = 1

    def _remove(self, seat: int, tids: list[int], kinds: list[int]) -> None:
        if seat == self.me:
            for t in tids:
                if t not in self.held:
                    raise ProtocolError(f"tile {t} is not in this seat's hand")
                self.held.remove(t)
        elif self.sizes[seat] < len(kinds):
            raise ProtocolError(f"seat {seat + 1} holds fewer than {len(kinds)} tiles")
        self.sizes[seat] -= len(kinds)

    def _begin_turn(self, seat: int, drawn: int, src: int = st.SRC_FRONT) -> None:
        g = self.g
        g[st.G_PHASE], g[st.G_TURN], g[st.G_TILE] = st.PH_TURN, seat, -1
        g[st.G_LAST_DRAWN], g[st.G_DRAWSRC], g[st.G_AFTER_CLAIM] = drawn, src, 0

    def _other_draws(self, seat: int, src: int) -> None:
        """Another seat drew (not announced: implied by its next action)."""
        if src == st.SRC_FRONT:
            self.g[st.G_HEAD] += 1
        else:
            self.g[st.G_TAIL] -= 1
        self.sizes[seat] += 1
        self._begin_turn(seat, -1, src)

    def _settle_pending(self) -> None:
        """The last discard was not claimed: the next seat drew from the front."""
        if self.pending is None:
            return
        d, _ = self.pending
        self.pending = None
        nxt = (d + 1) % 4
        if nxt != self.me:  # (the own draw comes as /mo)
            self._other_draws(nxt, st.SRC_FRONT)

    # -- messages --------------------------------------------------------------------------------------
    def handle(self, toks: list[str]) -> None:
        """Apply one announcement (not an /ask)."""
        self.epoch += 1
        cmd = toks[0]
        if cmd == "/start":
            if len(toks) < 3:
                raise ProtocolError("/start MJ <seat> [name]: seat missing")
            self.me = seat_token(toks[2])
        elif cmd == "/initGame":
            self._init_game(toks)
        elif not self.in_hand:
            raise ProtocolError(f"{cmd} outside a hand (no /initGame yet)")
        elif cmd == "/initCard":
            self._init_card(toks[1:])
        elif cmd == "/mo":
            self._own_draw(toks)
        elif cmd == "/throw":
            self._throw(toks)
        elif cmd in ("/eat", "/pong"):
            self._claim(cmd, toks)
        elif cmd == "/gong":
            self._gong(toks)
        elif cmd == "/hu":
            self.in_hand = False
        else:
            raise ProtocolError(f"unknown message {cmd!r}")

    def _init_game(self, toks: list[str]) -> None:
        if len(toks) < 6:
            raise ProtocolError("/initGame <round wind> <seat wind> <n> <dealer> <streak>: at least 6 tokens")
        if toks[1] not in WINDS:
            raise ProtocolError(f"/initGame: round wind {toks[1]!r} (expected one of {', '.join(WINDS)})")
        try:
            n, streak = int(toks[3]), int(toks[5])
        except ValueError:
            raise ProtocolError("/initGame: <n> and <streak> must be integers") from None
        dealer = seat_token(toks[4])
        self.s = st.alloc(1)
        g = self.g
        g[st.G_DEALER], g[st.G_STREAK] = dealer, max(streak, 0)
        g[st.G_ROT] = max(n - 1, 4 * WINDS.index(toks[1]))  # dealer passes (n: the dealer's number in the game)
        g[st.G_WALL_N], g[st.G_HEAD], g[st.G_TAIL] = 136, 4 * DEALT + 1, 135
        self.sizes[:] = DEALT
        self.sizes[dealer] = DEALT + 1
        self.held, self.pending, self.replacement, self.in_hand = [], None, None, True
        self._begin_turn(dealer, -1)

    def _init_card(self, tids: list[str]) -> None:
        want = int(self.sizes[self.me])
        if len(tids) != want:
            raise ProtocolError(f"/initCard: expected {want} tiles for seat {self.me + 1}, got {len(tids)}")
        self.held = ids(tids, want, "/initCard")
        if want == DEALT + 1:  # the dealer's 17th tile (listed last) counts as its draw
            self.g[st.G_LAST_DRAWN] = kind_of_id(self.held[-1])

    def _own_draw(self, toks: list[str]) -> None:
        (tid,) = ids(toks[1:], 1, "/mo")
        if tid in self.held:
            raise ProtocolError(f"/mo {tid}: already in the hand")
        self._settle_pending()
        src = self.replacement if self.replacement is not None else st.SRC_FRONT
        self.replacement = None
        if src == st.SRC_FRONT:
            self.g[st.G_HEAD] += 1
        else:
            self.g[st.G_TAIL] -= 1
        self.held.append(tid)
        self.sizes[self.me] += 1
        self.s.p[0, self.me, st.P_PASS_WIN] = 0
        self._begin_turn(self.me, kind_of_id(tid), src)

    def _throw(self, toks: list[str]) -> None:
        if len(toks) != 3:
            raise ProtocolError("/throw <seat> <id>: 3 tokens")
        seat = seat_token(toks[1])
        (tid,) = ids(toks[2:], 1, "/throw")
        self._settle_pending()
        k = kind_of_id(tid)
        self._remove(seat, [tid], [k])
        g = self.g
        n = int(g[st.G_NRIVER])
        self.s.river[0, n] = (k, seat, -1, 0)
        g[st.G_NRIVER] = n + 1
        g[st.G_PHASE], g[st.G_TURN], g[st.G_TILE], g[st.G_LAST_DRAWN], g[st.G_AFTER_CLAIM] = st.PH_CLAIM, seat, k, -1, 0
        self.pending = (seat, k)

    def _claim(self, cmd: str, toks: list[str]) -> None:
        if self.pending is None:
            raise ProtocolError(f"{cmd} with no discard to claim")
        if len(toks) != 5:
            raise ProtocolError(f"{cmd} <seat> a b c: 5 tokens")
        c = seat_token(toks[1])
        tiles = ids(toks[2:], 3, cmd)
        d, t = self.pending
        claimed = tiles[1] if cmd == "/eat" else tiles[2]
        if kind_of_id(claimed) != t:
            raise ProtocolError(f"{cmd}: tile {claimed} is not the discard")
        mine = [x for x in tiles if x != claimed]
        kinds = [kind_of_id(x) for x in mine]
        self.pending = None
        self._remove(c, mine, kinds)
        self.s.river[0, self.g[st.G_NRIVER] - 1, st.RV_CLAIMED_BY] = c
        lo = min(kinds + [t])
        self._meld(c, MELD_CHI if cmd == "/eat" else MELD_PON, lo, d)
        self._begin_turn(c, -1)
        self.g[st.G_AFTER_CLAIM] = 1

    def _gong(self, toks: list[str]) -> None:
        if len(toks) < 3 or toks[2] not in ("0", "1", "4"):
            raise ProtocolError("/gong <seat> 0|1|4 ...")
        c, how = seat_token(toks[1]), int(toks[2])
        if how == 4:
            if self.pending is None:
                raise ProtocolError("/gong <seat> 4 with no discard to claim")
            d, t = self.pending
            tiles = ids(toks[3:], 4, "/gong 4")
            mine = [x for x in tiles if kind_of_id(x) == t][:3]
            self.pending = None
            self._remove(c, mine if c == self.me else [], [t] * 3)
            self.s.river[0, self.g[st.G_NRIVER] - 1, st.RV_CLAIMED_BY] = c
            self._meld(c, MELD_KONG, t, d)
            src = st.SRC_EXPOSED_KONG
        else:
            self._settle_pending()
            if how == 0:
                own = c == self.me
                tiles = ids(toks[3:], 4 if own else 0, "/gong 0")
                k = kind_of_id(tiles[0]) if own else 0  # another seat's concealed kong is face down
                if own and {kind_of_id(x) for x in tiles} != {k}:
                    raise ProtocolError("/gong 0: four tiles of one kind")
                self._remove(c, tiles, [k] * 4)
                self._meld(c, MELD_ANKONG, k, c)
            else:
                (tid,) = ids(toks[3:], 1, "/gong 1")
                k = kind_of_id(tid)
                m = self.s.melds[0, c]
                row = [
                    i
                    for i in range(int(self.s.p[0, c, st.P_NMELDS]))
                    if m[i, st.MC_TYPE] == MELD_PON and m[i, st.MC_KIND] == k
                ]
                if not row:
                    raise ProtocolError(f"/gong {c + 1} 1 {tid}: seat {c + 1} has no pong of that kind")
                self._remove(c, [tid], [k])
                m[row[0], st.MC_TYPE] = MELD_ADDKONG
            src = st.SRC_KONG
        self.g[st.G_NKONG] += 1
        if c == self.me:
            self.replacement = src
        else:
            self._other_draws(c, src)

    # -- decisions --------------------------------------------------------------------------------------
    def mask(self, claim: bool) -> np.ndarray:
        g = self.g
        self._sync_hands()
        g[st.G_CUR] = self.me
        if claim:
            d, t = self.pending
            g[st.G_PHASE], g[st.G_TURN], g[st.G_TILE] = st.PH_CLAIM, d, t
            self.s.p[0, self.me, st.P_CLAIM] = claim_options(
                g, self.s.p[0, self.me], self.s.hands[0, self.me], self.me, d, t, self.native
            )
        m = np.zeros((1, N_ACTIONS), np.bool_)
        mask_rows(m, self.s.g, self.s.p, self.s.hands, self.s.melds, np.zeros(1, np.bool_), self.native)
        return m

    def decide(self, what: str) -> str:
        """The answer line to ``/ask <what>``."""
        claim = self.pending is not None and int(self.sizes[self.me]) % 3 == 1
        if what in ("throw",) and claim:
            raise ProtocolError("/ask throw while a discard waits for claims")
        if what == "eat" and not claim:
            raise ProtocolError("/ask eat with no discard to claim")
        if not claim and int(self.sizes[self.me]) % 3 != 2:
            raise ProtocolError(f"/ask {what} at {self.sizes[self.me]} tiles (3n+2 on the seat's turn)")
        if not claim and self.g[st.G_TURN] != self.me:
            raise ProtocolError(f"/ask {what} but it is seat {self.g[st.G_TURN] + 1}'s turn")
        if self.cache is None or self.cache[0] != self.epoch:
            m = self.mask(claim)
            a = self._act(m)
            if claim and m[0, WIN] and a != WIN:
                self.s.p[0, self.me, st.P_PASS_WIN] = 1  # 過水, as the engine sets it when the round ends
            self.cache = (self.epoch, a, m)
        _, a, m = self.cache
        return self._answer(what, a, m)

    def _act(self, m: np.ndarray) -> int:
        from envs.obs.planes_v0 import PlanesV0

        enc = PlanesV0(derived=getattr(self.agent, "derived", False))
        obs = enc.encode_rows(self, enc.alloc(1), np.zeros(1, np.int64), np.array([self.me], np.int64))
        return int(self.agent.act(obs, m)[0])

    def _answer(self, what: str, a: int, m: np.ndarray) -> str:
        hand = np.bincount([kind_of_id(t) for t in self.held], minlength=34)
        last = {kind_of_id(t): t for t in self.held}  # the last received id of each kind
        if what == "hu":
            return "/hu" if a == WIN else "/pass"
        if what == "gong":
            if a == KONG:
                return "/gong 4 " + " ".join(str(t) for t in self.held if kind_of_id(t) == self.pending[1])
            if SELF_KONG <= a < WIN:
                k = a - SELF_KONG
                if hand[k] == 4:
                    return "/gong 0 " + " ".join(str(t) for t in self.held if kind_of_id(t) == k)
                return f"/gong 1 {last[k]}"
            return "/pass"
        if what == "pong":
            if a != PON:
                return "/pass"
            return "/pong " + " ".join(str(t) for t in [t for t in self.held if kind_of_id(t) == self.pending[1]][:2])
        if what == "eat":
            if not CHI <= a < PON:
                return "/pass"
            t = self.pending[1]
            lo = t - (a - CHI)
            return "/eat " + " ".join(str(last[k]) for k in range(lo, lo + 3) if k != t)
        if what == "throw":
            if not DISCARD <= a < CHI:  # (asked to throw after passing what the agent chose: its best discard)
                d = m.copy()
                d[0, CHI:] = False
                a = self._act(d)
            return f"/throw {last[a - DISCARD]}"
        raise ProtocolError(f"unknown request /ask {what}")
