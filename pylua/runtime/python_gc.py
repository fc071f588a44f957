"""Python's cyclic collector kept from walking what is all live: paused
while an error that ends the run unwinds, while its deep traceback's cut
frames are freed after the run (``luathread.free_after_handover``) and
while a chunk compiles, and run by the periodic check instead of by
allocations while the stack is deep.

Each Python frame an exception leaves becomes a collector-tracked object,
and the collections those allocations set off walk all of them again: an
interrupt raised 200,000 levels deep took about five times as long to reach
the host with the collector on (0.35 s against 0.07 s).  Lua code cannot
catch an interrupt, so the pause lasts until the error reaches the host's
call (``resume_collector`` from the API) or Lua code runs its next check.

A deep stack hands the collector's schedule to the periodic check (the
check decides, see ``state.DEEP_STACK_DEPTH``): each Lua level there is a
generator or frame, and a ``stack overflow`` leaves them all in one unwind
that nothing can interrupt, each frame left making two objects the
collector tracks.  Collections those set off were half of the unwind's
time (an overflow in a ``pcall``: 160 ms with young and middle collections,
80 ms with none), and a cancel landing in the unwind waits for all of it.
So while the stack is deep the collector is off and the periodic check
collects the young generations once allocations have passed what would
have set off a middle collection: garbage a program makes while deep is still
freed, at about the usual pace, and an unwind runs no collection.  Full
collections wait until a check finds the stack shallower again.

Compiling allocates hundreds of thousands of objects that all live until it
ends (the parse tree, the prototypes, the translation's structure) and
almost no garbage: the collections they set off were about a quarter of
the translation time of a 5,000-line chunk.

While Lua code runs, the young generation's threshold is the host's times
``TRACKED_PER_OBJECT`` (``lua_pace``): the collector's schedule counts the
objects it tracks, and a Lua table is two or three of them (the table, its
list part, its dict once that holds a table) where a Python program's
object is one, so Lua programs made several times as many collections per
object as Python programs do.  ``oo/havlak`` made 698 collections (0.20 s
of a 1.0 s run, five of them full) where its CPython twin, building the
same graph, makes 177; paced, it makes 231 (0.09 s, one full).  Only the
pace changes: garbage is freed as before, a little later (a young
collection walks three times as many objects), and a Lua heap is measured
by walking what is reachable (``memory.py``), which garbage never is.
"""
from __future__ import annotations

import gc
import threading
import traceback
from contextlib import contextmanager

_lock = threading.Lock()
_unwinding = False       # is the collector off for an interrupt unwinding to the host?
_deep = False            # is it off for a deep stack, collected by the periodic check?
_freeing = 0             # holds while deep errors' cut frames are freed after their runs


TRACKED_PER_OBJECT = 3
_pacing = 0              # Lua jobs running under lua_pace
_paced = None            # (the host's thresholds, the thresholds set for Lua) while any runs


@contextmanager
def lua_pace():
    """Run a Lua job with the young threshold scaled by
    ``TRACKED_PER_OBJECT``; the host's back when the last job running ends,
    unless the host set others meanwhile (a threshold of 0, the collector
    off, stays 0)."""
    global _pacing, _paced
    with _lock:
        _pacing += 1
        if _pacing == 1:
            host = gc.get_threshold()
            _paced = (host, (host[0] * TRACKED_PER_OBJECT,) + host[1:])
            gc.set_threshold(*_paced[1])
    try:
        yield
    finally:
        with _lock:
            _pacing -= 1
            if not _pacing:
                host, paced = _paced
                _paced = None
                if gc.get_threshold() == paced:
                    gc.set_threshold(*host)


def _apply() -> None:
    """The collector on unless a hold-back of ours is in force (under ``_lock``)."""
    if _unwinding or _deep or _freeing:
        gc.disable()
    else:
        gc.enable()


def pause_collector() -> None:
    """Off while an interrupt unwinds to the host (unless the host had it off)."""
    global _unwinding
    with _lock:
        if _deep or _freeing or gc.isenabled():
            _unwinding = True
            _apply()


def end_unwinding_pause() -> None:
    """Lua code runs a check again: the interrupt's unwinding is over."""
    global _unwinding
    if _unwinding:
        with _lock:
            _unwinding = False
            _apply()


def collect_for_deep_stack() -> None:
    """The stack is deep: collections are this check's to make."""
    global _deep
    if not _deep:
        if not (gc.isenabled() or _unwinding or _freeing):
            return
        with _lock:
            if not (gc.isenabled() or _unwinding or _freeing):
                return              # the host turned the collector off: leave it off
            _deep = True
            _apply()
    if gc.get_count()[0] > deep_collect_after():
        gc.collect(1)


def deep_collect_after() -> float:
    """Tracked objects allocated (net) after which a deep stack's check
    collects the young generations: the collector's own pace for a middle
    collection under the thresholds in force (``lua_pace``'s while Lua
    runs).  A young threshold of 0 (the host's automatic collection off)
    means never."""
    young, middle, _ = gc.get_threshold()
    return young * middle if young else float('inf')


def end_deep_stack() -> None:
    """The stack is shallow again: the collector runs on its own schedule."""
    global _deep
    if _deep:
        with _lock:
            _deep = False
            _apply()


def hold_while_freeing() -> bool:
    """Off until ``end_freeing``: frames about to be freed are not worth a
    collection's walk.  Whether it held (not if the host had the collector
    off); Lua threads freeing at once each hold."""
    global _freeing
    with _lock:
        if not (_unwinding or _deep or _freeing or gc.isenabled()):
            return False
        _freeing += 1
        _apply()
        return True


def end_freeing() -> None:
    """One hold of ``hold_while_freeing`` ends."""
    global _freeing
    with _lock:
        _freeing -= 1
        _apply()


def resume_collector() -> None:
    """The collector back as the host had it (the run reached the host),
    but for a hold while frames are freed."""
    global _unwinding, _deep
    if _unwinding or _deep:
        with _lock:
            _unwinding = _deep = False
            _apply()


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
    except BaseException as e:
        # The block's structures (a parse tree of a big chunk: a million
        # objects) are held by the frames the error left: freed now, not
        # walked by the first young collection once the collector is back.
        traceback.clear_frames(e.__traceback__)
        raise
    finally:
        gc.enable()
