"""The ``var`` global: state that outlives a section.

Between sections var is plain JSON data held by the run.  Each section VM
gets live Lua copies of it, so ``var.items[#var.items + 1] = x`` works like
any table; every top-level write is checked as JSON data at once, and the
final read-back at the end of the section checks the whole of it again,
nested edits included, before the next section sees it.
"""
from __future__ import annotations

from pylua.raw import ABSENT, Builtin, LuaTable, Userdata, type_name

from ..vocabulary import functions
from ..vocabulary.crossing import TEXT, Utf8
from ..vocabulary.error_values import ErrorValues
from ..vocabulary.failure import Failure, lua_failure
from ..vocabulary.jsondata import JsonShapes


class VarView:
    """One VM's ``var``: the live Lua values behind the userdata."""

    def __init__(self, data: dict, shapes: JsonShapes, values: ErrorValues):
        self.shapes = shapes
        self.live = LuaTable()
        for key, item in data.items():
            self.live.set_str(TEXT.give(key), shapes.to_lua(item))
        meta = LuaTable()
        meta.set_str('__name', 'var')
        # The live values are the index table itself, so they are reachable
        # (through the protected metatable) whenever pylua measures the heap.
        meta.set_str('__index', self.live)
        meta.set_str('__newindex', functions.function(values, 'var', self._assign))
        meta.set_str('__pairs', Builtin(self._pairs, 'pairs'))
        meta.set_str('__metatable', False)
        self.userdata = Userdata(None, meta)

    def _assign(self, _var, key=ABSENT, value=None, *_):
        if key.__class__ is not str:
            raise lua_failure('var keys must be strings, got %s' % type_name(key))
        if value is not None:
            root = 'var.' + _key_text(key)
            self.shapes.dumps(self.shapes.to_data(value, root), root, '')
        self.live.set_str(key, value)
        return ()

    def _pairs(self, _var, *_):
        return (_NEXT, self.live, None)

    def read_back(self) -> dict:
        """The var data this VM leaves for the next section.  A failure here
        belongs to the Engine's machinery, so the H1 gate never remaps it."""
        try:
            return {_key_text(key): self.shapes.to_data(item, 'var.' + _key_text(key))
                    for key, item in self.live.items()}
        except Failure as failure:
            failure.gate = False
            raise


_key_text = Utf8('var keys must be UTF-8 text').take


def _next(table=None, key=None, *_):
    found = table.next(key)
    return (None,) if found is None else found


_NEXT = Builtin(_next, 'next')
