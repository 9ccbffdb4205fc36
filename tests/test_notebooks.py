"""The notebooks in notebooks/ run top to bottom (with TW16_NB_SMALL=1: tiny sizes) and are stored
with the outputs of such a run, kept small: a reader sees what each cell prints and draws without
running it (``pip install -e ".[notebooks]"`` installs Jupyter to run them)."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NB_DIR = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = ("quickstart.ipynb", "scoring_explorer.ipynb", "train_and_evaluate.ipynb", "rule_variants.ipynb")


MAX_BYTES = 400_000  # a notebook with its outputs (a few small plots)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_is_stored_with_small_outputs(name):
    nb = nbformat.read(NB_DIR / name, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code, name
    assert (NB_DIR / name).stat().st_size <= MAX_BYTES, f"{name}: outputs too large; run it with TW16_NB_SMALL=1"
    counts = [c.execution_count for c in code]
    assert counts == list(range(1, len(code) + 1)), f"{name}: run top to bottom once before committing ({counts})"
    for c in code:
        assert not any(o.output_type == "error" for o in c.outputs), f"{name}: a cell failed"
    assert "TW16_NB_SMALL" in code[0].source  # the parameter cell comes first
    # the installed package, not the repository put on sys.path (run the tests with it installed, or
    # with PYTHONPATH naming the repository: the kernel inherits the environment)
    assert not any("sys.path" in c.source for c in code), f"{name}: import the installed package"


@pytest.mark.slow
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs(name, monkeypatch):
    monkeypatch.setenv("TW16_NB_SMALL", "1")  # the kernel inherits the environment
    nb = nbformat.read(NB_DIR / name, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NB_DIR)}}
    )
    client.execute()  # raises CellExecutionError naming the cell that failed
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
