"""The threads Lua runs on.

Translated Lua calls nest Python generator frames; CPython resumes a chain of
``yield from`` recursively on the C stack, so deep Lua recursion needs a big
stack.  Lua code therefore runs on threads started with a large stack, and
the recursion limit is set to pylua's frame budget, so that ``stack
overflow`` is a Lua error long before the C stack ends.

The budget is a trade: an error raised at the bottom of a recursion (a
``stack overflow``, or an interrupt there) leaves every frame in one unwind
nothing can interrupt, about 0.5 us a frame with cutting the host's
traceback, so it bounds how late ``cancel()`` and hooks can be.  60,000
frames keep that near 30 ms; ``set_stack_frames`` lets an embedder trade
latency for depth (docs/pylua-api.md).

Each call from outside takes an idle Lua thread from a pool (starting one
when all are busy), so runtimes used from different Python threads run side
by side and one runtime's endless loop never holds up another's chunk.
"""
from __future__ import annotations

import queue
import sys
import threading
from contextlib import contextmanager

from .python_gc import end_freeing, hold_while_freeing, lua_pace

STACK_SIZE = 512 * 1024 * 1024
# Python frames a Lua thread may nest (the recursion limit): a plain Lua
# recursion reaches about that many levels, one through ``__call`` half.
DEFAULT_STACK_FRAMES = 60000
# The bounds of the setting: below, the compiler's own recursion over a
# deeply nested chunk may not fit; above, no run has tried the C stack.
MIN_STACK_FRAMES = 10000
MAX_STACK_FRAMES = 220000
_stack_frames = DEFAULT_STACK_FRAMES
_compiling = 0                      # chunks compiling now, on any Lua thread (``compiler_frames``)
# Traceback entries freed at once by ``_free_leftovers`` (about a millisecond).
_FREED_AT_ONCE = 4000
# Seconds a Lua thread waits for its caller to take a result before
# freeing what ``free_after_handover`` kept.
_HANDOVER_WAIT = 0.1
# Lua threads kept waiting for work; more are started when needed and end
# when there are this many idle already.
IDLE_KEPT = 4

_idle: list = []
_lock = threading.Lock()
_lua_threads = threading.local()


class _Done(threading.Event):
    result = None
    error = None

    def __init__(self):
        super().__init__()
        self.taken = threading.Event()     # the calling thread has the result


class _LuaThread:
    """One big-stack thread running jobs from its own queue."""

    def __init__(self):
        self.jobs = queue.SimpleQueue()
        old = threading.stack_size()
        threading.stack_size(STACK_SIZE)
        try:
            threading.Thread(target=self._work, name='pylua', daemon=True).start()
        finally:
            threading.stack_size(old)

    def _work(self):
        _lua_threads.inside = True
        _lua_threads.leftovers = []
        while True:
            fn, args, done = self.jobs.get()
            try:
                with lua_pace():
                    done.result = fn(*args)
            except BaseException as exc:          # handed back to the calling thread
                done.error = exc
            fn = args = None
            done.set()
            if _lua_threads.leftovers:
                # Once the caller has its result: woken, it would otherwise
                # wait for the free on a busy machine.
                done.taken.wait(_HANDOVER_WAIT)
                _free_leftovers()
            with _lock:
                keep = len(_idle) < IDLE_KEPT
                if keep:
                    _idle.append(self)
            # Waiting for the next job, hold nothing of this one: its error's
            # traceback reaches the runtime and all its heap.
            done = None
            if not keep:
                return


def free_after_handover(entries: list) -> None:
    """Free ``entries`` (a deep traceback's cut middle, outermost first)
    once the running job's result is with the calling thread: 60,000
    frames take some 10-20 ms to free, which the host need not wait for."""
    leftovers = getattr(_lua_threads, 'leftovers', None)
    if leftovers is None:
        return                     # not on a Lua thread: freed by the caller as it drops them
    leftovers.append((entries, hold_while_freeing()))


def _free_leftovers():
    """Free what ``free_after_handover`` kept, innermost entries first and
    in pieces, so that the calling thread runs between them (each frame is
    held by its entry and by its callee's frame; freed from the inside, a
    piece frees its own frames only)."""
    leftovers = _lua_threads.leftovers
    while leftovers:
        entries, held = leftovers[-1]
        while entries:
            del entries[-_FREED_AT_ONCE:]
        leftovers.pop()
        if held:
            end_freeing()


def set_stack_frames(frames: int) -> None:
    """Let Lua threads nest ``frames`` Python frames before ``stack
    overflow`` (process-wide: Python's recursion limit is)."""
    global _stack_frames
    if frames.__class__ is not int or not MIN_STACK_FRAMES <= frames <= MAX_STACK_FRAMES:
        raise ValueError('stack frames must be an integer from %d to %d' % (MIN_STACK_FRAMES, MAX_STACK_FRAMES))
    with _lock:
        _stack_frames = frames
        sys.setrecursionlimit(_limit())


def stack_frames() -> int:
    """The Python frames a Lua thread may nest (``set_stack_frames``)."""
    return _stack_frames


def _limit() -> int:
    """The recursion limit now: the widest while a chunk compiles (under ``_lock``)."""
    return MAX_STACK_FRAMES if _compiling else _stack_frames


@contextmanager
def compiler_frames():
    """Compile with the widest frame budget.  The budget is Lua
    recursion's; the code generator recursed a few frames for each
    operand of a left-associative chain (``1 + 1 + ...``, which lua5.4
    compiles in a loop), so 15,000 of them would pass 60,000 frames: it
    walks chains in a loop now, and this stays the compiler's margin.  The
    limit is process-wide: while a chunk compiles, Lua recursion on other
    threads is held to its budget by the periodic check instead, which
    raises the overflow within a check interval's frames past it (and
    Python recursion on other threads may go as deep)."""
    global _compiling
    with _lock:
        _compiling += 1
        sys.setrecursionlimit(MAX_STACK_FRAMES)
    _lua_threads.compiling = getattr(_lua_threads, 'compiling', 0) + 1
    try:
        yield
    finally:
        _lua_threads.compiling -= 1
        with _lock:
            _compiling -= 1
            sys.setrecursionlimit(_limit())


def widened_elsewhere() -> bool:
    """Is the recursion limit wider than the frame budget because a chunk
    compiles on another thread?  Lua running on this one then keeps to its
    budget by the periodic check (``VM.tick``), not by the limit.  Every
    check asks, and a thread-local's missing attribute costs a raised
    ``AttributeError``: with nothing compiling, the count answers alone."""
    return _compiling > 0 and _compiling > getattr(_lua_threads, 'compiling', 0)


def _take():
    # Checked on every take, not only when a thread starts: the limit is
    # process-wide and other code (test frameworks among it) may change it.
    with _lock:
        if sys.getrecursionlimit() != _limit():
            sys.setrecursionlimit(_limit())
        if _idle:
            return _idle.pop()
    return _LuaThread()


def ensure_started():
    """Start a Lua thread now (it also sets the recursion limit)."""
    with _lock:
        if _idle:
            return
    lua_thread = _take()
    with _lock:
        _idle.append(lua_thread)


def on_lua_thread(fn, *args):
    """Run ``fn(*args)`` on a Lua thread and return its result (or raise its error)."""
    if getattr(_lua_threads, 'inside', False):
        return fn(*args)
    done = _Done()
    _take().jobs.put((fn, args, done))
    while not done.wait(0.05):
        pass
    done.taken.set()
    if done.error is not None:
        raise done.error
    return done.result
