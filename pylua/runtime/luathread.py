"""The threads Lua runs on.

Translated Lua calls nest Python generator frames; CPython resumes a chain of
``yield from`` recursively on the C stack, so deep Lua recursion needs a big
stack.  Lua code therefore runs on threads started with a large stack, and
the recursion limit is raised so that ``stack overflow`` is a Lua error long
before the C stack ends.

Each call from outside takes an idle Lua thread from a pool (starting one
when all are busy), so runtimes used from different Python threads run side
by side and one runtime's endless loop never holds up another's chunk.
"""
from __future__ import annotations

import queue
import sys
import threading

STACK_SIZE = 512 * 1024 * 1024
RECURSION_LIMIT = 220000
# Lua threads kept waiting for work; more are started when needed and end
# when there are this many idle already.
IDLE_KEPT = 4

_idle: list = []
_lock = threading.Lock()
_lua_threads = threading.local()


class _Done(threading.Event):
    result = None
    error = None


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
        while True:
            fn, args, done = self.jobs.get()
            try:
                done.result = fn(*args)
            except BaseException as exc:          # handed back to the calling thread
                done.error = exc
            fn = args = None
            with _lock:
                keep = len(_idle) < IDLE_KEPT
                if keep:
                    _idle.append(self)
            done.set()
            # Waiting for the next job, hold nothing of this one: its error's
            # traceback reaches the runtime and all its heap.
            done = None
            if not keep:
                return


def _take():
    # Checked on every take, not only when a thread starts: the limit is
    # process-wide and other code (test frameworks among it) may lower it
    # again once it has been raised.
    if sys.getrecursionlimit() < RECURSION_LIMIT:
        sys.setrecursionlimit(RECURSION_LIMIT)
    with _lock:
        if _idle:
            return _idle.pop()
    return _LuaThread()


def ensure_started():
    """Start a Lua thread now (it also raises the recursion limit)."""
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
    if done.error is not None:
        raise done.error
    return done.result
