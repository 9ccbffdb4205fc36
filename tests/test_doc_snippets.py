"""Every code snippet of README.md and docs/*.md runs (issue 30: a newcomer copies them).

The fenced blocks whose language is ``python``, ``bash`` or ``toml`` are extracted in order, per
document, and run in a fresh folder that links every top-level entry of the repository (so
``examples/...`` and ``agents/checkpoints/...`` resolve, and what a snippet writes lands in the
folder, not in the repository):

- a block whose fence names a file (```` ```python file=my_agent.py ````) is written to that file,
  before the document's other blocks run (the files a doc tells you to create);
- ``python``: run by the interpreter as a script; a block of ``>>>`` examples is checked as a doctest
  (its printed outputs compared);
- ``bash``: run by ``bash -e -o pipefail`` with ``tw16`` on the PATH; a block of ``pip install`` lines
  only is checked, not run: every extra it names exists in pyproject.toml and a pinned package is
  pinned to the version the project declares (the test environment is installed already);
- ``toml`` without a file name, and other languages (``text``, ``console``): not run.

A block that is too long to run in a test (a training run, an install, a profiler) says so just
before its fence: ``<!-- doc-test: skip REASON -->``. The test reads that marker and nothing else
decides what is skipped; ``test_skips_are_few_and_give_a_reason`` prints the list.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```([\w-]*)([^\n]*)\n(.*?)^```[ \t]*$", re.S | re.M)
SKIP = re.compile(r"<!--\s*doc-test:\s*skip\s+(.+?)\s*-->\s*$")
RUN_LANGS = ("python", "bash")
MAX_SKIPS = 17  # keep the list short: a new skip must push out an old one or raise this knowingly (17: the callgrind recipe of docs/benchmarks.md, minutes under valgrind)
TIMEOUT_S = 600


@dataclass
class Block:
    doc: Path
    line: int
    lang: str
    file: str | None
    code: str
    skip: str | None

    @property
    def id(self) -> str:
        return f"{self.doc.name}:{self.line}"


def blocks(doc: Path) -> list[Block]:
    text = doc.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        lang, info, code = m.group(1), m.group(2), m.group(3)
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        skip = SKIP.search(before)
        file = re.search(r"file=(\S+)", info)
        out.append(
            Block(
                doc,
                text[: m.start()].count("\n") + 1,
                lang,
                file.group(1) if file else None,
                code,
                skip.group(1) if skip else None,
            )
        )
    return out


def _workdir(tmp: Path) -> Path:
    for entry in ROOT.iterdir():
        if entry.name not in (".git", "build", "runs") and not entry.name.startswith("."):
            (tmp / entry.name).symlink_to(entry)
    return tmp


def _env() -> dict:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    env["MPLBACKEND"] = "Agg"
    return env


def _is_install(block: Block) -> bool:
    lines = [x.split("#")[0].strip() for x in block.code.splitlines()]
    return block.lang == "bash" and all(not x or x.startswith("pip install") for x in lines) and any(lines)


def check_install(block: Block) -> None:
    """A ``pip install`` block names extras that exist and the pins the project declares."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = set(project["optional-dependencies"])
    pins = dict(re.findall(r"^([\w-]+)==([\w.]+)", d)[0] for d in project["dependencies"] if "==" in d)
    for extra_list in re.findall(r"\.\[([\w,-]+)\]", block.code):
        for extra in extra_list.split(","):
            assert extra in extras, f"{block.id}: no extra {extra!r} in pyproject.toml ({sorted(extras)})"
    for name, version in re.findall(r"\b([\w-]+)==([\w.]+)", block.code):
        if name in pins:
            assert pins[name] == version, f"{block.id}: {name}=={version}, pyproject.toml pins {pins[name]}"


def _run(block: Block, cwd: Path) -> subprocess.CompletedProcess:
    if block.lang == "python" and block.code.lstrip().startswith(">>>"):
        (cwd / "_snippet.txt").write_text(block.code)
        cmd = [sys.executable, "-m", "doctest", "-o", "ELLIPSIS", "-o", "NORMALIZE_WHITESPACE", "_snippet.txt"]
        return subprocess.run(cmd, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=TIMEOUT_S)
    # the block from a file, standard input empty: an interactive command (tw16 play) sees the end of input
    script = cwd / ("_snippet.py" if block.lang == "python" else "_snippet.sh")
    script.write_text(block.code)
    cmd = [sys.executable, script.name] if block.lang == "python" else ["bash", "-e", "-o", "pipefail", script.name]
    return subprocess.run(
        cmd, stdin=subprocess.DEVNULL, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=TIMEOUT_S
    )


ALL = [b for doc in DOCS for b in blocks(doc)]


def run_doc(doc: Path, tmp_path: Path) -> None:
    """Every runnable block of ``doc``, in order, in a fresh folder (the module's docstring)."""
    cwd = _workdir(tmp_path)
    doc_blocks = blocks(doc)
    for b in doc_blocks:
        if b.file and not b.skip:
            (cwd / b.file).write_text(b.code)
    for b in doc_blocks:
        if b.file or b.skip or b.lang not in RUN_LANGS:
            continue
        if _is_install(b):
            check_install(b)
            continue
        # never install from a test (an editable install would move the package to this folder)
        assert "pip install" not in b.code, f"{b.id}: a block that installs needs a doc-test skip marker"
        r = _run(b, cwd)
        assert r.returncode == 0, (
            f"{b.id} ({b.lang}) failed:\n{b.code}\n--- stdout\n{r.stdout[-3000:]}\n--- stderr\n{r.stderr[-3000:]}"
        )


# The ML recipes (a cloning and a PPO run: minutes each) run from files of their own,
# tests/test_doc_snippets_<name>.py, so that `--dist loadfile` can run them beside this file's docs.
SEPARATE = ("sb3.md", "torchrl.md")


@pytest.mark.slow
@pytest.mark.parametrize("doc", [d for d in DOCS if d.name not in SEPARATE], ids=lambda d: d.name)
def test_doc_snippets_run(doc, tmp_path):
    run_doc(doc, tmp_path)


def test_every_doc_is_run_here_or_in_its_own_file():
    docs = ROOT / "docs"
    assert all(docs / name in DOCS for name in SEPARATE), SEPARATE
    for name in SEPARATE:
        own = Path(__file__).with_name(f"test_doc_snippets_{name.removesuffix('.md')}.py")
        assert own.exists() and f'run_doc(ROOT / "docs" / "{name}"' in own.read_text(), own


def test_skips_are_few_and_give_a_reason():
    skips = [b for b in ALL if b.skip]
    print("\n".join(f"{b.id}: {b.skip}" for b in skips))
    assert len(skips) <= MAX_SKIPS, [b.id for b in skips]
    assert all(len(b.skip) >= 10 for b in skips)
    assert any(b.lang in RUN_LANGS and not b.skip for b in ALL)
