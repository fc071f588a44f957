"""Lua's limit of 255 registers, differentially: random chunks that use
nearly all of a function's registers (``register_programs``) compile, or
fail with the same "function or expression needs too many registers near
X" at the same line, on pylua as on lua5.4.  Without lua5.4 it still checks
that each chunk compiles or fails with a syntax error, never an internal one.
"""
import io
import os
import random
import shutil
import subprocess
import tempfile
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from pylua.cli import run_file
from pylua.runtime.errors import LuaSyntaxError
from tests.properties.register_programs import chunk

LUA = shutil.which('lua5.4')
CHUNKS = 40                   # per example: one process of lua5.4 loads them all
DRIVER = '''for i, source in ipairs(sources) do
  local f, message = load(source, "=c")
  print(i, f and "compiles" or message)
end
'''


def driver(sources):
    # A long bracket of level 5: no chunk holds ']=====]'.
    return 'local sources = {\n%s}\n%s' % (''.join('[=====[%s]=====],\n' % s for s in sources), DRIVER)


def verdicts_pylua(directory, text):
    path = os.path.join(directory, 'driver.lua')
    with open(path, 'w', encoding='latin-1') as fh:
        fh.write(text)
    out, err = io.BytesIO(), io.BytesIO()
    assert run_file(path, [], out, err) == 0, err.getvalue()
    return out.getvalue().decode('latin-1').splitlines()


def verdicts_lua(directory):
    done = subprocess.run([LUA, 'driver.lua'], cwd=directory, capture_output=True, timeout=60, check=True)
    return done.stdout.decode('latin-1').splitlines()


@settings(max_examples=4 if settings.default.max_examples <= 25 else 40, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_lua_runs_out_of_registers_where_and_as_lua5_4_does(seed):
    rng = random.Random(seed)
    sources = [chunk(rng) for _ in range(CHUNKS)]
    with tempfile.TemporaryDirectory() as directory:
        mine = verdicts_pylua(directory, driver(sources))
        assert len(mine) == CHUNKS
        for line in mine:
            verdict = line.split('\t', 1)[1]
            assert verdict == 'compiles' or verdict.startswith('c:'), verdict
        if LUA is not None:
            theirs = verdicts_lua(directory)
            for i, (a, b) in enumerate(zip(mine, theirs)):
                assert a == b, 'pylua %r\nlua5.4 %r\n%s' % (a, b, sources[i])


@settings(max_examples=10 if settings.default.max_examples <= 25 else 100, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_a_statement_takes_no_more_registers_than_its_tokens_bound(seed):
    # The code generator models a statement only within reach of the limit
    # (``registers.within_reach``): each takes at most a register per token,
    # and a few beside.
    from pylua.compiler import codegen, registers
    from pylua.compiler.parser import parse
    spans, peaks = [], []
    reserve = registers._Model.reserve

    def counted_reserve(model, n, near):
        peaks[-1] = max(peaks[-1], model.freereg + n - model.nvar)
        reserve(model, n, near)

    def recorded_reach(locals_top, span):
        spans.append(span)
        peaks.append(0)
        return True
    with mock.patch.object(registers._Model, 'reserve', counted_reserve), \
            mock.patch.object(codegen, 'within_reach', recorded_reach):
        try:
            codegen.compile_chunk(parse(chunk(random.Random(seed)), '=c', from_file=False))
        except LuaSyntaxError:
            pass                # out of registers or locals: what was reserved up to there counts
    for span, peak in zip(spans, peaks):
        assert peak <= span + registers.STATEMENT_SLACK
