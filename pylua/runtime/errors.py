"""The error types pylua raises; nothing else ever leaves the VM."""
from __future__ import annotations


class LuaError(Exception):
    """A Lua error.  ``value`` is the Lua error value (any Lua value);
    ``traceback`` is Lua's stack traceback text when known."""

    def __init__(self, value, traceback: str | None = None):
        super().__init__(value)
        self.value = value
        self._traceback = traceback
        self._describe_stack = None

    @property
    def traceback(self) -> str | None:
        # Made on first read: a cancel deep in a recursion would otherwise
        # walk every level of the stack before the host sees the error.
        if self._traceback is None and self._describe_stack is not None:
            self._traceback = self._describe_stack()
            self._describe_stack = None
        return self._traceback

    @traceback.setter
    def traceback(self, text: str | None):
        self._traceback = text
        self._describe_stack = None

    def describe_stack_later(self, describe) -> None:
        """Let ``describe()`` make the traceback text when it is first read."""
        if self._traceback is None:
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


class LuaInterrupt(LuaError):
    """The run was stopped: ``cancel()``, or an instruction hook raised it.
    ``pcall``, ``xpcall`` and ``coroutine.resume`` let it through: Lua code
    cannot catch it."""


class LuaHookError(LuaInterrupt):
    """An instruction hook raised something other than ``LuaInterrupt``; the
    message names it (``error in hook: RuntimeError: ...``) and
    ``__cause__`` is the original.  Lua code cannot catch it either."""
