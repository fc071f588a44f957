"""The Engine: one run of a prompt, as a deterministic state machine.

The Engine does no I/O.  ``start()`` prepares the run and runs Lua until
every chain waits on the Harness or the run ends; the Harness then takes
the issued effects (``take_requests()``), answers each (``answer()``), and
calls ``cancel()`` when the run's cancel flag is set.  ``finished`` is true
once the outcome is decided and no effect is left waiting; the Harness
drops (``Answer.drop()``) whatever still waits after the outcome.

The run: prepare; the H1 pass (the H1 body's blocks in their own VM); the
walk (every section in document order, each section entry in a fresh VM,
``var`` carried between them).  See docs/engine.md for the rules.
"""
from __future__ import annotations

from .cancel import CancelFlag
from .effects import Answer, Effect, Ledger
from .error_values import interrupted
from .failure import Failure, internal_from_exception
from .kinds import RunErrorKind
from .outcome import Outcome
from .prepare import prepare
from .requirements import Environment
from .section_vm import CANCEL
from .walk import RunState, walk


class Engine:
    def __init__(self, text: str, path: str | None = None, *, limits, cancel: CancelFlag,
                 emit=None, environment: Environment | None = None, input_text: str | None = None,
                 args: dict | None = None, libraries: tuple = ()):
        self._text = text
        self._path = path
        self._limits = limits
        self._cancel = cancel
        self._emit = emit or (lambda name, /, **fields: None)
        self._environment = environment or Environment()
        self._input_text = input_text
        self._args = args or {}
        self._libraries = tuple(libraries)
        self._ledger = Ledger()
        self._new: list[Effect] = []
        self._main = self._run()
        self.outcome: Outcome | None = None

    # -- the Harness's side ------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.outcome is not None and not self._ledger.waiting

    @property
    def waiting(self) -> list[Effect]:
        """Effects issued and not answered yet."""
        return list(self._ledger.waiting.values())

    def start(self) -> None:
        self._advance(None)

    def take_requests(self) -> list[Effect]:
        new, self._new = self._new, []
        return new

    def answer(self, effect_id: int, answer: Answer) -> None:
        problem = self._ledger.settle(effect_id, answer, run_waits=self.outcome is None)
        if self.outcome is not None:
            return                  # the run is over: a late answer changes nothing
        if problem is not None:
            self._main.close()
            self._decide(Outcome.failed(problem))
        elif not answer.dropped:
            self._advance(answer)

    def cancel(self) -> None:
        """The cancel flag is set: tear down every waiting block (it never
        resumes); the effects it waited on are left for the Harness to drop."""
        if self.outcome is None:
            self._advance(CANCEL)

    # -- driving the run -----------------------------------------------------------
    def _advance(self, answer) -> None:
        try:
            request = self._main.send(answer)
        except StopIteration as stop:
            self._decide(stop.value)
            return
        effect = self._ledger.issue(request)
        self._emit('effect_issued', effect=effect.id, kind=effect.kind)
        self._new.append(effect)

    def _decide(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self._emit('run_finished', **outcome.to_dict())

    def _run(self):
        """The run as one generator: it yields EffectRequests, takes Answers
        and returns the Outcome."""
        self._emit('run_started', path=self._path)
        try:
            if self._cancel.is_set():
                raise interrupted()
            prepared = prepare(self._text, self._path, self._environment, self._input_text, self._args)
            run = RunState(prepared.prompt, self._limits, self._cancel, self._emit, self._libraries,
                           prepared.input_text, prepared.args, models=prepared.models,
                           packs={pack: self._environment.packs[pack] for pack in prepared.prompt.frontmatter.uses})
            self._emit('prepared', prompt=run.prompt.name)
            result = yield from walk(run)
            if self._cancel.is_set():
                raise interrupted()
            return Outcome.completed(result)
        except Failure as failure:
            if failure.kind is RunErrorKind.CANCELLED:
                return Outcome.cancelled()
            return Outcome.failed(failure)
        except Exception as err:    # a fault of the Engine's own code
            return Outcome.failed(internal_from_exception(err))
