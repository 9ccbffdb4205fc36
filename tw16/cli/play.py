"""``tw16 play``: a person plays one seat in the terminal against three agents.

    tw16 play [--seat 0] [--opponents neural] [--hands 1] [--seed S] [--profile standard] [--rules JSON] [--open]

The table is drawn in notation and in Chinese (``123m 55p EEE`` / ``一二三萬 五五筒 東東東``): your
hand (and the tile you drew), every seat's melds, flowers and discards (``*`` = claimed), the wall
count, the dealer, the winds and whose turn it is. Your legal actions are listed with numbers; type a
number or a name: ``5m`` or ``d 5m`` (discard), ``chi`` / ``chi 345m``, ``pon``, ``kong`` /
``kong 5m``, ``win``, ``pass``, ``ready``; ``?`` help, ``t`` redraw the table, ``q`` quit. At the end of
each hand the hands are shown face up with the tai breakdown (item, 中文, tai) and the chip deltas.

The hands are played as one game (``episode="game"``: the deal moves, the dealer keeps it on a win or
a drawn hand, the prevailing wind advances); after a whole game (一將) a new game is dealt.

``play(...)`` is the loop, testable without a terminal: ``input`` is an iterable of lines (a list, a
file, ``io.StringIO``) or a callable ``prompt -> line`` (``builtins.input``); ``out`` a text stream.
End of input or Ctrl-C ends the session cleanly.
"""

from __future__ import annotations

import builtins
import json
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from envs._core import dealer_tai
from envs.engine import actions as A
from envs.engine import state as st
from envs.engine.mask import native_rules
from envs.rules import Rules, RulesError
from envs.tiles import (
    FLOWER0,
    FLOWER_ZH,
    HONOUR_ZH,
    MELD_ANKONG,
    MELD_NAMES,
    MELD_ZH,
    N_KINDS,
    NUM_ZH,
    SUIT_ZH,
    WIND0,
    WIND_NAMES,
    Meld,
    NotationError,
    format_tiles,
    kind_name,
    kind_zh,
    kinds_of,
    parse_tiles,
)
from tw16.cli.game import TableGame, agent_channels, make_opponents, snapshot, three  # noqa: F401 (re-exported)
from tw16.cli.streams import stdin_or_error

WIND_ZH = "東南西北"
WIN_BY_ZH = {"discard": "胡 / 放槍", "self_draw": "自摸", "rob_kong": "搶槓", "flowers": "花胡"}


# -- tiles in Chinese -------------------------------------------------------------------------------
def zh_tiles(kinds) -> str:
    """Chinese of a multiset of kinds, grouped like the notation: ``[0,1,2,13,13,27]`` -> ``一二三萬 五五筒 東``."""
    ks = sorted(int(k) for k in kinds)
    parts = []
    for s, letter in enumerate("mps"):
        nums = "".join(NUM_ZH[k - 9 * s] for k in ks if 9 * s <= k < 9 * s + 9)
        if nums:
            parts.append(nums + SUIT_ZH[letter])
    hon = [k for k in ks if WIND0 <= k < N_KINDS]
    if hon:
        parts.append("".join(kind_zh(k) for k in hon))
    fl = [k for k in ks if k >= FLOWER0]
    if fl:
        parts.append("".join(FLOWER_ZH[k - FLOWER0] for k in fl))
    return " ".join(parts)


def tile_both(k: int) -> str:
    """``5m 五萬``."""
    return f"{kind_name(k)} {kind_zh(k)}"


_ZH_TO_KIND = {kind_zh(k): k for k in range(N_KINDS)}
_ZH_TO_KIND.update({v: WIND0 + "ESWNCFP".index(h) for h, v in HONOUR_ZH.items()})


def parse_one_tile(tok: str, lenient: bool = False) -> int | None:
    """One playing tile from ``5m`` / ``5M`` / ``E`` / ``五萬``; ``lenient`` also takes a lower-case honour
    (``e``), which a bare word would confuse with a command. ``None`` when it is not one tile."""
    tok = tok.strip()
    if tok in _ZH_TO_KIND:
        return _ZH_TO_KIND[tok]
    cands = [tok]
    if len(tok) == 2 and tok[0].isdigit():
        cands.append(tok[0] + tok[1].lower())
    if lenient and len(tok) == 1:
        cands.append(tok.upper())
    for c in cands:
        try:
            ks = parse_tiles(c)
        except NotationError:
            continue
        if len(ks) == 1 and ks[0] < N_KINDS:
            return ks[0]
    return None


def parse_tile_group(text: str) -> list[int] | None:
    """``345m`` / ``3-4-5m`` / ``3m 4m 5m`` -> kinds, or None."""
    t = text.replace("-", "").replace(",", " ").strip()
    if not t:
        return None
    try:
        ks = parse_tiles(t)
    except NotationError:
        try:
            ks = parse_tiles(t.lower())
        except NotationError:
            return None
    return ks if ks and all(k < N_KINDS for k in ks) else None


def meld_text(mt: int, mk: int, frm: int, owner: int, hidden: bool) -> str:
    if hidden:
        return "ankong ???? 暗槓"
    m = Meld(mt, mk)
    s = f"{MELD_NAMES[mt]} {format_tiles(m.kinds)} {MELD_ZH[mt]}{zh_tiles(m.kinds)}"
    if mt != MELD_ANKONG and frm != owner:
        s += f" <p{frm}"
    return s


# -- the legal actions as choices -----------------------------------------------------------------
@dataclass
class Choice:
    action: int
    verb: str  # discard, chi, pon, kong, win, pass, ready
    label: str  # English, notation
    zh: str
    kinds: tuple = field(default_factory=tuple)  # tiles the choice names (the discard, the chi's three, ...)

    def __str__(self) -> str:
        return f"{self.label}  {self.zh}"


def choices_for(eng, b: int = 0) -> list[Choice]:
    """The legal actions of the seat to act, with readable names, in the listed order: win, ready,
    kongs, pon, chi, discards (by tile), pass."""
    mask = eng.legal_action_mask[b]
    phase = int(eng.phase[b])
    if phase == st.PH_DONE:
        return []
    cur = int(eng.current_player[b])
    t = int(eng.claim_tile[b])
    out: list[Choice] = []
    if mask[A.WIN]:
        if phase == st.PH_TURN:
            out.append(Choice(A.WIN, "win", "win (self-draw)", "自摸"))
        elif phase == st.PH_ROB:
            out.append(Choice(A.WIN, "win", f"win robbing the kong on {kind_name(t)}", f"搶槓 {kind_zh(t)}", (t,)))
        elif phase == st.PH_FLOWER:
            out.append(Choice(A.WIN, "win", "win on flowers (八仙過海 / 七搶一)", "花胡"))
        elif phase == st.PH_LA_CUT:
            out.append(Choice(A.WIN, "win", "cut: pay your 拉 debt in full now", "斬拉"))
        else:
            out.append(Choice(A.WIN, "win", f"win on {kind_name(t)}", f"胡 {kind_zh(t)}", (t,)))
    if mask[A.READY]:
        out.append(Choice(A.READY, "ready", "ready (declare)", "報聽"))
    if mask[A.KONG]:
        out.append(Choice(A.KONG, "kong", f"kong {format_tiles([t] * 4)}", f"明槓 {kind_zh(t)}", (t,)))
    for k in range(N_KINDS):
        if mask[A.SELF_KONG + k]:
            concealed = int(eng.hands[b, cur, k]) == 4
            out.append(
                Choice(
                    A.SELF_KONG + k,
                    "kong",
                    f"{'concealed' if concealed else 'added'} kong {format_tiles([k] * 4)}",
                    f"{'暗槓' if concealed else '加槓'} {kind_zh(k)}",
                    (k,),
                )
            )
    if mask[A.PON]:
        out.append(Choice(A.PON, "pon", f"pon {format_tiles([t] * 3)}", f"碰 {kind_zh(t)}", (t,)))
    for i in range(3):
        if mask[A.CHI + i]:
            lo = t - i
            ks = (lo, lo + 1, lo + 2)
            out.append(
                Choice(
                    A.CHI + i,
                    "chi",
                    f"chi {kind_name(lo)[0]}-{kind_name(lo + 1)[0]}-{kind_name(lo + 2)}",
                    f"吃 {zh_tiles(ks)}",
                    ks,
                )
            )
    for k in range(N_KINDS):
        if mask[A.DISCARD + k]:
            out.append(Choice(A.DISCARD + k, "discard", f"discard {kind_name(k)}", kind_zh(k), (k,)))
    if mask[A.PASS]:
        out.append(Choice(A.PASS, "pass", "pass", "過"))
    return out


VERBS = {
    "discard": ("d", "discard", "打", "丟", "drop"),
    "chi": ("c", "chi", "chow", "吃"),
    "pon": ("pon", "pong", "peng", "碰"),
    "kong": ("k", "kong", "gang", "kan", "槓", "杠"),
    "win": ("w", "win", "hu", "胡", "和", "ron", "tsumo", "自摸", "mahjong"),
    "pass": ("pass", "x", "skip", "no", "-", "過", "不要"),
    "ready": ("r", "ready", "報聽", "聽", "riichi"),
    "help": ("?", "h", "help", "幫助"),
    "table": ("t", "table", "show", "look"),
    "quit": ("q", "quit", "exit", "bye"),
}
_VERB_OF = {alias: verb for verb, aliases in VERBS.items() for alias in aliases}

HELP = """\
Type the number of an option, or its name:
  5m  d 5m  discard 5m  打 五萬     discard a tile (honours: E S W N C F P = 東 南 西 北 中 發 白)
  chi  chi 345m  chi 3-4-5m         吃 (when several chis are legal, name the tiles or use the number)
  pon  kong  kong 5m                碰 / 明槓 on a discard, 暗槓 / 加槓 of a tile on your turn
  win  pass  ready                  胡 / 自摸, 過, 報聽
  t  redraw the table    ?  this help    q  quit (also Ctrl-D / Ctrl-C)"""


@dataclass
class Parsed:
    action: int | None = None
    message: str = ""  # a hint when action is None
    command: str | None = None  # help / table / quit


def _numbered(choices, idx) -> str:
    return ", ".join(f"{i + 1}) {choices[i].label}" for i in idx)


MAX_LINE = 200  # characters of one typed move


def interpret(text: str, choices: list[Choice], hand=None) -> Parsed:
    """Map one typed line to a legal action, or to a hint (never raises). ``hand``: the player's
    concealed counts (34,), to say "you have no 5m" rather than "not legal"."""
    t = " ".join(str(text).split())
    n = len(choices)
    if len(t) > MAX_LINE:  # a move is a few words: a pasted page is not quoted back, or parsed
        return Parsed(
            message=f"that line is {len(t)} characters long: type a number 1-{n} or a move like 'd 5m' "
            f"(at most {MAX_LINE} characters)"
        )
    if not t:
        return Parsed(message=f"type a number 1-{n} or a name ('d 5m', 'pon', 'win', 'pass'); ? for help")
    if t.isdigit() or (t[0] in "+-" and t[1:].isdigit()):
        i = int(t)
        if 1 <= i <= n:
            return Parsed(choices[i - 1].action)
        return Parsed(message=f"there is no option {t}: choose 1-{n}")
    words = t.split(" ")
    head = words[0].lower() if words[0].isascii() else words[0]
    rest = " ".join(words[1:])
    verb = _VERB_OF.get(head)
    k = parse_one_tile(words[0]) if len(words) == 1 else None
    if k is not None:  # a bare tile is a discard; upper-case honours (W, C) are tiles, not commands
        verb, rest = "discard", kind_name(k)
    elif verb is None and head == "p":
        return Parsed(message="'p' is ambiguous: type 'pon', 'pass', or 'P' for the white dragon 白")
    if verb is None and len(words) == 1 and parse_tile_group(words[0]) is not None:
        return Parsed(
            message=f"{t!r} is more than one tile: discard one tile, e.g. 'd {kind_name(parse_tile_group(words[0])[0])}'"
        )
    if verb is None:
        return Parsed(
            message=f"did not understand {t!r}: type a number 1-{n}, or 'd 5m', 'chi', 'pon', 'kong', "
            f"'win', 'pass', 'ready'; ? for help"
        )
    if verb in ("help", "table", "quit"):
        return Parsed(command=verb)
    cands = [c for c in choices if c.verb == verb]
    if not cands:
        now = ", ".join(c.label for c in choices[:6]) + (", ..." if n > 6 else "")
        return Parsed(message=f"you cannot {verb} now (you can: {now})")
    if rest:
        if verb == "chi":
            pos = {"low": 0, "mid": 1, "middle": 1, "high": 2}.get(rest.lower())
            if pos is not None:
                cands = [c for c in cands if c.action == A.CHI + pos]
            else:
                ks = parse_tile_group(rest)
                if ks is None:
                    return Parsed(message=f"{rest!r} is not a chi: name its tiles, e.g. 'chi 345m', or use the number")
                cands = [c for c in cands if set(ks) <= set(c.kinds)]
        elif verb in ("discard", "pon", "kong", "win"):
            k = parse_one_tile(rest, lenient=True)
            if k is None:
                return Parsed(message=f"{rest!r} is not a tile (tiles: 1m-9m, 1p-9p, 1s-9s, E S W N C F P)")
            before = cands
            cands = [c for c in cands if k in c.kinds]
            if not cands:
                if verb == "discard" and hand is not None and int(hand[k]) == 0:
                    return Parsed(message=f"you have no {tile_both(k)} to discard")
                return Parsed(
                    message=f"{verb} {kind_name(k)} is not possible now; you can: " + ", ".join(c.label for c in before)
                )
        else:
            return Parsed(message=f"'{verb}' takes no tile: type just '{verb}'")
    if not cands:
        return Parsed(
            message=f"that {verb} is not possible now; you can: "
            + ", ".join(c.label for c in choices if c.verb == verb)
        )
    if len(cands) > 1:
        idx = [choices.index(c) for c in cands]
        return Parsed(message=f"which {verb}? {_numbered(choices, idx)} (type the number)")
    return Parsed(cands[0].action)


# -- drawing the table ------------------------------------------------------------------------------
_snapshot = snapshot  # the table before a step (tw16.cli.game)


def _wrap(text: str, indent: str, width: int = 100) -> list[str]:
    return textwrap.wrap(
        text, width, initial_indent=indent, subsequent_indent=indent + "  ", break_on_hyphens=False
    ) or [indent]


def draw_table(view, me: int, names, reveal: bool = False, hand_no: int = 1, b: int = 0) -> str:
    """The table as text, as seat ``me`` sees it (``reveal``: every hand face up). ``view``: the
    engine or a ``_snapshot`` of it."""
    dealer = int(view.dealer[b])
    phase = int(view.phase[b])
    cur = int(view.current_player[b])
    rw = int(view.round_wind[b])
    wall = int(max(view.wall_drawable[b], 0))
    turn = int(view.turn_seat[b])
    streak = int(view.streak[b])
    who = "—" if cur < 0 else ("you" if cur == me else f"p{cur} {names[cur]}")
    lines = [
        f"══ hand {hand_no} · round {WIND_NAMES[rw]} {WIND_ZH[rw]}風 · dealer p{dealer} 莊"
        + (f" (連莊 {streak})" if streak else "")
        + f" · wall {wall} · to act: {who} ══"
    ]
    river = view.river[b, : int(view.n_river[b])]
    for k in range(4):
        seat = (me + k) % 4
        sw = (seat - dealer) % 4
        mark = "▶" if seat == cur else " "
        tags = [
            f"{WIND_NAMES[sw]} {WIND_ZH[sw]}",
            "dealer 莊" if seat == dealer else "",
            "YOU" if seat == me else names[seat],
            "READY 聽" if view.ready[b, seat] else "",
        ]
        lines.append(f"{mark}p{seat} " + " · ".join(x for x in tags if x) + f"   chips {int(view.scores[b, seat]):+d}")
        hand = view.hands[b, seat]
        n = int(hand.sum())
        if seat == me or reveal:
            ks = kinds_of(hand)
            drawn = int(view.last_drawn[b])
            extra = ""
            if (
                seat == me
                and not reveal
                and phase == st.PH_TURN
                and cur == me
                and drawn >= 0
                and hand[drawn] > 0
                and n % 3 == 2
            ):
                ks.remove(drawn)
                extra = f"   + drew {tile_both(drawn)}"
            lines.append(f"     hand     {format_tiles(ks)}{extra}   ({n})")
            lines.append(f"              {zh_tiles(ks)}")
        else:
            lines.append(f"     hand     {n} tiles")
        nm = int(view.n_melds[b, seat])
        if nm:
            ms = [
                meld_text(
                    *(int(x) for x in view.melds[b, seat, i]),
                    seat,
                    int(view.melds[b, seat, i][st.MC_TYPE]) == MELD_ANKONG and seat != me and not reveal,
                )
                for i in range(nm)
            ]
            lines += _wrap(" | ".join(ms), "     melds    ")
        fl = int(view.flowers[b, seat])
        if fl:
            fk = [FLOWER0 + f for f in range(8) if fl >> f & 1]
            lines.append(f"     flowers  {format_tiles(fk)}   {zh_tiles(fk)}")
        disc = [(int(r[st.RV_KIND]), int(r[st.RV_CLAIMED_BY]) >= 0) for r in river if int(r[st.RV_SEAT]) == seat]
        if disc:
            lines += _wrap(" ".join(kind_name(k) + ("*" if c else "") for k, c in disc), "     discards ")
            lines += _wrap(" ".join(kind_zh(k) + ("*" if c else "") for k, c in disc), "              ")
    if phase in (st.PH_CLAIM, st.PH_ROB) and int(view.claim_tile[b]) >= 0:
        t = int(view.claim_tile[b])
        what = "discarded" if phase == st.PH_CLAIM else "adds a kong with"
        lines.append(f"  p{turn} {what} {tile_both(t)}")
    return "\n".join(lines)


def draw_choices(choices: list[Choice]) -> str:
    cells = [f"{i + 1:>2}) {c.label} {c.zh}" for i, c in enumerate(choices)]
    w = max(len(c) for c in cells) + 2
    per = max(1, 96 // (w + 2))
    rows = [" ".join(c.ljust(w) for c in cells[i : i + per]).rstrip() for i in range(0, len(cells), per)]
    return "your options:\n" + "\n".join("  " + r for r in rows)


def item_label(key: str) -> str:
    return key.replace("_", " ")


def hand_result(rec, before, names, me: int, rules: Rules) -> str:
    """The end of a hand from its record (``envs.engine.record.HandRecord``): result, each winner's
    hand and tai breakdown, chip deltas. ``before``: the table just before the step that ended it (the
    engine has dealt again since, in a game), None for a hand that ended in its deal."""
    lines = []
    if rec.drawn:
        lines.append("drawn hand 流局 (no winner)")
    for w in rec.winners:
        lines += _winner_lines(rec, w, before, names, me, rules)
    lines.append(
        "chips this hand: "
        + "   ".join(f"{'you' if p == me else 'p' + str(p)} {d:+d}" for p, d in enumerate(rec.deltas))
    )
    return "\n".join(lines)


def _winner_lines(rec, w: int, before, names, me: int, rules: Rules) -> list[str]:
    prof = rules.profile_data
    payer = -1 if rec.payer is None else rec.payer
    who = "you" if w == me else f"p{w} {names[w]}"
    how = {
        "discard": f"on p{payer}'s discard" if payer >= 0 else "on a discard",
        "self_draw": "by self-draw",
        "rob_kong": f"robbing p{payer}'s kong" if payer >= 0 else "robbing a kong",
        "flowers": "with the flowers",
    }[rec.win_by]
    lines = [f"{'you win' if w == me else who + ' wins'} {how} ({WIN_BY_ZH[rec.win_by]})"]
    if before is not None:
        hand = kinds_of(before.hands[0, w])
        tile = f"   + {tile_both(rec.win_tile)}" if rec.last_tile_from in ("discard", "robbed_kong") else ""
        lines.append(f"   hand     {format_tiles(hand)}{tile}")
        lines.append(f"            {zh_tiles(hand)}")
        nm = int(before.n_melds[0, w])
        if nm:
            lines.append(
                "   melds    "
                + " | ".join(
                    meld_text(int(m[st.MC_TYPE]), int(m[st.MC_KIND]), int(m[st.MC_FROM]), w, False)
                    for m in before.melds[0, w, :nm]
                )
            )
    fl = rec.flowers[w]
    if fl:
        fk = [FLOWER0 + f for f in range(8) if fl >> f & 1]
        lines.append(f"   flowers  {format_tiles(fk)}   {zh_tiles(fk)}")
    order = {k: i for i, k in enumerate(prof.keys)}
    items = sorted(rec.items[w], key=lambda kv: order.get(kv[0], 999))
    lines.append("   tai breakdown 台數:")
    if not items:
        lines.append("     (no scoring item: 屁胡 0 tai)")
    wk = max([len(item_label(k)) for k, _ in items] + [10])
    zw = max([len(prof.zh(k)) for k, _ in items] + [2])  # CJK is double width: pad with
    for k, v in items:
        lines.append(f"     {prof.zh(k):　<{zw}} {item_label(k):<{wk}} {v:>3} tai")
    lines.append(f"     {'合計':　<{zw}} {'hand total':<{wk}} {rec.tai[w]:>3} tai")
    dealer, streak = rec.dealer, rec.streak
    if rules.settlement == "win_lose":  # the olympiad profile: one point a leg, no dealer tai
        lines.append("     win/lose settlement: one point from each paying seat, whatever the tai")
    elif w == dealer or payer in (-1, dealer):  # the dealer is on a paying leg
        dt = int(dealer_tai(streak, native_rules(rules)))
        lines.append(
            f"     dealer 莊家{'/連莊 ' + str(streak) if streak else ''}: +{dt} tai on each leg between the dealer ({'you' if dealer == me else f'p{dealer}'}) and the winner"
        )
    return lines


def _events(before, eng, me: int, names, b: int = 0) -> list[str]:
    """What the others can see happened in one step: discards, melds, flowers shown, ready."""
    out = []
    n0, n1 = int(before.n_river[b]), int(eng.n_river[b])

    def who(p):
        return "you" if p == me else f"p{p}"

    for i in range(n0, n1):
        k, seat = int(eng.river[b, i, st.RV_KIND]), int(eng.river[b, i, st.RV_SEAT])
        out.append(f"{who(seat)} discard{'s' if seat != me else ''} {tile_both(k)}")
    for p in range(4):
        fl0, fl1 = int(before.flowers[b, p]), int(eng.flowers[b, p])
        new = [FLOWER0 + f for f in range(8) if (fl1 & ~fl0) >> f & 1]
        if new:
            out.append(f"{who(p)} show{'s' if p != me else ''} flower {format_tiles(new)} {zh_tiles(new)} (補花)")
        m0, m1 = int(before.n_melds[b, p]), int(eng.n_melds[b, p])
        for j in range(m1):
            mt, mk, frm = (int(x) for x in eng.melds[b, p, j])
            if j >= m0 or mt != int(before.melds[b, p, j, st.MC_TYPE]):
                out.append(f"{who(p)}: {meld_text(mt, mk, frm, p, mt == MELD_ANKONG and p != me)}")
        if eng.ready[b, p] and not before.ready[b, p]:
            out.append(f"{who(p)} declare{'s' if p != me else ''} ready (報聽)")
    return out


# -- the loop -------------------------------------------------------------------------------------
class _Quit(Exception):
    pass


def _reader(inp, out):
    """A function prompt -> line raising _Quit at the end of input or on Ctrl-C."""
    if inp is None:
        inp = builtins.input
    if callable(inp):

        def read(prompt):
            try:
                line = inp(prompt)
            except (EOFError, KeyboardInterrupt):
                raise _Quit from None
            if line is None:
                raise _Quit
            return str(line)

        return read
    it = iter(inp)

    def read_it(prompt):
        try:
            line = next(it)
        except (StopIteration, KeyboardInterrupt):
            raise _Quit from None
        line = str(line).rstrip("\r\n")
        out.write(prompt + (line if len(line) <= MAX_LINE else f"{line[:MAX_LINE]}... ({len(line)} characters)") + "\n")
        return line

    return read_it


def play(
    rules: Rules | None = None,
    seat: int = 0,
    opponents=("neural",),
    seed: int = 0,
    hands: int = 1,
    input=None,
    out=None,
    reveal: bool = False,
    log=None,
) -> dict:
    """Play ``hands`` hands with a person at ``seat`` and agents elsewhere. ``opponents``: three
    agent specs or agents (one is used for all three seats). ``log``: write each game's replay log
    (``log_paths``). Returns a summary dict: ``hands`` finished, ``chips`` per seat, ``you`` (the
    seat), ``quit`` (input ended early), ``logs`` (the files written)."""
    out = out if out is not None else sys.stdout
    if not 0 <= seat <= 3:
        raise ValueError(f"seat must be 0..3, got {seat}")
    opp = three(opponents)
    if all(isinstance(o, str) for o in opp):
        agents, notes = make_opponents(opp, seed)
        for n in notes:
            out.write(n + "\n")
    else:
        agents = opp
    rules = (rules or Rules()).replace(episode="game")
    game = TableGame(rules, seat, agents, seed)
    eng, names = game.eng, game.names
    others = [p for p in range(4) if p != seat]
    read = _reader(input, out)
    finished = 0
    quit_ = False
    games: list[tuple[int, list[int]]] = []  # (seed, actions) of each game, for the log

    def write(text=""):
        out.write(text + "\n")

    def report(ended, before):
        """The hands that ended in the last call; ``before``: the table before it (None: the reset)."""
        nonlocal finished
        for rec in ended:
            write()
            write(f"── hand {finished + 1} over{' in its deal' if rec.at_deal else ''} ──")
            seen = None if rec.at_deal else before
            if seen is not None:
                write(draw_table(seen, seat, names, True, finished + 1))
            write(hand_result(rec, seen, names, seat, rules))
            finished += 1
            write(
                "total chips: "
                + "   ".join(f"{'you' if p == seat else 'p' + str(p)} {int(game.total()[p]):+d}" for p in range(4))
            )

    # external bots (olympiad:COMMAND): the referee may ask the person a claim before the engine would
    game.ask_person = lambda view: _ask(game, read, write, reveal, finished + 1, view)
    write(
        f"tw16 play — you are p{seat}; opponents: "
        + ", ".join(f"p{p} {names[p]}" for p in others)
        + f"; profile {rules.profile}; seed {seed}. Type ? for help."
    )
    try:
        while finished < hands:
            report(game.new_game(), None)
            games.append((game.game_seed, game.actions))  # the list the game appends its actions to
            shown_hand = -1
            while not game.over and finished < hands:
                if shown_hand != finished:
                    shown_hand = finished
                    write()
                    write(f"── hand {finished + 1} of {hands} dealt ──")
                before = snapshot(eng)
                if game.human_to_act():
                    action = _ask(game, read, write, reveal, finished + 1)
                else:
                    action = game.agent_action()
                ended = game.step(action)
                if ended:  # the hand ended in this step (and maybe the next ones in their deal)
                    report(ended, before)
                else:
                    for e in _events(before, eng, seat, names):
                        write("  " + e)
    except (_Quit, KeyboardInterrupt):  # end of input, q, or Ctrl-C while the agents think
        quit_ = True
        write()
        write("bye (session ended)")
    game.close()  # external bots: /exit, then their process groups killed
    chips = game.total()
    write(f"played {finished} hand{'s' if finished != 1 else ''}; your chips {int(chips[seat]):+d}")
    logs = write_logs(log, rules, games) if log else []
    for path in logs:
        write(f"recorded: {path} (tw16 replay {path})")
    return {
        "hands": finished,
        "chips": [int(x) for x in chips],
        "you": seat,
        "quit": quit_,
        "logs": [str(x) for x in logs],
    }


def log_paths(log, n: int) -> list[Path]:
    """Where the logs of ``n`` games go: ``log`` itself, then ``STEM-2.SUFFIX``, ``STEM-3.SUFFIX``..."""
    log = Path(log)
    return [log] + [log.with_name(f"{log.stem}-{k}{log.suffix or '.jsonl'}") for k in range(2, n + 1)]


def write_logs(log, rules: Rules, games) -> list[Path]:
    """Each game's replay log (``envs.engine.replay``: rules, seed, actions), as ``tw16 replay`` reads it;
    a game cut short by quitting is logged up to its last action."""
    from envs.engine.replay import dumps, record

    paths = log_paths(log, len(games))
    for path, (game_seed, actions) in zip(paths, games):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps(record(rules, game_seed, actions)), encoding="utf-8")
    return paths


def _ask(game: TableGame, read, write, reveal: bool, hand_no: int, view=None) -> int:
    """The person's action, asked until a line names a legal one (``_Quit`` on q or end of input);
    ``view``: the engine as the referee asks it (external bots), else the engine."""
    eng, seat = (game.eng if view is None else view), game.seat
    choices = choices_for(eng)
    write()
    write(draw_table(eng, seat, game.names, reveal, hand_no))
    write(draw_choices(choices))
    while True:
        p = interpret(read("> "), choices, eng.hands[0, seat])
        if p.command == "quit":
            raise _Quit
        if p.command == "help":
            write(HELP)
        elif p.command == "table":
            write(draw_table(eng, seat, game.names, reveal, hand_no))
            write(draw_choices(choices))
        elif p.action is not None:
            return p.action
        else:
            write("  " + p.message)


def split_specs(text: str) -> list[str]:
    """``--opponents``: agent specs separated by commas outside brackets (``olympiad[cwd=D,timeout=2]:./bot``
    keeps its options; a command of its own may not hold a comma)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch == "[") - (ch == "]")
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return out + [cur]


def run_play(args) -> int:
    stdin_or_error("play", "tw16 play reads your moves from it (run it in a terminal)")
    if args.hands < 1:
        print(f"tw16 play: --hands must be at least 1, got {args.hands}", file=sys.stderr)
        return 2
    try:
        rules = Rules.make(args.profile, **json.loads(args.rules)) if args.rules else Rules(profile=args.profile)
    except (RulesError, json.JSONDecodeError, TypeError, ValueError) as e:
        print(f"tw16 play: bad rules: {e}", file=sys.stderr)
        return 2
    specs = [x for x in split_specs(args.opponents) if x.strip()]
    if len(specs) not in (1, 3):
        print(
            "tw16 play: --opponents takes one agent or three, comma-separated (e.g. greedy,defensive,neural)",
            file=sys.stderr,
        )
        return 2
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % (1 << 31))
    if hasattr(sys.stdout, "reconfigure") and (sys.stdout.encoding or "").lower().replace("-", "") != "utf8":
        sys.stdout.reconfigure(errors="replace")
    try:
        agents, notes = make_opponents(specs, seed)
    except (ValueError, FileNotFoundError) as e:
        print(f"tw16 play: {e}", file=sys.stderr)
        return 2
    for n in notes:
        print(n)
    if any(getattr(a, "olympiad", False) for a in agents):
        from agents.olympiad.host import check_rules

        try:
            check_rules(rules)
        except ValueError as e:
            print(f"tw16 play: {e}", file=sys.stderr)
            return 2
    log = getattr(args, "log", None)
    if log is not None and (Path(log).is_dir() or not Path(log).parent.is_dir() and Path(log).parent.exists()):
        print(f"tw16 play: --log {log!r}: give a file name", file=sys.stderr)
        return 2
    play(rules, seat=args.seat, opponents=agents, seed=seed, hands=args.hands, reveal=args.open, log=log)
    return 0
