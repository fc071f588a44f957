"""The ``tasks`` global: sections run as tasks beside the chain that starts
them.

* ``tasks.spawn(section, args?)`` starts the section as a task and returns
  its handle; ``args`` (JSON data) is laid over the run's args for it;
* ``tasks.join(task, timeout?)`` waits for the task and returns its result,
  or raises its failure; ``tasks.join_any(list, timeout?)`` returns the
  first of a list to end and its result.  With a timeout in seconds, a wait
  that runs out returns ``nil, 'timeout'`` and the tasks go on;
* ``tasks.fanout(section, inputs)`` runs the section once per input, as
  arms, and returns their results in input order;
* ``tasks.cancel(task)``, ``tasks.concurrency(n)``, ``tasks.list()`` and
  ``tasks.current()``.

Only the chain that started a task may wait on it or cancel it, and one
task's end is taken once.  A section entry must take the end of every task
it spawned (or cancel it) before it ends; the tasks the model started are
canceled when their section ends.
"""
from __future__ import annotations

from pylua.raw import LuaTable

from ..vocabulary import charged, headings
from ..vocabulary.crossing import TEXT
from ..vocabulary.effects import request
from ..vocabulary.failure import Failure, lua_failure
from ..vocabulary.functions import bad_argument
from ..vocabulary.kinds import ErrorKind, RunErrorKind
from ..vocabulary.waits import ARM, AUTHOR, MODEL, WAIT, Wait
from .chains import CALL_DEPTH_CAP
from .task_board import AUTHOR_CANCELLED, CANCELED, FAILED, SECTION_ENDED

TIMED_OUT = 'timeout'
_TIMED_OUT = (None, TEXT.give(TIMED_OUT))     # what a wait that runs out returns


def depth_exceeded(what: str) -> Failure:
    """Nesting past the call depth cap: run error kind Quota, kind lua in Lua."""
    return Failure(RunErrorKind.QUOTA, '%s recursion exceeded cap of %d' % (what, CALL_DEPTH_CAP))


class Tasks:
    """One section VM's ``tasks`` table and the tasks it started."""

    def __init__(self, vm):
        self.vm = vm
        self.run = vm.run
        self.board = vm.run.board
        self.chain = vm.chain
        self.started = []           # every task this section entry started, in order
        table = LuaTable()
        table.set_str('spawn', vm.function('tasks.spawn', self._spawn, takes=(TEXT,)))
        table.set_str('join', vm.generator('tasks.join', self._join))
        table.set_str('join_any', vm.generator('tasks.join_any', self._join_any))
        table.set_str('fanout', vm.generator('tasks.fanout', self._fanout, takes=(TEXT,)))
        table.set_str('cancel', vm.function('tasks.cancel', self._cancel))
        table.set_str('concurrency', vm.function('tasks.concurrency', self._concurrency))
        table.set_str('list', vm.function('tasks.list', self._list))
        table.set_str('current', vm.function('tasks.current', self._current))
        self.table = table

    # -- starting tasks ----------------------------------------------------------------
    def start(self, section_name: str, by: str, args: dict, notify=None):
        """Start a task of this chain (the model's task tool starts them too)."""
        section = headings.resolve(self.run.prompt, section_name)
        if self.chain.depth + 1 > CALL_DEPTH_CAP:
            raise depth_exceeded('tasks.fanout' if by == ARM else 'call')
        task = self.board.spawn(self.chain, section, by, dict(self.vm.chain_args(), **args),
                                self.vm.var.read_back(), notify)
        self.started.append(task)
        return task

    def _spawn(self, *args):
        if not 1 <= len(args) <= 2:
            raise lua_failure('tasks.spawn takes (section, args?)')
        name = args[0]
        if name.__class__ is not str:
            raise bad_argument(1, 'tasks.spawn', 'string', name)
        given = self.args_data(args[1] if len(args) == 2 else None, 2, 'tasks.spawn')
        return (self.start(name, AUTHOR, given).handle,)

    def args_data(self, value, position: int, who: str) -> dict:
        if value is None:
            return {}
        if value.__class__ is not LuaTable:
            raise bad_argument(position, who, 'table', value)
        data = self.vm.shapes.to_data(value, 'args', who + ': ')
        if data == []:
            return {}                   # an empty table names no argument
        if data.__class__ is not dict:
            raise lua_failure('%s: args is a table of named values, got an array' % who)
        return data

    def _fanout(self, *args):
        if len(args) != 2:
            raise lua_failure('tasks.fanout takes (section, inputs)')
        name, inputs = args
        if name.__class__ is not str:
            raise bad_argument(1, 'tasks.fanout', 'string', name)
        if inputs.__class__ is not LuaTable:
            raise bad_argument(2, 'tasks.fanout', 'table', inputs)
        headings.resolve(self.run.prompt, name)     # before any arm starts
        arms = [self.args_data(inputs.get(i), 2, 'tasks.fanout') for i in range(1, inputs.length() + 1)]
        tasks = [self.start(name, ARM, given) for given in arms]
        yield from request(WAIT, Wait(tasks, 'all'))
        for task in tasks:
            task.consumed = True
            self.board.taken(self.chain, task)
        failed = next((task for task in tasks if task.status == FAILED), None)
        if failed is not None:
            raise failed.failure
        results = LuaTable()
        for i, task in enumerate(tasks, 1):
            results.set(i, self.result(task))
        return (results,)

    # -- waiting on tasks -------------------------------------------------------------
    def _join(self, *args):
        if not 1 <= len(args) <= 2:
            raise lua_failure('tasks.join takes (task, timeout?)')
        task = self._owned(args[0], 1, 'tasks.join')
        timeout = self._timeout(args[1] if len(args) == 2 else None, 2, 'tasks.join')
        if not task.done and not (yield from request(WAIT, Wait((task,), 'one', timeout))):
            return _TIMED_OUT
        return (self.take(task, 'tasks.join'),)

    def _join_any(self, *args):
        if not 1 <= len(args) <= 2:
            raise lua_failure('tasks.join_any takes (tasks, timeout?)')
        if args[0].__class__ is not LuaTable:
            raise bad_argument(1, 'tasks.join_any', 'table', args[0])
        listed = args[0]
        tasks = [self._owned(listed.get(i), 1, 'tasks.join_any') for i in range(1, listed.length() + 1)]
        if not tasks:
            raise lua_failure('tasks.join_any: the list of tasks is empty')
        timeout = self._timeout(args[1] if len(args) == 2 else None, 2, 'tasks.join_any')
        if not (yield from request(WAIT, Wait(tasks, 'any', timeout))):
            return _TIMED_OUT
        task = min((task for task in tasks if task.done), key=lambda task: task.ended_at)
        return (task.handle, self.take(task, 'tasks.join_any'))

    def take(self, task, who: str):
        """Take a task's end: its result as a Lua value, or its failure raised."""
        if task.consumed:
            raise _consumed(task, who)
        task.consumed = True
        self.board.taken(self.chain, task)
        if task.status == CANCELED:
            raise task.canceled_failure()
        if task.status == FAILED:
            raise task.failure
        return self.result(task)

    def result(self, task):
        return None if task.result is None else charged.data(self.vm.shapes, task.result)

    def _owned(self, value, position: int, who: str):
        task = self.board.task_of(value)
        if task is None:
            raise bad_argument(position, who, 'task', value)
        if task.owner is not self.chain:
            raise Failure(RunErrorKind.LUA, '%s: task %s was started by another chain' % (who, task.name),
                          error_kind=ErrorKind.TASK_NOT_OWNED, fields={'task': task.handle})
        if task.consumed:
            raise _consumed(task, who)
        return task

    @staticmethod
    def _timeout(value, position: int, who: str) -> float | None:
        if value is None:
            return None
        if value.__class__ not in (int, float):
            raise bad_argument(position, who, 'number', value)
        if not value > 0:
            raise lua_failure('%s: a timeout is a positive number of seconds' % who)
        return float(value)

    # -- the rest ----------------------------------------------------------------------
    def _cancel(self, *args):
        if len(args) != 1:
            raise lua_failure('tasks.cancel takes (task)')
        self.board.cancel((self._owned(args[0], 1, 'tasks.cancel'),), AUTHOR_CANCELLED)
        return ()

    def _concurrency(self, *args):
        if len(args) != 1:
            raise lua_failure('tasks.concurrency takes (n)')
        n = args[0]
        if n.__class__ is float and n.is_integer():
            n = int(n)
        if n.__class__ is not int:
            raise bad_argument(1, 'tasks.concurrency', 'integer', n)
        if n < 1:
            raise lua_failure('tasks.concurrency: the limit is at least 1, got %d' % n)
        limit = min(n, self.board.limit)
        if self.chain.own_limit is not None:
            limit = min(limit, self.chain.own_limit)      # it only ever lowers
        self.chain.own_limit = limit
        return (limit,)

    def _list(self, *_):
        listed = LuaTable()
        for i, task in enumerate((t for t in self.started if not t.consumed and t.by in (AUTHOR, MODEL)), 1):
            listed.set(i, task.handle)
        return (listed,)

    def _current(self, *_):
        task = self.chain.slot_task     # a call chain belongs to its caller's task
        return (None if task is None else task.handle,)

    # -- the end of the section entry -------------------------------------------------
    def leaked(self) -> Failure | None:
        """The failure a section ends with when it leaves an author task
        whose end nobody took; the leaked tasks are canceled."""
        leaked = [task for task in self.started
                  if task.by == AUTHOR and not task.consumed and task.status != CANCELED]
        if not leaked:
            return None
        self.abandon()
        return Failure(RunErrorKind.LUA, '%s ended with %d task%s not joined: %s'
                       % (self.vm.place, len(leaked), '' if len(leaked) == 1 else 's',
                          ', '.join(task.name for task in leaked)),
                       error_kind=ErrorKind.TASKS_LIVE)

    def abandon(self) -> None:
        """Cancel every task this section entry started that still runs."""
        self.board.cancel(self.started, SECTION_ENDED)


def _consumed(task, who: str) -> Failure:
    return Failure(RunErrorKind.LUA, '%s: the end of task %s was already taken' % (who, task.name),
                   error_kind=ErrorKind.TASK_CONSUMED, fields={'task': task.handle})


def install(vm) -> Tasks:
    tasks = Tasks(vm)
    vm.globals.set_str('tasks', tasks.table)
    return tasks
