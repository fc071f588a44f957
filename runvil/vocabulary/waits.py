"""Waiting on tasks: the request a chain makes to wait on other chains,
what it waits for, and who starts a task.

The task board (``runvil.engine.task_board``) settles these waits; the
``tasks`` global, ``call`` and the model's task built-ins (``runvil.tools``)
make them.
"""
from __future__ import annotations

WAIT = 'tasks.wait'
"""The request kind of a wait on other chains (payload: a Wait)."""

AUTHOR, MODEL, ARM, CALL = 'author', 'model', 'arm', 'call'
"""Who started a task: the prompt's Lua, the model, a ``tasks.fanout`` arm,
or ``call`` (a call chain)."""


class Wait:
    """A chain waiting on tasks: ``one`` (tasks.join, call), ``any``
    (tasks.join_any) or ``all`` (tasks.fanout, await_tasks); with a timeout
    in seconds, a timer bounds it.  A wait lends the waiter's slot to the
    tasks it waits on, except a call's: the call chain runs on it."""

    def __init__(self, tasks, mode: str, timeout: float | None = None, lends: bool = True):
        self.tasks = tuple(tasks)
        self.mode = mode
        self.timeout = timeout
        self.lends = lends

    def satisfied(self) -> bool:
        if self.mode == 'any':
            return any(task.done for task in self.tasks)
        return all(task.done for task in self.tasks)
