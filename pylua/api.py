"""The embedding API: ``LuaRuntime`` and conversions at the host boundary.

Python strings cross as UTF-8 bytes (Lua strings are byte strings); Lua
strings come back as Python ``str`` decoded with the runtime's encoding
(invalid bytes survive as surrogate escapes) or as ``bytes`` when the
encoding is None.  Lua tables and functions come back as proxies that keep
their identity; nothing on the Lua side can reach a Python object.
"""
from __future__ import annotations

import errno
import functools
import io
import os
from dataclasses import dataclass, field
import traceback as _tb
from types import FunctionType

from .compiler.pipeline import check_syntax, compile_lua, display_name, load_into
from .runtime import memory, ops, state
from .runtime.closing import CATCHABLE, has_pending
from .runtime.coroutine import Coroutine
from .runtime.errors import LuaError, LuaMemoryError, out_of_memory
from .runtime.frames import direct_tail_lines, lua_info, overflow_message, tail_calls_from
from .runtime.luathread import free_after_handover, on_lua_thread
from .runtime.python_gc import resume_collector
from .runtime.numbers import MAXINT, MININT
from .runtime.protected import plain, run_protected, settle
from .runtime.state import VM
from .runtime.table import LuaTable
from .runtime.values import Builtin, GenBuiltin, Userdata, hybrid

SANDBOX_LIBS = ('string', 'table', 'math', 'utf8', 'coroutine')


class Effect:
    """A request a host function yields to suspend Lua until the embedder answers."""
    __slots__ = ('payload',)

    def __init__(self, payload):
        self.payload = payload

    def __repr__(self):
        return 'Effect(%r)' % (self.payload,)


class _TextSink(io.RawIOBase):
    """A text stream (``sys.stdout``, ``io.StringIO``) where the runtime
    writes bytes: Lua's output decoded with the runtime's encoding, bytes
    it cannot decode replaced; it neither reads nor seeks (the io
    library's failures, as C's for a stream open only for writing)."""

    def __init__(self, stream, encoding):
        super().__init__()
        self.stream = stream
        self.encoding = encoding or 'utf-8'

    def writable(self):
        return True

    def readinto(self, buffer):
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))

    def write(self, data):
        self.stream.write(bytes(data).decode(self.encoding, 'replace'))
        return len(data)

    def flush(self):
        self.stream.flush()

    def isatty(self):
        return self.stream.isatty()


def _binary(stream, encoding):
    """``stream`` as the binary stream the runtime writes to."""
    return _TextSink(stream, encoding) if isinstance(stream, io.TextIOBase) else stream


class LuaRuntime:
    """One Lua state.  ``profile`` is 'sandbox' (default) or 'standalone'.
    ``stdout`` takes print's output; ``stderr`` (standalone: io.stderr, by
    default the process's) is a binary stream too; a text stream takes
    the output decoded with ``encoding``."""

    def __init__(self, max_memory=None, profile='sandbox', encoding='utf-8', stdout=None, stderr=None):
        if profile not in ('sandbox', 'standalone'):
            raise ValueError('unknown profile %r' % (profile,))
        self.encoding = encoding
        vm = self.vm = VM(max_memory)
        vm.runtime = self
        vm.ns.update(ops.HELPERS)
        vm.ns['VM'] = vm              # its C-stack depth (c_calls), which a generic for's iterator call raises
        vm.stdout = _binary(stdout, encoding)
        vm.stderr = _binary(stderr, encoding)
        vm.globals = LuaTable()
        vm.string_meta = LuaTable()
        previous = state.set_current(vm)
        try:
            from .library import base, strarith
            base.make(vm)
            _name_functions(vm.globals, '')
            for name in SANDBOX_LIBS:
                module = __import__('pylua.library.' + name, fromlist=['make'])
                lib = module.make(vm)
                _name_functions(lib, name + '.')
                vm.globals.set_str(name, lib)
            vm.string_meta.set_str('__index', vm.globals.get('string'))
            strarith.install(vm.string_meta)
            _install_intrinsics(vm)
            if profile == 'standalone':
                from .library import standalone
                standalone.install(vm)
        finally:
            state.set_current(previous)

    # ----------------------------------------------------------- running
    def _enter(self, fn, *args):
        vm = self.vm
        previous = state.set_current(vm)
        try:
            return fn(*args)
        finally:
            state.set_current(previous)

    def load(self, source, name=None, env=None):
        """Compile a chunk and return it as a Lua function value (raw)."""
        src = to_lua_string(source)
        chunkname = display_name(name if name is not None else src)
        # Deeply nested source recurses deeply in the compiler: use the Lua
        # thread's stack.  The compiler's checks see this runtime's cancel.
        try:
            compiled = on_lua_thread(self._enter, compile_lua, src, chunkname)
        except MemoryError:
            raise LuaMemoryError('not enough memory') from None
        return load_into(self.vm, compiled, env if env is not None else self.vm.globals)

    def execute(self, source, *args, name=None):
        """Run a chunk; returns its results converted to Python (None, one value, or a tuple)."""
        fn = self.load(source, name)
        return self._results(self.call_raw(fn, tuple(self.to_lua(a) for a in args)))

    def eval(self, expr, name=None):
        return self.execute('return ' + expr, name=name or '=(eval)')

    def compile(self, source, name=None):
        """Compile a chunk; returns a Python callable running it."""
        return LuaFunction(self, self.load(source, name))

    def call_raw(self, fn, args=(), message_handler=None):
        """Call a raw Lua value with raw arguments; returns the raw result tuple.

        Host effects are refused here: use ``run`` to answer them.  With a
        ``message_handler`` (lua_pcall's, run where the error was raised,
        so ``debug.traceback`` there sees the erroring stack), an error Lua
        could catch leaves as a ``LuaError`` whose value is what
        ``message_handler(exc)`` returned, and the ``<close>`` variables it
        left pending are given that value; interrupts and memory errors
        leave as they are (Lua runs no handler for those).  Without one,
        the error leaves with its own value."""
        handle = plain if message_handler is None else functools.partial(_handled, message_handler)

        def handled(exc):
            return has_pending(exc) or message_handler is not None and not out_of_memory(exc)

        def step():
            # No host effect can pass this run: see ops.nested_call.
            vm = self.vm
            vm.synchronous += 1
            try:
                return run()
            finally:
                vm.synchronous -= 1

        def run():
            if fn.__class__ is FunctionType:
                # Outside any coroutine no yield can succeed: the plain form runs.
                try:
                    return ops.lua_results(fn(*ops.fit_args(fn, args)))
                except CATCHABLE as exc:
                    if not handled(exc):
                        raise
                    raise _reported(ops.sync(settle(exc, handle)), message_handler) from None
            gen = run_protected(ops.call(fn, args), handle, handled,
                                functools.partial(_reported, message_handler=message_handler))
            try:
                effect = gen.send(None)
            except StopIteration as stop:
                return tuple(stop.value)
            gen.close()
            raise LuaError('attempt to yield from outside a coroutine'
                           if type(effect).__name__ == 'LuaYield' else
                           'a host effect was requested outside run()')
        return on_lua_thread(self._guarded, step)

    def run(self, source_or_function, *args, name=None):
        """Run Lua as a Python generator: it yields each ``Effect`` a host
        function requests and takes the embedder's answer through ``send``
        (or an exception through ``throw``); it returns the raw results."""
        fn = source_or_function
        if isinstance(fn, (str, bytes)):
            fn = self.load(fn, name)
        elif isinstance(fn, LuaFunction):
            fn = fn.raw
        gen = run_protected(ops.call(fn, tuple(self.to_lua(a) for a in args)))
        answer, error = None, None
        while True:
            def step(answer=answer, error=error):
                # Host effects pass this run, even inside a synchronous one.
                vm = self.vm
                synchronous, vm.synchronous = vm.synchronous, 0
                try:
                    y = gen.send(answer) if error is None else gen.throw(error)
                except StopIteration as stop:
                    return ('done', tuple(stop.value))
                finally:
                    vm.synchronous = synchronous
                if type(y).__name__ == 'LuaYield':
                    gen.close()
                    raise LuaError('attempt to yield from outside a coroutine')
                return ('effect', y)
            kind, value = on_lua_thread(self._guarded, step)
            if kind == 'done':
                return value
            try:
                answer, error = (yield value), None
            except GeneratorExit:
                on_lua_thread(self._guarded, gen.close)   # its <close> variables close as this runtime's
                raise
            except LuaError as exc:
                answer, error = None, exc
            except Exception as exc:      # Lua code sees the embedder's error as its text
                answer, error = None, self._error_of(exc)
            except BaseException as exc:
                answer, error = None, exc

    def _guarded(self, fn):
        """Run ``fn`` as this runtime, turning anything escaping into the API's errors."""
        vm = self.vm
        previous = state.set_current(vm)
        try:
            return fn()
        except LuaError as e:
            # What Python was handling when this was raised is no part of
            # it: a cancel landing where pcall counts a caught stack
            # overflow would keep that overflow's frames (a hundred thousand,
            # for the first young collection to walk) in the host's error.
            e.__context__ = None
            _describe_later(e, e.__traceback__, previous is None)
            raise
        except RecursionError as e:
            overflow = LuaError(overflow_message(e))
            _describe_later(overflow, e.__traceback__, previous is None)
            raise overflow from None
        except MemoryError:
            raise LuaMemoryError('not enough memory') from None
        except Exception as e:            # a pylua bug: never leak a raw Python error
            raise LuaError('internal error: %s: %s' % (type(e).__name__, e),
                           ''.join(_tb.format_exception(e))) from None
        finally:
            resume_collector()
            state.set_current(previous)

    def close(self):
        """lua_close: run the finalizers of every object still marked for one."""
        collector = self.vm.collector
        if collector is not None:
            on_lua_thread(self._guarded, collector.close)

    def cancel(self, message='interrupted'):
        """Thread-safe: stop the running Lua code at its next check (LuaInterrupt)."""
        self.vm.cancel(message)

    def reset_cancel(self):
        self.vm.cancel_event.clear()

    def set_hook(self, fn, every):
        """Call ``fn(instruction_count)`` about every ``every`` instructions; it may raise."""
        self.vm.hook = (fn, max(1, every))
        self.vm._hook_left = every

    def memory_used(self):
        """Accounted live Lua heap in bytes (measured now)."""
        return self._enter(memory.measure, self.vm)

    # ------------------------------------------------------------ values
    def globals(self):
        return LuaTableProxy(self, self.vm.globals)

    def table(self, *items, **fields):
        t = LuaTable()
        for i, v in enumerate(items, 1):
            t.set(i, self.to_lua(v))
        for k, v in fields.items():
            t.set(self.to_lua(k), self.to_lua(v))
        return LuaTableProxy(self, t)

    def table_from(self, obj):
        """A Lua table from a Python mapping or sequence (recursively)."""
        return LuaTableProxy(self, self._from_python(obj, {}))

    @staticmethod
    def lua_type(obj):
        """'table', 'function' or 'thread' for Lua objects seen from Python, else None."""
        if isinstance(obj, LuaTableProxy):
            return 'table'
        if isinstance(obj, LuaFunction):
            return 'function'
        if isinstance(obj, Coroutine):
            return 'thread'
        return None

    def to_lua(self, v):
        return self._from_python(v)

    def _from_python(self, v, made=None):
        """``v`` as a Lua value; with ``made`` (the tables made so far, by
        the id of the container they mirror), dicts, lists and tuples too,
        a container met again (a cycle, or shared) as the same table."""
        if v is None or v is True or v is False:
            return v
        c = v.__class__
        if c is int:
            if MININT <= v <= MAXINT:
                return v
            return float(v)
        if c is float:
            return v
        if c is str:
            return to_lua_string(v, self.encoding or 'utf-8')
        if c is bytes or c is bytearray:
            return bytes(v).decode('latin-1')
        if isinstance(v, LuaTableProxy):
            return v.raw
        if isinstance(v, LuaFunction):
            return v.raw
        if c in (LuaTable, Builtin, GenBuiltin, Userdata, Coroutine):
            return v
        if c is FunctionType and lua_info(v.__code__) is not None:
            return v                      # a raw Lua function
        if made is not None and isinstance(v, (dict, list, tuple)):
            t = made.get(id(v))
            if t is None:
                t = made[id(v)] = LuaTable()
                if isinstance(v, dict):
                    for k, x in v.items():
                        t.set(self._from_python(k, made), self._from_python(x, made))
                else:
                    for i, x in enumerate(v, 1):
                        t.set_int(i, self._from_python(x, made))
            return t
        if callable(v):
            return self.wrap_function(v)
        raise TypeError('cannot pass a %s to Lua' % type(v).__name__)

    def wrap_function(self, fn, name=None):
        """Expose a Python callable to Lua, converting arguments and results.
        An exception it raises is a Lua error whose value is its text, which
        ``pcall`` catches (the exception is the error's ``__cause__``); Lua's
        own errors, interrupts and Python's recursion and memory errors
        leave as they are."""
        def host(*args):
            try:
                r = fn(*(self.to_python(a) for a in args))
            except (LuaError, RecursionError, MemoryError):
                raise
            except Exception as exc:
                raise self._error_of(exc) from exc
            if r is None:
                return ()
            if isinstance(r, tuple):
                return tuple(self.to_lua(x) for x in r)
            return (self.to_lua(r),)
        return Builtin(host, name or getattr(fn, '__name__', '?'))

    def _error_of(self, exc):
        """The Lua error an embedder's exception is to Lua code: its text."""
        return LuaError(self.to_lua(str(exc) or type(exc).__name__))

    def to_python(self, v):
        c = v.__class__
        if c is str:
            if self.encoding is None:
                return v.encode('latin-1')
            return v.encode('latin-1').decode(self.encoding, 'surrogateescape')
        if c is LuaTable:
            return LuaTableProxy(self, v)
        if c is FunctionType or c is Builtin or c is GenBuiltin:
            return LuaFunction(self, v)
        return v

    def _results(self, r):
        if not r:
            return None
        if len(r) == 1:
            return self.to_python(r[0])
        return tuple(self.to_python(x) for x in r)


def _name_functions(table, prefix):
    """Give each library function its qualified name ('utf8.len') for error
    messages, and turn generator functions into hybrids, which are cheap to
    call when they do not suspend."""
    for key, value in list(table.hash.items()):
        if value.__class__ is GenBuiltin and not hasattr(value.fn, 'always_suspends'):
            table.hash[key] = hybrid(value.fn, prefix + key)
        elif value.__class__ is Builtin or value.__class__ is GenBuiltin:
            value.name = prefix + key


def _install_intrinsics(vm):
    """Bind the names inlined library calls compare the callee with."""
    vm.intrinsics = {}
    for name, (lib, field) in ops.INTRINSICS.items():
        table = vm.globals if lib is None else vm.globals.get(lib)
        fn = None if table is None else table.get(field)
        if fn is not None:
            vm.intrinsics[name] = fn
    ops.bind_intrinsics(vm, True)
    # What ipairs and pairs return, for their inline forms.
    vm.ns['INEXT'] = ops.INEXT
    vm.ns['NEXT'] = ops.NEXT
    # Metatables of the other types, changed in place by debug.setmetatable.
    vm.ns['TYPE_METAS'] = vm.type_metas


class LuaFunction:
    """A Lua function seen from Python; calling it runs Lua."""

    def __init__(self, runtime, raw):
        self.runtime = runtime
        self.raw = raw

    def __call__(self, *args):
        rt = self.runtime
        return rt._results(rt.call_raw(self.raw, tuple(rt.to_lua(a) for a in args)))

    def __eq__(self, other):
        return isinstance(other, LuaFunction) and other.raw is self.raw

    def __hash__(self):
        return id(self.raw)


class LuaTableProxy:
    """A Lua table seen from Python (raw access, no metamethods)."""

    def __init__(self, runtime, raw):
        self.runtime = runtime
        self.raw = raw

    def __getitem__(self, k):
        rt = self.runtime
        return rt.to_python(self.raw.get(rt.to_lua(k)))

    def __setitem__(self, k, v):
        rt = self.runtime
        self.raw.set(rt.to_lua(k), rt.to_lua(v))

    def __len__(self):
        return self.raw.length()

    def __bool__(self):
        return True                   # every Lua table is true, whatever its length

    def items(self):
        rt = self.runtime
        return [(rt.to_python(k), rt.to_python(v)) for k, v in self.raw.items()]

    def keys(self):
        return [k for k, _ in self.items()]

    def values(self):
        return [v for _, v in self.items()]

    def __iter__(self):
        return iter(self.keys())

    def __eq__(self, other):
        return isinstance(other, LuaTableProxy) and other.raw is self.raw

    def __hash__(self):
        return id(self.raw)


def to_lua_string(s, encoding='utf-8'):
    if isinstance(s, (bytes, bytearray)):
        return bytes(s).decode('latin-1')
    return s.encode(encoding, 'surrogateescape').decode('latin-1')


# luaL_traceback shows this many levels first and last of a deeper stack.
_LEVELS_FIRST = 10
_LEVELS_LAST = 11


def _handled(message_handler, exc):
    """``settle``'s handler (a generator) for a host's ``message_handler``."""
    return message_handler(exc)
    yield


def _reported(settled, message_handler):
    """The error a host's protected call raises once ``settle`` is done:
    with a message handler, one carrying the value the handler gave."""
    error = settled.error
    if message_handler is None or out_of_memory(error):
        return error
    if isinstance(error, LuaError):
        error.value = settled.value
        return error
    return LuaError(settled.value)        # a stack overflow, the handler's text made


# Tracebacks longer than this many entries keep only their ends (``compacted``).
_ENTRIES_KEPT = 2000


class _Levels:
    """Which traceback entries are levels of Lua's stack, the Lua info of
    their codes looked up once each (deep recursion repeats a few codes)."""

    def __init__(self):
        self.infos = {}       # id(code) -> (its Lua info, the lines at which its frames are replaced)

    def is_level(self, tb):
        code = tb.tb_frame.f_code
        known = self.infos.get(id(code))
        if known is None:
            known = self.infos[id(code)] = (lua_info(code), direct_tail_lines(code))
        info, replaced_at = known
        return info is not None and not (replaced_at and tb.tb_lineno in replaced_at)


@dataclass
class _Compacted:
    """A traceback with the middle of a deep stack cut out (``compacted``)."""
    head: object                 # its first entry
    cut: int = 0                 # the Lua levels the cut took
    last_outer: object = None    # the innermost entry of the outer end kept
    inner: list = field(default_factory=list)    # the entries after it, outermost first


def compacted(tb) -> _Compacted:
    """``tb`` with the middle of a deep stack cut out.  A stack overflow's
    traceback has tens of thousands of entries, each holding a frame:
    while the error lives, every collection of Python's walks them all
    (the first, a young one as the collector comes back, 25-60 ms before
    the host even has the error); Lua's traceback shows only the ends."""
    entries = []
    while tb is not None:
        entries.append(tb)
        tb = tb.tb_next
    if len(entries) <= _ENTRIES_KEPT:
        return _Compacted(entries[0] if entries else None)
    known = _Levels()
    infos = known.infos
    levels = []
    # ``_Levels.is_level`` inlined: a quarter of a million entries.
    for i, entry in enumerate(entries):
        info = infos.get(id(entry.tb_frame.f_code))
        if info is None:
            known.is_level(entry)
            info = infos[id(entry.tb_frame.f_code)]
        if info[0] is not None and not (info[1] and entry.tb_lineno in info[1]):
            levels.append(i)
    margin = max(_LEVELS_FIRST, _LEVELS_LAST) + 2
    if len(levels) <= 2 * margin + 1:
        return _Compacted(entries[0])
    head_end = levels[margin - 1]          # the outermost levels kept
    tail_start = levels[-margin] - 1       # the innermost, with the caller of the first
    entries[head_end].tb_next = entries[tail_start]
    cut = sum(1 for i in levels if head_end < i < tail_start)
    return _Compacted(entries[0], cut, entries[head_end], entries[head_end + 1:])


def _describe_later(error, tb, outermost):
    """Let ``error`` describe the stack of traceback ``tb`` when asked.  A
    deep stack's text is made now, from its ends (``compacted``), and the
    host's error keeps only the outer end's entries: each finished frame
    links to its caller's, so a kept inner frame would keep every frame
    of the middle alive.  The inner entries are freed once the host has
    the error when this run is the Lua thread's outermost (a hundred
    thousand frames take 20-40 ms), else now."""
    kept = compacted(tb)
    if not kept.cut:
        error.describe_stack_later(functools.partial(lua_traceback, kept.head))
        return
    text = lua_traceback(kept.head, kept.cut)
    error.describe_stack_later(lambda: text)
    kept.last_outer.tb_next = None
    if outermost:
        free_after_handover(kept.inner)


def lua_traceback(tb, cut=0):
    """Lua-style ``stack traceback:`` text from a Python traceback, from
    which ``compacted`` cut ``cut`` levels."""
    is_level = _Levels().is_level
    levels = []           # (traceback entry, is it called through tail calls)
    caller = None         # the entry before, calling this one
    while tb is not None:
        if is_level(tb):
            tailed = caller is not None and tail_calls_from(caller.tb_frame, caller.tb_lineno)
            levels.append((tb, tailed))
        caller = tb
        tb = tb.tb_next
    levels.reverse()
    shown = len(levels) + 1 + cut         # and the host's call, ``[C]: in ?``
    if shown > _LEVELS_FIRST + _LEVELS_LAST + 1:
        skipped = shown - _LEVELS_FIRST - _LEVELS_LAST - 1     # as Lua counts them
        text = [_level(level) for level in levels[:_LEVELS_FIRST]]
        text.append('\t...\t(skipping %d levels)' % skipped)
        text.extend(_level(level) for level in levels[len(levels) - _LEVELS_LAST + 1:])
    else:
        text = [_level(level) for level in levels]
    return 'stack traceback:\n' + '\n'.join(text + ['\t[C]: in ?'])


def _level(level):
    tb, tailed = level
    chunk, lines, what = lua_info(tb.tb_frame.f_code)
    ln = tb.tb_lineno
    text = '\t%s:%d: in %s' % (chunk, lines[ln] if ln < len(lines) else 0, what)
    return text + '\n\t(...tail calls...)' if tailed else text


def compile_check(source, chunkname):
    """Raise LuaSyntaxError if ``source`` does not compile; ``chunkname`` is used verbatim."""
    on_lua_thread(check_syntax, to_lua_string(source), chunkname)
