"""AIVAT for the draws (agents.evaluation.aivat): the term has mean zero exactly over the candidate draws of
every state, stays near zero in play, and the shipped value model loads and refuses bad files."""

from __future__ import annotations

import numpy as np
import pytest

import agents.evaluation.aivat as aivat
import agents.evaluation.luck as luck
from agents import make_agent
from agents.evaluation.arena import deal_played, hand_outcomes, play_duplicate, run_games
from envs.engine.api import Engine
from envs.rules import Rules
from envs.tiles import parse_hand


def _play(n_games: int, seed: int, specs=("greedy", "defensive", "random", "greedy"), **rec_kw):
    eng = Engine(Rules().replace(episode="hand"), batch_size=n_games, record_hands=True)
    deal_played(eng, np.random.SeedSequence(seed).generate_state(n_games, np.uint64))
    agents = [make_agent(s) for s in specs]
    seat_agent = np.tile(np.arange(4), (n_games, 1))
    rec = luck.LuckRecorder(eng, policies=aivat.seat_policies(agents, seat_agent), **rec_kw)
    run_games(eng, agents, seat_agent, on_step=rec.after_step)
    return eng, rec


@pytest.mark.parametrize("version", aivat.VERSIONS)
def test_term_averaged_over_the_candidate_draws_is_exactly_zero(monkeypatch, version):
    """Exact, for recorded states of real play: sum over kinds k of undrawn[k] * term(drawn = k) = 0,
    for the shipped V of each feature version."""
    seen = []
    real = aivat.centre

    def keep(values, undrawn, drawn):
        seen.append((values.copy(), undrawn.copy()))
        return real(values, undrawn, drawn)

    monkeypatch.setattr(luck, "centre", keep)  # where the recorder looks it up
    model = aivat.ValueModel.load(aivat.MODELS[version])
    assert model.version == version
    _play(16, seed=5, value=model)
    values, undrawn = (np.concatenate(a) for a in zip(*seen))
    assert len(values) > 16 * 20 and np.ptp(values) > 1.0  # V varies: the check is not of a constant
    total = np.zeros((len(values), 4))
    for kind in range(luck.N_KINDS + 1):
        total += undrawn[:, kind, None] * real(values, undrawn, np.full(len(values), kind))
    assert np.abs(total).max() < 1e-6 * np.abs(values).max() * undrawn.sum(axis=1).max()


@pytest.mark.parametrize("version", aivat.VERSIONS)
def test_collected_training_rows_are_well_formed(version):
    """The rows ``collect`` keeps (the features after each actual draw): one shanten class per seat,
    one drawer per draw, a flower count before the draw within the eight flowers."""
    eng, rec = _play(4, seed=9, collect=True, version=version)
    games, f = zip(*rec.collected)
    f = np.concatenate(f)
    assert f.shape[1:] == (4, aivat.n_inputs(version))
    assert np.isfinite(f).all() and (f[..., :5].sum(axis=-1) == 1).all()  # one shanten class per seat
    drawer = f[..., 5]
    assert (drawer.sum(axis=1) == 1).all()  # exactly one drawer per draw
    assert (f[..., 16] <= 2.0).all() and (f[..., 16] >= 0).all()


@pytest.mark.parametrize("version", aivat.VERSIONS)
def test_aivat_term_has_mean_zero_in_play(version):
    """Statistical, fixed seed: the summed term's mean over 256 hands x 4 seats is within 4 standard
    errors of 0, and it moves."""
    eng, rec = _play(256, seed=13, value=aivat.ValueModel.load(aivat.MODELS[version]))
    x = rec.luck[:, :, -1].reshape(-1)
    assert x.std() > 1.0
    z = x.mean() / (x.std(ddof=1) / np.sqrt(len(x)))
    assert abs(z) < 4, z
    assert rec.luck.shape[2] == luck.N_FEATURES + 1


def test_vr_aivat_adds_a_column_and_keeps_the_plain_figures():
    agents = [make_agent(s) for s in ("greedy", "defensive", "greedy", "defensive")]
    plain = play_duplicate(agents, 6, seed=2)
    both = play_duplicate(agents, 6, seed=2, vr="aivat")
    # every version of V stays loadable and gives its own term over the same luck terms
    others = [play_duplicate(agents, 6, seed=2, vr=f"aivat{v}") for v in aivat.VERSIONS if v != aivat.DEFAULT]
    for other in others:
        assert both["luck_own"].shape[2] == other["luck_own"].shape[2] == luck.N_FEATURES + 1
        assert not np.allclose(both["luck_own"][..., -1], other["luck_own"][..., -1])  # two different V
        np.testing.assert_allclose(both["luck_own"][..., :-1], other["luck_own"][..., :-1])  # the same luck terms
    for name, row in plain["agents"].items():
        assert both["agents"][name]["chips_per_hand"] == row["chips_per_hand"]
        assert "vr" in both["agents"][name]


def _one_draw(hands_text, drawer=0, undrawn_minus=""):
    """``draw_parts`` (with the hands) of one draw by ``drawer`` from a full set less the hands."""
    hands = np.stack([parse_hand(t) if t else np.zeros(luck.N_KINDS, np.int64) for t in hands_text])[None]
    undrawn = np.zeros((1, luck.N_KINDS + 1), np.int64)
    undrawn[0, : luck.N_KINDS] = 4 - hands[0].sum(axis=0)
    undrawn[0, luck.N_KINDS] = 8
    n_sets = np.full((1, 4), 5)
    parts = luck.draw_parts(hands, n_sets, np.array([drawer]), undrawn, 0, with_hands=True)
    return parts, undrawn


def test_full_state_features_read_the_other_seats_tiles():
    """Seat 1 waits on 5s alone (123m 456m 789m 123p 456p 5s); the drawer (seat 0) holds two 5s,
    seat 2 one: seat 1's winning tiles held by the others are 3 (4 after the drawer draws a 5s), and
    the drawer's danger is its two 5s (three after drawing one)."""
    parts, undrawn = _one_draw(["55s 19m 19p 19s EESSWWN C", "123m 456m 789m 123p 456p 5s", "5s 111222333444s", ""])
    assert parts["ready"][0].tolist() == [False, True, False, False]
    parts["tai"] = np.zeros((1, 4, luck.N_KINDS + 1))
    e = aivat.full_features(parts, np.array([0]), undrawn)
    five_s = parse_hand("5s").argmax()
    held, danger = aivat.FULL.index("held_waits"), aivat.FULL.index("danger")
    assert e[0, 1, 0, held] * 8 == 3 and e[0, 1, five_s, held] * 8 == 4
    assert e[0, 0, 0, danger] * 4 == 2 and e[0, 0, five_s, danger] * 4 == 3
    assert e[0, 2, 0, danger] * 4 == 1 and e[0, 2, five_s, danger] * 4 == 1  # seat 2 does not draw
    assert e[0, 1, 0, aivat.FULL.index("wait_kinds")] * 5 == 1


def test_win_tai_prices_the_winning_kinds_only():
    """The scorer's tai for seat 1's win on its one winning kind (fed by the drawer), and the
    drawer's own self-drawn wins when it is ready; nothing elsewhere."""
    parts, undrawn = _one_draw(["123m 456m 789m 123p 456p 5s", "123m 456m 789m 123p 456p 5s", "", ""])
    eng = Engine(Rules(), batch_size=1)
    melds = np.zeros((1, 4, 5, 3), np.int8)
    tai = aivat.WinTai(eng.native).table(
        parts,
        np.array([0]),
        melds,
        np.zeros((1, 4), np.int64),
        np.zeros((1, 4), np.int64),
        np.array([0]),
        np.array([0]),
    )
    five_s = parse_hand("5s").argmax()
    assert tai[0, 0, five_s] > 0 and tai[0, 1, five_s] > 0  # the drawer self-draws, seat 1 is fed
    assert np.count_nonzero(tai) == 2
    assert tai[0, 0, five_s] > tai[0, 1, five_s]  # a self-drawn concealed hand scores more than fed


def test_value_model_file_is_small_and_refuses_bad_files(tmp_path):
    for version, path in aivat.MODELS.items():
        assert path.stat().st_size < 64_000
        model = aivat.ValueModel.load(path)
        assert model.version == version
        assert model(np.zeros((3, 4, 2, aivat.n_inputs(version)))).shape == (3, 4, 2)
    assert aivat.ValueModel.load().version == aivat.DEFAULT == aivat.model_for("aivat")
    assert [aivat.model_for(f"aivat{v}") for v in aivat.VERSIONS] == list(aivat.VERSIONS)
    model = aivat.ValueModel.load(aivat.MODELS[1])
    model.version = 2
    with pytest.raises(ValueError, match="inputs"):  # v1 weights under a v2 tag: the widths disagree
        aivat.ValueModel(model.weights, model.biases, version=2)
    bad = tmp_path / "bad.npz"
    np.savez(bad, w0=np.zeros((aivat.N_IN, 1)), b0=np.zeros(1), version=np.int64(9))
    with pytest.raises(ValueError, match="unknown feature version"):
        aivat.ValueModel.load(bad)
    np.savez(bad, w0=np.zeros((aivat.N_IN, 1)), b0=np.zeros(1), version=np.zeros(2))
    with pytest.raises(ValueError, match="integer scalar"):
        aivat.ValueModel.load(bad)
    bad = tmp_path / "bad.npz"
    np.savez(bad, w0=np.zeros((aivat.N_IN, 4)), b0=np.zeros(4), x=np.zeros(1))
    with pytest.raises(ValueError, match="expected arrays"):
        aivat.ValueModel.load(bad)
    np.savez(bad, w0=np.zeros((aivat.N_IN, 4)), b0=np.zeros(4), w1=np.zeros((5, 1)), b1=np.zeros(1))
    with pytest.raises(ValueError, match="do not chain"):
        aivat.ValueModel.load(bad)
    np.savez(bad, w0=np.zeros((aivat.N_IN - 1, 1)), b0=np.zeros(1))
    with pytest.raises(ValueError, match="inputs"):
        aivat.ValueModel.load(bad)
    obj = tmp_path / "obj.npz"
    np.savez(obj, w0=np.array([object()], dtype=object), b0=np.zeros(1))
    with pytest.raises(ValueError):
        aivat.ValueModel.load(obj)


def test_training_at_a_tiny_size_round_trips_the_version(tmp_path, monkeypatch):
    """aivat_train at 8 hands: the rows kept with --rows are read back instead of played again, and the
    saved V loads with its feature version and reads rows of that width."""
    from agents.evaluation import aivat_train

    rows, out = tmp_path / "rows.npz", tmp_path / "v.npz"
    args = ["--hands", "8", "--seed", "31", "--hidden", "8", "--epochs", "1", "--rows", str(rows), "--out", str(out)]
    assert aivat_train.main(args) == 0 and rows.exists()
    model = aivat.ValueModel.load(out)
    assert model.version == 4 and model.n_in == aivat.n_inputs(4)
    with np.load(rows, allow_pickle=False) as z:
        assert z["x"].shape[1] == model.n_in and len(z["x"]) == len(z["y"]) == len(z["g"]) > 8
        n, last = len(z["x"]), int(z["g"].max())
    monkeypatch.setattr(aivat_train, "collect", lambda *a, **k: pytest.fail("played again: --rows not read"))
    assert aivat_train.main([*args[:-2], "--out", str(tmp_path / "w.npz")]) == 0
    np.testing.assert_array_equal(aivat.ValueModel.load(tmp_path / "w.npz").weights[0], model.weights[0])
    x, y, g = aivat_train.read_rows([rows, rows], 4)  # two files: the second's games follow the first's
    assert len(x) == len(y) == len(g) == 2 * n and g.max() == 2 * last + 1
    with pytest.raises(ValueError, match="features"):
        aivat_train.read_rows([rows], 1)


def test_response_predicts_the_rule_agents_wins_and_deal_ins_exactly():
    """Greedy and Defensive in every seat: where the v3 features say the actual draw ends the hand at
    once (the drawer's self-draw, or its discard a ready seat wins), the hand ends with those chips
    to the chip in nearly every case (kongs are not offered to the prediction, and the scorer's
    context flags are left out), and most won hands were so predicted at their last draw."""
    eng, rec = _play(192, seed=21, specs=("greedy", "defensive", "greedy", "defensive"), collect=True, version=3)
    games = np.concatenate([g for g, _ in rec.collected])
    f = np.concatenate([x for _, x in rec.collected])
    col = aivat.chips_column(3)
    win = f[..., col - 2].max(axis=1) > 0  # ev_win of some seat
    chips = hand_outcomes(eng)["chips"]
    predicted = f[win][..., col] * aivat.CHIPS
    exact = np.abs(predicted - chips[games[win]]).max(axis=1) < 1e-6
    assert win.sum() >= 100 and exact.mean() >= 0.9, (win.sum(), exact.mean())
    np.testing.assert_allclose(predicted.sum(axis=1), 0, atol=1e-9)  # a win's chips are zero-sum
    won = np.flatnonzero(np.abs(chips).sum(axis=1) > 0)
    assert np.isin(won, games[win]).mean() >= 0.8


def test_v3_value_adds_the_response_chips_to_the_mlp():
    """A v3 V of zero weights is exactly the ev_chips column times CHIPS: the predicted settlement."""
    n = aivat.n_inputs(3)
    model = aivat.ValueModel([np.zeros((n, 4)), np.zeros((4, 1))], [np.zeros(4), np.full(1, 2.0)], version=3)
    x = np.zeros((2, 3, n))
    x[1, 2, aivat.chips_column(3)] = -0.5
    np.testing.assert_allclose(model(x), [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0 - 50.0]])
    assert aivat.chips_column(2) is None


def test_seat_policies_and_bad_policies():
    """Defensive predicts with Defensive's rule, every other agent with Greedy's; a wrong shape is refused."""
    agents = [make_agent(s) for s in ("greedy", "defensive", "random", "defensive")]
    pol = aivat.seat_policies(agents, np.array([[0, 1, 2, 3], [3, 2, 1, 0]]))
    assert [aivat.POLICIES[p] for p in pol[0]] == ["greedy", "defensive", "greedy", "defensive"]
    assert pol[1].tolist() == pol[0][::-1].tolist()
    eng = Engine(Rules().replace(episode="hand"), batch_size=2)
    with pytest.raises(ValueError, match="policies"):
        aivat.Response(eng, np.zeros((3, 4), np.int64))
    with pytest.raises(ValueError, match="policies"):
        aivat.Response(eng, np.full((2, 4), 7))


def test_v4_reads_the_whole_table_and_its_mlp_is_zero_sum():
    """v4: seat o's row ends with the own features of seats o + 1, o + 2, o + 3 (in that order), and
    the MLP's outputs are centred over the four seats (chips are zero-sum), so V sums to the offset's
    sum over the seats (zero for a real settlement); a row without its seat axis is refused."""
    rng = np.random.default_rng(0)
    f = rng.normal(size=(2, 4, 5, aivat.TABLE_BASE))
    t = aivat.whole_table(f)
    assert t.shape == (2, 4, 5, aivat.n_inputs(4))
    own = len(aivat.OWN)
    for o in range(4):
        np.testing.assert_array_equal(t[:, o, :, : aivat.TABLE_BASE], f[:, o])
        for j in (1, 2, 3):
            block = t[:, o, :, aivat.TABLE_BASE + (j - 1) * own : aivat.TABLE_BASE + j * own]
            np.testing.assert_array_equal(block, f[:, (o + j) % 4][..., aivat.OWN])
    with pytest.raises(ValueError, match="whole_table"):
        aivat.whole_table(f[..., :-1])
    model = aivat.ValueModel.load(aivat.MODELS[4])
    assert model.zero_sum and not aivat.ValueModel.load(aivat.MODELS[3]).zero_sum
    x = aivat.whole_table(rng.uniform(size=(3, 4, 35, aivat.TABLE_BASE)))
    x[..., aivat.chips_column(4)] = 0
    v = model(x)
    assert np.ptp(v) > 1.0
    np.testing.assert_allclose(v.sum(axis=1), 0, atol=1e-9)
    with pytest.raises(ValueError, match="4 seats"):
        model(x[:, 0])
