"""The Harness: runs the Engine, answers its effects and applies the run
limits.

Answering is done by answerers, one per effect kind: ``answerer(effect,
reply)`` starts the work (on a thread of its own when it blocks) and returns
an object with ``abort()``; ``reply(answer)`` may be called from any thread,
once.  Every answer goes through the Harness loop, which forwards it to the
Engine only while the Harness still waits for it, so an aborted call's late
reply never reaches the Engine twice.
"""
from __future__ import annotations

import threading

from ..engine import Answer, Engine, Environment, Failure, Outcome
from ..engine.chains import TIMER
from ..engine.modules import REQUIRE
from ..engine.questions import ASK
from ..engine.store import STORE
from ..models.rounds import MODEL_ROUND
from ..tools.calls import TOOL_CALLS
from ..vocabulary.failure import internal_failure
from .events import EventStream
from .handle import CANCEL, STOP, RunHandle
from .limits import RunLimits
from .model_answerer import ModelAnswerer
from .module_answerer import ModuleAnswerer
from .operator_answerer import OperatorAnswerer
from .settled import SETTLED
from .store_answerer import StoreAnswerer
from .timer_answerer import TimerAnswerer
from .tool_answerer import ToolAnswerer

ANSWER = 'answer'


class Harness:
    def __init__(self, limits: RunLimits | None = None, environment: Environment | None = None,
                 answerers: dict | None = None, libraries: tuple = (), debug: bool = False,
                 gateway=None, live=None, operator=None, store=None):
        self.limits = limits or RunLimits()
        self.environment = environment or Environment()
        self.answerers = dict(answerers or {})
        self.libraries = tuple(libraries)
        self.debug = debug      # raw model traffic events, for the model answerers
        if gateway is not None:     # a GatewayClient: model rounds go through it
            self.answerers.setdefault(MODEL_ROUND, ModelAnswerer(gateway, debug, live))
        self.answerers.setdefault(TOOL_CALLS, ToolAnswerer(self.environment.packs))
        self.answerers.setdefault(TIMER, TimerAnswerer())
        self.answerers.setdefault(REQUIRE, ModuleAnswerer())
        self.store = store          # a DirectoryStore, or None: the run declares no store
        self.answerers.setdefault(STORE, StoreAnswerer(store))
        if operator is not None:    # ask(question) -> answer text, or None when none can come
            self.answerers.setdefault(ASK, OperatorAnswerer(operator))

    def run(self, text: str, path: str | None = None, *, input_text: str | None = None,
            args: dict | None = None, handle: RunHandle | None = None, events: EventStream | None = None,
            parsed=None):
        """Run the prompt ``text``; ``parsed`` is the Prompt ``parse(text, path)``
        gave, for a Host that runs one prompt many times."""
        handle = handle or RunHandle()
        events = events or EventStream()
        if self.store is not None:
            try:
                self.store.check()
            except Failure as failure:      # a store that cannot start fails the run before it runs
                outcome = Outcome.failed(failure)
                events.emit('run_finished', **outcome.to_dict())
                return outcome
        engine = Engine(text, path, limits=self.limits, cancel=handle.flag, emit=events.emit,
                        environment=self.environment, input_text=input_text, args=args,
                        libraries=self.libraries, parsed=parsed)
        return _Loop(self, engine, handle).run()


class _Loop:
    """One run's answering loop, on the thread that called ``Harness.run``."""

    def __init__(self, harness: Harness, engine: Engine, handle: RunHandle):
        self.harness = harness
        self.engine = engine
        self.handle = handle
        self.work: dict = {}                # effect id -> (effect, work) the Harness waits for
        # Re-entrant: a stop may come from a signal handler on this thread.
        self.lock = threading.RLock()
        handle.watch(self.stoppable)

    def stoppable(self) -> tuple:
        with self.lock:
            return tuple(effect_id for effect_id, (effect, _) in self.work.items()
                         if not effect.survives_stop)

    def run(self):
        engine = self.engine
        engine.start()
        while True:
            for effect in engine.take_requests():
                self.dispatch(effect)
            for effect_id in engine.take_abandoned():
                if self.forget(effect_id, abort=True):
                    engine.answer(effect_id, Answer.drop())
            if engine.outcome is not None:
                self.drop_all()
            if engine.finished:
                return engine.outcome
            message, data = self.handle.inbox.get()
            if message == CANCEL:
                engine.cancel()
            elif message == STOP:
                for effect_id in data:
                    if self.forget(effect_id, abort=True):
                        engine.answer(effect_id, Answer.interrupt())
            elif self.forget(data[0], abort=False):
                engine.answer(*data)

    def dispatch(self, effect) -> None:
        def reply(answer: Answer) -> None:
            self.handle.inbox.put((ANSWER, (effect.id, answer)))
        answerer = self.harness.answerers.get(effect.kind)
        # Under the lock: the work may be under way (a request sent) before the
        # answerer returns, and a stop landing then must still find it waiting.
        with self.lock:
            if answerer is None:
                work = SETTLED
                reply(Answer.failed(effect.kind, internal_failure(
                    'this Harness has no answerer for %s effects' % effect.kind)))
            else:
                work = answerer(effect, reply)
            self.work[effect.id] = (effect, work)

    def forget(self, effect_id: int, abort: bool) -> bool:
        """Stop waiting for an effect; False when the Harness no longer did."""
        with self.lock:
            entry = self.work.pop(effect_id, None)
        if entry is not None and abort:
            entry[1].abort()
        return entry is not None

    def drop_all(self) -> None:
        for effect in self.engine.waiting:
            self.forget(effect.id, abort=True)
            self.engine.answer(effect.id, Answer.drop())
