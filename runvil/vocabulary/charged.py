"""Values the Engine builds for Lua, charged to the section VM's memory
ceiling as they are built.

pylua charges what Lua code allocates; a value an Engine function makes
out of Harness answers or stored data (a model reply, a tool result, a
store file or listing, an operator's answer, a record view's field, a task's or a
call's result, the arguments a local tool handler receives) is charged
here, before Lua can keep it, so a loop that keeps such values meets the
ceiling just as one building them in Lua does.  Sizes are estimates in the
terms pylua measures the live heap in (``pylua/runtime/memory.py``: a
string is 49 bytes plus its length, a table 200 plus 8 per array slot and
40 per hash slot).  A refusal raises pylua's memory error, which every
Engine function turns into an error value of kind lua (``functions``).

Text is charged as it is given to Lua (``crossing.CHARGED_TEXT`` and
``CHARGED_TEXTS``), JSON data here.  Only Engine functions charge: they run while Lua runs, which is when
pylua can charge.  What a section VM is built with (``var``'s copies,
``args``) is reachable from its roots and counted whenever the live heap
is measured.
"""
from __future__ import annotations

from pylua.raw import charge

STRING_BYTES = 49
TABLE_BYTES = 200
ARRAY_SLOT_BYTES = 8
HASH_SLOT_BYTES = 40


def data(shapes, value):
    """JSON data as its Lua value (``JsonShapes.to_lua``), charged."""
    charge(lua_size(value))
    return shapes.to_lua(value)


def lua_size(value) -> int:
    """About how many bytes the Lua form of JSON data ``value`` takes."""
    total, stack = 0, [value]
    while stack:
        item = stack.pop()
        c = item.__class__
        if c is str:
            total += STRING_BYTES + len(item)
        elif c is dict:
            total += TABLE_BYTES + HASH_SLOT_BYTES * len(item)
            stack.extend(item.keys())
            stack.extend(item.values())
        elif c is list:
            total += TABLE_BYTES + ARRAY_SLOT_BYTES * len(item)
            stack.extend(item)
    return total
