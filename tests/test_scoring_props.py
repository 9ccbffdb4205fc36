"""Hypothesis properties of the scorer, the settlement and the notation.

Random winning hands are drawn as a decomposition (0-5 melds of any type, concealed chis/pons, a
pair), a winning tile among the concealed tiles and a random win context, then scored by the
native core directly (``envs._core.score_hand``) so that hundreds of examples run in well under a second.
"""

from __future__ import annotations

import json

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envs._core import dealer_tai, score_hand, settle
from envs.engine.mask import native_rules
from envs.rules import Rules
from envs.scoring import codes as C
from envs.scoring.cases import score_case
from envs.tiles import (
    DRAGON0,
    FLOWER0,
    MELD_ADDKONG,
    MELD_ANKONG,
    MELD_CHI,
    MELD_KONG,
    MELD_NAMES,
    MELD_PON,
    N_KINDS,
    WIND0,
    WIND_NAMES,
    Hand,
    Meld,
    NotationError,
    format_counts,
    format_tiles,
    parse_meld,
    parse_tiles,
)

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PROFILES = ("standard", "strict16", "casual")
NATIVE = {p: native_rules(Rules(profile=p)) for p in PROFILES}  # (the rules compiled once)
N_ITEMS = C.N_ITEMS


# --------------------------------------------------------------------------------------------------
# Random winning hands


def meld_kinds(t: int, k: int) -> list[int]:
    return [k, k + 1, k + 2] if t == MELD_CHI else [k] * (3 if t == MELD_PON else 4)


def _decode_set(v: int, types) -> tuple[int, int]:
    t = types[v % len(types)]
    v //= len(types)
    if t == MELD_CHI:
        return t, 9 * (v % 3) + (v // 3) % 7
    return t, v % N_KINDS


CHI_STARTS = [9 * s + i for s in range(3) for i in range(7)]


def _place(total: np.ndarray, t: int, k: int) -> tuple[int, int]:
    """(t, k) if its tiles still fit (at most four of a kind), else the next set of that type that fits."""
    if t == MELD_CHI:
        i = CHI_STARTS.index(k)
        candidates = [CHI_STARTS[(i + d) % len(CHI_STARTS)] for d in range(len(CHI_STARTS))]
    else:
        candidates = [(k + d) % N_KINDS for d in range(N_KINDS)]
    for kk in candidates:
        ks = meld_kinds(t, kk)
        if all(total[x] + ks.count(x) <= 4 for x in ks):
            for x in ks:
                total[x] += 1
            return t, kk
    raise AssertionError("six groups always fit in 136 tiles")


@st.composite
def winning_hands(draw):
    """dict: concealed int8[34] (winning tile included), meld_type/meld_kind int8[5], n_melds, flowers,
    win_tile, win_by, seat, round, flags. One draw of integers, decoded (it shrinks towards small kinds
    and few melds); a set that would need a fifth copy moves to the next kind that fits."""
    v = draw(st.lists(st.integers(0, 2**20), min_size=14, max_size=14))
    n_melds = v[0] % 6
    total = np.zeros(N_KINDS, dtype=np.int16)
    pair = v[1] % N_KINDS
    total[pair] += 2
    melds = [
        _place(total, *_decode_set(v[2 + i], [MELD_CHI, MELD_PON, MELD_KONG, MELD_ADDKONG, MELD_ANKONG]))
        for i in range(n_melds)
    ]
    sets = [_place(total, *_decode_set(v[2 + i], [MELD_CHI, MELD_PON])) for i in range(n_melds, 5)]
    conc = np.zeros(N_KINDS, dtype=np.int8)
    conc[pair] += 2
    for t, k in sets:
        for x in meld_kinds(t, k):
            conc[x] += 1
    win_by = (C.WIN_DISCARD, C.WIN_SELF_DRAW, C.WIN_ROB_KONG)[v[7] % 3]
    flags = 0
    if win_by != C.WIN_ROB_KONG and v[8] % 2:
        flags |= C.F_LAST_TILE
    flowers = v[9] % 255  # never all eight (八仙過海 wins at once)
    if win_by == C.WIN_SELF_DRAW and v[10] % 2:
        flags |= C.F_KONG_REPLACEMENT if any(t >= MELD_KONG for t, _ in melds) else C.F_FLOWER_REPLACEMENT
    mt = np.zeros(5, dtype=np.int8)
    mk = np.zeros(5, dtype=np.int8)
    for i, (t, k) in enumerate(melds):
        mt[i], mk[i] = t, k
    held = np.flatnonzero(conc)
    return {
        "concealed": conc,
        "meld_type": mt,
        "meld_kind": mk,
        "n_melds": n_melds,
        "flowers": flowers,
        "win_tile": int(held[v[11] % held.size]),
        "win_by": win_by,
        "seat": v[12] % 4,
        "round": v[13] % 4,
        "flags": flags,
    }


def run(h: dict, profile: str = "standard") -> tuple[int, np.ndarray]:
    out = np.zeros(N_ITEMS, dtype=np.int32)
    tai = score_hand(
        h["concealed"],
        h["meld_type"],
        h["meld_kind"],
        h["n_melds"],
        h["flowers"],
        h["win_tile"],
        h["win_by"],
        h["seat"],
        h["round"],
        h["flags"],
        NATIVE[profile],
        out,
    )
    return int(tai), out


def remap(h: dict, kind_map) -> dict:
    """The same hand with every playing kind k replaced by kind_map[k] (a chi keeps its lowest kind's image)."""
    conc = np.zeros(N_KINDS, dtype=np.int8)
    for k in range(N_KINDS):
        conc[kind_map[k]] += h["concealed"][k]
    mk = np.array([kind_map[k] for k in h["meld_kind"]], dtype=np.int8)
    return h | {"concealed": conc, "meld_kind": mk, "win_tile": kind_map[h["win_tile"]]}


# --------------------------------------------------------------------------------------------------
# Scorer properties


@SETTINGS
@given(winning_hands(), st.permutations([0, 1, 2]), st.sampled_from(PROFILES))
def test_suit_permutation_leaves_items_unchanged(h, perm, profile):
    """Every item is suit-blind: m/p/s permuted (kinds 0-26 in blocks of 9) scores the same items."""
    kind_map = [perm[k // 9] * 9 + k % 9 if k < WIND0 else k for k in range(N_KINDS)]
    tai, items = run(h, profile)
    tai2, items2 = run(remap(h, kind_map), profile)
    assert tai == tai2
    assert items.tolist() == items2.tolist()


@SETTINGS
@given(winning_hands(), st.permutations([0, 1, 2]), st.sampled_from(PROFILES))
def test_dragon_permutation_leaves_items_unchanged(h, perm, profile):
    kind_map = [DRAGON0 + perm[k - DRAGON0] if k >= DRAGON0 else k for k in range(N_KINDS)]
    assert run(h, profile)[1].tolist() == run(remap(h, kind_map), profile)[1].tolist()


@SETTINGS
@given(winning_hands(), st.integers(1, 3), st.sampled_from(PROFILES))
def test_rotating_winds_seats_and_flowers_together_leaves_items_unchanged(h, r, profile):
    """Turning the table: wind tiles, the seat, the round and the flowers (each seat's own pair) rotated by
    the same step score the same items (the dealer tai is settlement, not an item)."""
    kind_map = [WIND0 + (k - WIND0 + r) % 4 if WIND0 <= k < DRAGON0 else k for k in range(N_KINDS)]
    f = h["flowers"]
    flowers = 0
    for i in range(8):
        if f >> i & 1:
            flowers |= 1 << ((i % 4 + r) % 4 + 4 * (i // 4))
    h2 = remap(h, kind_map) | {"seat": (h["seat"] + r) % 4, "round": (h["round"] + r) % 4, "flowers": flowers}
    assert run(h, profile)[1].tolist() == run(h2, profile)[1].tolist()


@SETTINGS
@given(winning_hands(), st.randoms(use_true_random=False), st.sampled_from(PROFILES))
def test_meld_order_does_not_matter(h, rnd, profile):
    n = h["n_melds"]
    order = list(range(n))
    rnd.shuffle(order)
    mt, mk = h["meld_type"].copy(), h["meld_kind"].copy()
    mt[:n], mk[:n] = h["meld_type"][order], h["meld_kind"][order]
    assert run(h, profile)[1].tolist() == run(h | {"meld_type": mt, "meld_kind": mk}, profile)[1].tolist()


@SETTINGS
@given(winning_hands(), st.sampled_from(PROFILES))
def test_hand_tai_is_the_sum_of_items_and_not_negative(h, profile):
    tai, items = run(h, profile)
    assert tai >= 0  # every complete hand is a win (屁胡 0 at least)
    assert tai == int(items.sum())
    assert (items >= 0).all()
    p_tai = NATIVE[profile].arrays()[2]
    assert ((items == 0) | (p_tai[0] >= 0)).all()  # only the profile's own items are reported


def _notation(h: dict) -> dict:
    """The random hand as a CASES.md case (the winning tile taken out of `hand`)."""
    before = h["concealed"].copy()
    before[h["win_tile"]] -= 1
    melds = [str(Meld(int(h["meld_type"][i]), int(h["meld_kind"][i]))) for i in range(h["n_melds"])]
    flags = [name for i, name in enumerate(C.FLAG_NAMES) if h["flags"] >> i & 1]
    case = {
        "id": "prop",
        "hand": format_counts(before),
        "melds": melds,
        "flowers": format_tiles([FLOWER0 + i for i in range(8) if h["flowers"] >> i & 1]),
        "win_tile": format_tiles([h["win_tile"]]),
        "win_by": C.WIN_BY_NAMES[h["win_by"]],
        "seat": WIND_NAMES[h["seat"]],
        "round": WIND_NAMES[h["round"]],
        "flags": flags,
    }
    if h["win_by"] != C.WIN_SELF_DRAW:
        case["discarder"] = WIND_NAMES[(h["seat"] + 1) % 4]
    return case


@settings(SETTINGS, max_examples=120)
@given(winning_hands(), st.sampled_from(PROFILES), st.integers(0, 6))
def test_cases_path_agrees_with_the_core(h, profile, streak):
    """The same hand through notation and `score_case` gives the core's items; hand_tai = sum of items;
    the deltas are zero-sum."""
    if h["flags"] & C.F_FLOWER_REPLACEMENT and not h["flowers"]:
        h = h | {"flags": h["flags"] & ~C.F_FLOWER_REPLACEMENT}
    tai, items = run(h, profile)
    r = score_case(_notation(h) | {"profile": profile, "streak": streak})
    assert "error" not in r, r
    assert r["hand_tai"] == tai == sum(r["items"].values())
    assert r["items"] == {k: int(items[i]) for i, k in enumerate(C.ITEM_KEYS) if items[i]}
    assert sum(r["deltas"].values()) == 0


# --------------------------------------------------------------------------------------------------
# Settlement


@SETTINGS
@given(
    hand_tai=st.integers(0, 200),
    win_by=st.sampled_from([C.WIN_DISCARD, C.WIN_SELF_DRAW, C.WIN_ROB_KONG, C.WIN_FLOWERS]),
    winner=st.integers(0, 3),
    payer_step=st.integers(0, 3),
    streak=st.integers(0, 1000),
    cap=st.one_of(st.none(), st.integers(0, 1000)),
    base=st.integers(0, 10**6),
    per_tai=st.integers(1, 10**6),
)
def test_settlement_is_zero_sum(hand_tai, win_by, winner, payer_step, streak, cap, base, per_tai):
    """For every way of winning, payer and streak the chips sum to zero, and each paying leg pays
    base + per_tai x (hand tai + dealer tai when the dealer E is on that leg)."""
    payer = -1 if payer_step == 0 else (winner + payer_step) % 4  # -1: all three pay
    opts = native_rules(Rules(streak_cap=cap, stakes={"base": base, "per_tai": per_tai}))
    deltas = np.zeros(4, dtype=np.int64)
    settle(hand_tai, win_by, winner, payer, 0, streak, opts, deltas)
    assert int(deltas.sum()) == 0
    dt = 1 + 2 * (streak if cap is None else min(streak, cap))
    assert dealer_tai(streak, opts) == dt
    for p in range(4):
        if p == winner:
            continue
        pays = payer < 0 or p == payer
        leg = hand_tai + (dt if 0 in (p, winner) else 0)
        assert int(deltas[p]) == (-(base + per_tai * leg) if pays else 0)
    # settle adds to what is there (several winners of one discard, or a whole game)
    settle(hand_tai, win_by, winner, payer, 0, streak, opts, deltas)
    assert int(deltas.sum()) == 0


# --------------------------------------------------------------------------------------------------
# Notation


def kinds_multiset():
    """A legal multiset of kinds: at most four of each playing kind, each flower at most once."""
    return st.tuples(
        st.lists(st.integers(0, 4), min_size=N_KINDS, max_size=N_KINDS),
        st.lists(st.booleans(), min_size=8, max_size=8),
    ).map(lambda t: [k for k, n in enumerate(t[0]) for _ in range(n)] + [FLOWER0 + i for i, b in enumerate(t[1]) if b])


@SETTINGS
@given(kinds_multiset())
def test_format_parse_round_trip(kinds):
    text = format_tiles(kinds)
    assert sorted(parse_tiles(text)) == sorted(kinds)
    assert format_tiles(parse_tiles(text)) == text  # canonical form is a fixed point
    assert sorted(parse_tiles(text.replace(" ", ""))) == sorted(kinds)  # spaces are optional


@st.composite
def written_freely(draw):
    """Notation as a person might write it: groups in any order, digits of one suit split or repeated,
    honours and flowers in any order, random spacing; returns (text, kinds)."""
    groups = []
    kinds = []
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(["suit", "honour", "flower"]))
        if kind == "suit":
            s = draw(st.integers(0, 2))
            digits = draw(st.lists(st.integers(1, 9), min_size=1, max_size=6))
            groups.append("".join(map(str, digits)) + "mps"[s])
            kinds += [9 * s + d - 1 for d in digits]
        elif kind == "honour":
            hs = draw(st.lists(st.integers(0, 6), min_size=1, max_size=4))
            groups.append("".join("ESWNCFP"[h] for h in hs))
            kinds += [WIND0 + h for h in hs]
        else:
            f = draw(st.integers(1, 8))
            groups.append(f"f{f}")
            kinds.append(FLOWER0 + f - 1)
    seps = [draw(st.sampled_from(["", " ", "  ", "\t"])) for _ in groups]
    # a suit letter or a flower digit ends a group, so groups may also run together ('12m34pEf1')
    return draw(st.sampled_from(["", " "])) + "".join(g + sep for g, sep in zip(groups, seps)), kinds


@SETTINGS
@given(written_freely())
def test_free_notation_parses_to_its_tiles(tk):
    text, kinds = tk
    assert sorted(parse_tiles(text)) == sorted(kinds)
    assert sorted(parse_tiles(format_tiles(kinds))) == sorted(kinds)


@SETTINGS
@given(st.text(alphabet="0123456789mpsESWNCFPfx -", max_size=24))
def test_parse_tiles_never_crashes(text):
    """Any text either parses or raises NotationError (never another exception)."""
    try:
        kinds = parse_tiles(text)
    except NotationError:
        return
    assert all(0 <= k < FLOWER0 + 8 for k in kinds)


def melds():
    return st.integers(0, 2**20).map(
        lambda v: Meld(*_decode_set(v, [MELD_CHI, MELD_PON, MELD_KONG, MELD_ADDKONG, MELD_ANKONG]))
    )


@SETTINGS
@given(melds())
def test_meld_round_trip(m):
    text = str(m)
    assert text.split()[0] == MELD_NAMES[m.type]
    assert parse_meld(text) == m
    assert sorted(parse_tiles(text.split(" ", 1)[1])) == sorted(m.kinds)


@SETTINGS
@given(st.text(alphabet="chipongkadx 0123456789mpsESWNCFPf", max_size=20))
def test_parse_meld_never_crashes(text):
    try:
        m = parse_meld(text)
    except NotationError:
        return
    assert parse_meld(str(m)) == m


def _parse_hand_text(text: str) -> Hand:
    """Read back ``str(Hand)``: ``concealed | meld | ... | flowers``."""
    conc, ms, fl = "", [], ""
    for part in text.split(" | "):
        if part.split()[0] in MELD_NAMES:
            ms.append(part)
        elif part.startswith("f") and part[1:2].isdigit():
            fl = part
        else:
            conc = part
    return Hand.parse(conc, ms, fl)


@SETTINGS
@given(winning_hands())
def test_hand_round_trip(h):
    ms = [Meld(int(h["meld_type"][i]), int(h["meld_kind"][i])) for i in range(h["n_melds"])]
    fl = " ".join(f"f{i + 1}" for i in range(8) if h["flowers"] >> i & 1)
    hand = Hand.parse(format_counts(h["concealed"]), [str(m) for m in ms], fl)
    back = _parse_hand_text(str(hand))
    assert back.concealed.tolist() == hand.concealed.tolist() == h["concealed"].tolist()
    assert back.melds == hand.melds == ms
    assert back.flowers == hand.flowers
    assert back.all_counts().tolist() == hand.all_counts().tolist()


# --------------------------------------------------------------------------------------------------
# The case parser never raises on junk (CASES.md: a bad case is answered with an error)

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.lists(st.one_of(st.text(max_size=8), st.integers()), max_size=3),
    st.dictionaries(st.text(max_size=8), st.one_of(st.integers(), st.text(max_size=8), st.none()), max_size=3),
)
GOOD = {
    "id": "j",
    "profile": "standard",
    "hand": "123m 456m 789m 234p 78s NN",
    "melds": [],
    "flowers": "",
    "win_tile": "6s",
    "win_by": "discard",
    "discarder": "W",
    "seat": "S",
    "round": "E",
    "streak": 0,
    "flags": [],
    "rules": {},
    "stakes": {"base": 30, "per_tai": 10},
}


CLEAN = score_case(GOOD)
IGNORED = {"note", "expected"}  # read by the case tools, never by the scorer
CLOSED = {"win_by": C.WIN_BY_NAMES, "seat": WIND_NAMES, "round": WIND_NAMES, "discarder": WIND_NAMES, "dealer": ("E",)}


def test_the_junk_test_starts_from_a_scored_case():
    assert "error" not in CLEAN and CLEAN["hand_tai"] > 0 and CLEAN["id"] == "j"


@settings(SETTINGS, max_examples=300)
@given(
    st.dictionaries(
        st.sampled_from(sorted(GOOD) + ["dealer", "expected", "note", "other"]), JUNK, min_size=1, max_size=3
    )
)
def test_score_case_answers_junk_with_an_error(changes):
    """Junk in any field is answered, never raised: ``{"id", "error"}`` with a message, or a full result
    that settles to zero; an unknown field and a value outside a closed set are named; ignored fields
    change nothing."""
    case = GOOD | changes
    r = score_case(case)
    json.dumps(r, ensure_ascii=False)
    assert r["id"] is case["id"]  # the id comes back as given, whatever it is
    if "error" in r:
        assert set(r) == {"id", "error"} and isinstance(r["error"], str) and r["error"]
    else:
        assert r["hand_tai"] == sum(r["items"].values()) and all(v > 0 for v in r["items"].values())
        assert sum(r["deltas"].values()) == 0 and len(r["deltas"]) == 4
    if "other" in changes:
        assert "other" in r.get("error", ""), r
    if set(changes) <= IGNORED:
        assert {k: v for k, v in r.items() if k != "id"} == {k: v for k, v in CLEAN.items() if k != "id"}
    (name, value), *more = changes.items()
    if not more and name in CLOSED and not (isinstance(value, str) and value in CLOSED[name]):
        assert name in r.get("error", ""), (name, value, r)
