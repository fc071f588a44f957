"""What the work-budget checks cost the benchmark programs.

    python -m benchmarks.check_cost [--rounds N] [--repeat N] [--filter TEXT]

Runs every pylua program of ``python -m benchmarks`` in child processes of
two kinds from the same code: **with** the checks, as shipped, and
**without** them, where this tool alone (never the product) switches them
off before anything is compiled: the check each translated function makes
on entry and per instruction run (``FunctionTranslator.charge``) emits
``pass``, and the VM's ``tickn`` and ``work`` (loop chunks' and library
work's charges) do nothing.  The calls to those two remain, so the figure
is a little lower than the checks' whole cost.  The kinds take turns for
``--rounds`` rounds; each program keeps its best CPU time per kind, and the
report gives the ratio with/without per program and the geometric mean over
each suite (the target: under 1.03).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

from benchmarks.impls import PyLua
from benchmarks.runner import discover, geomean

TARGET = 1.03


def _switch_checks_off():
    from pylua.compiler.translation.function import FunctionTranslator
    from pylua.runtime.state import VM
    FunctionTranslator.charge = lambda self: 'pass'
    VM.tickn = lambda self, n: None
    VM.work = lambda self, nbytes: None


def child(kind: str, names: list[str], repeat: int) -> dict:
    """Best CPU seconds of each program, in this process, with or without the checks."""
    if kind == 'without':
        _switch_checks_off()
    pylua = PyLua()
    programs = {p.name: p for p in discover()}
    best = {}
    for name in names:
        best[name] = min(pylua.run_once(programs[name].lua)[0] for _ in range(repeat))
    return best


def _run_child(kind: str, names: list[str], repeat: int) -> dict:
    out = subprocess.run([sys.executable, '-m', 'benchmarks.check_cost', '--child', kind,
                          '--repeat', str(repeat), '--filter', ','.join(names)],
                         capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(names: list[str], rounds: int, repeat: int, progress=None) -> dict:
    best = {'with': {}, 'without': {}}
    for r in range(rounds):
        for kind in ('with', 'without'):
            times = _run_child(kind, names, repeat)
            for name, t in times.items():
                best[kind][name] = min(t, best[kind].get(name, t))
            if progress:
                progress('round %d/%d %s checks done' % (r + 1, rounds, kind))
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog='python -m benchmarks.check_cost', description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=3, help='turns of each kind (default %(default)s)')
    parser.add_argument('--repeat', type=int, default=2, help='runs of each program per turn (default %(default)s)')
    parser.add_argument('--filter', help='as for python -m benchmarks')
    parser.add_argument('--child', choices=('with', 'without'), help=argparse.SUPPRESS)
    opts = parser.parse_args(argv)
    programs = discover(opts.filter)
    names = [p.name for p in programs]
    if opts.child:
        # The first run of a program also compiles it: not timed apart here,
        # as both kinds pay it alike.
        print(json.dumps(child(opts.child, names, opts.repeat)))
        return 0
    best = measure(names, opts.rounds, opts.repeat, lambda text: print(text, file=sys.stderr))
    print('| program | with s | without s | with/without |')
    print('|---|---|---|---|')
    ratios = {}
    for p in programs:
        w, wo = best['with'][p.name], best['without'][p.name]
        ratios[p.name] = w / wo
        print('| %s | %.3f | %.3f | %.3f |' % (p.name, w, wo, ratios[p.name]))
    for suite in sorted({p.suite for p in programs}):
        mean = geomean([ratios[p.name] for p in programs if p.suite == suite])
        print('%s: geometric mean with/without %.3f (target under %.2f: %s)' % (
            suite, mean, TARGET, 'met' if mean < TARGET else 'MISSED'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
