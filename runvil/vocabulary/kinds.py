"""The two failure vocabularies: error kinds (what Lua sees in ``err.kind``)
and run error kinds (what a failed run reports).  They are separate on
purpose: one error kind can end a run under different run error kinds
depending on where it came from."""
from __future__ import annotations

from enum import Enum


class ErrorKind(str, Enum):
    """The thirteen kinds an Engine error value carries in Lua."""
    LUA = 'lua'
    CONTEXT_EXHAUSTED = 'context_exhausted'
    EMPTY_MODEL_REPLY = 'empty_model_reply'
    CANCELLED = 'cancelled'
    TOOL_LOOP_EXHAUSTED = 'tool_loop_exhausted'
    TASKS_LIVE = 'tasks_live'
    TASK_NOT_OWNED = 'task_not_owned'
    TASK_CONSUMED = 'task_consumed'
    OUT_OF_SCOPE_TOOL = 'out_of_scope_tool'
    UNBOUND_TOOL = 'unbound_tool'
    TOOL = 'tool'
    STORE = 'store'
    INTERNAL = 'internal'


class RunErrorKind(str, Enum):
    """The kind a failed run reports.  The first twelve are the run error
    kinds; Substitution and Cancelled are defined but no failed run reports
    them (a failed substitution is an ordinary Lua error, a cancelled run ends
    as cancelled); Input is the Harness's kind for input that cannot be staged."""
    PARSE = 'Parse'
    VERSION = 'Version'
    BINDING = 'Binding'
    COMPLETION = 'Completion'
    TOOL = 'Tool'
    VFS = 'Vfs'
    DETERMINISM = 'Determinism'
    LUA = 'Lua'
    QUOTA = 'Quota'
    CONTEXT_EXHAUSTED = 'ContextExhausted'
    INTERNAL = 'Internal'
    REQUIREMENTS_UNMET = 'RequirementsUnmet'
    SUBSTITUTION = 'Substitution'
    CANCELLED = 'Cancelled'
    INPUT = 'Input'


REPORTED_RUN_ERROR_KINDS = tuple(RunErrorKind)[:12]
