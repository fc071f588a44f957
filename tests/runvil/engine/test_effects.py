"""The effect protocol between the Engine and the Harness."""
import pytest

from engine_helpers import ScriptedAnswers, WaitLibrary, echo, prompt, run, section
from runvil.engine import Answer, CancelFlag, Engine
from runvil.harness import RunLimits


def engine(body: str) -> Engine:
    return Engine(prompt(body), limits=RunLimits(), cancel=CancelFlag(), libraries=(WaitLibrary(),))


def test_effects_get_run_unique_ids_and_suspend_from_any_depth():
    answers = ScriptedAnswers(*[echo] * 3)
    body = section('S', "local a = wait(1)\nlocal ok, b = pcall(wait, 2)\n"
                        "local co = coroutine.wrap(function() return wait(3) end)\nreturn a + b + co()")
    assert run(prompt(body), answers=answers).result == '6'
    assert [(e.id, e.kind, e.payload) for e in answers.effects] == [(1, 'test.wait', 1), (2, 'test.wait', 2),
                                                                    (3, 'test.wait', 3)]


def test_the_engine_waits_until_answered():
    e = engine(section('S', "return wait('x') .. wait('y')"))
    e.start()
    first, = e.take_requests()
    assert e.outcome is None and e.waiting == [first]
    e.answer(first.id, Answer.ok('test.wait', 'a'))
    second, = e.take_requests()
    e.answer(second.id, Answer.ok('test.wait', 'b'))
    assert e.finished and e.outcome.result == 'ab'


@pytest.mark.parametrize('mistake, message', [
    (lambda e, effect: e.answer(effect.id + 7, Answer.ok('test.wait', 1)),
     'the Harness answered effect 8, which was never issued'),
    (lambda e, effect: e.answer(effect.id, Answer.ok('model_round', 1)),
     'the Harness answered effect 1 (test.wait) with an answer of kind model_round'),
    (lambda e, effect: e.answer(effect.id, Answer.drop()),
     'the Harness dropped effect 1 while the run waits on it'),
])
def test_harness_mistakes_are_internal_failures(mistake, message):
    e = engine(section('S', "local ok = pcall(wait, 1)\nreturn 'swallowed'"))
    e.start()
    effect, = e.take_requests()
    mistake(e, effect)
    error = e.outcome.to_dict()['error']
    assert error['kind'] == 'Internal'
    assert error['message'] == 'internal invariant violated: ' + message
    assert error['location']['path'] == 'runvil/vocabulary/effects.py' and error['location']['line'] > 0
    assert not e.finished               # the effect still waits: the Harness drops it
    e.answer(effect.id, Answer.drop())
    assert e.finished


def test_a_second_answer_is_an_internal_failure():
    e = engine(section('S', "wait(1)\nwait(2)"))
    e.start()
    effect, = e.take_requests()
    e.answer(effect.id, Answer.ok('test.wait', 1))
    e.take_requests()
    e.answer(effect.id, Answer.ok('test.wait', 1))
    assert e.outcome.error.run_message == 'internal invariant violated: the Harness answered effect 1 twice'


def test_an_effect_kind_without_an_answerer_fails_as_internal_in_lua():
    from runvil.harness import Harness
    outcome = Harness(libraries=(WaitLibrary(),)).run(prompt(section('S', "local ok, e = pcall(wait, 1)\nreturn e.kind .. ': ' .. e.message")))
    assert outcome.result == 'internal: internal invariant violated: this Harness has no answerer for test.wait effects'


def test_the_round_cap_is_the_prompt_max_tool_iterations_or_the_run_cap():
    seen = []

    class Probe:
        def install(self, vm):
            seen.append(vm.run.round_cap)
    from runvil.harness import Harness
    Harness(libraries=(Probe(),)).run(prompt(section('S', 'return 1')))
    Harness(RunLimits(round_cap=5), libraries=(Probe(),)).run(prompt(section('S', 'return 1')))
    Harness(RunLimits(round_cap=5), libraries=(Probe(),)).run(
        prompt(section('S', 'return 1'), head='max_tool_iterations: 3\n'))
    assert seen == [24, 5, 3]
