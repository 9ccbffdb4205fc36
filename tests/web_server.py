"""A ``tw16 web`` server for the tests: the app on a free loopback port, uvicorn in a thread, always
shut down (a context manager)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time

from envs.rules import Rules
from tw16.cli.game import make_opponents
from tw16.cli.web.session import GameSession


def session_factory(log_dir, seed: int = 5, opponents=("greedy",), advisor: str = "neural", walls=None, results=None):
    """A factory of games against ``opponents`` with ``advisor``'s view, every game dealt from ``seed``."""

    def factory():
        agents, _ = make_opponents(list(opponents) * (3 if len(opponents) == 1 else 1), seed)
        adv, _ = make_opponents([advisor], seed)
        return GameSession(
            Rules(),
            agents,
            adv[0],
            seat=0,
            seed=seed,
            log_dir=log_dir,
            walls=walls,
            results=results,
            specs=list(opponents),
        )

    return factory


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running(app, timeout: float = 20.0):
    """Serve ``app`` on 127.0.0.1:PORT in a thread; yields the base URL; stops the server on exit."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws="auto"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    t0 = time.monotonic()
    while not server.started:
        if time.monotonic() - t0 > timeout or not thread.is_alive():
            server.should_exit = True
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout)
