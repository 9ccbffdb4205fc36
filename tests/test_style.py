"""The form of the code is the formatters' business (pyproject.toml [tool.ruff], .clang-format), so
reviews talk about substance: ruff's lint and format and clang-format pass on every tracked file."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _tracked(*patterns: str) -> list[str]:
    out = subprocess.run(["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def _run(cmd: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_ruff_lint():
    r = _run([sys.executable, "-m", "ruff", "check", "--no-cache", "."])
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]


def test_ruff_format():
    r = _run([sys.executable, "-m", "ruff", "format", "--check", "--no-cache", "."])
    assert r.returncode == 0, "run `ruff format .`:\n" + r.stdout[-4000:] + r.stderr[-2000:]


def test_clang_format():
    files = [f for f in _tracked("native/*.cpp", "native/*.hpp") if (ROOT / f).exists()]
    assert len(files) > 40, files  # the core is there to check
    exe = shutil.which("clang-format", path=str(Path(sys.executable).parent)) or shutil.which("clang-format")
    assert exe, "clang-format is in the test extra (pyproject.toml)"
    r = _run([exe, "--dry-run", "--Werror", *files])
    assert r.returncode == 0, "run `clang-format -i` on the files named:\n" + r.stderr[-4000:]
