"""Python's cyclic collector paused while a chunk compiles.

Compiling allocates hundreds of thousands of objects that all live until
it ends (the parse tree, the prototypes, the translation's structure) and
almost no garbage, so every collection those allocations set off walks the
growing heap for nothing: about a quarter of the translation time of a
5,000-line chunk.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager


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
