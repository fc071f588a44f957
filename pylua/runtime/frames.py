"""Finding Lua source positions from Python frames.

Translated prototypes are Python functions whose code objects are registered
here with a table mapping generated-code lines to Lua lines, so positions
cost nothing until an error asks for one.
"""
from __future__ import annotations

import dis
import sys
from typing import NamedTuple

from .codemap import CodeMap, CodeSet
from .errors import LuaError

# code object -> (chunkname, lua line per generated line, function description)
_LUA_CODE: CodeMap = CodeMap()
# code object -> {generated line: description of the function called there}
_CALLS: CodeMap = CodeMap()
# code object -> its bytecode prototype, for the debug library and string.dump
_PROTOS: CodeMap = CodeMap()
# code object -> {generated line: the CallTop of the call made there}
_TOPS: CodeMap = CodeMap()


def register(code, chunkname: str, lines: list, what: str, calls=None, proto=None, tops=None):
    if chunkname in _STRIPPED:
        _PCS[code] = lines
        lines = [-1] * len(lines)
    _LUA_CODE[code] = (chunkname, lines, what)
    _CALLS[code] = calls or {}
    if proto is not None:
        _PROTOS[code] = proto
    if tops:
        _TOPS[code] = tops


def dead_registers(frame, values):
    """The names among ``values`` (``frame``'s locals) of the registers at
    and above the first register of the call the Lua code of ``frame`` is
    making now (or above the locals in scope at a loop's periodic check):
    in Lua they are the callee's, dead to the caller.  None
    when the frame makes no call of its own there (a metamethod, the
    periodic check: Lua keeps the whole frame then)."""
    tops = _TOPS.get(frame.f_code)
    top = tops.get(frame.f_lineno) if tops is not None else None
    if top is None or not _calling(frame):
        # A hook runs on a call's line before the call is made: its
        # arguments are still the frame's own.
        return None
    # The results of the last call (``_R``, and ``T`` when their number is
    # open) are read only up to the next call or loop check; the scratch
    # names of one instruction's code only on the lines that use them.
    first, used = top
    return [name for name in values if name in _RESULTS or
            name in SCRATCH and name not in used or
            name[0] == 'r' and name[1:].isdigit() and int(name[1:]) >= first]


_RESULTS = frozenset(('_R', 'T'))
# Locals the translator gives one instruction's code for the values it
# works on (a table's array or hash, the object of a method call, a
# metatable, a key or value in transit, a generic for's pair, a callee's
# generator form and the call running it): not read past that code, but
# kept until set again, so a table stored into last (``t[k] = v``) would
# stay alive after its last register let go of it.
SCRATCH = frozenset(('_a', '_h', '_o', '_m', '_k', '_v', '_s', '_kv', '_g', '_c'))


class CallTop(NamedTuple):
    """What a generated line that waits in a call leaves live: the
    registers below ``register`` and the scratch names in ``scratch``."""
    register: int
    scratch: frozenset


# Where a frame's code waits while what it calls runs (a generator form
# waits in its ``yield from``; a loop counted by ``LAPIT`` runs its check
# in its ``FOR_ITER``).
_CALLING = frozenset(dis.opmap[name] for name in ('CALL', 'CALL_FUNCTION_EX', 'SEND', 'YIELD_VALUE', 'FOR_ITER'))
_CACHE = dis.opmap['CACHE']


def _calling(frame):
    """Is ``frame`` waiting in a call (its last instruction, whose inline
    cache entries it may be reading, is one of ``_CALLING``)?"""
    code = frame.f_code.co_code
    at = frame.f_lasti
    while at > 0 and code[at] == _CACHE:
        at -= 2
    return code[at] in _CALLING


# Chunk names whose code has no line information (stripped binary chunks).
_STRIPPED = set()
# code object of a stripped chunk -> instruction number (from 1) per generated line
_PCS: CodeMap = CodeMap()


def strip_debug_info(chunkname, code):
    """Positions in chunk ``chunkname`` (``code`` and the code nested in it,
    and code registered for it later) read ``NAME:-1:``, as in a Lua function
    loaded from a stripped binary chunk."""
    _STRIPPED.add(chunkname)
    stack = [code]
    while stack:
        c = stack.pop()
        info = _LUA_CODE.get(c)
        if info is not None:
            _PCS[c] = info[1]
            _LUA_CODE[c] = (info[0], [-1] * len(info[1]), info[2])
        stack.extend(k for k in c.co_consts if hasattr(k, 'co_code'))


def stripped_pc(frame):
    """The instruction a frame of stripped code is at (its chunk was
    translated with instruction numbers for lines), or None for other code."""
    numbers = _PCS.get(frame.f_code)
    if numbers is None:
        return None
    ln = frame.f_lineno
    return max(numbers[ln] - 1, 0) if 0 <= ln < len(numbers) else 0


def chunk_source(chunkname, proto):
    """Lua's ``source`` of a function of chunk ``chunkname`` (the name its
    messages show): the name ``load`` was given when its prototype knows
    it, else the one that name shows."""
    if proto is not None and proto.source is not None:
        return proto.source
    if chunkname.startswith('[string "') and not chunkname.endswith('..."]'):
        return chunkname[len('[string "'):-len('"]')]
    if chunkname.startswith('[string "') or chunkname in ('=stdin', 'stdin', '(command line)'):
        return chunkname if chunkname.startswith('[') else '=' + chunkname
    return '@' + chunkname


def lua_proto(code):
    """The prototype of a translated function's code, if registered."""
    return _PROTOS.get(code)


def call_note(frame, lookahead=0):
    """How the Lua code of ``frame`` names the function it is calling now
    (``"global 'f'"``, ``"method 'm'"``...), or None.  A call of a Lua
    function is noted on the lines of its call's other paths, which follow
    within ``lookahead`` lines."""
    calls = _CALLS.get(frame.f_code, {})
    for line in range(frame.f_lineno, frame.f_lineno + lookahead + 1):
        note = calls.get(line)
        if note is not None:
            return note or None
    return None



# A tail call replaces its caller.  Translated code makes it in one of two
# ways: directly, from a line whose call note is a ``TailCallNote`` (while
# few such calls are pending: the caller's Python frame stays, but Lua's
# stack no longer has it, so every walk of Lua frames skips it), or by
# returning a marker that a runtime loop (registered here) runs.
class TailCallNote(str):
    """The call note of a line making a tail call directly."""
    __slots__ = ()


_TAIL_RUNNERS = CodeSet()


def tail_runner(code):
    """Frames of ``code`` run Lua functions called by a tail call."""
    _TAIL_RUNNERS.add(code)


def is_replaced(frame, line=None) -> bool:
    """Is ``frame`` (at generated ``line``, by default where it is now)
    making a tail call directly, so gone from Lua's stack?"""
    calls = _CALLS.get(frame.f_code)
    return calls is not None and calls.get(frame.f_lineno if line is None else line).__class__ is TailCallNote


def direct_tail_lines(code) -> frozenset:
    """The lines at which frames of ``code`` are replaced (``is_replaced``)."""
    calls = _CALLS.get(code)
    if calls is None:
        return frozenset()
    # The notes are the whole module's: only the lines of ``code`` count.
    own = {line for _, _, line in code.co_lines()}
    return frozenset(line for line, note in calls.items() if note.__class__ is TailCallNote and line in own)


def tail_calls_from(frame, line=None) -> bool:
    """Does ``frame`` (at ``line``) call the function above it by a tail call?"""
    return frame.f_code in _TAIL_RUNNERS or is_replaced(frame, line)


def is_tail_called(frame) -> bool:
    """Was the Lua function of ``frame`` called by a tail call?"""
    back = frame.f_back
    return back is not None and tail_calls_from(back)


def lua_info(code):
    return _LUA_CODE.get(code)


def overflow_message(exc: RecursionError) -> str:
    """Lua's ``stack overflow``, positioned at the innermost Lua code the
    recursion ``exc`` went through."""
    entries = []
    tb = exc.__traceback__
    while tb is not None:
        entries.append(tb)
        tb = tb.tb_next
    for tb in reversed(entries):
        info = _LUA_CODE.get(tb.tb_frame.f_code)
        if info is not None:
            chunk, lines, _ = info
            ln = tb.tb_lineno
            return '%s:%d: stack overflow' % (chunk, lines[ln] if 0 <= ln < len(lines) else 0)
    return 'stack overflow'


def lua_frames(frame=None):
    """Yield (frame, chunkname, line, what) for each Lua frame, innermost first."""
    f = frame or sys._getframe(1)
    while f is not None:
        info = _LUA_CODE.get(f.f_code)
        if info is not None and not is_replaced(f):
            chunk, lines, what = info
            ln = f.f_lineno
            yield f, chunk, (lines[ln] if 0 <= ln < len(lines) else 0), what
        f = f.f_back


import os

_LIBRARY_DIR = os.path.join(os.path.dirname(os.path.dirname(__file__)), 'library') + os.sep
_HELPER_FILES = {__file__}


def helper_module(module_file: str):
    """Frames of ``module_file`` run on behalf of whichever library function called it."""
    _HELPER_FILES.add(module_file)


def _is_library(code):
    name = code.co_filename
    return name in _HELPER_FILES or name.startswith(_LIBRARY_DIR)


def is_library_entry(frame):
    """Is ``frame`` a library function's, called by Lua code or through the
    VM's operation helpers: what Lua counts as a C function's level."""
    if not _is_library(frame.f_code):
        return False
    back = frame.f_back
    return back is not None and (back.f_code in _LUA_CODE or back.f_code.co_filename in _TRANSPARENT)


def is_library_code(code):
    return _is_library(code)


def raises_errors(code):
    """Is ``code`` one of this module's error raisers (which run on behalf
    of their caller, never as a level of Lua's stack)?"""
    return code.co_filename == __file__


def is_operation_helper(code):
    return code.co_filename in _TRANSPARENT


def code_of(fn):
    """The code function ``fn`` runs (through a ``partial``), or None."""
    return getattr(fn, '__code__', None) or getattr(getattr(fn, 'func', None), '__code__', None)


def _entry_codes(value):
    """The code a library function value runs first: its fast form's and,
    where it has one, its generator form's (which a Lua generator form runs
    straight after the fast form raised ``NeedsLua``)."""
    fn = getattr(value, 'fn', None)
    if fn is None or not hasattr(value, 'name'):
        return ()
    return (code_of(fn), code_of(getattr(value, 'gen', None)))


def _library_call():
    """(called library function, its caller's frame) for an error raised in library code.

    Library code calls other library functions only through ``ops.call``, so
    the run of library frames above the error is one function; its caller is
    found by looking through the VM's operation helpers, where ``ops.call``
    holds the called function value."""
    return _library_call_from(sys._getframe(2))[:2]


def _library_call_from(f):
    """``_library_call`` from frame ``f``, with the event (``index``) when
    an operation helper called the function as its metamethod."""
    entry = None
    while f is not None and _is_library(f.f_code):
        entry = f.f_code
        f = f.f_back
    called = None
    event = metamethod_event(f)
    while f is not None and f.f_code.co_filename in _TRANSPARENT:
        if called is None:
            value = f.f_locals.get('f')
            if hasattr(value, 'fn') and hasattr(value, 'name'):
                called = value
        f = f.f_back
    if called is None and entry is not None and f is not None and f.f_code in _LUA_CODE:
        # Called straight from Lua code: the value is in one of its registers
        # (unless library functions sharing that code, as closures do, leave it
        # unclear which).
        found = [v for v in f.f_locals.values() if any(c is entry for c in _entry_codes(v))]
        if len({v.name for v in found}) == 1:
            called = found[0]
    return called, f, event


def metamethod_event(f):
    """The event (``index``, ``add``...) when the function whose caller's
    frame is ``f`` runs as a metamethod: an operation helper between it
    and the Lua code calls it with such a note."""
    while f is not None and f.f_code.co_filename in _TRANSPARENT:
        note = f.f_locals.get('note')
        if note.__class__ is str and note.startswith(_METAMETHOD_NOTE):
            return note[len(_METAMETHOD_NOTE):-1]
        f = f.f_back
    return None


# How an operation helper notes the metamethod it calls (``metamethod 'index'``).
_METAMETHOD_NOTE = "metamethod '"


def _position(frame):
    info = _LUA_CODE.get(frame.f_code) if frame is not None else None
    if info is None:
        return ''
    chunk, lines, _ = info
    ln = frame.f_lineno
    line = lines[ln] if 0 <= ln < len(lines) else 0
    # luaL_where: code without line information (stripped) has no position.
    return '%s:%d: ' % (chunk, line) if line >= 0 else ''


def caller_position() -> str:
    """``chunk:line: `` of the Lua code that called the running library function, or ''."""
    return _position(_library_call()[1])


_THREAD_BASES = CodeSet()


def thread_base(code):
    """Frames of ``code`` (a coroutine's resume) start a Lua thread's stack:
    levels above them belong to another thread."""
    _THREAD_BASES.add(code)


def level_position(level: int) -> str:
    """Position of the function ``level`` levels up from the running library
    function (1 = its caller), counting library functions as levels, within
    the running Lua thread; '' when that function is not Lua code."""
    f = sys._getframe(1)
    while f is not None and _is_library(f.f_code):
        f = f.f_back
    while f is not None:
        while f is not None and (f.f_code.co_filename in _TRANSPARENT or is_replaced(f)):
            f = f.f_back
        if f is None or f.f_code in _THREAD_BASES:
            return ''
        level -= 1
        if level == 0:
            return _position(f)
        if f.f_code in _LUA_CODE:
            f = f.f_back
        else:
            while f is not None and _is_library(f.f_code) and f.f_code not in _THREAD_BASES:
                f = f.f_back
    return ''


def rt_error(msg: str):
    """Raise an error from a library function, positioned at the Lua code that
    called it (``luaL_error``): no position when a library function called it."""
    raise LuaError(caller_position() + msg)


def arg_error(n: int, fname: str, extra: str):
    """``bad argument #n to 'name' (extra)``, naming the function as Lua does:
    by the call site when Lua called it (an operation, by its metamethod's
    event), else by its qualified library name."""
    called, caller, event = _library_call_from(sys._getframe(1))
    name = event
    if name is None and caller is not None and caller.f_code in _LUA_CODE:
        note = _CALLS.get(caller.f_code, {}).get(caller.f_lineno)
        if note:
            kind, _, quoted = note.partition(" '")     # kinds may have spaces: "for iterator 'x'"
            name = quoted.strip("'")
            if kind == 'method':
                n -= 1
                if n == 0:
                    raise LuaError(_position(caller) + "calling '%s' on bad self (%s)" % (name, extra))
    if name is None:
        name = called.name if called is not None else fname
    raise LuaError(_position(caller) + "bad argument #%d to '%s' (%s)" % (n, name, extra))


_TRANSPARENT = set()


def auxiliary_error(msg: str):
    """Raise an error of an auxiliary routine that library functions run on
    values (``luaL_error`` inside ``luaL_tolstring``): positioned at the Lua
    code that called the library function running it, as ``luaL_where(L, 1)``."""
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename in _TRANSPARENT:
        f = f.f_back
    while f is not None and _is_library(f.f_code):
        f = f.f_back
    while f is not None and f.f_code.co_filename in _TRANSPARENT:
        f = f.f_back
    raise LuaError(_position(f) + msg)


def transparent(module_file: str):
    """Frames of ``module_file`` (the VM's operation helpers) are looked through by vm_error."""
    _TRANSPARENT.add(module_file)


def vm_error(msg: str, line=None):
    """Raise an error of a Lua operation (``luaG_runerror``): positioned only when
    the operation was performed by Lua code, not by a library function; at
    ``line`` rather than the running one when given (a position Lua's VM
    did not update)."""
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename in _TRANSPARENT:
        f = f.f_back
    prefix = ''
    if f is not None:
        info = _LUA_CODE.get(f.f_code)
        if info is not None:
            chunk, lines, _ = info
            ln = f.f_lineno
            running = lines[ln] if 0 <= ln < len(lines) else 0
            prefix = '%s:%d: ' % (chunk, line if line is not None and running > 0 else running)
    raise LuaError(prefix + msg)
