"""The debug library (standalone profile): ``getinfo`` (levels count Lua
functions only), ``traceback``, ``sethook``/``gethook`` (per Lua thread;
runtime/hooks.py), ``getlocal``/``setlocal`` (runtime/stack.py),
``getmetatable``/``setmetatable`` for every type, ``getuservalue``/
``setuservalue`` (pylua's userdata have no user values), ``getregistry``,
and the upvalue functions ``getupvalue``/``setupvalue``/``upvalueid``/
``upvaluejoin`` over the closures' cells."""
from __future__ import annotations

import sys
import weakref
from types import FunctionType

from ..runtime import coroutine as co_rt
from ..runtime import ops, state
from ..runtime.collector import Collector, collector_of
from ..runtime.coroutine import Coroutine
from ..runtime.frames import (call_note, chunk_source, lua_info, lua_proto, metamethod_event,
                              tail_calls_from)
from ..runtime.hooks import Hook, called_by_hook, debug_hooks
from ..runtime.memory import running_lua_frames
from ..runtime.stack import (Local, active_lines, active_locals, beneath_helpers, c_values, current_line, failed_levels,
                             function_at, is_stripped, parameter_names, read_register, running_levels,
                             suspended_levels, varargs, visible_locals, write_register, write_varargs)
from ..runtime.table import LuaTable, meta_changed
from ..runtime.values import Builtin, GenBuiltin, Userdata, is_function, type_name
from .args import ABSENT, arg_error, check_int, check_str, opt_int, opt_str, type_error
from .coroutine import main_coroutine

_OPTIONS = frozenset('SlnrutfL')
# A long traceback shows its first and last levels, as luaL_traceback does.
_TRACEBACK_HEAD = 10
_TRACEBACK_TAIL = 11
_SKIPPED = object()      # where a long traceback's '...' line stands


# ------------------------------------------------------------ threads
class _Thread:
    """The thread a debug function inspects, and its other arguments:
    ``co`` is None for the running thread; ``shift`` is 1 when the thread
    was given (argument numbers in messages count it)."""

    def __init__(self, args):
        vm = state.running.vm
        self.shift = 0
        self.co = None
        if args and args[0].__class__ is Coroutine:
            co, args = args[0], args[1:]
            self.shift = 1
            running = vm.coroutine if vm.coroutine is not None else getattr(vm, 'main_coroutine', None)
            if co is not running:
                self.co = co
        self.args = args
        # The hooks' key for this thread: its Coroutine, None for the main one.
        if self.co is None:
            self.key = vm.coroutine
        else:
            self.key = None if self.co is getattr(vm, 'main_coroutine', None) else self.co

    def arg(self, i):
        return self.args[i] if len(self.args) > i else ABSENT

    def levels(self, wanted=None):
        """Its stack's levels, level 0 first (the running debug function,
        or a suspended coroutine's ``yield``); all of them, or at least the
        first ``wanted`` where the stack has them."""
        if self.co is None:
            return running_levels(sys._getframe(1), co_rt.resume.__code__, wanted)
        if self.co.status == 'suspended' and self.co.gen is not None:
            return suspended_levels(self.co.gen, self.co.fn)
        if self.co.status == 'dead' and self.co.failed_at is not None:
            return failed_levels(self.co.failed_at, body=self.co.fn)
        return []

    def level(self, n, fname):
        """The level ``n``, or the 'level out of range' error."""
        levels = self.levels()
        if not 0 <= n < len(levels):
            arg_error(self.shift + 1, fname, 'level out of range')
        return levels[n]


# ----------------------------------------------------------------- getinfo
def _source_fields(info, chunk, proto):
    info.set_str('source', chunk_source(chunk, proto))
    info.set_str('short_src', chunk)
    if proto is not None:
        info.set_str('linedefined', proto.line)
        info.set_str('lastlinedefined', proto.end_line)


def _c_upvalues(fn):
    """The upvalues of a host function (Lua's C closure): the Lua values
    its Python function names as ``upvalues`` (``string.gmatch``'s iterator
    has its subject and pattern)."""
    return getattr(fn.fn, 'upvalues', ())


def _c_info(info, options, nups=0):
    if 'S' in options:
        for key, value in (('source', '=[C]'), ('short_src', '[C]'), ('what', 'C'),
                           ('linedefined', -1), ('lastlinedefined', -1)):
            info.set_str(key, value)
    if 'l' in options:
        info.set_str('currentline', -1)
    if 'u' in options:
        info.set_str('nups', nups)
        info.set_str('nparams', 0)
        info.set_str('isvararg', True)


def _lua_info(info, options, code, line):
    chunk, _, what = lua_info(code)
    proto = lua_proto(code)
    stripped = is_stripped(code)
    main = what == 'main chunk'
    if 'S' in options:
        _source_fields(info, chunk, proto)
        info.set_str('what', 'main' if main else 'Lua')
        if main:
            info.set_str('linedefined', 0)
            info.set_str('lastlinedefined', 0)
    if 'l' in options:
        info.set_str('currentline', line)
    if 'u' in options and proto is not None:
        info.set_str('nups', len(proto.upvals))
        info.set_str('nparams', proto.numparams)
        info.set_str('isvararg', bool(proto.is_vararg))
    if 'L' in options:
        active = LuaTable()
        for n in active_lines(proto) if proto is not None and not stripped else ():
            if n:
                active.set(n, True)
        info.set_str('activelines', active)


def _call_name(caller):
    """(name, namewhat) of the function the Lua frame ``caller`` is calling,
    as its code names it, or None."""
    note = call_note(caller, lookahead=8) if caller is not None else None
    if not note:
        return None
    kind, _, quoted = note.partition(" '")
    name = quoted.rstrip("'")
    if kind == 'for iterator':
        return 'for iterator', 'for iterator'
    if kind in ('global', 'local', 'method', 'field', 'upvalue', 'constant', 'metamethod'):
        return name, kind
    return None


def _tail_called(level):
    """Was the Lua function of ``level`` called by a tail call?  Asked of
    the level's caller as the level knows it: a frame an error left is
    where the error passed, not where it last ran."""
    return level.lua and level.caller is not None and tail_calls_from(level.caller)


def _level_name(levels, n):
    """(name, namewhat) of level ``n``: a hook, or named by its Lua caller."""
    level = levels[n]
    if called_by_hook(level.caller):
        return '?', 'hook'
    runner = beneath_helpers(level.caller)
    if runner is not None and runner.f_code is Collector.finalize.__code__:
        return '__gc', 'metamethod'
    caller = levels[n + 1] if n + 1 < len(levels) else None
    if caller is None or not caller.lua:
        return None                   # Lua names only what Lua code calls
    event = metamethod_event(level.caller)
    if event is not None:
        return event, 'metamethod'
    return _call_name(caller.frame)


def _global_name(vm, fn):
    """Where ``package.loaded`` holds ``fn`` (``mod.name``; a global is
    just ``name``), as Lua's tracebacks name functions."""
    loaded = vm.registry.get('_LOADED')
    if fn is None or loaded is None:
        return None
    for module, table in loaded.hash.items():
        if table.__class__ is LuaTable and module.__class__ is str:
            for key, value in table.hash.items():
                if value is fn and key.__class__ is str:
                    return key if module == '_G' else '%s.%s' % (module, key)
    return None


def _level_info(info, what, levels, n):
    level = levels[n]
    frame = level.frame
    if level.lua:
        _lua_info(info, what, frame.f_code, current_line(frame))
    else:
        _c_info(info, what)
    tail = _tail_called(level)
    if 'n' in what:
        # A tail-called function's caller is gone: Lua names it nothing.
        named = None if tail else _level_name(levels, n)
        info.set_str('namewhat', named[1] if named is not None else '')
        if named is not None:
            info.set_str('name', named[0])
    if 'r' in what:
        first, values = _transfer(level)
        info.set_str('ftransfer', first)
        info.set_str('ntransfer', len(values))
    if 't' in what:
        info.set_str('istailcall', tail)
    if 'f' in what:
        info.set_str('func', function_at(level))


def _check_options(what, argno, fname):
    if not set(what) <= _OPTIONS:
        arg_error(argno, fname, 'invalid option')


def getinfo(*args):
    thread = _Thread(args)
    target = thread.arg(0)
    fname = 'getinfo'
    what = opt_str(thread.arg(1), thread.shift + 2, fname, 'flnSrtu')
    if what.startswith('>'):
        arg_error(thread.shift + 2, fname, "invalid option '>'")
    info = LuaTable()
    if not is_function(target):
        # A level, as luaL_checkinteger takes it (a numeric string too);
        # one out of range gives nil before the options are looked at.
        n = check_int(target, thread.shift + 1, fname)
        # Level n, and its caller's for its name; fewer: the whole stack.
        levels = thread.levels(n + 2 if n >= 0 else None)
        main_base = n == len(levels) and thread.co is None and state.running.vm.coroutine is None
        if not (0 <= n < len(levels) or main_base):
            return (None,)
        _check_options(what, thread.shift + 2, fname)
        if main_base:
            # The main thread's base, as in its tracebacks: the host's C
            # function that called the main chunk (lua.c's pmain).
            _c_info(info, what)
            _called_info(info, what, _HOST_BASE)
        else:
            _level_info(info, what, levels, n)
        return (info,)
    _check_options(what, thread.shift + 2, fname)
    if target.__class__ is FunctionType and lua_info(target.__code__) is not None:
        _lua_info(info, what.replace('l', ''), target.__code__, -1)
        if 'l' in what:
            info.set_str('currentline', -1)
    else:
        _c_info(info, what, len(_c_upvalues(target)))
    _called_info(info, what, target)
    return (info,)


def _called_info(info, what, func):
    """getinfo's fields for a function not running as a named call."""
    if 'n' in what:
        info.set_str('namewhat', '')
    if 'r' in what:
        info.set_str('ftransfer', 0)
        info.set_str('ntransfer', 0)
    if 'f' in what:
        info.set_str('func', func)
    if 't' in what:
        info.set_str('istailcall', False)


# What getinfo's 'f' gives for the main thread's base level: a C function
# Lua code cannot otherwise reach.
_HOST_BASE = Builtin(lambda *_: (), '?')


def _traceback_line(vm, levels, n):
    """Lua's line for level ``n``: where it is, then what it is."""
    level = levels[n]
    code = level.frame.f_code
    where = '\t%s:%d: in ' % (lua_info(code)[0], current_line(level.frame)) if level.lua else '\t[C]: in '
    tail = _tail_called(level)
    after = '\n\t(...tail calls...)' if tail else ''
    global_name = _global_name(vm, function_at(level))
    if global_name is not None:
        return where + "function '%s'" % global_name + after
    named = None if tail else _level_name(levels, n)
    if named is not None:
        return where + "%s '%s'" % (named[1], named[0])
    if not level.lua:
        return where + '?'
    return where + lua_info(code)[2] + after


def traceback(*args):
    thread = _Thread(args)
    msg = thread.arg(0)
    msg = None if msg is ABSENT else msg
    if msg is not None and msg.__class__ not in (str, int, float):
        return (msg,)
    first = opt_int(thread.arg(1), thread.shift + 2, 'traceback', 1 if thread.co is None else 0)
    levels = thread.levels()
    lines = ['stack traceback:']
    vm = state.running.vm
    numbers = list(range(max(first, 0), len(levels)))
    if thread.co is None and vm.coroutine is None and first <= len(levels):
        numbers.append(None)                # the main thread's base: the host's C level, ``[C]: in ?``
    if len(numbers) > _TRACEBACK_HEAD + _TRACEBACK_TAIL + 1:
        # Only the levels shown are described: a stack overflow leaves some
        # 200,000, and naming each one searches the loaded modules.
        # Lua's count leaves out the level its '...' line stands in for.
        skipped = len(numbers) - _TRACEBACK_HEAD - _TRACEBACK_TAIL - 1
        numbers[_TRACEBACK_HEAD:-_TRACEBACK_TAIL] = [_SKIPPED]
    else:
        skipped = 0
    for n in numbers:
        if n is _SKIPPED:
            lines.append('\t...\t(skipping %d levels)' % skipped)
        elif n is None:
            lines.append('\t[C]: in ?')
        else:
            lines.append(_traceback_line(vm, levels, n))
    text = '\n'.join(lines)
    if msg is None:
        return (text,)
    return (ops.tostring_raw(msg) + '\n' + text,)


# ---------------------------------------------------------------- hooks
def sethook(*args):
    thread = _Thread(args)
    fn = thread.arg(0)
    hook = None
    if fn is not None and fn is not ABSENT:
        mask = check_str(thread.arg(1), thread.shift + 2, 'sethook')
        _check_function(fn, thread.shift + 1, 'sethook')
        count = opt_int(thread.arg(2), thread.shift + 3, 'sethook', 0)
        events = ''.join(c for c in 'crl' if c in mask)
        if events or count > 0:
            hook = Hook(fn, events, max(count, 0))
    vm = state.running.vm
    debug_hooks(vm).set(thread.key, hook)
    thread_value = thread.key if thread.key is not None else main_coroutine(vm)
    _hook_table(vm).set(thread_value, hook.fn if hook is not None else None)
    return ()


def gethook(*args):
    thread = _Thread(args)
    hook = debug_hooks(state.running.vm).of(thread.key)
    if hook is None:
        return (None,)
    return (hook.fn, hook.mask, hook.count)


# --------------------------------------------------------------- locals
def _hooked(level):
    hooks = state.running.vm.debug_hooks
    return hooks.hooked_event(level.frame) if hooks is not None else None


def _transfer(level):
    """(index of the first, values) that a hook's call or return event of
    ``level`` transfers, as getinfo's ``r`` and getlocal see them."""
    hooked = _hooked(level)
    if hooked is None:
        return 0, ()
    if level.lua:
        if hooked.event == 'call':
            proto = lua_proto(level.frame.f_code)
            return 1, tuple(read_register(level.frame, local) for local in active_locals(level.frame, 'call'))[
                :proto.numparams]
        if hooked.event == 'return':
            return len(visible_locals(level.frame, 'return')) + 1, hooked.results
        return 0, ()
    stack = c_values(level, ABSENT)
    if hooked.event == 'return':
        results = hooked.results
        if 0 < len(results) <= len(stack) and all(r is s for r, s in zip(results, stack[-len(results):])):
            # Its last arguments returned as they are (select, assert):
            # Lua's C function returns them where they are on its stack.
            return len(stack) - len(results) + 1, results
        return len(stack) + 1, results
    return (1, tuple(stack)) if hooked.event == 'call' else (0, ())


def _event(level):
    hooked = _hooked(level)
    return hooked.event if hooked is not None else None


def getlocal(*args):
    thread = _Thread(args)
    target = thread.arg(0)
    n = check_int(thread.arg(1), thread.shift + 2, 'getlocal')
    if target.__class__ is FunctionType or target.__class__ is Builtin or target.__class__ is GenBuiltin:
        names = parameter_names(target.__code__) if target.__class__ is FunctionType else []
        return (names[n - 1] if 1 <= n <= len(names) else None,)
    level = thread.level(check_int(target, thread.shift + 1, 'getlocal'), 'getlocal')
    frame = level.frame
    if not level.lua:
        # A suspended coroutine's yield has passed its values on.
        stack = c_values(level, ABSENT) if thread.co is None else []
        if 1 <= n <= len(stack):
            return ('(C temporary)', stack[n - 1])
        first, values = _transfer(level)
        if first and first <= n < first + len(values):
            return ('(C temporary)', values[n - first])
        return (None,)
    if n < 0:
        extra = varargs(frame)
        return ('(vararg)', extra[-n - 1]) if -n <= len(extra) else (None,)
    visible = visible_locals(frame, _event(level))
    if 1 <= n <= len(visible):
        local = visible[n - 1]
        return (local.name, read_register(frame, local))
    first, values = _transfer(level)
    if first and first <= n < first + len(values):
        return ('(temporary)', values[n - first])
    return (None,)


def setlocal(*args):
    thread = _Thread(args)
    level = thread.level(check_int(thread.arg(0), thread.shift + 1, 'setlocal'), 'setlocal')
    n = check_int(thread.arg(1), thread.shift + 2, 'setlocal')
    value = thread.arg(2)
    if value is ABSENT:
        arg_error(thread.shift + 3, 'setlocal', 'value expected')
    if not level.lua:
        return (None,)         # a library function's arguments are its own Python values
    frame = level.frame
    if n < 0:
        extra = varargs(frame)
        if -n > len(extra):
            return (None,)
        write_varargs(frame, extra[:-n - 1] + (value,) + extra[-n:])
        return ('(vararg)',)
    visible = visible_locals(frame, _event(level))
    if 1 <= n <= len(visible):
        local = visible[n - 1]
        return (local.name if write_register(frame, local, value) else None,)
    return (None,)


# ----------------------------------------------------------- metatables
def getmetatable(v=ABSENT, *_):
    if v is ABSENT:
        arg_error(1, 'getmetatable', 'value expected')
    return (ops.getmeta(v),)


def setmetatable(v=ABSENT, mt=ABSENT, *_):
    if mt is ABSENT or (mt is not None and mt.__class__ is not LuaTable):
        type_error(2, 'setmetatable', 'nil or table', mt)
    vm = state.running.vm
    c = v.__class__
    if c is LuaTable or c is Userdata:
        v.meta = mt
        if c is LuaTable:
            meta_changed(v)
        collector_of(vm).note_metatable(v, mt)
    elif c is str:
        vm.string_meta = mt
        vm.ns['STRING_LOOKUPS'] = ops.NO_LOOKUPS
    else:
        if v is ABSENT:
            arg_error(1, 'setmetatable', 'value expected')
        vm.type_metas[type_name(v)] = mt
    return (v,)


def getuservalue(u=ABSENT, n=ABSENT, *_):
    opt_int(n, 2, 'getuservalue', 1)
    return (None,)          # no pylua userdata has user values


class _UpvalueIdentity:
    """What upvalueid's light userdata stand for: the box of one upvalue."""
    __slots__ = ('box', '__weakref__')

    def __init__(self, box):
        self.box = box


def setuservalue(u=ABSENT, v=ABSENT, n=ABSENT, *_):
    opt_int(n, 3, 'setuservalue', 1)        # db_setuservalue reads n first
    if u.__class__ is Userdata and u.payload.__class__ is _UpvalueIdentity:
        arg_error(1, 'setuservalue', 'userdata expected, got light userdata')
    if u.__class__ is not Userdata:
        type_error(1, 'setuservalue', 'userdata', u)
    if v is ABSENT:
        arg_error(2, 'setuservalue', 'value expected')
    return (None,)


def make_getregistry(vm):
    def getregistry(*_):
        t = vm.registry.get('table')
        if t is None:
            t = vm.registry['table'] = LuaTable()
            t.set_int(2, vm.globals)
        for key in ('_LOADED', '_PRELOAD', '_HOOKKEY'):
            if key in vm.registry:
                t.set_str(key, vm.registry[key])
        return (t,)
    return getregistry


def _hook_table(vm):
    """The registry's ``_HOOKKEY``: each thread's hook function, weak keys."""
    t = vm.registry.get('_HOOKKEY')
    if t is None:
        t = vm.registry['_HOOKKEY'] = LuaTable()
        mode = LuaTable()
        mode.set_str('__mode', 'k')
        t.meta = mode
        collector_of(vm).note_metatable(t, mode)
    return t


# ------------------------------------------------------------- upvalues
class _Upvalue:
    """A Lua function's n-th upvalue: its name and the Python cell behind it."""

    def __init__(self, fn, n):
        self.fn = fn
        self.name = None
        self.cell = None
        self.kind = None
        self.typed = None
        if fn.__class__ is not FunctionType:
            values = _c_upvalues(fn)
            if 1 <= n <= len(values):
                # A C upvalue: named '', read only here.
                self.name, self.kind, self.value = '', 'c', values[n - 1]
            return
        proto = lua_proto(fn.__code__)
        if proto is None or not 1 <= n <= len(proto.upvals):
            return
        self.name, self.in_stack, self.index, self.kind = proto.upvals[n - 1][:4]
        self.slot = n - 1
        self.typed = proto.typed_upvalues.get(n - 1)    # the class translated code takes it to hold
        if is_stripped(fn.__code__):
            self.name = '(no name)'
        names = fn.__code__.co_freevars
        wanted = fn.__name__ if self.kind == 'self' else 'U%d' % (n - 1)
        if wanted in names:
            self.cell = fn.__closure__[names.index(wanted)]

    def get(self):
        if self.kind == 'c':
            return self.value
        if self.cell is None:
            return None
        v = self.cell.cell_contents
        return v[0] if self.kind == 'cell' else v

    def set(self, v):
        """Assign the upvalue; False, changing nothing, for a value of another
        class than translated code takes it to hold (an integer constant)."""
        if self.typed is not None and v.__class__ is not self.typed:
            return False
        if self.cell is None or self.kind in ('self', 'c'):
            return True
        if self.kind == 'cell':
            self.cell.cell_contents[0] = v
        else:
            old = self.cell.cell_contents
            self.cell.cell_contents = v
            if self.in_stack:
                self._write_through(old, v)
            self._refresh_lookups(v)
        return True

    def _refresh_lookups(self, v):
        """An upvalue read as a table by constant keys (``_ENV`` for globals)
        has its dict held by the function (``EH<n>``, or its bound get
        ``E<n>``, made with the closure): they follow the new value.  A
        value that is no table holds an empty dict, so every read takes
        the full path."""
        names = self.fn.__code__.co_freevars
        hashed = v.hash if v.__class__ is LuaTable else {}
        for name, held in (('EH%d' % self.slot, hashed), ('E%d' % self.slot, hashed.get)):
            if name in names:
                self.fn.__closure__[names.index(name)].cell_contents = held

    def _write_through(self, old, v):
        """A local captured by value (never assigned in its scope) is also
        a register of the running function that made this closure: Lua's
        local and upvalue are one variable, so the register follows."""
        proto = lua_proto(self.fn.__code__)
        for frame in running_lua_frames(sys._getframe(1)):
            parent = lua_proto(frame.f_code)
            if parent is not None and any(child is proto for child in parent.protos):
                local = Local(self.name, self.index, False)
                if read_register(frame, local) is old:
                    write_register(frame, local, v)

    def identity(self):
        if self.cell is None:
            return None
        return self.cell.cell_contents if self.kind == 'cell' else self.cell


def _check_function(f, n, fname):
    if not (f.__class__ is FunctionType or f.__class__ is Builtin or f.__class__ is GenBuiltin):
        type_error(n, fname, 'function', f)
    return f


# ldblib checks an upvalue's index before its function, and setupvalue's value first.
def getupvalue(f=ABSENT, n=ABSENT, *_):
    i = check_int(n, 2, 'getupvalue')
    _check_function(f, 1, 'getupvalue')
    up = _Upvalue(f, i)
    if up.name is None:
        return ()
    return (up.name, up.get())


def setupvalue(f=ABSENT, n=ABSENT, v=ABSENT, *_):
    if v is ABSENT:
        arg_error(3, 'setupvalue', 'value expected')
    i = check_int(n, 2, 'setupvalue')
    _check_function(f, 1, 'setupvalue')
    up = _Upvalue(f, i)
    if up.name is None or up.kind == 'c':
        return ()                       # a host function's upvalues are not settable
    return (up.name,) if up.set(v) else ()


def _join_operand(f, n, argf):
    """ldblib's checkupval for upvaluejoin: the index, the function, then
    whether the function has that upvalue."""
    i = check_int(n, argf + 1, 'upvaluejoin')
    _check_function(f, argf, 'upvaluejoin')
    up = _Upvalue(f, i)
    if up.name is None:
        arg_error(argf + 1, 'upvaluejoin', 'invalid upvalue index')
    return up


def make_upvalue_ids():
    ids = weakref.WeakValueDictionary()

    def upvalueid(f=ABSENT, n=ABSENT, *_):
        i = check_int(n, 2, 'upvalueid')
        _check_function(f, 1, 'upvalueid')
        up = _Upvalue(f, i)
        box = up.identity()
        if box is None and f.__class__ is not FunctionType:
            # A host function's upvalues, as a C function's: the state its Python closure keeps.
            cells = getattr(f.fn, '__closure__', None) or ()
            box = cells[i - 1] if 1 <= i <= len(cells) else None
        if box is None:
            if up.name is None:
                return (None,)
            box = up
        light = ids.get(id(box))
        if light is None or light.payload.box is not box:
            light = ids[id(box)] = Userdata(_UpvalueIdentity(box))
        return (light,)

    def upvaluejoin(f1=ABSENT, n1=ABSENT, f2=ABSENT, n2=ABSENT, *_):
        a = _join_operand(f1, n1, 1)
        b = _join_operand(f2, n2, 3)
        if a.typed is not None and b.get().__class__ is not a.typed:
            return ()                   # translated code takes a's value to be of its class
        if a.kind == 'cell' and b.kind == 'cell' and a.cell is not None and b.cell is not None:
            a.cell.cell_contents = b.cell.cell_contents
        else:
            a.set(b.get())
        return ()

    return upvalueid, upvaluejoin


def setcstacklimit(limit=ABSENT, *_):
    """Deprecated in 5.4.4: the limit cannot be set, and lua_setcstacklimit
    answers LUAI_MAXCCALLS."""
    check_int(limit, 1, 'setcstacklimit')
    return (200,)


def install(vm):
    debug = LuaTable()
    upvalueid, upvaluejoin = make_upvalue_ids()
    for name, fn in (('getinfo', getinfo), ('traceback', traceback), ('sethook', sethook),
                     ('gethook', gethook), ('getlocal', getlocal), ('setlocal', setlocal),
                     ('getmetatable', getmetatable),
                     ('setmetatable', setmetatable), ('getuservalue', getuservalue),
                     ('setuservalue', setuservalue), ('getregistry', make_getregistry(vm)),
                     ('getupvalue', getupvalue), ('setupvalue', setupvalue),
                     ('upvalueid', upvalueid), ('upvaluejoin', upvaluejoin),
                     ('setcstacklimit', setcstacklimit)):
        debug.set_str(name, Builtin(fn, 'debug.' + name))
    vm.globals.set_str('debug', debug)
    return debug
