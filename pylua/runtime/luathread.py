"""The thread Lua runs on.

Translated Lua calls nest Python generator frames; CPython resumes a chain of
``yield from`` recursively on the C stack, so deep Lua recursion needs a big
stack.  Lua code therefore runs on one dedicated thread started with a large
stack, and the recursion limit is raised so that ``stack overflow`` is a Lua
error long before the C stack ends.
"""
from __future__ import annotations

import queue
import sys
import threading

STACK_SIZE = 512 * 1024 * 1024
RECURSION_LIMIT = 220000

_jobs: "queue.SimpleQueue" = queue.SimpleQueue()
_thread = None
_lock = threading.Lock()


def _worker():
    while True:
        fn, args, done = _jobs.get()
        try:
            done.result = fn(*args)
        except BaseException as exc:          # handed back to the calling thread
            done.error = exc
        done.set()


class _Done(threading.Event):
    result = None
    error = None


def ensure_started():
    """Start the Lua thread now (it also raises the recursion limit)."""
    if _thread is None:
        _start()


def _start():
    global _thread
    with _lock:
        if _thread is None:
            old = threading.stack_size()
            threading.stack_size(STACK_SIZE)
            try:
                t = threading.Thread(target=_worker, name='pylua', daemon=True)
                t.start()
            finally:
                threading.stack_size(old)
            if sys.getrecursionlimit() < RECURSION_LIMIT:
                sys.setrecursionlimit(RECURSION_LIMIT)
            _thread = t


def on_lua_thread(fn, *args):
    """Run ``fn(*args)`` on the Lua thread and return its result (or raise its error)."""
    if threading.current_thread() is _thread:
        return fn(*args)
    if _thread is None:
        _start()
    done = _Done()
    _jobs.put((fn, args, done))
    while not done.wait(0.05):
        pass
    if done.error is not None:
        raise done.error
    return done.result
