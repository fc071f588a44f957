"""What the work-budget checks cost the benchmark programs.

    python -m benchmarks.check_cost [--rounds N] [--repeat N] [--filter TEXT]
    python -m benchmarks.check_cost --bytecodes [--filter TEXT]

Runs every pylua program of ``python -m benchmarks`` in ``--rounds`` child
processes, each running every program of two kinds from the same code, in
turns: **with** the checks, as shipped, and **without** them, where this
tool alone (never the product) switches them off.  In the code compiled
for that kind (each kind has its own compile cache) the translator emits
none of the checks: no count of a call's instructions
(``FunctionTranslator.charge``) nor of a short numeric ``for``'s
iterations (``range_charge``), no count of a loop's iterations (short
loops' ``LAPIT<units>``, a ``while True`` head for ``lap_loop``'s and
the bare iterator for ``lap_iterator``'s; a long body's countdown
``LAPS`` in ``loop_check`` or a jump back's count in
``iteration_charge``), and no ``nonlocal LAPS``
where nothing counts; and the VM's ``tickn``, ``work`` and
``count_call`` (long loops' chunks, library work, and the calls it makes
to Lua functions on its C stack) do nothing while it runs.  What remains are the calls to
those three (one per chunk of work or per such call), and a long numeric
``for``'s chunks.  Both kinds in one process,
taking turns ``--repeat`` times per program, are compared on the same
memory layout and hash seed (across processes those alone move a program
by up to 10%).  Each program keeps its best CPU time per kind, and the
report gives the ratio with/without per program and the geometric mean
over each suite (the target: under 1.03).

``--bytecodes`` counts instead of timing: in this process, each program of
each kind is run once to compile it, then once more under Python's opcode
tracing (``benchmarks.bytecode_count``), and the report gives the Python
bytecodes executed with the checks over those without, per program and as
each suite's geometric mean.  The count is deterministic (no load moves
it, nor the memory layout); it weighs every bytecode alike and a C call as
one, so it measures what the checks add to the hot paths, not their time.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

from benchmarks.impls import PyLua
from benchmarks.runner import discover, geomean

TARGET = 1.03
KINDS = ('with', 'without')


# The translator's methods that emit checks, and what they emit without them.
_UNCHECKED = {
    'charge': lambda self: None,
    'range_charge': lambda self, cost, count: None,
    'loop_check': lambda self, cost, pc: None,
    'iteration_charge': lambda self, cost: None,
    'lap_loop': lambda self, cost: None,
    'lap_iterator': lambda self, cost, it: None,
}


class _Kinds:
    """Switches the checks of the code compiled and run next on or off."""

    def __init__(self):
        from pylua.compiler import pipeline
        from pylua.compiler.translation.function import FunctionTranslator
        from pylua.runtime.state import VM
        self.pipeline, self.translator, self.vm = pipeline, FunctionTranslator, VM
        self.shipped = {name: getattr(FunctionTranslator, name) for name in _UNCHECKED}
        self.shipped_vm = {'tickn': VM.tickn, 'work': VM.work, 'count_call': VM.count_call}
        self.caches = {kind: pipeline.CompileCache() for kind in KINDS}

    def use(self, kind: str) -> None:
        on = kind == 'with'
        self.pipeline._CACHE = self.caches[kind]
        for name, unchecked in _UNCHECKED.items():
            setattr(self.translator, name, self.shipped[name] if on else unchecked)
        self.vm.tickn = self.shipped_vm['tickn'] if on else (lambda self, n: None)
        self.vm.work = self.shipped_vm['work'] if on else (lambda self, nbytes: None)
        self.vm.count_call = self.shipped_vm['count_call'] if on else (lambda self, f: None)


def child(names: list[str], repeat: int) -> dict:
    """Best CPU seconds of each program of each kind, in this process."""
    kinds = _Kinds()
    pylua = PyLua()
    programs = {p.name: p for p in discover()}
    best = {kind: {} for kind in KINDS}
    for name in names:
        for turn in range(repeat):
            for kind in (KINDS if turn % 2 == 0 else KINDS[::-1]):
                kinds.use(kind)
                seconds = pylua.run_once(programs[name].lua)[0]
                best[kind][name] = min(seconds, best[kind].get(name, seconds))
    kinds.use('with')
    return best


def count_bytecodes(names: list[str], progress=None) -> dict:
    """Python bytecodes executed by each program of each kind (the
    compiled code cached by an untraced run first, so compiling is not
    counted), in this process."""
    from benchmarks.bytecode_count import count
    kinds = _Kinds()
    pylua = PyLua()
    programs = {p.name: p for p in discover()}
    counts = {kind: {} for kind in KINDS}
    try:
        for name in names:
            for kind in KINDS:
                kinds.use(kind)
                expected = pylua.run_once(programs[name].lua)[1]
                counted, output = count(programs[name].lua)
                if output != expected:
                    raise RuntimeError('%s (%s) printed %r traced, %r untraced' % (name, kind, output, expected))
                counts[kind][name] = counted.total
            if progress:
                progress('%s: %d / %d' % (name, counts['with'][name], counts['without'][name]))
    finally:
        kinds.use('with')
    return counts


def _run_child(names: list[str], repeat: int) -> dict:
    out = subprocess.run([sys.executable, '-m', 'benchmarks.check_cost', '--child',
                          '--repeat', str(repeat), '--filter', ','.join(names)],
                         capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(names: list[str], rounds: int, repeat: int, progress=None) -> dict:
    best = {kind: {} for kind in KINDS}
    for r in range(rounds):
        times = _run_child(names, repeat)
        for kind in KINDS:
            for name, t in times[kind].items():
                best[kind][name] = min(t, best[kind].get(name, t))
        if progress:
            progress('round %d/%d done' % (r + 1, rounds))
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog='python -m benchmarks.check_cost', description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=2, help='child processes (default %(default)s)')
    parser.add_argument('--repeat', type=int, default=3,
                        help='turns of the two kinds per program in each (default %(default)s)')
    parser.add_argument('--filter', help='as for python -m benchmarks')
    parser.add_argument('--bytecodes', action='store_true',
                        help='count Python bytecodes executed instead of timing (deterministic)')
    parser.add_argument('--child', action='store_true', help=argparse.SUPPRESS)
    opts = parser.parse_args(argv)
    programs = discover(opts.filter)
    names = [p.name for p in programs]
    if opts.child:
        # The first run of a program of each kind also compiles it: not
        # timed apart here, as both kinds pay it alike.
        print(json.dumps(child(names, opts.repeat)))
        return 0
    progress = lambda text: print(text, file=sys.stderr)  # noqa: E731
    if opts.bytecodes:
        best = count_bytecodes(names, progress)
        print('| program | with bytecodes | without bytecodes | with/without |')
        row = '| %s | %d | %d | %.3f |'
    else:
        best = measure(names, opts.rounds, opts.repeat, progress)
        print('| program | with s | without s | with/without |')
        row = '| %s | %.3f | %.3f | %.3f |'
    print('|---|---|---|---|')
    ratios = {}
    for p in programs:
        w, wo = best['with'][p.name], best['without'][p.name]
        ratios[p.name] = w / wo
        print(row % (p.name, w, wo, ratios[p.name]))
    for suite in sorted({p.suite for p in programs}):
        mean = geomean([ratios[p.name] for p in programs if p.suite == suite])
        print('%s: geometric mean with/without %.3f (target under %.2f: %s)' % (
            suite, mean, TARGET, 'met' if mean < TARGET else 'MISSED'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
