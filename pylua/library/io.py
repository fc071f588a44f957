"""The io library (standalone profile), as Lua 5.4's liolib.c: files are
userdata of type ``FILE*`` over Python binary streams; the default input and
output, every read format, ``lines``, ``seek``, ``setvbuf``, ``tmpfile``,
``popen`` (a command through ``/bin/sh``), and Lua's results on failure
(nil, message, errno)."""
from __future__ import annotations

import errno
import os
import re
import subprocess
import tempfile
from io import BufferedReader, RawIOBase, UnsupportedOperation

from ..runtime.frames import rt_error
from ..runtime.numbers import str2number
from ..runtime.table import LuaTable
from ..runtime.values import Builtin, Userdata
from .args import ABSENT, arg_error, check_int, check_str, opt_int, opt_str, type_error

_MODE = re.compile(r'[rwa]\+?b*\Z')


class _DirectoryReader(RawIOBase):
    """A directory opened for reading as C's ``fopen`` opens it (Python's
    ``open`` refuses): the open succeeds, each read fails with EISDIR, so
    ``io.open(dir)`` is a file, as ``if io.open(path) then`` expects."""

    def __init__(self, fd):
        super().__init__()
        self.fd = fd

    def readable(self):
        return True

    def seekable(self):
        return True

    def readinto(self, buffer):
        data = os.read(self.fd, len(buffer))      # raises IsADirectoryError
        buffer[:len(data)] = data
        return len(data)

    def seek(self, offset, whence=os.SEEK_SET):
        return os.lseek(self.fd, offset, whence)

    def fileno(self):
        return self.fd

    def close(self):
        if not self.closed:
            os.close(self.fd)
        super().close()
_MAX_NUMERAL = 200          # L_MAXLENNUM
_MAX_LINES_FORMATS = 250


class LuaFile:
    """A Lua file handle's state: the stream, how to close it, and its C
    buffering mode (``setvbuf``'s ``'no'``, ``'line'`` or ``'full'``): the
    stream buffers fully, and a write flushes it as C's stdio would."""
    __slots__ = ('stream', 'closer', 'closed', 'vbuf')

    def __init__(self, stream, closer, vbuf='full'):
        self.stream = stream
        self.closer = closer        # None for the standard files: they never close
        self.closed = False
        self.vbuf = vbuf


def _isatty(stream):
    try:
        return stream.isatty()
    except (AttributeError, OSError, ValueError):
        return False


def failure(err, filename=None):
    """Lua's (nil, message, errno) for an OSError."""
    if err.__class__ is UnsupportedOperation:
        # reading a file opened only to write, or the other way: C's stdio fails with EBADF
        err = OSError(errno.EBADF, os.strerror(errno.EBADF))
    code = err.errno or 0
    text = os.strerror(code) if code else str(err)
    return (None, '%s: %s' % (filename, text) if filename is not None else text, code)


def child_fd(stream):
    """The descriptor a child process writes to for one of the program's
    standard streams: None when the stream has none (an embedding's buffer)."""
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def exec_result(returncode):
    """luaL_execresult for a finished ``/bin/sh``: true or fail, then how it
    ended and its status."""
    if returncode < 0:
        return (None, 'signal', -returncode)
    return (True if returncode == 0 else None, 'exit', returncode)


class _Peeking:
    """Character access with one character of look-ahead (C's getc/ungetc)."""

    def __init__(self, stream):
        self.stream = stream

    def peek(self):
        peek = getattr(self.stream, 'peek', None)
        if peek is not None:
            return peek(1)[:1]
        pos = self.stream.tell()
        c = self.stream.read(1)
        self.stream.seek(pos)
        return c

    def take(self):
        return self.stream.read(1)


# read_number's steps over bytes a buffered stream holds: white space and a
# sign, a hexadecimal or decimal mantissa, and an exponent, which it takes
# only after a digit.
_NUMERAL_LEAD = re.compile(rb'[ \t\n\v\f\r]*([-+]?)')
_HEX_MANTISSA = re.compile(rb'0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?')
_DEC_MANTISSA = re.compile(rb'([0-9]*)(?:\.([0-9]*))?')
_HEX_EXPONENT = re.compile(rb'[pP][-+]?[0-9]*')
_DEC_EXPONENT = re.compile(rb'[eE][-+]?[0-9]*')


def _read_number(stream):
    """liolib's read_number: the longest prefix that can be a numeral, then
    its value.  Scanned first in the bytes a buffered stream holds (a
    character at a time from the stream cost 10 us): when the numeral ends
    before them, only it is taken from the stream."""
    peek = getattr(stream, 'peek', None)
    if peek is not None:
        held = peek(_MAX_NUMERAL + 1)
        lead = _NUMERAL_LEAD.match(held)
        start = lead.start(1)
        mantissa = _HEX_MANTISSA.match(held, lead.end()) or _DEC_MANTISSA.match(held, lead.end())
        end = mantissa.end()
        if len(mantissa.group(1)) + len(mantissa.group(2) or b'') > 0:
            exponent = (_HEX_EXPONENT if mantissa.re is _HEX_MANTISSA else _DEC_EXPONENT).match(held, end)
            if exponent is not None:
                end = exponent.end()
        if end < len(held) and end - start < _MAX_NUMERAL:
            stream.read(end)
            return str2number(held[start:end].decode('latin-1'))
    return _scan_number(_Peeking(stream))


def _scan_number(src):
    buf = []

    def accept(chars):
        c = src.peek()
        if c and c in chars and len(buf) < _MAX_NUMERAL:
            buf.append(src.take())
            return True
        return False

    def digits(hexa):
        count = 0
        while accept(b'0123456789abcdefABCDEF' if hexa else b'0123456789'):
            count += 1
        return count

    while src.peek() and src.peek() in b' \t\n\v\f\r':
        src.take()
    accept(b'-+')
    count = 0
    hexa = False
    if accept(b'0'):
        if accept(b'xX'):
            hexa = True
        else:
            count = 1
    count += digits(hexa)
    if accept(b'.'):
        count += digits(hexa)
    if count > 0 and accept(b'pP' if hexa else b'eE'):
        accept(b'-+')
        digits(False)
    text = b''.join(buf).decode('latin-1')
    return str2number(text) if len(buf) < _MAX_NUMERAL else None


def _read_line(stream, keep_newline):
    line = stream.readline()
    if not line:
        return None
    if not keep_newline and line.endswith(b'\n'):
        line = line[:-1]
    return line.decode('latin-1')


def _read_one(stream, fmt, argno):
    if fmt.__class__ is int or fmt.__class__ is float:
        n = check_int(fmt, argno, 'read')
        if n == 0:
            return '' if _Peeking(stream).peek() else None
        data = stream.read(n)
        return data.decode('latin-1') if data else None
    f = check_str(fmt, argno, 'read')
    f = f[1:] if f.startswith('*') else f      # Lua 5.3's '*l' still works
    kind = f[:1]
    if kind == 'n':
        return _read_number(stream)
    if kind == 'l':
        return _read_line(stream, False)
    if kind == 'L':
        return _read_line(stream, True)
    if kind == 'a':
        return stream.read().decode('latin-1')
    arg_error(argno, 'read', 'invalid format')


def read_formats(stream, formats, first_argno):
    """g_read: values up to the first that fails (that one nil), or Lua's failure triple."""
    try:
        if not formats:
            return (_read_line(stream, False),)
        out = []
        for i, fmt in enumerate(formats):
            v = _read_one(stream, fmt, first_argno + i)
            out.append(v)
            if v is None:
                break
        return tuple(out)
    except OSError as e:
        return failure(e)


def write_values(stream, values, fname, first_argno=1):
    """Write strings and numbers as io.write does; the failure triple or None.
    A value of another type is an error once the values before it are
    written, as g_write writes each in turn."""
    pieces = []
    bad = None
    for i, v in enumerate(values, first_argno):
        c = v.__class__
        if c is str:
            pieces.append(v.encode('latin-1'))
        elif c is int:
            pieces.append(str(v).encode('latin-1'))
        elif c is float:
            pieces.append(('%.14g' % v).encode('latin-1'))     # LUAI_NUMFFORMAT
        else:
            bad = i, v
            break
    try:
        stream.write(b''.join(pieces))
    except OSError as e:
        return failure(e)
    if bad is not None:
        type_error(bad[0], fname, 'string', bad[1])
    return None


def install(vm, stdout, stderr, stdin):
    """Add ``io`` to ``vm.globals``; returns it.  ``stdout``/``stderr``/``stdin`` are binary streams."""
    meta = LuaTable()
    methods = LuaTable()

    def new_file(stream, closer, vbuf='full'):
        return Userdata(LuaFile(stream, closer, vbuf), meta)

    def to_file(v, fname):
        if v.__class__ is not Userdata or v.meta is not meta:
            type_error(1, fname, 'FILE*', v)
        return v.payload

    def open_file(v, fname):
        f = to_file(v, fname)
        if f.closed:
            rt_error('attempt to use a closed file')
        return f

    # As C's stdio starts them: stdout by lines on a terminal, stderr unbuffered.
    std_in = new_file(stdin, None)
    std_out = new_file(stdout, None, 'line' if _isatty(stdout) else 'full')
    std_err = new_file(stderr, None, 'no')
    default = {'input': std_in, 'output': std_out}

    def close_file(handle):
        f = handle.payload
        if f.closer is None:
            return (None, 'cannot close standard file')
        f.closed = True
        try:
            r = f.closer()
        except OSError as e:
            return failure(e)
        return r or (True,)             # a pipe's closer answers how its command ended

    def default_file(which):
        handle = default[which]
        if handle.payload.closed:
            rt_error('default %s file is closed' % which)
        return handle

    # ------------------------------------------------------------ methods
    def f_close(h=ABSENT, *_):
        open_file(h, 'close')
        return close_file(h)

    def f_flush(h=ABSENT, *_):
        f = open_file(h, 'flush')
        try:
            f.stream.flush()
        except OSError as e:
            return failure(e)
        return (True,)                  # luaL_fileresult's success

    def f_read(h=ABSENT, *formats):
        return read_formats(open_file(h, 'read').stream, formats, 2)

    def write_to(h, values, first_argno):
        f = h.payload
        r = write_values(f.stream, values, 'write', first_argno)
        vbuf = f.vbuf
        if vbuf != 'full' and (vbuf == 'no' or any(v.__class__ is str and '\n' in v for v in values)):
            try:
                f.stream.flush()
            except OSError as e:
                r = r or failure(e)
        return r or (h,)

    def f_write(h=ABSENT, *values):
        open_file(h, 'write')
        return write_to(h, values, 2)

    def f_seek(h=ABSENT, whence=ABSENT, offset=ABSENT, *_):
        f = open_file(h, 'seek')
        w = opt_str(whence, 2, 'seek', 'cur')
        modes = {'set': os.SEEK_SET, 'cur': os.SEEK_CUR, 'end': os.SEEK_END}
        if w not in modes:
            arg_error(2, 'seek', "invalid option '%s'" % w)
        off = opt_int(offset, 3, 'seek', 0)
        try:
            return (f.stream.seek(off, modes[w]),)
        except (OSError, ValueError) as e:
            return failure(e if isinstance(e, OSError) else OSError(errno.EINVAL, 'Invalid argument'))

    def f_setvbuf(h=ABSENT, mode=ABSENT, size=ABSENT, *_):
        f = open_file(h, 'setvbuf')
        m = check_str(mode, 2, 'setvbuf')
        if m not in ('no', 'full', 'line'):
            arg_error(2, 'setvbuf', "invalid option '%s'" % m)
        opt_int(size, 3, 'setvbuf', 0)
        f.vbuf = m
        return (True,)

    def lines_iterator(handle, formats, close_at_end):
        if len(formats) > _MAX_LINES_FORMATS:
            arg_error(_MAX_LINES_FORMATS + 2, 'lines', 'too many arguments')

        def step(*_):
            f = handle.payload
            if f.closed:
                rt_error('file is already closed')
            r = read_formats(f.stream, formats, 2)
            if r[0] is None:
                if len(r) > 1 and r[1] is not None:
                    rt_error(r[1])
                if close_at_end:
                    close_file(handle)
                return ()               # io_readline returns no values at the end
            return r
        return Builtin(step, 'for iterator')

    def f_lines(h=ABSENT, *formats):
        open_file(h, 'lines')
        return (lines_iterator(h, formats, False),)

    def f_gc(h=ABSENT, *_):
        f = to_file(h, '__gc')
        if not f.closed and f.closer is not None:
            close_file(h)
        return ()

    def f_tostring(h=ABSENT, *_):
        f = to_file(h, '__tostring')
        return ('file (closed)' if f.closed else 'file (0x%08x)' % id(h),)

    # No loaded module holds the files' methods: a call that does not name
    # one (pcall(f.read, f, 'x')) reports it as '?', as luaL_argerror does.
    for name, fn in (('close', f_close), ('flush', f_flush), ('lines', f_lines), ('read', f_read),
                     ('seek', f_seek), ('setvbuf', f_setvbuf), ('write', f_write)):
        methods.set_str(name, Builtin(fn, '?'))
    meta.set_str('__index', methods)
    meta.set_str('__name', 'FILE*')
    meta.set_str('__gc', Builtin(f_gc, '?'))
    meta.set_str('__close', Builtin(f_gc, '?'))
    meta.set_str('__tostring', Builtin(f_tostring, '?'))

    # ------------------------------------------------------------ io.*
    def open_stream(filename, mode):
        path = filename.encode('latin-1')
        try:
            stream = open(path, mode.replace('b', '') + 'b')
        except IsADirectoryError:
            if mode.replace('b', '') != 'r':
                raise
            stream = BufferedReader(_DirectoryReader(os.open(path, os.O_RDONLY)))
        return new_file(stream, stream.close)

    def io_open(filename=ABSENT, mode=ABSENT, *_):
        name = check_str(filename, 1, 'open')
        m = opt_str(mode, 2, 'open', 'r')
        if not _MODE.match(m):
            arg_error(2, 'open', 'invalid mode')
        try:
            return (open_stream(name, m),)
        except OSError as e:
            return failure(e, name)

    def set_default(which, v, mode):
        if v is not None and v is not ABSENT:
            if v.__class__ is str or v.__class__ in (int, float):
                name = check_str(v, 1, which)
                try:
                    default[which] = open_stream(name, mode)
                except OSError as e:
                    rt_error("cannot open file '%s' (%s)" % (name, os.strerror(e.errno or 0)))
            else:
                to_file(v, which)
                default[which] = v
        return (default[which],)

    def io_close(h=ABSENT, *_):
        if h is ABSENT:
            h = default['output']
        return f_close(h)

    def io_lines(filename=None, *formats):
        if filename is None or filename is ABSENT:
            handle = default_file('input')
            return (lines_iterator(handle, formats, False),)
        name = check_str(filename, 1, 'lines')
        try:
            handle = open_stream(name, 'r')
        except OSError as e:
            rt_error("cannot open file '%s' (%s)" % (name, os.strerror(e.errno or 0)))
        return (lines_iterator(handle, formats, True), None, None, handle)

    def io_type(v=ABSENT, *_):
        if v is ABSENT:
            arg_error(1, 'type', 'value expected')
        if v.__class__ is Userdata and v.meta is meta:
            return ('closed file' if v.payload.closed else 'file',)
        return (None,)

    def io_tmpfile(*_):
        try:
            stream = tempfile.TemporaryFile('w+b')
        except OSError as e:
            return failure(e)
        return (new_file(stream, stream.close),)

    def io_popen(prog=ABSENT, mode=ABSENT, *_):
        cmd = check_str(prog, 1, 'popen')
        m = opt_str(mode, 2, 'popen', 'r')
        if m not in ('r', 'w'):
            arg_error(2, 'popen', 'invalid mode')
        # The command's other streams are the program's (the process's own
        # when an embedding's stream has no descriptor: a pipe read while
        # another fills could block).
        try:
            proc = subprocess.Popen(['/bin/sh', '-c', cmd.encode('latin-1')],
                                    stdin=subprocess.PIPE if m == 'w' else None,
                                    stdout=subprocess.PIPE if m == 'r' else child_fd(stdout),
                                    stderr=child_fd(stderr))
        except OSError as e:
            return failure(e, cmd)
        pipe = proc.stdout if m == 'r' else proc.stdin

        def pclose():
            pipe.close()
            return exec_result(proc.wait())
        return (new_file(pipe, pclose),)

    io = LuaTable()
    for name, fn in (
            ('open', io_open), ('close', io_close), ('lines', io_lines), ('type', io_type),
            ('tmpfile', io_tmpfile), ('popen', io_popen),
            ('input', lambda v=ABSENT, *_: set_default('input', v, 'r')),
            ('output', lambda v=ABSENT, *_: set_default('output', v, 'w')),
            # io.read's formats are its arguments from #1 on (file:read's from #2)
            ('read', lambda *formats: read_formats(default_file('input').payload.stream, formats, 1)),
            ('write', lambda *values: write_to(default_file('output'), values, 1)),
            ('flush', lambda *_: f_flush(default_file('output')))):
        io.set_str(name, Builtin(fn, 'io.' + name))
    io.set_str('stdin', std_in)
    io.set_str('stdout', std_out)
    io.set_str('stderr', std_err)
    vm.globals.set_str('io', io)
    return io
