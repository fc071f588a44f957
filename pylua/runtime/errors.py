"""The error types pylua raises; nothing else ever leaves the VM."""
from __future__ import annotations


class LuaError(Exception):
    """A Lua error, ``LuaError(value[, traceback])``.  ``value`` is the Lua
    error value (any Lua value); ``traceback`` is Lua's stack traceback
    text when known."""

    # No __init__ of its own: every failing pcall makes an error, and one
    # made through a Python __init__ took 1.2 us against 0.27.  What was
    # given stays in ``args``; the class's defaults stand for the rest.
    _traceback = None
    _describe_stack = None

    @property
    def value(self):
        return self.args[0] if self.args else None

    @value.setter
    def value(self, value):
        self.args = (value,) + self.args[1:]

    @property
    def traceback(self) -> str | None:
        # Made on first read: a cancel deep in a recursion would otherwise
        # walk every level of the stack before the host sees the error.
        if self._traceback is None:
            if self._describe_stack is not None:
                self._traceback = self._describe_stack()
                self._describe_stack = None
            elif len(self.args) > 1:
                self._traceback = self.args[1]
        return self._traceback

    @traceback.setter
    def traceback(self, text: str | None):
        self._traceback = text
        self._describe_stack = None

    def describe_stack_later(self, describe) -> None:
        """Let ``describe()`` make the traceback text when it is first read."""
        if self.traceback is None:
            self._describe_stack = describe

    def __str__(self):
        v = self.value
        if isinstance(v, str):
            return v.encode('latin-1').decode('utf-8', 'replace')
        if v is None:
            return 'nil'
        return '(error object is a %s value)' % type(v).__name__


class LuaSyntaxError(LuaError):
    """The source does not compile; ``value`` is Lua's message,
    e.g. ``input:1: unexpected symbol near ')'``."""


class LuaMemoryError(LuaError):
    """An allocation passed the runtime's memory ceiling."""

    def __init__(self, value='not enough memory', traceback=None):
        super().__init__(value, traceback)


def out_of_memory(exc) -> bool:
    """Is ``exc`` a memory error (the ceiling's, or Python's own)?  Lua
    runs no message handler for those (LUA_ERRMEM)."""
    return isinstance(exc, (LuaMemoryError, MemoryError))


class LuaInterrupt(LuaError):
    """The run was stopped: ``cancel()``, or an instruction hook raised it.
    ``pcall``, ``xpcall`` and ``coroutine.resume`` let it through: Lua code
    cannot catch it."""


class LuaHookError(LuaInterrupt):
    """An instruction hook raised something other than ``LuaInterrupt``; the
    message names it (``error in hook: RuntimeError: ...``) and
    ``__cause__`` is the original.  Lua code cannot catch it either."""


class ExitRequest(BaseException):
    """Raised by os.exit; not a Lua error, so pcall does not catch it.
    ``close`` asks to close the state (run pending finalizers) first."""

    def __init__(self, code, close=False):
        super().__init__(code)
        self.code = code
        self.close = close
