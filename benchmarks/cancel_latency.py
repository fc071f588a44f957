"""How fast ``cancel()`` and count hooks reach hostile programs.

    python -m benchmarks.cancel_latency [--filter TEXT] [--offsets 0.3,0.45,0.6]
                                        [--markdown] [--json FILE]
    python -m benchmarks.cancel_latency --bottom 60000,220000

For each family of hostile program (``benchmarks.hostile_programs``: every
library family with big arguments, the compiler loading hard sources, and
recursion through metamethods, callbacks and coroutines, each in a loop of
``pcall``), the program runs in a fresh runtime on its own thread and is
cancelled once at each offset (seconds into the run); the time from
``cancel()`` to the ``LuaInterrupt`` is the latency.  Then the program runs
again under a count hook every 10,000 instructions for ``HOOK_SECONDS``,
and the longest gap between two hook calls (the first counted from the
start; in CPU time, between calls only) is its hook gap.  The report gives, per family, the median and worst
latency, in wall time and in CPU time of the Lua thread (what the
mechanism spends, steadier on a loaded machine), and the hook gap, in
milliseconds; the targets are 100 ms each.
Exit status 1 when a program ended otherwise than interrupted.

``--bottom`` measures the worst place instead: a cancel 200 levels above
the deepest a plain recursion and a ``__call`` recursion reach, under
each frame budget given (``pylua.set_stack_frames``).
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import threading
import time
from dataclasses import asdict, dataclass

from benchmarks.hostile_programs import (FAMILIES, HARD_SOURCES, RECURSION_LOOP, RECURSIONS,
                                         loading)

TARGET_MS = 100.0
OFFSETS = (0.3, 0.45, 0.6)
HOOK_EVERY = 10000
HOOK_SECONDS = 0.6
SCALE = 8           # the ``{n}`` of the library families


@dataclass(frozen=True)
class Hostile:
    """A family's program and the arguments its chunk gets."""
    name: str
    source: str
    args: tuple = ()


@dataclass(frozen=True)
class Stop:
    """How one cancelled run ended: seconds from ``cancel()`` to its end,
    in wall time and in CPU time of the Lua thread running it (None when
    the cancel came before that thread was known)."""
    latency: float
    cpu: float | None
    end: str

    @property
    def spent(self) -> float:
        """The latency the mechanism spent: CPU time when known, else wall time."""
        return self.latency if self.cpu is None else self.cpu


def every_family() -> list[Hostile]:
    programs = [Hostile(name, src.format(n=SCALE)) for name, src in sorted(FAMILIES.items())]
    programs += [Hostile('load: ' + name, loading(src)) for name, src in sorted(HARD_SOURCES.items())]
    programs += [Hostile('recursion ' + name, RECURSION_LOOP, (r.source,)) for name, r in RECURSIONS.items()]
    return programs


def _ending(exc) -> str:
    from pylua import LuaInterrupt
    if exc is None:
        return 'returned'
    if isinstance(exc, LuaInterrupt):
        return 'interrupted'
    return '%s: %s' % (type(exc).__name__, exc)


class _ThreadClock:
    """The CPU clock of the thread that calls ``note`` first (a count hook
    on the Lua thread): CPU time is what the mechanism spends, whatever
    else the machine runs."""

    def __init__(self):
        self.clock = None

    def note(self, count):
        if self.clock is None:
            self.clock = time.pthread_getcpuclockid(threading.get_ident())

    def read(self):
        return None if self.clock is None else time.clock_gettime(self.clock)


def _fresh_heap():
    """Collect the garbage of the runs before: a dropped runtime is freed by
    a full collection (its VM is in reference cycles), which would walk its
    whole heap inside the next program's measurement."""
    gc.collect()


def cancel_latency(src: str, delay: float, args: tuple = ()) -> Stop:
    """Run ``src`` in a fresh runtime, cancel it ``delay`` seconds in.  A
    program that ends before the cancel is reported as ended ``early: ...``."""
    from pylua import LuaRuntime
    _fresh_heap()
    rt = LuaRuntime()
    lua_thread = _ThreadClock()
    rt.set_hook(lua_thread.note, HOOK_EVERY)
    done = threading.Event()
    outcome = {}

    def run():
        error = None
        try:
            rt.execute(src, *args)
        except Exception as e:
            error = e
        outcome['at'] = time.perf_counter()
        outcome['cpu'] = lua_thread.read()
        outcome['end'] = _ending(error)
        done.set()

    threading.Thread(target=run, daemon=True).start()
    if done.wait(delay):
        return Stop(0.0, None, 'early: ' + outcome['end'])
    cpu = lua_thread.read()
    cancelled = time.perf_counter()
    rt.cancel()
    if not done.wait(30):
        return Stop(30.0, None, 'not stopped 30 s after cancel()')
    return Stop(outcome['at'] - cancelled, None if cpu is None else outcome['cpu'] - cpu, outcome['end'])


@dataclass(frozen=True)
class Gap:
    """The longest time between two calls of a count hook: in wall time
    (the first call counted from the start) and in the Lua thread's CPU
    time (between calls only)."""
    wall: float
    cpu: float | None


def hook_gap(src: str, seconds: float = HOOK_SECONDS, args: tuple = ()) -> Gap:
    """The longest gaps of a count hook while ``src`` runs for about ``seconds``."""
    from pylua import LuaInterrupt, LuaRuntime
    _fresh_heap()
    rt = LuaRuntime()
    walls, cpus = [], []
    start = time.perf_counter()

    def hook(count):
        walls.append(time.perf_counter())
        cpus.append(time.thread_time())
        if walls[-1] - start > seconds:
            raise LuaInterrupt('enough')
    rt.set_hook(hook, HOOK_EVERY)
    try:
        rt.execute(src, *args)
    except LuaInterrupt:
        pass
    if not walls:
        return Gap(time.perf_counter() - start, None)
    moments = [start] + walls
    return Gap(max(b - a for a, b in zip(moments, moments[1:])),
               max((b - a for a, b in zip(cpus, cpus[1:])), default=None))


# Recursions cancelled at their bottom (``bottom()`` is called LIMIT levels
# deep) and the programs finding how deep each gets.
BOTTOM_SHAPES = {
    'plain': 'local function f(n) if n == LIMIT then bottom() end return f(n + 1) + 1 end return f(1)',
    '__call': 'local mt = {} local a = setmetatable({n = 0}, mt) mt.__call = function(self) '
              'self.n = self.n + 1 if self.n == LIMIT then bottom() end local r = self() return r end return a()',
}
DEPTHS = {
    'plain': 'local n = 0 local function f() n = n + 1 return f() + 1 end pcall(f) return n',
    '__call': 'local n = 0 local mt = {} local a = setmetatable({}, mt) '
              'mt.__call = function(self) n = n + 1 local r = self() return r end pcall(a) return n',
}


@dataclass(frozen=True)
class Bottom:
    """A cancel made 200 levels above the deepest a recursion reaches: the
    longest unwind a cancel can wait for.  ``cpu``: seconds of the Lua
    thread's CPU time from ``cancel()`` to the host having the interrupt
    (read then, so it may include some of the freeing that follows)."""
    levels: int
    cpu: float


def cancel_at_bottom(shape: str) -> Bottom:
    from pylua import Builtin, LuaInterrupt, LuaRuntime
    rt = LuaRuntime()
    deepest = rt.execute(DEPTHS[shape])
    seen = {}

    def bottom(*_):
        seen['clock'] = time.pthread_getcpuclockid(threading.get_ident())
        seen['at'] = time.clock_gettime(seen['clock'])
        rt.cancel()
        return ()
    rt.globals()['bottom'] = Builtin(bottom, 'bottom')
    _fresh_heap()
    try:
        rt.execute(BOTTOM_SHAPES[shape].replace('LIMIT', str(deepest - 200)))
    except LuaInterrupt:
        return Bottom(deepest, time.clock_gettime(seen['clock']) - seen['at'])
    raise AssertionError('the recursion was not interrupted')


def bottoms(frames: list[int], runs: int = 3) -> list[str]:
    """Lines of the cancel-at-the-bottom latency for each frame budget."""
    from pylua import set_stack_frames, stack_frames
    lines = []
    was = stack_frames()
    try:
        for budget in frames:
            set_stack_frames(budget)
            for shape in BOTTOM_SHAPES:
                stops = [cancel_at_bottom(shape) for _ in range(runs)]
                cpu = _ms(s.cpu for s in stops)
                lines.append('frames %d  %-7s levels %6d  CPU ms median %.1f worst %.1f' % (
                    budget, shape, stops[0].levels, statistics.median(cpu), max(cpu)))
    finally:
        set_stack_frames(was)
    return lines


def _ms(values):
    return [v * 1000 for v in values if v is not None]


def measure(programs: list[Hostile], offsets=OFFSETS, hooks: bool = True, progress=None) -> dict:
    rows = []
    for p in programs:
        stops = [cancel_latency(p.source, delay, p.args) for delay in offsets]
        wall, cpu = _ms(s.latency for s in stops), _ms(s.cpu for s in stops)
        row = {'family': p.name, 'median_ms': statistics.median(wall), 'worst_ms': max(wall),
               'cpu_median_ms': statistics.median(cpu) if cpu else None,
               'cpu_worst_ms': max(cpu) if cpu else None,
               'stops': [asdict(s) for s in stops],
               'hook_gap_ms': None, 'cpu_hook_gap_ms': None}
        if hooks:
            gap = hook_gap(p.source, args=p.args)
            row['hook_gap_ms'] = gap.wall * 1000
            row['cpu_hook_gap_ms'] = None if gap.cpu is None else gap.cpu * 1000
        rows.append(row)
        if progress:
            progress(row)
    medians = [r['median_ms'] for r in rows]
    return {'load': os.getloadavg()[0], 'offsets': list(offsets), 'families': rows,
            'median_ms': statistics.median(medians) if medians else None,
            'failures': [(r['family'], s['end']) for r in rows for s in r['stops'] if s['end'] != 'interrupted']}


def _cell(value) -> str:
    return '-' if value is None else '%.1f' % value


def _line(row) -> list[str]:
    return [row['family']] + [_cell(row[k]) for k in
                              ('median_ms', 'worst_ms', 'cpu_median_ms', 'cpu_worst_ms', 'hook_gap_ms',
                               'cpu_hook_gap_ms')]


HEADERS = ['family', 'median ms', 'worst ms', 'CPU median ms', 'CPU worst ms', 'hook gap ms', 'CPU hook gap ms']


def format_markdown(results: dict) -> str:
    lines = ['| %s |' % ' | '.join(HEADERS), '|---' * len(HEADERS) + '|']
    lines += ['| %s |' % ' | '.join(_line(r)) for r in results['families']]
    return '\n'.join(lines)


def _summary(results: dict) -> str:
    rows = results['families']

    def over(key):
        return ', '.join(r['family'] for r in rows if r[key] is not None and r[key] > TARGET_MS) or 'none'
    lines = ['load average %.1f; cancels at %s s; median over all families %.1f ms' % (
        results['load'], ', '.join('%g' % o for o in results['offsets']), results['median_ms'] or 0)]
    lines.append('worst over %.0f ms: %s' % (TARGET_MS, over('worst_ms')))
    lines.append('CPU worst over %.0f ms: %s' % (TARGET_MS, over('cpu_worst_ms')))
    lines.append('hook gap over %.0f ms: %s' % (TARGET_MS, over('hook_gap_ms')))
    lines.append('CPU hook gap over %.0f ms: %s' % (TARGET_MS, over('cpu_hook_gap_ms')))
    for family, end in results['failures']:
        lines.append('!!! %s ended %s' % (family, end))
    return '\n'.join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog='python -m benchmarks.cancel_latency', description=__doc__.split('\n\n')[0])
    parser.add_argument('--filter', help='only families whose names contain one of these comma-separated parts')
    parser.add_argument('--offsets', default=','.join('%g' % o for o in OFFSETS),
                        help='seconds into each run at which to cancel (default %(default)s)')
    parser.add_argument('--no-hooks', action='store_true', help='skip the hook-gap runs')
    parser.add_argument('--markdown', action='store_true', help='print the table as Markdown')
    parser.add_argument('--json', metavar='FILE', help='also write every measurement')
    parser.add_argument('--bottom', metavar='FRAMES',
                        help='instead: cancel recursions at their bottom under these comma-separated frame budgets')
    opts = parser.parse_args(argv)
    if opts.bottom:
        print('load average %.1f' % os.getloadavg()[0])
        print('\n'.join(bottoms([int(f) for f in opts.bottom.split(',')])))
        return 0
    programs = every_family()
    if opts.filter:
        parts = [p.strip() for p in opts.filter.split(',') if p.strip()]
        programs = [p for p in programs if any(part in p.name for part in parts)]
    offsets = tuple(float(o) for o in opts.offsets.split(','))

    def progress(row):
        print('  '.join('%s %s' % (h, c) for h, c in zip(HEADERS, _line(row))), file=sys.stderr)
    results = measure(programs, offsets, not opts.no_hooks, progress)
    if opts.markdown:
        print(format_markdown(results))
    print(_summary(results))
    if opts.json:
        with open(opts.json, 'w', encoding='utf-8') as f:
            json.dump(results, f, indent=1)
    return 1 if results['failures'] else 0


if __name__ == '__main__':
    sys.exit(main())
