"""The documentation tables are generated from the code (tools/doc_tables.py): none is stale, the
card that help(env) shows lists every option, and every claim the tables make holds for the code."""

from __future__ import annotations

import dataclasses
import inspect
import pydoc
import shutil

import pytest
from tools_loader import load_tool

from envs import obs, tw16_v0
from envs.engine import actions
from envs.engine import state as st
from envs.rules import DEFAULTS, HK_OPTIONS, Rules
from envs.scoring.profile import BUILTIN

dt = load_tool("doc_tables")


def test_no_generated_region_is_stale():
    assert dt.stale() == [], "run: python tools/doc_tables.py --write"


def test_a_stale_region_is_found_and_rewritten(tmp_path):
    for path in {p for p, _ in dt.regions()}:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(dt.ROOT / path, tmp_path / path)
    card = tmp_path / dt.CARD
    card.write_text(card.read_text(encoding="utf-8").replace("dice_payments [", "dice [", 1), encoding="utf-8")
    assert dt.stale(tmp_path) == [dt.CARD]
    old, new = dt.rendered(tmp_path)[dt.CARD]
    assert "dice_payments [" in new and new == (dt.ROOT / dt.CARD).read_text(encoding="utf-8")


def test_a_missing_region_is_named():
    with pytest.raises(ValueError, match="'options'.*BEGIN generated: options"):
        dt.replace_region("no markers here", "envs/x.py", "options", "text")


def test_every_encoder_is_documented():
    """envs.obs.ENCODERS (what callers can ask for) is what the generator documents."""
    assert {dt.encoding(m).OBS_VERSION for m in dt.ENCODINGS} == set(obs.ENCODERS)
    for m in dt.ENCODINGS:
        assert (dt.DOC, f"channels: {dt.encoding(m).OBS_VERSION}") in dt.regions()


def test_option_help_covers_exactly_the_rule_options():
    fields = {f.name for f in dataclasses.fields(Rules)}
    assert set(dt.OPTION_HELP) == set(dt.option_names()) == fields
    assert set(HK_OPTIONS) <= fields


def _words(text: str) -> str:
    """The text with its line breaks, indents and pydoc's ``|`` margins (and so every lone ``|``) gone."""
    return " ".join(w for w in text.split() if w != "|")


@pytest.mark.parametrize("thing", ["module", "env", "raw_env", "env().unwrapped"])
def test_help_shows_the_card_with_every_option(thing):
    """What ``help(tw16_v0)``, ``help(tw16_v0.env)``, ``help(tw16_v0.raw_env)`` and ``help(env.unwrapped)``
    print: the card, whose option list names every rule option (hongkong's included) with its default,
    and every env keyword."""
    things = {"module": tw16_v0, "env": tw16_v0.env, "raw_env": tw16_v0.raw_env}
    obj = things[thing] if thing in things else tw16_v0.env().unwrapped
    text = pydoc.render_doc(obj, renderer=pydoc.plaintext)
    flat = _words(text)
    assert _words(dt.actions_rst()) in flat
    region = _words(dt.options_rst())
    assert region in flat
    for name in [f.name for f in dataclasses.fields(Rules)]:
        d = dt.show("standard" if name == "profile" else DEFAULTS[name])
        assert f"{name} [{d}" in region, name
    for name in ("settlement", "la_cut", "la_cut_policy", "la_draw", "flower_win", *HK_OPTIONS):
        assert f" {name} [" in region
    params = inspect.signature(tw16_v0.raw_env.__init__).parameters
    for name, p in params.items():
        if name not in ("self", "rule_options"):
            shown = region.split(f" {name} [", 1)[1].split("]", 1)[0]  # IndexError: not in the card
            assert shown.endswith(dt.show(p.default)), (name, shown)


def test_profile_defaults_in_the_tables_are_what_rules_builds():
    """The "profiles that change it" of every option: Rules(profile=p) has that value, and the other
    built-in profiles keep the default."""
    for name in DEFAULTS:
        changed = dt.profile_defaults(name)
        for p in BUILTIN:
            got = getattr(Rules(profile=p), name)
            assert got == changed.get(p, DEFAULTS[name]), (name, p)


def test_action_table_is_the_layout():
    at = 0
    for b in actions.LAYOUT:
        assert getattr(actions, b.const) == at, b.const
        assert actions.action_from_name(actions.action_name(at)) == at
        at += b.size
    assert at == actions.N_ACTIONS == tw16_v0.raw_env().action_space("player_0").n
    rows = dt.action_rows()
    assert [r[0] for r in rows] == ["0-33", "34-36", "37", "38", "39-72", "73", "74", "75"]


def test_state_table_is_the_layout():
    """The state table (envs/engine/state.py's docstring) has one row per array of FIELDS, in order, each
    with a meaning, and the shape and dtype that alloc() gives it."""
    S = st.alloc(3, n_script=2)
    rows = dt.state_rows()
    assert [r[0] for r in rows] == list(S._fields)
    for (name, shape_dtype, meaning), a in zip(rows, S):
        shape, dtype = shape_dtype[1:].split(") ")
        dims = tuple(int({"B": 3, "K": 2}.get(d, d)) for d in shape.rstrip(",").split(", "))
        assert (dims, dtype) == (a.shape, str(a.dtype)), name
        assert meaning, name
    doc = st.__doc__
    for name, shape_dtype, _ in rows:
        assert f"\n{name}" in doc and shape_dtype in doc, name


def test_docs_tables_name_every_option_and_constant():
    doc = (dt.ROOT / dt.DOC).read_text(encoding="utf-8")
    for name in dt.option_names():
        assert f"| `{name}` |" in doc, name
    for m in dt.ENCODINGS:
        mod = dt.encoding(m)
        for b in dt.own_blocks(mod):
            assert f"`{b.const}`" in doc, b.const
    for b in actions.LAYOUT:
        assert f"`{b.const}" in doc


def test_script_check_and_print(capsys):
    assert dt.main(["--check"]) == 0
    assert dt.main(["--print", "options"]) == 0
    out = capsys.readouterr().out
    assert "| `dice_payments` |" in out and "dice_payments [" in out  # the docs table and the card
    with pytest.raises(SystemExit):
        dt.main(["--print", "no such region"])
