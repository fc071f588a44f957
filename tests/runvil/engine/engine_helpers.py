"""Running small prompts in-process, and a test library with a suspending
call, so the effect mechanism is exercised the way model calls will use it.

``wait(value)`` suspends Lua with a ``test.wait`` effect carrying ``value``;
``steady(value)`` does the same with an effect that survives a stop.  A
``ScriptedAnswers`` answerer replies from a list of callables, or holds the
effect until the test answers it.
"""
from __future__ import annotations

import json
import threading

from runvil.engine import Answer, request
from runvil.harness import EventStream, Harness, RunHandle, RunLimits

LUA = '```lua\n'
END = '\n```\n'


def prompt(body: str, head: str = '') -> str:
    return '---\nname: t\ndescription: A test prompt.\nrunvil: 0\n%s---\n\n# T\n\n%s' % (head, body)


def block(source: str) -> str:
    return LUA + source + END


def section(name: str, *sources: str, prose: str = '') -> str:
    text = '## %s\n\n' % name
    if prose:
        text += prose + '\n\n'
    return text + '\n'.join(block(source) for source in sources) + '\n'


class WaitLibrary:
    def install(self, vm):
        def wait(value=None, *_):
            return ((yield from request('test.wait', value)),)

        def steady(value=None, *_):
            return ((yield from request('test.wait', value, survives_stop=True)),)
        vm.globals.set_str('wait', vm.generator('wait', wait))
        vm.globals.set_str('steady', vm.generator('steady', steady))


class Held:
    """An effect the test answers itself."""

    def __init__(self, effect, reply):
        self.effect = effect
        self.reply = reply
        self.aborted = False

    def abort(self):
        self.aborted = True


class ScriptedAnswers:
    """Answers test.wait effects: each script entry is ``None`` (hold the
    effect for the test) or a callable ``effect -> Answer``."""

    def __init__(self, *script):
        self.script = list(script)
        self.effects = []
        self.held: list[Held] = []
        self.issued = threading.Event()

    def __call__(self, effect, reply):
        self.effects.append(effect)
        step = self.script.pop(0) if self.script else None
        work = Held(effect, reply)
        if step is None:
            self.held.append(work)
            self.issued.set()
        else:
            reply(step(effect))
        return work


def echo(effect):
    return Answer.ok('test.wait', effect.payload)


def run(text: str, *, limits: RunLimits | None = None, answers: ScriptedAnswers | None = None,
        handle: RunHandle | None = None, events: list | None = None, **options):
    harness = Harness(limits or RunLimits(), answerers={'test.wait': answers or ScriptedAnswers(*[echo] * 50)},
                      libraries=(WaitLibrary(),))
    stream = EventStream([events.append] if events is not None else [])
    return harness.run(text, 't.md', handle=handle, events=stream, **options)


def report(text: str, **options) -> dict:
    """The outcome as the CLI's JSON object."""
    return json.loads(json.dumps(run(text, **options).to_dict()))


def result(body: str, **options) -> str:
    outcome = run(prompt(body), **options)
    assert outcome.status == 'completed', outcome.to_dict()
    return outcome.result


def failure(body: str, **options) -> dict:
    outcome = run(prompt(body), **options)
    assert outcome.status == 'failed', outcome.to_dict()
    return outcome.to_dict()['error']


def in_thread(fn, *args, **kwargs):
    """Start ``fn`` on a thread; returns a getter that joins and returns its result."""
    box = {}

    def target():
        box['value'] = fn(*args, **kwargs)
    thread = threading.Thread(target=target, daemon=True)
    thread.start()

    def get(timeout=10):
        thread.join(timeout)
        assert not thread.is_alive(), 'the run did not end'
        return box['value']
    return get


def drive(engine, choose=lambda n: 0, watch=None, answers=None):
    """Step ``engine`` with no Harness and no threads: answer one waiting
    effect at a time, the one ``choose(n)`` picks among the ``n`` waiting
    (in issue order; the oldest by default).  ``answers`` maps an effect
    kind to a function giving its Answer; a ``test.wait`` gets its payload
    back and any other effect (a timer) fires.  ``watch(effects)`` sees the
    waiting effects before each answer.  Returns the outcome."""
    engine.start()
    pending: dict = {}
    for _ in range(10_000):
        for effect in engine.take_requests():
            pending[effect.id] = effect
        for effect_id in engine.take_abandoned():
            if pending.pop(effect_id, None) is not None:
                engine.answer(effect_id, Answer.drop())
        if watch is not None:
            watch(list(pending.values()))
        if engine.outcome is not None:
            for effect in engine.waiting:
                pending.pop(effect.id, None)
                engine.answer(effect.id, Answer.drop())
        if engine.finished:
            return engine.outcome
        assert pending, 'deadlock: the run waits and no effect waits on the Harness'
        effect = pending.pop(sorted(pending)[choose(len(pending))])
        if answers is not None and effect.kind in answers:
            engine.answer(effect.id, answers[effect.kind](effect))
        else:
            engine.answer(effect.id, Answer.ok(effect.kind, effect.payload if effect.kind == 'test.wait' else None))
    raise AssertionError('the run does not end')


def tree_prompt(roots: list, node_source: str, returns: str = 's') -> str:
    """A prompt whose Main spawns a ``Node`` task per root program (its
    ``args.prog``), joins them in order adding their results into ``s``,
    and returns the Lua expression ``returns``."""
    main = ("local progs = json.decode([==[%s]==])\nlocal hs, s = {}, 0\n"
            "for i, p in ipairs(progs) do hs[i] = tasks.spawn('Node', {prog = p}) end\n"
            "for i = 1, #hs do s = s + tasks.join(hs[i]) end\nreturn %s") % (json.dumps(roots), returns)
    return prompt(section('Main', main) + section('Node', node_source))
