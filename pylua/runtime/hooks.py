"""Debug hooks (``debug.sethook``) over Python's tracing.

Translated code is never changed for hooks: while some Lua thread of the
running VM has a hook, Python's trace function is installed for this OS
thread and sees every frame of translated code (its calls, returns, lines
and, for count hooks, its Python instructions), so code runs at full speed
whenever no hook is set.  Meanwhile the library calls the translator
inlines are made as calls (``ops.bind_intrinsics``), which a call hook
sees.  Each Lua thread (the main one and each coroutine) has its own hook,
as in Lua; a frame's events go to the hook of the thread running when
they happen.  Python suspends tracing while a trace function
runs, which is Lua's rule that a hook runs with hooks off.

Lua's events from Python's: ``call`` when a translated function starts
(not when a coroutine's generator resumes; ``tail call`` when a tail call
made it); ``return`` when it returns (not when it yields, nor when an error
unwinds it, nor when it ends by making a tail call); ``line`` when the Lua line
of the Python line about to run differs from the last one, or when Python
jumps back (a loop's next iteration), on lines holding the prototype's
instructions; ``count`` every ``count`` such Python lines run (the
translator gives about one to each Lua instruction; a loop's head counts
when the loop comes back to it, as Lua's loop instruction; the lines of
the translator's instruction budget never count)."""
from __future__ import annotations

import dis
import re
import sys
import weakref
from contextlib import contextmanager
from dataclasses import dataclass

from . import ops, state
from .codemap import CodeMap
from .frames import is_library_entry, is_replaced, is_tail_called, lua_info, lua_proto
from .stack import active_lines, beneath_helpers, is_stripped

_RETURN_VALUE = dis.opmap['RETURN_VALUE']
_YIELD_VALUE = dis.opmap['YIELD_VALUE']
# Names the translator's budget plumbing stores: a numeric for's chunks of
# iterations, the loops' countdown to their check (or its item, a
# ``while`` loop's over ``LAPIT``).
_PLUMBING_NAMES = re.compile(r'_c\d+|LAPS|_lap')
_ITERATOR_NAMES = re.compile(r'_i\d+')      # a generic for's fast iterator
_STORES = frozenset(('STORE_FAST', 'STORE_DEREF'))
_LOOP_JUMPS = frozenset(('JUMP_BACKWARD', 'JUMP_BACKWARD_NO_INTERRUPT', 'NOP'))
_STRIPPED_LINES = frozenset((-1,))


@dataclass(frozen=True)
class _CodeLines:
    """What line events need of one code object: the Lua line of each
    Python line, the Lua lines holding instructions, the Python lines of
    the translator's plumbing (only jumping back, making and looping over
    a numeric for's chunks, counting down the instruction budget), the
    heads of Python ``for`` loops and those of them that run a generic
    ``for`` (over an ``_i<n>`` iterator)."""
    lines: list
    active: frozenset
    plumbing: frozenset
    loop_heads: frozenset
    generic_heads: frozenset


_CODE_LINES: CodeMap = CodeMap()


def _code_lines(code):
    known = _CODE_LINES.get(code)
    if known is None:
        kinds = {}
        budget = set()
        iterators = set()
        for ins in dis.get_instructions(code):
            line = ins.positions.lineno if ins.positions is not None else None
            if line is not None:
                kinds.setdefault(line, set()).add(ins.opname)
                if ins.opname in _STORES and _PLUMBING_NAMES.fullmatch(ins.argval):
                    budget.add(line)
                elif ins.opname == 'LOAD_FAST' and _ITERATOR_NAMES.fullmatch(ins.argval):
                    iterators.add(line)
        proto = lua_proto(code)
        plumbing = {line for line, names in kinds.items() if names <= _LOOP_JUMPS} | budget
        # Stripped code's instructions are all on line -1.
        active = frozenset() if proto is None else _STRIPPED_LINES if is_stripped(code) else active_lines(proto)
        heads = frozenset(line for line, names in kinds.items() if 'FOR_ITER' in names)
        known = _CODE_LINES[code] = _CodeLines(
            lua_info(code)[1], active, frozenset(plumbing), heads, heads & iterators)
    return known


@dataclass
class Hook:
    """One Lua thread's hook: ``fn`` called for the events in ``mask``
    (letters ``c``, ``r``, ``l``) and every ``count`` instructions;
    ``left`` instructions remain before the next count event."""
    fn: object
    mask: str
    count: int
    left: int = 0

    def __post_init__(self):
        self.left = self.count

    @property
    def calls(self):
        return 'c' in self.mask

    @property
    def returns(self):
        return 'r' in self.mask

    @property
    def lines(self):
        return 'l' in self.mask


class DebugHooks:
    """The hooks of one VM's Lua threads, and the tracing that serves them."""

    def __init__(self, vm):
        self.vm = vm
        self.main = None
        self.threads = weakref.WeakKeyDictionary()    # Coroutine -> Hook
        self.hooked = None            # (frame, event) while a hook runs for that frame's event

    def of(self, thread):
        """The hook of ``thread`` (a Coroutine; None for the main thread)."""
        return self.main if thread is None else self.threads.get(thread)

    def current(self):
        return self.of(self.vm.coroutine)

    def set(self, thread, hook):
        if thread is None:
            self.main = hook
        elif hook is None:
            self.threads.pop(thread, None)
        else:
            self.threads[thread] = hook
        self.retrace()

    def resume(self):
        """Trace this OS thread while any Lua thread has a hook (the VM is
        starting a run here: its hooks outlive its runs); whether it does."""
        active = self.main is not None or any(co.status != 'dead' for co in self.threads)
        sys.settrace(self.trace_call if active else None)
        return active

    def retrace(self):
        """Trace this OS thread's frames while any Lua thread has a hook;
        library calls are made, not inlined, meanwhile (a call hook sees them)."""
        active = self.resume()
        ops.bind_intrinsics(self.vm, not active)
        f = sys._getframe(1)
        while f is not None:
            if lua_info(f.f_code) is not None:
                if active:
                    if not self.traces(f):
                        f.f_trace = _FrameTrace(self, f)
                        f.f_trace.resume_at(f)
                else:
                    f.f_trace = None
            elif is_library_entry(f):
                # Running library functions (sethook itself) report their return.
                f.f_trace = self.trace_library if active else None
                f.f_trace_lines = False
            f = f.f_back

    # ------------------------------------------------------------ tracing
    def traces(self, frame):
        """Is ``frame`` traced for this VM already?"""
        tracer = frame.f_trace
        return isinstance(tracer, _FrameTrace) and tracer.hooks is self

    def trace_call(self, frame, event, arg):
        if event != 'call':
            return None
        if state.running.vm is not self.vm:
            sys.settrace(None)          # this VM's run is over: trace nothing more
            return None
        lua = lua_info(frame.f_code) is not None
        if not lua and not is_library_entry(frame):
            return None
        lasti = frame.f_lasti
        resumed = lasti >= 2 and frame.f_code.co_code[lasti - 2] == _YIELD_VALUE
        if lua:
            tracer = frame.f_trace
            if not self.traces(frame):
                tracer = _FrameTrace(self, frame)
                if resumed:
                    tracer.resume_at(frame)
        else:
            tracer = self.trace_library
            frame.f_trace_lines = False
        hook = self.current()
        if hook is None:
            return tracer
        if hook.calls and not resumed:
            self.fire(hook, frame, 'call', tail=lua and is_tail_called(frame))
        return tracer

    def trace_library(self, frame, event, arg):
        """The local trace function of a library function called from Lua."""
        if event == 'return':
            self.returned(frame, arg)
        return self.trace_library

    def returned(self, frame, result):
        """``frame`` returns ``result`` (or yields, or an error unwinds it)."""
        hook = self.current()
        if hook is not None and hook.returns and frame.f_code.co_code[frame.f_lasti] == _RETURN_VALUE \
                and not _replaced_by_tail_call(frame, result):
            self.fire(hook, frame, 'return', results=result if result.__class__ is tuple else (
                tuple(result) if result.__class__ is list else (result,)))

    def fire(self, hook, frame, event, line=None, results=(), tail=False):
        """Run ``hook`` for ``event`` of ``frame`` (a call made by a tail
        call is Lua's ``tail call`` event)."""
        name = 'tail call' if tail else event
        # Two arguments always, as Lua's hookf pushes them: the line is nil
        # but for a line event, and for code without line information.
        args = (name, line if line is not None and line >= 0 else None)
        outer, self.hooked = self.hooked, Hooked(frame, event, results)
        try:
            ops.sync(ops.call(hook.fn, args))
        finally:
            self.hooked = outer

    def hooked_event(self, frame):
        """The ``Hooked`` event running for ``frame``, if any."""
        hooked = self.hooked
        return hooked if hooked is not None and hooked.frame is frame else None


@dataclass(frozen=True)
class Hooked:
    """A hook running for ``event`` of ``frame``; a return's ``results``."""
    frame: object
    event: str
    results: tuple


def called_by_hook(caller):
    """Does a function whose caller's frame is ``caller`` run as a hook?"""
    f = beneath_helpers(caller)
    return f is not None and f.f_code.co_filename == __file__


class _FrameTrace:
    """The local trace function of one frame of translated code."""
    __slots__ = ('hooks', 'code', 'last_py', 'last_lua', 'last_active', 'pending_head', 'pending_back',
                 'left_head')

    def __init__(self, hooks, frame):
        self.hooks = hooks
        self.code = _code_lines(frame.f_code)
        # The frame's last Python line and Lua line, and whether that Python
        # line holds Lua instructions: a jump back from it is a loop's.
        self.last_py = -1
        self.last_lua = None
        self.last_active = False
        # A jump back to a ``for`` head on the same Lua line is a new
        # iteration (Lua's event) only if the body follows, not the exit.
        self.pending_head = None
        # A jump back onto plumbing (a ``while`` loop's budget countdown)
        # is the loop's: its event comes at the next line holding Lua code.
        self.pending_back = False
        # A numeric for's head left for plumbing (the end of a chunk of its
        # iterations): coming back to it is a jump back.
        self.left_head = None

    def resume_at(self, frame):
        """The frame is being traced from where it is: its line has begun."""
        lines = self.code.lines
        self.last_py = frame.f_lineno
        self.last_lua = lines[self.last_py] if 0 <= self.last_py < len(lines) else 0
        self.last_active = self.last_lua in self.code.active

    def line(self, hook, frame, py, lua, active):
        """Python line ``py`` (of Lua line ``lua``) is about to run."""
        code = self.code
        back = py <= self.last_py and self.last_active
        head, self.pending_head = self.pending_head, None
        self.last_py = py
        self.last_active = active
        if not active:
            self.pending_back = self.pending_back or back
            if head is not None and py == head + 1:
                self.pending_head = py      # the body's budget countdown follows the head
            elif head is not None:
                self.left_head = head
            return
        back = back or self.pending_back or py == self.left_head
        self.pending_back = False
        self.left_head = None
        if lua != self.last_lua:
            self.last_lua = lua
            self.hooks.fire(hook, frame, 'line', lua)
        elif back and py in code.loop_heads and py not in code.generic_heads:
            # A numeric for jumps back only to run its body again; a generic
            # for's jump back (to call its iterator) is an event even when
            # the loop then ends.
            self.pending_head = py
        elif back or head is not None and py == head + 1:
            self.hooks.fire(hook, frame, 'line', lua)

    def __call__(self, frame, event, arg):
        hooks = self.hooks
        hook = hooks.current()
        if hook is None:
            return self
        if event == 'line':
            code = self.code
            py = frame.f_lineno
            lua = code.lines[py] if 0 <= py < len(code.lines) else 0
            active = lua in code.active and py not in code.plumbing
            # A loop's head counts as Lua's loop instruction when the loop
            # comes back to it, not when it is entered.
            if active and hook.count > 0 and (py not in code.loop_heads or py <= self.last_py):
                hook.left -= 1
                if hook.left <= 0:
                    hook.left = hook.count
                    hooks.fire(hook, frame, 'count')
                    hook = hooks.current()
                    if hook is None:
                        return self
            if hook.lines:
                self.line(hook, frame, py, lua, active)
            else:
                self.last_py = py
        elif event == 'return':
            hooks.returned(frame, arg)
        return self


def _replaced_by_tail_call(frame, result) -> bool:
    """Does ``frame`` return because its function made a tail call (so is
    gone from Lua's stack, and has no return event of its own)?"""
    if result.__class__ is tuple and result and result[0] is ops.TAIL:
        return True        # the marker a runtime loop runs
    return lua_info(frame.f_code) is not None and is_replaced(frame)


@contextmanager
def untraced():
    """Run a block that runs no Lua code (compiling a chunk) with Python's
    tracing off: no hook has an event there, and tracing a parser's every
    call would cost ten times its time."""
    tracer = sys.gettrace()
    if tracer is None:
        yield
        return
    sys.settrace(None)
    try:
        yield
    finally:
        sys.settrace(tracer)


def debug_hooks(vm) -> DebugHooks:
    """The VM's hooks, made when first asked for."""
    hooks = vm.debug_hooks
    if hooks is None:
        hooks = vm.debug_hooks = DebugHooks(vm)
    return hooks
