"""``string.dump`` (standalone profile) and loading its binary chunks.

pylua's binary format is its own after Lua 5.4's header (signature
``\\x1bLua``, version, format, the conversion check data, the sizes of an
instruction, an integer and a float, and the integer 0x5678 and float 370.5
that check their encoding) and ``pylua\\0``: then the dumped function's
prototype tree (``compiler/chunkformat.py``), the function's own bytecode
and its nested functions', not its chunk's source.  A stripped dump
(``string.dump(f, true)``) leaves out line information, the chunk's name
and the names of locals and upvalues in messages, as Lua's does.  Loading
translates the tree as a chunk of its own (cached) and builds its
function: its first upvalue is the environment, the others nil, as Lua's
``load`` does for a dumped function.  A stripped dump loads as a function
without line information (positions read ``?:-1:``), its instructions
numbered in place of lines so the debug library still finds where a frame
is.
"""
from __future__ import annotations

import struct
from types import FunctionType

from ..compiler.chunkformat import BadFormat, decode, encode
from ..runtime.frames import chunk_source, lua_info, lua_proto, rt_error, strip_debug_info
from ..runtime.values import Builtin, is_function
from .args import ABSENT, type_error

SIGNATURE = '\x1bLua'
# lua5.4's own header (lundump.c's checkHeader), then pylua's mark.
HEADER = (SIGNATURE + '\x54\x00\x19\x93\r\n\x1a\n\x04\x08\x08'
          + struct.pack('<qd', 0x5678, 370.5).decode('latin-1') + 'pylua\x00')
STRIPPED_SOURCE = '=?'        # a stripped function's source, as lua5.4's


def dump(f=ABSENT, strip=None, *_):
    if not is_function(f):
        type_error(1, 'dump', 'function', f)
    code = f.__code__ if f.__class__ is FunctionType else None     # built-ins cannot be dumped
    info = lua_info(code) if code is not None else None
    proto = lua_proto(code) if info is not None else None
    if proto is None:
        rt_error('unable to dump given function')
    stripped = strip is not None and strip is not False and strip is not ABSENT
    return (HEADER + encode(proto, STRIPPED_SOURCE if stripped else chunk_source(info[0], proto), stripped),)


def undump(vm, text, chunkname, env):
    """The function of a binary chunk, or (None, message) as load reports it."""
    from ..compiler.pipeline import chunk_factory, compile_binary, display_name, load_into, name_source
    name = chunkname[1:] if chunkname[:1] in ('@', '=') else \
        'binary string' if chunkname.startswith(SIGNATURE) else chunkname
    if not text.startswith(HEADER):
        return (None, '%s: bad binary format (%s)' % (
            name, 'version mismatch' if len(text) > len(HEADER) else 'truncated chunk'))
    try:
        proto, source = decode(text[len(HEADER):])
        stripped = source == STRIPPED_SOURCE
        if stripped:
            _number_instructions(proto)
        name_source(proto, source)
        original_name = display_name(source)
        compiled = compile_binary(text, proto, original_name)
    except BadFormat:
        return (None, '%s: bad binary format (truncated chunk)' % name)
    except Exception:       # well-typed fields that make no function
        return (None, '%s: bad binary format (corrupted chunk)' % name)
    if stripped:                              # no line information
        strip_debug_info(original_name, compiled.module_code)
    if proto.name == 'main chunk':
        return (load_into(vm, compiled, env),)
    factory = chunk_factory(vm, compiled)
    args = []
    for i, (_, _, _, kind) in enumerate(proto.upvals):
        if kind == 'self':
            continue
        value = env if i == 0 else None
        args.append([value] if kind == 'cell' else value)
    return (factory(*args),)


def _number_instructions(proto):
    """Give a stripped tree's instructions their numbers (from 1) for lines:
    the translation then tells where a frame is, as Lua's ``pc``, for the
    debug library's temporaries (positions still read -1)."""
    stack = [proto]
    while stack:
        p = stack.pop()
        for pc, ins in enumerate(p.code):
            ins.line = pc + 1
        stack.extend(p.protos)


def install(vm):
    vm.globals.get('string').set_str('dump', Builtin(dump, 'string.dump'))
