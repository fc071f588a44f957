"""The standalone profile: what the ``pylua`` command adds to the sandbox
(console I/O, clock, environment, exit, ``require`` of Lua files)."""
from __future__ import annotations

import os
import sys
import time

from ..runtime import ops
from ..runtime.frames import rt_error
from ..runtime.numbers import fmt_float
from ..runtime.table import LuaTable
from ..runtime.values import Builtin, GenBuiltin, Userdata
from . import loadfile, package
from .args import ABSENT, arg_error, check_str, opt_int, opt_str, type_error


class ExitRequest(BaseException):
    """Raised by os.exit; not a Lua error, so pcall does not catch it."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


def _write(vm, args, fname):
    out = vm.stdout
    for i, v in enumerate(args, 1):
        c = v.__class__
        if c is str:
            out.write(v.encode('latin-1'))
        elif c is int:
            out.write(str(v).encode('latin-1'))
        elif c is float:
            # io.write formats floats with LUAI_NUMFFORMAT alone: 1.0 is written '1'.
            text = fmt_float(v)
            out.write((text[:-2] if text.endswith('.0') else text).encode('latin-1'))
        else:
            type_error(i, fname, 'string', v)


def _read_line(keep_newline):
    line = sys.stdin.buffer.readline()
    if not line:
        return None
    s = line.decode('latin-1')
    return s if keep_newline or not s.endswith('\n') else s[:-1]


def _read(fmt):
    if fmt.__class__ is int:
        data = sys.stdin.buffer.read(fmt)
        return data.decode('latin-1') if data or fmt == 0 else None
    f = fmt.lstrip('*')[:1]
    if f == 'l':
        return _read_line(False)
    if f == 'L':
        return _read_line(True)
    if f == 'a':
        return sys.stdin.buffer.read().decode('latin-1')
    if f == 'n':
        from ..runtime.numbers import str2number
        line = _read_line(False)
        return None if line is None else str2number(line)
    arg_error(1, 'read', 'invalid format')


def _debug_library():
    """The two debug functions ordinary scripts use: traceback and getinfo."""
    from ..runtime.frames import lua_frames

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
    debug.set_str('traceback', Builtin(traceback, 'traceback'))
    debug.set_str('getinfo', Builtin(getinfo, 'getinfo'))
    _qualify(debug, 'debug.')
    return debug


def _qualify(lib, prefix):
    for key, value in lib.hash.items():
        if value.__class__ is Builtin or value.__class__ is GenBuiltin:
            value.name = prefix + key


def install(vm):
    g = vm.globals
    io = LuaTable()
    file_meta = LuaTable()
    stdout = Userdata(sys.stdout, file_meta)
    stderr = Userdata(sys.stderr, file_meta)

    def io_write(*args):
        _write(vm, args, 'write')
        return (stdout,)

    def file_write(f=ABSENT, *args):
        if f is stderr:
            sys.stderr.flush()
            for i, v in enumerate(args, 1):
                if v.__class__ is not str and v.__class__ not in (int, float):
                    type_error(i, 'write', 'string', v)
                sys.stderr.buffer.write((v if v.__class__ is str else fmt_float(float(v))
                                         if v.__class__ is float else str(v)).encode('latin-1'))
            sys.stderr.flush()
        else:
            _write(vm, args, 'write')
        return (f,)

    def io_type(f=ABSENT, *_):
        if f.__class__ is Userdata and f.meta is file_meta:
            return ('file',)
        return (None,)

    def io_read(*fmts):
        return tuple(_read(f) for f in (fmts or ('l',)))

    def io_lines(*_):
        return (Builtin(lambda *a: (_read_line(False),), 'lines'),)

    methods = LuaTable()
    methods.set_str('write', Builtin(file_write, 'write'))
    methods.set_str('flush', Builtin(lambda *a: (a[0] if a else None,), 'flush'))
    file_meta.set_str('__index', methods)
    file_meta.set_str('__name', 'FILE*')
    io.set_str('write', Builtin(io_write, 'write'))
    io.set_str('read', Builtin(io_read, 'read'))
    io.set_str('lines', Builtin(io_lines, 'lines'))
    io.set_str('stdout', stdout)
    io.set_str('stderr', stderr)
    io.set_str('type', Builtin(io_type, 'type'))
    g.set_str('io', io)
    _qualify(io, 'io.')

    osl = LuaTable()

    def os_time(t=None, *_):
        if t is None or t is ABSENT:
            return (int(time.time()),)
        if t.__class__ is not LuaTable:
            type_error(1, 'time', 'table', t)

        def field(name, default=None):
            v = t.get(name)
            if v is None:
                if default is None:
                    rt_error("field '%s' missing in date table" % name)
                return default
            return v
        parts = (field('year'), field('month'), field('day'), field('hour', 12),
                 field('min', 0), field('sec', 0), 0, 0, -1)
        return (int(time.mktime(tuple(int(p) for p in parts))),)

    osl.set_str('time', Builtin(os_time, 'time'))
    osl.set_str('clock', Builtin(lambda *a: (time.process_time(),), 'clock'))

    def os_date(fmt='%c', *_):
        fmt = opt_str(fmt, 1, 'date', '%c')
        utc = fmt.startswith('!')
        t = time.gmtime() if utc else time.localtime()
        return (time.strftime(fmt.lstrip('!'), t),)

    def os_getenv(name=ABSENT, *_):
        v = os.environ.get(check_str(name, 1, 'getenv'))
        return (None if v is None else v.encode('utf-8', 'surrogateescape').decode('latin-1'),)

    def os_exit(code=None, *_):
        raise ExitRequest(0 if code is None or code is True else 1 if code is False
                          else opt_int(code, 1, 'exit', 0))

    osl.set_str('date', Builtin(os_date, 'date'))
    osl.set_str('getenv', Builtin(os_getenv, 'getenv'))
    osl.set_str('exit', Builtin(os_exit, 'exit'))
    g.set_str('os', osl)
    _qualify(osl, 'os.')

    g.set_str('debug', _debug_library())
    loadfile.install(vm)
    package.install(vm, lambda filename: loadfile.load_file(vm, filename))
