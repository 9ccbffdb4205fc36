"""The engine under the extras pack: random play with the invariant checker for each base profile, and
a hand that can only win as 十六不搭 gets its win action (EXTRAS.md 2.1, issue 8)."""

from __future__ import annotations

import pytest

from envs.engine.api import Engine
from envs.engine.randplay import OUT_DECISIONS, OUT_ERROR, random_play
from envs.rules import Rules


@pytest.mark.parametrize("profile", ["standard", "strict16", "casual"])
def test_random_play_with_extras_keeps_invariants(profile):
    rules = Rules.make(profile, extras=True, unrelated_gap=2 if profile == "casual" else 3)
    eng = Engine(rules, batch_size=8)
    out = random_play(eng, seed=11, episodes=2, check=True)
    assert (out[:, OUT_ERROR] == 0).all(), out[:, OUT_ERROR]
    assert out[:, OUT_DECISIONS].sum() > 0


JUNK = "159m 159p 159s ESWNCFP"  # can never chi, pon or win
SIXTEEN = "147m 258p 369s ESWNCFP"  # ready only as 十六不搭 (on any of its 16 kinds)


def _deal(**opts):
    scripted = pytest.importorskip("envs.engine.scripted")
    rules = Rules.make("standard", flowers=False, **opts)
    eng = Engine(rules, 1, record_hands=True)
    eng.reset(0, walls=scripted.scripted_wall([JUNK, SIXTEEN, JUNK, JUNK], draws="2p", flowers=False))
    return eng, scripted


def test_sixteen_unrelated_gets_its_win_action():
    eng, scripted = _deal(extras=True)
    scripted.play(eng, "E: discard 2p")
    assert "win" in scripted.legal_names(eng)
    scripted.play(eng, "S: win")
    # won on the dealer's first discard before S's first draw: 人胡 8 as well
    assert scripted.items(eng, 1) == {"sixteen_unrelated_pure": 20, "human_win": 8}
    # the dealer discarded: 30 + 10 x (28 + dealer 1)
    assert scripted.deltas(eng) == [-320, 320, 0, 0]


def test_sixteen_unrelated_no_win_without_extras():
    eng, scripted = _deal()
    scripted.play(eng, "E: discard 2p")
    assert int(eng.current_player[0]) != 1 or "win" not in scripted.legal_names(eng)
