"""How long pylua takes to compile a big chunk, stage by stage.

Two chunks of about 5,000 lines each: a generated module of ordinary code
(``generated_module``: functions with loops, branches, tables, methods,
closures and varargs) and the benchmark programs themselves, each wrapped in
a function, repeated up to that length.  For each, the CPU time (best of
``repeat``) of pylua's own work, ``translate_chunk`` (parse, bytecode,
translation to Python, with the collector paused as ``compile_lua`` pauses
it), and of Python's ``compile()`` of the result, which
``compile_lua`` runs in a worker process for a source this big.

    python -m benchmarks.translation_cost [REPEAT]
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

PROGRAMS_DIR = Path(__file__).resolve().parent / 'programs'
LINES = 5000


def generated_module(lines: int = LINES) -> str:
    out = ['local M = {}', 'local insert, concat, floor = table.insert, table.concat, math.floor']
    n = 0
    while len(out) < lines:
        n += 1
        out += [
            'function M.f%d(t, x, y)' % n,
            '  local acc, s = 0, {}',
            '  for i = 1, #t do',
            '    local v = t[i]',
            '    if v > x then acc = acc + v * %d elseif v < y then acc = acc - v // 2 else acc = acc + 1 end' % n,
            '    s[#s + 1] = tostring(v) .. "k%d"' % n,
            '  end',
            '  for k, v in pairs(t) do if type(k) == "string" then insert(s, k) end end',
            '  local obj = {name = "n%d", count = acc, items = s}' % n,
            '  function obj:add(z) self.count = self.count + z; return self end',
            '  obj:add(x):add(y)',
            '  while acc > 1000 do acc = floor(acc / 3) end',
            '  repeat acc = acc + 1 until acc % 7 == 0',
            '  local g = function(a, ...) return a + select("#", ...) + acc end',
            '  return obj.count + g(1, 2, 3), concat(s, ",")',
            'end',
            '',
        ]
    out.append('return M')
    return '\n'.join(out) + '\n'


def benchmark_programs(lines: int = LINES) -> str:
    files = sorted(PROGRAMS_DIR.glob('*.lua')) + sorted((PROGRAMS_DIR / 'oo').glob('*.lua'))
    out, count, n = [], 0, 0
    while count < lines:
        for path in files:
            n += 1
            text = 'local function program%d(...)\n%s\nend\n' % (n, path.read_text(encoding='utf-8'))
            out.append(text)
            count += text.count('\n')
    return ''.join(out)


CHUNKS = {'generated module': generated_module, 'benchmark programs': benchmark_programs}


def measure(repeat: int = 3, chunks=CHUNKS) -> dict:
    from pylua.compiler.pipeline import translate_chunk

    rows = []
    for name, make in chunks.items():
        source = make()
        best_translate = best_compile = None
        for _ in range(repeat):
            start = time.process_time()
            tr = translate_chunk(source, '=' + name)
            middle = time.process_time()
            compile(tr.source, name, 'exec')
            end = time.process_time()
            best_translate = min(middle - start, best_translate or middle - start)
            best_compile = min(end - middle, best_compile or end - middle)
        rows.append({'name': name, 'lua_lines': source.count('\n'), 'python_kb': len(tr.source) / 1024,
                     'translate_s': best_translate, 'compile_s': best_compile})
    return {'repeat': repeat, 'chunks': rows}


def lines(result: dict) -> list[str]:
    """The report's lines for ``measure()``'s result."""
    if result.get('error'):
        return ['translation time: not measured: ' + result['error']]
    return ['translation of %s (%d Lua lines, %.0f KB of Python): %.2f s, '
            "then Python's compile() %.2f s (CPU, best of %d)"
            % (row['name'], row['lua_lines'], row['python_kb'], row['translate_s'], row['compile_s'],
               result['repeat']) for row in result['chunks']]


if __name__ == '__main__':
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    print('\n'.join(lines(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 3))))
