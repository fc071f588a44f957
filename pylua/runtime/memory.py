"""Measuring a VM's live Lua heap by walking its roots.

Allocations only add to a debt; when the debt grows large the account is
rebuilt from what is reachable (globals, registry, every Lua frame and
every coroutine), so garbage never counts against the ceiling.  Sizes are
estimates of CPython's footprint for each Lua value.  Allocations nothing
charges (a new string key stored by ``t[k] = v``, a closure) are found by
the walk the periodic check makes after ``WALK_PACE`` instructions per
object seen in the last walk, so the walks cost a bounded share of the run.

The walk is work too: it counts one instruction per object and lets cancel
and hooks in as it goes.
"""
from __future__ import annotations

import sys
from types import FunctionType, GeneratorType

from .codemap import CodeMap
from .frames import dead_registers, lua_info
from .table import ClassHash, LuaTable
from .values import Builtin, GenBuiltin, Userdata

_STR_OVERHEAD = 49
_TABLE_OVERHEAD = 200
_SLOT = 8
_HASH_SLOT = 40
_FUNCTION = 160
_HOST_FUNCTION = 220   # a Builtin and its Python function; plus, per closure cell:
_CELL = 50
_CELL_GENERATOR = 1200  # a suspended generator chain a host function keeps (gmatch's matches)
_NUMBER = 32           # an int or float object held by a table or frame
# A coroutine: its object and its entry in the VM's set; once started, its
# generator chain besides the frames; and each generator frame of the
# chain (a call it is suspended in) with its locals.  Measured with
# tracemalloc: 0.29 KB a coroutine not started, 2.9, 7.3 and 20.4 KB one
# suspended 0, 10 and 40 Lua calls deep.
_COROUTINE = 300
_STARTED = 940
_GEN_FRAME = 450
# What creating a coroutine and starting it add, charged as they happen (a
# started one counted as suspended in its own body: the generator frames of
# the call, the body and the yield), so a heap of them is measured in time.
COROUTINE_SIZE = _COROUTINE
STARTED_SIZE = _STARTED + 3 * _GEN_FRAME
_CODE_OVERHEAD = 3000  # a code object's tables besides its own size, and its chunk's other code
# What a translated chunk keeps while any of its functions lives, besides
# its code objects: the structure its generator forms are rendered from
# when first needed (bytes per byte of its plain forms' Python source) and
# its prototypes (bytes per instruction).  Against tracemalloc on chunks of
# calls, statements, small functions and table constructors, the count is
# 0.65 to 1.25 times what they keep.
KEPT_PER_PYTHON_BYTE = 12
KEPT_PER_INSTRUCTION = 200
# The most the compiler's stages hold at once while they run, by what is
# known before each: parsing and code generation, bytes per source byte
# (66 to 111 measured); translation, bytes per instruction (2,100 to
# 2,900 for instructions that translate to code, about 360 for a table
# constructor's constants); Python's compile(), bytes per byte of
# generated source (about 100, in this process or a worker's).
PARSE_PER_SOURCE_BYTE = 120
TRANSLATE_PER_INSTRUCTION = 3000
TRANSLATE_PER_LOAD = 400
PYTHON_COMPILE_PER_BYTE = 100


class KeptShare:
    """What one translated function keeps besides its code objects (its
    share of its chunk's ``KEPT_PER_*``), counted once whichever of its
    codes a measure reaches: its plain form's, or its factory's, which
    holds the former (a chunk's main function reaches its children only
    through their factories)."""
    __slots__ = ('size',)

    def __init__(self, size):
        self.size = size


KEPT_BY_CODE: CodeMap = CodeMap()
WALK_PACE = 4
MIN_WALK_INTERVAL = 200000


def measure(vm):
    seen = set()
    total = 0
    stack = [vm.globals, vm.string_meta, vm.registry]
    for frame in running_lua_frames(sys._getframe(1)):
        stack.extend(_frame_values(frame))
    for co in list(getattr(vm, 'coroutines', ())):
        total += _COROUTINE if co.gen is None else _COROUTINE + _STARTED
        stack.append(co.fn)
        for frame in suspended_frames(co.gen):
            total += _GEN_FRAME
            stack.extend(_frame_values(frame))
    push = stack.append
    objects = 0
    while stack:
        v = stack.pop()
        c = v.__class__
        objects += 1
        if objects & 4095 == 0:
            vm.interrupt_work(4096)
        if c is str:
            if len(v) > 64:
                if id(v) in seen:
                    continue
                seen.add(id(v))
            total += _STR_OVERHEAD + len(v)
        elif c is LuaTable:
            if id(v) in seen:
                continue
            seen.add(id(v))
            total += _TABLE_OVERHEAD + _SLOT * len(v.arr) + _HASH_SLOT * len(v.hash)
            hash = v.hash
            if hash.__class__ is ClassHash:
                # Lookup caches, each counted once: a metatable's own, or
                # the one it shares (its class's, or one the class has let
                # go since), and the one a class shares.
                for cache in (hash.lookups, hash.as_index):
                    if cache and id(cache) not in seen:
                        seen.add(id(cache))
                        total += _HASH_SLOT * len(cache)
            stack.extend(v.arr)
            for k, x in v.hash.items():
                push(k)
                push(x)
            if v.meta is not None:
                push(v.meta)
        elif c is int or c is float:
            total += _NUMBER
        elif c is Builtin or c is GenBuiltin:
            if id(v) in seen:
                continue
            seen.add(id(v))
            total += _host_function_size(v.fn)
        elif c is FunctionType:
            if id(v) in seen:
                continue
            seen.add(id(v))
            total += _FUNCTION
            code = v.__code__
            if id(code) not in seen:          # compiled code, counted once per prototype
                seen.add(id(code))
                total += _CODE_OVERHEAD + sys.getsizeof(code)
                kept = KEPT_BY_CODE.get(code)
                if kept is not None and id(kept) not in seen:
                    seen.add(id(kept))
                    total += kept.size
            for cell in v.__closure__ or ():
                total += _CELL
                try:
                    push(cell.cell_contents)
                except ValueError:
                    pass
        elif c is list:                      # upvalue cells
            if id(v) in seen:
                continue
            seen.add(id(v))
            stack.extend(v)
        elif c is tuple:
            stack.extend(v)
        elif c is dict:
            stack.extend(v.values())
        elif c is Userdata:
            if id(v) in seen:
                continue
            seen.add(id(v))
            total += 64
            if v.meta is not None:
                push(v.meta)
            # A host object may report what it holds (see Userdata.payload).
            size = getattr(v.payload, 'lua_memory_size', None)
            if size is not None:
                total += size()
    vm.memory_used = total
    vm.debt_cell.cell_contents = 0
    vm.walk_interval = max(MIN_WALK_INTERVAL, WALK_PACE * objects)
    vm.since_walk = 0
    return total


def count(vm, running, pause):
    """Lua's ``collectgarbage("count")``: what was live at the last measure
    plus everything allocated since, garbage included.  A running
    collector ends a cycle (a measure) once the allocations pass ``pause``
    percent of the live heap, as Lua's pacing does; a stopped one lets
    the count grow."""
    debt = vm.debt_cell.cell_contents
    if not vm.memory_used or running and debt * 100 > vm.memory_used * max(pause - 100, 0):
        return measure(vm)
    return vm.memory_used + debt


def _host_function_size(fn):
    """A host function and what its closure keeps (one level deep: the
    values are library state, or Lua values reachable elsewhere)."""
    size = _HOST_FUNCTION
    for cell in getattr(fn, '__closure__', None) or ():
        size += _CELL
        try:
            c = cell.cell_contents.__class__
        except ValueError:
            continue
        if c is GeneratorType:
            size += _CELL_GENERATOR
        elif c is FunctionType:
            size += _FUNCTION
    return size


def _frame_values(frame):
    """The values a Lua frame holds: its registers, varargs and upvalues;
    names starting with '_' are the translator's scratch (the last call's
    result tuple, an array alias), and registers above a call its callee's
    (``frames.dead_registers``), which Lua would not keep alive."""
    values = frame.f_locals
    dead = dead_registers(frame, values)
    if dead:
        values = dict(values)
        for name in dead:
            del values[name]
    return [v for k, v in values.items() if k[0] != '_']


def running_lua_frames(frame):
    """The frames of translated code from ``frame`` outwards."""
    while frame is not None:
        if lua_info(frame.f_code) is not None:
            yield frame
        frame = frame.f_back


def suspended_frames(gen):
    """Each frame of a suspended generator chain (a coroutine's)."""
    while gen is not None and gen.__class__ is GeneratorType:
        frame = gen.gi_frame
        if frame is not None:
            yield frame
        gen = gen.gi_yieldfrom
