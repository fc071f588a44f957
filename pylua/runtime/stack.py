"""A Lua thread's stack as the debug library sees it: its levels (the
Python frames of translated code, innermost first) and, in one frame, the
locals active at the instruction it is at.

The running thread's levels are the frames above the ``resume`` that
started it; a suspended coroutine's are its generators' frames, from the
one suspended in ``coroutine.yield`` (level 0 is ``yield`` itself).

Registers are the frames' Python locals ``r<n>``; a captured local's
register holds its cell (a one-element list).  A frame is placed at one
instruction from its current Lua line: the line's first instruction while
a line hook for it runs, the first one at a call hook, the line's last
return at a return hook, else the line's last call (the frame is calling)."""
from __future__ import annotations

import ctypes
from contextlib import contextmanager
from dataclasses import dataclass

from .frames import (code_of, is_library_code, is_library_entry, is_operation_helper, is_replaced, lua_info, lua_proto,
                     raises_errors, stripped_pc)

_CO_VARARGS = 0x04
_GENERATOR = type(x for x in ())

# Instructions that may call a function (directly, or through a metamethod).
_CALLING_OPS = frozenset(('CALL', 'TFORPREP', 'SELF', 'GETTABLE', 'GETTABUP', 'SETTABLE', 'SETTABUP',
                          'CONCAT', 'LEN', 'EQ', 'LT', 'LE', 'CLOSE'))


@dataclass(frozen=True)
class Level:
    """One level of a Lua thread's stack: a Lua function's frame, or a
    library function's (Lua's C function)."""
    frame: object
    lua: bool
    caller: object                # the frame that called it, if known
    function: object = None       # where no caller holds it: a coroutine's own function


# The frame that caught an error -> the error's traceback, while a message
# handler runs for it there: to the debug library the stack is as it was
# at the error, the frames the error left above the catching one.
_HANDLING = {}


@contextmanager
def handling(tb):
    """While the block runs, the frames of traceback ``tb`` (from where it
    was caught to where it was raised) are levels of the running stack."""
    catcher = tb.tb_frame
    outer = _HANDLING.get(catcher)
    _HANDLING[catcher] = tb
    try:
        yield
    finally:
        if outer is None:
            del _HANDLING[catcher]
        else:
            _HANDLING[catcher] = outer


def running_levels(start, resume_code, wanted=None):
    """The levels from Python frame ``start`` outwards (level 0 first, the
    running library function), up to the thread's base (a frame of
    ``resume_code``), or only the first ``wanted`` or a few more (a
    caller asking for one level walks no deeper than it)."""
    levels = []
    f = start
    while f is not None and f.f_code is not resume_code:
        if wanted is not None and len(levels) >= wanted:
            break
        if _HANDLING:
            caught = _HANDLING.get(f)
            if caught is not None:
                levels.extend(failed_levels(caught.tb_next, f))
        if lua_info(f.f_code) is not None:
            if not is_replaced(f):           # a direct tail call: the frame is gone from Lua's stack
                levels.append(Level(f, True, f.f_back))
        elif is_library_entry(f):
            levels.append(Level(f, False, f.f_back))
        f = f.f_back
    return levels


def suspended_levels(gen, body=None):
    """The levels of a suspended coroutine's generator chain, innermost
    (``coroutine.yield``, level 0) first; ``body`` is the coroutine's
    function."""
    frames = []
    while gen is not None:
        frame = getattr(gen, 'gi_frame', None)
        if frame is not None:
            frames.append(frame)
        inner = getattr(gen, 'gi_yieldfrom', None)
        if inner is None and frame is not None and is_operation_helper(frame.f_code):
            # ``finish`` drives a library function's generator by hand.
            inner = next((v for v in frame.f_locals.values() if v.__class__ is _GENERATOR), None)
        gen = inner
    return _chain_levels(frames, body=body)


class StoppedFrame:
    """A frame an error has left, as it was then: a finished frame's own
    line is where its last Python code ran (a handler re-raising), the
    traceback's is where the error passed."""
    __slots__ = ('frame', 'f_lineno')

    def __init__(self, frame, lineno):
        self.frame = frame
        self.f_lineno = lineno

    def __getattr__(self, name):
        return getattr(self.frame, name)


def failed_levels(tb, outer=None, body=None):
    """The levels of the frames an error left, from its traceback ``tb``
    (outermost first; ``outer`` calls the first, or it is a coroutine's
    function ``body``): the stack as it was when the error was raised,
    innermost first."""
    frames = []
    while tb is not None:
        frames.append(StoppedFrame(tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    return _chain_levels(frames, outer, body)


def _chain_levels(frames, outer=None, body=None):
    """The levels among ``frames`` (outermost first, each calling the
    next; ``outer`` calls the first, or it is the running of a coroutine's
    function ``body``), innermost first."""
    levels = []
    for frame in frames:
        code = frame.f_code
        lua = lua_info(code) is not None
        if lua:
            if not is_replaced(frame):       # a direct tail call: the frame is gone from Lua's stack
                own = body if outer is None and body is not None and _is_form_of(body, code) else None
                levels.append(Level(frame, True, outer, own))
        elif outer is not None and (lua_info(outer.f_code) is not None or is_operation_helper(outer.f_code)) \
                and is_library_code(code) and not raises_errors(code):
            levels.append(Level(frame, False, outer))
        outer = frame
    levels.reverse()
    return levels


def beneath_helpers(frame):
    """The first frame from ``frame`` outwards that is no operation helper:
    the code on whose behalf the helpers call."""
    while frame is not None and is_operation_helper(frame.f_code):
        frame = frame.f_back
    return frame


def function_at(level):
    """The function value running at ``level``, found where its caller
    holds it (a register of the calling Lua code, or a local of the
    operation helpers between); None if not found."""
    if level.function is not None:
        return level.function
    code = level.frame.f_code
    caller = level.caller
    while caller is not None:
        found = _function_in(caller, code, level.lua)
        if found is not None or not is_operation_helper(caller.f_code):
            return found
        caller = caller.f_back            # through the helpers to the calling code
    return None


def _function_in(caller, code, lua):
    for value in caller.f_locals.values():
        if lua or hasattr(value, 'name'):
            if _is_form_of(value, code):
                return value
    return None


def _is_form_of(value, code):
    """Whether ``code`` runs function value ``value``: a Lua function is
    its plain form and has its generator form as ``gen``; a library
    function's forms are ``fn`` and ``gen``."""
    forms = (value, getattr(value, 'gen', None)) if not hasattr(value, 'name') else \
        (getattr(value, 'fn', None), getattr(value, 'gen', None))
    return any(code_of(form) is code for form in forms)


def c_values(level, absent):
    """A C level's stack: the arguments its library function was given
    (parameters holding ``absent`` were not)."""
    frame = level.frame
    code = frame.f_code
    values = frame.f_locals
    out = []
    for name in code.co_varnames[:code.co_argcount]:
        v = values.get(name, absent)
        if v is absent:
            return out
        out.append(v)
    if code.co_flags & _CO_VARARGS:
        out.extend(values.get(code.co_varnames[code.co_argcount + code.co_kwonlyargcount], ()))
    return out


# Structured control instructions that stand for no instruction of Lua's.
_STRUCTURAL_OPS = frozenset(('LOOP', 'END', 'ELSE'))


def active_lines(proto):
    """The lines holding instructions of ``proto``, as Lua counts them."""
    return frozenset(ins.line for ins in proto.code if ins.op not in _STRUCTURAL_OPS)


def current_line(frame):
    lines = lua_info(frame.f_code)[1]
    ln = frame.f_lineno
    return lines[ln] if 0 <= ln < len(lines) else 0


@dataclass(frozen=True)
class Local:
    """One visible local of a frame: its Lua name and its register."""
    name: str
    reg: int
    captured: bool


def frame_pc(frame, event=None):
    """The instruction ``frame`` is at (see the module's note); ``event`` is
    the hook event being run for it, if any."""
    proto = lua_proto(frame.f_code)
    if event == 'call':
        return 0
    pc = stripped_pc(frame)
    if pc is not None:
        return pc
    line = current_line(frame)
    on_line = [pc for pc, ins in enumerate(proto.code) if ins.line == line]
    if not on_line:
        return 0
    if event == 'line':
        return on_line[0]
    if event == 'return':
        returns = [pc for pc in on_line if proto.code[pc].op == 'RETURN']
        return (returns or on_line)[-1]
    for ops in (('CALL',), _CALLING_OPS):
        calls = [pc for pc in on_line if proto.code[pc].op in ops]
        if calls:
            return calls[-1]
    return on_line[-1]


def is_stripped(code):
    """Was a translated function loaded from a stripped binary chunk (no
    line or local names)?"""
    return all(n == -1 for n in lua_info(code)[1])


def active_locals(frame, event=None):
    """The named locals of ``frame`` in scope where it is, in declaration order."""
    proto = lua_proto(frame.f_code)
    if proto is None or is_stripped(frame.f_code):
        return []
    pc = frame_pc(frame, event)
    return [Local(lv.name, lv.reg, lv.captured) for lv in proto.locvars
            if lv.startpc <= pc < lv.endpc]


def visible_locals(frame, event=None):
    """The locals ``getlocal`` numbers in ``frame``: its named locals in
    scope, then its temporaries, the registers above them as far as Lua
    would show them: to the register of the function being called, or
    every register while a hook runs for the frame (``event``)."""
    named = active_locals(frame, event)
    proto = lua_proto(frame.f_code)
    if proto is None:
        return named
    if event is not None:
        limit = proto.maxreg
    else:
        ins = proto.code[frame_pc(frame)] if proto.code else None
        limit = ins.a if ins is not None and ins.op == 'CALL' else 0
    return named + [Local('(temporary)', reg, False) for reg in range(len(named), limit)]


def parameter_names(code):
    """The names of a Lua function's parameters, in order."""
    proto = lua_proto(code)
    if proto is None:
        return []
    return [lv.name for lv in proto.locvars[:proto.numparams]]


def read_register(frame, local):
    v = frame.f_locals.get('r%d' % local.reg)
    if local.captured and v.__class__ is list:
        return v[0]
    return v


def write_register(frame, local, value):
    """Set a local; False, changing nothing, when the translated code takes
    its register to hold another class of value (an integer counter, a
    guarded ``self``) than ``value``'s."""
    proto = lua_proto(frame.f_code)
    typed = proto.typed_registers.get(local.reg) if proto is not None else None
    if typed is not None and value.__class__ is not typed:
        return False
    name = 'r%d' % local.reg
    cell = frame.f_locals.get(name)
    if local.captured and cell.__class__ is list:
        cell[0] = value
    else:
        _write_local(frame, name, value)
    return True


def varargs(frame):
    return frame.f_locals.get('VA', ())


def write_varargs(frame, values):
    _write_local(frame, 'VA', values)


def _write_local(frame, name, value):
    write_locals(frame, {name: value})


def write_locals(frame, values):
    """Set Python locals of ``frame`` (running or suspended)."""
    if frame.__class__ is StoppedFrame:
        frame = frame.frame
    # Python 3.11's frame.f_locals is a snapshot: written back explicitly.
    frame.f_locals.update(values)
    _locals_to_fast(ctypes.py_object(frame), ctypes.c_int(0))


_locals_to_fast = ctypes.pythonapi.PyFrame_LocalsToFast
_locals_to_fast.restype = None
