"""Python's cyclic collector paused while an error that ends the run unwinds.

Each Python frame an exception leaves becomes a collector-tracked object,
and the collections those allocations set off walk all of them again: an
interrupt raised 200,000 levels deep took about five times as long to reach
the host with the collector on (0.35 s against 0.07 s).  Lua code cannot
catch an interrupt, so the pause lasts until the error reaches the host's
call (``resume_collector`` from the API) or Lua code runs its next check.

A deep stack is paused for too (the periodic check decides, see
``state.COLLECTOR_PAUSE_DEPTH``): each Lua level there is a generator or
frame the collector walks again and again, and a ``stack overflow`` leaves
them all in one unwind that nothing can interrupt; with the collector on,
one overflow took 1.0-1.4 s, without it 0.4 s.
"""
from __future__ import annotations

import gc
import threading

_lock = threading.Lock()
_paused = False          # did we disable the collector (and so must enable it)?


def pause_collector() -> None:
    global _paused
    with _lock:
        if gc.isenabled():
            gc.disable()
            _paused = True


def resume_collector() -> None:
    global _paused
    if _paused:
        with _lock:
            if _paused:
                _paused = False
                gc.enable()
