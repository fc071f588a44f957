"""Compaction: running a compactor over the section's list, the
``compactors`` global, and ``models.compact``.

A compactor is a Lua function that edits ``messages`` in place (``replace``
works only while one runs).  Running one snapshots the records, calls it
with its one argument (the reason), then checks the structural rules of
what it left (the cross-record rules; an empty list passes them).  A raise
or a broken rule puts the snapshot back (the records the compactor added
with builders go too) and raises that failure: an Engine
failure as its error value, a string or table the compactor raised
unchanged.  The size rules of an overflow are the loop's (``loop``).
"""
from __future__ import annotations

from pylua import LuaError, LuaInterrupt
from pylua.raw import LuaTable, call, is_function, type_name

from ..vocabulary.crossing import TEXT
from ..vocabulary.failure import Failure, lua_failure
from ..vocabulary.functions import bad_argument
from ..vocabulary.model_failures import context_exhausted
from . import compose

BUSY = 'a loop or a compactor is already running in this section; ask a side question with models.infer(prompt)'
CLEAR_OUTSIDE = ('compactors.clear works only inside a compactor; empty messages with '
                 'models.compact(compactors.clear, reason)')


def shown_type(value) -> str:
    """A value's type as the loop's messages name it: integers apart."""
    return 'integer' if value.__class__ is int else type_name(value)


def check_compactor(value) -> None:
    if value is not None and not is_function(value):
        raise lua_failure('compactor must be a function, got %s' % shown_type(value))


class Compaction:
    """One section VM's compactors: the ``compactors`` table, ``models.compact``."""

    def __init__(self, vm, messages):
        self.list = messages
        self.emit = vm.run.emit
        self.section = vm.section_name
        self.table = LuaTable()
        self.table.set_str('fail', vm.function('compactors.fail', self._fail, takes=(TEXT,)))
        self.table.set_str('clear', vm.function('compactors.clear', self._clear))
        self.compact = vm.generator('models.compact', self._compact)   # its reason reaches the compactor as given

    def default(self):
        """The default compactor: whatever the installed table's ``fail``
        holds when a loop call begins (assigning the global another table
        changes nothing)."""
        return self.table.get('fail')

    # -- the functions ---------------------------------------------------------------
    def _fail(self, *args):
        reason = args[0] if args else None
        if reason.__class__ is not str:
            raise bad_argument(1, 'compactors.fail', 'string', reason)
        raise context_exhausted(reason)

    def _clear(self, *_):
        if not self.list.compacting:
            raise lua_failure(CLEAR_OUTSIDE)
        self.list.set_records([])
        return ()

    def _compact(self, *args):
        if len(args) > 2:
            raise lua_failure('models.compact takes (compactor, reason)')
        compactor = args[0] if args else None
        reason = args[1] if len(args) > 1 else None
        if not is_function(compactor):
            raise lua_failure('compactor must be a function, got %s' % shown_type(compactor))
        if reason.__class__ is not str:
            raise lua_failure('reason must be a string, got %s' % shown_type(reason))
        if self.list.busy is not None:
            raise lua_failure('models.compact cannot start while a loop or a compactor is running in this section')
        self.list.busy = 'compactor'
        try:
            yield from self.run(compactor, reason)
        finally:
            self.list.busy = None
        return (None,)

    # -- running a compactor -------------------------------------------------------
    def run(self, compactor, reason):
        """Run ``compactor(reason)`` over the list (a generator; ``reason``
        is the Lua string the compactor gets); on any
        failure the records are put back and the failure raised."""
        snapshot = self.list.snapshot()
        busy = self.list.busy
        self.list.busy, self.list.compacting = 'compactor', True
        try:
            yield from _call_compactor(compactor, reason)
            compose.check(self.list.records)
        except LuaInterrupt:
            raise
        except (LuaError, Failure):
            self.list.restore(snapshot)
            self._report(reason, snapshot, restored=True)
            raise
        finally:
            self.list.busy, self.list.compacting = busy, False
        self._report(reason, snapshot, restored=False)

    def _report(self, reason, before, restored: bool) -> None:
        self.emit('compaction', section=self.section, reason=TEXT.take(reason), records_before=len(before),
                  records_after=len(self.list.records), restored=restored)


def _call_compactor(compactor, reason):
    if not is_function(compactor):
        # A default that is not a function fails as Lua's own call error,
        # a plain string, only once a round overflows.
        raise LuaError(TEXT.give('attempt to call a %s value' % type_name(compactor)))
    yield from call(compactor, (reason,))
