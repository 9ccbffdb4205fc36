"""Calling a compiled function many times from Python with arguments of fixed types.

Numba's dispatcher works out the type of every argument on every call. For the engine's state tuple
(15 arrays in a namedtuple) that costs about 10 us, more than the batch-1 step itself. ``entry``
resolves the compiled version once; calling it then only converts the arguments.

    step = entry(step_some_serial, s, actions, active, opts, cfg, prof)
    step(s, actions, active, opts, cfg, prof)     # same argument types, every time

The caller must keep passing arguments of exactly those types (same dtypes, dimensions, layout and
namedtuple class): arrays are converted, not type-checked, by the entry point.
"""

from __future__ import annotations

import numba


def entry(dispatcher, *args):
    """The compiled entry point of ``dispatcher`` for the types of ``args`` (compiled or loaded
    from the cache now if needed)."""
    sig = tuple(numba.typeof(a) for a in args)
    dispatcher.compile(sig)
    return dispatcher.overloads[sig].entry_point
