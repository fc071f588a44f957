"""How long runvil.parse takes on a 1 MB prompt with 500 sections.

    python benchmarks/prompt_parse.py [--repeat N]

Builds a prompt of about 1 MB: 500 sections (H2s with H3 children), each
with prose, a list or a fenced example, and Lua blocks (a prologue, a middle
block and an epilog in most sections).  It times the whole parse, and then
the same parse with pylua's compile_check timed separately, so the report
shows the parser's own share apart from Lua compilation.  It also parses the
same text with every Lua block turned into a ```text block, which measures
the parser with no Lua at all.  Target (issue 5): well under a second.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import runvil  # noqa: E402

TARGET_BYTES = 1_000_000
SECTIONS = 500

PROSE = ('Summarize what the previous section found about {topic}, keeping every figure and '
         'naming each source. Prefer short sentences; a reader skims this. ')
LUA_PROLOGUE = '''local notes = var.notes or {{}}
notes[#notes + 1] = '{topic}'
var.notes = notes'''
LUA_MIDDLE = '''for i, note in ipairs(var.notes) do
  log('note ' .. i .. ': ' .. note)
end'''
LUA_EPILOG = '''local out = {{}}
for word in string.gmatch(prose, '%a+') do out[#out + 1] = word:upper() end
return table.concat(out, ' ', 1, math.min(#out, 8))'''


def build_prompt() -> str:
    head = '---\nname: big\ndescription: A large prompt for timing the parser.\nruntime: 0\n---\n\n' \
        .replace('runtime', 'runvil')
    head += '# Big\n\n```lua\nmodels.default(\'writer\')\n```\n\n'
    per_section = (TARGET_BYTES - len(head)) // SECTIONS
    parts = [head]
    for number in range(SECTIONS):
        topic = 'topic %d' % number
        level = '##' if number % 5 == 0 else '###'
        section = ['%s Section %d\n\n' % (level, number), '```lua\n%s\n```\n\n' % LUA_PROLOGUE.format(topic=topic)]
        if number % 7 == 0:
            section.append('````markdown\n```lua\nreturn "an example, not a block"\n```\n````\n\n')
        section.append(PROSE.format(topic=topic) + '\n\n```lua\n%s\n```\n\n' % LUA_MIDDLE)
        filler = PROSE.format(topic=topic)
        size = sum(len(piece) for piece in section) + len(LUA_EPILOG) + 20
        paragraphs = []
        while size < per_section:
            paragraphs.append(filler)
            size += len(filler) + 1
        section.append('\n'.join(paragraphs) + '\n\n')
        section.append('```lua\n%s\n```\n\n' % LUA_EPILOG)
        parts.append(''.join(section))
    return ''.join(parts)


def timed(text: str, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        runvil.parse(text)
        times.append(time.perf_counter() - start)
    return times


def compile_time(text: str) -> float:
    """Seconds spent inside pylua.compile_check during one parse."""
    import pylua
    original = pylua.compile_check
    spent = [0.0]

    def counting(source, chunkname):
        start = time.perf_counter()
        try:
            return original(source, chunkname)
        finally:
            spent[0] += time.perf_counter() - start
    pylua.compile_check = counting
    try:
        runvil.parse(text)
    finally:
        pylua.compile_check = original
    return spent[0]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=5)
    args = parser.parse_args(argv)
    text = build_prompt()
    prompt = runvil.parse(text)
    sections = sum(1 for _ in prompt.walk())
    blocks = len(prompt.h1_blocks) + sum(len(s.blocks) for s in prompt.walk())
    print('prompt: %d bytes, %d lines, %d sections, %d Lua blocks'
          % (len(text.encode()), text.count('\n'), sections, blocks))
    times = timed(text, args.repeat)
    lua = compile_time(text)
    no_lua = timed(text.replace('```lua\n', '```text\n'), args.repeat)
    print('parse, best of %d:    %7.1f ms (median %.1f ms)' % (args.repeat, min(times) * 1e3,
                                                             statistics.median(times) * 1e3))
    print('  of which compiling:  %7.1f ms in pylua.compile_check' % (lua * 1e3))
    print('parse without Lua:     %7.1f ms (median %.1f ms)' % (min(no_lua) * 1e3,
                                                               statistics.median(no_lua) * 1e3))
    print('target: well under 1000 ms -> %s' % ('met' if min(times) < 0.5 else 'NOT met'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
