"""Every third-party module the project imports is declared in pyproject.toml.

A module imported by the package (the wheel's packages: envs/, agents/, training/, tw16/) must come from a distribution in
``[project] dependencies``, or, for the optional integrations listed in OPTIONAL below, from the
extra that names it. A module imported by the tests must come from the dependencies or the ``test``
extra (the README's test command installs ``.[test]``). Imports inside functions count too: they
are what failed a new user's ``tw16 train`` (``import tyro``, now in tw16/cli/train.py).
"""

from __future__ import annotations

import ast
import json
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the project's packages (the wheel's, as pyproject.toml lists them), and the tests' own helper
# modules (tests/recorded.py ...), imported by name
PACKAGE_DIRS = tuple(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["scikit-build"]["wheel"]["packages"])
# ... the scripts of tools/ (tools/README.md), and the names our packages had before 0.2 (bench, cli,
# evaluation: tools/differential.py also runs against older checkouts)
FIRST_PARTY = {*PACKAGE_DIRS, "tests", "conftest", "bench", "cli", "evaluation"} | {
    f.stem for d in ("tests", "tools") for f in (ROOT / d).glob("*.py")
}

# Optional integrations: module -> the extra that declares it. The package imports them only inside
# the functions that need them, so the core install stays small.
OPTIONAL = {
    "ray": "ray",
    "stable_baselines3": "sb3",
    "sb3_contrib": "sb3",
    "torchrl": "torchrl",
    "tensordict": "torchrl",
}


def _req_name(req: str) -> str:
    return re.split(r"[\s\[<>=!~;]", req.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _declared() -> tuple[set[str], dict[str, set[str]]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = {_req_name(r) for r in project["dependencies"]}
    extras = {k: {_req_name(r) for r in v} for k, v in project.get("optional-dependencies", {}).items()}
    return deps, extras


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def _third_party(paths) -> dict[str, list[str]]:
    """module -> files importing it, for modules that are neither stdlib nor first party."""
    out: dict[str, list[str]] = {}
    for f in paths:
        for mod in _imports(f):
            if mod in sys.stdlib_module_names or mod in FIRST_PARTY or mod.startswith("_"):
                continue
            out.setdefault(mod, []).append(str(f.relative_to(ROOT) if f.is_relative_to(ROOT) else f))
    return out


def _providers(mod: str) -> set[str]:
    """Distributions that provide the top-level module ``mod`` in this environment."""
    return {d.lower().replace("_", "-") for d in metadata.packages_distributions().get(mod, [])}


def _check(files, allowed: set[str], optional: dict[str, set[str]] | None = None) -> list[str]:
    problems = []
    for mod, where in sorted(_third_party(files).items()):
        if optional and mod in optional:
            if not _providers(mod) & optional[mod]:
                problems.append(f"{mod} (optional) is not provided by its extra: imported in {where[:3]}")
            continue
        prov = _providers(mod)
        if not prov:
            problems.append(f"{mod}: no installed distribution provides it (imported in {where[:3]})")
        elif not prov & allowed:
            problems.append(f"{mod} (from {sorted(prov)}) is not declared directly: imported in {where[:3]}")
    return problems


def _py_files(*dirs):
    for d in dirs:
        yield from (f for f in (ROOT / d).rglob("*.py") if "__pycache__" not in f.parts)


def test_package_imports_are_declared():
    deps, extras = _declared()
    optional = {mod: extras[extra] for mod, extra in OPTIONAL.items()}
    problems = _check(_py_files(*PACKAGE_DIRS), deps, optional)
    assert not problems, "undeclared runtime imports:\n" + "\n".join(problems)


def test_test_imports_are_declared():
    deps, extras = _declared()
    problems = _check(_py_files("tests", "tools"), deps | extras["test"])
    assert not problems, "undeclared test (or tools/) imports:\n" + "\n".join(problems)


def test_the_checker_catches_an_undeclared_import(tmp_path):
    # The check itself can fail: a deferred import of a module that no declared distribution provides.
    f = tmp_path / "x.py"
    f.write_text("import numpy\n\ndef f():\n    import tyro\n")
    problems = _check([f], {"numpy"})
    assert len(problems) == 1 and problems[0].startswith("tyro ")
    assert _check([f], {"numpy", "tyro"}) == []


def test_every_package_is_in_the_wheel():
    # a new top-level package (a folder with __init__.py) that pyproject.toml does not list would be
    # missing from the installed wheel, and from the checks above
    found = {d.name for d in ROOT.iterdir() if (d / "__init__.py").is_file() and d.name not in ("tests", "build")}
    assert found == set(PACKAGE_DIRS), (
        f"packages not in pyproject.toml's wheel.packages: {sorted(found - set(PACKAGE_DIRS))}"
    )


def test_notebook_imports_are_declared(tmp_path):
    # the notebooks' code cells, one file each, against every declared distribution (a notebook may
    # use an extra: it says which in its first cell)
    deps, extras = _declared()
    files = []
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        f = tmp_path / f"{nb.stem}.py"
        f.write_text("\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code"), encoding="utf-8")
        files.append(f)
    assert files, "no notebooks found"
    problems = _check(files, deps.union(*extras.values()))
    assert not problems, "undeclared notebook imports:\n" + "\n".join(problems)
