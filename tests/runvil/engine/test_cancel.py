"""Cancellation and stops (the statements that need no models or tasks)."""
import time

from engine_helpers import ScriptedAnswers, echo, in_thread, prompt, run, section
from runvil.engine import INTERRUPTED
from runvil.harness import RunHandle

CANCELLED = {'outcome': 'cancelled', 'result': None, 'error': None}


def cancelled_while_running(body: str, delay: float = 0.2, events=None, answers=None) -> dict:
    handle = RunHandle()
    outcome = in_thread(run, prompt(body), handle=handle, events=events, answers=answers)
    time.sleep(delay)
    handle.cancel()
    return outcome().to_dict()


def test_the_interrupted_error_message():
    assert INTERRUPTED == 'interrupted: the run was cancelled or this call was stopped'


def test_spinner_ends_cancelled():
    body = section('Spin', "local n = 0\nwhile true do n = n + 1 end")
    assert cancelled_while_running(body) == CANCELLED


def test_no_pcall_swallows_a_cancel_and_no_xpcall_handler_runs():
    body = section('Spin', "while true do\n  pcall(function() while true do end end)\n"
                           "  xpcall(function() while true do end end, function() log('handler ran') end)\nend")
    events = []
    assert cancelled_while_running(body, events=events) == CANCELLED
    assert not [e for e in events if e['event'] == 'log']


def test_a_block_that_raises_after_a_cancel_still_ends_cancelled():
    body = section('S', "local ok = pcall(function() while true do end end)\nerror('mine')")
    assert cancelled_while_running(body) == CANCELLED


def test_a_run_cancelled_before_it_starts_runs_nothing():
    handle = RunHandle()
    handle.cancel()
    events = []
    outcome = run(prompt(section('S', "for i = 1, 100000 do end\nreturn 'done'")), handle=handle, events=events)
    assert outcome.to_dict() == CANCELLED
    assert [e['event'] for e in events] == ['run_started', 'run_finished']


def test_a_cancel_reaches_later_sections_and_the_h1_pass():
    body = "```lua\nwhile true do end\n```\n\n" + section('S', "return 1")
    assert cancelled_while_running(body) == CANCELLED
    body = section('A', "var.a = 1") + section('B', "while true do end") + section('C', "return 'never'")
    assert cancelled_while_running(body) == CANCELLED


def test_a_cancel_never_resumes_a_waiting_call_and_its_answer_is_dropped():
    answers = ScriptedAnswers(None)
    handle = RunHandle()
    events = []
    body = section('S', "local ok, e = pcall(wait, 1)\nreturn 'resumed'")
    outcome = in_thread(run, prompt(body), answers=answers, handle=handle, events=events)
    assert answers.issued.wait(5)
    handle.cancel()
    assert outcome().to_dict() == CANCELLED
    assert answers.held[0].aborted
    answers.held[0].reply(echo(answers.held[0].effect))   # a late reply changes nothing


def test_a_cancelled_run_issues_no_further_effects():
    body = section('S', "local guard <close> = setmetatable({}, {__close = function() wait('late') end})\n"
                        "while true do end")
    answers = ScriptedAnswers()
    events = []
    assert cancelled_while_running(body, events=events, answers=answers) == CANCELLED
    assert not answers.effects and not [e for e in events if e['event'] == 'effect_issued']


def test_a_stop_interrupts_the_waiting_call_and_the_run_goes_on():
    # patient, with a suspending test call in place of models.infer
    answers = ScriptedAnswers(None, echo)
    handle = RunHandle()
    body = section('Draft', "local ok, out = pcall(wait, 'draft')\nif not ok and out.kind == 'cancelled' then\n"
                            "  return 'stopped: ' .. tostring(out) .. ' ' .. wait('again')\nend\nerror(out)")
    outcome = in_thread(run, prompt(body), answers=answers, handle=handle)
    assert answers.issued.wait(5)
    handle.stop()
    assert outcome().to_dict() == {'outcome': 'completed', 'result': 'stopped: %s again' % INTERRUPTED,
                                   'error': None}
    assert answers.held[0].aborted


def test_an_uncaught_stop_ends_the_run_cancelled():
    answers = ScriptedAnswers(None)
    handle = RunHandle()
    outcome = in_thread(run, prompt(section('S', "wait(1)")), answers=answers, handle=handle)
    assert answers.issued.wait(5)
    handle.stop()
    assert outcome().to_dict() == CANCELLED


def test_a_caught_stop_raised_again_later_still_ends_cancelled():
    answers = ScriptedAnswers(None, echo)
    handle = RunHandle()
    outcome = in_thread(run, prompt(section('S', "local ok, e = pcall(wait, 1)\nwait(2)\nerror(e)")),
                        answers=answers, handle=handle)
    assert answers.issued.wait(5)
    handle.stop()
    assert outcome().to_dict() == CANCELLED


def test_a_stop_while_nothing_waits_changes_nothing():
    handle = RunHandle()
    handle.stop()
    assert run(prompt(section('S', "return wait('fine')")), handle=handle).result == 'fine'


def test_a_stop_leaves_calls_that_survive_it_waiting():
    answers = ScriptedAnswers(None)
    handle = RunHandle()
    outcome = in_thread(run, prompt(section('S', "return steady('kept')")), answers=answers, handle=handle)
    assert answers.issued.wait(5)
    handle.stop()                       # handled before the reply: the Harness inbox is in order
    held = answers.held[0]
    held.reply(echo(held.effect))
    assert outcome().result == 'kept'
    assert not held.aborted


def test_the_first_outcome_is_the_one_reported():
    handle = RunHandle()
    outcome = run(prompt(section('S', "return 'done'")), handle=handle)
    handle.cancel()
    assert outcome.to_dict() == {'outcome': 'completed', 'result': 'done', 'error': None}


def test_a_cancel_reaches_a_busy_coroutine():
    body = section('S', "local co = coroutine.wrap(function() while true do end end)\nco()")
    assert cancelled_while_running(body) == CANCELLED


def test_the_interrupted_error_has_only_kind_and_message():
    answers = ScriptedAnswers(None)
    handle = RunHandle()
    body = section('S', "local ok, e = pcall(wait, 1)\nlocal keys = {}\n"
                        "for k in pairs(e) do keys[#keys + 1] = k end\ntable.sort(keys)\n"
                        "return table.concat(keys, ',') .. ' ' .. tostring(e.task)")
    outcome = in_thread(run, prompt(body), answers=answers, handle=handle)
    assert answers.issued.wait(5)
    handle.stop()
    assert outcome().result == 'kind,message nil'
