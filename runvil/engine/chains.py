"""Chains and the scheduler that interleaves them.

A chain is one line of execution: the run's main chain (the H1 pass, then
the section walk) or a task.  Each is a generator that yields
EffectRequests and takes Answers.  The scheduler steps the chains one at a
time, in the order they became ready, until every chain waits: on the
Harness (an issued effect) or on other chains (a ``WAIT`` request, which
the task board settles and never reaches the Harness).  Stepping is
deterministic; only the order in which the Harness answers is not.
"""
from __future__ import annotations

from collections import deque

from ..vocabulary.effects import Answer, EffectRequest, Ledger
from ..vocabulary.failure import Failure
from ..vocabulary.waits import WAIT
from .claims import new_clock

CALL_DEPTH_CAP = 8
"""How deep call, tasks.spawn and tasks.fanout may nest: a fixed Engine
constant, not a run limit, so neither the Harness nor a prompt changes it."""

CANCEL = object()
"""What the scheduler sends a waiting chain instead of an answer to tear it
down: its block unwinds and never resumes."""

ABORT = 'run.abort'
"""A request that ends the run on the spot with its payload, a Failure (a
claims conflict): the chain that made it never resumes, so no ``pcall``
sees it, and no task counts as failed."""

TIMER = 'timer'
"""The effect a timed wait issues: the Harness answers it once ``payload``
seconds have passed."""


class Chain:
    """One chain: its generator, its place in the task tree and what it
    waits on."""

    def __init__(self, chain_id: str, gen, *, depth: int = 0, task=None, var_data=None, args=None,
                 clock=None):
        self.id = chain_id
        self.gen = gen
        self.depth = depth              # how deeply tasks nest here (the main chain is 0)
        self.task = task                # the Task this chain runs, None for the main chain
        self.slot_task = None           # the task whose concurrency slot it runs on
        self.var_data = var_data if var_data is not None else {}
        self.args = args                # the args this chain's sections see (None: the run's)
        self.clock = clock if clock is not None else new_clock(chain_id)   # for the store's claims
        self.effect: int | None = None  # the effect it waits on
        self.wait = None                # the board Wait it waits in
        self.own_limit: int | None = None   # tasks.concurrency: the cap on its own running tasks
        self.running = 0                # its own tasks holding a slot now
        self.children = 0
        self.calls = 0
        self.vm = None                  # the section VM it runs in now
        self.started = False
        self.cancelled = False          # torn down: its Lua may unwind, never go on
        self.ended = False

    def child_id(self) -> str:
        """The next id for a task this chain starts: 0.0, 0.1, 0.0.0, ..."""
        number = self.children
        self.children += 1
        return '%s.%d' % (self.id, number)

    def call_id(self) -> str:
        """The id of a call chain this chain runs: 0.c0, 0.c1, ...; calls
        keep out of the task numbering."""
        number = self.calls
        self.calls += 1
        return '%s.c%d' % (self.id, number)


class Scheduler:
    def __init__(self, ledger: Ledger, emit, on_end, on_abort):
        self.ledger = ledger
        self.emit = emit
        self.on_end = on_end            # on_end(chain, value, failure): a chain's generator ended
        self.on_abort = on_abort        # on_abort(failure): a chain ended the run on the spot
        self.ready: deque = deque()
        self.by_effect: dict[int, Chain] = {}
        self.new: list = []             # effects issued and not yet taken by the Harness
        self.abandoned: list[int] = []  # effects no chain waits on any more
        self.board = None               # the task board, which settles WAIT requests

    def resume(self, chain: Chain, answer) -> None:
        self.ready.append((chain, answer))

    def run(self) -> None:
        """Step ready chains until every chain waits or has ended."""
        ready = self.ready
        while ready:
            chain, answer = ready.popleft()
            if not chain.ended:
                self._step(chain, answer)

    def _step(self, chain: Chain, answer) -> None:
        chain.started = True
        try:
            request = chain.gen.send(answer)
        except StopIteration as stop:
            chain.ended = True
            self.on_end(chain, stop.value, None)
            return
        except Failure as failure:
            chain.ended = True
            self.on_end(chain, None, failure)
            return
        if request.kind == WAIT:
            self.board.wait(chain, request.payload)
        elif request.kind == ABORT:
            self.on_abort(request.payload)
        else:
            self.issue(chain, request)

    def issue(self, chain: Chain, request: EffectRequest) -> None:
        effect = self.ledger.issue(request)
        chain.effect = effect.id
        self.by_effect[effect.id] = chain
        self.emit('effect_issued', effect=effect.id, kind=effect.kind)
        self.new.append(effect)

    def answered(self, effect_id: int, answer: Answer) -> None:
        """An effect's answer arrived: resume the chain that waits on it."""
        chain = self.by_effect.pop(effect_id, None)
        if chain is None or chain.ended:
            return
        chain.effect = None
        if chain.wait is not None:      # the effect was its wait's timer
            self.board.timer_answered(chain, answer)
        elif not answer.dropped:
            self.resume(chain, answer)

    def abandon(self, chain: Chain) -> None:
        """The chain no longer waits on its effect: the Harness drops it."""
        if chain.effect is not None:
            effect_id, chain.effect = chain.effect, None
            self.by_effect.pop(effect_id, None)
            self.ledger.abandon(effect_id)
            self.abandoned.append(effect_id)

    def stop(self, chain: Chain, answer, *, abandon: bool = True) -> None:
        """Tear a chain down now: ``answer`` (the cancel) unwinds its Lua;
        whatever it returns or raises is its end.  A run cancel keeps the
        effect waiting, for the Harness to drop with the rest."""
        chain.cancelled = True
        if chain.vm is not None:
            chain.vm.interrupt()        # Lua that runs while it unwinds (a <close>) stops too
        if abandon:
            self.abandon(chain)
        if chain.wait is not None:
            self.board.leave(chain)
        if chain.ended:
            return
        if not chain.started:           # no Lua ran yet: nothing to unwind
            chain.ended = True
            chain.gen.close()
            return
        self._step(chain, answer)

    def close_all(self) -> None:
        """The run is decided: every chain still going is closed unheard."""
        for chain in {id(c): c for c, _ in self.ready}.values():
            chain.ended = True
        if self.board is not None:
            self.board.closed = True
            for chain in self.board.chains():
                if not chain.ended:
                    chain.ended = True
                    chain.gen.close()
