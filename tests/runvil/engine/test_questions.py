"""``input.ask(question)``: operator questions, answered through the Harness."""
import io
import sys
import time
from pathlib import Path

from engine_helpers import Held, in_thread, prompt, section
from runvil.engine import Answer
from runvil.harness import EventStream, Harness, RunHandle, RunLimits
from runvil.host import main

ASK = section('Ask', "local answer = input.ask('Which city?')\nreturn 'going to ' .. answer")


def run_asking(body: str, answerer, handle: RunHandle | None = None):
    harness = Harness(RunLimits(), answerers={'input.ask': answerer})
    return in_thread(harness.run, prompt(body), 't.md', handle=handle or RunHandle(), events=EventStream())


def answering(answer: str, asked: list):
    """An answerer that answers every question with ``answer`` at once,
    keeping the questions in ``asked``."""
    def answerer(effect, reply):
        asked.append(effect.payload)
        reply(Answer.ok(effect.kind, answer))
        return Held(effect, reply)
    return answerer


def test_the_operators_answer_is_the_value():
    asked = []
    assert run_asking(ASK, answering('Paris', asked))().result == 'going to Paris'
    assert asked == ['Which city?']


def test_a_question_not_utf8_is_asked_as_text_and_the_answer_comes_back_as_utf8():
    asked = []
    body = section('S', "local a = input.ask('q\\255\\254') return #a .. '|' .. a")
    assert run_asking(body, answering('\u00e9\u00ff', asked))().result == '4|\u00e9\u00ff'
    assert asked == ['q\ufffd\ufffd']


def test_a_question_waits_through_a_stop_and_its_answer_still_arrives():
    held = []

    def answerer(effect, reply):
        held.append(Held(effect, reply))
        return held[-1]
    handle = RunHandle()
    outcome = run_asking(ASK, answerer, handle)
    for _ in range(500):
        if held:
            break
        time.sleep(0.01)
    handle.stop()
    time.sleep(0.05)
    assert not held[0].aborted
    held[0].reply(Answer.ok('input.ask', 'Lyon'))
    assert outcome().result == 'going to Lyon'


def test_argument_checks():
    body = section('Ask', "local a, e1 = pcall(input.ask)\nlocal b, e2 = pcall(input.ask, 3)\n"
                          "return e1.message .. '|' .. e2.message")
    assert run_asking(body, None)().result == \
        "input.ask takes (question)|bad argument #1 to 'input.ask' (string expected, got number)"


def test_runvil_run_asks_on_the_terminal(tmp_path: Path, monkeypatch):
    path = tmp_path / 'ask.md'
    path.write_text(prompt(ASK))
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, 'stdin', io.StringIO('Rome\n'))
    assert main([str(path)], out, err, environ={}) == 0
    assert (out.getvalue(), err.getvalue()) == ('going to Rome\n', '? Which city?\n')
    monkeypatch.setattr(sys, 'stdin', io.StringIO(''))
    out, err = io.StringIO(), io.StringIO()
    assert main(['--json', str(path)], out, err, environ={}) == 1
    assert '"message": "input.ask: no answer came: the operator input ended"' in out.getvalue()
