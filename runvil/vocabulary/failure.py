"""Engine failures: the record a failed run reports, and the messages that
are part of the spec's contract.

A ``Failure`` travels as a Python exception inside the Engine.  When it
reaches Lua it becomes an error value (see ``error_values``); when it ends
the run it becomes the run error: kind, message, retryable flag, location.
"""
from __future__ import annotations

from .engine_source import engine_position
from .kinds import ErrorKind, RunErrorKind
from .location import Location

INTERRUPTED = 'interrupted: the run was cancelled or this call was stopped'
UNMET_NOTICE = 'the environment cannot satisfy this prompt:'
GATE_NOTICE = UNMET_NOTICE + '\n- the H1 gate failed'
INTERNAL_PREFIX = 'internal invariant violated: '


class Failure(Exception):
    """One Engine failure.

    ``kind`` is the run error kind it ends a run with; ``error_kind`` is the
    kind Lua sees when it is raised into Lua (None for failures that never
    reach Lua: parse, version, input).  ``causes`` are the texts of its
    chain of causes.  ``fields`` are the kind-specific fields of its error
    value: text, or a Lua value (a task handle).  ``gate`` marks an ordinary Lua error of the code itself, the one
    family the H1 pass turns into a failed hard gate.
    """

    def __init__(self, kind: RunErrorKind, message: str, *, causes: tuple[str, ...] = (),
                 error_kind: ErrorKind | None = ErrorKind.LUA, fields: dict | None = None,
                 retryable: bool = False, location: Location | None = None, gate: bool = False):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.causes = causes
        self.error_kind = error_kind
        self.fields = fields or {}
        self.retryable = retryable
        self.location = location
        self.gate = gate

    @property
    def run_message(self) -> str:
        return join_message(self.message, self.causes)

    def __str__(self) -> str:
        return self.run_message

    def __repr__(self) -> str:
        return 'Failure(%s, %r)' % (self.kind.value, self.run_message)


def join_message(message: str, causes) -> str:
    """The error's text, then each cause's text not already in it, joined by ': '."""
    text = message
    for cause in causes:
        if cause and cause not in text:
            text += ': ' + cause
    return text


def lua_failure(message: str, *, gate: bool = True) -> Failure:
    """An ordinary Lua failure: kind lua in Lua, run error kind Lua."""
    return Failure(RunErrorKind.LUA, message, gate=gate)


def gate_failure(cause: Failure) -> Failure:
    """An ordinary Lua error in the H1 body: the prompt's hard gate failed."""
    return Failure(RunErrorKind.REQUIREMENTS_UNMET, GATE_NOTICE, causes=(cause.run_message,),
                   error_kind=None)


def internal_failure(detail: str, tb=None) -> Failure:
    """A broken Engine invariant, located at the Engine source line: the
    innermost runvil frame of ``tb``, or the caller when ``tb`` is None."""
    path, line = engine_position(tb)
    return Failure(RunErrorKind.INTERNAL, INTERNAL_PREFIX + detail, error_kind=ErrorKind.INTERNAL,
                   location=Location(path, line))


def internal_from_exception(err: BaseException) -> Failure:
    return internal_failure('%s: %s' % (type(err).__name__, err), err.__traceback__)
