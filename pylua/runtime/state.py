"""Per-runtime VM state: the namespace translated code runs in, the
instruction budget and cancel check, and the memory account."""
from __future__ import annotations

import threading
from types import CellType

from .errors import LuaInterrupt, LuaMemoryError

CHECK_INTERVAL = 10000
INTERRUPTED = 'interrupted'


class VM:
    """One Lua state.  ``ns`` is the globals dict of every translated function
    of this state; ``steps_cell`` holds the instruction budget ``STEPS`` that
    all of them count down and ``debt_cell`` the allocation debt ``DEBT``
    they add to (closure cells, cheaper than globals)."""

    def __init__(self, max_memory=None):
        self.ns = {}
        self.globals = None
        self.string_meta = None
        self.type_metas = {}          # type name -> metatable for the other types (debug.setmetatable)
        self.registry = {}
        self.max_memory = max_memory
        self.cancel_event = threading.Event()
        self.cancel_message = INTERRUPTED
        self.hook = None              # (callable, every_n_instructions)
        self._hook_left = 0
        self.instructions = 0         # settled instruction count
        self.memory_used = 0          # accounted live bytes (see memory module)
        self.stdout = None
        self.stderr = None
        self.coroutine = None         # the running Coroutine, None in the main thread
        self.collector = None         # weak tables and finalizers (runtime/collector.py), once used
        self.warn = None              # the warning function (standalone: lua.c's)
        self.steps_cell = CellType(CHECK_INTERVAL)
        self.debt_cell = CellType(0)  # DEBT: bytes allocated since the heap was last measured
        self.ns['TICK'] = self.tick
        self.ns['TICKN'] = self.tickn
        self.ns['CHARGE'] = self.charge

    # ------------------------------------------------------ instruction budget
    def tick(self):
        """The periodic check, run when ``STEPS`` drops below zero."""
        cell = self.steps_cell
        spent = CHECK_INTERVAL - cell.cell_contents
        cell.cell_contents = CHECK_INTERVAL
        self.instructions += spent
        if self.cancel_event.is_set():
            raise LuaInterrupt(self.cancel_message)
        if self.max_memory is not None and self.debt_cell.cell_contents > self._debt_limit():
            self._collect()
        if self.collector is not None:
            self.collector.maybe_collect()
        if self.hook is not None:
            fn, every = self.hook
            self._hook_left -= spent
            if self._hook_left <= 0:
                self._hook_left = every
                fn(self.instructions)

    def tickn(self, n):
        """Count ``n`` instructions of loop or library work."""
        cell = self.steps_cell
        s = cell.cell_contents = cell.cell_contents - n
        if s < 0:
            self.tick()

    def cancel(self, message=INTERRUPTED):
        """Thread-safe: make the next check raise ``LuaInterrupt``."""
        self.cancel_message = message
        self.cancel_event.set()
        self.steps_cell.cell_contents = -1

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
            self._collect()

    def _debt_limit(self):
        # Lua's GC pacing applied to accounting: measure again after allocating
        # an eighth of the ceiling, or sooner when the ceiling is near.
        return min(self.max_memory // 8, self.max_memory - self.memory_used)

    def _collect(self):
        from . import memory
        memory.measure(self)
        if self.memory_used > self.max_memory:
            raise LuaMemoryError('not enough memory')


# The VM whose Lua code is running (translated code runs one VM at a time on
# the Lua thread); string metatables are per VM.
current = None


def set_current(vm):
    global current
    previous = current
    current = vm
    return previous
