"""Record views: the read-only userdata ``messages[i]`` returns.

A view holds its own reference to the stored record (records are never
changed, see ``records``), so it keeps showing that record after a later
edit of the list.  Each read of a table field builds a fresh Lua table from
the record's JSON form, so changing what a read returned leaves the record
as it was; JSON arrays come back marked and JSON null as ``json.null``,
just as ``json.decode`` gives them.

``pairs(view)`` visits the fields the record has in the fixed order role,
content, tool_calls, tool_call_id, meta.  Any other key reads nil, and
every assignment is refused.  ``var``, bare prose globals and
``json.encode`` refuse a view like any userdata; the conversation's own
converter (``record_data``) turns it back into its record.
"""
from __future__ import annotations

from pylua.raw import Builtin, LuaTable, Userdata

from ..vocabulary import charged
from ..vocabulary.crossing import TEXT
from ..vocabulary.failure import lua_failure
from .records import FIELDS

READ_ONLY = 'records read from messages are read-only; rewrite history with models.compact(compactor, reason)'

_NEXT_FIELD = {None: FIELDS[0], **{field: following for field, following in zip(FIELDS, FIELDS[1:])}}


class RecordViews:
    """The views of one VM (they share one metatable)."""

    def __init__(self, vm):
        self.shapes = vm.shapes
        self.meta = LuaTable()
        self.meta.set_str('__name', 'message record')
        self.meta.set_str('__index', vm.function('message record', self._index))
        self.meta.set_str('__newindex', vm.function('message record', self._assign))
        self.meta.set_str('__pairs', Builtin(self._pairs, 'pairs'))
        self.meta.set_str('__metatable', False)
        self._next = vm.function('next', self._next_field, gives=(TEXT,))   # it builds field values: guarded

    def make(self, record: dict) -> Userdata:
        return Userdata(record, self.meta)

    def record_of(self, value) -> dict | None:
        if value.__class__ is Userdata and value.meta is self.meta:
            return value.payload
        return None

    def field(self, record: dict, key):
        """The Lua value of one field; nil for a field the record lacks."""
        if key.__class__ is not str or key not in record:
            return None
        return charged.data(self.shapes, record[key])

    def _index(self, view, key=None, *_):
        return (self.field(view.payload, key),)

    def _assign(self, *_):
        raise lua_failure(READ_ONLY)

    def _pairs(self, view, *_):
        return (self._next, view, None)

    def _next_field(self, view, key=None, *_):
        record = view.payload
        following = _NEXT_FIELD.get(key) if key is None or key.__class__ is str else None
        while following is not None and following not in record:
            following = _NEXT_FIELD.get(following)
        if following is None:
            return (None,)
        return (following, self.field(record, following))
