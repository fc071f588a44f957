"""Where pylua's time goes on one benchmark program.

    python -m benchmarks.pylua_profile PROGRAM [--top N] [--rate HZ]
                                       [--source FILE] [--cprofile] [--record FILE]

PROGRAM is a benchmark name (``oo/richards``) or a ``.lua`` path.  A child
process compiles the program (timed on its own) and runs it once while the
sampling profiler py-spy (``pip install py-spy``; not a project dependency)
reads its stacks from outside, ``--rate`` times a second.  Each sample of
the run has

* an innermost frame: a line of the generated Python, named by its *shape*
  (see ``SHAPES``), or else a runtime or library helper, named by the
  function the generated code called (its callees' time included);
* the innermost generated line on the stack, to which a helper's time is
  charged as well, and the Lua function it belongs to.

The report gives the share of samples by mechanism (``GROUPS``: the shapes
and helpers one proposed change would act on), by shape, by Lua function
and by generated line (with its Lua line and text).  ``--source FILE``
writes the generated Python so that each reported line can be read in
context.  ``--cprofile`` also runs the program in a second child under
cProfile on the Lua thread (C functions folded into their callers) for
exact call counts; its times are inflated by the profiler's cost per
Python call.  ``--record FILE`` keeps the samples, so that the report can
be made again (say, after changing ``SHAPES``) without running again.

py-spy reads each frame's exact instruction, so unlike a sampler inside the
process it has no bias towards the points where a thread gives up the GIL.

This reads pylua's internals (the translator, for the generated source and
its functions' names) because no public API shows them.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.runner import discover

# (shape, pattern) for a line of generated Python; the first match names
# the line.  Lines matching none are "other".  A read of a string key from a
# register's own hash (``r3 = r1.hash.get('k')``) is named by the key: a
# method lookup's first probe when the program defines a function under that
# name, a field read otherwise.
_OWN_READ = re.compile(r"^\w+ = (?:r\d+|_o)\.hash\.get\('(?P<key>\w+)'\)")
SHAPES = (
    ('call: entry (frame set-up, argument binding)', re.compile(r'^def [PQ]\d+_\d+\(')),
    ('call: return', re.compile(r'^return\b')),
    # the short loops' and calls' countdown, the budget and its checks
    ('instruction budget', re.compile(r'\b(?:LAPS|TICKN?)\b')),
    ('table constructor', re.compile(r'= (?:Table\(|NEW\(Table\))')),
    ('allocation charge', re.compile(r'\bDEBT\b|CHARGE\(')),
    ('generic for: set-up and step', re.compile(r'forgen\(|^for \w+(, \w+)* in ')),
    ('string concatenation', re.compile(r'concat_plain(?:ly)?\(|concat\(\(')),
    ('equality: __eq test', re.compile(r'__class__ is Table or \w+\.__class__ is Userdata')),
    ('__index chain: metatable __index read', re.compile(r"\.meta\.hash\.get\('__index'\)")),
    ('__index chain: index_chain/index_miss call', re.compile(r'index_chain\(|index_miss(?:_plainly)?\(')),
    ('__index chain: class table probe', re.compile(r'^\w+ = _h\d+\.hash\.get\(')),
    ('__index chain: miss test', re.compile(r'is None and \w+\.meta is not None')),
    ('__index chain: cache probe', re.compile(r'\.lookups(?:\.get\(|\[)|LOOKUPS\[')),
    # A key facts.held_fields says reads usually find: subscript, and its miss.
    ('field read: held key, subscript', re.compile(r"^try: \w+ = (?:r\d+|_o)\.hash\['\w+'\]$")),
    ('field read: held key missed (KeyError)', re.compile(r'^except KeyError:$')),
    ('field write: guard', re.compile(r"\.meta is None or '|__newindex")),
    ('field write: store', re.compile(r"\w+\.hash\[.+\] = |\.hash\.pop\(")),
    ('array read/write', re.compile(r'\.arr\b|\[\w+ - 1\]')),
    ('type guard', re.compile(r'\.__class__ is (Table|int|float|str)\b.*:$|^else: ')),
    ('call: result fitting', re.compile(r'_R\b.*(tuple|\[0\])|return \(\)$|tuple\(_R\)|adjust\(')),
    ('call: argument refit', re.compile(r'except TypeError|refit\(')),
    ('call: invoke', re.compile(r'__class__ is FN|__class__ is Builtin|_R = |return \w+\(|\.fn\(|call\(')),
    ('arithmetic', re.compile(r' [-+*/%] |//|arith')),
    ('comparison/branch', re.compile(r'^(if|elif|while) |^break|^continue|^\w+ = .* (<|<=|>|>=|==|!=) ')),
    ('register move', re.compile(r'^[\w, ]+ = [\w, ]+$')),
)
# What the proposed mechanisms would act on: (group, shape prefixes).
# A helper shape is "helper FILE:FUNCTION"; a helper no group claims is
# grouped by its file.
GROUPS = (
    ('class lookups (__index chains)', ('method lookup:', '__index chain:',
                                        'helper ops.py:index_chain', 'helper ops.py:index_miss')),
    # the generated code calls ops.index only for a receiver that is not a
    # table: here, a string's method (s:sub) through the string metatable
    ('lookups on non-tables (s:method)', ('helper ops.py:index',)),
    ('own fields (reads and writes)', ('field read:', 'field write:', 'helper ops.py:set_plain',
                                       'helper ops.py:setindex')),
    ('type guards', ('type guard',)),
    ('calls (entry, invoke, results, refit)', ('call:', 'helper ops.py:call', 'helper ops.py:refit',
                                               'helper ops.py:fit_args', 'helper ops.py:finish',
                                               'helper values.py:run')),
    ('instruction budget and allocation charges', ('instruction budget', 'allocation charge',
                                                   'helper state.py:', 'helper threading.py:',
                                                   'helper memory.py:')),
    ('object creation (table constructors, setmetatable)', ('table constructor',
                                                            'helper table.py:__init__',
                                                            'helper base.py:setmetatable')),
    ('generic for (ipairs, pairs)', ('generic for:', 'helper ops.py:forgen', 'helper base.py:ipairs',
                                     'helper base.py:pairs', 'helper base.py:next')),
    ('strings (concat, tostring, string library)', ('string concatenation', 'helper string.py:', 'helper strformat.py:',
                                                    'helper lpattern.py:', 'helper ops.py:concat',
                                                    'helper ops.py:tostr', 'helper numbers.py:tostr')),
    ('arrays, #t, table library', ('array read/write', 'helper table.py:', 'helper ops.py:length',
                                   'helper ops.py:setlist')),
    ('arithmetic, comparisons, moves', ('arithmetic', 'comparison/branch', 'register move',
                                        'equality:',
                                        'helper ops.py:arith', 'helper ops.py:lt',
                                        'helper ops.py:le', 'helper ops.py:eq',
                                        'helper ops.py:comparison_plainly',
                                        'helper numbers.py:')),
)


def group_of(shape: str) -> str:
    for name, prefixes in GROUPS:
        if shape.startswith(prefixes):
            return name
    if shape.startswith('helper '):
        return 'other helpers: ' + shape[len('helper '):].split(':')[0]
    return 'other'


_DEFINED = re.compile(rb'function\s+[\w.]+[:.](\w+)\s*\(')


def defined_methods(source: bytes) -> set[str]:
    """The names the program defines functions under (``function C:m(``)."""
    return {m.decode('latin-1') for m in _DEFINED.findall(source)}


def shape_of(line: str, methods: frozenset = frozenset()) -> str:
    text = line.strip()
    own = _OWN_READ.match(text)
    if own:
        return ('method lookup: instance hash probe' if own['key'] in methods
                else 'field read: own hash')
    for name, pattern in SHAPES:
        if pattern.search(text):
            return name
    return 'other'


@dataclass
class Generated:
    """The generated Python of one chunk, as the translator makes it: the
    same text as the running code's, except the per-translation number in
    function names."""
    lines: list[str]
    lua_lines: list[int]
    methods: frozenset = frozenset()

    def text(self, line: int) -> str:
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ''

    def lua_line(self, line: int) -> int:
        return self.lua_lines[line] if 0 <= line < len(self.lua_lines) else 0


def translate_source(source: str, chunkname: str):
    """The translator's output for a chunk (a ``Translation``)."""
    from pylua.compiler.codegen import compile_chunk
    from pylua.compiler.parser import parse
    from pylua.compiler.translation import translate
    return translate(compile_chunk(parse(source, chunkname, from_file=False)))


@dataclass
class Samples:
    total: int = 0
    shapes: Counter = field(default_factory=Counter)      # shape or helper -> samples
    lines: Counter = field(default_factory=Counter)       # generated line -> samples, helpers included
    functions: Counter = field(default_factory=Counter)   # Lua function -> samples, helpers included


# One frame of py-spy's raw output: "function (file:line)".
_FRAME = re.compile(r'^(?P<function>.*) \((?P<file>[^()]*):(?P<line>\d+)\)$')
# A generated function: the plain form Q<translation>_<n> or the generator form P...
_GENERATED = re.compile(r'(?:^|\.)(?P<form>[PQ])\d+_(?P<n>\d+)$')


# Helpers that only run a generator to its end: a sample in one is named
# by the generator it runs (``SYNC(index(...))`` is ``ops.py:index``).
TRAMPOLINES = {'ops.py:sync', 'values.py:run'}
_SYNC_OF = re.compile(r'SYNC\((?P<generator>\w+)\(')


def _helper(frames: list, depth: int) -> str | None:
    """The helper the generated code called at ``depth`` of the stack."""
    name = None
    while depth < len(frames) and frames[depth]:
        frame = frames[depth]
        name = '%s:%s' % (os.path.basename(frame['file']), frame['function'].rsplit('.', 1)[-1])
        if name not in TRAMPOLINES:
            break
        depth += 1
    return name


def read_samples(raw: str, generated: Generated, functions: dict[int, str]) -> Samples:
    """Count py-spy's collapsed stacks ("frame;frame;... count", innermost
    last) of the run: the stacks with a generated frame."""
    s = Samples()
    for record in raw.splitlines():
        stack, _, count = record.rpartition(' ')
        if not count.isdigit():
            continue
        frames = [_FRAME.match(f) for f in stack.split(';')]
        lua = None
        for depth in range(len(frames) - 1, -1, -1):
            frame = frames[depth]
            # Generated code is named "<chunk.lua F0_0>" (chunk, then its translation).
            if frame and frame['file'].endswith('>') and '.lua' in frame['file']:
                lua = depth
                break
        if lua is None:
            continue
        n = int(count)
        frame = frames[lua]
        line = int(frame['line'])
        kind = _GENERATED.search(frame['function'])
        s.total += n
        if lua == len(frames) - 1:
            if kind and kind['form'] == 'P':
                s.shapes['generator form'] += n
            else:
                s.shapes[shape_of(generated.text(line), generated.methods)] += n
        else:
            name = _helper(frames, lua + 1) or stack.split(';')[lua + 1]
            started = _SYNC_OF.search(generated.text(line))
            if name == 'ops.py:sync' and started:
                name = 'ops.py:' + started['generator']   # the generator starting or ending
            s.shapes['helper ' + name] += n
        s.lines[line] += n
        s.functions[functions.get(int(kind['n']), '?') if kind else '?'] += n
    return s


@dataclass
class Profile:
    program: str
    compile_seconds: float
    run_seconds: float
    samples: Samples
    generated: Generated
    output: str
    cprofile: str | None = None


def _resolve(name: str) -> Path:
    path = Path(name)
    if path.suffix == '.lua' and path.exists():
        return path
    for program in discover():
        if program.name == name:
            return program.lua
    raise SystemExit('no benchmark program %r (see python -m benchmarks --list)' % name)


def _py_spy() -> str:
    here = Path(sys.executable).parent / 'py-spy'
    found = str(here) if here.exists() else shutil.which('py-spy')
    if found is None:
        raise SystemExit('py-spy not found: pip install py-spy')
    return found


def profile(path: Path, rate: int = 500, with_cprofile: bool = False,
            record: Path | None = None) -> Profile:
    """Run ``path`` once in a child process under py-spy (and, for
    ``with_cprofile``, once more in another child under cProfile).  With
    ``record``, the samples and the run's data are kept in that file, and
    when the file exists they are read from it instead of running."""
    if record is not None and record.exists():
        data = json.loads(record.read_text(encoding='utf-8'))
    else:
        data = _record(path, rate, with_cprofile)
        if record is not None:
            record.write_text(json.dumps(data), encoding='utf-8')
    run = data['run']
    generated = Generated(run['source'].split('\n'), run['lua_lines'],
                          frozenset(defined_methods(path.read_bytes())))
    functions = {int(n): what for n, what in run['functions'].items()}
    samples = read_samples(data['stacks'], generated, functions)
    return Profile(str(path), run['compile_seconds'], run['run_seconds'], samples, generated,
                   run['output'], data['cprofile'])


def _record(path: Path, rate: int, with_cprofile: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        raw, info = Path(tmp) / 'stacks.txt', Path(tmp) / 'run.json'
        child = [sys.executable, '-m', 'benchmarks.pylua_profile', '--child', str(info), str(path)]
        subprocess.run([_py_spy(), 'record', '--rate', str(rate), '--format', 'raw',
                        '--output', str(raw), '--', *child],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        data = {'run': json.loads(info.read_text(encoding='utf-8')),
                'stacks': raw.read_text(encoding='utf-8'), 'cprofile': None}
        if with_cprofile:
            subprocess.run([*child, '--cprofile'], check=True, stdout=subprocess.DEVNULL)
            data['cprofile'] = json.loads(info.read_text(encoding='utf-8'))['cprofile']
    return data


def child(info: Path, path: Path, with_cprofile: bool) -> None:
    """The profiled process: compile ``path``, run it, write what the parent needs."""
    from pylua.api import LuaRuntime, to_lua_string
    from pylua.runtime import luathread
    source = to_lua_string(path.read_bytes())
    out = io.StringIO()

    class Out:
        def write(self, data):
            out.write(data.decode('latin-1') if isinstance(data, bytes) else data)
            return len(data)

        def flush(self):
            pass

    rt = LuaRuntime(profile='standalone', stdout=Out())
    start = time.process_time()
    fn = rt.load(source, '@' + str(path))
    compile_seconds = time.process_time() - start
    profiler = None
    if with_cprofile:
        profiler = cProfile.Profile(time.thread_time, builtins=False)
        luathread.on_lua_thread(profiler.enable)
    start = time.process_time()
    rt.call_raw(fn, ())
    run_seconds = time.process_time() - start
    report = None
    if profiler is not None:
        luathread.on_lua_thread(profiler.disable)
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats('tottime').print_stats(30)
        report = text.getvalue()
    tr = translate_source(source, str(path))
    info.write_text(json.dumps({
        'compile_seconds': compile_seconds, 'run_seconds': run_seconds,
        'output': out.getvalue(), 'cprofile': report,
        'source': tr.source, 'lua_lines': tr.lines,
        'functions': {name.split('_')[1]: what for name, (_, what) in tr.proto_names.items()
                      if name.startswith('Q')},
    }), encoding='utf-8')


def _share(count: int, total: int) -> str:
    return '%5.1f%%' % (100.0 * count / total) if total else '    -'


def format_report(p: Profile, top: int) -> str:
    s = p.samples
    lines = ['%s: compile %.3f s, run %.3f s (CPU), %d samples of the run' % (
        p.program, p.compile_seconds, p.run_seconds, s.total)]
    lines.append('output: ' + p.output.strip())
    lines.append('')
    lines.append('by mechanism (groups of the shapes below):')
    groups = Counter()
    for name, count in s.shapes.items():
        groups[group_of(name)] += count
    for name, count in groups.most_common():
        lines.append('  %s  %s' % (_share(count, s.total), name))
    lines.append('')
    lines.append('by shape (the innermost frame: a generated line, or a helper):')
    for name, count in s.shapes.most_common(top):
        lines.append('  %s  %s' % (_share(count, s.total), name))
    lines.append('')
    lines.append('by Lua function (helpers charged to their caller):')
    for name, count in s.functions.most_common(top):
        lines.append('  %s  %s' % (_share(count, s.total), name))
    lines.append('')
    lines.append('hottest generated lines (helpers charged to the calling line):')
    for line, count in s.lines.most_common(top):
        text = p.generated.text(line)
        lines.append('  %s  py %5d  lua %4d  %-26.26s  %s' % (
            _share(count, s.total), line, p.generated.lua_line(line),
            shape_of(text, p.generated.methods), text.strip()[:100]))
    if p.cprofile:
        lines.append('')
        lines.append('cProfile (thread CPU time, C functions folded into callers):')
        lines.append(p.cprofile.rstrip())
    return '\n'.join(lines) + '\n'


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog='python -m benchmarks.pylua_profile',
                                 description="Sample where pylua's time goes on one program.")
    ap.add_argument('program', help='a benchmark name (oo/richards) or a .lua file')
    ap.add_argument('--top', type=int, default=25, metavar='N', help='rows per table (default 25)')
    ap.add_argument('--rate', type=int, default=500, metavar='HZ',
                    help='samples per second (default 500)')
    ap.add_argument('--source', metavar='FILE', help='write the generated Python to FILE')
    ap.add_argument('--cprofile', action='store_true',
                    help='also run once under cProfile and print its table')
    ap.add_argument('--record', metavar='FILE',
                    help='keep the samples in FILE; if FILE exists, report from it '
                         'instead of running')
    ap.add_argument('--child', metavar='FILE', help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    path = _resolve(args.program)
    if args.child:
        child(Path(args.child), path, args.cprofile)
        return 0
    result = profile(path, args.rate, args.cprofile,
                     Path(args.record) if args.record else None)
    if args.source:
        Path(args.source).write_text('\n'.join(result.generated.lines), encoding='utf-8')
    sys.stdout.write(format_report(result, args.top))
    return 0


if __name__ == '__main__':
    sys.exit(main())
