"""Every repository path that a comment, a docstring or a document names exists: a file moved or
removed leaves no pointer behind.

Checked: paths under a top folder of the repository (envs/, agents/, training/, tw16/, native/, tests/,
docs/, tools/, examples/, notebooks/) ending in a source or document suffix, in the comments and
docstrings of Python, the comments of C++, CMake, TOML and shell files, and the whole text of
Markdown files. A C++ header path (tw16/NAME.hpp) may also be relative to native/include. Not checked:
the rules contract (tests/data: copies of the shared rules), names with a placeholder (NAME, X,
VERSION ...), and history: a line that names a commit or says that a file was removed or no longer
exists.
"""

from __future__ import annotations

import ast
import io
import re
import subprocess
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOPS = ("envs", "agents", "training", "tw16", "native", "tests", "docs", "tools", "examples", "notebooks")
SUFFIXES = ("py", "cpp", "hpp", "md", "toml", "sh", "txt", "json", "jsonl", "ipynb", "svg")
PATH = re.compile(rf"(?<![\w./-])((?:{'|'.join(TOPS)})/[\w./-]*?\.(?:{'|'.join(SUFFIXES)}))(?![\w/-])")
PLACEHOLDER = re.compile(r"(?<![A-Za-z])(NAME|KEY|VERSION|X|N)(?![a-z])")
HISTORY = re.compile(r"\bcommit [0-9a-f]{7,}\b|\bremoved\b|no longer exist")
HASH_COMMENT = (".toml", ".sh", ".txt")


def _py_text(text: str) -> str:
    """The comments and docstrings of a Python file."""
    parts = [t.string for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            parts.append(ast.get_docstring(node, clean=False) or "")
    return "\n".join(parts)


def _comment_text(text: str, mark: str) -> str:
    return "\n".join(line.split(mark, 1)[1] for line in text.splitlines() if mark in line)


def checked_text(path: str, text: str) -> str:
    if path.endswith(".py"):
        return _py_text(text)
    if path.endswith((".cpp", ".hpp")):
        return _comment_text(text, "//")
    if path.endswith(HASH_COMMENT):
        return _comment_text(text, "#")
    return text  # Markdown


def _exists(p: str, root: Path) -> bool:
    return (root / p).exists() or (root / "native" / "include" / p).exists()


def stale_paths(path: str, text: str, root: Path = ROOT) -> list[str]:
    out = []
    for line in checked_text(path, text).splitlines():
        if HISTORY.search(line):
            continue
        for m in PATH.finditer(line):
            p = m.group(1).rstrip(".")
            if not PLACEHOLDER.search(p) and not _exists(p, root):
                out.append(f"{path}: {p}")
    return out


def _files() -> list[str]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    keep = (".py", ".cpp", ".hpp", ".md", ".toml", ".sh", ".txt")
    return [f for f in listed.split() if f.endswith(keep) and not f.startswith("tests/data/") and (ROOT / f).is_file()]


def test_every_named_path_exists():
    stale = [s for f in _files() for s in stale_paths(f, (ROOT / f).read_text(encoding="utf-8"))]
    assert stale == [], "paths named but missing (fix the pointer):\n" + "\n".join(stale)


def test_the_check_finds_a_missing_path():
    src = '"""Reads envs/scoring/items.py."""\n# see docs/nowhere.md\nx = "envs/x.py"  # (a string, not checked)\n'
    assert stale_paths("envs/m.py", src) == ["envs/m.py: docs/nowhere.md", "envs/m.py: envs/scoring/items.py"]
    assert stale_paths("native/src/a.cpp", '#include "tw16/view.hpp"\n// tw16/nope.hpp\n') == [
        "native/src/a.cpp: tw16/nope.hpp"
    ]
    assert stale_paths("docs/a.md", "`envs/jit.py` was removed; `tests/test_native_X.py`; envs/tiles.py\n") == []
