"""The campaign's batches: each program's output and error message as
lua.c would print them, the same on pylua as on lua5.4, and a program whose
outcome differs written down with both."""
import os
import shutil
import sys

import pytest

from tests.properties.campaign import Campaign, Case, Outcome, run_batch, write_batch

LUA = shutil.which('lua5.4')
PYLUA = [sys.executable, '-m', 'pylua']
CASES = [
    Case(1, False, 'print("one", 1 // 1, 2^53)\n'),
    Case(2, False, 'print("before")\nlocal t = nil\nreturn t.x\n'),
    Case(3, True, 'error(setmetatable({}, {__tostring = function() return "as text\\nsecond line" end}))\n'),
    Case(4, True, 'error({})\n'),
    Case(5, False, 'g1 = 5\nprint(g1, {})\n'),
    Case(6, False, 'print(g1, string.format("%q", 1/3))\n'),      # the globals of case 5 are gone
]
EXPECTED = [
    Outcome(b'one\t1\t9.007199254741e+15\n', None),
    Outcome(b'before\n', b"p1.lua:3: attempt to index a nil value (local 't')"),
    Outcome(b'', b'as text'),
    Outcome(b'', b'(error object is a table value)'),
    Outcome(b'5\ttable: 0x\n', None),
    Outcome(b'nil\t0x1.5555555555555p-2\n', None),
]


def test_a_batch_on_pylua_gives_each_program_its_outcome(tmp_path):
    run = run_batch(PYLUA, str(tmp_path), write_batch(str(tmp_path), CASES), 300)
    assert run.failure is None and run.outcomes == EXPECTED


@pytest.mark.skipif(LUA is None, reason='needs lua5.4')
def test_lua_gives_the_same_outcomes_and_a_difference_is_a_finding(tmp_path):
    assert run_batch([LUA], str(tmp_path), write_batch(str(tmp_path), CASES), 60).outcomes == EXPECTED
    same = Campaign(str(tmp_path), PYLUA, [LUA])
    same.run(CASES)
    assert (same.programs, same.differences) == (6, 0)
    # A reference whose print writes something else differs on every program that prints.
    other = Campaign(str(tmp_path), PYLUA, [LUA, '-e', 'function print() io.write("other\\n") end'])
    other.run(CASES)
    assert other.differences == 4
    assert 'lua5.4: Outcome(stdout=b\'other\\n\'' in (tmp_path / '1-plain.lua').read_text()
