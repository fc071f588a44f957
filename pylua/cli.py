"""The ``pylua`` command, as Lua 5.4's ``lua.c``.

``pylua [options] [script [args]]`` with ``-e stat``, ``-l mod`` (and ``-l
g=mod``), ``-i``, ``-v``, ``-E``, ``-W``, ``--`` and ``-``; ``LUA_INIT_5_4``
or ``LUA_INIT`` runs first; ``arg`` holds the script's arguments at positive
indices and the command and options at negative ones.  An uncaught error
prints ``pylua: MESSAGE`` and a traceback to stderr and exits 1; the state is
closed (pending finalizers run) before the command ends.

Two forms of the project's own: ``pylua -l FILE`` alone, when FILE is a
file, lists its bytecode like ``luac -l``; ``pylua`` alone starts the REPL
even when stdin is not a terminal.
"""
from __future__ import annotations

import os
import signal
import sys
from dataclasses import dataclass, field

PROG = 'pylua'
VERSION = 'pylua 5.4 (Lua 5.4 in Python)'
USAGE = """usage: %s [options] [script [args]]
Available options are:
  -e stat   execute string 'stat'
  -i        enter interactive mode after executing 'script'
  -l mod    require library 'mod' into global 'mod'
  -l g=mod  require library 'mod' into global 'g'
  -v        show version information
  -E        ignore environment variables
  -W        turn warnings on
  --        stop handling options
  -         stop handling options and execute stdin
""" % PROG


@dataclass
class CommandLine:
    """lua.c's collectargs: the options up to the script, in order."""
    actions: list = field(default_factory=list)     # ('e', stat) / ('l', name) / ('W', None), in order
    script: int = 0            # index in argv of the script; len(argv) when none
    interactive: bool = False
    version: bool = False
    ignore_env: bool = False
    bad_option: str | None = None

    @property
    def has_e(self):
        return any(kind == 'e' for kind, _ in self.actions)


def collect_args(argv) -> CommandLine:
    cl = CommandLine()
    i = 0
    while i < len(argv):
        a = argv[i]
        cl.script = i
        if not a.startswith('-'):
            return cl
        opt, rest = a[1:2], a[2:]
        if opt == '-':
            if rest:
                cl.bad_option = a
                return cl
            cl.script = i + 1
            return cl
        if opt == '':
            return cl                      # '-': the script is stdin
        if opt in 'EWiv' and rest:
            cl.bad_option = a
            return cl
        if opt == 'E':
            cl.ignore_env = True
        elif opt == 'W':
            cl.actions.append(('W', None))
        elif opt in 'iv':
            cl.interactive = cl.interactive or opt == 'i'
            cl.version = True
        elif opt in 'el':
            if not rest:
                i += 1
                if i >= len(argv) or argv[i].startswith('-'):
                    cl.bad_option = a
                    cl.script = i - 1
                    return cl
                rest = argv[i]
            cl.actions.append((opt, rest))
        else:
            cl.bad_option = a
            return cl
        i += 1
    cl.script = len(argv)
    return cl


def _usage_error(bad, stderr):
    if bad[1:2] in ('e', 'l'):
        head = "%s: '%s' needs argument\n" % (PROG, bad)
    else:
        head = "%s: unrecognized option '%s'\n" % (PROG, bad)
    stderr.write((head + USAGE).encode('latin-1', 'replace'))
    stderr.flush()


def _runtime(stdout, stderr=None, ignore_env=False):
    from .api import LuaRuntime
    rt = LuaRuntime(profile='standalone', stdout=stdout, stderr=stderr)
    if ignore_env:
        from .library.package import use_default_paths
        use_default_paths(rt.vm)
    return rt


def _error_text(err, rt=None):
    """lua.c's report of an error: its message, and a traceback unless the
    message came from the error object's ``__tostring``."""
    from .runtime.errors import LuaError, LuaSyntaxError
    if not isinstance(err, LuaError):
        return ('%s: %s\n' % (PROG, err)).encode('utf-8', 'replace')
    msg, traced = _error_message(err.value, rt)
    if isinstance(err, LuaSyntaxError) or not traced:
        return ('%s: %s\n' % (PROG, msg)).encode('latin-1', 'replace')
    tb = err.traceback or 'stack traceback:\n\t[C]: in ?'
    return ('%s: %s\n%s\n' % (PROG, msg, tb)).encode('latin-1', 'replace')


# How deeply lua.c's message handler may run again on errors its own
# ``__tostring`` calls raise before Lua's C stack overflows.
_HANDLER_DEPTH = 196


def _error_message(v, rt, depth=0):
    """lua.c's ``msghandler`` on error value ``v``: its message, and whether
    a traceback follows it (not when the error object's ``__tostring`` gave
    it).  An error raised by that ``__tostring`` is handled in turn, as a
    message handler's own errors are."""
    from .runtime.errors import LuaError
    if v.__class__ is str:
        return v, True
    if v.__class__ in (int, float):
        from .runtime.numbers import tostr
        return tostr(v), True
    if depth >= _HANDLER_DEPTH:
        return 'C stack overflow', True
    try:
        msg = _tostring_metamethod(v, rt)
    except LuaError as e:
        return _error_message(e.value, rt, depth + 1)
    if msg is not None:
        return msg, False
    from .runtime.values import type_name
    return '(error object is a %s value)' % type_name(v), True


def _tostring_metamethod(v, rt):
    """luaL_callmeta's ``__tostring`` of ``v`` when it gives a string (a
    number is no string here), else None."""
    from .runtime import ops
    handler = None if rt is None else ops.metamethod(v, '__tostring')
    if handler is None:
        return None
    results = rt.call_raw(handler, (v,))
    text = results[0] if results else None
    return text if text.__class__ is str else None


class _Session:
    """One run of the command: a standalone runtime and lua.c's reporting."""

    def __init__(self, stdout, stderr, ignore_env=False):
        self.stdout = stdout
        self.stderr = stderr
        self.rt = _runtime(stdout, stderr, ignore_env)
        self.exit_code = None

    def report(self, err):
        self._write_error(_error_text(err, self.rt))

    def _write_error(self, text):
        # lua.c's l_message writes to stderr alone: what stdout still buffers
        # (an unfinished line on a terminal, more on a pipe) comes after.
        self.stderr.write(text)
        self.stderr.flush()

    def call(self, fn, args=()):
        """docall: ``fn``'s results, or None when it failed (reported, as
        lua.c reports it: the message handler's text); os.exit ends the session."""
        from .runtime.errors import ExitRequest, LuaError, LuaInterrupt, LuaMemoryError
        try:
            return self.rt.call_raw(fn, args, message_handler=self.message)
        except ExitRequest as e:
            self.exit_code = e.code
            if e.close:
                self.close()
            raise
        except (LuaInterrupt, LuaMemoryError) as e:     # no message handler ran
            self.report(e)
        except LuaError as e:
            self._write_error(('%s: %s\n' % (PROG, e.value)).encode('latin-1', 'replace'))
        return None

    def message(self, exc):
        """lua.c's message handler: the error's message with the traceback
        at the error, which the ``<close>`` variables the error leaves
        pending are given (see ``_error_message``)."""
        from .library.debug import traceback
        from .runtime.protected import error_value
        from .runtime.stack import handling
        msg, traced = _error_message(error_value(exc), self.rt)
        if not traced:
            return msg
        with handling(exc.__traceback__):      # the stack as it was at the error
            return traceback(msg, 0)[0]     # level 0: where the error is (lua.c's msghandler is no level here)

    def load(self, loader):
        from .library.package import LoadFailure
        from .runtime.errors import LuaError
        try:
            return loader()
        except LoadFailure as failure:      # lua.c reports load errors without a traceback
            self._write_error(('%s: %s\n' % (PROG, failure.message)).encode('latin-1', 'replace'))
        except LuaError as e:
            self.report(e)
        return None

    def do_string(self, source, chunkname):
        fn = self.load(lambda: self.rt.load(source.encode('utf-8', 'surrogateescape'), chunkname))
        return fn is not None and self.call(fn) is not None

    def do_file(self, filename, args=()):
        from .library.loadfile import load_file
        fn = self.load(lambda: load_file(self.rt.vm, filename, c_levels=1))     # parsed in lua.c's pmain
        return fn is not None and self.call(fn, tuple(self.rt.to_lua(a) for a in args)) is not None

    def do_library(self, spec):
        name, eq, module = spec.partition('=')
        if not eq:
            module = name
        require = self.rt.vm.globals.get('require')
        value = self.call(require, (self.rt.to_lua(module),))
        if value is None:
            return False
        self.rt.vm.globals.set(self.rt.to_lua(name), value[0] if value else None)
        return True

    def set_arg(self, argv, script):
        from .runtime.table import LuaTable
        t = LuaTable()
        words = [PROG] + list(argv)
        base = script + 1 if script < len(argv) else 0
        for i, word in enumerate(words):
            t.set_int(i - base, self.rt.to_lua(word))
        self.rt.vm.globals.set_str('arg', t)

    def lua_init(self):
        for variable in ('LUA_INIT_5_4', 'LUA_INIT'):
            value = os.environ.get(variable)
            if value is not None:
                if value.startswith('@'):
                    return self.do_file(value[1:])
                return self.do_string(value, '=' + variable)
        return True

    def close(self):
        self.rt.close()
        self.stdout.flush()


def run_file(path, args, stdout, stderr):
    """Run a Lua file as ``pylua FILE args`` would, writing to binary streams; returns the exit code."""
    return run([path] + list(args) if not path.startswith('-') else ['--', path] + list(args),
               stdout, stderr)


def run(argv, stdout, stderr, stdin_is_repl=False):
    """lua.c's main over ``argv`` (without the program name); returns the exit code."""
    from .runtime.errors import ExitRequest
    cl = collect_args(argv)
    if cl.bad_option is not None:
        _usage_error(cl.bad_option, stderr)
        return 1
    if cl.version:
        stdout.write((VERSION + '\n').encode())
        stdout.flush()
    session = _Session(stdout, stderr, cl.ignore_env)
    session.set_arg(argv, cl.script)
    ok = False
    try:
        ok = _run_session(session, argv, cl, stdin_is_repl)
    except ExitRequest:
        stdout.flush()
        return session.exit_code
    try:
        session.close()
    except ExitRequest:
        return session.exit_code
    return 0 if ok else 1


def _run_session(session, argv, cl, stdin_is_repl):
    if not cl.ignore_env and not session.lua_init():
        return False
    for kind, value in cl.actions:
        if kind == 'W':
            session.rt.vm.warn('@on', control=True)
        elif kind == 'e':
            if not session.do_string(value, '=(command line)'):
                return False
        elif not session.do_library(value):
            return False
    if cl.script < len(argv):
        name = argv[cl.script]
        stdin = name == '-' and (cl.script == 0 or argv[cl.script - 1] != '--')
        if not session.do_file(None if stdin else name, argv[cl.script + 1:]):
            return False
    if cl.interactive:
        repl(session)
    elif cl.script == len(argv) and not cl.has_e and not cl.version:
        if stdin_is_repl or sys.stdin.isatty():
            session.stdout.write((VERSION + '\n').encode())
            repl(session)
        else:
            return session.do_file(None)
    return True


def _list(path, out, python=False):
    """``-l FILE``: its bytecode; ``--emit-python FILE``: its Python."""
    from .compiler.listing import show_chunk
    from .runtime.errors import LuaError
    try:
        with open(path, 'rb') as fh:
            src = fh.read().decode('latin-1')
    except OSError:
        sys.stderr.buffer.write(('%s: cannot open %s\n' % (PROG, path)).encode())
        return 1
    try:
        out.write(show_chunk(src, path, python))
    except LuaError as e:
        sys.stderr.buffer.write(_error_text(e))
        return 1
    return 0


def _prompt(rt, name, default):
    p = rt.vm.globals.get(name)
    return p if p.__class__ is str else default


def repl(session):
    """lua.c's doREPL: a line is tried as ``return line`` first; an incomplete
    chunk reads more lines; results are printed with ``print``."""
    from .runtime.errors import LuaError, LuaSyntaxError
    rt = session.rt
    pending = ''
    while True:
        session.stdout.flush()
        try:
            line = input(_prompt(rt, '_PROMPT2', '>> ') if pending else _prompt(rt, '_PROMPT', '> '))
        except EOFError:
            sys.stdout.write('\n')
            return
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
            session.report(e)
            continue
        pending = ''
        try:
            results = session.call(fn)
            if results:
                rt.call_raw(rt.vm.globals.get('print'), results)
        except LuaError as e:
            session.report(e)
        except KeyboardInterrupt:
            rt.cancel()


def _open_chunk_store(directory):
    """Keep the compiled chunks of files in ``directory`` (``$PYLUA_CACHE_DIR``;
    empty: nowhere; unset: the user's cache directory), as Python keeps
    ``__pycache__``: running a program again skips translating it."""
    from .compiler.chunk_store import default_directory, open_store
    open_store(default_directory() if directory is None else directory or None)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if hasattr(signal, 'SIGPIPE'):
        # As lua.c: output into a closed pipe (``pylua x.lua | head``) ends
        # the process quietly, where Python would raise BrokenPipeError.
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if len(argv) == 2 and (argv[0] == '--emit-python' or argv[0] == '-l' and os.path.isfile(argv[1])):
        return _list(argv[1], sys.stdout, argv[0] == '--emit-python')
    _open_chunk_store(os.environ.get('PYLUA_CACHE_DIR'))
    try:
        return run(argv, sys.stdout.buffer, sys.stderr.buffer, stdin_is_repl=not argv)
    except KeyboardInterrupt:
        return 130


if __name__ == '__main__':
    sys.exit(main())
