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
from ..runtime.collector import collector_of
from ..runtime.coroutine import Coroutine
from ..runtime.frames import call_note, lua_info, lua_proto
from ..runtime.hooks import Hook, debug_hooks
from ..runtime.stack import (active_lines, active_locals, current_line, parameter_names, read_register, running_levels,
                             suspended_levels, varargs, write_register, write_varargs)
from ..runtime.table import LuaTable
from ..runtime.values import Builtin, GenBuiltin, Userdata, type_name
from .args import ABSENT, arg_error, check_int, check_str, opt_int, opt_str, type_error

_OPTIONS = frozenset('SlnrutfL')


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

    def levels(self):
        """Its Lua frames, level 1 first."""
        if self.co is None:
            return running_levels(sys._getframe(1), co_rt.resume.__code__)
        if self.co.status == 'suspended' and self.co.gen is not None:
            return suspended_levels(self.co.gen)
        return []

    def frame(self, level, fname):
        """The frame at ``level`` (>= 1), or the 'level out of range' error."""
        levels = self.levels()
        if not 1 <= level <= len(levels):
            arg_error(self.shift + 1, fname, 'level out of range')
        return levels[level - 1]


# ----------------------------------------------------------------- getinfo
def _source_fields(info, chunk, proto):
    if chunk.startswith('[string "') or chunk in ('=stdin', 'stdin', '(command line)'):
        source = chunk if chunk.startswith('[') else '=' + chunk
    else:
        source = '@' + chunk
    info.set_str('source', source)
    info.set_str('short_src', chunk)
    if proto is not None:
        info.set_str('linedefined', proto.line)
        info.set_str('lastlinedefined', proto.end_line)


def _c_info(info, options):
    if 'S' in options:
        for key, value in (('source', '=[C]'), ('short_src', '[C]'), ('what', 'C'),
                           ('linedefined', -1), ('lastlinedefined', -1)):
            info.set_str(key, value)
    if 'l' in options:
        info.set_str('currentline', -1)
    if 'u' in options:
        info.set_str('nups', 0)
        info.set_str('nparams', 0)
        info.set_str('isvararg', True)


def _lua_info(info, options, code, line):
    chunk, lines, what = lua_info(code)
    proto = lua_proto(code)
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
        for n in active_lines(proto) if proto is not None else ():
            if n:
                active.set(n, True)
        info.set_str('activelines', active)


def _name_fields(info, caller):
    info.set_str('namewhat', '')
    note = call_note(caller, lookahead=8) if caller is not None else None
    if not note:
        return
    kind, _, quoted = note.partition(" '")
    name = quoted.rstrip("'")
    namewhat = kind if kind in ('global', 'local', 'method', 'field', 'upvalue', 'constant') else ''
    if kind == 'for iterator':
        namewhat, name = 'for iterator', 'for iterator'
    elif kind == 'metamethod':
        namewhat = 'metamethod'
    if namewhat:
        info.set_str('name', name)
        info.set_str('namewhat', namewhat)


def getinfo(*args):
    thread = _Thread(args)
    target = thread.arg(0)
    fname = 'getinfo'
    what = opt_str(thread.arg(1), thread.shift + 2, fname, 'flnSrtu')
    if what.startswith('>'):
        arg_error(thread.shift + 2, fname, "invalid option '>'")
    if not set(what) <= _OPTIONS:
        arg_error(thread.shift + 2, fname, 'invalid option')
    info = LuaTable()
    if target.__class__ in (int, float):
        level = check_int(target, thread.shift + 1, fname)
        if level < 0:
            return (None,)
        if level == 0:
            _c_info(info, what)
            if 'n' in what:
                if thread.co is None:
                    info.set_str('name', 'getinfo')
                    info.set_str('namewhat', 'field')
                else:
                    info.set_str('name', 'yield')
                    info.set_str('namewhat', 'field')
            if 'f' in what:
                info.set_str('func', state.running.vm.globals.get('debug').get('getinfo'))
            return (info,)
        levels = thread.levels()
        if level > len(levels):
            return (None,)
        frame = levels[level - 1]
        _lua_info(info, what, frame.f_code, current_line(frame))
        if 'n' in what:
            _name_fields(info, levels[level] if level < len(levels) else None)
        if 't' in what:
            info.set_str('istailcall', False)
        return (info,)
    if not (target.__class__ is FunctionType or target.__class__ is Builtin or target.__class__ is GenBuiltin):
        arg_error(thread.shift + 1, fname, 'function or level expected')
    if target.__class__ is FunctionType and lua_info(target.__code__) is not None:
        _lua_info(info, what.replace('l', ''), target.__code__, -1)
        if 'l' in what:
            info.set_str('currentline', -1)
    else:
        _c_info(info, what)
    if 'n' in what:
        info.set_str('namewhat', '')
    if 'f' in what:
        info.set_str('func', target)
    if 't' in what:
        info.set_str('istailcall', False)
    return (info,)


def traceback(*args):
    thread = _Thread(args)
    msg = thread.arg(0)
    msg = None if msg is ABSENT else msg
    if msg is not None and msg.__class__ not in (str, int, float):
        return (msg,)
    level = opt_int(thread.arg(1), thread.shift + 2, 'traceback', 1 if thread.co is None else 0)
    lines = ['stack traceback:']
    if thread.co is not None and level == 0 and thread.levels():
        lines.append("\t[C]: in function 'coroutine.yield'")
    for frame in thread.levels()[max(level - 1, 0):]:
        chunk, _, what = lua_info(frame.f_code)
        lines.append('\t%s:%d: in %s' % (chunk, current_line(frame), what))
    if thread.co is None:
        lines.append('\t[C]: in ?')
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
    debug_hooks(state.running.vm).set(thread.key, hook)
    return ()


def gethook(*args):
    thread = _Thread(args)
    hook = debug_hooks(state.running.vm).of(thread.key)
    if hook is None:
        return (None,)
    return (hook.fn, hook.mask, hook.count)


# --------------------------------------------------------------- locals
def _hook_event(frame):
    hooks = state.running.vm.debug_hooks
    return hooks.event_of(frame) if hooks is not None else None


def getlocal(*args):
    thread = _Thread(args)
    target = thread.arg(0)
    n = check_int(thread.arg(1), thread.shift + 2, 'getlocal')
    if target.__class__ is FunctionType or target.__class__ is Builtin or target.__class__ is GenBuiltin:
        names = parameter_names(target.__code__) if target.__class__ is FunctionType else []
        return (names[n - 1] if 1 <= n <= len(names) else None,)
    level = check_int(target, thread.shift + 1, 'getlocal')
    if level == 0 and thread.co is None:
        own = (level, n)           # getlocal's own arguments, as a C function's stack
        return ('(C temporary)', own[n - 1]) if 1 <= n <= len(own) else (None,)
    frame = thread.frame(level, 'getlocal')
    if n < 0:
        extra = varargs(frame)
        return ('(vararg)', extra[-n - 1]) if -n <= len(extra) else (None,)
    visible = active_locals(frame, _hook_event(frame))
    if 1 <= n <= len(visible):
        local = visible[n - 1]
        return (local.name, read_register(frame, local))
    return (None,)


def setlocal(*args):
    thread = _Thread(args)
    level = check_int(thread.arg(0), thread.shift + 1, 'setlocal')
    n = check_int(thread.arg(1), thread.shift + 2, 'setlocal')
    value = thread.arg(2)
    if value is ABSENT:
        arg_error(thread.shift + 3, 'setlocal', 'value expected')
    frame = thread.frame(level, 'setlocal')
    if n < 0:
        extra = varargs(frame)
        if -n > len(extra):
            return (None,)
        write_varargs(frame, extra[:-n - 1] + (value,) + extra[-n:])
        return ('(vararg)',)
    visible = active_locals(frame, _hook_event(frame))
    if 1 <= n <= len(visible):
        local = visible[n - 1]
        write_register(frame, local, value)
        return (local.name,)
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
        collector_of(vm).note_metatable(v, mt)
    elif c is str:
        vm.string_meta = mt
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
    if u.__class__ is Userdata and u.payload.__class__ is _UpvalueIdentity:
        arg_error(1, 'setuservalue', 'userdata expected, got light userdata')
    if u.__class__ is not Userdata:
        type_error(1, 'setuservalue', 'userdata', u)
    if v is ABSENT:
        arg_error(2, 'setuservalue', 'value expected')
    opt_int(n, 3, 'setuservalue', 1)
    return (None,)


def make_getregistry(vm):
    def getregistry(*_):
        t = vm.registry.get('table')
        if t is None:
            t = vm.registry['table'] = LuaTable()
            t.set_int(2, vm.globals)
            for key in ('_LOADED', '_PRELOAD'):
                if key in vm.registry:
                    t.set_str(key, vm.registry[key])
        return (t,)
    return getregistry


# ------------------------------------------------------------- upvalues
class _Upvalue:
    """A Lua function's n-th upvalue: its name and the Python cell behind it."""

    def __init__(self, fn, n):
        self.fn = fn
        self.name = None
        self.cell = None
        self.kind = None
        proto = lua_proto(fn.__code__) if fn.__class__ is FunctionType else None
        if proto is None or not 1 <= n <= len(proto.upvals):
            return
        self.name, _, _, self.kind = proto.upvals[n - 1][:4]
        names = fn.__code__.co_freevars
        wanted = fn.__name__ if self.kind == 'self' else 'U%d' % (n - 1)
        if wanted in names:
            self.cell = fn.__closure__[names.index(wanted)]

    def get(self):
        if self.cell is None:
            return None
        v = self.cell.cell_contents
        return v[0] if self.kind == 'cell' else v

    def set(self, v):
        if self.cell is None or self.kind == 'self':
            return
        if self.kind == 'cell':
            self.cell.cell_contents[0] = v
        else:
            self.cell.cell_contents = v
            names = self.fn.__code__.co_freevars
            # A function caches its _ENV's field lookup: it follows the new value.
            if self.name == '_ENV' and 'E0' in names:
                hashed = v.hash if v.__class__ is LuaTable else {}
                self.fn.__closure__[names.index('E0')].cell_contents = hashed.get

    def identity(self):
        if self.cell is None:
            return None
        return self.cell.cell_contents if self.kind == 'cell' else self.cell


def _check_function(f, n, fname):
    if not (f.__class__ is FunctionType or f.__class__ is Builtin or f.__class__ is GenBuiltin):
        type_error(n, fname, 'function', f)
    return f


def getupvalue(f=ABSENT, n=ABSENT, *_):
    _check_function(f, 1, 'getupvalue')
    up = _Upvalue(f, check_int(n, 2, 'getupvalue'))
    if up.name is None:
        return ()
    return (up.name, up.get())


def setupvalue(f=ABSENT, n=ABSENT, v=ABSENT, *_):
    _check_function(f, 1, 'setupvalue')
    i = check_int(n, 2, 'setupvalue')
    if v is ABSENT:
        arg_error(3, 'setupvalue', 'value expected')
    up = _Upvalue(f, i)
    if up.name is None:
        return ()
    up.set(v)
    return (up.name,)


def make_upvalue_ids():
    ids = weakref.WeakValueDictionary()

    def upvalueid(f=ABSENT, n=ABSENT, *_):
        _check_function(f, 1, 'upvalueid')
        i = check_int(n, 2, 'upvalueid')
        up = _Upvalue(f, i)
        box = up.identity()
        if box is None:
            if up.name is None:
                return (None,)
            box = up
        light = ids.get(id(box))
        if light is None or light.payload.box is not box:
            light = ids[id(box)] = Userdata(_UpvalueIdentity(box))
        return (light,)

    def upvaluejoin(f1=ABSENT, n1=ABSENT, f2=ABSENT, n2=ABSENT, *_):
        _check_function(f1, 1, 'upvaluejoin')
        _check_function(f2, 3, 'upvaluejoin')
        a = _Upvalue(f1, check_int(n1, 2, 'upvaluejoin'))
        b = _Upvalue(f2, check_int(n2, 4, 'upvaluejoin'))
        if a.name is None:
            arg_error(2, 'upvaluejoin', 'invalid upvalue index')
        if b.name is None:
            arg_error(4, 'upvaluejoin', 'invalid upvalue index')
        if a.kind == 'cell' and b.kind == 'cell' and a.cell is not None and b.cell is not None:
            a.cell.cell_contents = b.cell.cell_contents
        else:
            a.set(b.get())
        return ()

    return upvalueid, upvaluejoin


def install(vm):
    debug = LuaTable()
    upvalueid, upvaluejoin = make_upvalue_ids()
    for name, fn in (('getinfo', getinfo), ('traceback', traceback), ('sethook', sethook),
                     ('gethook', gethook), ('getlocal', getlocal), ('setlocal', setlocal),
                     ('getmetatable', getmetatable),
                     ('setmetatable', setmetatable), ('getuservalue', getuservalue),
                     ('setuservalue', setuservalue), ('getregistry', make_getregistry(vm)),
                     ('getupvalue', getupvalue), ('setupvalue', setupvalue),
                     ('upvalueid', upvalueid), ('upvaluejoin', upvaluejoin)):
        debug.set_str(name, Builtin(fn, 'debug.' + name))
    vm.globals.set_str('debug', debug)
    return debug
