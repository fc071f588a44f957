"""The debug library (standalone profile)."""
from __future__ import annotations

from ..runtime.frames import lua_frames
from ..runtime.table import LuaTable
from ..runtime.values import Builtin
from .args import ABSENT, type_error


def install(vm):

    def traceback(msg=None, *_):
        if msg is not None and msg is not ABSENT and msg.__class__ is not str:
            return (msg,)
        lines = ['stack traceback:']
        for _, chunk, line, what in lua_frames():
            lines.append('\t%s:%d: in %s' % (chunk, line, what))
        lines.append('\t[C]: in ?')
        text = '\n'.join(lines)
        return ((msg + '\n' + text) if msg.__class__ is str else text,)

    def getinfo(level=ABSENT, what=ABSENT, *_):
        if level.__class__ is not int:
            type_error(1, 'getinfo', 'number', level)
        for i, (_, chunk, line, desc) in enumerate(lua_frames(), 1):
            if i == level:
                info = LuaTable()
                info.set_str('currentline', line)
                info.set_str('short_src', chunk)
                info.set_str('source', '@' + chunk)
                info.set_str('what', 'main' if desc == 'main chunk' else 'Lua')
                return (info,)
        return (None,)

    debug = LuaTable()
    debug.set_str('traceback', Builtin(traceback, 'debug.traceback'))
    debug.set_str('getinfo', Builtin(getinfo, 'debug.getinfo'))
    vm.globals.set_str('debug', debug)
    return debug
