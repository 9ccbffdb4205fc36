"""One table with a person at one seat and agents at the others: the game loop that ``tw16 play``
(the terminal) and ``tw16 web`` (the browser) both drive.

``TableGame`` owns the engine (batch 1, hands recorded), the three agents and their encoders, the
chips of the games already finished and the actions of the game being played (its replay log is
``envs.engine.replay.record(rules, seed, actions)``). The driver asks ``human_to_act()``; if not,
``agent_step()`` plays the seat to act; either way ``step(action)`` returns the hands it ended.

Two ways to deal: ``episode="game"`` games from ``seed + 7919 * game`` (``tw16 play``, ``tw16 web``)
or a fixed list of walls, one hand each, the person at a given seat (``deal_wall``: the published
duplicate walls, ``tw16 web --duplicate v1``).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np

from envs.engine.api import Engine
from envs.engine.replay import dumps, record
from envs.obs.planes_v0 import N_CHANNELS, N_CHANNELS_DERIVED, PlanesV0
from envs.rules import Rules

# The public views of the engine that a table drawing and the legal choices read.
TABLE_VIEWS = (
    "dealer",
    "streak",
    "round_wind",
    "phase",
    "current_player",
    "turn_seat",
    "claim_tile",
    "last_drawn",
    "hands",
    "melds",
    "n_melds",
    "flowers",
    "river",
    "n_river",
    "ready",
    "scores",
    "wall_drawable",
    "legal_action_mask",
    "pass_win",
)


def snapshot(eng) -> SimpleNamespace:
    """A copy of an engine's public views (the table before a step, to show the hand it ended)."""
    return SimpleNamespace(**{k: np.array(getattr(eng, k)) for k in TABLE_VIEWS})


def agent_channels(agent) -> int:
    """Observation channels an agent takes: 79 (planes_v0) or 86 (planes_v0 derived)."""
    c = getattr(agent, "in_channels", None)
    if c is None:
        cfg = getattr(getattr(agent, "net", None), "cfg", None)
        c = getattr(cfg, "in_channels", None)
    return int(c) if c else N_CHANNELS


def make_opponents(specs, seed: int = 0) -> tuple[list, list[str]]:
    """Agents from specs (``neural`` falls back to ``greedy`` when the shipped checkpoint is missing,
    saying so once). Returns (agents, notes)."""
    from agents import make_agent

    notes = []
    agents = []
    for i, spec in enumerate(specs):
        spec = spec.strip()
        if spec == "neural":
            from agents.neural import DEFAULT_CHECKPOINT

            if not Path(DEFAULT_CHECKPOINT).exists():
                msg = f"no shipped checkpoint ({DEFAULT_CHECKPOINT.name}): playing against greedy instead of neural"
                if msg not in notes:
                    notes.append(msg)
                spec = "greedy"
        agents.append(make_agent(spec, seed=seed + i))
    return agents, notes


def three(opponents) -> list:
    """One opponent for all three seats, or three."""
    opp = list(opponents)
    if len(opp) == 1:
        opp = opp * 3
    if len(opp) != 3:
        raise ValueError(f"give one or three opponents, got {len(opp)}")
    return opp


class TableGame:
    """The person at ``seat``, ``agents`` (three, in seat order after the person's) at the others."""

    def __init__(self, rules: Rules, seat: int, agents, seed: int = 0):
        if not 0 <= seat <= 3:
            raise ValueError(f"seat must be 0..3, got {seat}")
        self.rules = rules
        self.seed = int(seed)
        self.agents = three(agents)
        self.eng = Engine(rules, 1, record_hands=True)
        self.banked = np.zeros(4, np.int64)  # chips of the games before this one
        self.games = 0
        self.game_seed = 0
        self.actions: list[int] = []  # the actions of the current game (its replay log)
        self.encoders = {}
        self.referee = None  # external bots (agents.olympiad): the protocol's referee, dealt again with each game
        self.ask_person = None  # view -> action: the person asked by the referee before the engine would
        self._decided = (-1, None)  # (actions played, the referee's action for the seat to act)
        for a in self.agents:  # a network trained on the derived planes (86 channels) gets them
            derived = bool(getattr(a, "derived", False)) or agent_channels(a) >= N_CHANNELS_DERIVED
            self.encoders[id(a)] = PlanesV0(derived=derived)
        self.sit(seat)

    def sit(self, seat: int) -> None:
        """The person moves to ``seat``; the agents keep their order round the table."""
        self.seat = seat
        others = [p for p in range(4) if p != seat]
        self.seat_agent = dict(zip(others, self.agents))
        self.names = ["you" if p == seat else getattr(self.seat_agent[p], "name", "agent") for p in range(4)]

    # -- dealing ----------------------------------------------------------------------------------
    def new_game(self) -> list:
        """Deal the next game (``seed + 7919 * game``); returns the hands that ended in the deal."""
        self.banked = self.total()
        self.game_seed = (self.seed + 7919 * self.games) % (1 << 63)
        self.games += 1
        self.actions = []
        self.eng.reset(np.array([self.game_seed], np.uint64))
        ended = self.eng.take_hands(0)
        self._start_referee()
        return ended

    def deal_wall(self, wall_seed: int) -> int:
        """Deal one wall as duplicate evaluation deals it (``agents.evaluation.arena.deal_played``: a hand that
        ends in its deal is dealt again from ``redeal_seed``); returns the seed dealt (its log's seed)."""
        from envs.engine.rng import redeal_seed

        self.banked = self.total()
        seed = int(wall_seed)
        self.eng.reset(np.array([seed], np.uint64))
        while self.eng.terminated[0]:
            seed = redeal_seed(seed)
            self.eng.reset(np.array([seed], np.uint64))
        self.eng.take_hands(0)  # the records of the replaced deals: not played hands
        self.game_seed = seed
        self.games += 1
        self.actions = []
        self._start_referee()
        return seed

    # -- playing ----------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return bool(self.eng.terminated[0])

    def to_act(self) -> int:
        return int(self.eng.current_player[0])

    def human_to_act(self) -> bool:
        return not self.over and self.to_act() == self.seat and self.referee_action() is None

    def _start_referee(self) -> None:
        if not any(getattr(a, "olympiad", False) for a in self.agents):
            return
        from agents.olympiad.host import Referee

        if self.ask_person is None:
            raise ValueError(
                "external bots (olympiad:COMMAND) need a driver that can ask the person out of turn "
                "(tw16 play); this one cannot"
            )
        table = [_PersonSeat(self) if p == self.seat else self.seat_agent[p] for p in range(4)]
        self.referee = Referee(self.eng, table, np.arange(4)[None, :])
        self._decided = (-1, None)

    def referee_action(self) -> int | None:
        """The action the referee takes for the seat to act (a bot's move, any answer of a claim round),
        None when the seat decides itself; asked once per step."""
        if self.referee is None or self.over:
            return None
        if self._decided[0] != len(self.actions):
            cur = self.to_act()
            act, who = np.zeros(1, np.int64), np.array([cur])
            agent = self.seat_agent.get(cur, self.agents[0])
            obs = self.encoders[id(agent)].encode(self.eng, seats=np.array([cur]))
            self.referee.decide(
                np.zeros(1, np.int64), np.array([cur]), obs, self.eng.legal_action_mask.copy(), act, who
            )
            self._decided = (len(self.actions), int(act[0]) if who[0] == -1 else None)
        return self._decided[1]

    def close(self) -> None:
        """End the external bots' processes (/exit, then their process groups killed)."""
        for a in self.agents:
            if getattr(a, "olympiad", False):
                a.close()

    def observe(self, seat: int, agent):
        return self.encoders[id(agent)].encode(self.eng, seats=np.array([seat]))

    def agent_action(self) -> int:
        """The action of the agent at the seat to act."""
        decided = self.referee_action()
        if decided is not None:
            return decided
        cur = self.to_act()
        agent = self.seat_agent[cur]
        if getattr(agent, "needs_engine", False):  # agents.search reads the engine itself
            return int(agent.act_engine(self.eng, np.array([0]))[0])
        return int(agent.act(self.observe(cur, agent), self.eng.legal_action_mask.copy())[0])

    def step(self, action: int) -> list:
        """Play ``action`` for the seat to act (legal: the caller checked the mask); returns the hands
        it ended (records)."""
        act = np.array([int(action)], np.int64)
        if self.referee is not None:
            self.referee_action()  # (a claim round is settled before its first answer is played)
            self.referee.before_step(act)
        self.eng.step(act)
        if self.referee is not None:
            self.referee.after_step()
        self.actions.append(int(action))
        return self.eng.take_hands(0)

    def total(self) -> np.ndarray:
        return self.banked + self.eng.scores[0]

    def log_text(self) -> str:
        """The replay log of the current game so far (``envs.engine.replay``'s JSON lines)."""
        return dumps(record(self.rules, self.game_seed, self.actions))


class _PersonSeat:
    """The person as the referee sees their seat: a claim round may need their answer before the engine
    asks it; ``TableGame.ask_person`` shows the table as if the engine asked."""

    name = "you"

    def __init__(self, game: TableGame):
        self.game = game

    def reset(self, seed=None):
        pass

    def act(self, obs, mask):
        view = _Asked(self.game.eng, self.game.seat, np.asarray(mask)[0])
        return np.array([self.game.ask_person(view)], np.int64)


class _Asked:
    """The engine as seen by a seat the referee asks before the engine does: its mask, its turn to answer."""

    def __init__(self, eng, seat: int, mask):
        self._eng, self.legal_action_mask, self.current_player = eng, mask[None], np.array([seat])

    def __getattr__(self, name):
        return getattr(self._eng, name)
