"""Scripted walls and named-action play, for scenario tests and hand-written examples.

    wall = scripted_wall(["123m ...16 tiles", "...", "...", "..."],   # seat 0..3's deals
                         draws="5m E f1 ...",   # front draws in order, from the dealer's 17th tile on
                         tail="9s 3p ...")      # replacement draws (flowers, kongs) in order
    eng = Engine(rules, 1); eng.reset(0, walls=wall)
    play(eng, "E: discard 5m", "S: pon", "discard 9p", "pass", "win")
    last_hand(eng)                      # the HandRecord of the hand that ended last


Tiles not named fill the middle of the wall (a fixed shuffle, unnamed flowers nearest the tail
end), so the named ones come exactly where the script says.
"""

from __future__ import annotations

import weakref

import numpy as np

from envs.engine.actions import action_from_name, action_name
from envs.tiles import FLOWER0, FLOWER_ID0, N_KINDS, N_TILES, parse_tiles

SEAT_LETTERS = "ESWN"


def scripted_wall(hands, draws: str = "", tail: str = "", dealer: int = 0, flowers: bool = True) -> np.ndarray:
    """One hand's wall (uint8[144] physical ids). ``hands[s]``: seat s's 16 dealt tiles."""
    n = N_TILES if flowers else FLOWER_ID0
    pool = {k: [4 * k + i for i in range(4)] for k in range(N_KINDS)}
    if flowers:
        for f in range(8):
            pool[FLOWER0 + f] = [FLOWER_ID0 + f]

    def take(k: int, where: str) -> int:
        if k not in pool:
            raise ValueError(f"flower in {where} with flowers off")
        if not pool[k]:
            raise ValueError(f"too many copies of kind {k} in the script ({where})")
        return pool[k].pop(0)

    if len(hands) != 4:
        raise ValueError("need four deals, one per seat")
    wall = np.full(144, 255, np.int64)
    pos = 0
    for i in range(4):
        seat = (dealer + i) % 4
        kinds = parse_tiles(hands[seat])
        if len(kinds) != 16:
            raise ValueError(f"seat {seat} is dealt {len(kinds)} tiles, not 16")
        for k in kinds:
            wall[pos] = take(k, f"seat {seat}'s deal")
            pos += 1
    for k in parse_tiles(draws):
        wall[pos] = take(k, "draws")
        pos += 1
    end = n - 1
    for k in parse_tiles(tail):
        wall[end] = take(k, "tail")
        end -= 1
    if end < pos - 1:
        raise ValueError("draws and tail overlap")
    rest = [t for k in sorted(pool) if k < N_KINDS for t in pool[k]]
    rng = np.random.default_rng(12345)
    rng.shuffle(rest)
    rest += [t for k in sorted(pool) if k >= N_KINDS for t in pool[k]]
    wall[pos : end + 1] = rest
    if flowers is False:
        wall[FLOWER_ID0:] = np.arange(FLOWER_ID0, N_TILES)
    return wall.astype(np.uint8)


def scripted_engine(hands, draws: str = "", tail: str = "", walls=None, profile: str = "standard", **options):
    """A batch-1 Engine dealt from ``scripted_wall`` (or the given ``walls``). Flowers are off unless
    the options turn them on, so a scenario's tiles are exactly the ones it names."""
    from envs.engine.api import Engine  # the engine imports nothing from here; keep it that way
    from envs.rules import Rules

    rules = Rules.make(profile, **{"flowers": False, **options})
    eng = Engine(rules, 1, record_hands=True)
    if walls is None:
        walls = scripted_wall(hands, draws, tail, flowers=rules.flowers)
    eng.reset(0, walls=walls)
    return eng


def play(engine, *names: str, game: int = 0) -> None:
    """Step game ``game`` of a batch-1 ``Engine`` through named actions. ``"S: pon"`` also checks
    that seat S (E S W N = seats 0..3) is the one deciding."""
    for name in names:
        seat = None
        if ":" in name:
            who, name = name.split(":", 1)
            seat = SEAT_LETTERS.index(who.strip())
        cur = int(engine.current_player[game])
        if seat is not None and cur != seat:
            raise AssertionError(
                f"{name!r}: expected seat {SEAT_LETTERS[seat]} to decide, it is seat {cur} ({legal_names(engine, game)})"
            )
        a = action_from_name(name)
        if not engine.legal_action_mask[game, a]:
            raise AssertionError(f"{name!r} is not legal for seat {cur}; legal: {legal_names(engine, game)}")
        acts = np.zeros(engine.batch_size, np.int64)
        acts[game] = a
        engine.step(acts)


def legal_names(engine, game: int = 0) -> list[str]:
    return [action_name(a) for a in np.flatnonzero(engine.legal_action_mask[game])]


# Records taken from each engine (Engine.take_hands forgets what it hands out), per game.
_TAKEN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def finished_hands(engine, game: int = 0) -> list:
    """The ``HandRecord`` of every hand finished so far in game ``game`` of an engine made with
    ``record_hands=True`` (``scripted_engine`` makes one), oldest first; they stay readable here."""
    kept = _TAKEN.setdefault(engine, {}).setdefault(game, [])
    kept.extend(engine.take_hands(game))
    return kept


def last_hand(engine, game: int = 0):
    """The record of the hand that ended last in game ``game``."""
    hands = finished_hands(engine, game)
    if not hands:
        raise AssertionError(f"no hand of game {game} has finished")
    return hands[-1]


def items(engine, seat: int, game: int = 0) -> dict[str, int]:
    """Tai per item of ``seat``'s win in the last finished hand (items with tai only)."""
    return dict(last_hand(engine, game).items[seat])


def deltas(engine, game: int = 0) -> list[int]:
    """Chip deltas of the last finished hand, per seat."""
    return list(last_hand(engine, game).deltas)


def tsumogiri(engine, n: int = 1) -> None:
    """``n`` decisions of game 0: the seat on turn discards the tile it just drew (or its first legal
    discard); a seat asked to claim passes."""
    from envs.engine.state import PH_TURN

    for _ in range(n):
        if engine.phase[0] != PH_TURN:
            play(engine, "pass")
            continue
        k = int(engine.last_drawn[0])
        m = engine.legal_action_mask[0]
        engine.step(np.array([k if k >= 0 and m[k] else int(np.flatnonzero(m[:34])[0])]))


def run_out(engine, limit: int = 400) -> None:
    """Discard drawn tiles and pass every claim (``tsumogiri``) until game 0's hand ends;
    ``AssertionError`` if it has not ended after ``limit`` decisions."""
    for _ in range(limit):
        if engine.terminated[0]:
            return
        tsumogiri(engine)
    raise AssertionError("hand did not end")
