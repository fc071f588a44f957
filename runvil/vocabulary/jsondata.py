"""JSON data: the values var keeps and json encodes, and their Lua form.

In Lua, JSON data is nil-free: strings (UTF-8 text), finite numbers,
booleans, ``json.null``, and tables that are either arrays (keys 1..n, or
marked with ``json.array``) or objects (string keys; an empty unmarked table
is the empty object).  Outside Lua it is plain Python JSON data: str, int,
float, bool, None, list, dict.  Decoded arrays come back marked, so an empty
list stays a list through every round trip.

Limits: a value nests at most ``MAX_DEPTH`` levels (``bounded_json``'s
bound, which ``decode`` checks on the text before decoding it), and its
compact JSON text must fit the size budget, which is the VM's memory
ceiling.
"""
from __future__ import annotations

import json
import math
import re

from pylua.raw import Builtin, LuaTable, Userdata, type_name

from . import bounded_json
from .bounded_json import MAX_DEPTH
from .crossing import TEXT, UTF8
from .failure import lua_failure

_INT_MIN, _INT_MAX = -(1 << 63), (1 << 63) - 1
_NAME = re.compile(r'[A-Za-z_][A-Za-z0-9_]*\Z')


class JsonShapes:
    """One VM's JSON markers: its ``json.null`` and the array metatable."""

    def __init__(self, budget: int):
        self.budget = budget
        null_meta = LuaTable()
        null_meta.set_str('__name', 'json.null')
        null_meta.set_str('__tostring', Builtin(lambda *_: ('null',), 'tostring'))
        self.null = Userdata(None, null_meta)
        self.array_meta = LuaTable()
        self.array_meta.set_str('__name', 'json.array')

    # -- Lua -> data ---------------------------------------------------------
    def to_data(self, value, root: str, prefix: str = '', record_of=None):
        """``value`` as JSON data; a refusal names the offending path, such as
        ``var.notes[2] must be JSON data, got userdata``.  ``record_of``, when
        given, maps a record view to its record (None for any other value),
        so views convert to their records' JSON form, meta included."""
        return _Reader(self, root, prefix, record_of).read(value, 0)

    def encode(self, value, root: str, prefix: str) -> str:
        return self.dumps(self.to_data(value, root, prefix), root, prefix)

    def dumps(self, data, root: str, prefix: str) -> str:
        """Compact JSON text with sorted keys, within the size budget."""
        text = json.dumps(data, ensure_ascii=False, separators=(',', ':'), sort_keys=True)
        self.check_size(len(text.encode('utf-8')), root, prefix)
        return text

    def check_size(self, size: int, root: str, prefix: str) -> None:
        if size > self.budget:
            raise lua_failure('%s%s is %d bytes as JSON; the size budget is %d bytes'
                              % (prefix, root, size, self.budget))

    # -- data -> Lua ---------------------------------------------------------
    def to_lua(self, data):
        c = data.__class__
        if c is str:
            return TEXT.give(data)
        if c is dict:
            table = LuaTable()
            for key, item in data.items():
                table.set_str(TEXT.give(key), self.to_lua(item))
            return table
        if c is list:
            table = LuaTable([self.to_lua(item) for item in data])
            table.meta = self.array_meta
            return table
        if data is None:
            return self.null
        return data

    def decode(self, text: str, prefix: str):
        """JSON text (a Python str) as a Lua value."""
        try:
            data = bounded_json.loads(text, parse_constant=_refuse_constant, parse_int=_parse_int)
        except json.JSONDecodeError as err:
            raise lua_failure('%s%s at line %d column %d' % (prefix, err.msg, err.lineno, err.colno))
        except bounded_json.TooDeep as err:
            raise lua_failure('%stext is %s' % (prefix, err))
        except _Constant as err:
            raise lua_failure('%s%s is not JSON' % (prefix, err.args[0]))
        return self.to_lua(data)


class _Constant(Exception):
    pass


def _refuse_constant(name):
    raise _Constant(name)


def _parse_int(digits):
    number = int(digits)
    return number if _INT_MIN <= number <= _INT_MAX else float(number)


def _copy(data):
    """A deep copy of JSON data: a stored record is never changed, whoever
    receives its data."""
    c = data.__class__
    if c is dict:
        return {key: _copy(item) for key, item in data.items()}
    if c is list:
        return [_copy(item) for item in data]
    return data


class _Reader:
    """One conversion; the path is built only when a refusal needs it."""

    def __init__(self, shapes: JsonShapes, root: str, prefix: str, record_of=None):
        self.shapes = shapes
        self.record_of = record_of
        self.root = root
        self.prefix = prefix
        self.path: list = []
        self.open: set[int] = set()

    def refuse(self, problem: str):
        raise lua_failure('%s%s %s' % (self.prefix, self.where(), problem))

    def where(self) -> str:
        parts = [self.root]
        for key in self.path:
            if key.__class__ is int:
                parts.append('[%d]' % key)
            elif _NAME.match(key):
                parts.append('.' + key)
            else:
                parts.append('[%s]' % json.dumps(key, ensure_ascii=False))
        return ''.join(parts)

    def read(self, value, depth: int):
        c = value.__class__
        if c is str:
            return self.text(value, 'a string')
        if c is bool or c is int:
            return value
        if c is float:
            if not math.isfinite(value):
                self.refuse('must be JSON data, got a non-finite number (%s)'
                            % ('nan' if value != value else 'inf' if value > 0 else '-inf'))
            return value
        if c is LuaTable:
            return self.table(value, depth + 1)
        if value is self.shapes.null:
            return None
        if self.record_of is not None:
            record = self.record_of(value)
            if record is not None:
                return _copy(record)
        self.refuse('must be JSON data, got %s' % type_name(value))

    def text(self, value: str, what: str) -> str:
        decoded = UTF8.take(value)
        if decoded is None:
            self.refuse('must be JSON data, got %s that is not valid UTF-8' % what)
        return decoded

    def table(self, table: LuaTable, depth: int):
        if depth > MAX_DEPTH:
            self.refuse('is nested more than %d levels deep' % MAX_DEPTH)
        if id(table) in self.open:
            self.refuse('must be JSON data, got a table that contains itself')
        self.open.add(id(table))
        try:
            return self.array(table, depth) if self.is_array(table) else self.object(table, depth)
        finally:
            self.open.discard(id(table))

    def is_array(self, table: LuaTable) -> bool:
        marked = table.meta is self.shapes.array_meta
        hash = table.hash
        if not hash:
            return marked or bool(table.arr)
        n = len(table.arr)
        if all(key.__class__ is int for key in hash) and \
                sorted(hash) == list(range(n + 1, n + 1 + len(hash))):
            return True
        if marked:
            self.refuse('is marked as a JSON array, so its keys must be 1..n')
        if table.arr or not all(key.__class__ is str for key in hash):
            self.refuse('must be JSON data, got a table whose keys are neither 1..n nor all strings')
        return False

    def array(self, table: LuaTable, depth: int) -> list:
        items = list(table.arr)
        n = len(items)
        items.extend(table.hash[key] for key in range(n + 1, n + 1 + len(table.hash)))
        result = []
        for index, item in enumerate(items, 1):
            self.path.append(index)
            result.append(self.read(item, depth))
            self.path.pop()
        return result

    def object(self, table: LuaTable, depth: int) -> dict:
        # Keys in sorted order, as encoded, so a refusal always names the
        # same offender whatever order the table was filled in.
        result = {}
        hash = table.hash
        for key in sorted(hash):
            self.path.append(self.text(key, 'a key'))
            result[self.path[-1]] = self.read(hash[key], depth)
            self.path.pop()
        return result
