"""``tw16 web`` in a real browser: Debian's chromium + chromium-driver driven by Selenium against a
server started here on a free loopback port. A whole hand played by clicks to the tai breakdown,
the agent's view, an illegal action refused in the page, a replay stepped back and forth.
Screenshots: runs/test-artifacts/web/*.png (kept for a look after the run).

Skipped, with the reason in the log, when chromium or chromedriver is not installed
(``apt-get install -y chromium chromium-driver fonts-wqy-microhei``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER), reason="no chromium/chromedriver: apt-get install -y chromium chromium-driver"
)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402
from web_server import running, session_factory  # noqa: E402

from tw16.cli.web.app import make_app  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parent.parent / "runs" / "test-artifacts" / "web"


@pytest.fixture
def browser():
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1050"):
        opts.add_argument(a)
    drv = webdriver.Chrome(service=Service(DRIVER), options=opts)
    drv.set_page_load_timeout(30)
    try:
        yield drv
    finally:
        drv.quit()


def shot(drv, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    p = ARTIFACTS / f"{name}.png"
    drv.save_screenshot(str(p))
    return p


def version(drv):
    return drv.execute_script("return state ? state.version : null")


def wait_state(drv, pred, timeout=30):
    WebDriverWait(drv, timeout).until(lambda d: d.execute_script("return state !== null") and pred(d))


def _click_one(drv) -> None:
    """One decision by clicks: win if offered, else discard the drawn tile (or the last one), else pass."""
    buttons = drv.find_elements(By.CSS_SELECTOR, "#controls button.choice")
    for b in buttons:
        if b.text.startswith("win"):
            b.click()
            return
    tiles = drv.find_elements(By.CSS_SELECTOR, ".pos-bottom .hand .tile.click")
    if tiles:
        drawn = [t for t in tiles if "drawn" in t.get_attribute("class")]
        (drawn or tiles)[-1].click()
        return
    for b in buttons:
        if b.text.startswith("pass"):
            b.click()
            return
    buttons[0].click()


def test_play_a_hand_by_clicks(browser, tmp_path):
    drv = browser
    with running(make_app(session_factory(tmp_path, seed=5), tmp_path)) as url:
        drv.get(url + "/")
        wait_state(drv, lambda d: d.execute_script("return state.your_turn || !!state.result"))
        assert drv.find_elements(By.CSS_SELECTOR, "#tile-sprite symbol#t0"), "the tile sprite is in the page"
        hand = drv.find_elements(By.CSS_SELECTOR, ".pos-bottom .hand .tile")
        assert len(hand) >= 16 and hand[0].get_attribute("title")  # notation and 中文 on hover
        shot(drv, "01-table")
        drv.set_window_size(412, 915)  # a phone: the tiles stay whole and readable
        shot(drv, "01b-table-phone")
        drv.set_window_size(1400, 1050)
        # the agent's view: its top actions with probabilities and its value
        drv.find_element(By.ID, "advice-btn").click()
        WebDriverWait(drv, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#agent-out table.advice tr"))
        cap = drv.find_element(By.CSS_SELECTOR, "#agent-out caption").text
        assert "agent neural" in cap and "value" in cap
        assert "%" in drv.find_element(By.CSS_SELECTOR, "#agent-out table.advice").text
        drv.find_element(By.ID, "search-btn").click()
        WebDriverWait(drv, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#agent-out table.search tr"))
        shot(drv, "02-agent-view")
        # an illegal action (a tile not in the hand) is refused in the page and changes nothing
        v0 = version(drv)
        hand_before = [
            t.get_attribute("data-kind") for t in drv.find_elements(By.CSS_SELECTOR, ".pos-bottom .hand .tile")
        ]
        missing = next(k for k in range(34) if str(k) not in hand_before)
        drv.execute_script(f"act({missing})")
        WebDriverWait(drv, 10).until(lambda d: d.find_element(By.ID, "error").is_displayed())
        assert "not legal" in drv.find_element(By.ID, "error").text
        assert version(drv) == v0
        assert [
            t.get_attribute("data-kind") for t in drv.find_elements(By.CSS_SELECTOR, ".pos-bottom .hand .tile")
        ] == hand_before
        shot(drv, "03-illegal-refused")
        # the hand to its end by clicks
        for _ in range(200):
            if drv.execute_script("return !!state.result"):
                break
            v = version(drv)
            _click_one(drv)
            wait_state(
                drv,
                lambda d: d.execute_script("return state.version") != v or d.execute_script("return !!state.result"),
            )
        assert drv.execute_script("return !!state.result"), "the hand did not end in 200 clicks"
        res = drv.find_element(By.ID, "result")
        assert res.is_displayed()
        text = res.text
        assert "this hand" in text and "standing" in text
        if not drv.execute_script("return state.result.drawn"):
            assert "tai breakdown 台數" in text and "合計" in text
        shot(drv, "04-hand-result")
        log = drv.execute_script("return state.result.log")
        assert log and (tmp_path / log).is_file()
        # the next hand is dealt
        v = version(drv)
        drv.find_element(By.ID, "next-btn").click()
        wait_state(drv, lambda d: d.execute_script("return state.version") != v)
        assert not drv.find_element(By.ID, "result").is_displayed()
        # the replay of the hand just played: forward and back by decision
        drv.get(url + "/replay?log=" + log)
        WebDriverWait(drv, 30).until(lambda d: d.find_element(By.ID, "pos").text)
        n = int(drv.find_element(By.ID, "pos").text.split("/")[1])
        assert n > 5
        first = drv.find_element(By.ID, "board").get_attribute("innerHTML")
        for _ in range(5):
            drv.find_element(By.ID, "fwd").click()
        assert drv.find_element(By.ID, "pos").text.startswith("6 /")
        fifth = drv.find_element(By.ID, "board").get_attribute("innerHTML")
        assert fifth != first
        shot(drv, "05-replay-step5")
        drv.find_element(By.ID, "prev").click()
        assert drv.find_element(By.ID, "pos").text.startswith("5 /")
        for _ in range(4):
            drv.find_element(By.ID, "prev").click()
        assert drv.find_element(By.ID, "board").get_attribute("innerHTML") == first
        # to the end: the result line
        for _ in range(n):
            drv.find_element(By.TAG_NAME, "body").send_keys("\ue014")  # arrow right
        assert drv.find_element(By.ID, "rresult").text
        shot(drv, "06-replay-end")
        assert not drv.find_element(By.ID, "error").is_displayed()


def test_review_page_opens_in_the_replay_viewer(browser, tmp_path):
    """tw16 review --html: one file, the replay viewer with the annotation of each reviewed decision."""
    from envs.engine.replay import dumps, record
    from envs.rules import Rules
    from tw16.cli.main import main

    log = tmp_path / "g.jsonl"
    log.write_text(dumps(record(Rules(), 3)), encoding="utf-8")
    page = tmp_path / "review.html"
    assert main(["review", str(log), "--seat", "0", "--k", "2", "--html", str(page)]) == 0
    drv = browser
    drv.get(page.as_uri())
    WebDriverWait(drv, 30).until(lambda d: d.find_element(By.ID, "pos").text)
    assert not drv.find_element(By.ID, "error").is_displayed()
    assert "review of p0" in drv.find_element(By.ID, "ann").text  # the summary before the first decision
    for _ in range(40):  # forward to a decision of p0: its annotation lists the agent's actions with EVs
        if drv.find_elements(By.CSS_SELECTOR, "#ann table tr"):
            break
        drv.find_element(By.ID, "fwd").click()
    ann = drv.find_element(By.ID, "ann").text
    assert "p0 played" in ann and "EV loss" in ann and "[" in ann
    shot(drv, "07-review-annotation")
    drv.find_element(By.ID, "fwd").click()
    assert drv.find_element(By.ID, "ann").text != ann
    drv.find_element(By.ID, "prev").click()
    assert drv.find_element(By.ID, "ann").text == ann


def _engine_frames(lines):
    """Per log line after the first, what the engine holds after that step (None for a step that also
    dealt the next hand: the page shows the hand that ended there)."""
    import numpy as np

    from envs.engine.actions import action_from_name
    from envs.engine.api import Engine
    from envs.rules import Rules
    from envs.tiles import FLOWER0

    eng = Engine(Rules.from_dict(lines[0]["rules"]), 1)
    eng.reset(np.array([lines[0]["seed"]], np.uint64))
    out = []
    for ev in lines[1:]:
        eng.step(np.array([action_from_name(ev["action"])]))
        if "deal" in ev:
            out.append(None)
            continue
        out.append(
            [
                [[int(x) for x in eng.hands[0, p]] for p in range(4)],
                [int(x) for x in eng.n_melds[0]],
                [[FLOWER0 + f for f in range(8) if int(eng.flowers[0, p]) >> f & 1] for p in range(4)],
                int(eng.n_river[0]),
                int(max(eng.wall_drawable[0], 0)),
            ]
        )
    return out


def test_replay_viewer_matches_the_engine_step_by_step(browser, tmp_path):
    """The page plays a log forward itself: after every step its hands, melds, flowers, river and tiles
    left are the engine's, for the golden playthroughs and whole games (standard, hongkong, strict16)."""
    import json

    from envs.engine.replay import dumps, record
    from envs.rules import Rules

    golden = Path(__file__).parent / "data" / "golden"
    texts = {p.name: p.read_text(encoding="utf-8") for p in sorted(golden.glob("*.jsonl"))}
    for profile in ("standard", "hongkong", "strict16"):
        texts[f"{profile}-game"] = dumps(record(Rules.make(profile, episode="game"), 3))
    texts["kongs-grow-the-dead-wall"] = dumps(
        record(Rules.make("standard", episode="game", dead_wall_per_kong=True), 4)
    )
    drv = browser
    with running(make_app(session_factory(tmp_path), tmp_path)) as url:
        drv.get(url + "/replay")
        WebDriverWait(drv, 30).until(lambda d: d.execute_script("return META.tiles.length === 42"))
        for name, text in texts.items():
            lines = [json.loads(x) for x in text.splitlines() if x.strip()]
            got = drv.execute_script(
                "const fs = buildFrames(arguments[0].split('\\n').filter((x) => x.trim()).map(JSON.parse));"
                "return fs.slice(1).map((f) => [f.seats.map((s) => s.hand), f.seats.map((s) => s.melds.length),"
                "  f.seats.map((s) => s.flowers.slice().sort((a, b) => a - b)), f.river.length, tableOf(f, 'all', -1).wall]);",
                text,
            )
            want = _engine_frames(lines)
            assert len(got) == len(want), name
            for i, (g, w) in enumerate(zip(got, want)):
                if w is not None:
                    assert g == w, (
                        f"{name}: the page and the engine differ after line {i + 2} ({lines[i + 1]['action']})"
                    )
