"""The memory ceiling counts a section VM's live Lua heap: what the blocks
of a section keep, from Lua and from Engine functions, fails past the
ceiling with the memory error (caught, an error value of kind lua), and
garbage is free.

The properties run random mixes of kept and dropped allocations.  The
margin: a program whose live peak stays at or below 7/8 of the ceiling
(less the VM's own base) must complete, and one whose kept total passes
the ceiling by more than 1/8 must fail; between the two either outcome is
right, because the account is measured again after an eighth of the
ceiling has been allocated (pylua's pacing).

The cases marked NEEDS_PYLUA fail on pylua's accounting as it is: a value
charged while the heap is measured is not yet reachable and drops out of
the account, and a big allocation is checked against the last measure
only.  pylua's sandbox accounting (issue 17) fixes both.
"""
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gateway_runs import END, LUA, prompt
from runvil.engine import Environment
from runvil.harness import Harness, RunLimits
from runvil.tools import Pack, PackTool

MiB = 1 << 20
CEILING = 16 * MiB
NEEDS_PYLUA = pytest.mark.xfail(strict=True, reason='needs pylua sandbox accounting, issue 17')


def section(name: str, *sources: str) -> str:
    """A section of one Lua block per source."""
    return '## %s\n\n%s\n' % (name, '\n'.join(LUA + source + END for source in sources))


def bulk(arguments: dict, context) -> str:
    return 'x' * int(arguments['bytes'])


# A Pack whose tool answers as many bytes as asked: an Engine-built value.
BULK = Pack('bulk', (PackTool('make', 'Answers that many bytes.', bulk),))


def run(body: str, ceiling: int = CEILING) -> dict:
    harness = Harness(RunLimits(memory_ceiling=ceiling), Environment(packs={'bulk': BULK}))
    return harness.run(prompt(body, head='uses:\n  - bulk\n'), 't.md').to_dict()


def failed_for_memory(outcome: dict) -> bool:
    error = outcome['error']
    return outcome['outcome'] == 'failed' and error['kind'] == 'Lua' and 'memory' in error['message']


# -- the blocks of one section --------------------------------------------------------------
@NEEDS_PYLUA
def test_the_blocks_of_a_section_share_one_ceiling():
    body = section('S', "first = string.rep('x', 10 * 2^20)", "second = string.rep('y', 10 * 2^20)\nreturn 'fit'")
    assert failed_for_memory(run(body))


@NEEDS_PYLUA
def test_two_live_strings_past_the_ceiling_fail():
    body = section('S', "local a = string.rep('x', 15 * 2^20)\nlocal b = string.rep('y', 15 * 2^20)\n"
                        "return #a + #b")
    assert failed_for_memory(run(body))


@NEEDS_PYLUA
def test_var_kept_by_one_block_counts_in_the_next():
    body = section('S', "var.big = string.rep('x', 10 * 2^20)", "local more = string.rep('y', 10 * 2^20)\n"
                                                                    "return #var.big + #more")
    assert failed_for_memory(run(body))


def test_each_section_has_its_own_ceiling():
    body = (section('A', "kept = string.rep('x', 10 * 2^20)") +
            section('B', "kept = string.rep('y', 10 * 2^20)\nreturn 'fit'"))
    assert run(body)['result'] == 'fit'


def test_garbage_is_free():
    body = section('S', "for i = 1, 10000 do local s = string.rep('x', 2^20) end\nreturn 'done'")
    assert run(body, 64 * MiB)['result'] == 'done'


# -- values the Engine builds ---------------------------------------------------------------------
ENGINE_VALUES = {
    'a tool result': "tools.call('bulk/make', { bytes = 2^20 })",
    'a record view field': "messages[1].content",
    'a decoded JSON value': "json.decode(text)",
    'a local tool handler result': "tools.call('echo', { text = 'x' })",
}
SETUP = ("messages:user(string.rep('x', 2^20))\n"
         "local text = json.encode({ string.rep('x', 2^19) })\n"
         "tools.offer_local('echo', 'echoes', {}, function(args) return string.rep(args.text, 2^20) end)\n")


@pytest.mark.parametrize('value', sorted(ENGINE_VALUES))
def test_engine_values_that_are_kept_meet_the_ceiling(value):
    keep = SETUP + "local kept = {}\nfor i = 1, 40 do kept[i] = %s end\nreturn 'fit'" % ENGINE_VALUES[value]
    assert failed_for_memory(run(section('S', keep)))
    drop = SETUP + "for i = 1, 200 do local v = %s end\nreturn 'fit'" % ENGINE_VALUES[value]
    assert run(section('S', drop))['result'] == 'fit'


@pytest.mark.parametrize('value', sorted(ENGINE_VALUES))
def test_a_refusal_inside_an_engine_function_is_an_error_value_of_kind_lua(value):
    source = SETUP + ("local kept = {}\nfor i = 1, 40 do\n"
                      "  local ok, v = pcall(function() return %s end)\n"
                      "  if not ok then kept = nil return type(v) .. '|' .. tostring(v.kind) .. '|' .. tostring(v) end\n"
                      "  kept[i] = v\nend\nreturn 'fit'" % ENGINE_VALUES[value])
    kind_and_message = run(section('S', source))['result']
    assert kind_and_message.startswith('table|lua|') and 'memory' in kind_and_message


# -- properties -----------------------------------------------------------------------------------
PLANS = st.lists(st.tuples(st.integers(1, 16), st.booleans()), min_size=1, max_size=12)   # (256 KiB units, kept)
UNIT = 256 * 1024
BASE = MiB                      # the VM's own globals and libraries, generously


def expected(plan) -> str | None:
    """'fits', 'fails', or None where the margin allows either."""
    kept = peak = previous = 0
    for units, keep in plan:
        size = units * UNIT
        peak = max(peak, kept + previous + size)   # the last dropped value may still be held
        previous = 0 if keep else size
        kept += size if keep else 0
    if peak + BASE <= CEILING * 7 // 8:
        return 'fits'
    if kept > CEILING * 9 // 8:
        return 'fails'
    return None


def plan_program(plan, make: str) -> str:
    steps = ', '.join('{ %d, %s }' % (units, 'true' if keep else 'false') for units, keep in plan)
    return section('S', "local kept = {}\nfor _, step in ipairs({ %s }) do\n"
                        "  local value = %s\n"
                        "  if step[2] then kept[#kept + 1] = value end\n"
                        "  value = nil\nend\nreturn 'fits'" % (steps, make % ('step[1] * %d' % UNIT)))


def check_plan(plan, make: str) -> None:
    want = expected(plan)
    outcome = run(plan_program(plan, make))
    got = 'fits' if outcome['result'] == 'fits' else 'fails' if failed_for_memory(outcome) else outcome
    assert got in ('fits', 'fails'), got
    if want is not None:
        assert got == want


# The account must not lose a value charged while the heap is measured.
UNDERCOUNTED = [(1, True), (8, True), (16, True), (16, True), (16, True), (16, True)]


@NEEDS_PYLUA
@pytest.mark.slow
@settings(derandomize=True)     # the same plans on every run, so the xfail stays exact
@given(PLANS)
@example(UNDERCOUNTED)
def test_kept_allocations_from_lua_fail_exactly_past_the_ceiling(plan):
    check_plan(plan, "string.rep('x', %s)")


@NEEDS_PYLUA
@pytest.mark.slow
@settings(derandomize=True)
@given(PLANS)
@example(UNDERCOUNTED)
def test_kept_values_from_engine_functions_fail_exactly_past_the_ceiling(plan):
    check_plan(plan, "tools.call('bulk/make', { bytes = %s })")
