"""The model's task built-ins: ``task``, ``task_status`` and ``await_tasks``.

``tools.offer_tasks(section, ...)`` puts the three in the section's tool
scope and names the sections the model may start.  A task the model starts
belongs to the section's chain like one from ``tasks.spawn``: ``tasks.list``
holds it, the author may cancel it, and it is canceled when the section
ends.  How it ends reaches the model as a notice, a user record the next
loop round delivers before its precheck: ``Task id=0.0 (## Child)
completed: ...``.

Answers are text for the model.  A call the model gets wrong (a section
not offered, an unknown id) is answered with what was wrong, so the model
can correct itself; only a failure of the run's own (the call depth cap)
ends the loop.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from ..vocabulary.effects import request
from ..vocabulary.waits import MODEL, WAIT, Wait

TASK, TASK_STATUS, AWAIT_TASKS = 'task', 'task_status', 'await_tasks'
NAMES = (TASK, TASK_STATUS, AWAIT_TASKS)

_DESCRIPTIONS = {
    TASK: 'Start a section of this prompt as a task that runs beside the conversation. '
          'You get its id at once; a notice tells you how it ended.',
    TASK_STATUS: "Report the status of the tasks you started: queued, running, completed, failed or canceled.",
    AWAIT_TASKS: 'Wait until the tasks you started (or the ones whose ids you give) have ended.',
}


@dataclass(frozen=True)
class TaskTool:
    """One task built-in, with the sections the model may start."""
    name: str
    sections: tuple[str, ...]

    @property
    def label(self) -> str:
        return self.name

    def wire(self) -> dict:
        return {'type': 'function', 'function': {'name': self.name, 'description': _DESCRIPTIONS[self.name],
                                                 'parameters': self.parameters()}}

    def parameters(self) -> dict:
        if self.name == TASK:
            return {'type': 'object', 'required': ['section'],
                    'properties': {'section': {'type': 'string', 'enum': list(self.sections)},
                                   'input': {'type': 'string', 'description': 'What the task works on.'}}}
        if self.name == TASK_STATUS:
            return {'type': 'object', 'properties': {'id': {'type': 'string'}}}
        return {'type': 'object', 'properties': {'ids': {'type': 'array', 'items': {'type': 'string'}}}}


def task_tools(sections) -> list[TaskTool]:
    return [TaskTool(name, tuple(sections)) for name in NAMES]


def run_task_tool(vm, tool: TaskTool, arguments: dict):
    """Answer one call of a task built-in (a generator); returns the text."""
    if tool.name == TASK:
        return _start(vm, tool, arguments)
    started = [task for task in vm.tasks.started if task.by == MODEL]
    if tool.name == TASK_STATUS:
        return _status(started, arguments.get('id'))
    return (yield from _await(vm, started, arguments.get('ids')))


def _start(vm, tool: TaskTool, arguments: dict) -> str:
    section = arguments.get('section')
    if section not in tool.sections:
        return 'error: you can start these sections: %s' % ', '.join(tool.sections)
    given = arguments.get('input')
    if given is not None and given.__class__ is not str:
        given = json.dumps(given, ensure_ascii=False, separators=(',', ':'))
    args = {} if given is None else {'input': given}
    task = vm.tasks.start(section, MODEL, args, notify=vm.notify)
    return 'Started task %s.' % task.name


def _status(started, task_id) -> str:
    if task_id is not None:
        started = [task for task in started if task.id == task_id]
        if not started:
            return 'error: you started no task with id=%s' % task_id
    if not started:
        return 'You have started no tasks.'
    return '\n'.join('%s: %s' % (task.name, task.status) for task in started)


def _await(vm, started, ids):
    if ids is not None:
        if ids.__class__ is not list or any(i.__class__ is not str for i in ids):
            return 'error: ids is a list of task ids'
        unknown = [i for i in ids if all(task.id != i for task in started)]
        if unknown:
            return 'error: you started no task with id=%s' % unknown[0]
        started = [task for task in started if task.id in ids]
    if not started:
        return 'You have started no tasks.'
    yield from request(WAIT, Wait(started, 'all'))
    for task in started:
        vm.run.board.taken(vm.chain, task)
    return '\n'.join('%s: %s' % (task.name, task.status) for task in started)
