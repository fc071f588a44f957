"""The ``pylua`` command: ``pylua FILE [args]``, ``-e STAT``, ``-l FILE``, a REPL.

It behaves like ``lua5.4``: the chunk name is FILE as given, an uncaught
error prints ``pylua: MESSAGE`` and a traceback to stderr and exits 1.
"""
from __future__ import annotations

import sys

PROG = 'pylua'


def _runtime(stdout):
    from .api import LuaRuntime
    return LuaRuntime(profile='standalone', stdout=stdout)


def _error_text(err, rt=None):
    from .runtime.errors import LuaError, LuaSyntaxError
    if isinstance(err, LuaError):
        v = err.value
        if v.__class__ is str:
            msg = v
        elif v.__class__ in (int, float):
            from .runtime.numbers import tostr
            msg = tostr(v)
        else:
            msg = _error_object_text(v, rt)
        if isinstance(err, LuaSyntaxError):    # lua.c reports load errors without a traceback
            return ('%s: %s\n' % (PROG, msg)).encode('latin-1', 'replace')
        tb = err.traceback or 'stack traceback:\n\t[C]: in ?'
        return ('%s: %s\n%s\n' % (PROG, msg, tb)).encode('latin-1', 'replace')
    return ('%s: %s\n' % (PROG, err)).encode('utf-8', 'replace')


def _error_object_text(v, rt):
    """lua.c's message for a non-string error object: its __tostring, else its type."""
    from .runtime import ops
    from .runtime.errors import LuaError
    from .runtime.values import type_name
    if rt is not None and ops.metamethod(v, '__tostring') is not None:
        try:
            text = rt.call_raw(rt.vm.globals.get('tostring'), (v,))[0]
            if text.__class__ is str:
                return text
        except LuaError:
            pass
    return '(error object is a %s value)' % type_name(v)


def _run_chunk(rt, source, chunkname, args, stderr):
    from .library.standalone import ExitRequest
    from .runtime.errors import LuaError
    try:
        fn = rt.load(source, chunkname)
        rt.call_raw(fn, tuple(rt.to_lua(a) for a in args))
    except ExitRequest as e:
        return e.code
    except LuaError as e:
        stderr.write(_error_text(e, rt))
        stderr.flush()
        return 1
    return 0


def run_file(path, args, stdout, stderr):
    """Run a Lua file as ``pylua FILE args`` would, writing to binary streams; returns the exit code."""
    rt = _runtime(stdout)
    _set_arg(rt, path, args)
    try:
        with open(path, 'rb') as fh:
            source = _skip_prefix(fh.read())
    except OSError:
        stderr.write(('%s: cannot open %s\n' % (PROG, path)).encode())
        return 1
    code = _run_chunk(rt, source, '@' + path, args, stderr)
    stdout.flush()
    return code


def _skip_prefix(source):
    """Drop a UTF-8 BOM and a first line starting with '#', as lua.c does for files
    (the newline stays so line numbers do not move)."""
    if source.startswith(b'\xef\xbb\xbf'):
        source = source[3:]
    if source.startswith(b'#'):
        nl = source.find(b'\n')
        source = b'' if nl < 0 else source[nl:]
    return source


def _set_arg(rt, script, args):
    from .runtime.table import LuaTable
    t = LuaTable()
    t.set_int(0, rt.to_lua(script))
    for i, a in enumerate(args, 1):
        t.set_int(i, rt.to_lua(a))
    rt.vm.globals.set_str('arg', t)


def _list(path, out, python=False):
    """``-l FILE``: its bytecode; ``--emit-python FILE``: its Python."""
    from .compiler.listing import show_chunk
    from .runtime.errors import LuaError
    with open(path, 'rb') as fh:
        src = fh.read().decode('latin-1')
    try:
        out.write(show_chunk(src, path, python))
    except LuaError as e:
        sys.stderr.buffer.write(_error_text(e))
        return 1
    return 0


def repl(stdout, stderr):
    from .runtime.errors import LuaError, LuaSyntaxError
    rt = _runtime(stdout)
    sys.stdout.write('pylua (Lua 5.4 in Python)\n')
    pending = ''
    while True:
        try:
            line = input('>> ' if pending else '> ')
        except EOFError:
            sys.stdout.write('\n')
            return 0
        except KeyboardInterrupt:
            sys.stdout.write('\n')
            pending = ''
            continue
        src = pending + line
        try:
            try:
                fn = rt.load('return ' + src, '=stdin')
            except LuaSyntaxError:
                fn = rt.load(src, '=stdin')
        except LuaSyntaxError as e:
            if str(e.value).endswith('<eof>'):
                pending = src + '\n'
                continue
            pending = ''
            stderr.write(_error_text(e))
            stderr.flush()
            continue
        pending = ''
        try:
            results = rt.call_raw(fn)
            if results:
                rt.call_raw(rt.vm.globals.get('print'), results)
        except LuaError as e:
            stderr.write(_error_text(e))
            stderr.flush()
        except KeyboardInterrupt:
            rt.cancel()
        stdout.flush()


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    stdout = sys.stdout.buffer
    stderr = sys.stderr.buffer
    if not argv:
        return repl(stdout, stderr)
    if argv[0] in ('-l', '--emit-python') and len(argv) >= 2:
        return _list(argv[1], sys.stdout, argv[0] == '--emit-python')
    if argv[0] == '-e' and len(argv) >= 2:
        rt = _runtime(stdout)
        _set_arg(rt, 'pylua', argv[2:])
        code = _run_chunk(rt, argv[1].encode('utf-8'), '=(command line)', [], stderr)
        stdout.flush()
        return code
    if argv[0] == '-':
        rt = _runtime(stdout)
        code = _run_chunk(rt, sys.stdin.buffer.read(), '=stdin', argv[1:], stderr)
        stdout.flush()
        return code
    if argv[0].startswith('-') and argv[0] not in ('-',):
        sys.stderr.write("%s: unrecognized option '%s'\nusage: %s [-e stat] [-l file] [script [args]]\n"
                         % (PROG, argv[0], PROG))
        return 1
    try:
        return run_file(argv[0], argv[1:], stdout, stderr)
    except KeyboardInterrupt:
        return 130


if __name__ == '__main__':
    sys.exit(main())
