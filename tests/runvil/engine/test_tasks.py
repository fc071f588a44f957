"""Tasks: sections run in chains of their own (``tasks.spawn``, ``join``,
``join_any``, ``fanout``, ``cancel``, ``concurrency``, ``list``,
``current``), the run's concurrency limit and slot lending, timed joins,
cancels and stops, and the model's task built-ins (docs/tasks.md)."""
from __future__ import annotations

import time

import pytest

import gateway_runs
from engine_helpers import (Held, ScriptedAnswers, WaitLibrary, drive, echo, failure, in_thread, prompt, result,
                            run, section)
from runvil.engine import INTERRUPTED, Answer, CancelFlag, Engine
from runvil.harness import EventStream, Harness, RunHandle, RunLimits

GUARD = "if tasks.current() == nil then return end\n"


def task_section(name: str, source: str) -> str:
    """A section that only does work as a task (the walk enters it too)."""
    return section(name, GUARD + source)


CHILD = task_section('Child', "return 'child'")
WAITER = task_section('W', "return wait(args.w or 'w')")


def until(condition, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.002)
    return False


def settle(answers: ScriptedAnswers, count: int) -> list:
    """Wait until ``count`` effects are held, then a little longer (no more
    may come); returns the held payloads."""
    assert until(lambda: len(answers.held) >= count), [h.effect.payload for h in answers.held]
    time.sleep(0.05)
    return [h.effect.payload for h in answers.held]


def answer(held: Held, value=None) -> None:
    held.reply(Answer.ok('test.wait', held.effect.payload if value is None else value))


def task_events(events: list) -> list:
    return [(e['event'], e['task'], e.get('section', e.get('status'))) + ((e['by'],) if 'by' in e else ())
            for e in events if e['event'].startswith('task_')]


def lines_before(text: str, needle: str) -> int:
    """The 1-based line of the prompt that holds ``needle``."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


class Timers:
    """A timer answerer that holds every timer for the test to answer."""

    def __init__(self):
        self.held: list[Held] = []

    def __call__(self, effect, reply):
        work = Held(effect, reply)
        self.held.append(work)
        return work


def run_with_timers(text: str, answers: ScriptedAnswers, timers: Timers, events: list | None = None,
                    limits: RunLimits | None = None, handle: RunHandle | None = None):
    harness = Harness(limits or RunLimits(), answerers={'test.wait': answers, 'timer': timers},
                      libraries=(WaitLibrary(),))
    stream = EventStream([events.append] if events is not None else [])
    return harness.run(text, 't.md', handle=handle, events=stream)


def drive_text(text: str, limits: RunLimits | None = None, on_step=None, events: list | None = None):
    """Run ``text`` on the Engine itself, answering the oldest waiting
    effect first; ``on_step(payloads)`` sees the test.wait payloads waiting
    after every step."""
    emit = (lambda name, /, **fields: events.append(dict(fields, event=name))) if events is not None else None
    engine = Engine(text, 't.md', limits=limits or RunLimits(), cancel=CancelFlag(), emit=emit,
                    libraries=(WaitLibrary(),))
    watch = None
    if on_step is not None:
        def watch(effects):
            on_step([effect.payload for effect in effects if effect.kind == 'test.wait'])
    return drive(engine, watch=watch)


# -- spawn and join ----------------------------------------------------------------------------

def test_join_returns_the_task_result_as_json_data():
    body = (section('S', "local t = tasks.spawn('Child')\nlocal r = tasks.join(t)\n"
                         "return json.encode(r) .. '|' .. math.type(r.n) .. '|' .. type(r.list[3])")
            + task_section('Child', "return {s = 'text', n = 3, f = 1.5, yes = true, list = {1, 'two', {k = 'v'}}}"))
    assert result(body) == '{"f":1.5,"list":[1,"two",{"k":"v"}],"n":3,"s":"text","yes":true}|integer|table'


def test_a_task_that_returns_nothing_joins_as_nil():
    body = (section('S', "local t = tasks.spawn('Child')\nlocal r = tasks.join(t)\n"
                         "return tostring(r) .. '|' .. t.status")
            + task_section('Child', "local x = 1"))
    assert result(body) == 'nil|completed'
    empty = section('S', "return tostring(tasks.join(tasks.spawn('Prose')))") + '## Prose\n\nNo Lua here.\n\n'
    assert result(empty) == 'nil'


def test_a_result_that_is_not_json_data_fails_the_task():
    body = section('S', "return tasks.join(tasks.spawn('Child'))") + task_section('Child', "return print or error")
    assert failure(body) == {'kind': 'Lua', 'message': 'task id=0.0 (## Child): result must be JSON data, got function',
                             'retryable': False, 'location': None}


def test_spawn_args_are_laid_over_the_run_args():
    head = 'args:\n  - name: a\n  - name: b\n  - name: n\n    type: integer\n    default: 3\n'
    body = (section('S', "local t = tasks.spawn('Child', {b = 2, c = {1, 'x'}})\n"
                         "local plain = tasks.spawn('Child')\n"
                         "return json.encode(tasks.join(t)) .. '|' .. json.encode(tasks.join(plain)) .. '|' .. args.b")
            + task_section('Child', "return {a = args.a, b = args.b, n = args.n, c = args.c}"))
    outcome = run(prompt(body, head=head), args={'a': 'A', 'b': 'B'})
    assert outcome.to_dict() == {'outcome': 'completed', 'error': None,
                                 'result': '{"a":"A","b":2,"c":[1,"x"],"n":3}|{"a":"A","b":"B","n":3}|B'}


def test_a_task_spawned_by_a_task_sees_its_spawners_args():
    body = (section('S', "return tasks.join(tasks.spawn('Mid', {x = 'mid'}))")
            + task_section('Mid', "return tasks.join(tasks.spawn('Leaf', {y = 'leaf'}))")
            + task_section('Leaf', "return args.x .. '+' .. args.y"))
    assert result(body) == 'mid+leaf'


def test_a_tasks_var_writes_stay_in_the_task():
    body = (section('A', "var.x = 'a'\nvar.list = {1}")
            + section('S', "local r = tasks.join(tasks.spawn('Child'))\nreturn r .. '|' .. var.x .. '|' .. #var.list")
            + task_section('Child', "local seen = var.x\nvar.x = 'child'\nvar.list[2] = 2\nvar.new = true\n"
                                    "return seen .. ',' .. var.x .. ',' .. #var.list")
            + section('Z', "return tostring(var.new) .. '|' .. var.x"))
    outcome = run(prompt(body))
    assert outcome.result == 'nil|a'      # the last returning section, Z
    body = body.replace(section('Z', "return tostring(var.new) .. '|' .. var.x"), '')
    assert result(body) == 'a,child,2|a|1'


def test_a_task_starts_with_its_spawners_var_as_it_stood_at_the_spawn():
    body = (section('S', "var.x = 'at the spawn'\nlocal t = tasks.spawn('Child')\nvar.x = 'after'\n"
                         "return tasks.join(t) .. '|' .. var.x")
            + task_section('Child', "return tostring(var.x)"))
    assert result(body) == 'at the spawn|after'


def test_a_failed_task_raises_its_failure_unchanged_at_the_join():
    body = (section('S', "local t = tasks.spawn('Child')\nlocal ok, e = pcall(tasks.join, t)\n"
                         "return tostring(ok) .. '|' .. e.kind .. '|' .. e.message .. '|' .. e.name .. '|' .. t.status")
            + task_section('Child', "tools.call('nothing')"))
    assert result(body) == ('false|unbound_tool|tools.call: no local tool and no tool of a declared Pack is named '
                            '`nothing`|nothing|failed')


def test_an_uncaught_task_failure_ends_the_run_with_its_kind_and_message():
    text = prompt(section('S', "tasks.join(tasks.spawn('Child'))\nreturn 'not reached'")
                  + task_section('Child', "error('boom')"))
    line = lines_before(text, "error('boom')")
    assert run(text).to_dict()['error'] == {'kind': 'Lua', 'message': 't:%d: boom' % line, 'retryable': False,
                                            'location': None}
    quota = section('S', "tasks.join(tasks.spawn('Child'))") + task_section('Child', "for i = 1, 2000 do log('x') end")
    assert failure(quota) == {'kind': 'Quota', 'message': 'lua log event quota exceeded', 'retryable': False,
                              'location': None}


def test_handle_fields_and_text():
    body = (section('S', "local t = tasks.spawn('## Child')\n"
                         "local before = table.concat({tostring(t), t.id, t.section, t.status, t.by, type(t), "
                         "tostring(t.other)}, ',')\n"
                         "tasks.join(t)\nlocal ok, e = pcall(function() t.id = 'x' end)\n"
                         "return before .. '|' .. t.status .. '|' .. tostring(ok) .. '|' .. tostring(getmetatable(t))")
            + CHILD)
    assert result(body) == 'task id=0.0 (## Child),0.0,## Child,running,author,userdata,nil|completed|false|false'


def test_task_ids_number_each_chains_tasks():
    body = (section('S', "local a = tasks.spawn('Mid')\nlocal b = tasks.spawn('Child')\n"
                         "return tasks.join(a) .. ',' .. b.id .. ',' .. tasks.join(b)")
            + task_section('Mid', "local x, y = tasks.spawn('Child'), tasks.spawn('Child')\ntasks.join(x)\ntasks.join(y)\n"
                                  "return tasks.current().id .. ',' .. x.id .. ',' .. y.id")
            + CHILD)
    assert result(body) == '0.0,0.0.0,0.0.1,0.1,child'


def test_a_section_is_named_by_its_name_or_its_heading():
    body = (section('S', "local a = tasks.spawn('Deep')\nlocal b = tasks.spawn('### Deep')\n"
                         "return tasks.join(a) .. tasks.join(b) .. a.section")
            + '### Deep\n\n```lua\n' + GUARD + "return 'd'\n```\n\n")
    assert result(body) == 'dd### Deep'
    assert failure(section('S', "tasks.spawn('## Deep')") + '### Deep\n\n')['message'] == \
        'section heading `## Deep` not found; available sections: ## S, ### Deep'
    assert failure(section('S', "tasks.spawn('Nope')")) == {
        'kind': 'Lua', 'message': 'section heading `Nope` not found; available sections: ## S',
        'retryable': False, 'location': None}


@pytest.mark.parametrize('reference', ['', ' ', '#', '# S', '##S', '## ', '####### S', ' S', 'S ', '## S '])
def test_a_malformed_heading_reference(reference):
    assert failure(section('S', "tasks.spawn(%r)" % reference))['message'] == (
        'malformed heading reference `%s`: name a section by its heading text (`Child`) or as written '
        '(`## Child`)' % reference)


def test_a_missing_heading_in_the_h1_body_fails_the_gate():
    error = failure("```lua\ntasks.spawn('Nope')\n```\n\n" + section('S', 'return 1'))
    assert error['kind'] == 'RequirementsUnmet'
    assert 'section heading `Nope` not found; available sections: ## S' in error['message']


@pytest.mark.parametrize('line, message', [
    ("tasks.spawn()", 'tasks.spawn takes (section, args?)'),
    ("tasks.spawn(1)", "bad argument #1 to 'tasks.spawn' (string expected, got number)"),
    ("tasks.spawn('Child', 5)", "bad argument #2 to 'tasks.spawn' (table expected, got number)"),
    ("tasks.spawn('Child', {f = function() end})", 'tasks.spawn: args.f must be JSON data, got function'),
    ("tasks.join()", 'tasks.join takes (task, timeout?)'),
    ("tasks.join(nil)", "bad argument #1 to 'tasks.join' (task expected, got nil)"),
    ("tasks.join({})", "bad argument #1 to 'tasks.join' (task expected, got table)"),
    ("tasks.join(t, 'x')", "bad argument #2 to 'tasks.join' (number expected, got string)"),
    ("tasks.join(t, 0)", 'tasks.join: a timeout is a positive number of seconds'),
    ("tasks.join(t, -1)", 'tasks.join: a timeout is a positive number of seconds'),
    ("tasks.join(t, 1, 2)", 'tasks.join takes (task, timeout?)'),
    ("tasks.join_any(t)", "bad argument #1 to 'tasks.join_any' (table expected, got userdata)"),
    ("tasks.join_any({})", 'tasks.join_any: the list of tasks is empty'),
    ("tasks.join_any({5})", "bad argument #1 to 'tasks.join_any' (task expected, got number)"),
    ("tasks.join_any({t}, 0)", 'tasks.join_any: a timeout is a positive number of seconds'),
    ("tasks.cancel()", 'tasks.cancel takes (task)'),
    ("tasks.cancel('t')", "bad argument #1 to 'tasks.cancel' (task expected, got string)"),
    ("tasks.concurrency()", 'tasks.concurrency takes (n)'),
    ("tasks.concurrency(0)", 'tasks.concurrency: the limit is at least 1, got 0'),
    ("tasks.concurrency(1.5)", "bad argument #1 to 'tasks.concurrency' (integer expected, got number)"),
    ("tasks.concurrency('2')", "bad argument #1 to 'tasks.concurrency' (integer expected, got string)"),
    ("tasks.fanout('Child')", 'tasks.fanout takes (section, inputs)'),
    ("tasks.fanout(1, {})", "bad argument #1 to 'tasks.fanout' (string expected, got number)"),
    ("tasks.fanout('Child', 3)", "bad argument #2 to 'tasks.fanout' (table expected, got number)"),
    ("tasks.fanout('Child', {3})", "bad argument #2 to 'tasks.fanout' (table expected, got number)"),
    ("tasks.fanout('Nope', {{}})", 'section heading `Nope` not found; available sections: ## S, ## Child'),
])
def test_argument_checks(line, message):
    body = (section('S', "local t = tasks.spawn('Child')\nlocal ok, err = pcall(function() %s end)\n"
                         "tasks.join(t)\nreturn tostring(ok) .. ':' .. err.kind .. ':' .. tostring(err)" % line)
            + CHILD)
    assert result(body) == 'false:lua:' + message


# -- ownership, consumed ends, cancels and leaks ------------------------------------------------

def test_an_end_is_taken_once():
    body = (section('S', "local t = tasks.spawn('Child')\ntasks.join(t)\nlocal out = {}\n"
                         "for _, f in ipairs({tasks.join, function(x) return tasks.join_any({x}) end, tasks.cancel}) do\n"
                         "  local ok, e = pcall(f, t)\n"
                         "  out[#out + 1] = e.kind .. ':' .. e.message .. ':' .. tostring(e.task == t)\nend\n"
                         "return table.concat(out, '|')")
            + CHILD)
    assert result(body).split('|') == [
        'task_consumed:tasks.join: the end of task id=0.0 (## Child) was already taken:true',
        'task_consumed:tasks.join_any: the end of task id=0.0 (## Child) was already taken:true',
        'task_consumed:tasks.cancel: the end of task id=0.0 (## Child) was already taken:true']
    uncaught = section('S', "local t = tasks.spawn('Child')\ntasks.join(t)\ntasks.join(t)") + CHILD
    assert failure(uncaught) == {'kind': 'Lua', 'message': 'tasks.join: the end of task id=0.0 (## Child) was already taken',
                                 'retryable': False, 'location': None}


def test_only_the_chain_that_started_a_task_may_take_its_end_or_cancel_it():
    body = (section('S', "local ok, err = pcall(tasks.join, tasks.spawn('Middle'))\nlocal leaf = err.task\nlocal out = {err.kind}\n"
                         "for _, f in ipairs({tasks.join, function(x) return tasks.join_any({x}) end, tasks.cancel}) do\n"
                         "  local ok2, e = pcall(f, leaf)\n"
                         "  out[#out + 1] = e.kind .. ':' .. e.message .. ':' .. tostring(e.task == leaf)\nend\n"
                         "out[#out + 1] = leaf.status\nreturn table.concat(out, '|')")
            + task_section('Middle', "local t = tasks.spawn('Leaf')\ntasks.join(t)\nreturn tasks.join(t)")
            + task_section('Leaf', "return 'leaf'"))
    assert result(body).split('|') == [
        'task_consumed',
        'task_not_owned:tasks.join: task id=0.0.0 (## Leaf) was started by another chain:true',
        'task_not_owned:tasks.join_any: task id=0.0.0 (## Leaf) was started by another chain:true',
        'task_not_owned:tasks.cancel: task id=0.0.0 (## Leaf) was started by another chain:true',
        'completed']


def test_a_task_may_not_cancel_itself():
    body = (section('S', "return tasks.join(tasks.spawn('Child'))")
            + task_section('Child', "local ok, e = pcall(tasks.cancel, tasks.current())\nreturn e.kind"))
    assert result(body) == 'task_not_owned'


def test_joining_a_cancelled_task_raises_cancelled_with_the_task():
    body = (section('S', "local t = tasks.spawn('Child')\ntasks.cancel(t)\nlocal status = t.status\n"
                         "local ok, e = pcall(tasks.join, t)\n"
                         "return table.concat({status, tostring(ok), e.kind, e.message, tostring(e.task == t), "
                         "tostring(e), #tasks.list()}, '|')")
            + CHILD)
    assert result(body) == ('canceled|false|cancelled|task id=0.0 (## Child) was canceled: the author cancelled it|'
                            'true|task id=0.0 (## Child) was canceled: the author cancelled it|0')


def test_a_cancelled_value_raised_again_ends_the_run_as_lua():
    body = section('S', "local t = tasks.spawn('Child')\ntasks.cancel(t)\nlocal ok, e = pcall(tasks.join, t)\nerror(e)") + CHILD
    assert failure(body) == {'kind': 'Lua', 'message': 'task id=0.0 (## Child) was canceled: the author cancelled it',
                             'retryable': False, 'location': None}


def test_cancelling_a_finished_task_does_nothing():
    body = (section('S', "local t = tasks.spawn('Child')\nlocal u = tasks.spawn('W')\ntasks.join(u)\n"
                         "local before = t.status\ntasks.cancel(t)\nreturn before .. '|' .. t.status .. '|' .. tasks.join(t)")
            + CHILD + WAITER)
    assert result(body) == 'completed|completed|child'


def test_a_cancelled_queued_task_never_starts():
    events = []
    body = (section('S', "local a = tasks.spawn('W')\nlocal b = tasks.spawn('Child')\nlocal before = b.status\n"
                         "tasks.cancel(b)\nlocal ok = pcall(tasks.join, b)\nreturn before .. '|' .. b.status .. '|' .. "
                         "tostring(ok) .. '|' .. tasks.join(a)")
            + CHILD + WAITER)
    assert result(body, limits=RunLimits(concurrency=1), events=events) == 'queued|canceled|false|w'
    assert task_events(events) == [
        ('task_spawned', '0.0', 'W', 'author'), ('task_started', '0.0', 'W'),
        ('task_spawned', '0.1', 'Child', 'author'), ('task_finished', '0.1', 'canceled'),
        ('task_finished', '0.0', 'completed')]


def test_a_section_that_leaves_tasks_not_joined_fails_with_tasks_live():
    running = section('S', "tasks.spawn('W')\nwait('tick')\nreturn 'x'") + WAITER
    answers = ScriptedAnswers(echo, None)
    assert failure(running, answers=answers) == {
        'kind': 'Lua', 'message': 'section `S` ended with 1 task not joined: id=0.0 (## W)', 'retryable': False,
        'location': None}
    assert answers.held[0].aborted
    finished = (section('S', "local a = tasks.spawn('Child')\nlocal b = tasks.spawn('W')\nlocal c = tasks.spawn('Child')\n"
                             "tasks.join(b)\nreturn 'x'") + CHILD + WAITER)
    assert failure(finished)['message'] == \
        'section `S` ended with 2 tasks not joined: id=0.0 (## Child), id=0.2 (## Child)'
    caught = section('S', "local ok = pcall(function() tasks.spawn('Child') end)\nreturn tostring(ok)") + CHILD
    assert failure(caught)['message'] == 'section `S` ended with 1 task not joined: id=0.0 (## Child)'


def test_tasks_live_in_the_h1_body_and_in_a_task():
    h1 = '```lua\ntasks.spawn(\'Child\')\n```\n\n' + CHILD
    assert failure(h1) == {'kind': 'Lua', 'message': 'the H1 body ended with 1 task not joined: id=0.0 (## Child)',
                           'retryable': False, 'location': None}
    nested = (section('S', "local ok, e = pcall(tasks.join, tasks.spawn('Mid'))\nreturn e.kind .. '|' .. e.message")
              + task_section('Mid', "tasks.spawn('Child')\nreturn 'mid'") + CHILD)
    assert result(nested) == 'tasks_live|section `Mid` ended with 1 task not joined: id=0.0.0 (## Child)'


def test_a_failed_task_not_joined_is_leaked_too():
    body = section('S', "local t = tasks.spawn('Child')\nwait(1)\nreturn t.status") + task_section('Child', "error('x', 0)")
    assert failure(body)['message'] == 'section `S` ended with 1 task not joined: id=0.0 (## Child)'


def test_cancelled_tasks_are_not_leaked():
    body = section('S', "local t = tasks.spawn('W')\nwait('tick')\ntasks.cancel(t)\nreturn 'fine'") + WAITER
    answers = ScriptedAnswers(echo, None)
    assert result(body, answers=answers) == 'fine'
    assert answers.held[0].aborted


def test_a_failing_section_keeps_its_own_error_and_its_tasks_are_cancelled():
    events = []
    text = prompt(section('S', "tasks.spawn('W')\nwait('tick')\nerror('own')") + WAITER)
    answers = ScriptedAnswers(echo, None)
    outcome = run(text, answers=answers, events=events)
    assert outcome.to_dict()['error'] == {'kind': 'Lua', 'message': 't:%d: own' % lines_before(text, "error('own')"),
                                          'retryable': False, 'location': None}
    assert answers.held[0].aborted
    assert ('task_finished', '0.0', 'canceled') in task_events(events)


def test_list_and_current():
    body = (section('S', "local a = tasks.spawn('Child')\nlocal b = tasks.spawn('Child')\nlocal n0 = #tasks.list()\n"
                         "tasks.join(a)\nlocal l = tasks.list()\nlocal one = #l .. tostring(l[1] == b)\ntasks.join(b)\n"
                         "tasks.fanout('Child', {{}, {}})\n"
                         "return table.concat({n0, one, #tasks.list(), tostring(tasks.current()), tasks.join(tasks.spawn('Cur'))}, '|')")
            + CHILD
            + task_section('Cur', "local c = tasks.current()\nreturn c.id .. ',' .. c.status .. ',' .. c.by .. ',' .. #tasks.list()"))
    assert result(body) == '2|1true|0|nil|0.4,running,author,0'     # the fanout arms were 0.2 and 0.3
    arm = section('S', "return tasks.fanout('Arm', {{}})[1]") + task_section('Arm', "return tasks.current().by")
    assert result(arm) == 'arm'
    h1 = '```lua\nvar.h1 = tostring(tasks.current())\n```\n\n' + section('S', "return var.h1")
    assert result(h1) == 'nil'


def test_the_task_events():
    events = []
    body = (section('S', "local a = tasks.spawn('Child')\nlocal ok = pcall(tasks.join, tasks.spawn('Bad'))\n"
                         "tasks.fanout('Child', {{}})\nreturn tasks.join(a)")
            + CHILD + task_section('Bad', "error('bad', 0)"))
    assert result(body, events=events) == 'child'
    assert task_events(events) == [
        ('task_spawned', '0.0', 'Child', 'author'), ('task_started', '0.0', 'Child'),
        ('task_spawned', '0.1', 'Bad', 'author'), ('task_started', '0.1', 'Bad'),
        ('task_finished', '0.0', 'completed'), ('task_finished', '0.1', 'failed'),
        ('task_spawned', '0.2', 'Child', 'arm'), ('task_started', '0.2', 'Child'),
        ('task_finished', '0.2', 'completed')]


def test_spawns_nest_eight_deep():
    deeper = task_section('Deeper', "local ok, err = pcall(tasks.spawn, 'Deeper')\nif ok then return tasks.join(err) end\n"
                                    "return tasks.current().id .. '|' .. err.kind .. '|' .. err.message")
    assert result(section('Start', "return tasks.join(tasks.spawn('Deeper'))") + deeper) == \
        '0.0.0.0.0.0.0.0.0|lua|call recursion exceeded cap of 8'
    uncaught = (section('Start', "return tasks.join(tasks.spawn('Deeper'))")
                + task_section('Deeper', "return tasks.join(tasks.spawn('Deeper'))"))
    assert failure(uncaught) == {'kind': 'Quota', 'message': 'call recursion exceeded cap of 8', 'retryable': False,
                                 'location': None}


# -- concurrency ---------------------------------------------------------------------------------

def test_the_limit_caps_running_tasks_and_queued_tasks_start_in_spawn_order():
    body = (section('S', "local ts = {}\nfor i = 1, 5 do ts[i] = tasks.spawn('W', {w = i}) end\n"
                         "local st = {}\nfor i = 1, 5 do st[i] = ts[i].status end\nlocal out = {}\n"
                         "for i = 1, 5 do out[i] = tasks.join(ts[i]) end\n"
                         "return table.concat(st, ',') .. '|' .. table.concat(out, ',')")
            + WAITER)
    answers = ScriptedAnswers(*[None] * 5)
    events = []
    outcome = in_thread(run, prompt(body), limits=RunLimits(concurrency=2), answers=answers, events=events)
    assert settle(answers, 2) == [1, 2]
    answer(answers.held[1], 'two')
    assert settle(answers, 3) == [1, 2, 3]
    answer(answers.held[2])
    assert settle(answers, 4) == [1, 2, 3, 4]
    answer(answers.held[0])
    assert settle(answers, 5) == [1, 2, 3, 4, 5]
    answer(answers.held[4])
    answer(answers.held[3])
    assert outcome().to_dict() == {'outcome': 'completed', 'result': 'running,running,queued,queued,queued|1,two,3,4,5',
                                   'error': None}
    started = [e['task'] for e in events if e['event'] == 'task_started']
    assert started == ['0.0', '0.1', '0.2', '0.3', '0.4']
    order = [(e['event'], e['task']) for e in events if e['event'] in ('task_started', 'task_finished')]
    assert order == [('task_started', '0.0'), ('task_started', '0.1'), ('task_finished', '0.1'),
                     ('task_started', '0.2'), ('task_finished', '0.2'), ('task_started', '0.3'),
                     ('task_finished', '0.0'), ('task_started', '0.4'), ('task_finished', '0.4'),
                     ('task_finished', '0.3')]


def test_fanout_arms_count_toward_the_limit():
    peak = []
    body = (section('S', "return table.concat(tasks.fanout('W', {{w = 1}, {w = 2}, {w = 3}, {w = 4}, {w = 5}}), ',')")
            + WAITER)
    outcome = drive_text(prompt(body), RunLimits(concurrency=2), on_step=lambda waiting: peak.append(len(waiting)))
    assert outcome.result == '1,2,3,4,5'
    assert max(peak) == 2


def test_tasks_concurrency_lowers_a_chains_own_cap():
    body = section('S', "return table.concat({tasks.concurrency(5), tasks.concurrency(3), tasks.concurrency(1), "
                        "tasks.concurrency(4), tasks.concurrency(2.0)}, ',')")
    assert result(body, limits=RunLimits(concurrency=2)) == '2,2,1,1,1'
    assert result(section('S', "return tasks.concurrency(20)")) == '8'


def test_tasks_concurrency_one_serialises_a_chains_own_tasks():
    body = (section('S', "tasks.concurrency(1)\nlocal ts = {}\nfor i = 1, 3 do ts[i] = tasks.spawn('W', {w = i}) end\n"
                         "local st = ts[1].status .. ts[2].status\nlocal out = {}\n"
                         "for i = 3, 1, -1 do out[#out + 1] = tasks.join(ts[i]) end\n"
                         "return st .. '|' .. table.concat(out, ',')")
            + WAITER)
    seen = []
    outcome = drive_text(prompt(body), on_step=lambda waiting: seen.append(tuple(waiting)))
    assert outcome.result == 'runningqueued|3,2,1'
    assert [s for s in seen if s] == [(1,), (2,), (3,)]


def test_tasks_concurrency_binds_a_tasks_own_children_not_the_run():
    body = (section('S', "local a = tasks.spawn('Mid')\nlocal b = tasks.spawn('W', {w = 'other'})\n"
                         "return tasks.join(a) .. '|' .. tasks.join(b)")
            + task_section('Mid', "tasks.concurrency(1)\nlocal x, y = tasks.spawn('W', {w = 'x'}), tasks.spawn('W', {w = 'y'})\n"
                                  "return tasks.join(x) .. tasks.join(y)")
            + WAITER)
    seen = []
    assert drive_text(prompt(body), on_step=lambda waiting: seen.append(sorted(map(str, waiting)))).result == 'xy|other'
    assert seen[0] == ['other', 'x']


@pytest.mark.parametrize('limit', [1, 2])
def test_nested_joins_never_deadlock(limit):
    body = (section('S', "local a = tasks.spawn('Level', {n = 1})\nlocal b = tasks.spawn('Level', {n = 1})\n"
                         "return tasks.join(a) + tasks.join(b)")
            + task_section('Level', "if args.n == 4 then return wait(1) end\n"
                                    "local kid = tasks.spawn('Level', {n = args.n + 1})\n"
                                    "local arms = tasks.fanout('Level', {{n = 4}, {n = 4}})\n"
                                    "local _, first = tasks.join_any({kid})\n"
                                    "return first + arms[1] + arms[2] + wait(0)")
            + WAITER)
    peak = []
    outcome = drive_text(prompt(body), RunLimits(concurrency=limit), on_step=lambda waiting: peak.append(len(waiting)))
    # Level 4 gives 1, level 3 gives 1 + 2, level 2 gives 3 + 2, level 1 gives 5 + 2: 7 each.
    assert outcome.to_dict() == {'outcome': 'completed', 'result': '14', 'error': None}
    assert max(peak) <= limit
    answers = ScriptedAnswers(*[echo] * 40)
    assert in_thread(result, body, limits=RunLimits(concurrency=limit), answers=answers)(timeout=10) == '14'


def test_a_waiter_takes_its_slot_back_ahead_of_queued_tasks():
    body = (section('S', "local p = tasks.spawn('P')\nwait('tick')\nlocal q = tasks.spawn('Q')\n"
                         "return tasks.join(p) .. '|' .. tasks.join(q)")
            + task_section('P', "local c = tasks.spawn('C')\nlocal r, why = tasks.join(c, 5)\n"
                                "return tostring(why) .. ',' .. tasks.join(c) .. ',' .. wait('p')")
            + task_section('C', "return wait('c')") + task_section('Q', "return wait('q')"))
    answers = ScriptedAnswers(echo, None, None, None)
    timers = Timers()
    events = []
    outcome = in_thread(run_with_timers, prompt(body), answers, timers, events, RunLimits(concurrency=1))
    assert settle(answers, 1) == ['c'] and until(lambda: timers.held)
    timers.held[0].reply(Answer.ok('timer'))    # P wakes while C holds the only slot
    answer(answers.held[0])                      # C ends: P, not Q, takes the slot
    assert settle(answers, 2) == ['c', 'p']
    assert [e['task'] for e in events if e['event'] == 'task_started'] == ['0.0', '0.0.0']
    answer(answers.held[1])
    assert settle(answers, 3) == ['c', 'p', 'q']
    answer(answers.held[2])
    assert outcome().result == 'timeout,c,p|q'


def test_a_lent_slot_coming_back_keeps_the_owners_own_cap():
    # S caps its own tasks at 1.  P lends its slot while it joins its child C;
    # P and Q (both S's) must never both wait on the Harness at once.
    body = (section('S', "tasks.concurrency(1)\nlocal p = tasks.spawn('P')\nlocal q = tasks.spawn('Q')\n"
                         "return tasks.join(p) .. tasks.join(q)")
            + task_section('P', "tasks.join(tasks.spawn('C'))\nreturn wait('p')")
            + task_section('Q', "return wait('q')") + task_section('C', "return wait('c')"))
    seen = []
    assert drive_text(prompt(body), on_step=lambda waiting: seen.append(set(waiting))).result == 'pq'
    assert not [waiting for waiting in seen if {'p', 'q'} <= waiting], seen


# -- timed joins and stops -------------------------------------------------------------------------

def test_a_timed_join_that_runs_out_returns_timeout_and_the_task_goes_on():
    # The Harness's own timer answerer: the task waits until the test answers it.
    body = (section('S', "local t = tasks.spawn('W')\nlocal a, b = tasks.join(t, 0.05)\nlocal status = t.status\n"
                         "wait('timed out')\nlocal c = tasks.join(t)\n"
                         "return table.concat({tostring(a), tostring(b), status, c, t.status}, '|')")
            + WAITER)
    answers = ScriptedAnswers(None, None)
    outcome = in_thread(run, prompt(body), answers=answers)
    assert settle(answers, 2) == ['w', 'timed out']
    answer(answers.held[1])
    answer(answers.held[0], 'done')
    assert outcome().to_dict() == {'outcome': 'completed', 'result': 'nil|timeout|running|done|completed',
                                   'error': None}
    assert not answers.held[0].aborted


def test_a_timed_join_any_returns_timeout_then_the_first_task_to_end():
    body = (section('S', "local a = tasks.spawn('W', {w = 'a'})\nlocal b = tasks.spawn('W', {w = 'b'})\n"
                         "local h, why = tasks.join_any({a, b}, 1)\nlocal h2, r = tasks.join_any({a, b})\n"
                         "local rest = tasks.join(h2 == a and b or a)\n"
                         "return table.concat({tostring(h), why, tostring(h2 == b), r, rest}, '|')")
            + WAITER)
    answers = ScriptedAnswers(None, None)
    timers = Timers()
    outcome = in_thread(run_with_timers, prompt(body), answers, timers)
    assert settle(answers, 2) == ['a', 'b'] and until(lambda: timers.held)
    assert timers.held[0].effect.payload == 1.0
    timers.held[0].reply(Answer.ok('timer'))    # handled first: the Harness inbox is in order
    answer(answers.held[1])
    answer(answers.held[0])
    assert outcome().result == 'nil|timeout|true|b|a'
    assert len(timers.held) == 1 and not timers.held[0].aborted     # an untimed wait sets no timer


def test_join_any_takes_the_task_that_ended_first():
    # b ends before c; both have ended when join_any looks, and it takes b, the first to end, though c is listed first.
    body = (section('S', "local a = tasks.spawn('W', {w = 'a'})\nlocal b = tasks.spawn('Child')\nlocal c = tasks.spawn('Child')\n"
                         "local h, r = tasks.join_any({a, c, b})\nlocal h2, r2 = tasks.join_any({a, c})\n"
                         "return table.concat({tostring(h == b), r, tostring(h2 == c), r2, tasks.join(a)}, '|')")
            + CHILD + WAITER)
    answers = ScriptedAnswers(None)
    outcome = in_thread(run, prompt(body), answers=answers)
    settle(answers, 1)
    answer(answers.held[0])
    assert outcome().result == 'true|child|true|child|a'


def test_a_stop_interrupts_a_timed_join_and_the_task_goes_on():
    body = (section('S', "local t = tasks.spawn('Steady')\nlocal ok, e = pcall(tasks.join, t, 30)\nlocal status = t.status\n"
                         "local keys = {}\nfor k in pairs(e) do keys[#keys + 1] = k end\ntable.sort(keys)\n"
                         "return table.concat({tostring(ok), e.kind, e.message, table.concat(keys, ','), status, "
                         "tasks.join(t)}, '|')")
            + task_section('Steady', "return steady('kept')"))
    answers = ScriptedAnswers(None)
    handle = RunHandle()
    events = []
    outcome = in_thread(run, prompt(body), answers=answers, handle=handle, events=events)
    settle(answers, 1)
    assert until(lambda: len([e for e in events if e['event'] == 'effect_issued']) == 2)
    handle.stop()
    time.sleep(0.1)
    assert not answers.held[0].aborted
    answer(answers.held[0])
    assert outcome().to_dict() == {'outcome': 'completed', 'error': None,
                                   'result': 'false|cancelled|%s|kind,message|running|kept' % INTERRUPTED}


def test_an_untimed_join_is_left_waiting_by_a_stop():
    body = (section('S', "local t = tasks.spawn('Steady')\nreturn tasks.join(t)")
            + task_section('Steady', "return steady('kept')"))
    answers = ScriptedAnswers(None)
    handle = RunHandle()
    outcome = in_thread(run, prompt(body), answers=answers, handle=handle)
    settle(answers, 1)
    handle.stop()
    time.sleep(0.05)
    answer(answers.held[0])
    assert outcome().result == 'kept'


def test_the_timer_is_aborted_when_the_task_ends_first_and_its_late_answer_changes_nothing():
    body = (section('S', "local t = tasks.spawn('W')\nlocal r = tasks.join(t, 30)\nreturn r .. '|' .. wait('after')")
            + WAITER)
    answers = ScriptedAnswers(None, None)
    timers = Timers()
    outcome = in_thread(run_with_timers, prompt(body), answers, timers)
    assert settle(answers, 1) == ['w'] and until(lambda: timers.held)
    assert timers.held[0].effect.payload == 30.0
    answer(answers.held[0])
    assert settle(answers, 2) == ['w', 'after']
    assert until(lambda: timers.held[0].aborted)
    timers.held[0].reply(Answer.ok('timer'))     # too late: the Harness no longer waits for it
    time.sleep(0.05)
    answer(answers.held[1])
    assert outcome().to_dict() == {'outcome': 'completed', 'result': 'w|after', 'error': None}


def test_a_long_timed_join_ends_as_soon_as_the_task_does():
    body = section('S', "return tasks.join(tasks.spawn('W'), 30)") + WAITER
    answers = ScriptedAnswers(None)
    started = time.monotonic()
    outcome = in_thread(run, prompt(body), answers=answers)
    settle(answers, 1)
    answer(answers.held[0])
    assert outcome(timeout=5).result == 'w'
    assert time.monotonic() - started < 5


def test_a_timed_join_of_a_failing_task_raises_its_failure():
    body = (section('S', "local t = tasks.spawn('Bad')\nlocal ok, e = pcall(tasks.join, t, 30)\n"
                         "return tostring(ok) .. '|' .. e.message")
            + task_section('Bad', "wait(1)\nerror('late failure', 0)"))
    assert in_thread(result, body)(timeout=5) == 'false|late failure'


# -- cancels -------------------------------------------------------------------------------------

def test_cancelling_a_waiting_task_aborts_its_effect_and_the_run_goes_on():
    events = []
    body = (section('S', "local t = tasks.spawn('W')\nwait('tick')\nlocal before = t.status\ntasks.cancel(t)\n"
                         "local ok, e = pcall(tasks.join, t)\n"
                         "return before .. '|' .. t.status .. '|' .. e.message .. '|' .. wait('after')")
            + WAITER)
    answers = ScriptedAnswers(echo, None, echo)
    assert result(body, answers=answers, events=events) == \
        'running|canceled|task id=0.0 (## W) was canceled: the author cancelled it|after'
    assert [h.effect.payload for h in answers.held] == ['w'] and answers.held[0].aborted
    assert [e.payload for e in answers.effects] == ['tick', 'w', 'after']
    assert task_events(events)[-1] == ('task_finished', '0.0', 'canceled')


def test_cancelling_a_task_cancels_the_tasks_it_started():
    events = []
    body = (section('S', "local t = tasks.spawn('Mid')\nwait('tick')\ntasks.cancel(t)\nreturn t.status")
            + task_section('Mid', "local g = tasks.spawn('W')\nlocal h = tasks.spawn('W', {w = 'queued'})\n"
                                  "return tasks.join(g)")
            + WAITER)
    answers = ScriptedAnswers(echo, None, None)
    assert result(body, answers=answers, events=events, limits=RunLimits(concurrency=1)) == 'canceled'
    assert [(h.effect.payload, h.aborted) for h in answers.held] == [('w', True)]
    finished = [(e['task'], e['status']) for e in events if e['event'] == 'task_finished']
    assert finished == [('0.0.0', 'canceled'), ('0.0.1', 'canceled'), ('0.0', 'canceled')]


def test_tearing_down_a_sections_tasks_starts_none_of_its_queued_ones():
    events = []
    body = (section('S', "local a = tasks.spawn('W')\nlocal b = tasks.spawn('W', {w = 'b'})\nwait('tick')\n"
                         "error('own', 0)")
            + WAITER)
    assert failure(body, answers=ScriptedAnswers(echo, None, None), events=events,
                   limits=RunLimits(concurrency=1))['message'] == 'own'
    assert task_events(events) == [
        ('task_spawned', '0.0', 'W', 'author'), ('task_started', '0.0', 'W'),
        ('task_spawned', '0.1', 'W', 'author'),
        ('task_finished', '0.0', 'canceled'), ('task_finished', '0.1', 'canceled')]


def test_a_cascaded_cancel_reads_the_owner_ended_reason():
    body = (section('S', "local t = tasks.spawn('Mid')\nwait('tick')\ntasks.cancel(t)\nreturn t.status")
            + task_section('Mid', "local g = tasks.spawn('W')\nlocal ok, e = pcall(tasks.join, g)\nreturn 'never'")
            + WAITER)
    assert result(body, answers=ScriptedAnswers(echo, None)) == 'canceled'


def test_a_cancelled_task_issues_no_further_effects():
    events = []
    body = (section('S', "local t = tasks.spawn('Closing')\nwait('tick')\ntasks.cancel(t)\n"
                         "return t.status .. '|' .. wait('after')")
            + task_section('Closing', "local guard <close> = setmetatable({}, {__close = function()\n"
                                      "  wait('late')\n  log('ran on after the cancel')\nend})\nreturn wait('w')"))
    answers = ScriptedAnswers(echo, None, echo, echo)
    assert result(body, answers=answers, events=events) == 'canceled|after'
    assert [e.payload for e in answers.effects] == ['tick', 'w', 'after']
    assert not [e for e in events if e['event'] == 'log']


def test_cancelling_the_run_while_tasks_wait_ends_it_cancelled():
    events = []
    body = (section('S', "local a = tasks.spawn('W', {w = 'a'})\nlocal b = tasks.spawn('Mid')\n"
                         "return tasks.join(a) .. tasks.join(b)")
            + task_section('Mid', "return tasks.join(tasks.spawn('W', {w = 'deep'}))") + WAITER)
    answers = ScriptedAnswers(None, None)
    handle = RunHandle()
    outcome = in_thread(run, prompt(body), answers=answers, handle=handle, events=events)
    assert sorted(settle(answers, 2)) == ['a', 'deep']
    handle.cancel()
    assert outcome().to_dict() == {'outcome': 'cancelled', 'result': None, 'error': None}
    assert all(h.aborted for h in answers.held)
    for held in answers.held:       # late replies change nothing
        answer(held)
    finished = {e['task']: e['status'] for e in events if e['event'] == 'task_finished'}
    assert finished == {'0.0': 'canceled', '0.1': 'canceled', '0.1.0': 'canceled'}
    assert events[-1]['event'] == 'run_finished'


# -- fanout --------------------------------------------------------------------------------------

def test_fanout_returns_results_in_input_order():
    body = (section('S', "local r = tasks.fanout('Arm', {{n = 1}, {n = 2}, {n = 3}})\n"
                         "return table.concat(r, ',') .. '|' .. #tasks.fanout('Arm', {}) .. '|' .. #tasks.list()")
            + task_section('Arm', "return args.n * 10 + wait(args.n)"))
    answers = ScriptedAnswers(None, None, None)
    outcome = in_thread(run, prompt(body), answers=answers)
    assert settle(answers, 3) == [1, 2, 3]
    for held in reversed(answers.held):
        answer(held)
        time.sleep(0.01)
    assert outcome().result == '11,22,33|0|0'


def test_fanout_raises_the_first_failed_arm_in_input_order_once_every_arm_ended():
    body = (section('S', "local ok, e = pcall(tasks.fanout, 'Arm', {{n = 1}, {n = 2, fail = 'second'}, "
                         "{n = 3, fail = 'third'}, {n = 4}})\nreturn e.kind .. '|' .. e.message .. '|' .. #tasks.list()")
            + task_section('Arm', "local v = wait(args.n)\nif args.fail then error(args.fail, 0) end\nreturn v"))
    answers = ScriptedAnswers(None, None, None, None)
    events = []
    outcome = in_thread(run, prompt(body), answers=answers, events=events)
    assert settle(answers, 4) == [1, 2, 3, 4]
    for i in (2, 1, 0):     # the third arm fails first, then the second
        answer(answers.held[i])
        time.sleep(0.01)
    time.sleep(0.05)
    assert not [e for e in events if e['event'] == 'section_finished'], 'fanout waits for every arm'
    answer(answers.held[3])
    assert outcome().result == 'lua|second|0'
    assert {e['task']: e['status'] for e in events if e['event'] == 'task_finished'} == {
        '0.0': 'completed', '0.1': 'failed', '0.2': 'failed', '0.3': 'completed'}


def test_an_uncaught_fanout_failure_ends_the_run_with_it():
    body = section('S', "return tasks.fanout('Arm', {{}, {fail = 'arm broke'}})[1]") + \
        task_section('Arm', "if args.fail then error(args.fail, 0) end\nreturn 'ok'")
    assert failure(body) == {'kind': 'Lua', 'message': 'arm broke', 'retryable': False, 'location': None}


def test_fanout_arms_nest_eight_deep():
    body = (section('Start', "return #tasks.fanout('Arm', {{}, {}})")
            + task_section('Arm', "return #tasks.fanout('Arm', {{}})"))
    assert failure(body) == {'kind': 'Quota', 'message': 'tasks.fanout recursion exceeded cap of 8',
                             'retryable': False, 'location': None}
    caught = (section('Start', "return tasks.fanout('Arm', {{}})[1]")
              + task_section('Arm', "local ok, r = pcall(tasks.fanout, 'Arm', {{}})\n"
                                    "if ok then return r[1] end\nreturn tasks.current().id .. '|' .. r.kind .. '|' .. r.message"))
    assert result(caught) == '0.0.0.0.0.0.0.0.0|lua|tasks.fanout recursion exceeded cap of 8'


# -- the model's task built-ins ---------------------------------------------------------------------

def model_prompt(ask: str, *sections: str) -> str:
    return gateway_runs.prompt(gateway_runs.section('Ask', "models.use('writer')\n" + ask) + ''.join(sections))


def call(call_id: str, name: str, **arguments) -> dict:
    return {'tool_calls': [{'id': call_id, 'name': name, 'arguments': arguments}]}


MODEL_CHILD = gateway_runs.section('Child', GUARD + "if args.input == 'fail' then error('child broke', 0) end\n"
                                               "return 'child says ' .. tostring(args.input)")
ROLES = ("local parts = {}\nfor i = 1, #messages do parts[i] = messages[i].role .. '=' .. messages[i].content end\n"
         "return table.concat(parts, '\\n')")


def test_offer_tasks_puts_three_tools_in_scope(served):
    gw, client = served([{'text': 'ok'}])
    text = model_prompt("tools.offer_tasks('Child')\ntools.offer_tasks('## Other', 'Child')\n"
                        "messages:user('go')\nmodels.loop()\nreturn 1",
                        MODEL_CHILD, gateway_runs.section('Other', 'return nil'))
    assert gateway_runs.result(client, text) == '1'
    tools = gw.requests[0].json['tools']
    assert [t['function']['name'] for t in tools] == ['task', 'task_status', 'await_tasks']
    assert [t['type'] for t in tools] == ['function'] * 3
    assert [t['function']['parameters'] for t in tools] == [
        {'type': 'object', 'required': ['section'],
         'properties': {'section': {'type': 'string', 'enum': ['Child', '## Other']},
                        'input': {'type': 'string', 'description': 'What the task works on.'}}},
        {'type': 'object', 'properties': {'id': {'type': 'string'}}},
        {'type': 'object', 'properties': {'ids': {'type': 'array', 'items': {'type': 'string'}}}}]
    assert all(t['function']['description'] for t in tools)


def test_offer_tasks_refusals(served):
    _, client = served()
    checks = [("tools.offer_tasks()", 'tools.offer_tasks takes (section, ...)'),
              ("tools.offer_tasks('Nope')", 'section heading `Nope` not found; available sections: ## Ask, ## Child'),
              ("tools.offer_tasks('Child', 3)", "bad argument #2 to 'tools.offer_tasks' (string expected, got number)")]
    for line, message in checks:
        source = "local ok, err = pcall(function() %s end)\nreturn err.kind .. ':' .. tostring(err)" % line
        assert gateway_runs.result(client, model_prompt(source, MODEL_CHILD)) == 'lua:' + message, line


def test_offer_tasks_after_the_first_round_raises(served):
    _, client = served([{'text': 'done'}])
    text = model_prompt("tools.offer_tasks('Child')\nmessages:user('go')\nmodels.loop()\n"
                        "local ok, e = pcall(tools.offer_tasks, 'Child')\nreturn e.kind .. '|' .. e.message", MODEL_CHILD)
    assert gateway_runs.result(client, text) == (
        "lua|tools.offer_tasks: the section's tool list was fixed by its first loop round; "
        "offer tools before the first models.loop call")


def test_a_section_not_offered_is_answered_with_the_offered_ones(served):
    gw, client = served([call('c1', 'task', section='Other'), call('c2', 'task', section='## Child'),
                         {'text': 'done'}])
    text = model_prompt("tools.offer_tasks('Child')\nmessages:user('go')\nmodels.loop()\n"
                        "return messages[3].content .. '|' .. messages[5].content .. '|' .. #tasks.list()",
                        MODEL_CHILD, gateway_runs.section('Other', 'return nil'))
    assert gateway_runs.result(client, text) == ('error: you can start these sections: Child|'
                                                 'error: you can start these sections: Child|0')


def test_a_model_task_runs_and_its_notice_reaches_the_next_round(served):
    gw, client = served([call('c1', 'task', section='Child', input='hi'), call('c2', 'await_tasks'),
                         {'text': 'done'}])
    events = []
    text = model_prompt("tools.offer_tasks('Child')\nmessages:user('go')\nmodels.loop()\n" + ROLES, MODEL_CHILD)
    assert gateway_runs.result(client, text, events=events).split('\n') == [
        'user=go', 'assistant=', 'tool=Started task id=0.0 (## Child).', 'assistant=',
        'tool=id=0.0 (## Child): completed', 'user=Task id=0.0 (## Child) completed: child says hi', 'assistant=done']
    assert gw.requests[2].json['messages'][-1] == {'role': 'user',
                                                   'content': 'Task id=0.0 (## Child) completed: child says hi'}
    assert task_events(events) == [('task_spawned', '0.0', 'Child', 'model'), ('task_started', '0.0', 'Child'),
                                   ('task_finished', '0.0', 'completed')]


def test_the_notice_of_a_failed_model_task(served):
    _, client = served([call('c1', 'task', section='Child', input='fail'), call('c2', 'await_tasks', ids=['0.0']),
                        {'text': 'done'}])
    text = model_prompt("tools.offer_tasks('Child')\nmessages:user('go')\nmodels.loop()\n"
                        "return messages[5].content .. '|' .. messages[6].content .. '|' .. #tasks.list()", MODEL_CHILD)
    assert gateway_runs.result(client, text) == \
        'id=0.0 (## Child): failed|Task id=0.0 (## Child) failed: child broke|1'


def test_task_status_and_await_tasks_answers(served):
    _, client = served([call('c1', 'task_status'), call('c2', 'task', section='Child', input='x'),
                        call('c3', 'task_status', id='9'), call('c4', 'await_tasks', ids=['9']),
                        call('c5', 'await_tasks', ids='0.0'), call('c6', 'task_status', id='0.0'),
                        {'text': 'done'}])
    text = model_prompt("tools.offer_tasks('Child')\nmessages:user('go')\nmodels.loop()\nlocal out = {}\n"
                        "for i = 1, #messages do if messages[i].role == 'tool' then out[#out + 1] = messages[i].content end end\n"
                        "tasks.join(tasks.list()[1])\nreturn table.concat(out, '|')", MODEL_CHILD)
    assert gateway_runs.result(client, text).split('|') == [
        'You have started no tasks.', 'Started task id=0.0 (## Child).', 'error: you started no task with id=9',
        'error: you started no task with id=9', 'error: ids is a list of task ids', 'id=0.0 (## Child): completed']


def test_model_tasks_are_abandoned_without_an_error_when_their_section_ends(served):
    _, client = served({'replies': [call('c1', 'task', section='Slow'), {'text': 'started'}],
                        'models': {'slow-model': [{'text': 'too late', 'headers_delay': 30}]}})
    events = []
    slow = gateway_runs.section('Slow', GUARD + "return models.get('slow-model'):infer('Take your time.')")
    text = model_prompt("tools.offer_tasks('Slow')\nmessages:user('go')\nmodels.loop()\n"
                        "return tasks.list()[1].status .. '|' .. #tasks.list()", slow)
    started = time.monotonic()
    assert gateway_runs.result(client, text, events=events) == 'running|1'
    assert time.monotonic() - started < 10
    assert task_events(events)[-1] == ('task_finished', '0.0', 'canceled')


def test_notices_stay_on_the_list_when_the_precheck_refuses_the_round(served):
    gw, client = served([call('c1', 'task', section='Big'), call('c2', 'await_tasks'), {'text': 'never'}])
    big = gateway_runs.section('Big', GUARD + "return string.rep('x', 8000)")
    text = model_prompt("tools.offer_tasks('Big')\nmessages:user('go')\nlocal ok, e = pcall(models.loop)\n"
                        "local last = messages[#messages]\n"
                        "return table.concat({tostring(ok), e.kind, #messages, last.role, #last.content, "
                        "last.content:sub(1, 35)}, '|')", big)
    assert gateway_runs.result(client, text, context_window=1000) == \
        'false|context_exhausted|6|user|8032|Task id=0.0 (## Big) completed: xxx'
    assert len(gw.requests) == 2


def test_the_author_may_join_and_cancel_model_tasks(served):
    _, client = served([call('c1', 'task', section='Child', input='a'), {'text': 'started'}])
    text = model_prompt("tools.offer_tasks('Child')\nmessages:user('go')\nmodels.loop()\nlocal t = tasks.list()[1]\n"
                        "return t.by .. '|' .. tasks.join(t) .. '|' .. #tasks.list()", MODEL_CHILD)
    assert gateway_runs.result(client, text) == 'model|child says a|0'


def test_a_log_checkpoint_made_in_a_task_names_the_task():
    events = []
    body = section('Main', "log('main')\ntasks.fanout('Arm', {{n = 1}})") + task_section('Arm', "log('arm')")
    run(prompt(body), events=events)
    assert [(e['section'], e.get('task'), e['message']) for e in events if e['event'] == 'log'] == [
        ('Main', None, 'main'), ('Arm', '0.0', 'arm')]
