"""tw16_v1: Taiwanese 16-tile mahjong as a PettingZoo AEC environment, observation ``planes_v1``.

    from envs import tw16_v1
    env = tw16_v1.env(profile="hongkong", episode="game", la_cut_policy="ask")
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else policy(obs["observation"], obs["action_mask"])
        env.step(action)

What changed from tw16_v0 (docs/versions.md has the whole history):

- Observation ``planes_v1`` (``envs.obs.planes_v1``): the planes_v0 channels unchanged (0-78, or 0-85
  with ``derived=True``), then 6 channels: phase planes for the two hongkong questions that v0 left
  without one (the flower-win offer ``PH_FLOWER`` and the 拉 cut ``PH_LA_CUT``; both show the mask
  {WIN, PASS}), the public 拉 ledger from the observer's side (every open debt R and its count k),
  the debt being asked about, and the offer (who pays, whether the hand is drawn anyway, who passed).
  C = 85, or 92 with ``derived=True``. Every question a seat answers is now told apart by the
  observation, and the debt it decides about is in it (clipped at 256 tai, as the scores are).
- A game episode whose first hand ends in the deal is dealt again (see Redeals); under v0 it went on
  and that hand's chips were in ``scores`` but never paid as a reward.
- ``infos[agent]["redealt"]`` after ``reset``: how many deals were replaced (usually 0).

Agents ``player_0`` .. ``player_3`` are the engine's seats, ``player_0`` the first dealer (East).
Turns are not round-robin: after a discard every seat with a legal claim answers in turn, unseen by
the others; ``agent_selection`` is always the engine's current player.

Actions: ``Discrete(76)``, layout 0 (unchanged): 0-33 discard kind k, 34-36 chi (claimed tile low /
mid / high), 37 pon, 38 exposed kong, 39-72 self kong of kind k - 39, 73 WIN, 74 PASS, 75 READY.
WIN and PASS answer every yes/no question: a claim, a robbable kong, 天聽 (READY / PASS), the
flower-win offer (WIN takes 八仙過海 / 七搶一, PASS declines for the rest of the hand) and the 拉 cut
(WIN pays the debt in full now, PASS keeps it). The phase planes tell which question it is.

Redeals (a hand nobody decided anything in): the engine ends a hand inside the deal when the initial
flowers complete a flower win that is not offered (``flower_win="auto"``: 八仙過海, or 七搶一 against a
seat holding the eighth flower) or, in principle, when the wall runs out while flowers are replaced.
At ``reset`` such a deal is replaced by a new one, from a seed derived from the last (``redealt``
counts them): with ``episode="hand"`` the episode would otherwise end before any decision, and with
``episode="game"`` it would start with a hand that was paid but never rewarded. The agents see only
the new deal: no observation, reward or info of the replaced one. Later in a game episode a hand
that ends in its deal is played as dealt: scored, and its chips paid as rewards in the step that
ended the previous hand; the next observation shows the hand after it. Elsewhere (four places deal
again, all from the same derived seed): tw16_v0 and tw16_v1 ``reset``; the single-learner Gymnasium
envs (``envs.gym_env._Core``) deal again a game that ends in its deal or before the learner's first
decision (e.g. another seat's 天胡: the learner never pays for one); ``SelfPlayVecEnv`` at reset and at
autoreset. Those three look at the episode's end only, so with ``episode="game"`` they keep a first
hand decided in the deal, as tw16_v0 does. The arena (``agents.evaluation.arena``) deals such a wall again
too, and counts it once per wall (``redealt_walls``), never as a played hand.

Observation, rewards, rule options, env options, rendering and wrappers are those of tw16_v0 (its
docstring); ``derived`` adds the derived planes to the planes_v0 part. ``metadata["name"]`` is
``tw16_v1``.

Versions: tw16_v1 (env) / planes_v1 (observation) / action layout 0; rule: docs/versions.md.
"""

from __future__ import annotations

import numpy as np

from envs import tw16_v0
from envs.obs.planes_v1 import PlanesV1, encode_state_rows

ENV_VERSION = "tw16_v1"


def env(illegal_reward: float = -1.0, **kwargs):
    """The wrapped environment, as ``tw16_v0.env``: illegal actions end the episode with
    ``illegal_reward``; call order checked by PettingZoo's ``OrderEnforcingWrapper``."""
    return tw16_v0.OrderEnforcing(raw_env(illegal_action="terminate", illegal_reward=illegal_reward, **kwargs))


class raw_env(tw16_v0.raw_env):
    metadata = {**tw16_v0.raw_env.metadata, "name": ENV_VERSION}
    encoder_class = PlanesV1

    _VIEWS = tw16_v0.raw_env._VIEWS + ("_obs_of",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._rows = np.zeros(1, np.int64)  # the one game, encoded for one seat at a time
        self._seat_of = [np.array([i], np.int64) for i in range(4)]
        self._bind()

    def _bind(self):
        super()._bind()
        if "_obs" in self.__dict__:  # (the base __init__ binds before the buffer exists)
            self._obs_of = [self._obs[i : i + 1] for i in range(4)]  # views of the observation buffer

    def _ended_in_deal(self) -> bool:
        # a finished hand right after the deal: a game episode's first hand ended in it
        return bool(self.engine.step_terminated[0]) or self.engine.last_hand(0) is not None

    def reset(self, seed=None, options=None):
        super().reset(seed=seed, options=options)
        for ag in self.agents:
            self.infos[ag]["redealt"] = self.redealt

    def _encode(self, i):
        if not self._valid[i]:
            # (the encoder's encode_rows, without its per-call look-ups)
            encode_state_rows(self._obs_of[i], self._rows, self._seat_of[i], self.engine.s, self._rules, self._flags)
            self._valid[i] = True
        return self._obs[i]
