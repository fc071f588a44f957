"""Python's cyclic collector kept from walking what is all live: paused
while an error that ends the run unwinds and while a chunk compiles, its
full collections deferred while the stack is deep.

Each Python frame an exception leaves becomes a collector-tracked object,
and the collections those allocations set off walk all of them again: an
interrupt raised 200,000 levels deep took about five times as long to reach
the host with the collector on (0.35 s against 0.07 s).  Lua code cannot
catch an interrupt, so the pause lasts until the error reaches the host's
call (``resume_collector`` from the API) or Lua code runs its next check.

A deep stack defers the collector's full collections (the periodic check
decides, see ``state.DEFER_COLLECTIONS_DEPTH``): each Lua level there is a
generator or frame that every full collection walks again, and a ``stack
overflow`` leaves them all in one unwind that nothing can interrupt.  One
overflow took 0.75-0.88 s of CPU with full collections, 0.45-0.53 s
without them, 0.38-0.45 s with the collector off; young collections still
run, so garbage a program makes while deep is still freed.

Compiling allocates hundreds of thousands of objects that all live until it
ends (the parse tree, the prototypes, the translation's structure) and
almost no garbage: the collections they set off were about a quarter of
the translation time of a 5,000-line chunk.
"""
from __future__ import annotations

import gc
import threading
from contextlib import contextmanager

_lock = threading.Lock()
_paused = False          # did we disable the collector (and so must enable it)?
_thresholds = None       # the collector's thresholds while full collections are deferred
# Young collections between two full ones while deferred (the default is 10).
FULL_DEFERRED = 1000


def pause_collector() -> None:
    global _paused
    with _lock:
        if gc.isenabled():
            gc.disable()
            _paused = True


def defer_full_collections() -> None:
    global _thresholds
    with _lock:
        if _thresholds is None:
            _thresholds = gc.get_threshold()
            gc.set_threshold(_thresholds[0], _thresholds[1], FULL_DEFERRED)


def resume_collector() -> None:
    """The collector back as the host had it: on again, full collections due again."""
    global _paused, _thresholds
    if _paused or _thresholds is not None:
        with _lock:
            if _paused:
                _paused = False
                gc.enable()
            if _thresholds is not None:
                gc.set_threshold(*_thresholds)
                _thresholds = None


@contextmanager
def collector_paused():
    """Run the block with the collector off, unless it is off already
    (paused by an unwinding error, or by the host)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
