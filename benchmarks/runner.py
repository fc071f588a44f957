"""Command line and orchestration of the pylua benchmark suite.

    python -m benchmarks [--repeat N | --quick] [--filter TEXT] [--json FILE]
                         [--markdown] [--impl NAMES] [--lua PATH] ...

Runs every ``NAME.lua`` / ``NAME.py`` pair of every suite (``SUITES``: the
core programs in ``benchmarks/programs/``, the object-oriented ones in
``benchmarks/programs/oo/``) on CPython, pylua and lua5.4, checks that all
outputs agree, prints a table of best times (CPU time unless ``--clock
wall``) with the ratios pylua/CPython and pylua/lua5.4 and each suite's
geometric means, then the cost of a fresh ``LuaRuntime()``.  Exit status: 0 when every
implementation that ran printed the same result for every program, 1 when an
output differs or a program failed, 2 for a usage error.  pylua or lua5.4
being absent is reported ("n/a"), not a failure.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
from dataclasses import dataclass
from pathlib import Path

from benchmarks import report
from benchmarks.impls import (Clock, CPython, Impl, Lua54, Program, PyLua,
                              Run, time_program)

PROGRAMS_DIR = Path(__file__).resolve().parent / 'programs'


@dataclass(frozen=True)
class Suite:
    """A set of programs with its own geometric mean and targets."""
    name: str
    directory: Path
    title: str
    target_geomean: float
    target_max: float


# The core targets are the first issue's maximum and issue 16's geometric
# mean; the object-oriented set's are issue 16's.
SUITES = (
    Suite('core', PROGRAMS_DIR, 'core programs', 2.0, 6.0),
    Suite('oo', PROGRAMS_DIR / 'oo', 'object-oriented programs', 2.5, 4.0),
)

IMPL_NAMES = {'cpython': 'CPython', 'python': 'CPython', 'pylua': 'pylua',
              'lua': 'lua5.4', 'lua5.4': 'lua5.4'}


def discover(filter_text: str | None = None) -> list[Program]:
    """Every pair NAME.lua / NAME.py of every suite, suite by suite, sorted
    by name; a program outside the core suite is named SUITE/NAME.
    ``filter_text`` is a comma-separated list of parts; a part that is the
    exact name of a program selects that program, any other part selects
    the programs whose names contain it."""
    programs = []
    for suite in SUITES:
        prefix = '' if suite is SUITES[0] else suite.name + '/'
        for lua in sorted(suite.directory.glob('*.lua')):
            py = lua.with_suffix('.py')
            if py.exists():
                programs.append(Program(prefix + lua.stem, lua, py,
                                        _description(lua), suite.name))
    if not filter_text:
        return programs
    names = {p.name for p in programs}
    parts = [part.strip() for part in filter_text.split(',') if part.strip()]
    return [p for p in programs
            if any(p.name == part if part in names else part in p.name
                   for part in parts)]


def _description(lua: Path) -> str:
    """The leading ``--`` comment of a Lua program, as one line."""
    words = []
    for line in lua.read_text(encoding='utf-8').splitlines():
        if not line.startswith('--'):
            break
        words.append(line[2:].strip())
    return ' '.join(words)


def geomean(values: list[float]) -> float | None:
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _machine(repeat: int, lua: Lua54, clock: Clock) -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        with open('/proc/cpuinfo', encoding='utf-8') as f:
            for line in f:
                if line.startswith('model name'):
                    cpu = line.split(':', 1)[1].strip()
                    break
    except OSError:
        pass
    info = {
        'python': platform.python_version(),
        'python_implementation': platform.python_implementation(),
        'platform': platform.platform(),
        'cpu': cpu,
        'cpus': os.cpu_count(),
        'lua': lua.version,
        'repeat': repeat,
        'clock': clock.value,
        'load': os.getloadavg()[0],
    }
    info['summary'] = '%s %s, %s, %s, %s CPUs (load %.1f); best of %d, %s time' % (
        info['python_implementation'], info['python'],
        (lua.version or 'no lua5.4').split('  ')[0], cpu, info['cpus'],
        info['load'], repeat, 'CPU' if clock is Clock.CPU else 'wall')
    return info


def _check(program: Program, runs: dict[str, Run], impls: dict[str, Impl]):
    """Compare the outputs: the reference is CPython's, else lua5.4's.
    Returns (short problems for the table, detailed lines for the notes)."""
    problems, details = [], []
    for name, run in runs.items():
        if impls[name].available and run.error:
            problems.append('ERROR ' + name)
            details.append('%s failed: %s' % (name, run.error))
    reference = None
    for name in ('CPython', 'lua5.4'):
        if runs[name].output is not None and not runs[name].error:
            reference = name
            break
    if reference is None:
        return problems, details
    expected = runs[reference].output
    for name, run in runs.items():
        if name == reference or run.error or run.output is None:
            continue
        if run.output != expected:
            problems.append('MISMATCH ' + name)
            details.append('OUTPUT MISMATCH: %s printed %r but %s printed %r'
                           % (name, run.output, reference, expected))
    return problems, details


def _ratio(runs: dict[str, Run], num: str, den: str, problems: list[str]):
    a, b = runs[num], runs[den]
    if a.time is None or b.time is None:
        return None
    if any(p.endswith(' ' + num) or p.endswith(' ' + den) for p in problems):
        return None        # a wrong or failed result has no meaningful time
    return a.time / b.time


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog='python -m benchmarks',
        description='Time the pylua benchmark programs on pylua, CPython and '
                    'lua5.4, check that they agree, and report the ratios.')
    p.add_argument('--repeat', type=int, default=3, metavar='N',
                   help='runs per program and implementation; the best counts '
                        '(default 3)')
    p.add_argument('--quick', action='store_true',
                   help='one run each (same as --repeat 1) and fewer runtime '
                        'creations')
    p.add_argument('--filter', metavar='TEXT',
                   help='only programs whose name contains TEXT '
                        '(comma-separated alternatives)')
    p.add_argument('--impl', metavar='NAMES',
                   help='comma-separated subset of cpython,pylua,lua5.4 '
                        '(default: all)')
    p.add_argument('--clock', choices=[c.value for c in Clock], default='cpu',
                   help="what a time measures: the process's CPU time (default; "
                        'a shared machine disturbs it least) or wall time')
    p.add_argument('--lua', metavar='PATH',
                   help='the reference interpreter (default: lua5.4 on PATH)')
    p.add_argument('--budget', type=float, default=60.0, metavar='SECONDS',
                   help='stop repeating a program on one implementation once '
                        'its runs took this long in total (default 60)')
    p.add_argument('--json', metavar='FILE',
                   help='also write all results (every time, every output) '
                        'as JSON to FILE')
    p.add_argument('--markdown', action='store_true',
                   help='print the report as Markdown (for the README)')
    p.add_argument('--runtime-count', type=int, default=1000, metavar='N',
                   help='fresh LuaRuntime() creations to average (default 1000)')
    p.add_argument('--runtime-top', type=int, default=0, metavar='N',
                   help='also list the N allocation sites holding most of a '
                        "fresh runtime's memory")
    p.add_argument('--no-runtime', action='store_true',
                   help='skip the fresh LuaRuntime() measurement')
    p.add_argument('--no-translation', action='store_true',
                   help='skip the translation-time measurement')
    p.add_argument('--list', action='store_true',
                   help='list the programs and what they measure, then exit')
    args = p.parse_args(argv)
    if args.quick:
        args.repeat = 1
        args.runtime_count = min(args.runtime_count, 200)
    if args.repeat < 1:
        p.error('--repeat must be at least 1')
    selected = set(IMPL_NAMES.values())
    if args.impl:
        selected = set()
        for part in args.impl.split(','):
            part = part.strip().lower()
            if part not in IMPL_NAMES:
                p.error('unknown implementation %r (choose from cpython, '
                        'pylua, lua5.4)' % part)
            selected.add(IMPL_NAMES[part])
    args.selected = selected
    return args


def _progress(text: str, end: str = '\n'):
    print(text, end=end, file=sys.stderr, flush=True)


def _measure_runtime(args) -> dict:
    try:
        from benchmarks import runtime_cost
        return runtime_cost.measure(count=args.runtime_count,
                                    top=args.runtime_top)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - pylua may be half-built
        return {'error': '%s: %s' % (type(exc).__name__, exc)}


def _measure_translation(args) -> dict:
    try:
        from benchmarks import translation_cost
        return translation_cost.measure(repeat=args.repeat)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - pylua may be half-built
        return {'error': '%s: %s' % (type(exc).__name__, exc)}


def _summarize(suite: Suite, rows: list[dict]) -> dict:
    """One suite's geometric means and worst program, with its targets."""
    vs_cpython = [(r['pylua_cpython'], r['name']) for r in rows
                  if r['pylua_cpython'] is not None]
    vs_lua = [r['pylua_lua'] for r in rows if r['pylua_lua'] is not None]
    worst = max(vs_cpython, default=(None, None))
    return {
        'suite': suite.name,
        'title': suite.title,
        'programs': len(rows),
        'geomean_pylua_cpython': geomean([v for v, _ in vs_cpython]),
        'n_pylua_cpython': len(vs_cpython),
        'max_pylua_cpython': worst[0],
        'max_program': worst[1],
        'geomean_pylua_lua': geomean(vs_lua),
        'n_pylua_lua': len(vs_lua),
        'geomean_lua_cpython': geomean([r['lua_cpython'] for r in rows]),
        'target_geomean': suite.target_geomean,
        'target_max': suite.target_max,
    }


def run_suite(args) -> dict:
    programs = discover(args.filter)
    clock = Clock(args.clock)
    cpython = CPython(clock)
    pylua = PyLua(clock) if 'pylua' in args.selected else None
    lua = Lua54(args.lua, clock=clock)
    impls: dict[str, Impl] = {'CPython': cpython, 'pylua': pylua, 'lua5.4': lua}
    for name in ('CPython', 'pylua', 'lua5.4'):
        if impls[name] is None:
            impls[name] = Impl()
            impls[name].name = name
        if name not in args.selected:
            impls[name].available = False
            impls[name].reason = 'not selected (--impl)'

    impl_info = {name: {'available': impl.available, 'reason': impl.reason}
                 for name, impl in impls.items()}
    if isinstance(pylua, PyLua) and pylua.import_seconds is not None:
        impl_info['pylua']['import_ms'] = pylua.import_seconds * 1e3
    if lua.available:
        impl_info['lua5.4']['exe'] = lua.exe
        impl_info['lua5.4']['version'] = lua.version
        impl_info['lua5.4']['startup_ms'] = lua.measure_startup() * 1e3

    results = {'machine': _machine(args.repeat, lua, clock),
               'impls': impl_info,
               'programs': [],
               'runtime': None,
               'translation': None}

    # The fresh-runtime cost first, while the process is clean.
    if not args.no_runtime and 'pylua' in args.selected:
        _progress('measuring fresh LuaRuntime() cost ...')
        results['runtime'] = _measure_runtime(args)

    if not args.no_translation and 'pylua' in args.selected:
        _progress('measuring translation time ...')
        results['translation'] = _measure_translation(args)

    for program in programs:
        runs = time_program(program, impls, args.repeat, args.budget, _progress)
        problems, details = _check(program, runs, impls)
        results['programs'].append({
            'name': program.name,
            'suite': program.suite,
            'description': program.description,
            'runs': {name: run.as_dict() for name, run in runs.items()},
            'problems': problems,
            'details': details,
            'pylua_cpython': _ratio(runs, 'pylua', 'CPython', problems),
            'pylua_lua': _ratio(runs, 'pylua', 'lua5.4', problems),
            'lua_cpython': _ratio(runs, 'lua5.4', 'CPython', problems),
        })

    results['suites'] = [_summarize(suite, [r for r in results['programs']
                                            if r['suite'] == suite.name])
                         for suite in SUITES]
    results['ok'] = not any(r['problems'] for r in results['programs'])
    return results


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.list:
        for program in discover(args.filter):
            print('%-14s %s' % (program.name, program.description))
        return 0
    if not discover(args.filter):
        print('no benchmark program matches %r' % args.filter, file=sys.stderr)
        return 2
    results = run_suite(args)
    text = (report.format_markdown if args.markdown else report.format_text)(results)
    sys.stdout.write(text)
    if args.json:
        with open(args.json, 'w', encoding='utf-8') as f:
            json.dump(results, f, indent=2)
            f.write('\n')
    return 0 if results['ok'] else 1
