"""Error values: how an Engine failure looks in Lua, and how a Lua error
that escapes a block is read back as a Failure.

An error value is a table with ``kind``, ``message`` and the kind's own
fields; ``tostring(err)`` gives the message.  Each VM remembers which
Failure each value it raised stands for until the chain's next suspending
call, so a caught value raised again before then ends the run exactly as the
original failure would have (same kind, causes, retryable flag).  After a
suspending call the memory is gone and a re-raised value is rebuilt from its
kind alone, per the spec's table.
"""
from __future__ import annotations

from pylua import LuaError, LuaInterrupt
from pylua.raw import Builtin, LuaTable, Userdata, metamethod, tostring, tostring_raw, type_name

from .crossing import TEXT
from .failure import INTERRUPTED, Failure, lua_failure
from .kinds import ErrorKind, RunErrorKind

_KINDS = {kind.value: kind for kind in ErrorKind}


def interrupted() -> Failure:
    """The interrupted error: a cancel or a stop, kind cancelled, no fields."""
    return Failure(RunErrorKind.CANCELLED, INTERRUPTED, error_kind=ErrorKind.CANCELLED)


class ErrorValues:
    """The error values of one VM.  ``text_of`` turns any Lua error value
    into text, the way the standalone interpreter reports an uncaught error."""

    def __init__(self, text_of):
        self._text_of = text_of
        self._raised: dict[int, tuple[LuaTable, Failure]] = {}
        self.meta = LuaTable()
        self.meta.set_str('__name', 'error')
        self.meta.set_str('__tostring', Builtin(_message_of, 'tostring'))

    def value(self, failure: Failure) -> LuaTable:
        table = LuaTable()
        table.meta = self.meta
        table.set_str('kind', failure.error_kind.value)
        table.set_str('message', TEXT.give(failure.message))
        for name, field in failure.fields.items():   # text, or a Lua value (a task handle)
            table.set_str(name, TEXT.give(field))
        self._raised[id(table)] = (table, failure)
        return table

    def error(self, failure: Failure) -> LuaError:
        """The exception that raises ``failure`` in Lua as an error value."""
        return LuaError(self.value(failure))

    def forget(self) -> None:
        """The chain made a suspending call: values raised so far are rebuilt
        from their kind if raised again."""
        self._raised.clear()

    def read(self, exc: LuaError) -> Failure:
        """The Failure a Lua error escaping a block stands for."""
        if isinstance(exc, LuaInterrupt):
            return interrupted()
        value = exc.value
        if value.__class__ is LuaTable:
            known = self._raised.get(id(value))
            if known is not None and known[0] is value:
                return known[1]
            kind = _KINDS.get(value.get('kind'))
            if kind is not None:
                return self._rebuild(kind, value)
        return lua_failure(self._text_of(value))

    def _rebuild(self, kind: ErrorKind, value: LuaTable) -> Failure:
        message = value.get('message')
        shown = TEXT.take(message) if message.__class__ is str else self._text_of(value)
        return _REBUILD[kind](shown, value)


def _message_of(err=None, *_):
    message = err.get('message') if err.__class__ is LuaTable else None
    return (message if message.__class__ is str else TEXT.give('(error value)'),)


def describe(value):
    """An error value's text, asking its ``__tostring`` when it has one
    (a generator: it may run Lua)."""
    if value.__class__ in (LuaTable, Userdata) and metamethod(value, '__tostring') is not None:
        try:
            shown = yield from tostring(value)
        except LuaInterrupt:
            raise
        except LuaError:
            return default_text(value)
        return TEXT.take(shown)
    return default_text(value)


def default_text(value) -> str:
    """An error value's text when it has no ``__tostring`` to ask."""
    if value.__class__ is str:
        return TEXT.take(value)
    if value.__class__ in (int, float):
        return tostring_raw(value)
    return '(error object is a %s value)' % type_name(value)


# -- rebuilding a value raised again after a suspending call -------------------

def _plain(shown, value):
    return lua_failure(shown)


def _keeps_kind(run_kind: RunErrorKind, kind: ErrorKind):
    def rebuild(shown, value):
        return Failure(run_kind, shown, error_kind=kind)
    return rebuild


def _context_exhausted(shown, value):
    reason = value.get('reason')
    if reason.__class__ is not str or not reason:
        return lua_failure(shown)
    return Failure(RunErrorKind.CONTEXT_EXHAUSTED, shown, error_kind=ErrorKind.CONTEXT_EXHAUSTED,
                   fields={'reason': TEXT.take(reason)})


def _task_error(kind: ErrorKind):
    # A task error keeps run error kind Lua even in the H1 pass (gate=False);
    # without a task handle it is a plain Lua failure, which the gate remaps.
    def rebuild(shown, value):
        task = value.get('task')
        if task.__class__ is not Userdata:
            return lua_failure(shown)
        return Failure(RunErrorKind.LUA, shown, error_kind=kind, fields={'task': task})
    return rebuild


def _store(shown, value):
    reason = value.get('reason')
    fields = {'reason': TEXT.take(reason)} if reason.__class__ is str else {}
    return Failure(RunErrorKind.VFS, shown, error_kind=ErrorKind.STORE, fields=fields)


def _cancelled(shown, value):
    return interrupted()


_REBUILD = {
    ErrorKind.LUA: _plain,
    ErrorKind.INTERNAL: _plain,
    ErrorKind.OUT_OF_SCOPE_TOOL: _plain,
    ErrorKind.UNBOUND_TOOL: _plain,
    ErrorKind.TASKS_LIVE: _plain,
    ErrorKind.EMPTY_MODEL_REPLY: _keeps_kind(RunErrorKind.COMPLETION, ErrorKind.EMPTY_MODEL_REPLY),
    ErrorKind.TOOL_LOOP_EXHAUSTED: _keeps_kind(RunErrorKind.TOOL, ErrorKind.TOOL_LOOP_EXHAUSTED),
    ErrorKind.TOOL: _keeps_kind(RunErrorKind.TOOL, ErrorKind.TOOL),
    ErrorKind.CONTEXT_EXHAUSTED: _context_exhausted,
    ErrorKind.TASK_NOT_OWNED: _task_error(ErrorKind.TASK_NOT_OWNED),
    ErrorKind.TASK_CONSUMED: _task_error(ErrorKind.TASK_CONSUMED),
    ErrorKind.STORE: _store,
    ErrorKind.CANCELLED: _cancelled,
}
