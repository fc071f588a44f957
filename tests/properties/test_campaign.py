"""The campaign's batches: each program's output and error message as
lua.c would print them, the same on pylua as on lua5.4, and a program whose
outcome differs written down with both."""
import os
import re
import shutil
import sys

import pytest

from tests.properties.campaign import (ADDRESS, HEADER, Campaign, Case, Outcome, balanced, cases, pylua_command, run_batch, standalone,
                                       write_batch)
from tests.properties.lua_programs import PRELUDE

LUA = shutil.which('lua5.4')
PYLUA = pylua_command()
CASES = [
    Case(1, False, 'print("one", 1 // 1, 2^53)\n'),
    Case(2, False, 'print("before")\nlocal t = nil\nreturn t.x\n'),
    Case(3, True, 'error(setmetatable({}, {__tostring = function() return "as text\\nsecond line" end}))\n'),
    Case(4, True, 'error({})\n'),
    Case(5, False, 'g1 = 5\nprint(g1, {})\n'),
    Case(6, False, 'print(g1, string.format("%q", 1/3))\n'),      # the globals of case 5 are gone
    Case(7, True, 'error("level 3 is the driver", 3)\n'),
    # The prelude comes from the driver, fresh for each program.
    Case(8, False, HEADER + 'show(1, {}, obj:m(5))\nshow(obj:m(6))\n'),
    Case(9, True, HEADER + 'show(obj:m(5))\n'),
]
EXPECTED = [
    Outcome(b'one\t1\t9.007199254741e+15\n', None),
    Outcome(b'before\n', b"p1.lua:3: attempt to index a nil value (local 't')"),
    Outcome(b'', b'as text'),
    Outcome(b'', b'(error object is a table value)'),
    Outcome(b'5\ttable: 0x\n', None),
    Outcome(b'nil\t0x1.5555555555555p-2\n', None),
    # The driver's chunk is named as lua.c names a script.
    Outcome(b'', b'driver.lua:31: level 3 is the driver'),
    Outcome(b'1 table 5 2\n6 3\n', None),
    Outcome(b'5 2\n', None),
]


def test_a_batch_on_pylua_gives_each_program_its_outcome(tmp_path):
    run = run_batch(PYLUA, str(tmp_path), write_batch(str(tmp_path), CASES), 300)
    assert run.failure is None and run.outcomes == EXPECTED


@pytest.mark.skipif(LUA is None, reason='needs lua5.4')
def test_lua_gives_the_same_outcomes_and_a_difference_is_a_finding(tmp_path):
    assert run_batch([LUA], str(tmp_path), write_batch(str(tmp_path), CASES), 60).outcomes == EXPECTED
    same = Campaign(str(tmp_path), PYLUA, [LUA])
    same.run(CASES)
    assert (same.programs, same.differences) == (9, 0)
    # A reference whose print writes something else differs on every program that prints.
    other = Campaign(str(tmp_path), PYLUA, [LUA, '-e', 'function print() io.write("other\\n") end'])
    other.run(CASES)
    assert other.differences == 6
    assert 'lua5.4: Outcome(stdout=b\'other\\n\'' in (tmp_path / '1-big-plain.lua').read_text()


def test_a_program_that_stops_its_runtime_is_an_outcome_and_the_batch_goes_on(tmp_path):
    hang = [Case(1, False, 'print("a")\nwhile true do end\n'), Case(2, False, 'print(2)\n')]
    run = run_batch(pylua_command(program_seconds=1), str(tmp_path), write_batch(str(tmp_path), hang), 300)
    assert run.failure is None
    assert run.outcomes == [Outcome(b'a\n', b'pylua stopped: no answer within 1 s'), Outcome(b'2\n', None)]


def test_most_seeds_give_small_programs_and_the_rest_big_ones():
    picked = [cases(seed, 0.9) for seed in range(200)]
    # One body, plain and in a coroutine.
    assert all(not plain.in_coroutine and coroutine.in_coroutine and plain.small == coroutine.small
               and 'coroutine.wrap' in coroutine.source for plain, coroutine in picked)
    small = [len(plain.source) for plain, _ in picked if plain.small]
    big = [len(plain.source) for plain, _ in picked if not plain.small]
    assert 160 <= len(small) < 200
    assert sum(small) / len(small) * 4 < sum(big) / len(big)


def test_a_batch_the_reference_finishes_none_of_is_left_out(tmp_path):
    silent = Campaign(str(tmp_path), PYLUA, [sys.executable, '-c', 'pass'])
    silent.run(CASES)
    assert (silent.programs, silent.unfinished, silent.differences) == (0, len(CASES), 0)


@pytest.mark.skipif(LUA is None, reason='needs lua5.4')
def test_a_finding_is_written_as_the_program_runs_alone(tmp_path):
    case = cases(3, 1.0)[0]
    assert case.source.startswith(HEADER) and standalone(case.source) == PRELUDE + case.source[len(HEADER):]
    other = Campaign(str(tmp_path), PYLUA, [LUA, '-e', 'function print() io.write("other\\n") end'])
    other.run([Case(1, False, HEADER + 'print(obj.n)\n')])
    assert (tmp_path / '1-big-plain.lua').read_text().startswith(PRELUDE + 'print(obj.n)\n')


def test_programs_reach_every_form_and_leave_out_unspecified_shapes():
    sources = [c.source for seed in range(300) for c in cases(seed, 0.5)[:1]]
    text = '\n'.join(sources)
    for form in ('setmetatable({}, {__index = ', '.__index = ', 'coroutine.wrap(function()\nfor i = 1, ',
                 '] = function(x) ', 'function obj:', 'function obj.', ':gsub(', 'string.format("%5.2f',
                 '(-7 // 2)', 'table.unpack({', 'select(-1, ...)', '<close>', '<const>', 'goto continue',
                 'tostring"', '::top', 'table.sort(t)', 'table.insert(t, 1, ', 'table.remove(t)', 'table.move(',
                 'string.gmatch(', 'utf8.codes(', 'xpcall(', 'coroutine.close(', '"t", {', '"%c', '1e-310'):
        assert form in text, form
    for source in sources:
        # A table that got a key after its constructor is not measured after it.
        for keyed in re.finditer(r'^(t\d+)\[ .*$', source, re.M):
            after = source[keyed.end():]
            assert not re.search(r'#\s*%s\b(?!\s*[\[.:])' % keyed.group(1), after)
        # No multiple assignment names one target twice.
        for targets in re.findall(r'^([\w.]+(?:, [\w.]+)+) = ', source, re.M):
            names = targets.split(', ')
            assert len(names) == len(set(names))


# Lua 5.4.4 saves the table constructor's position only when a collection
# step is due, so which line the division names depends on the collector:
# with the collector stopped after some allocation, a step is always due.
COLLECTOR_DEPENDENT = '''local k, pad = 3, {}
for i = 1, 2000 do pad[i] = {} end
print(pcall(function()
  local s = tostring(k)
  return ({n = (k // 0)}).n
end))
'''
STOPPED = [LUA, '-e', 'collectgarbage("stop")']


@pytest.mark.skipif(LUA is None, reason='needs lua5.4')
def test_a_difference_lua_shows_under_another_collector_pacing_is_no_finding(tmp_path):
    files = write_batch(str(tmp_path), [Case(1, False, COLLECTOR_DEPENDENT)])
    mine = run_batch(PYLUA, str(tmp_path), files, 300).outcomes[0]
    assert mine == Outcome(b'false\tp0.lua:4: attempt to divide by zero\n', None)
    assert run_batch(STOPPED, str(tmp_path), files, 60).outcomes[0] == Outcome(
        b'false\tp0.lua:5: attempt to divide by zero\n', None)
    campaign = Campaign(str(tmp_path / 'out'), PYLUA, STOPPED)
    assert campaign.lua_can_give(mine, str(tmp_path), files[0])
    assert not campaign.lua_can_give(Outcome(b'other\n', None), str(tmp_path), files[0])
    campaign.run([Case(1, False, COLLECTOR_DEPENDENT)])
    assert (campaign.programs, campaign.differences, campaign.collector_dependent) == (1, 0, 1)
    assert (tmp_path / 'out' / 'collector-dependent' / '1-big-plain.lua').exists()
    # A difference no pacing gives is a finding still.
    other = Campaign(str(tmp_path / 'other'), PYLUA, [LUA, '-e', 'function print() io.write("other\\n") end'])
    other.run([Case(1, False, COLLECTOR_DEPENDENT)])
    assert (other.differences, other.collector_dependent) == (1, 0)


def test_a_batch_is_shared_in_parts_of_about_equal_source():
    picked = [c for seed in range(100) for c in cases(seed, 0.9)]
    parts = balanced(picked, 2)
    assert sorted(n for part in parts for n in part) == list(range(len(picked)))
    sizes = [sum(len(picked[n].source) for n in part) for part in parts]
    assert max(sizes) - min(sizes) <= max(len(c.source) for c in picked)
    assert balanced(picked[:1], 2) == [[0]]


@pytest.mark.parametrize('text', [b'table: 0x55bbf4dcd790', b'table:10x55bbf4dcd790',
                                  b'ablet: x55bbf4dcd7900'])
def test_an_address_compares_alike_wherever_string_functions_moved_it(text):
    # Seed 1753026982: gsub("(%w)(%w*)", "%2%1") rotated the address's 0 to its end.
    assert ADDRESS.sub(b': 0x', text).endswith(b': 0x')
    assert ADDRESS.sub(b': 0x', b'%x of 2^40: 10000000000') == b'%x of 2^40: 10000000000'
