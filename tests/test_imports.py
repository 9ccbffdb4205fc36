"""Layering and import cycles of the first-party packages, read from the source (ast), deferred imports
inside functions included: no import cycle among the modules, and no import against the layering
(a package may import only the packages listed before it in LAYERS). Imports under
``if TYPE_CHECKING:`` are not run and are not counted. Self-contained: the checker is below."""

from __future__ import annotations

import ast
from pathlib import Path

# Lowest first: each layer may import those before it, never one after it. A layer is a package or a
# subpackage (a module belongs to the longest layer that prefixes its name): the evaluation sits
# inside agents above the agents themselves, and the tw16 package (the command line, the benchmarks)
# on top of everything.
LAYERS = ["envs", "agents", "agents.evaluation", "training", "tw16", "tw16.bench", "tw16.cli"]
PACKAGES = sorted({layer.split(".")[0] for layer in LAYERS})  # the installed top-level names
ROOT = Path(__file__).resolve().parent.parent


# -- the checker ------------------------------------------------------------------------------------
def _modules(root: Path, packages) -> dict[str, Path]:
    """Dotted module name -> file, for every .py under the given top-level packages."""
    out = {}
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST):
    """Every Import / ImportFrom in the tree, at any depth, except under ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _resolve(name: str, known) -> str | None:
    """The longest prefix of ``name`` that is a known module (``a.b.attr`` -> ``a.b``)."""
    parts = name.split(".")
    for n in range(len(parts), 0, -1):
        cand = ".".join(parts[:n])
        if cand in known:
            return cand
    return None


def import_graph(root: Path, packages) -> dict[str, set[str]]:
    """Module -> the first-party modules it imports (``from a import b`` counts ``a.b`` when that is a
    module, else ``a``; relative imports resolved)."""
    mods = _modules(root, packages)
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        is_pkg = path.name == "__init__.py"
        for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    pkg = mod.split(".") if is_pkg else mod.split(".")[:-1]
                    pkg = pkg[: len(pkg) - (node.level - 1)]
                    base = ".".join(pkg + ([base] if base else []))
                targets = [f"{base}.{a.name}" if a.name != "*" else base for a in node.names]
            for t in targets:
                dep = _resolve(t, mods)
                if dep is not None and dep != mod:
                    graph[mod].add(dep)
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def layer_rank(module: str, layers) -> int:
    """The index in ``layers`` of the longest layer that is ``module`` or a package above it."""
    best = max((lay for lay in layers if module == lay or module.startswith(lay + ".")), key=len)
    return layers.index(best)


def upward_imports(graph: dict[str, set[str]], layers) -> list[str]:
    """``a -> b`` for every import of a module of a later (higher) layer than the importer's."""
    return sorted(
        f"{a} -> {b}" for a, deps in graph.items() for b in deps if layer_rank(b, layers) > layer_rank(a, layers)
    )


# -- the project ------------------------------------------------------------------------------------
def test_no_import_cycles():
    cycles = find_cycles(import_graph(ROOT, PACKAGES))
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_imports_follow_the_layers():
    up = upward_imports(import_graph(ROOT, PACKAGES), LAYERS)
    assert not up, f"imports against the layering {' <- '.join(LAYERS)}: {up}"


def test_every_package_has_a_layer():
    # a new top-level package is checked only once it has its place in LAYERS
    packages = sorted(p.parent.name for p in ROOT.glob("*/__init__.py"))
    assert set(packages) <= set(PACKAGES), (
        f"add {sorted(set(packages) - set(PACKAGES))} to LAYERS in tests/test_imports.py"
    )


def test_the_graph_sees_the_project():
    graph = import_graph(ROOT, PACKAGES)
    assert "envs.rules" in graph["envs.engine.api"]  # a top-level import
    assert "envs.scoring.profile" in graph["envs.rules"]  # a deferred import inside a method
    assert "envs.options" in graph["envs.rules"]  # a star import


# -- the checker catches what it is for -------------------------------------------------------------
def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


def test_checker_catches_a_planted_cycle_and_upward_import(tmp_path):
    _write(
        tmp_path,
        {
            "low/__init__.py": "",
            "low/a.py": "from low import b\n",
            "low/b.py": "def f():\n    from .a import x  # deferred, relative\n    return x\n",
            "low/c.py": "import low.sub.d\n",
            "low/sub/__init__.py": "",
            "low/sub/d.py": "def g():\n    import high.top\n",
            "low/e.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from high import top\n",
            "high/__init__.py": "",
            "high/top.py": "from low.a import b\n",
        },
    )
    graph = import_graph(tmp_path, ["low", "high"])
    assert find_cycles(graph) == [["low.a", "low.b"]]
    assert upward_imports(graph, ["low", "high"]) == ["low.sub.d -> high.top"]  # low.e's is never run
    assert upward_imports(graph, ["low", "high", "extra"]) == ["low.sub.d -> high.top"]  # more layers: same


def test_checker_passes_a_clean_package(tmp_path):
    _write(
        tmp_path,
        {
            "low/__init__.py": "from low.a import x\n",
            "low/a.py": "x = 1\n",
            "high/__init__.py": "",
            "high/top.py": "import low\nfrom low import a\n\ndef f():\n    from low.a import x\n",
        },
    )
    graph = import_graph(tmp_path, ["low", "high"])
    assert graph["high.top"] == {"low", "low.a"}
    assert find_cycles(graph) == [] and upward_imports(graph, ["low", "high"]) == []
