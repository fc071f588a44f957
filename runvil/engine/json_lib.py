"""The ``json`` global: encode, decode, encode_lines, null and array."""
from __future__ import annotations

from pylua.raw import ABSENT, LuaTable, charge

from ..vocabulary import functions
from ..vocabulary.crossing import Text, Utf8
from ..vocabulary.error_values import ErrorValues
from ..vocabulary.failure import lua_failure
from ..vocabulary.jsondata import JsonShapes


# Decoded values take several times the bytes of their text; charging an
# estimate up front lets the memory ceiling stop a loop that keeps them.
DECODED_BYTES_PER_BYTE = 4
DECODED_SOURCE = Utf8('json.decode: text is not valid UTF-8')


class BuiltText(Text):
    """JSON text given to Lua, charged by its length as it is built."""

    def give(self, value):
        built = super().give(value)
        charge(len(built))
        return built


BUILT_TEXT = BuiltText()


def make(shapes: JsonShapes, values: ErrorValues) -> LuaTable:
    def encode(value=ABSENT, *_):
        if value is ABSENT:
            raise functions.bad_argument(1, 'json.encode', 'value', value)
        return (shapes.encode(value, 'value', 'json.encode: '),)

    def encode_lines(items=ABSENT, *_):
        """One compact JSON line per item of an array, each ending in a newline."""
        if items.__class__ is not LuaTable:
            raise functions.bad_argument(1, 'json.encode_lines', 'table', items)
        prefix = 'json.encode_lines: '
        data = shapes.to_data(items, 'value', prefix)
        if data.__class__ is not list:
            if data:
                raise lua_failure(prefix + 'value must be an array of items, got an object')
            data = []
        lines = [shapes.dumps(item, 'value[%d]' % n, prefix) + '\n' for n, item in enumerate(data, 1)]
        result = ''.join(lines)
        shapes.check_size(len(result.encode('utf-8')), 'value', prefix)
        return (result,)

    def decode(source=ABSENT, *_):
        if source.__class__ is not str:
            raise functions.bad_argument(1, 'json.decode', 'string', source)
        charge(DECODED_BYTES_PER_BYTE * len(source.encode('utf-8')))
        return (shapes.decode(source, 'json.decode: '),)

    def array(table=ABSENT, *_):
        """Mark a table (a new one when none is given) as a JSON array."""
        if table is ABSENT or table is None:
            table = LuaTable()
        elif table.__class__ is not LuaTable:
            raise functions.bad_argument(1, 'json.array', 'table', table)
        elif table.meta is not None and table.meta is not shapes.array_meta:
            raise lua_failure('json.array: the table already has a metatable')
        table.meta = shapes.array_meta
        return (table,)

    lib = LuaTable()
    lib.set_str('encode', functions.function(values, 'json.encode', encode, gives=(BUILT_TEXT,)))
    lib.set_str('encode_lines', functions.function(values, 'json.encode_lines', encode_lines, gives=(BUILT_TEXT,)))
    lib.set_str('decode', functions.function(values, 'json.decode', decode, takes=(DECODED_SOURCE,)))
    lib.set_str('array', functions.function(values, 'json.array', array))
    lib.set_str('null', shapes.null)
    return lib

