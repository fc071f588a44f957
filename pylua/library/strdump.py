"""``string.dump`` (standalone profile) and loading its binary chunks.

pylua's binary format is its own after Lua 5.4's header (signature
``\\x1bLua``, version, format, the conversion check data, the sizes of an
instruction, an integer and a float, and the integer 0x5678 and float 370.5
that check their encoding) and ``pylua\\0``: the function's place in its
chunk, the chunk's name and the chunk's source, each of the last two after
its length.  Loading compiles the chunk (cached) and builds that one
function: its first upvalue is the environment, the others nil, as Lua's
``load`` does for a dumped function.  A stripped dump loads as a
function without line information (positions read ``?:-1:``).
"""
from __future__ import annotations

import struct
from types import FunctionType

from ..runtime.frames import chunk_source, lua_info, lua_proto, rt_error, strip_debug_info
from ..runtime.values import Builtin, is_function
from .args import ABSENT, type_error

SIGNATURE = '\x1bLua'
# lua5.4's own header (lundump.c's checkHeader), then pylua's mark.
HEADER = (SIGNATURE + '\x54\x00\x19\x93\r\n\x1a\n\x04\x08\x08'
          + struct.pack('<qd', 0x5678, 370.5).decode('latin-1') + 'pylua\x00')


def dump(f=ABSENT, strip=None, *_):
    if not is_function(f):
        type_error(1, 'dump', 'function', f)
    code = f.__code__ if f.__class__ is FunctionType else None     # built-ins cannot be dumped
    source = chunk_source(code) if code is not None else None
    info = lua_info(code) if code is not None else None
    if source is None or info is None or lua_proto(code) is None:
        rt_error('unable to dump given function')
    chunkname = '?' if strip is not None and strip is not False and strip is not ABSENT else info[0]
    index = code.co_name.rpartition('_')[2]
    return (HEADER + '%s\x00%d\x00%s%d\x00%s' % (index, len(chunkname), chunkname, len(source), source),)


class BadChunk(Exception):
    pass


def _parse(text):
    if not text.startswith(HEADER):
        raise BadChunk('version mismatch' if len(text) > len(HEADER) else 'truncated chunk')
    try:
        index, size, rest = text[len(HEADER):].split('\x00', 2)
        size = int(size)
        name, rest = rest[:size], rest[size:]
        length, _, source = rest.partition('\x00')
        if len(name) < size or len(source) < int(length) or not index.isdigit():
            raise ValueError
    except ValueError:
        raise BadChunk('truncated chunk') from None
    return int(index), name, source[:int(length)]


def undump(vm, text, chunkname, env):
    """The function of a binary chunk, or (None, message) as load reports it."""
    from ..compiler.pipeline import chunk_factory, compile_lua, load_into
    from ..runtime.errors import LuaSyntaxError
    name = chunkname[1:] if chunkname[:1] in ('@', '=') else \
        'binary string' if chunkname.startswith(SIGNATURE) else chunkname
    try:
        index, original_name, source = _parse(text)
        compiled = compile_lua(source, original_name)
        if original_name == '?':        # stripped: no line information
            strip_debug_info(original_name, compiled.module_code)
    except BadChunk as e:
        return (None, '%s: bad binary format (%s)' % (name, e))
    except LuaSyntaxError:
        return (None, '%s: bad binary format (corrupted chunk)' % name)
    main = load_into(vm, compiled, env)
    if index == 0:
        return (main,)
    prefix = compiled.main_factory.rpartition('_')[0]
    factory = _find_factory(chunk_factory(vm, compiled), '%s_%d' % (prefix, index))
    if factory is None:
        return (None, '%s: bad binary format (corrupted chunk)' % name)
    proto = lua_proto(_plain_code(factory))
    args = []
    for i, (_, _, _, kind) in enumerate(proto.upvals):
        if kind == 'self':
            continue
        value = env if i == 0 else None
        args.append([value] if kind == 'cell' else value)
    return (factory(*args),)


def _find_factory(main_factory, wanted):
    """The factory named ``wanted`` among those reachable from the main one's cells."""
    seen = set()
    stack = [main_factory]
    while stack:
        fn = stack.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        if fn.__name__ == wanted:
            return fn
        for cell in fn.__closure__ or ():
            try:
                v = cell.cell_contents
            except ValueError:
                continue
            if v.__class__ is FunctionType and v.__name__.startswith('F'):
                stack.append(v)
    return None


def _plain_code(factory):
    return next(c for c in factory.__code__.co_consts
                if hasattr(c, 'co_code') and c.co_name.startswith('Q'))


def install(vm):
    vm.globals.get('string').set_str('dump', Builtin(dump, 'string.dump'))
