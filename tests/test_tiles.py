"""Tiles and notation (RULES.md 1): kinds, names, parsing errors that name the token and its position."""

from __future__ import annotations

import numpy as np
import pytest

from envs.tiles import (
    FLOWER0,
    MELD_ADDKONG,
    MELD_ANKONG,
    MELD_CHI,
    MELD_KONG,
    MELD_PON,
    N_ALL_KINDS,
    N_KINDS,
    Hand,
    Meld,
    NotationError,
    counts_of,
    format_counts,
    format_tiles,
    kind_name,
    kind_zh,
    kinds_of,
    parse_flowers,
    parse_hand,
    parse_meld,
    parse_tiles,
)


def test_kind_indices():
    assert parse_tiles("1m 9m 1p 9p 1s 9s") == [0, 8, 9, 17, 18, 26]
    assert parse_tiles("ESWNCFP") == list(range(27, 34))
    assert parse_tiles("f1 f2 f3 f4 f5 f6 f7 f8") == list(range(34, 42))
    assert [kind_name(k) for k in (0, 8, 9, 26, 27, 30, 31, 33, 34, 41)] == [
        "1m",
        "9m",
        "1p",
        "9s",
        "E",
        "N",
        "C",
        "P",
        "f1",
        "f8",
    ]
    with pytest.raises(ValueError, match="no tile kind 42"):
        kind_name(N_ALL_KINDS)


def test_kind_names_in_chinese():
    zh = [kind_zh(k) for k in range(N_ALL_KINDS)]
    assert zh[:9] == ["一萬", "二萬", "三萬", "四萬", "五萬", "六萬", "七萬", "八萬", "九萬"]
    assert zh[9] == "一筒" and zh[17] == "九筒"
    assert zh[18] == "一條" and zh[22] == "五條" and zh[26] == "九條"
    assert zh[27:34] == ["東", "南", "西", "北", "中", "發", "白"]
    assert zh[34:42] == ["春", "夏", "秋", "冬", "梅", "蘭", "菊", "竹"]
    assert len(set(zh)) == N_ALL_KINDS


def test_shared_digits_and_optional_spaces():
    assert parse_tiles("123m 55p") == [0, 1, 2, 13, 13]
    assert parse_tiles("123m55pEEf1") == parse_tiles("123m 55p EE f1") == [0, 1, 2, 13, 13, 27, 27, 34]
    assert parse_tiles("  1m  ") == [0]
    assert parse_tiles("") == []
    assert format_tiles([34, 27, 0, 13, 27, 13, 2, 1]) == "123m 55p EE f1"
    assert format_tiles(parse_tiles("5s 1m 5s E C E 9p f8 f2")) == "1m 9p 55s EE C f2 f8"


@pytest.mark.parametrize(
    "text, token, pos",
    [
        ("406m", "'0m' is not a tile (token '406m'", 1),
        ("123m 0p", "'0p' is not a tile (token '0p'", 5),
        ("12x", "bad token '12x'", 0),  # digits before an unknown letter
        ("123m X", "bad token 'X'", 5),  # unknown letter
        ("123m e", "bad token 'e'", 5),  # honours are upper case
        ("EE f9", "bad token 'f9'", 3),
        ("f0", "bad token 'f0'", 0),
        ("f", "bad token 'f'", 0),
        ("123", "bad token '123'", 0),  # digits without a suit
        ("55p 12 3m", "bad token '12'", 4),
        ("1m2", "bad token '2'", 2),
        ("1M", "bad token '1M'", 0),
        ("1m, 2m", "bad token ','", 2),
    ],
)
def test_notation_errors_name_token_and_position(text, token, pos):
    with pytest.raises(NotationError) as e:
        parse_tiles(text)
    msg = str(e.value)
    assert token in msg
    assert f"position {pos}" in msg
    assert repr(text) in msg


def test_fifth_copy_names_the_tile_and_position():
    with pytest.raises(NotationError, match=r"fifth copy of '1m' \(token '11111m' at position 4 in '11111m'\)"):
        parse_hand("11111m")
    with pytest.raises(NotationError, match=r"fifth copy of 'E' \(token 'E' at position 9"):
        parse_hand("EE 5p EE E")
    with pytest.raises(NotationError, match=r"fifth copy of '5s' \(token '45s' at position 12"):
        parse_hand("5555s 123m 45s")
    assert parse_hand("1111m EEEE").tolist() == [4] + [0] * 26 + [4] + [0] * 6


def test_hand_refuses_flowers_and_flowers_refuse_tiles():
    with pytest.raises(NotationError, match=r"flower 'f2' at position 5 in a hand"):
        parse_hand("123m f2")
    with pytest.raises(NotationError, match=r"'3m' at position 6 is not a flower"):
        parse_flowers("f1 f2 3m")
    with pytest.raises(NotationError, match=r"flower 'f1' at position 3 appears twice"):
        parse_flowers("f1 f1")
    assert parse_flowers("f5 f1") == [FLOWER0, FLOWER0 + 4]
    assert parse_flowers("") == parse_flowers(None) == []


def test_not_a_string():
    with pytest.raises(NotationError, match="tiles must be a string, not int"):
        parse_tiles(123)
    with pytest.raises(NotationError, match="a meld must be a string"):
        parse_meld(["chi", "123m"])


@pytest.mark.parametrize(
    "text, meld",
    [
        ("chi 123m", Meld(MELD_CHI, 0)),
        ("chi 798p", Meld(MELD_CHI, 15)),  # any order
        ("chi 7s8s9s", Meld(MELD_CHI, 24)),
        ("pon EEE", Meld(MELD_PON, 27)),
        ("kong 5555s", Meld(MELD_KONG, 22)),
        ("addkong 2222m", Meld(MELD_ADDKONG, 1)),
        ("ankong 7777p", Meld(MELD_ANKONG, 15)),
        ("  pon PPP ", Meld(MELD_PON, 33)),
    ],
)
def test_parse_meld(text, meld):
    m = parse_meld(text)
    assert m == meld
    assert parse_meld(str(m)) == m
    assert m.is_open == (m.type != MELD_ANKONG)
    assert m.is_kong == (m.type in (MELD_KONG, MELD_ADDKONG, MELD_ANKONG))


@pytest.mark.parametrize(
    "text, message",
    [
        ("chi 124m", "'chi 124m' is not a chi"),
        ("chi 89m1p", "is not a chi"),  # no wrapping across suits
        ("chi 891m", "is not a chi"),
        ("chi ESW", "is not a chi"),  # honours never chi
        ("chi CFP", "is not a chi"),
        ("chi 111m", "is not a chi"),
        ("pon EEF", "'pon EEF' is not a pon (3 identical tiles)"),
        ("pon 123m", "is not a pon"),
        ("kong 5556s", "is not a kong (4 identical tiles)"),
        ("ankong 7778p", "is not a ankong"),
        ("kong 555s", "a kong has 4 playing tiles, got 3"),
        ("pon EEEE", "a pon has 3 playing tiles, got 4"),
        ("chi 12m", "a chi has 3 playing tiles, got 2"),
        ("pon f1f2f3", "a pon has 3 playing tiles"),
        ("peng 555s", "unknown meld type 'peng'"),
        ("555s", "unknown meld type '555s'"),
        ("", "unknown meld type ''"),
        ("pon 0mmm", "'0m' is not a tile"),
    ],
)
def test_meld_shape_errors(text, message):
    with pytest.raises(NotationError) as e:
        parse_meld(text)
    assert message in str(e.value)


def test_meld_strings_and_kinds():
    assert str(parse_meld("chi 321p")) == "chi 123p"
    assert parse_meld("kong 5555s").kinds == [22] * 4
    assert parse_meld("chi 789s").kinds == [24, 25, 26]


def test_hand_object():
    h = Hand.parse("123m 55p", ["pon EEE", "ankong 7777p"], "f5 f1")
    assert str(h) == "123m 55p | pon EEE | ankong 7777p | f1 f5"
    assert h.all_counts()[27] == 3 and h.all_counts()[15] == 4
    assert h.flowers == [FLOWER0, FLOWER0 + 4]
    with pytest.raises(NotationError, match="fifth copy of 'E'"):
        Hand.parse("EE 123m", ["pon EEE"])
    with pytest.raises(NotationError, match="is not a chi"):
        Hand.parse("123m", ["chi 135m"])
    assert repr(Hand.parse("1m")) == "Hand('1m')"


def test_counts_helpers():
    kinds = parse_tiles("1123m 9p EE")
    c = counts_of(kinds)
    assert c.dtype == np.int8 and c.shape == (N_KINDS,)
    assert kinds_of(c) == sorted(kinds)
    assert format_counts(c) == "1123m 9p EE"
