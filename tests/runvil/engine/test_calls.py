"""``call`` and ``jump``: running other sections from Lua (runvil/engine/calls.py)."""
import time

from engine_helpers import ScriptedAnswers, failure, in_thread, prompt, result, run, section
from runvil.engine import Answer
from runvil.harness import RunLimits

GUARD = "if args.n == nil then return end\n"


def test_call_returns_the_called_sections_result():
    body = section('Main', "return call('Double', {n = 21}) + 1") + section('Double', GUARD + "return args.n * 2")
    assert result(body) == '43'


def test_call_runs_the_section_and_the_sections_under_it():
    body = (section('Main', "local r = call('Outer', {n = 1})\nreturn r.inner .. '|' .. tostring(r.outer)")
            + section('Outer', GUARD + "var.seen = 'outer'")
            + '### Inner\n\n```lua\n' + GUARD + "return {inner = var.seen}\n```\n\n")
    assert result(body) == 'outer|nil'


def test_a_call_returns_json_data_and_nil_when_nothing_returned():
    body = (section('Main', "local t = call('Data', {n = 1})\nlocal none = call('Nothing', {n = 1})\n"
                            "return t.list[2] .. '|' .. tostring(t.flag) .. '|' .. tostring(none)")
            + section('Data', GUARD + "return {list = {'a', 'b'}, flag = true}")
            + section('Nothing', GUARD + "local x = 1"))
    assert result(body) == 'b|true|nil'


def test_a_call_starts_with_the_callers_var_and_args_and_keeps_its_own():
    body = (section('Main', "var.x = 'caller'\nlocal r = call('Callee', {n = 2})\nreturn r .. '|' .. var.x")
            + section('Callee', GUARD + "local seen = var.x .. ':' .. args.n\nvar.x = 'callee'\nreturn seen"))
    assert result(body) == 'caller:2|caller'


def test_a_call_gets_a_fresh_message_list():
    body = (section('Main', "messages:user('caller')\nlocal n = call('Callee', {n = 1})\n"
                            "return n .. '|' .. #messages")
            + section('Callee', GUARD + "local n = #messages\nmessages:user('callee')\nreturn n"))
    assert result(body) == '0|1'


def test_a_failure_in_a_call_passes_up_unchanged():
    body = section('Main', "call('Chatty', {n = 1})") + section('Chatty', GUARD + "for i = 1, 10 do log('x') end")
    error = failure(body, limits=RunLimits(log_event_quota=2))
    assert (error['kind'], error['message']) == ('Quota', 'lua log event quota exceeded')
    body = section('Main', "local ok, err = pcall(call, 'Boom', {n = 1})\nreturn err.kind .. '|' .. err.message") \
        + section('Boom', GUARD + "error('boom', 0)")
    assert result(body) == 'lua|boom'


def test_call_recursion_past_the_depth_cap_is_quota():
    body = section('Main', "return call('Deeper', {n = 1})") + section('Deeper', GUARD + "return call('Deeper', {n = 1})")
    assert failure(body) == {'kind': 'Quota', 'message': 'call recursion exceeded cap of 8', 'retryable': False,
                             'location': None}
    body = (section('Main', "return call('Deeper', {n = 1})")
            + section('Deeper', GUARD + "local ok, err = pcall(call, 'Deeper', {n = 1})\n"
                                        "if ok then return err end\nreturn err.kind .. ':' .. err.message"))
    assert result(body) == 'lua:call recursion exceeded cap of 8'


def test_calls_keep_out_of_the_task_numbering():
    body = (section('Main', "call('Callee', {n = 1})\nlocal t = tasks.spawn('Callee', {n = 2})\n"
                            "return t.id .. '|' .. tasks.join(t)")
            + section('Callee', GUARD + "if args.n == 1 then return tasks.join(tasks.spawn('Callee', {n = 3})) end\n"
                                        "return tasks.current().id"))
    assert result(body) == '0.0|0.0'


def test_call_argument_checks_and_missing_sections():
    checks = [("call()", 'call takes (section, args?)'),
              ("call(1)", "bad argument #1 to 'call' (string expected, got number)"),
              ("call('Main', 5)", "bad argument #2 to 'call' (table expected, got number)"),
              ("call('Nope')", 'section heading `Nope` not found; available sections: ## Main'),
              ("jump()", 'jump takes (section)'),
              ("jump('##Main')", 'malformed heading reference `##Main`: name a section by its heading text '
                                 '(`Child`) or as written (`## Child`)')]
    for line, message in checks:
        source = "if var.done then return end\nvar.done = true\nlocal ok, err = pcall(function() %s end)\n" \
                 "return err.kind .. ':' .. err.message" % line
        assert result(section('Main', source)) == 'lua:' + message, line


def test_jump_from_the_h1_body_starts_the_walk_at_its_target():
    events = []
    body = ("```lua\nreturn jump('B')\n```\n\n" + section('A', "return 'a'") + section('B', "var.b = 1")
            + section('C', "return 'c' .. var.b"))
    outcome = run(prompt(body), events=events)
    assert outcome.result == 'c1'
    assert [e['section'] for e in events if e['event'] == 'section_started'] == ['B', 'C']
    assert [(e['section'], e['target']) for e in events if e['event'] == 'jump'] == [(None, 'B')]


def test_jump_ends_the_section_and_each_target_entry_is_fresh():
    body = (section('Loop', "var.n = (var.n or 0) + 1\nlocal fresh = #messages\nmessages:user('x')\n"
                            "var.seen = (var.seen or '') .. fresh\n"
                            "if var.n < 3 then return jump('Loop') end\nreturn jump('## End')")
            + section('Skipped', "error('skipped')") + section('End', "return var.seen .. '|' .. var.n"))
    assert result(body) == '000|3'


def test_a_missing_jump_target_keeps_run_error_kind_lua_even_in_the_h1_pass():
    expected = {'kind': 'Lua', 'message': 'section heading `Nope` not found; available sections: ## A',
                'retryable': False, 'location': None}
    assert failure("```lua\nreturn jump('Nope')\n```\n\n" + section('A', "return 1")) == expected
    assert failure(section('A', "return jump('Nope')")) == expected


def test_a_malformed_jump_in_the_h1_body_fails_the_gate():
    error = failure("```lua\nreturn jump('#A')\n```\n\n" + section('A', "return 1"))
    assert error['kind'] == 'RequirementsUnmet'
    assert 'malformed heading reference `#A`' in error['message']


def test_a_jump_stays_within_the_sections_a_call_runs():
    body = (section('Main', "return call('Callee', {n = 1})") + section('Callee', GUARD + "return jump('Main')"))
    assert failure(body)['message'] == 'jump target `Main` is outside the sections this chain runs: ## Callee'
    body = (section('Main', "return call('Callee', {n = 1})")
            + section('Callee', GUARD + "return jump('Last')")
            + '### Middle\n\n```lua\n' + GUARD + 'error("skipped")\n```\n\n'
            + '### Last\n\n```lua\n' + GUARD + 'return "last"\n```\n\n')
    assert result(body) == 'last'


def test_a_jump_value_reads_as_text():
    assert result(section('A', "return tostring(jump('A')) .. '|' .. type(jump('## A'))")) == 'jump to A|userdata'


def test_a_jump_is_not_a_result():
    body = section('A', "return 'a'") + section('B', "return jump('D')") + section('C', "return 'c'") \
        + section('D', "local x = 1")
    assert result(body) == 'a'


def test_a_call_runs_on_its_callers_slot_and_lends_it_when_it_joins():
    # Limit 1: task A holds the one slot; its call X spawns C and joins it,
    # lending A's slot to C, so nothing deadlocks and no second slot is used.
    body = (section('Main', "return tasks.join(tasks.spawn('A', {n = 1}))")
            + section('A', GUARD + "return 'a' .. call('X', {n = 2})")
            + section('X', GUARD + "return 'x' .. tasks.join(tasks.spawn('C', {n = 3}))")
            + section('C', GUARD + "return 'c'"))
    assert result(body, limits=RunLimits(concurrency=1)) == 'axc'


def test_a_call_from_the_main_chain_needs_no_slot():
    answers = ScriptedAnswers(None)
    events = []
    body = (section('Main', "local t = tasks.spawn('Busy', {n = 1})\nlocal r = call('Quick', {n = 1})\n"
                            "log('called')\nreturn r .. '|' .. tasks.join(t)")
            + section('Busy', GUARD + "return wait('busy')") + section('Quick', GUARD + "return 'quick'"))
    outcome = in_thread(run, prompt(body), answers=answers, limits=RunLimits(concurrency=1), events=events)
    assert answers.issued.wait(5)       # Busy holds the one slot and waits
    deadline = time.monotonic() + 5
    while not any(e['event'] == 'log' for e in events) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [e['message'] for e in events if e['event'] == 'log'] == ['called']   # while Busy still waits
    answers.held[0].reply(Answer.ok('test.wait', 'done'))
    assert outcome().result == 'quick|done'


def test_tasks_current_in_a_call_chain_is_its_callers_task():
    body = (section('Main', "local direct = call('Who', {n = 1})\n"
                            "return direct .. '|' .. tasks.join(tasks.spawn('Caller', {n = 1}))")
            + section('Caller', GUARD + "return call('Who', {n = 1})")
            + section('Who', GUARD + "local t = tasks.current()\nreturn t and t.id or 'none'"))
    assert result(body) == 'none|0.0'
