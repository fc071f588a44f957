"""Finding Lua source positions from Python frames.

Translated prototypes are Python functions whose code objects are registered
here with a table mapping generated-code lines to Lua lines, so positions
cost nothing until an error asks for one.
"""
from __future__ import annotations

import sys
import weakref

from .errors import LuaError

# code object -> (chunkname, lua line per generated line, function description)
_LUA_CODE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def register(code, chunkname: str, lines: list, what: str):
    _LUA_CODE[code] = (chunkname, lines, what)


def lua_info(code):
    return _LUA_CODE.get(code)


def lua_frames(frame=None):
    """Yield (frame, chunkname, line, what) for each Lua frame, innermost first."""
    f = frame or sys._getframe(1)
    while f is not None:
        info = _LUA_CODE.get(f.f_code)
        if info is not None:
            chunk, lines, what = info
            ln = f.f_lineno
            yield f, chunk, (lines[ln] if 0 <= ln < len(lines) else 0), what
        f = f.f_back


def where(level: int = 1) -> str:
    """``chunk:line: `` of the ``level``-th Lua frame on the stack, or ''."""
    for f, chunk, line, _ in lua_frames(sys._getframe(1)):
        level -= 1
        if level == 0:
            return '%s:%d: ' % (chunk, line)
    return ''


def rt_error(msg: str):
    """Raise an error from a library function, positioned at the Lua code that
    called it (``luaL_error``)."""
    raise LuaError(where(1) + msg)


_TRANSPARENT = set()


def transparent(module_file: str):
    """Frames of ``module_file`` (the VM's operation helpers) are looked through by vm_error."""
    _TRANSPARENT.add(module_file)


def vm_error(msg: str):
    """Raise an error of a Lua operation (``luaG_runerror``): positioned only when
    the operation was performed by Lua code, not by a library function."""
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename in _TRANSPARENT:
        f = f.f_back
    prefix = ''
    if f is not None:
        info = _LUA_CODE.get(f.f_code)
        if info is not None:
            chunk, lines, _ = info
            ln = f.f_lineno
            prefix = '%s:%d: ' % (chunk, lines[ln] if 0 <= ln < len(lines) else 0)
    raise LuaError(prefix + msg)
