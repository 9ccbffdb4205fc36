"""The generators of tools/ (scripts, not a package: tools/README.md) loaded as modules for the tests
that check their output is current."""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

TOOLS = Path(__file__).resolve().parent.parent / "tools"


@functools.cache
def load_tool(name: str) -> ModuleType:
    """tools/NAME.py as the module ``tools_NAME`` (loaded once)."""
    path = TOOLS / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"tools_{name}", path)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # (dataclasses and pickling look modules up by name)
    spec.loader.exec_module(mod)
    return mod
