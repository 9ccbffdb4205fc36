"""Published evaluation walls: fixed lists of wall seeds, one file per version, so that figures
measured at different times or by different people are measured on the same walls
(``tw16 eval ... --eval-set v1``).

Rule of version v1: ``numpy.random.SeedSequence(int.from_bytes(sha256(b"tw16 eval set v1").digest()[:16],
"little")).generate_state(5000, numpy.uint64)``, 5,000 walls (20,000 hands in duplicate play), stored
in order as decimal strings beside the rule and the SHA-256 of the seeds written one a line in
decimal. The file is agents/evaluation/eval_seeds_v1.json; ``python -m agents.evaluation.eval_seeds v1``
writes it again and tests/test_variance.py checks that it is what the rule gives. A new version is a
new file: an old one never changes.
"""

from __future__ import annotations

import hashlib
import json
import sys
import textwrap
from pathlib import Path

import numpy as np

EVAL_SETS = {"v1": 5000}  # version -> walls
HERE = Path(__file__).parent


def _check(version: str) -> None:
    if version not in EVAL_SETS:
        raise ValueError(f"unknown evaluation set {version!r} (known: {', '.join(EVAL_SETS)})")


def path_of(version: str) -> Path:
    return HERE / f"eval_seeds_{version}.json"


def generate(version: str) -> np.ndarray:
    """The wall seeds of ``version`` from its rule (module docstring)."""
    _check(version)
    entropy = int.from_bytes(hashlib.sha256(f"tw16 eval set {version}".encode()).digest()[:16], "little")
    return np.random.SeedSequence(entropy).generate_state(EVAL_SETS[version], np.uint64)


def digest(seeds) -> str:
    """SHA-256 of the seeds as decimal lines."""
    return hashlib.sha256("".join(f"{int(s)}\n" for s in seeds).encode()).hexdigest()


def document(version: str) -> dict:
    seeds = generate(version)
    return {
        "version": version,
        "walls": len(seeds),
        "rule": f"numpy.random.SeedSequence(int.from_bytes(sha256(b'tw16 eval set {version}').digest()[:16], "
        f"'little')).generate_state({len(seeds)}, numpy.uint64)",
        "sha256": digest(seeds),
        "seeds": [str(int(s)) for s in seeds],
    }


def dumps(doc: dict) -> str:
    """The file's JSON: one field a line, the seeds wrapped at 100 columns (a short file to read)."""
    head = "".join(f"{json.dumps(k)}: {json.dumps(v)},\n" for k, v in doc.items() if k != "seeds")
    seeds = textwrap.fill(", ".join(json.dumps(s) for s in doc["seeds"]), 100)
    return "{\n" + head + '"seeds": [\n' + seeds + "\n]}\n"


def load(version: str) -> np.ndarray:
    """The published wall seeds of ``version`` (uint64), read from its file and checked against the
    digest the file records."""
    _check(version)
    doc = json.loads(path_of(version).read_text())
    seeds = np.array([int(s) for s in doc["seeds"]], np.uint64)
    if doc.get("version") != version or digest(seeds) != doc.get("sha256") or len(seeds) != doc.get("walls"):
        raise ValueError(f"{path_of(version)} is damaged: its seeds do not match its version, count or sha256")
    return seeds


def main(argv=None) -> int:
    for version in (argv if argv is not None else sys.argv[1:]) or list(EVAL_SETS):
        path_of(version).write_text(dumps(document(version)))
        print(f"wrote {path_of(version)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
