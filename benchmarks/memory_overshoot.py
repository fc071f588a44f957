"""How far the process's resident memory grows past the memory ceiling.

    python -m benchmarks.memory_overshoot [--ceiling MIB] [--filter TEXT] [--markdown]

Each allocator of ``benchmarks.hostile_programs`` (``KEEPING``: kept until
the memory error; ``LOADING``: chunks loaded until ``load`` refuses one;
``DROPPING``: garbage, completing) runs in a fresh Python
process, after a warm-up, under ``LuaRuntime(max_memory=ceiling)``; the
growth of the process's peak resident memory divided by the ceiling is its
factor (the API docs state at most 3).  Python's own object overhead and
the allocator's slack count, as resident memory is what an embedder pays.
Exit status 1 when an allocator ended otherwise than expected.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

from benchmarks.hostile_programs import ALLOCATORS, KEEPING, LOAD_REFUSED, LOADING

FACTOR = 3
CEILING_MIB = 64

# The child: warm up, then run each program in a fresh runtime and report
# the peak resident memory's growth over the ceiling.
_MEASURE = r'''
import json, resource, sys
from pylua import LuaError, LuaRuntime, LuaMemoryError
ceiling, programs = int(sys.argv[1]), json.loads(sys.argv[2])
LuaRuntime(max_memory=ceiling).execute('local t = {} for i = 1, 1000 do t[i] = {tostring(i)} end')
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
ends = []
for src in programs:
    try:
        LuaRuntime(max_memory=ceiling).execute('local t = {} ' + src)
        ends.append('completed')
    except LuaMemoryError:
        ends.append('memory error')
    except LuaError as e:
        ends.append('error: %s' % e.value)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({'factor': (peak - base) / ceiling, 'ends': ends}))
'''


def measure(programs: list[str], ceiling_mib: int) -> dict:
    """Run ``programs`` one after another in one fresh process: the
    factor of their peak growth over the ceiling, and how each ended."""
    out = subprocess.run([sys.executable, '-c', _MEASURE, str(ceiling_mib << 20), json.dumps(programs)],
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return json.loads(out.stdout)


def expected_end(name: str) -> str:
    return 'memory error' if name in KEEPING else LOAD_REFUSED if name in LOADING else 'completed'


def measure_each(names: list[str], ceiling_mib: int, progress=None) -> list[dict]:
    rows = []
    for name in names:
        result = measure([ALLOCATORS[name]], ceiling_mib)
        row = {'allocator': name, 'factor': result['factor'], 'end': result['ends'][0]}
        rows.append(row)
        if progress:
            progress(row)
    return rows


def format_markdown(rows: list[dict]) -> str:
    lines = ['| allocator | factor | end |', '|---|---|---|']
    lines += ['| %s | %.2f | %s |' % (r['allocator'], r['factor'], r['end']) for r in rows]
    return '\n'.join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog='python -m benchmarks.memory_overshoot',
                                     description=__doc__.split('\n\n')[0])
    parser.add_argument('--ceiling', type=int, default=CEILING_MIB, help='MiB (default %(default)s)')
    parser.add_argument('--filter', help='only allocators whose names contain one of these comma-separated parts')
    parser.add_argument('--markdown', action='store_true', help='print the table as Markdown')
    opts = parser.parse_args(argv)
    names = list(ALLOCATORS)
    if opts.filter:
        parts = [p.strip() for p in opts.filter.split(',') if p.strip()]
        names = [n for n in names if any(part in n for part in parts)]
    rows = measure_each(names, opts.ceiling, lambda r: print('%-30s factor %.2f  %s' % (
        r['allocator'], r['factor'], r['end']), file=sys.stderr))
    if opts.markdown:
        print(format_markdown(rows))
    worst = max(rows, key=lambda r: r['factor'])
    print('ceiling %d MiB; worst factor %.2f (%s); target at most %d' % (
        opts.ceiling, worst['factor'], worst['allocator'], FACTOR))
    wrong = [r for r in rows if r['end'] != expected_end(r['allocator'])]
    for r in wrong:
        print('!!! %s ended %s' % (r['allocator'], r['end']))
    return 1 if wrong else 0


if __name__ == '__main__':
    sys.exit(main())
