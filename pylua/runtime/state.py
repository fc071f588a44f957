"""Per-runtime VM state: the namespace translated code runs in, the
work budget and cancel check, and the memory account.

The budget counts instructions.  Library work is charged in the same unit:
one instruction is worth ``WORK_BYTES`` bytes scanned or produced, and one
result returned, element moved or sorted, or pattern-matcher step is one
instruction; the compiler charges its source bytes the same way.  So a
check (cancel, hooks, the memory pacing) comes after at most
``CHECK_INTERVAL`` instructions' worth of any work.
"""
from __future__ import annotations

import functools
import sys
import threading
import weakref
from itertools import chain, repeat
from types import CellType

from . import luathread
from .errors import LuaHookError, LuaInterrupt, LuaMemoryError
from .python_gc import collect_for_deep_stack, end_deep_stack, end_unwinding_pause, pause_collector

CHECK_INTERVAL = 10000
# What the compiler's stages count, in instructions, for each unit of their
# work: about its time, so that their checks come about as often as those
# of a running program.
LEX_BYTE = 1
LEX_ESCAPE = 10                    # an escape in a string literal: a turn of read_string's loop
PARSE_TOKEN = 10
RESOLVE_STATEMENT = 25
GENERATE_STATEMENT = 25
TRANSLATE_INSTRUCTION = 300
ANALYSE_INSTRUCTION = 10      # one pass of the translator's analyses over an instruction
RENDER_LINE = 10
# What unwinding one Python frame on an error costs, about: Python builds a
# frame object and a traceback entry for it.
UNWIND_FRAME = 8
# Nested calls through the library (pcall, xpcall, coroutine.resume) that
# Lua makes on the C stack; deeper is Lua's ``C stack overflow``.
C_CALLS_MAX = 197
WORK_BYTES = 64
# Iterations of short loops (see ``laps_cell``) counted at once: a countdown
# from at most 256 stays among CPython's cached small ints, allocating nothing.
LAP = 250
# The least a loop's iteration counts, in instructions: a unit of ``LAPS``.
LOOP_COST = 16
# The most units an iteration counted by ``LAPIT<u>`` counts (see ``VM._lap``);
# a longer one costs so much more than its count that ``LAPS`` serves it.
LAPIT_UNITS = 8
# Bytes of a translated function's Python bytecode counted as one instruction
# when the library or a metamethod calls it (about what a Lua instruction
# translates to, its specialised and general copies together).
CODE_BYTES = 16
# Python frames deeper than which tail calls stop being made directly (see
# ``direct_tails_cell``) until the periodic check finds the stack shallower.
DIRECT_TAILS_DEPTH = 4000
# Checks between two probes of the stack's depth (for ``DIRECT_TAILS_DEPTH``
# and ``DEEP_STACK_DEPTH``): a probe is an exception caught, or a walk of
# the frames, half of a check's time; the stack grows by at most a few
# thousand frames an interval.
PROBE_EVERY = 4
# Python frames deeper than which the periodic check runs the collector's
# collections itself (see ``python_gc``): a stack this deep ends, by
# returning or by an error, in one long unwind.
DEEP_STACK_DEPTH = 20000
INTERRUPTED = 'interrupted'


def _raising(error):
    """An iterator whose first item raises ``error``, and which then ends."""
    raise error
    yield


def _stack_shallower(depth):
    """Does the running thread have fewer than ``depth`` Python frames?"""
    try:
        sys._getframe(depth)
    except ValueError:
        return True
    return False


class VM:
    """One Lua state.  ``ns`` is the globals dict of every translated function
    of this state; ``steps_cell`` holds the instruction budget ``STEPS`` that
    all of them count down (a float: CPython subtracts and compares floats
    without allocating an int each time; every charge is a whole number) and ``debt_cell`` the allocation debt ``DEBT``
    they add to (closure cells, cheaper than globals)."""

    def __init__(self, max_memory=None):
        self.ns = {}
        # Instantiated chunks by name, while a function of theirs is alive:
        # code nothing references any more is freed.
        self.factories = weakref.WeakValueDictionary()
        self.globals = None
        self.string_meta = None
        self.type_metas = {}          # type name -> metatable for the other types (debug.setmetatable)
        self.registry = {}
        self.max_memory = max_memory
        self.cancel_event = threading.Event()
        self.cancel_message = INTERRUPTED
        self.hook = None              # (callable, every_n_instructions)
        self._hook_left = 0
        self._in_hook = False         # the hook is running
        self.debug_hooks = None       # debug.sethook's per-thread hooks (runtime/hooks.py), once set
        self.instructions = 0         # settled instruction count
        self.memory_used = 0          # accounted live bytes (see memory module)
        self.since_walk = 0           # instructions since the heap was last walked
        self.walk_interval = 200000   # and how many may pass before the next walk
        self.stdout = None
        self.stderr = None
        self.coroutine = None         # the running Coroutine, None in the main thread
        self.c_calls = 0              # library calls into Lua now open (see C_CALLS_MAX)
        self.no_yield = 0             # open library calls that Lua code may not yield across
        # Open runs in which no host effect can pass (the API's call_raw):
        # what cannot yield either cannot suspend (see ops.nested_call).
        self.synchronous = 0
        self.collector = None         # weak tables and finalizers (runtime/collector.py), once used
        self.warn = None              # the warning function (standalone: lua.c's)
        self.intrinsics = {}          # name in translated code -> the library function it inlines
        self.steps_cell = CellType(float(CHECK_INTERVAL))
        # LAPS: iterations of short loops until the next charge of a lap
        # of them (``LAP``); one countdown for every loop, so none leaves
        # iterations uncounted when it ends.
        self.laps_cell = CellType(LAP)
        # LAPIT<u>: the same count for loops whose iterations count ``u``
        # units, made by their own iteration in C (see ``_lap``).
        for units in range(1, LAPIT_UNITS + 1):
            self.ns['LAPIT%d' % units] = chain.from_iterable(map(self._lap, repeat(units)))
        self.debt_cell = CellType(0)  # DEBT: bytes allocated since the heap was last measured
        # DIRECT_TAILS: may plain forms make tail calls directly (a frame
        # each, kept while the call runs), or must they return markers?
        # Checked every ``PROBE_EVERY`` intervals, so at most that many
        # intervals' direct calls pile up.
        self.direct_tails_cell = CellType(True)
        self._probe_in = 1            # checks until the stack's depth is probed again
        self.ns['TICK'] = self.tick
        self.ns['TICKN'] = self.tickn
        self.ns['CHARGE'] = self.produced     # strings made by concatenation

    # ------------------------------------------------------ instruction budget
    def tick(self):
        """The periodic check, run when ``STEPS`` drops below zero."""
        spent = self._settle()
        self._interrupt_check(spent)
        if luathread.widened_elsewhere() and not _stack_shallower(luathread.stack_frames()):
            # The limit a compile on another thread widened is not this
            # thread's budget: the overflow the limit would have raised.
            raise RecursionError('maximum recursion depth exceeded')
        self._probe_in -= 1
        if not self._probe_in:
            self._probe_in = PROBE_EVERY
            self._probe_stack()
        if self.max_memory is not None:
            self.since_walk += spent
            if self.debt_cell.cell_contents > self._debt_limit() or self.since_walk > self.walk_interval:
                self._collect()
        if self.collector is not None:
            self.collector.maybe_collect()

    def _probe_stack(self):
        """What the stack's depth decides: direct tail calls, and who runs
        Python's collections (see ``python_gc``)."""
        shallow = _stack_shallower(DIRECT_TAILS_DEPTH)
        self.direct_tails_cell.cell_contents = shallow
        if shallow or _stack_shallower(DEEP_STACK_DEPTH):
            end_deep_stack()
        else:
            collect_for_deep_stack()  # until a probe finds the stack shallower

    def _settle(self):
        """Add the instructions counted down in ``STEPS`` to the total; a new interval starts."""
        cell = self.steps_cell
        spent = int(CHECK_INTERVAL - cell.cell_contents)
        cell.cell_contents = float(CHECK_INTERVAL)
        self.instructions += spent
        return spent

    def _interrupt_check(self, spent):
        end_unwinding_pause()         # after an interrupt the host caught
        if self.cancel_event.is_set():
            pause_collector()
            raise LuaInterrupt(self.cancel_message)
        if self.hook is not None and not self._in_hook:
            fn, every = self.hook
            self._hook_left -= spent
            if self._hook_left <= 0:
                self._hook_left = every
                # Not again inside itself: what the hook asks of the runtime
                # (``memory_used`` walks the heap) is counted work too.
                self._in_hook = True
                try:
                    fn(self.instructions)
                except LuaInterrupt:
                    pause_collector()
                    raise
                except Exception as e:   # a hook's failure stops the run it limits
                    pause_collector()
                    raise LuaHookError('error in hook: %s: %s' % (type(e).__name__, e)) from e
                finally:
                    self._in_hook = False

    def interrupt_work(self, n):
        """Count ``n`` instructions of work done where the memory account
        cannot be measured (the heap walk itself): cancel and hooks only."""
        cell = self.steps_cell
        s = cell.cell_contents = cell.cell_contents - n
        if s < 0:
            self._interrupt_check(self._settle())

    def unwound(self, tb):
        """An error caught here left the Python frames of traceback ``tb``:
        count their unwinding (deep recursion is most of its time there),
        for cancel and hooks only, as the catch must not fail otherwise."""
        frames = 0
        while tb is not None:
            frames += 1
            tb = tb.tb_next
        self.interrupt_work(frames * UNWIND_FRAME)    # also finds a cancel that landed in the unwind

    def _lap(self, units):
        """The next lap of ``LAPIT<units>``, an endless iterator that a loop
        of short iterations (``units`` units each) runs over alongside its
        own (``for _lap in LAPIT1`` as a ``while``, ``COMPRESS(it, LAPIT1)``
        as a generic ``for``), so that C counts its iterations: each lap,
        about ``LAP`` units, is charged before it starts, as ``LAPS``'s.
        An error of the charge (a cancel) comes out of the lap's first
        item: raised here, it would end the ``chain`` for good."""
        items = LAP // units
        try:
            self.tickn(items * units * LOOP_COST)
        except BaseException as e:
            return _raising(e)
        return repeat(True, items)

    def tickn(self, n):
        """Count ``n`` instructions of loop or library work."""
        cell = self.steps_cell
        s = cell.cell_contents = cell.cell_contents - n
        if s < 0:
            self.tick()

    def count_call(self, f):
        """Count a call the VM makes to translated function ``f`` on Lua's
        C stack (a metamethod, a library callback) as its size.  A function
        that makes no call of its own counts nothing itself, so a recursion
        through metamethods (``t[k - 1]`` in ``__index``) counts here."""
        cell = self.steps_cell
        s = cell.cell_contents = cell.cell_contents - (1 + len(f.__code__.co_code) // CODE_BYTES)
        if s < 0:
            self.tick()

    def work(self, nbytes):
        """Count library work of ``nbytes`` bytes scanned or produced."""
        cell = self.steps_cell
        s = cell.cell_contents = cell.cell_contents - nbytes // WORK_BYTES
        if s < 0:
            self.tick()

    def produced(self, nbytes):
        """A library function built a value of about ``nbytes``: count the
        work and charge the memory."""
        self.work(nbytes)
        self.charge(nbytes)

    def cancel(self, message=INTERRUPTED):
        """Thread-safe: make the next check raise ``LuaInterrupt``."""
        self.cancel_message = message
        self.cancel_event.set()
        self.steps_cell.cell_contents = -1.0
        # The next count on ``LAPS`` ends its lap (unless it was counting
        # that moment: then a lap later); a loop over ``LAPIT<u>`` checks
        # at the end of its lap, within ``LAP`` units.
        self.laps_cell.cell_contents = 1

    def write_stdout(self, data: bytes, flush=False):
        """``print``'s output: the runtime's stream, else the process's stdout.
        ``flush`` ends a whole line as lua_writeline does (``fflush(stdout)``):
        what print wrote shows at once, on a terminal or a pipe."""
        out = self.stdout
        if out is None:
            out = getattr(sys.stdout, 'buffer', None)
            if out is None:               # a text-only stdout (a test capture)
                out = sys.stdout
                data = data.decode('utf-8', 'replace')
        out.write(data)
        if flush:
            out.flush()

    # ----------------------------------------------------------------- memory
    def check_alloc(self, nbytes):
        """Refuse a single allocation that alone would pass the ceiling."""
        if self.max_memory is not None and self.memory_used + nbytes > self.max_memory:
            from . import memory
            memory.measure(self)
            if self.memory_used + nbytes > self.max_memory:
                raise LuaMemoryError('not enough memory')

    def charge(self, nbytes):
        """Account a new allocation; when the debt is large, measure the live heap.

        Translated code adds small allocations to ``DEBT`` without a check; the
        periodic check (every 10,000 instructions) looks at it too."""
        debt = self.debt_cell.cell_contents = self.debt_cell.cell_contents + nbytes
        if self.max_memory is not None and debt > self._debt_limit():
            self._collect(nbytes)

    def _debt_limit(self):
        # Lua's GC pacing applied to accounting: measure again after allocating
        # an eighth of the ceiling, or sooner when the ceiling is near.
        return min(self.max_memory // 8, self.max_memory - self.memory_used)

    def _collect(self, pending=0):
        """Measure the live heap; ``pending`` bytes were just allocated and
        are live though nothing reachable holds them yet."""
        from . import memory
        memory.measure(self)
        self.memory_used += pending
        if self.memory_used > self.max_memory:
            raise LuaMemoryError('not enough memory')


def count_instructions(n):
    """Count ``n`` instructions of work for the VM this thread runs, if any:
    the check the compiler calls."""
    vm = running.vm
    if vm is not None:
        vm.tickn(n)


def analysis_pass(fn):
    """A compiler pass over the instructions of a prototype (its first
    argument), counted before it runs: a long function's passes, each
    tens of milliseconds, then each start with a check."""
    @functools.wraps(fn)
    def counted(p, *args):
        count_instructions(len(p.code) * ANALYSE_INSTRUCTION)
        return fn(p, *args)
    return counted


def count_work(nbytes):
    """Count ``nbytes`` of work for the VM this thread runs, if any: the
    check the compiler and the helpers without a VM at hand call."""
    vm = running.vm
    if vm is not None:
        vm.work(nbytes)


def reserve_memory(nbytes):
    """Refuse work that needs ``nbytes`` of memory at once when that alone
    would pass the ceiling of the VM this thread runs, if any: the check
    the compiler makes before each stage."""
    vm = running.vm
    if vm is not None:
        vm.check_alloc(nbytes)


class _Running(threading.local):
    """The VM whose Lua code the current thread runs (string metatables,
    coroutines and charges are per VM); one per thread, as runtimes used
    from different threads run side by side."""
    vm = None


running = _Running()


def set_current(vm):
    previous = running.vm
    running.vm = vm
    if vm is not None and vm.debug_hooks is not None:
        vm.debug_hooks.resume()       # a state's hooks outlive its runs
    return previous
