"""One game in the browser: a ``tw16.cli.game.TableGame`` driven by messages from any number of tabs.

Every change bumps ``version`` and is sent to every tab of the game; a message that acts carries the
version it was chosen at, so a click from a tab that is behind (another tab acted first) is refused
and changes nothing. A tab that reconnects with the game's id gets the state as it is.

Messages from the page (JSON objects): ``{"type": "act", "action": A, "version": V}``,
``{"type": "next"}`` (after a hand's result), ``{"type": "advice"}`` (the agent's view),
``{"type": "search"}`` (search EVs of the agent's top actions). Answers: ``{"type": "state", ...}`` to
every tab, ``{"type": "advice"|"search", ...}`` or ``{"type": "error", "message": ...}`` to the one
that asked.
"""

from __future__ import annotations

import json
import secrets
import time
from pathlib import Path

from envs.engine import actions as A
from envs.rules import Rules
from tw16.cli.game import TableGame, snapshot
from tw16.cli.web.advice import agent_view, search_view
from tw16.cli.web.view import choices_view, refusals, table_view

MAX_MESSAGE = 4096  # bytes: every valid message is far smaller
SEARCH_K = 16  # rollouts per action for the page's search EVs (about a second on one core)


class BadMessage(ValueError):
    """A message the page should not have sent; the text goes back to it."""


def parse_message(text) -> dict:
    """A websocket text frame -> a message dict, or ``BadMessage`` naming the problem."""
    if not isinstance(text, str):
        raise BadMessage("messages are JSON text")
    if len(text.encode()) > MAX_MESSAGE:
        raise BadMessage(f"message too long ({len(text.encode())} bytes, at most {MAX_MESSAGE})")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("message is not valid JSON") from None
    if not isinstance(msg, dict) or msg.get("type") not in ("act", "next", "advice", "search", "state"):
        raise BadMessage("message must be an object with type act, next, advice, search or state")
    if msg["type"] == "act":
        for key in ("action", "version"):
            v = msg.get(key)
            if isinstance(v, bool) or not isinstance(v, int):
                raise BadMessage(f"act needs an integer {key}, got {json.dumps(v)[:40]}")
    return msg


class GameSession:
    """A person's game: the table, the hand results waiting to be read, the logs written."""

    def __init__(
        self,
        rules: Rules,
        agents,
        advisor,
        seat: int = 0,
        seed: int = 0,
        log_dir=None,
        walls=None,
        results=None,
        specs=(),
    ):
        """``walls``: (name, seeds) of a published duplicate set to deal in order, one hand each, the
        person's seat moving round the table (wall n // 4, seat n % 4); ``results``: the file its hands
        are added to (JSON lines)."""
        self.id = secrets.token_urlsafe(8)
        self.walls = walls
        self.results = Path(results) if results else None
        self.specs = list(specs)
        rules = rules.replace(episode="hand" if walls else "game")
        self.game = TableGame(rules, seat, agents, seed)
        self.advisor = advisor
        self.log_dir = Path(log_dir) if log_dir else None
        self.version = 0
        self.hand_no = 0  # hands finished in this session
        self.pending = None  # the result of the hand just ended, until the person reads it
        self.events: list[str] = []
        self.log_file = None
        self.dup_index = self._done_in_results() if walls else 0
        self._deal()
        self._advance()

    # -- dealing and the agents' turns ----------------------------------------------------------
    def _deal(self) -> None:
        if self.walls:
            name, seeds = self.walls
            if self.dup_index >= len(seeds):
                raise RuntimeError(f"every wall of evaluation set {name} has been played")
            self.game.sit(self.dup_index % 4)
            self.game.deal_wall(int(seeds[self.dup_index // 4]))
        else:
            for rec in self.game.new_game():  # a hand that ended in its deal: shown, then the next
                self.pending = self._result(rec, None)
        self.log_file = self._log_path()
        self.events = []

    def _log_path(self):
        if self.log_dir is None:
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        tag = f"{self.walls[0]}-{self.dup_index:05d}" if self.walls else f"game{self.game.games}"
        return self.log_dir / f"{stamp}-{self.id}-{tag}.jsonl"

    def _advance(self) -> None:
        """Let the agents play until the person decides or a hand ends."""
        g = self.game
        while self.pending is None and not g.over and not g.human_to_act():
            self._play(g.agent_action())

    def _play(self, action: int) -> None:
        g = self.game
        before = snapshot(g.eng)
        seat = g.to_act()
        ended = g.step(action)
        self.events.append(f"{'you' if seat == g.seat else 'p' + str(seat)}: {A.action_name(action)}")
        del self.events[:-12]
        if ended:
            rec = ended[0]
            self.pending = self._result(rec, before)
            self.hand_no += 1
            self._save()

    def _save(self) -> None:
        if self.log_file is not None:
            self.log_file.parent.mkdir(parents=True, exist_ok=True)
            self.log_file.write_text(self.game.log_text(), encoding="utf-8")
        if self.walls and self.results is not None:
            rec = self.pending
            row = {
                "set": self.walls[0],
                "index": self.dup_index,
                "wall": self.dup_index // 4,
                "seat": self.game.seat,
                "seed": self.game.game_seed,
                "agents": self.game.names,
                "specs": self.specs,
                "chips": rec["deltas"][self.game.seat],
                "deltas": rec["deltas"],
                "rules": self.game.rules.to_dict(),
                "log": self.log_file.name if self.log_file else None,
            }
            self.results.parent.mkdir(parents=True, exist_ok=True)
            with self.results.open("a", encoding="utf-8") as f:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
            self.dup_index += 1

    def _done_in_results(self) -> int:
        """Hands of this set already in the results file: the person goes on from the next wall."""
        if self.results is None or not self.results.exists():
            return 0
        n = 0
        for line in self.results.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if isinstance(row, dict) and row.get("set") == self.walls[0]:
                n = max(n, int(row.get("index", -1)) + 1)
        return n

    # -- a hand's end ----------------------------------------------------------------------------
    def _result(self, rec, before) -> dict:
        g = self.game
        prof = g.rules.profile_data
        order = {k: i for i, k in enumerate(prof.keys)}
        winners = []
        for w in rec.winners:
            items = sorted(rec.items[w], key=lambda kv: order.get(kv[0], 999))
            winners.append(
                {"seat": w, "tai": rec.tai[w], "items": [{"key": k, "zh": prof.zh(k), "tai": v} for k, v in items]}
            )
        table = None if before is None else table_view(before, g.seat, g.names, g.total(), reveal=True)
        return {
            "drawn": rec.drawn,
            "winners": winners,
            "win_by": rec.win_by,
            "payer": rec.payer,
            "win_tile": rec.win_tile,
            "deltas": list(rec.deltas),
            "dealer": rec.dealer,
            "streak": rec.streak,
            "table": table,
            "totals": [int(x) for x in g.total()],
            "game_over": g.over and not self.walls,
            "log": self.log_file.name if self.log_file else None,
        }

    # -- the page's messages ---------------------------------------------------------------------
    def state(self) -> dict:
        g = self.game
        mine = self.pending is None and g.human_to_act()
        out = {
            "type": "state",
            "game": self.id,
            "version": self.version,
            "hand_no": self.hand_no + 1,
            "table": table_view(g.eng, g.seat, g.names, g.total()),
            "your_turn": mine,
            "choices": choices_view(g.eng) if mine else [],
            "notes": refusals(g.eng, g.seat) if mine else [],
            "result": self.pending,
            "events": self.events,
            "advisor": getattr(self.advisor, "name", None),
        }
        if self.walls:
            out["duplicate"] = {
                "set": self.walls[0],
                "index": self.dup_index,
                "wall": self.dup_index // 4,
                "of": len(self.walls[1]) * 4,
            }
        return out

    def act(self, action: int, version: int) -> None:
        """The person's action; ``BadMessage`` (nothing changes) when it is not theirs to take now."""
        g = self.game
        if version != self.version:
            raise BadMessage(
                f"that click was for an older table (version {version}, now {self.version}): "
                "another tab acted first; nothing was played"
            )
        if self.pending is not None:
            raise BadMessage("the hand is over: read the result and press next")
        if not g.human_to_act():
            raise BadMessage(f"it is not your turn (p{g.to_act()} is to act)")
        if not 0 <= action < A.N_ACTIONS or not g.eng.legal_action_mask[0, action]:
            name = A.action_name(action) if 0 <= action < A.N_ACTIONS else f"action {action}"
            raise BadMessage(f"{name} is not legal now; nothing was played")
        self._play(action)
        self._advance()
        self.version += 1

    def next_hand(self) -> None:
        if self.pending is None:
            raise BadMessage("there is no finished hand to move past")
        self.pending = None
        if self.game.over:
            self._deal()
        self._advance()
        self.version += 1

    def advice(self) -> dict:
        if self.pending is not None or not self.game.human_to_act():
            raise BadMessage("the agent's view is for your own decisions: it is not your turn")
        if self.advisor is None:
            raise BadMessage("no agent to ask: start tw16 web with --agent")
        g = self.game
        view = agent_view(self.advisor, g.eng, g.seat, g.rules.stakes.per_tai)
        return {"type": "advice", "version": self.version, **view}

    def search(self) -> dict:
        adv = self.advice()
        acts = [t["action"] for t in adv["top"]]
        for c in choices_view(self.game.eng)[:3]:  # always a few alternatives, also for a one-choice agent
            if c["action"] not in acts:
                acts.append(c["action"])
        rows = search_view(self.game.eng, acts[:5], k=SEARCH_K, seed=self.version)
        return {"type": "search", "version": self.version, "k": SEARCH_K, "rows": rows}
