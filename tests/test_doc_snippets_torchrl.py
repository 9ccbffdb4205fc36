"""The snippets of docs/torchrl.md, run as tests/test_doc_snippets.py runs every doc's, from a file of
their own: a cloning and a PPO run take minutes, and `--dist loadfile` gives one worker a file."""

from __future__ import annotations

import pytest
from test_doc_snippets import ROOT, run_doc


@pytest.mark.slow
def test_doc_snippets_run(tmp_path):
    run_doc(ROOT / "docs" / "torchrl.md", tmp_path)
