"""The os library (standalone profile), as Lua 5.4's loslib.c: dates and
times (``date`` with every C99 conversion, ``*t`` and ``!*t``, ``time`` of a
date table), ``clock``, ``difftime``, ``getenv``, files (``remove``,
``rename``, ``tmpname``), ``setlocale`` (the C locale only), ``execute``
(a command through ``/bin/sh``, as C's ``system``) and ``exit``."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

from ..runtime import ops
from ..runtime.errors import ExitRequest
from ..runtime.frames import rt_error
from ..runtime.numbers import float_to_int, str2number
from ..runtime.state import CHECK_INTERVAL
from ..runtime.table import LuaTable
from ..runtime.values import Builtin, GenBuiltin
from .args import ABSENT, arg_error, check_int, check_str, check_table, opt_str
from .io import child_fd, exec_result, failure

WAIT_SLICE = 0.01                  # seconds between a command's checks for cancel

# LUA_STRFTIMEOPTIONS for C99: one-character conversions, then two-character ones.
_CONVERSIONS_1 = frozenset('aAbBcCdDeFgGhHIjmMnprRStTuUVwWxXyYzZ%')
_CONVERSIONS_2 = frozenset(('Ec', 'EC', 'Ex', 'EX', 'Ey', 'EY', 'Od', 'Oe', 'OH', 'OI', 'Om',
                            'OM', 'OS', 'Ou', 'OU', 'OV', 'Ow', 'OW', 'Oy'))
_INT_MAX = 2 ** 31 - 1
_INT_MIN = -2 ** 31
_CATEGORIES = ('all', 'collate', 'ctype', 'monetary', 'numeric', 'time')


def _format_date(fmt, tm):
    """strftime of each conversion in turn, refusing those C99 does not define."""
    out = []
    i = 0
    n = len(fmt)
    while i < n:
        c = fmt[i]
        if c != '%':
            out.append(c)
            i += 1
            continue
        conv = fmt[i + 1:]
        if conv[:1] in _CONVERSIONS_1:
            option = conv[:1]
        elif conv[:2] in _CONVERSIONS_2:
            option = conv[:2]
        else:
            arg_error(1, 'date', "invalid conversion specifier '%%%s'" % conv)
        out.append(time.strftime('%' + option, tm))
        i += 1 + len(option)
    return ''.join(out)


def _date_table(tm):
    t = LuaTable()
    for key, value in (('year', tm.tm_year), ('month', tm.tm_mon), ('day', tm.tm_mday),
                       ('hour', tm.tm_hour), ('min', tm.tm_min), ('sec', tm.tm_sec),
                       ('yday', tm.tm_yday), ('wday', (tm.tm_wday + 1) % 7 + 1)):
        t.set_str(key, value)
    if tm.tm_isdst >= 0:
        t.set_str('isdst', tm.tm_isdst > 0)
    return t


def os_date(fmt=ABSENT, when=ABSENT, *_):
    s = opt_str(fmt, 1, 'date', '%c')
    t = int(time.time()) if when is ABSENT or when is None else check_int(when, 2, 'date')
    utc = s.startswith('!')
    if utc:
        s = s[1:]
    try:
        tm = time.gmtime(t) if utc else time.localtime(t)
    except (OverflowError, OSError, ValueError):
        rt_error('date result cannot be represented in this installation')
    if s == '*t':                     # exactly: anything else is a strftime format
        return (_date_table(tm),)
    return (_format_date(s, tm),)


def _date_field(t, key, default, delta):
    """loslib's getfield: an integer field, its default when absent."""
    v = yield from ops.from_c(ops.index(t, key))        # lua_getfield from C: no yields
    n = v if v.__class__ is int else None
    if v.__class__ is float:
        n = float_to_int(v)
    elif v.__class__ is str:
        x = str2number(v)
        n = x if x.__class__ is int else float_to_int(x) if x.__class__ is float else None
    if n is None:
        if v is not None:
            rt_error("field '%s' is not an integer" % key)
        if default is None:
            rt_error("field '%s' missing in date table" % key)
        return default
    if not (n - delta <= _INT_MAX if n >= 0 else _INT_MIN + delta <= n):
        rt_error("field '%s' is out-of-bound" % key)
    return n


def os_time(t=None, *_):
    if t is None or t is ABSENT:
        return (int(time.time()),)
    check_table(t, 1, 'time')
    year = yield from _date_field(t, 'year', None, 1900)
    month = yield from _date_field(t, 'month', None, 1)
    day = yield from _date_field(t, 'day', None, 0)
    hour = yield from _date_field(t, 'hour', 12, 0)
    minute = yield from _date_field(t, 'min', 0, 0)
    sec = yield from _date_field(t, 'sec', 0, 0)
    isdst = yield from ops.from_c(ops.index(t, 'isdst'))
    dst = -1 if isdst is None else 0 if isdst is False else 1
    try:
        result = int(time.mktime((year, month, day, hour, minute, sec, 0, 0, dst)))
        normalized = time.localtime(result)
    except (OverflowError, OSError, ValueError):
        rt_error('time result cannot be represented in this installation')
    # As Lua: the table's fields are updated with the normalized date.
    fields = _date_table(normalized)
    for key in ('year', 'month', 'day', 'hour', 'min', 'sec', 'yday', 'wday', 'isdst'):
        t.set_str(key, fields.get(key))
    return (result,)


def os_difftime(t1=ABSENT, t2=ABSENT, *_):
    return (float(check_int(t1, 1, 'difftime') - check_int(t2, 2, 'difftime')),)


def os_getenv(name=ABSENT, *_):
    v = os.environ.get(check_str(name, 1, 'getenv'))
    return (None if v is None else v.encode('utf-8', 'surrogateescape').decode('latin-1'),)


def os_remove(filename=ABSENT, *_):
    name = check_str(filename, 1, 'remove')
    path = name.encode('latin-1')
    try:
        if os.path.isdir(path):
            os.rmdir(path)
        else:
            os.remove(path)
    except OSError as e:
        return failure(e, name)
    return (True,)


def os_rename(old=ABSENT, new=ABSENT, *_):
    a = check_str(old, 1, 'rename')
    b = check_str(new, 2, 'rename')
    try:
        os.rename(a.encode('latin-1'), b.encode('latin-1'))
    except OSError as e:
        return failure(e)
    return (True,)


def os_tmpname(*_):
    try:
        fd, name = tempfile.mkstemp(prefix='lua_')
    except OSError:
        rt_error('unable to generate a unique filename')
    os.close(fd)
    return (name.encode('utf-8', 'surrogateescape').decode('latin-1'),)


def os_setlocale(locale=None, category=ABSENT, *_):
    name = opt_str(locale, 1, 'setlocale', None)
    cat = opt_str(category, 2, 'setlocale', 'all')
    if cat not in _CATEGORIES:
        arg_error(2, 'setlocale', "invalid option '%s'" % cat)
    # pylua has the C locale only: asking for it (or querying) succeeds.
    return ('C' if name in (None, '', 'C', 'POSIX') else None,)


def os_execute(vm, command=None, *_):
    cmd = opt_str(command, 1, 'execute', None)
    if cmd is None:
        return (True,)                      # system(NULL): a shell is there
    # Nothing is flushed first: like C's system(), output still in the
    # streams' buffers (a pipe's, not a terminal's) comes after the command's.
    out = [vm.stdout or sys.stdout.buffer, vm.stderr or sys.stderr.buffer]
    # The command writes where the program's standard streams go; a stream
    # with no file descriptor (an embedding's buffer) gets its output after.
    fds = [child_fd(stream) for stream in out]
    try:
        proc = subprocess.Popen(['/bin/sh', '-c', cmd.encode('latin-1')],
                                stdout=subprocess.PIPE if fds[0] is None else fds[0],
                                stderr=subprocess.PIPE if fds[1] is None else fds[1])
    except OSError as e:
        return failure(e)
    try:
        while True:
            # The wait is work the runtime's cancel and hooks must reach:
            # each slice counts as a check interval, as a long compile's does.
            try:
                results = proc.communicate(timeout=WAIT_SLICE)
                break
            except subprocess.TimeoutExpired:
                vm.interrupt_work(CHECK_INTERVAL)
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    for stream, data in zip(out, results):
        if data:
            stream.write(data)
    return exec_result(proc.returncode)


def os_exit(code=None, close=None, *_):
    if code is None or code is ABSENT or code is True:
        status = 0
    elif code is False:
        status = 1
    else:
        status = check_int(code, 1, 'exit')
    raise ExitRequest(status, close is not None and close is not False and close is not ABSENT)


def install(vm):
    lib = LuaTable()
    for name, fn in (('date', os_date), ('difftime', os_difftime), ('getenv', os_getenv),
                     ('remove', os_remove), ('rename', os_rename), ('tmpname', os_tmpname),
                     ('setlocale', os_setlocale), ('exit', os_exit)):
        lib.set_str(name, Builtin(fn, 'os.' + name))
    lib.set_str('execute', Builtin(lambda *args: os_execute(vm, *args), 'os.execute'))
    lib.set_str('time', GenBuiltin(os_time, 'os.time'))
    lib.set_str('clock', Builtin(lambda *_: (time.process_time(),), 'os.clock'))
    vm.globals.set_str('os', lib)
    return lib
