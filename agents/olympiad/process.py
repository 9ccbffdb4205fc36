"""One external bot process: started in its own folder and process group, one line per request with a
deadline, lines capped, a transcript kept, ended with ``/exit`` and then killed with its group.

Every failure is a ``BotFault`` (its ``kind``: timeout, crash, long_line, write, start): the host
counts it, lets the fallback agent play and restarts the process at the next hand.
"""

from __future__ import annotations

import atexit
import os
import selectors
import signal
import subprocess
import time
import weakref
from collections import deque

from agents.olympiad.codec import MAX_LINE

_LIVE: weakref.WeakSet[BotProcess] = weakref.WeakSet()  # killed at exit, whatever ended the run


@atexit.register
def _kill_all() -> None:
    for p in list(_LIVE):
        p.close(grace=0.1)


class BotFault(Exception):
    """The process failed a request; ``kind`` says how."""

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class BotProcess:
    """A running bot. ``send(line)`` writes an announcement, ``ask(line)`` writes a request and
    returns the answer line (``BotFault`` on timeout, crash, a line of 256+ characters)."""

    def __init__(self, command: str, cwd: str | None = None, timeout: float = 5.0, tail: int = 40):
        self.command, self.cwd, self.timeout = command, cwd, float(timeout)
        self.transcript: list[str] = []  # every line of this hand, "> " sent, "< " received
        self.tail = deque(maxlen=tail)  # the last lines across hands (fault reports)
        self.buf = b""
        self.seat = None  # the seat announced by /start
        try:
            self.proc = subprocess.Popen(
                command,
                shell=True,
                cwd=cwd or None,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as e:
            raise BotFault("start", f"cannot start {command!r} in {cwd or '.'}: {e}") from None
        os.set_blocking(self.proc.stdin.fileno(), False)
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.proc.stdout, selectors.EVENT_READ)
        _LIVE.add(self)

    def _log(self, text: str) -> None:
        self.transcript.append(text)
        self.tail.append(text)

    def send(self, text: str) -> None:
        self._log("> " + text)
        data = (text + "\n").encode()
        deadline = time.monotonic() + self.timeout
        fd = self.proc.stdin.fileno()
        while data:
            try:
                n = os.write(fd, data)
                data = data[n:]
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise BotFault("timeout", f"the bot read no input for {self.timeout:g} s") from None
                time.sleep(0.001)
            except (BrokenPipeError, OSError):
                raise BotFault("crash", f"the bot closed its input (exit code {self.proc.poll()})") from None

    def ask(self, text: str, timeout: float | None = None) -> str:
        self._drain()
        self.send(text)
        answer = self.read_line(self.timeout if timeout is None else timeout)
        self._log("< " + answer)
        return answer

    def handshake(self) -> None:
        """``/ready`` answered with ``/ready`` within the timeout; lines before it (a greeting at start)
        are dropped."""
        self.send("/ready")
        deadline = time.monotonic() + self.timeout
        while True:
            got = self.read_line(max(deadline - time.monotonic(), 0.0), keep_rest=True)
            self._log("< " + got)
            if got.split() == ["/ready"]:
                return

    def _drain(self) -> None:
        """Drop what the bot wrote unasked (a bot writes only in reply), so it is not taken for the answer."""
        while self.sel.select(0):
            try:
                chunk = os.read(self.proc.stdout.fileno(), 4096)
            except BlockingIOError:
                break
            if not chunk:
                break  # (the end of its output: the read of the answer reports the crash)
            self.buf += chunk
        if self.buf:
            self._log("< (unasked, dropped) " + self.buf[:60].decode("ascii", "replace"))
            self.buf = b""

    def read_line(self, timeout: float, keep_rest: bool = False) -> str:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            if len(self.buf) > MAX_LINE:
                raise BotFault("long_line", f"a line of more than {MAX_LINE} characters ({self.buf[:40]!r}...)")
            left = deadline - time.monotonic()
            if left <= 0 or not self.sel.select(left):
                raise BotFault("timeout", f"no answer within {timeout:g} s")
            try:
                chunk = os.read(self.proc.stdout.fileno(), 4096)
            except BlockingIOError:
                continue
            if not chunk:
                code = self.proc.poll()
                raise BotFault("crash", f"the bot's output ended (exit code {code})")
            self.buf += chunk
        raw, _, self.buf = self.buf.partition(b"\n")
        raw = raw.rstrip(b"\r")
        if len(raw) > MAX_LINE:
            raise BotFault("long_line", f"a line of {len(raw)} characters (at most {MAX_LINE})")
        if self.buf and not keep_rest:  # a bot writes exactly one line per request
            extra, self.buf = self.buf, b""
            self._log("< (dropped) " + extra[:60].decode("ascii", "replace"))
        return raw.decode("ascii", "replace")

    def close(self, grace: float = 0.5) -> int | None:
        """``/exit``, a short wait, then the process group killed; returns the exit code."""
        _LIVE.discard(self)
        if self.proc.stdout.closed:
            return self.proc.returncode
        if self.proc.poll() is None:
            try:
                self.send("/exit")
            except BotFault:
                pass
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # what the bot started, too
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            pass
        self.sel.close()
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass
        return self.proc.returncode
