"""Error values, pcall, re-raising, and the run error a failure becomes."""
import pytest

from engine_helpers import ScriptedAnswers, echo, failure, prompt, report, result, section
from runvil.engine import Answer, ErrorKind, Failure, RunErrorKind, join_message

OVERLOADED = 'the model backend is overloaded (status 503)'


def overloaded(effect):
    return Answer.failed('test.wait', Failure(RunErrorKind.COMPLETION, OVERLOADED,
                                              error_kind=ErrorKind.INTERNAL, retryable=True))


def test_an_error_value_has_kind_message_and_tostring():
    body = section('S', "local ok, e = pcall(json.decode, {})\n"
                        "return type(e) .. '|' .. e.kind .. '|' .. e.message .. '|' .. tostring(e)")
    assert result(body) == ("table|lua|bad argument #1 to 'json.decode' (string expected, got table)"
                            "|bad argument #1 to 'json.decode' (string expected, got table)")


def test_pcall_passes_raw_strings_and_tables_unchanged():
    body = section('S', "local t = {code = 7}\nlocal ok1, e1 = pcall(error, 'plain', 0)\n"
                        "local ok2, e2 = pcall(error, t)\nlocal ok3, e3 = pcall(function() local x = nil; return x.y end)\n"
                        "return e1 .. '|' .. tostring(e2 == t) .. '|' .. e3")
    assert result(body) == "plain|true|t:15: attempt to index a nil value (local 'x')"


def test_a_failed_suspending_call_raises_its_failure_as_an_error_value():
    body = section('S', "local ok, e = pcall(wait, 1)\nreturn e.kind .. '|' .. e.message .. '|' .. tostring(e)")
    assert result(body, answers=ScriptedAnswers(overloaded)) == 'internal|%s|%s' % (OVERLOADED, OVERLOADED)


def test_uncaught_it_ends_the_run_with_its_kind_message_and_retryable_flag():
    assert failure(section('S', "wait(1)"), answers=ScriptedAnswers(overloaded)) == {
        'kind': 'Completion', 'message': OVERLOADED, 'retryable': True, 'location': None}


def test_raised_again_before_another_suspending_call_it_ends_the_run_as_if_never_caught():
    body = section('S', "local ok, e = pcall(wait, 1)\nlocal n = json.encode({1})\nerror(e)")
    assert failure(body, answers=ScriptedAnswers(overloaded)) == {
        'kind': 'Completion', 'message': OVERLOADED, 'retryable': True, 'location': None}


def test_raised_again_after_another_suspending_call_it_is_rebuilt_from_its_kind():
    body = section('S', "local ok, e = pcall(wait, 1)\nwait(2)\nerror(e)")
    assert failure(body, answers=ScriptedAnswers(overloaded, echo)) == {
        'kind': 'Lua', 'message': OVERLOADED, 'retryable': False, 'location': None}


@pytest.mark.parametrize('fields, kind', [
    ("kind = 'lua'", 'Lua'),
    ("kind = 'internal'", 'Lua'),
    ("kind = 'out_of_scope_tool'", 'Lua'),
    ("kind = 'unbound_tool'", 'Lua'),
    ("kind = 'tasks_live'", 'Lua'),
    ("kind = 'empty_model_reply'", 'Completion'),
    ("kind = 'tool_loop_exhausted'", 'Tool'),
    ("kind = 'tool'", 'Tool'),
    ("kind = 'context_exhausted', reason = 'precheck'", 'ContextExhausted'),
    ("kind = 'context_exhausted'", 'Lua'),
    ("kind = 'task_not_owned'", 'Lua'),
    ("kind = 'task_consumed'", 'Lua'),
    ("kind = 'store'", 'Vfs'),
    ("kind = 'store', reason = 'not_found'", 'Vfs'),
])
def test_the_rebuild_table(fields, kind):
    assert failure(section('S', "error({%s, message = 'kept'})" % fields)) == {
        'kind': kind, 'message': 'kept', 'retryable': False, 'location': None}


def test_a_rebuilt_cancelled_value_ends_the_run_cancelled():
    outcome = report(prompt(section('S', "error({kind = 'cancelled', message = 'x'})")))
    assert outcome == {'outcome': 'cancelled', 'result': None, 'error': None}


def test_other_error_objects_read_like_the_standalone_interpreter():
    assert failure(section('S', "error({code = 1})"))['message'] == '(error object is a table value)'
    assert failure(section('S', "error(42)"))['message'] == '42'
    assert failure(section('S', "error()"))['message'] == '(error object is a nil value)'
    assert failure(section('S', "error(setmetatable({}, {__tostring = function() return 'shown' end}))"))[
        'message'] == 'shown'
    assert failure(section('S', "error({kind = 'no such kind', message = 'm'})"))['message'] == \
        '(error object is a table value)'


def test_a_memory_refusal_inside_an_engine_function_is_an_error_value_of_kind_lua():
    from runvil.harness import RunLimits
    body = '## S\n\n{{ string.rep("x", 8000000) }}\n\n' + \
        "```lua\nlocal ok, e = pcall(function() return prose end)\nreturn e.kind .. ': ' .. e.message\n```\n"
    assert result(body, limits=RunLimits(memory_ceiling=4 << 20)) == \
        'lua: placeholder `{{ string.rep("x", 8000000) }}` failed: not enough memory'


def test_the_run_message_joins_causes_not_already_in_it():
    assert join_message('outer', ('inner', 'outer', 'deeper')) == 'outer: inner: deeper'
    assert join_message('a: b', ('b', 'c')) == 'a: b: c'
    assert Failure(RunErrorKind.LUA, 'x', causes=('y',)).run_message == 'x: y'


def test_an_engine_fault_inside_a_function_is_internal_with_an_engine_location():
    class Broken:
        def install(self, vm):
            def boom(*_):
                raise KeyError('lost')
            vm.globals.set_str('boom', vm.function('boom', boom))
    from runvil.harness import Harness
    caught = Harness(libraries=(Broken(),)).run(prompt(section('S', "local ok, e = pcall(boom) return e.kind")))
    assert caught.result == 'internal'
    outcome = Harness(libraries=(Broken(),)).run(prompt(section('S', "boom()"))).to_dict()
    error = outcome['error']
    assert error['kind'] == 'Internal' and error['message'] == "internal invariant violated: KeyError: 'lost'"
    # the innermost Engine frame: here the guard every Engine function runs in
    assert error['location']['path'] == 'runvil/vocabulary/functions.py'
    assert isinstance(error['location']['line'], int) and error['location']['column'] is None
