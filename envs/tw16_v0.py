"""tw16_v0: Taiwanese 16-tile mahjong (台灣十六張麻將) as a PettingZoo AEC environment.

    from envs import tw16_v0
    env = tw16_v0.env(render_mode="ansi", multi_win=True)      # rule options as keywords
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else policy(obs["observation"], obs["action_mask"])
        env.step(action)

Agents ``player_0`` .. ``player_3`` are the engine's seats; the dealer of the first hand is
``player_0`` (East). Turns are not round-robin: after a discard, every seat with a legal claim
answers in turn (nearest counter-clockwise first) without seeing the others' answers, then the
engine resolves by priority; seats with no claim are never asked. ``agent_selection`` is always the
engine's current player.

Action space: ``Discrete(76)`` (layout ``ACTION_LAYOUT_VERSION`` 0; ``envs.engine.actions``):

.. BEGIN generated: actions
=====  ==========================  ================  =============================================
index  action                      中文              what
=====  ==========================  ================  =============================================
0-33   DISCARD + kind k (0..33)    打牌              discard one tile of kind k
34-36  CHI + 0 / 1 / 2             吃                chi: the claimed tile is the low / middle /
                                                     high tile
37     PON                         碰                pon the discard
38     KONG                        明槓              exposed kong on the discard
39-72  SELF_KONG + kind k (0..33)  暗槓 / 加槓       concealed or added kong of kind k
73     WIN                         胡 / 自摸 / 搶槓  self-draw, win on a discard, or rob an added
                                                     kong
74     PASS                        過                decline every claim (always legal when a seat
                                                     is asked)
75     READY                       報聽              declare ready
=====  ==========================  ================  =============================================
.. END generated: actions

Kinds: 1m-9m 0-8, 1p-9p 9-17, 1s-9s 18-26, E S W N 27-30, C F P 31-33. Flowers are automatic.

Observation: ``{"observation": float32 (C, 34), "action_mask": int8 (76,)}``, the planes_v0
encoding (``envs.obs.planes_v0``; C = 79, or 86 with ``derived=True``) from the observing seat:
relative seats 0 self, 1 next (下家), 2 opposite, 3 previous (上家); ``CH + 4*r + i`` per seat:

.. BEGIN generated: channels
=====================  ==  =========================================================================
channels               n   content
=====================  ==  =========================================================================
0-3 CH_HAND            4   own concealed count >= 1..4
4 CH_DRAWN             1   the tile the observer just drew (its own turn only)
5-20 CH_MELD           16  per seat r: tiles in r's visible melds, count >= 1..4 (an opponent's 暗槓
                           is face down: not here unless reveal_ankong)
21-24 CH_ANKONG        4   per seat r: kinds of r's concealed kongs (self; others only if revealed)
25-28 CH_FLOWERS       4   per seat r: flowers f1..f8 in columns 0..7
29-44 CH_DISCARD       16  per seat r: r's discards this hand (claimed ones included), count >= 1..4
45-48 CH_CLAIMED       4   per seat r: how many of r's discards of that kind another seat claimed
49-52 CH_TAKEN         4   per seat r: discards r claimed (the tile taken into a chi/pon/kong)
53-68 CH_RECENT        16  per seat r: r's j-th most recent discard (j = 0 newest .. 3)
69 CH_LAST             1   the last discard of the hand (any seat)
70 CH_QUESTION         1   the tile being answered: discard under claim, or added kong that may be
                           robbed
71 CH_SEAT_WIND        1   own seat wind, at its wind column (E=27 .. N=30)
72 CH_ROUND_WIND       1   prevailing wind, at its wind column
73 CH_MELD_FROM        1   column 4*r + o: melds of seat r claimed from seat r+o (o = 1..3), o=0:
                           r's concealed kongs; each count / 4
74 CH_SCALARS          1   named columns SC_* (the scalar table)
75-78 CH_PHASE         4   constant planes: turn / claim / rob / ready (天聽) (none when done)
79 CH_SHANTEN          1   *derived*: min(shanten + 1, 8) / 8 of the own hand (0: complete)
80 CH_DISCARD_SHANTEN  1   *derived*: (3n+2 hands) per held kind: (shanten after discarding it + 1)
                           / 8, capped
81 CH_WAITS            1   *derived*: waits of a 3n+1 hand; of a 3n+2 hand: the waits after any
                           ready discard
82-85 CH_UNSEEN        4   *derived*: tiles the observer cannot see, count >= 1..4
=====================  ==  =========================================================================
.. END generated: channels

``action_mask`` is the seat's legal actions when it is ``agent_selection``, zeros otherwise
(and after the episode ends). Illegal actions: with ``env()`` the offender gets ``illegal_reward``
(default -1) and the episode ends, exactly as PettingZoo's ``TerminateIllegalWrapper`` does, and an
action outside 0..75 fails an assertion as with ``AssertOutOfBoundsWrapper``; both are done inside
the env (``raw_env(illegal_action="terminate")``), so that ``env()`` needs only the
``OrderEnforcingWrapper`` (each wrapper layer costs about as much as the engine step). ``raw_env``
(``illegal_action="raise"``) raises ``IllegalActionError`` naming the action and the legal ones.

Rewards: chip deltas (zero-sum), paid to all four seats at the step that ends a hand (seats that
were not acting included; PettingZoo's ``_cumulative_rewards`` carry them to each seat's next
``last()``). ``reward="tai"`` (default) chips / per_tai; ``"chips"``; ``"win_loss"`` the sign of
each hand's delta (+1 / -1 / 0); ``"normalized"`` tai / 32. ``episode="game"`` plays a whole game
(一將: four prevailing winds, dealer rotation, streaks) and returns the cumulative result; the
reward of each hand is paid when that hand ends. ``max_steps`` truncates after that many decisions.

.. BEGIN generated: options
Rule options (``envs.rules.Rules``, RULES.md 5; [default; profiles that change it]): profile
["standard"; standard | strict16 | casual | hongkong | olympiad | wikibooks | star31 | masters |
mj888 | zhonghua | zhaishenye | a .toml path], flowers [True; olympiad False], dead_wall [16],
dead_wall_per_kong [False], multi_win [False; hongkong True], strict_pass [False; hongkong True],
no_calls_last3 [True], no_kong_after_claim [True], kong_replacement_self_draw [True], swap_call
[True; hongkong False], declare_ready [False; strict16 True, casual True, hongkong True, wikibooks
True, star31 True, masters True, mj888 True, zhonghua True, zhaishenye True], west_draw [False;
casual True], streak_cap [None; star31 10, zhaishenye 10], stakes ["30/10"; olympiad "0/1"], episode
["hand"], extras [False], extras_off [()], unrelated_gap [3], count_method [1], dual_reading [True],
settlement ["immediate"; hongkong "la", olympiad "win_lose"], la_cut [3], la_cut_policy ["always"],
la_draw ["keep"], flower_win ["auto"; hongkong "offer"], dice_payments [False; hongkong True],
dealer_pays_on_self_draw [False], rob_kong [True; olympiad False], special_wins [True; olympiad
False], seven_flower_win [True; star31 False, masters False, zhonghua False], heavenly_ready_window
["deal"; star31 "dealer_first", masters "dealer_first", zhonghua "dealer_first", zhaishenye "migi"],
earthly_ready_window ["first_discard"; wikibooks "migi", star31 "migi", mj888 "migi"], early_wins
["standard"; wikibooks "dealer_discard", masters "first_round", zhonghua "first_round", zhaishenye
"first_round"]. Env options: render_mode ["ansi" | "human"; None], reward ["tai" | "chips" |
"win_loss" | "normalized"; "tai"], derived [False], max_steps [None], illegal_action ["raise" |
"terminate"; "raise"], illegal_reward [-1.0].
.. END generated: options

Rendering: a table of hands, melds, flowers, discards (* = claimed), wall count, dealer, phase and
whose turn; "ansi" returns it, "human" prints it. ``infos[agent]`` holds ``seat``; at the end also
``result`` and ``scores``.

No ``parallel_env``: seats do not act simultaneously (one current player, claims answered in
turn), so a parallel API would have to invent no-op actions for three seats each step.

A deal that ends the episode before any decision (a flower win in the initial flowers) is dealt
again at ``reset``; with ``episode="game"`` a first hand decided in the deal is kept, its chips in
``scores`` but not in the rewards (tw16_v1 deals it again; its card says where hands are redealt).

Versions: tw16_v0 (env) / planes_v0 (observation) / action layout 0. v0: first release; tw16_v1
adds planes_v1 (the hongkong questions and the 拉 ledger). History and rule: docs/versions.md.

Threads: an env is used by one thread at a time (its agent selection and cached views are its own).
Misuse from two threads cannot corrupt its engine's games or crash the process (every native call
holds the engine's memory: docs/robustness.md, "Threads"), but the env's answers and bookkeeping are
then those of some interleaving; separate envs in separate threads are independent.
"""

from __future__ import annotations

import functools

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from envs._core import encode_one
from envs.driver import Driver
from envs.engine.actions import ACTION_LAYOUT_VERSION, N_ACTIONS, action_name
from envs.engine.rng import mix64
from envs.obs import planes_v0 as pv
from envs.obs.readable import readable, render_table
from envs.rewards import REWARDS, reward_scale  # noqa: F401 (REWARDS: read by tools/doc_tables.py)
from envs.rules import Rules
from envs.validate import ILLEGAL_ACTIONS, ActionSpaceError, env_action, env_options, env_seed  # noqa: F401 (re-exported)

ENV_VERSION = "tw16_v0"
OBS_LOW, OBS_HIGH = -pv.SCORE_CLIP, pv.SCORE_CLIP


class IllegalActionError(ValueError):
    """``raw_env.step`` got an action that is not legal for the current seat."""


class EnvStateError(AttributeError, RuntimeError):
    """A call the env cannot answer in its state: before ``reset()``, or after the episode ended (every
    agent done). An AttributeError (what such a call raised before, so ``hasattr`` keeps working) and a
    RuntimeError, with a message saying what to do."""


def env(illegal_reward: float = -1.0, **kwargs):
    """The wrapped environment: illegal actions end the episode with ``illegal_reward`` (the
    ``TerminateIllegalWrapper`` and ``AssertOutOfBoundsWrapper`` behaviour, built in), call order
    checked by PettingZoo's ``OrderEnforcingWrapper``."""
    e = raw_env(illegal_action="terminate", illegal_reward=illegal_reward, **kwargs)
    return OrderEnforcing(e)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` whose ``last()`` asks the env directly once reset
    (the inherited one reads five attributes through ``__getattr__``: half the cost of a step).
    ``help(env.unwrapped)`` shows the wrapped env's card (this class serves every tw16 env id)."""

    def last(self, observe=True):
        if not self._has_reset:
            return super().last(observe)  # raises as before
        return self.env.last(observe)


class raw_env(AECEnv):
    metadata = {"name": ENV_VERSION, "render_modes": ["ansi", "human"], "is_parallelizable": False, "render_fps": 1}
    encoder_class = pv.PlanesV0  # tw16_v1 subclasses with planes_v1

    def __init__(
        self,
        render_mode=None,
        reward="tai",
        derived=False,
        max_steps=None,
        illegal_action="raise",
        illegal_reward=-1.0,
        **rule_options,
    ):
        super().__init__()
        self.illegal_reward, max_steps = env_options(derived, max_steps, illegal_action, illegal_reward)
        self.illegal_action = illegal_action
        if render_mode is not None and (
            not isinstance(render_mode, str) or render_mode not in self.metadata["render_modes"]
        ):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.rules = Rules.make(**rule_options)
        self.reward = reward
        self._scale = reward_scale(self.rules, reward)
        self.max_steps = max_steps
        self.driver = Driver(self.rules, 1)
        self.engine = self.driver.engine
        self._bind()
        self._one = np.ones(1, np.bool_)
        self._act = np.zeros(1, np.int64)
        self.encoder = self.encoder_class(derived=derived)
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_box = spaces.Box(OBS_LOW, OBS_HIGH, self.encoder.shape, np.float32)
        mask_box = spaces.Box(0, 1, (N_ACTIONS,), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs_box, "action_mask": mask_box}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self._obs = self.encoder.alloc(4)
        self._seats = np.arange(4, dtype=np.int64)
        self._rules, self._flags = self.engine.native, self.encoder.flags
        self._valid = [False] * 4
        self.action_layout_version = ACTION_LAYOUT_VERSION

    _VIEWS = ("_mask", "_rew", "_term", "_cur")  # views into the engine's arrays: remade, never copied

    def _bind(self):
        """The Engine's live read-only views of its one game (they follow the state; made once, and
        again for a copy: a copied view would follow the original's arrays or none)."""
        e = self.engine
        self._mask, self._rew, self._term, self._cur = (
            e.legal_action_mask[0],
            e.step_rewards[0],
            e.step_terminated,
            e.current_player,
        )

    def __getstate__(self):  # pickle and copy.deepcopy: the state without the views, see _bind
        return {k: v for k, v in self.__dict__.items() if k not in self._VIEWS}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._bind()

    _EPISODE_ATTRS = (
        "agents",
        "rewards",
        "_cumulative_rewards",
        "terminations",
        "truncations",
        "infos",
        "agent_selection",
        "n_steps",
        "redealt",
    )

    def __getattr__(self, name):
        # only for names not found: before reset a clear error instead of a bare AttributeError from
        # deep inside step / last / observe
        if name in self._EPISODE_ATTRS:
            raise EnvStateError(f"{self.metadata['name']}: no {name!r} before reset(): call env.reset(seed=...) first")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _ended(self, agent) -> EnvStateError:
        if not self.agents:
            return EnvStateError(
                f"{self.metadata['name']}: the episode has ended (every agent is done): call env.reset()"
            )
        return EnvStateError(
            f"{self.metadata['name']}: {agent!r} is not an agent of this episode (agents: {self.agents})"
        )

    # PettingZoo requires the same space object on every call
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """``seed``: an integer (None: a random one); ``options``: None or a dict (no option is read;
        PettingZoo passes one in its API test)."""
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be None or a dict, got {type(options).__name__}")
        seed = int(np.random.SeedSequence().entropy % (1 << 63)) if seed is None else env_seed(seed)
        self.driver.deal(np.array([mix64(seed)], np.uint64), self._one)
        self.redealt = 0
        while self._ended_in_deal():  # a flower win in the deal: deal again (no decision yet)
            self.driver.redeal(self._one)
            self.redealt += 1
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"seat": i} for i, a in enumerate(self.agents)}
        self.n_steps = 0
        self._valid = [False] * 4
        self.agent_selection = self.possible_agents[int(self.engine.current_player[0])]
        if self.render_mode == "human":
            self.render()

    def _ended_in_deal(self) -> bool:
        return bool(self._term[0])

    def _encode(self, i):
        if not self._valid[i]:
            s = self.engine.s  # the state arrays are updated in place, never replaced
            encode_one(self._obs[i], s.hands, s.melds, s.river, s.g, s.p, s.scores, 0, i, self._rules, self._flags)
            self._valid[i] = True
        return self._obs[i]

    def last(self, observe=True):
        if self.agent_selection not in self.terminations:
            raise self._ended(self.agent_selection)
        return super().last(observe)

    def observe(self, agent):
        i = self.agent_name_mapping.get(agent) if isinstance(agent, str) else None
        if i is None:
            raise EnvStateError(
                f"{self.metadata['name']}: no agent {agent!r} (agents: {', '.join(self.possible_agents)})"
            )
        if agent == self.agent_selection and not (self.terminations.get(agent) or self.truncations.get(agent)):
            mask = self._mask.astype(np.int8)
        else:
            mask = np.zeros(N_ACTIONS, np.int8)
        return {"observation": self._encode(i).copy(), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        try:
            over = self.terminations[agent] or self.truncations[agent]
        except KeyError:  # every agent removed: the episode has ended
            raise self._ended(agent) from None
        if over:
            return self._was_dead_step(action)
        mask = self._mask
        # the one check of an action (envs.validate.env_action, shared with the Gymnasium envs): with
        # "terminate" AssertOutOfBoundsWrapper's (Discrete.contains, bools refused), else integers only
        a = env_action(action, agent, self.illegal_action)
        if self.illegal_action == "terminate":
            if not mask[a]:
                return self._illegal(agent)
        else:
            if not (0 <= a < N_ACTIONS and mask[a]):
                legal = [f"{x} ({action_name(x)})" for x in np.flatnonzero(mask)]
                raise IllegalActionError(f"{agent}: action {action!r} is not legal now; legal: {', '.join(legal)}")
        self._cumulative_rewards[agent] = 0.0
        self._act[0] = a
        e = self.engine
        e.step_some(self._act, self._one)  # the Engine's fast path; one game: no thread launch
        r = self._rew
        done = bool(self._term[0])
        self._valid = [False] * 4
        self.n_steps += 1
        if any(r.tolist()):
            rew = self._scale(r)
            self.rewards = {ag: float(rew[i]) for i, ag in enumerate(self.possible_agents)}
        else:
            self.rewards = dict.fromkeys(self.possible_agents, 0.0)
        if done:
            self.terminations = {ag: True for ag in self.agents}
            hand = e.last_hand(0)  # the episode's last hand
            result, winners = ("drawn" if hand.drawn else "win"), list(hand.winners)
            scores = [int(x) for x in e.scores[0]]
            for i, ag in enumerate(self.agents):
                self.infos[ag] = {"seat": i, "result": result, "winners": winners, "scores": scores}
        elif self.max_steps is not None and self.n_steps >= self.max_steps:
            self.truncations = {ag: True for ag in self.agents}
        self._accumulate_rewards()
        if done or self.truncations[agent]:
            self.agent_selection = agent
            self._deads_step_first()
        else:
            self.agent_selection = self.possible_agents[self._cur[0]]
        if self.render_mode == "human":
            self.render()

    def _illegal(self, agent):
        """``TerminateIllegalWrapper``'s response: the offender gets ``illegal_reward``, all end."""
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.truncations, 0)
        self.rewards[agent] = self.illegal_reward
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without render_mode; use render_mode='ansi' or 'human'")
            return None
        text = render_table(readable(self.engine, 0))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass

    @functools.cached_property
    def channel_names(self):
        return self.encoder.channel_names()


# help(tw16_v0), help(tw16_v0.env) and help(tw16_v0.raw_env) (so help(env.unwrapped)) show the card:
# this module's docstring, whose tables ``python tools/doc_tables.py --write`` writes and
# tests/test_doc_tables.py checks
if __doc__:  # None under python -OO
    raw_env.__doc__ = __doc__
    env.__doc__ = f"{env.__doc__}\n\n{__doc__}"
