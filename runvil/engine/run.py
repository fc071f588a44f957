"""The Engine: one run of a prompt, as a deterministic state machine.

The Engine does no I/O.  ``start()`` prepares the run and runs Lua until
every chain waits on the Harness or the run ends; the Harness then takes
the issued effects (``take_requests()``), answers each (``answer()``), and
calls ``cancel()`` when the run's cancel flag is set.  ``finished`` is true
once the outcome is decided and no effect is left waiting; the Harness
drops (``Answer.drop()``) whatever still waits after the outcome, and
whatever the run abandoned before it (``take_abandoned()``).

The run's main chain: prepare; the H1 pass (the H1 body's blocks in their
own VM); the walk (every section in document order, each section entry in
a fresh VM, ``var`` carried between them).  Tasks run in chains of their
own beside it (``chains``, ``task_board``).  See docs/engine.md and
docs/tasks.md for the rules.
"""
from __future__ import annotations

import json

from ..vocabulary.effects import Answer, Effect, Ledger
from ..vocabulary.environment import Environment
from ..vocabulary.error_values import interrupted
from ..vocabulary.failure import Failure, internal_from_exception
from ..vocabulary.kinds import RunErrorKind
from .cancel import CancelFlag
from .chains import CANCEL, Chain, Scheduler
from .outcome import Outcome
from .prepare import prepare
from .results import result_text
from .task_board import TaskBoard
from .walk import RunState, run_task, walk


class Engine:
    def __init__(self, text: str, path: str | None = None, *, limits, cancel: CancelFlag,
                 emit=None, environment: Environment | None = None, input_text: str | None = None,
                 args: dict | None = None, libraries: tuple = (), parsed=None):
        self._text = text
        self._parsed = parsed       # ``text`` already parsed, or None
        self._path = path
        self._limits = limits
        self._cancel = cancel
        self._emit = emit or (lambda name, /, **fields: None)
        self._environment = environment or Environment()
        self._input_text = input_text
        self._args = args or {}
        self._libraries = tuple(libraries)
        self._ledger = Ledger()
        self._scheduler = Scheduler(self._ledger, self._emit, self._chain_ended, self._abort)
        self._main = Chain('0', self._run())
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
        self._scheduler.resume(self._main, None)
        self._pump()

    def take_requests(self) -> list[Effect]:
        new, self._scheduler.new = self._scheduler.new, []
        return new

    def take_abandoned(self) -> list[int]:
        """Effects the run no longer waits on (a canceled task's, a timer
        whose wait ended): the Harness aborts their work and drops them."""
        abandoned, self._scheduler.abandoned = self._scheduler.abandoned, []
        return abandoned

    def answer(self, effect_id: int, answer: Answer) -> None:
        if self._ledger.is_abandoned(effect_id):
            self._ledger.settle_abandoned(effect_id)
            return
        problem = self._ledger.settle(effect_id, answer, run_waits=self.outcome is None)
        if self.outcome is not None:
            return                  # the run is over: a late answer changes nothing
        if problem is not None:
            self._main.gen.close()
            self._decide(Outcome.failed(problem))
            return
        self._scheduler.answered(effect_id, answer)
        self._pump()

    def cancel(self) -> None:
        """The cancel flag is set: tear down the main chain's waiting block
        (it never resumes), and with it every task; the effect the main
        chain waited on is left for the Harness to drop, the tasks' are
        abandoned."""
        if self.outcome is None:
            self._scheduler.stop(self._main, CANCEL, abandon=False)
            self._pump()

    # -- driving the run -----------------------------------------------------------
    def _pump(self) -> None:
        """Step the chains until every one waits.  A fault of the Engine's
        own code outside any chain (the scheduler, the task board) fails
        the run as Internal."""
        try:
            self._scheduler.run()
        except Exception as err:
            if self.outcome is None:
                self._main.gen.close()
                self._decide(Outcome.failed(internal_from_exception(err)))

    def _chain_ended(self, chain: Chain, value, failure) -> None:
        if chain is self._main:
            self._decide(value)
        else:
            self._scheduler.board.ended(chain.task, value, failure)

    def _abort(self, failure: Failure) -> None:
        """A chain ended the run on the spot (a claims conflict)."""
        self._decide(Outcome.failed(failure))
        self._main.gen.close()

    def _decide(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self._scheduler.close_all()
        self._emit('run_finished', **outcome.to_dict())

    def _run(self):
        """The main chain: it yields EffectRequests, takes Answers and
        returns the Outcome."""
        self._emit('run_started', path=self._path)
        try:
            if self._cancel.is_set():
                raise interrupted()
            prepared = prepare(self._text, self._path, self._environment, self._input_text, self._args,
                               self._parsed)
            run = RunState(prepared.prompt, self._limits, self._cancel, self._emit, self._libraries,
                           prepared.input_text, prepared.args, models=prepared.models,
                           packs={pack: self._environment.packs[pack] for pack in prepared.prompt.frontmatter.uses})
            run.board = self._scheduler.board = TaskBoard(
                self._scheduler, self._limits.concurrency, self._emit,
                lambda task: run_task(run, task), _notice_text)
            self._emit('prepared', prompt=run.prompt.name)
            result = yield from walk(run, self._main)
            if self._cancel.is_set():
                raise interrupted()
            return Outcome.completed(result)
        except Failure as failure:
            if failure.kind is RunErrorKind.CANCELLED:
                return Outcome.cancelled()
            return Outcome.failed(failure)
        except Exception as err:    # a fault of the Engine's own code
            return Outcome.failed(internal_from_exception(err))


def _notice_text(result) -> str:
    """A task result as a notice shows it: text as it is, other data as JSON."""
    if result is None:
        return ''
    if result.__class__ is str:
        return result
    if result.__class__ in (int, float) and result.__class__ is not bool:
        return result_text(result)
    return json.dumps(result, ensure_ascii=False, separators=(',', ':'))
