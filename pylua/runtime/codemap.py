"""What the runtime knows of code objects, looked up by identity.

A code object hashes and compares by its contents (its bytecode,
constants and names), computed afresh at every lookup: in a dict or a
``WeakKeyDictionary`` keyed by the code of a translated function of
3,000 lines, one lookup cost 340 us, and errors, tracebacks, hooks and
the debug library look up every frame they pass.  ``CodeMap`` keys by
``id`` instead and holds its code weakly: an entry goes when its code
does, before another object can take that id.
"""
from __future__ import annotations

import weakref


class CodeMap:
    """A mapping from code objects, by identity, that does not keep them alive."""
    __slots__ = ('_entries',)

    def __init__(self):
        self._entries = {}            # id(code) -> (weak reference to code, value)

    def __setitem__(self, code, value):
        key = id(code)
        entries = self._entries

        def gone(ref):
            if entries.get(key, (None,))[0] is ref:
                del entries[key]
        entries[key] = (weakref.ref(code, gone), value)

    def get(self, code, default=None):
        entry = self._entries.get(id(code))
        if entry is None or entry[0]() is not code:
            return default
        return entry[1]

    def __getitem__(self, code):
        entry = self._entries.get(id(code))
        if entry is None or entry[0]() is not code:
            raise KeyError(code)
        return entry[1]

    def __contains__(self, code):
        entry = self._entries.get(id(code))
        return entry is not None and entry[0]() is code

    def __len__(self):
        return len(self._entries)


class CodeSet(CodeMap):
    """A set of code objects, by identity, that does not keep them alive."""
    __slots__ = ()

    def add(self, code):
        self[code] = True
