"""The run's tasks: starting them under the concurrency limit, how each
ends, the waits on them, and the handles Lua holds.

A task runs one section in a chain of its own.  It is queued until the run
has a free slot (the concurrency limit, across the whole run) and its owner
is under its own ``tasks.concurrency``; it then runs until its section
ends.  A task waiting on other tasks lends its slot to them and takes one
back, ahead of any queued task, when it resumes: so a task joining its own
children never starves them.

A task ends completed (with its section's result as JSON data), failed
(with its Failure, handed unchanged to whoever joins it) or canceled (with
a reason).  Tasks the model started tell the model how they ended through
a notice queued on the list of the section that started them.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from pylua.raw import LuaTable, Userdata

from ..vocabulary import functions
from ..vocabulary.crossing import TEXT
from ..vocabulary.effects import Answer, EffectRequest
from ..vocabulary.failure import Failure
from ..vocabulary.headings import heading
from ..vocabulary.kinds import ErrorKind, RunErrorKind
from ..vocabulary.waits import CALL, WAIT, Wait
from . import claims
from .chains import CANCEL, TIMER, Chain

QUEUED, RUNNING, COMPLETED, FAILED, CANCELED = 'queued', 'running', 'completed', 'failed', 'canceled'

AUTHOR_CANCELLED = 'the author cancelled it'
SECTION_ENDED = 'the section that started it ended'
OWNER_ENDED = 'the task that started it ended'


@dataclass(eq=False)
class Task:
    id: str
    section: object             # the prompt Section it runs
    owner: Chain
    by: str                     # AUTHOR, MODEL, ARM, or CALL for a call chain
    args: dict                  # the args its sections see
    var_data: dict              # its var at the start: its owner's at the spawn
    notify: object = None       # notify(text): where a model task's notice goes
    status: str = QUEUED
    result: object = None       # JSON data, once completed
    failure: Failure | None = None
    reason: str | None = None   # why it was canceled
    consumed: bool = False      # its end was taken by a join
    chain: Chain | None = None
    holds_slot: bool = False
    clock: dict = field(default_factory=dict)   # its claims clock: at the spawn, then at its end
    ended_at: int = 0           # its end's place among all the run's task ends
    handle: Userdata | None = None
    waiters: list = field(default_factory=list)

    @property
    def label(self) -> str:
        """The section as its heading is written: ``## Child``."""
        return heading(self.section)

    @property
    def name(self) -> str:
        return 'id=%s (%s)' % (self.id, self.label)

    @property
    def title(self) -> str:
        """How messages about its chain name it: ``task id=0.0 (## Child)``
        or ``call ## Child``."""
        return 'call ' + self.label if self.by == CALL else 'task ' + self.name

    @property
    def done(self) -> bool:
        return self.status in (COMPLETED, FAILED, CANCELED)

    def notice(self, result_text) -> str:
        """The text that tells the model how the task ended."""
        if self.status == COMPLETED:
            return 'Task %s completed: %s' % (self.name, result_text(self.result))
        if self.status == FAILED:
            return 'Task %s failed: %s' % (self.name, self.failure.run_message)
        return 'Task %s was canceled: %s' % (self.name, self.reason)

    def canceled_failure(self) -> Failure:
        """What joining a canceled task raises: kind cancelled, with the
        task, so it reads apart from a stop or a run cancel."""
        return Failure(RunErrorKind.LUA, 'task %s was canceled: %s' % (self.name, self.reason),
                       error_kind=ErrorKind.CANCELLED, fields={'task': self.handle})


class TaskBoard:
    def __init__(self, scheduler, limit: int, emit, start_chain, result_text):
        self.scheduler = scheduler
        self.limit = limit
        self.emit = emit
        self.start_chain = start_chain      # start_chain(task): the generator that runs it
        self.result_text = result_text
        self.tasks: list[Task] = []
        self.queued: deque[Task] = deque()
        self.resuming: deque = deque()      # (chain, answer): woken waiters that need a slot back
        self.slots = 0
        self.ends = 0                       # how many tasks have ended: each end's place in time
        self.holding = 0                    # > 0 while cancels cascade: no task starts meanwhile
        self.closed = False                 # the run is decided: nothing more happens
        self.meta = _handle_meta()

    def chains(self):
        return [task.chain for task in self.tasks if task.chain is not None]

    def task_of(self, value) -> Task | None:
        if value.__class__ is Userdata and value.meta is self.meta:
            return value.payload
        return None

    # -- starting --------------------------------------------------------------------
    def spawn(self, owner: Chain, section, by: str, args: dict, var_data: dict, notify=None) -> Task:
        """Start a task, or queue it until a slot frees.  A call chain
        starts at once and takes no slot: its caller waits on it."""
        if by == CALL:
            task = Task(owner.call_id(), section, owner, by, args, var_data)
            self._fork_clock(task)
            self.tasks.append(task)
            self._start(task)
            return task
        task = Task(owner.child_id(), section, owner, by, args, var_data, notify)
        self._fork_clock(task)
        task.handle = Userdata(task, self.meta)
        self.tasks.append(task)
        self.queued.append(task)
        self.emit('task_spawned', task=task.id, section=section.name, by=by)
        self.admit()
        return task

    @staticmethod
    def _fork_clock(task: Task) -> None:
        owner = task.owner
        task.clock = claims.fork(owner.clock, task.id)
        owner.clock[owner.id] += 1

    @staticmethod
    def taken(chain: Chain, task: Task) -> None:
        """``chain`` took ``task``'s end: everything the task did happened
        before what the chain does next."""
        claims.merge(chain.clock, task.chain.clock if task.chain is not None else task.clock)

    def admit(self) -> None:
        """Fill free slots: woken waiters first, then queued tasks in spawn
        order, each under its owner's own limit."""
        if self.holding:
            return
        while self.slots < self.limit:
            waiter = next((entry for entry in self.resuming
                           if entry[0].ended or self._owner_allows(entry[0].slot_task.owner)), None)
            if waiter is not None:
                self.resuming.remove(waiter)
                chain, answer = waiter
                if not chain.ended:
                    self._take_slot(chain.slot_task)
                    self.scheduler.resume(chain, answer)
                continue
            task = next((t for t in self.queued if self._owner_allows(t.owner)), None)
            if task is None:
                return
            self.queued.remove(task)
            self._start(task)

    @staticmethod
    def _owner_allows(owner: Chain) -> bool:
        return owner.own_limit is None or owner.running < owner.own_limit

    def _start(self, task: Task) -> None:
        task.status = RUNNING
        task.chain = Chain(task.id, None, depth=task.owner.depth + 1, task=task,
                           var_data=task.var_data, args=task.args, clock=task.clock)
        # A call chain runs on its caller's slot (none for the main chain's calls).
        task.chain.slot_task = task.owner.slot_task if task.by == CALL else task
        task.chain.gen = self.start_chain(task)
        if task.by != CALL:
            self._take_slot(task)
            self.emit('task_started', task=task.id, section=task.section.name)
        self.scheduler.resume(task.chain, None)

    def _take_slot(self, task: Task) -> None:
        task.holds_slot = True
        task.owner.running += 1
        self.slots += 1

    def _release_slot(self, task: Task) -> None:
        if task.holds_slot:
            task.holds_slot = False
            task.owner.running -= 1
            self.slots -= 1

    # -- ending ------------------------------------------------------------------------
    def ended(self, task: Task, result, failure: Failure | None) -> None:
        """The task's chain ended: with its result data, or a failure."""
        self._release_slot(task)
        if task.status == CANCELED:         # settled when it was canceled
            self.admit()
            return
        if failure is None:
            task.status, task.result = COMPLETED, result
        else:
            task.status, task.failure = FAILED, failure
        self._settle(task)

    def cancel(self, tasks, reason: str) -> None:
        """Cancel ``tasks`` and, first, every task they started.  No queued
        task starts until all of them are torn down."""
        self.holding += 1
        try:
            for task in tasks:
                self._cancel(task, reason)
        finally:
            self.holding -= 1
        self.admit()

    def _cancel(self, task: Task, reason: str) -> None:
        if task.done or self.closed:
            return
        task.status, task.reason = CANCELED, reason
        if task in self.queued:
            self.queued.remove(task)
        chain = task.chain
        if chain is not None:
            for child in self.tasks:
                if child.owner is chain:
                    self._cancel(child, OWNER_ENDED)
            self.scheduler.stop(chain, CANCEL)
        self._release_slot(task)
        self._settle(task)

    def _settle(self, task: Task) -> None:
        self.ends += 1
        task.ended_at = self.ends
        if task.by != CALL:
            self.emit('task_finished', task=task.id, status=task.status)
        if task.notify is not None:
            task.notify(task.notice(self.result_text))
        for chain in list(task.waiters):
            if chain.wait is not None and chain.wait.satisfied():
                self._wake(chain, Answer.ok(WAIT, True))
        self.admit()

    # -- waiting -----------------------------------------------------------------------
    def wait(self, chain: Chain, wait: Wait) -> None:
        """A chain asks to wait (a WAIT request): resumed with True once the
        wait is satisfied, with False when its timer fires first."""
        if wait.satisfied():
            self.scheduler.resume(chain, Answer.ok(WAIT, True))
            return
        chain.wait = wait
        for task in wait.tasks:
            task.waiters.append(chain)
        if wait.timeout is not None:
            self.scheduler.issue(chain, EffectRequest(TIMER, wait.timeout))
        holder = chain.slot_task
        if wait.lends and holder is not None and holder.holds_slot:
            self._release_slot(holder)          # lent to the tasks it waits on
            self.admit()

    def leave(self, chain: Chain) -> None:
        """The chain stops waiting in its wait."""
        for task in chain.wait.tasks:
            if chain in task.waiters:
                task.waiters.remove(chain)
        chain.wait = None

    def timer_answered(self, chain: Chain, answer: Answer) -> None:
        if answer.dropped:
            return
        if answer.interrupted or answer.failure is not None:
            self._wake(chain, answer)       # a stop: the tasks it waited on go on
        else:
            self._wake(chain, Answer.ok(WAIT, False))

    def _wake(self, chain: Chain, answer: Answer) -> None:
        self.leave(chain)
        self.scheduler.abandon(chain)       # its timer, when it set one
        holder = chain.slot_task
        if holder is not None and not holder.holds_slot:
            if self.slots >= self.limit or self.holding or not self._owner_allows(holder.owner):
                self.resuming.append((chain, answer))
                return
            self._take_slot(holder)
        self.scheduler.resume(chain, answer)


def _handle_meta() -> LuaTable:
    """The metatable of task handles: ``t.id``, ``t.section``, ``t.status``,
    ``t.by``; ``tostring(t)`` reads ``task id=0.0 (## Child)``."""
    meta = LuaTable()
    meta.set_str('__name', 'task')
    meta.set_str('__index', functions.method('task', _read_field, gives=(TEXT,)))
    meta.set_str('__tostring', functions.method('tostring', _tostring, gives=(TEXT,)))
    meta.set_str('__metatable', False)
    return meta


def _read_field(handle=None, key=None, *_):
    task = handle.payload
    if key == 'id':
        return (task.id,)
    if key == 'section':
        return (task.label,)
    if key == 'status':
        return (task.status,)
    if key == 'by':
        return (task.by,)
    return (None,)


def _tostring(handle=None, *_):
    return ('task ' + handle.payload.name,)
