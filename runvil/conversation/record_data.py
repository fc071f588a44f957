"""The conversation's Lua-to-JSON converter.

Message records hold JSON data, so every value an edit takes is converted
first.  This converter differs from ``var``'s and ``json.encode``'s on
purpose: a record view converts to the JSON form of the record it stands
for (so ``messages:append(messages[2])`` and ``{ messages[1] }`` work),
and a refusal gives the converter's own *reason*, which the list wraps in
its positioned message (``messages[2] meta must be JSON-representable:
unsupported value type `function```).

Tables follow the JSON data rules of ``jsondata``: keys 1..n (or a table
marked with ``json.array``) make an array, string keys an object, and an
empty unmarked table is the empty object.
"""
from __future__ import annotations

import math

from pylua.raw import LuaTable, Userdata, type_name

from ..vocabulary.jsondata import MAX_DEPTH
from ..vocabulary.crossing import UTF8


class Unrepresentable(Exception):
    """A value with no JSON form; ``reason`` says why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class RecordConverter:
    """Converts for one VM: ``shapes`` gives its ``json.null`` and array
    marker, ``record_of`` the record a view stands for (None for a value
    that is not a view)."""

    def __init__(self, shapes, record_of):
        self.shapes = shapes
        self.record_of = record_of

    def convert(self, value):
        return self._read(value, 0, set())

    def _read(self, value, depth: int, open_tables: set):
        c = value.__class__
        if c is str:
            return _text(value, 'a string')
        if c is bool or c is int:
            return value
        if c is float:
            if not math.isfinite(value):
                raise Unrepresentable('non-finite number `%s`'
                                      % ('nan' if value != value else 'inf' if value > 0 else '-inf'))
            return value
        if c is LuaTable:
            return self._table(value, depth + 1, open_tables)
        if c is Userdata:
            if value is self.shapes.null:
                return None
            record = self.record_of(value)
            if record is not None:
                return record
        raise Unrepresentable('unsupported value type `%s`' % type_name(value))

    def _table(self, table: LuaTable, depth: int, open_tables: set):
        if depth > MAX_DEPTH:
            raise Unrepresentable('nested more than %d levels deep' % MAX_DEPTH)
        if id(table) in open_tables:
            raise Unrepresentable('a table that contains itself')
        open_tables.add(id(table))
        try:
            items = self._array_items(table)
            if items is not None:
                return [self._read(item, depth, open_tables) for item in items]
            # Keys in sorted order, so a refusal names the same offender
            # whatever order the table was filled in.
            return {_text(key, 'a key'): self._read(table.hash[key], depth, open_tables)
                    for key in sorted(table.hash)}
        finally:
            open_tables.discard(id(table))

    def _array_items(self, table: LuaTable):
        """The items of an array table, or None for an object."""
        hash = table.hash
        n = len(table.arr)
        if not hash:
            return list(table.arr) if n or table.meta is self.shapes.array_meta else None
        if all(key.__class__ is int for key in hash) and \
                sorted(hash) == list(range(n + 1, n + 1 + len(hash))):
            return list(table.arr) + [hash[key] for key in range(n + 1, n + 1 + len(hash))]
        if n or table.meta is self.shapes.array_meta or not all(key.__class__ is str for key in hash):
            raise Unrepresentable('a table whose keys are neither 1..n nor all strings')
        return None


def _text(value: str, what: str) -> str:
    decoded = UTF8.take(value)
    if decoded is None:
        raise Unrepresentable('%s that is not valid UTF-8' % what)
    return decoded
