"""The cost of a fresh ``pylua.LuaRuntime()`` (sandbox profile, the default).

runvil creates one runtime per section, so creating one must be cheap:
target under 1 ms and under 300 KB.  Measured here:

* ``first_ms``: the first ``LuaRuntime()`` in the process (it may build
  caches shared by later runtimes);
* ``mean_ms`` / ``median_ms``: each of ``count`` further creations timed one
  by one (the runtime is dropped right away, so freeing it, and the garbage
  collections its cycles cause, are part of the cost, as they are in runvil);
* ``retained_kb``: memory still allocated while runtimes are alive, per
  runtime: ``keep`` runtimes are created and kept, and the traced memory
  (``tracemalloc``, after ``gc.collect()``) grows by ``keep * retained``;
* ``peak_kb``: the transient peak while creating one runtime.
* ``top``: optional; the allocation sites holding most of that memory.
"""
from __future__ import annotations

import gc
import statistics
import time
import tracemalloc

TARGET_MS = 1.0
TARGET_KB = 300.0


def measure(count: int = 1000, keep: int = 20, top: int = 0) -> dict:
    from pylua import LuaRuntime

    start = time.perf_counter()
    first = LuaRuntime()
    first_s = time.perf_counter() - start
    del first

    times = []
    perf = time.perf_counter
    for _ in range(count):
        start = perf()
        LuaRuntime()
        times.append(perf() - start)

    gc.collect()
    tracemalloc.start(25 if top else 1)
    try:
        gc.collect()
        before = tracemalloc.take_snapshot() if top else None
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        alive = [LuaRuntime()]
        peak = tracemalloc.get_traced_memory()[1] - base
        alive.extend(LuaRuntime() for _ in range(keep - 1))
        gc.collect()
        retained = (tracemalloc.get_traced_memory()[0] - base) / len(alive)
        sites = []
        if top:
            after = tracemalloc.take_snapshot()
            ignore = [tracemalloc.Filter(False, tracemalloc.__file__),
                      tracemalloc.Filter(False, __file__)]
            after = after.filter_traces(ignore)
            before = before.filter_traces(ignore)
            for stat in after.compare_to(before, 'lineno')[:top]:
                frame = stat.traceback[0]
                sites.append({'site': '%s:%d' % (frame.filename, frame.lineno),
                              'kb': stat.size_diff / len(alive) / 1024,
                              'count': stat.count_diff / len(alive)})
        del alive
    finally:
        tracemalloc.stop()

    return {
        'count': count,
        'keep': keep,
        'first_ms': first_s * 1e3,
        'mean_ms': statistics.fmean(times) * 1e3 if times else None,
        'median_ms': statistics.median(times) * 1e3 if times else None,
        'retained_kb': retained / 1024,
        'peak_kb': peak / 1024,
        'top': sites,
        'target_ms': TARGET_MS,
        'target_kb': TARGET_KB,
    }
