"""The basic library: the global functions of Lua 5.4 (sandbox subset)."""
from __future__ import annotations

from ..runtime import ops, state
from ..runtime.closing import CATCHABLE, has_pending
from ..runtime.collector import collector_of
from ..runtime.errors import LuaError, LuaInterrupt, LuaMemoryError, LuaSyntaxError, out_of_memory
from ..runtime.frames import level_position, rt_error
from ..runtime.protected import error_value, settle, settled_plainly
from ..runtime.stack import handling
from ..runtime.numbers import U64, str2number, wrap
from ..runtime.table import LuaTable, meta_changed, share_class_lookups
from ..runtime.values import NEEDS_LUA, Builtin, GenBuiltin, is_function, type_name
from .args import ABSENT, arg_error, check_any, check_int, check_table, opt_int, opt_str, type_error


def _truthy(v):
    return v is not None and v is not False


# ------------------------------------------------------------------ errors
def lua_assert(v=ABSENT, *rest):
    if v is ABSENT:
        arg_error(1, 'assert', 'value expected')
    if _truthy(v):
        return (v,) + rest
    # As Lua: the message (default 'assertion failed!') is raised like error(msg).
    lua_error(rest[0] if rest else 'assertion failed!')


def lua_error(msg=None, level=None, *_):
    level = 1 if level is None or level is ABSENT else check_int(level, 2, 'error')
    if msg.__class__ is str and level > 0:
        msg = level_position(level) + msg
    raise LuaError(msg)


def pcall(f=ABSENT, *args):
    check_any(f, 1, 'pcall')
    try:
        r = yield from ops.nested_call(f, args)
    except LuaInterrupt:
        raise
    except CATCHABLE as e:
        # No local keeps the settled error: the error's traceback holds this
        # frame, and the cycle left every frame it unwound (200,000 in a
        # stack overflow) to one long collection of Python's.
        if not has_pending(e):
            return (False, settled_plainly(e))
        return (False, (yield from settle(e)).value)
    return (True,) + tuple(r)


def _protected_plainly(f, args, report):
    """The plain forms' protected call of ``f``, where nothing can suspend
    it (``ops.runs_plainly``; else ``NEEDS_LUA``, for the generator form):
    without the generators of the latter and of ``nested_call`` (4 us a
    call against 1.3).  ``(True, results...)``, or ``(False, report(error))``."""
    vm = state.running.vm
    if not ops.runs_plainly(vm):
        raise NEEDS_LUA
    try:
        r = ops.nested_call_plainly(vm, f, args)
    except LuaInterrupt:
        raise
    except CATCHABLE as e:
        return (False, report(e))
    return (True,) + tuple(r)


def _settled(e):
    return settled_plainly(e) if not has_pending(e) else ops.sync(settle(e)).value


def pcall_plain(f=ABSENT, *args):
    if f is ABSENT:
        check_any(f, 1, 'pcall')
    return _protected_plainly(f, args, _settled)


# luaE_checkcstack's LUA_ERRERR: LUAI_MAXCCALLS / 10 * 11 levels, in pylua's count
_ERRERR_CALLS = state.C_CALLS_MAX + 20


def _message_handler(handler):
    """``settle``'s handling of an error for ``xpcall``'s ``handler``."""
    def handle(exc):
        # luaG_errormsg calls the handler with luaD_callnoyield: a C level
        # more, and no yields.  An error in the handler goes to the handler
        # again, a level deeper (at the C stack's limit itself that call is
        # a 'C stack overflow' instead), until luaE_checkcstack gives up
        # at a tenth more levels (LUA_ERRERR).
        vm = state.running.vm
        base = level = vm.c_calls
        value = error_value(exc)
        if out_of_memory(exc):
            return value              # luaD_throw of LUA_ERRMEM runs no handler
        # As at the error: the frames it left are levels of the stack.
        with handling(exc.__traceback__):
            try:
                while True:
                    level += 1
                    if level >= _ERRERR_CALLS:
                        return 'error in error handling'
                    if level == state.C_CALLS_MAX:
                        value = 'C stack overflow'
                        continue
                    vm.c_calls = level
                    try:
                        # Named as Lua names it: by what raised the error.
                        h = ops.call_noyield(handler, (value,), ops.failed_operation_note(exc.__traceback__))
                    except LuaInterrupt:
                        raise
                    except CATCHABLE as failed:
                        # the handler's own <close> variables close first
                        value = (yield from settle(failed)).value
                        if out_of_memory(failed):
                            return value      # nor again for the handler's own
                        exc = failed
                        continue
                    return h[0] if h else None
            finally:
                vm.c_calls = base
    return handle


def xpcall(f=ABSENT, handler=ABSENT, *args):
    if not is_function(handler):
        type_error(2, 'xpcall', 'function', handler)
    try:
        r = yield from ops.nested_call(f, args)
    except LuaInterrupt:
        raise
    except CATCHABLE as e:
        return (False, (yield from settle(e, _message_handler(handler))).value)     # no local keeps it, as in pcall
    return (True,) + tuple(r)


def xpcall_plain(f=ABSENT, handler=ABSENT, *args):
    if not is_function(handler):
        type_error(2, 'xpcall', 'function', handler)
    return _protected_plainly(f, args, lambda e: ops.sync(settle(e, _message_handler(handler))).value)


# ------------------------------------------------------------ metatables
def getmetatable(v=ABSENT, *_):
    check_any(v, 1, 'getmetatable')
    mt = ops.getmeta(v)
    if mt is None:
        return (None,)
    protected = mt.hash.get('__metatable')
    return (protected if protected is not None else mt,)


def setmetatable(t=ABSENT, mt=ABSENT, *_):
    if t.__class__ is LuaTable and t.meta is None and mt.__class__ is LuaTable and t.hash.__class__ is dict:
        # An object getting its class: nothing to check, notify or collect.
        hash = mt.hash
        if '__gc' not in hash and '__mode' not in hash:
            t.meta = mt
            if hash.__class__ is dict and '__index' in hash:
                share_class_lookups(mt)
            return (t,)
    check_table(t, 1, 'setmetatable')
    if mt is ABSENT or (mt is not None and mt.__class__ is not LuaTable):
        type_error(2, 'setmetatable', 'nil or table', mt)
    if t.meta is not None and t.meta.hash.get('__metatable') is not None:
        rt_error('cannot change a protected metatable')
    t.meta = mt
    meta_changed(t)
    if mt is not None and (mt.hash.get('__gc') is not None or mt.hash.get('__mode') is not None):
        collector_of(state.running.vm).note_metatable(t, mt)
    return (t,)


# ------------------------------------------------------------ raw access
def rawequal(a=ABSENT, b=ABSENT, *_):
    check_any(a, 1, 'rawequal')
    check_any(b, 2, 'rawequal')
    return (ops.raw_equal(a, b),)


def rawlen(v=ABSENT, *_):
    if v.__class__ is LuaTable:
        return (v.length(),)
    if v.__class__ is str:
        return (len(v),)
    type_error(1, 'rawlen', 'table or string', v)


def rawget(t=ABSENT, k=ABSENT, *_):
    check_table(t, 1, 'rawget')
    check_any(k, 2, 'rawget')
    return (t.get(k),)


def rawset(t=ABSENT, k=ABSENT, v=ABSENT, *_):
    check_table(t, 1, 'rawset')
    check_any(k, 2, 'rawset')
    check_any(v, 3, 'rawset')
    t.set(k, v)
    return (t,)


# ------------------------------------------------------------- iteration
def lua_next(t=ABSENT, k=None, *_):
    check_table(t, 1, 'next')
    r = t.next(None if k is ABSENT else k)
    return (None,) if r is None else r


def pairs(t=ABSENT, *_):
    h = ops.metamethod(t, '__pairs') if t is not ABSENT else None
    if h is not None:
        r = yield from ops.nested_call(h, (t,))
        return ops.adjust(r, 3)
    check_any(t, 1, 'pairs')
    return (NEXT, t, None)      # as lua5.4: next reports a non-table


def ipairs_step(t=ABSENT, i=ABSENT, *_):
    if i.__class__ is not int:             # only a for loop's own control variable is sure to be one
        i = check_int(i, 2, INEXT.name)
    i = wrap(i + 1)
    if t.__class__ is LuaTable:
        v = t.get_int(i)
        if v is None and t.meta is not None:
            v = yield from ops.from_c(ops.index_miss(t, i))       # lua_geti
    else:
        v = yield from ops.from_c(ops.index(t, i))
    return (None,) if v is None else (i, v)


def ipairs(t=ABSENT, *_):
    check_any(t, 1, 'ipairs')
    return (INEXT, t, 0)


def select(n=ABSENT, *args):
    if n.__class__ is int and n > 0:            # select(i, ...) of a varargs loop
        return args[n - 1:]
    if n.__class__ is str and n[:1] == '#':     # luaB_select reads the first character only
        return (len(args),)
    i = check_int(n, 1, 'select')
    if i < 0:
        i = len(args) + i
        if i < 0:
            arg_error(1, 'select', 'index out of range')
        return args[i:]
    if i == 0:
        arg_error(1, 'select', 'index out of range')
    return args[i - 1:]


# ------------------------------------------------------------ conversions
def lua_type(v=ABSENT, *_):
    if v is ABSENT:
        arg_error(1, 'type', 'value expected')
    return (type_name(v),)


def lua_tostring(v=ABSENT, *_):
    check_any(v, 1, 'tostring')
    return ((yield from ops.tostring(v)),)


def tostring_fast(v=ABSENT, *_):
    """tostring without a generator when no ``__tostring`` runs, or when
    nothing can suspend the one that does."""
    if v is not ABSENT:
        h = ops.metamethod(v, '__tostring')
        if h is None:
            return (ops.tostring_raw(v),)
        vm = state.running.vm
        if ops.runs_plainly(vm):
            return (ops.tostring_plainly(vm, v, h),)
    raise NEEDS_LUA


# int() takes time quadratic in the digits of a piece (and refuses more than 4,300).
_DIGITS_PER_PIECE = 500
_U64_RANGE = 1 << 64
_DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'     # in code point order


def tonumber(v=ABSENT, base=ABSENT, *_):
    if base is ABSENT or base is None:
        check_any(v, 1, 'tonumber')
        c = v.__class__
        if c is int or c is float:
            return (v,)
        if c is str:
            if len(v) > 1024:
                state.running.vm.work(len(v))
            return (str2number(v),)
        return (None,)
    b = check_int(base, 2, 'tonumber')
    if v.__class__ is not str:
        type_error(1, 'tonumber', 'string', v)
    if not 2 <= b <= 36:
        arg_error(2, 'tonumber', 'base out of range')
    s = v.strip(' \t\n\v\f\r').lower()
    neg = s.startswith('-')
    if neg or s.startswith('+'):
        s = s[1:]
    if not s:
        return (None,)
    if len(s) > 1024:
        state.running.vm.work(len(s))
    if not (s.isascii() and s.isalnum()) or max(s) > _DIGITS[b - 1]:
        return (None,)
    n = 0
    # Pieces short enough for int() to read fast, so linear time overall;
    # Lua wraps around, so the arithmetic is modulo 2^64.
    for k in range(0, len(s), _DIGITS_PER_PIECE):
        piece = s[k:k + _DIGITS_PER_PIECE]
        n = (n * pow(b, len(piece), _U64_RANGE) + int(piece, b)) & U64
    return (wrap(-n if neg else n),)


# ----------------------------------------------------------------- output
def lua_print(*args):
    vm = state.running.vm
    parts = []
    try:
        for v in args:
            parts.append((yield from ops.tostring(v)))
    except CATCHABLE:
        # Lua's print writes each value as it converts it: those before the error are out.
        vm.write_stdout('\t'.join(parts).encode('latin-1'))
        raise
    line = '\t'.join(parts) + '\n'
    vm.write_stdout(line.encode('latin-1'), flush=True)
    return ()


# ----------------------------------------------------------------- load
def load_text(vm, text, chunkname, mode, env, c_levels=2, from_file=False):
    """A chunk's function with ``_ENV = env``, or (None, message) as load
    reports it; ``c_levels``, those lua5.4 has open in lua.c's main chunk
    calling the loading function (pmain, the chunk's call), as C levels
    count how deeply the chunk may nest; ``from_file``: the text was read
    from a file (such chunks may be stored compiled: ``chunk_store``)."""
    from ..compiler.pipeline import compile_lua, display_name, load_into
    if text.startswith('\x1b'):          # as lua5.4, the signature's first byte marks a binary chunk
        if 'b' not in mode:
            return (None, "attempt to load a binary chunk (mode is '%s')" % mode)
        from .strdump import undump
        return undump(vm, text, chunkname, env)
    if 't' not in mode:
        return (None, "attempt to load a text chunk (mode is '%s')" % mode)
    try:
        compiled = compile_lua(text, display_name(chunkname), chunkname, vm.c_calls + c_levels, from_file)
    except LuaSyntaxError as e:
        return (None, e.value)
    except (LuaMemoryError, MemoryError):
        return (None, 'not enough memory')     # lua_load reports LUA_ERRMEM as any failure
    return (load_into(vm, compiled, env),)


def make_load(vm):
    def load(chunk=ABSENT, chunkname=ABSENT, mode=ABSENT, env=ABSENT, *_):
        # luaB_load checks the mode, then the chunk name, then the chunk.
        m = opt_str(mode, 3, 'load', 'bt')
        c = chunk.__class__
        if c is str or c is int or c is float:
            text = ops.tostring_raw(chunk)
            name = opt_str(chunkname, 2, 'load', text)
        else:
            name = opt_str(chunkname, 2, 'load', '=(load)')
            if not is_function(chunk):
                type_error(1, 'load', 'function', chunk)
            pieces = []
            while True:
                try:
                    r = yield from ops.nested_call(chunk, (), continuation=False)     # lua_load's reader
                except LuaInterrupt:
                    raise
                except LuaError as e:
                    return (None, (yield from settle(e)).value)     # no local keeps it, as in pcall
                piece = r[0] if r else None
                if piece is None or piece == '':
                    break
                if piece.__class__ in (int, float):
                    piece = ops.tostring_raw(piece)
                elif piece.__class__ is not str:
                    return (None, 'reader function must return a string')
                pieces.append(piece)
            text = ''.join(pieces)
        return load_text(vm, text, name, m, vm.globals if env is ABSENT else env)

    return load


_GC_OPTIONS = ('stop', 'restart', 'collect', 'count', 'step', 'setpause', 'setstepmul',
               'isrunning', 'generational', 'incremental')
# The work of a basic (size 0) incremental step, in KB (lgc.c's GCSTEPSIZE).
_BASIC_STEP_KB = 8


def make_collectgarbage(vm):
    from ..runtime import memory

    def collectgarbage(opt='collect', *args):
        opt = opt_str(opt, 1, 'collectgarbage', 'collect')
        if opt not in _GC_OPTIONS:
            arg_error(1, 'collectgarbage', "invalid option '%s'" % opt)
        gc = collector_of(vm)
        if gc.finalizing:
            return (None,)       # as lua_gc: no option works while a finalizer runs
        if opt == 'count':
            return (memory.count(vm, gc.running, gc.params['pause']) / 1024.0,)
        if opt == 'step':
            size = opt_int(args[0] if args else None, 2, 'collectgarbage', 0)
            if gc.mode != 'incremental':
                # A minor collection: the count is measured again when
                # allocations make it due, not at every step (a walk of the
                # heap: 100 ms with 100,000 tables alive, at every frame of
                # a game calling it each frame).
                gc.collect()
                memory.count(vm, gc.running, gc.params['pause'])
                return (False,)
            # A step does a share of a cycle, as much work as allocating its
            # size in KB (times stepmul): the shares add up, and once they
            # reach the heap's size the cycle, a full collection here, is done.
            gc.step_credit += (size if size > 0 else _BASIC_STEP_KB) * gc.params['stepmul'] / 100
            if gc.step_credit < memory.count(vm, gc.running, gc.params['pause']) / 1024.0:
                return (False,)
        if opt in ('collect', 'step'):
            gc.step_credit = 0.0          # a cycle done: the next steps start another
            gc.collect()
            memory.measure(vm)
            return (0,) if opt == 'collect' else (True,)
        if opt == 'isrunning':
            return (gc.running,)
        if opt in ('stop', 'restart'):
            gc.running = opt == 'restart'
            return (0,)
        if opt in ('setpause', 'setstepmul'):
            key = opt[3:]
            previous = gc.params[key]
            gc.params[key] = opt_int(args[0] if args else None, 2, 'collectgarbage', 0)
            return (previous,)
        previous, gc.mode = gc.mode, opt
        return (previous,)

    return collectgarbage


NEXT = Builtin(lua_next, 'next')
INEXT = GenBuiltin(ipairs_step, '?')      # no library table holds it: Lua names it '?'
ops.NEXT = NEXT
ops.INEXT = INEXT


def make(vm) -> LuaTable:
    """Install the basic functions into ``vm.globals`` and return it."""
    g = vm.globals
    plain = {'assert': lua_assert, 'error': lua_error, 'getmetatable': getmetatable,
             'setmetatable': setmetatable, 'rawequal': rawequal, 'rawlen': rawlen,
             'rawget': rawget, 'rawset': rawset, 'ipairs': ipairs, 'select': select,
             'type': lua_type, 'tonumber': tonumber,
             'collectgarbage': make_collectgarbage(vm)}
    gens = {'pairs': pairs,
            'print': lua_print, 'load': make_load(vm)}
    for name, fn in plain.items():
        g.set_str(name, Builtin(fn, name))
    for name, fn in gens.items():
        g.set_str(name, GenBuiltin(fn, name))
    g.set_str('next', NEXT)
    g.set_str('pcall', Builtin(pcall_plain, 'pcall', gen=pcall))
    g.set_str('xpcall', Builtin(xpcall_plain, 'xpcall', gen=xpcall))
    g.set_str('tostring', Builtin(tostring_fast, 'tostring', gen=lua_tostring))
    g.set_str('_G', g)
    g.set_str('_VERSION', 'Lua 5.4')
    return g
