"""The debug library (standalone profile), as far as translated code allows:
``getinfo`` (levels count Lua functions only), ``traceback``,
``getmetatable``/``setmetatable`` for every type, ``getuservalue``/
``setuservalue`` (pylua's userdata have no user values), ``getregistry``,
and the upvalue functions ``getupvalue``/``setupvalue``/``upvalueid``/
``upvaluejoin`` over the closures' cells.  Hooks and locals
(``sethook``/``gethook``/``getlocal``/``setlocal``) are not available."""
from __future__ import annotations

import weakref
from types import FunctionType

from ..runtime import ops, state
from ..runtime.collector import collector_of
from ..runtime.coroutine import Coroutine
from ..runtime.frames import call_note, lua_frames, lua_info, lua_proto
from ..runtime.table import LuaTable, meta_changed
from ..runtime.values import Builtin, GenBuiltin, Userdata, type_name
from .args import ABSENT, arg_error, check_int, opt_int, opt_str, type_error

_OPTIONS = frozenset('SlnrutfL')


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
        first = proto.line if proto is not None and not main else 0
        for n in set(lines):
            if n and n > first:
                active.set(n, True)
        info.set_str('activelines', active)


def _name_fields(info, caller):
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
    if args and args[0].__class__ is Coroutine:
        args = args[1:]         # another coroutine's stack is not visible: its levels are ours
    target = args[0] if args else ABSENT
    what = opt_str(args[1] if len(args) > 1 else ABSENT, 2, 'getinfo', 'flnSrtu')
    if what.startswith('>'):
        arg_error(2, 'getinfo', "invalid option '>'")
    if not set(what) <= _OPTIONS:
        arg_error(2, 'getinfo', 'invalid option')
    info = LuaTable()
    if target.__class__ in (int, float):
        level = check_int(target, 1, 'getinfo')
        if level < 0:
            return (None,)
        if level == 0:
            _c_info(info, what)
            if 'n' in what:
                info.set_str('name', 'getinfo')
                info.set_str('namewhat', 'field')
            if 'f' in what:
                info.set_str('func', state.running.vm.globals.get('debug').get('getinfo'))
            return (info,)
        frames = list(lua_frames())
        if level > len(frames):
            return (None,)
        frame, _, line, _ = frames[level - 1]
        _lua_info(info, what, frame.f_code, line)
        if 'n' in what:
            _name_fields(info, frames[level][0] if level < len(frames) else None)
        if 't' in what:
            info.set_str('istailcall', False)
        return (info,)
    if not (target.__class__ is FunctionType or target.__class__ is Builtin or target.__class__ is GenBuiltin):
        arg_error(1, 'getinfo', 'function or level expected')
    if target.__class__ is FunctionType and lua_info(target.__code__) is not None:
        _lua_info(info, what.replace('l', ''), target.__code__, -1)
        if 'l' in what:
            info.set_str('currentline', -1)
    else:
        _c_info(info, what)
    if 'f' in what:
        info.set_str('func', target)
    if 't' in what:
        info.set_str('istailcall', False)
    return (info,)


def traceback(*args):
    if args and args[0].__class__ is Coroutine:
        args = args[1:]
    msg = args[0] if args else None
    if msg is not None and msg.__class__ not in (str, int, float):
        return (msg,)
    level = opt_int(args[1] if len(args) > 1 else ABSENT, 2, 'traceback', 1)
    lines = ['stack traceback:']
    for _, chunk, line, what in list(lua_frames())[max(level - 1, 0):]:
        lines.append('\t%s:%d: in %s' % (chunk, line, what))
    lines.append('\t[C]: in ?')
    text = '\n'.join(lines)
    if msg is None:
        return (text,)
    return (ops.tostring_raw(msg) + '\n' + text,)


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
    for name, fn in (('getinfo', getinfo), ('traceback', traceback), ('getmetatable', getmetatable),
                     ('setmetatable', setmetatable), ('getuservalue', getuservalue),
                     ('setuservalue', setuservalue), ('getregistry', make_getregistry(vm)),
                     ('getupvalue', getupvalue), ('setupvalue', setupvalue),
                     ('upvalueid', upvalueid), ('upvaluejoin', upvaluejoin)):
        debug.set_str(name, Builtin(fn, 'debug.' + name))
    vm.globals.set_str('debug', debug)
    return debug
