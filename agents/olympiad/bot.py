"""A tw16 agent as an Olympiad protocol bot (``tw16 bot --agent SPEC``): one line in, at most one line
out, on stdin/stdout or as a TCP client of a referee.

Each decision is held to 80% of the time budget (``--budget``): a slower agent's move is replaced by
Greedy's on the same observation. It never stops on unexpected input: a message it cannot use is reported on stderr (one line) and, if it
was a request, answered with ``/pass`` or a legal default (``/throw`` of the last tile received). It
exits on ``/exit``, ``/close`` or the end of its input, blocking on reads (no busy loop).
"""

from __future__ import annotations

import sys
import threading

from agents.olympiad.codec import ASKS, MAX_LINE, ProtocolError, split
from agents.olympiad.seatview import SeatView


class Budgeted:
    """An agent held to a time budget per decision: past it, the decision is Greedy's on the same
    observation (and so is every decision while the late one still runs), reported on stderr."""

    def __init__(self, agent, budget: float, warn):
        from agents.greedy import GreedyAgent

        self.agent, self.budget, self.warn = agent, float(budget), warn
        self.derived = getattr(agent, "derived", False)
        self.fallback = GreedyAgent()
        self.busy: threading.Thread | None = None
        self.late = 0

    def act(self, obs, mask):
        if self.busy is not None and self.busy.is_alive():
            self.late += 1
            return self.fallback.act(obs[:, : self._greedy_channels()], mask)
        out: list = []

        def run():
            try:
                out.append(("ok", self.agent.act(obs, mask)))
            except Exception as e:  # noqa: BLE001 - raised again in the caller's thread
                out.append(("error", e))

        t = threading.Thread(target=run, daemon=True)
        t.start()
        t.join(self.budget)
        if out:
            kind, value = out[0]
            if kind == "error":
                raise value
            return value
        self.busy, self.late = t, self.late + 1
        self.warn(f"{getattr(self.agent, 'name', 'agent')} took over {self.budget:g} s: Greedy's move instead")
        return self.fallback.act(obs[:, : self._greedy_channels()], mask)

    @staticmethod
    def _greedy_channels() -> int:
        from envs.obs.planes_v0 import N_CHANNELS

        return N_CHANNELS


class ProtocolBot:
    """Answers lines: ``reply(line) -> str | None`` (None: no answer is due)."""

    def __init__(self, agent, rules, budget: float = 5.0, err=sys.stderr):
        self.budget, self.err = budget, err
        self.agent = Budgeted(agent, 0.8 * budget, self.warn)  # (the rest of the budget: messages, encoding)
        self.view = SeatView(rules, self.agent)

    def warn(self, text: str) -> None:
        print(f"tw16 bot: {text}", file=self.err, flush=True)

    def reply(self, text: str) -> str | None:
        try:
            toks = split(text)
        except ProtocolError as e:
            self.warn(f"ignored a line: {e}")
            return None
        if toks[0] == "/ready":
            return "/ready"
        if toks[0] == "/ask":
            return self.answer(toks)
        try:
            self.view.handle(toks)
        except (ProtocolError, ValueError, IndexError) as e:
            self.warn(f"{text[:60]!r}: {e}")
        return None

    def answer(self, toks: list[str]) -> str:
        what = toks[1] if len(toks) == 2 else ""
        try:
            if what not in ASKS:
                raise ProtocolError(f"unknown request {' '.join(toks)[:60]!r}")
            out = self.view.decide(what)
        except Exception as e:  # noqa: BLE001 - whatever the agent or the message did, the bot answers
            self.warn(f"/ask {what}: {type(e).__name__}: {e}")
            out = self.default(what)
        return out

    def default(self, what: str) -> str:
        held = self.view.held
        if what == "throw" and held:
            return f"/throw {held[-1]}"
        return "/pass"


def serve(bot: ProtocolBot, rfile, wfile) -> int:
    """Read lines from ``rfile`` (binary), write answers to ``wfile`` (binary) until /exit or EOF."""
    while True:
        raw = rfile.readline(MAX_LINE + 2)
        if not raw:
            return 0
        if not raw.endswith(b"\n") and len(raw) > MAX_LINE:
            bot.warn(f"a line of more than {MAX_LINE} characters: skipped")
            while raw and not raw.endswith(b"\n"):
                raw = rfile.readline(4096)
            continue
        text = raw.decode("ascii", "replace").strip()
        if text in ("/exit", "/close"):
            return 0
        out = bot.reply(text)
        if out is not None:
            wfile.write((out + "\n").encode())
            wfile.flush()


def run_bot(agent, rules, connect: str | None = None, budget: float = 5.0) -> int:
    """Serve ``agent`` (an observation agent: ``act(obs, mask)``) until /exit or the end of input."""
    if getattr(agent, "needs_engine", False) or getattr(agent, "olympiad", False):
        raise ValueError(
            f"agent {agent.name!r} cannot be a protocol bot: it needs the engine (a bot sees only its messages)"
        )
    bot = ProtocolBot(agent, rules, budget)
    if connect is None:
        return serve(bot, sys.stdin.buffer, sys.stdout.buffer)
    import socket

    host, _, port = connect.rpartition(":")
    with socket.create_connection((host or "127.0.0.1", int(port)), timeout=30) as sock:
        sock.settimeout(None)
        f = sock.makefile("rwb")
        return serve(bot, f, f)
