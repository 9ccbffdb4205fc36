"""Compiled-code plumbing for the batch loops: borrowed (unmanaged) state views and serial twins.

Borrowed views. Every compiled call that takes the state namedtuple ``S`` increments and, on return,
decrements the reference count of each of its 17 arrays (atomic operations, plus about 200 scalar
arguments): measured at about 60 ns of a 190 ns call of ``turn_win_ok``. :func:`borrow_state`
rebuilds ``S`` from views that share the data but carry no reference count (as ``numba.carray``
arrays do), so those operations become null checks. The batch loops borrow once per game, inside a
compiled call (``step_game_borrowed``); the views must not outlive that call (nothing in the engine
stores or returns them). Do not borrow in a ``prange`` function's own body: the parallel loop then
wrote to copies, not to the state (seen with numba 0.68).

No reference counting at all on the decision path. Even on borrowed views Numba still emits a call
per array each time one is bound to a variable, and inlining binds ``S`` afresh at every level (17
calls in, 17 out): those null calls took a quarter of random play's time. So the two functions that
run a decision, ``step_game_borrowed`` and random play's ``play_game``, are compiled with
``_nrt=False`` (Numba then emits no counting; it refuses to compile an allocation there, so they
allocate nothing: scratch arrays come from the caller). Everything they inline is compiled the same
way; the functions they call keep counting, because every compiled function of tw16 sets
``_nrt=True`` explicitly (``envs/jit.py``) instead of inheriting its caller's setting. Safe because
every array these two touch is a borrowed view or the caller's, and none is kept or returned.

Serial twins. :func:`serial_twin` compiles a batch loop written with ``prange`` a second time
without ``parallel``: the same Python function, so one implementation, and no thread launch at
batch 1 (each twin has its own name, so the two have separate on-disk cache entries).
"""

from __future__ import annotations

import types as pytypes

from numba import types
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

from envs.engine.state import State
from envs.jit import njit

PARALLEL_MIN_BATCH = 64  # below this the batch loops run serially (a thread launch costs more)


@intrinsic
def borrow(typingctx, arr):
    """A view of ``arr`` (same data, shape, strides) without a reference count (meminfo NULL)."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, sig, args):
        src = make_array(arr)(context, builder, value=args[0])
        dst = make_array(arr)(context, builder)
        populate_array(dst, data=src.data, shape=src.shape, strides=src.strides, itemsize=src.itemsize, meminfo=None)
        return dst._getvalue()

    return arr(arr), codegen


@njit(cache=True)
def borrow_prof(prof):
    """The compiled profile tuple with borrowed views (read-only arrays stay read-only)."""
    return (borrow(prof[0]), borrow(prof[1]), borrow(prof[2]))


@njit(cache=True)
def borrow_state(S):
    """``S`` with every array replaced by a borrowed view (valid while ``S`` is alive)."""
    return State(borrow(S.wall), borrow(S.hands), borrow(S.melds), borrow(S.river), borrow(S.g), borrow(S.p),
                 borrow(S.scores), borrow(S.rng), borrow(S.rewards), borrow(S.terminated), borrow(S.mask),
                 borrow(S.res_tai), borrow(S.res_items), borrow(S.res_delta), borrow(S.script), borrow(S.la),
                 borrow(S.la_k))


def serial_twin(fn):
    """A copy of the Python function ``fn`` named ``<name>_serial``, compiled without ``parallel``
    (``prange`` runs as ``range``). ``fn`` is the undecorated loop; decorate it separately."""
    twin = pytypes.FunctionType(fn.__code__, fn.__globals__, fn.__name__ + "_serial", fn.__defaults__, fn.__closure__)
    twin.__qualname__ = fn.__qualname__ + "_serial"
    twin.__module__ = fn.__module__
    twin.__doc__ = fn.__doc__
    return njit(cache=True)(twin)
