"""The ``tw16`` command's answer when its streams fail: one line on stderr and an exit code, never a
traceback and never a silent exit 0 (issue 27 row 11).

- standard output closed (``tw16 score x >&-``): Python sets ``sys.stdout`` to None and ``print``
  writes nothing, so the command is refused before it runs (exit 2);
- standard output full or failing (``> /dev/full``): the write error is one line, exit 1;
- a reader that went away (``tw16 replay LOG | head``): quiet, exit 0, as ``head``'s other writers;
- standard input closed where a command reads it (``tw16 score -``, ``tw16 play``): ``stdin_or_error``.

After a failed write, file descriptor 1 is pointed at /dev/null (the recipe of Python's
documentation on SIGPIPE) so that the interpreter's own flush at exit cannot fail a second time
and print "Exception ignored ...".
"""

from __future__ import annotations

import contextlib
import os
import sys


def say(message: str) -> None:
    """A line on stderr, if there is a stderr to write to."""
    err = sys.stderr
    if err is None:
        return
    try:
        print(message, file=err)
        err.flush()
    except (OSError, ValueError):  # stderr closed or full as well: the exit code is all that is left
        pass


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


class StdoutError(OSError):
    """A write to standard output failed (not a broken pipe: that one ends the command quietly)."""


class _Watched:
    """``sys.stdout`` while a command runs: the same stream, whose failed writes are told apart from
    the errors of files the command opens (both are OSError without a file name)."""

    def __init__(self, stream):
        self._stream = stream

    def _call(self, name, *args):
        try:
            return getattr(self._stream, name)(*args)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise StdoutError(e.errno, e.strerror) from e

    def write(self, text):
        return self._call("write", text)

    def flush(self):
        return self._call("flush")

    def __getattr__(self, name):  # encoding, buffer, isatty, reconfigure, ...
        return getattr(self._stream, name)


def stdin_or_error(command: str, why: str):
    """``sys.stdin``, or ``UsageError`` when standard input is closed (``<&-``: Python sets it to None)."""
    if sys.stdin is None or getattr(sys.stdin, "closed", False):
        from tw16.cli.usage import UsageError

        raise UsageError(f"standard input is closed: {why}")
    return sys.stdin


def run_command(name: str, command, user_errors) -> int:
    """Run ``command()`` (a subcommand; returns its exit code) with every stream failure and user
    mistake answered as one line ``tw16 NAME: ...`` on stderr. ``user_errors()``: the exception
    classes that are user mistakes (asked once one is raised: tw16.cli.usage.user_errors)."""
    if sys.stdout is None or getattr(sys.stdout, "closed", False):
        say(f"tw16 {name}: standard output is closed: nothing could be printed (redirect it to a file or /dev/null)")
        return 2
    stdout = sys.stdout
    sys.stdout = _Watched(stdout)
    try:
        code = command()
        sys.stdout.flush()  # a full disk or /dev/full is found here, not in the interpreter's exit
        return code
    except BrokenPipeError:  # `tw16 replay LOG | head`: the reader has what it wanted
        _silence_stdout()
        return 0
    except KeyboardInterrupt:
        say("interrupted")
        return 130
    except StdoutError as e:
        _silence_stdout()
        say(f"tw16 {name}: cannot write to standard output: {e.strerror or e}")
        return 1
    except Exception as e:
        if isinstance(e, user_errors()):  # a user mistake: one line and exit 2, as argparse does
            say(f"tw16 {name}: {e}")
            return 2
        if isinstance(e, OSError):  # a file the command opened: the system's reason, with the file's name
            say(f"tw16 {name}: {f'{e.filename}: ' if e.filename else ''}{e.strerror or e}")
            return 1
        raise
    finally:
        if isinstance(sys.stdout, _Watched):
            sys.stdout = stdout


@contextlib.contextmanager
def stdout_to_stderr():
    """Inside, whatever is written to standard output goes to standard error, at the file-descriptor
    level too: Ray's driver prints its workers' and raylet's lines ("(raylet) A worker died ...") to
    stdout from a thread, which would break ``tw16 eval --json``. Standard output stays for the answer."""
    out = sys.stdout
    saved = None
    try:
        out.flush()
        saved = os.dup(1)
        os.dup2(2, 1)
    except (OSError, ValueError, AttributeError):  # no descriptor 1 or 2 (an embedding, a test's capture)
        saved = None
    sys.stdout = sys.stderr if sys.stderr is not None else out
    try:
        yield
    finally:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            sys.stdout.flush()
        sys.stdout = out
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)
