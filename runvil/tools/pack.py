"""Packs: named sets of tools a prompt declares under ``uses:``.

A Pack is plain Python the Host loads (``--pack MODULE``): the module's
``PACKS`` lists ``Pack`` values, each with its tools and, optionally, a Lua
prelude.  The Engine reads a Pack's tool names,
descriptions and parameter schemas to offer them to a model; the Harness
runs a tool (``PackTool.run(arguments, context)``) on a thread of its own,
so Pack tools called in one batch run in parallel.  A tool returns its
result text, or raises ``ToolFailure`` with a message; it should watch
``context.cancelled()`` and return early once the call is aborted.
"""
from __future__ import annotations

import importlib
import threading
from dataclasses import dataclass, field
from typing import Callable

EMPTY_SCHEMA = {'type': 'object', 'properties': {}}


class ToolFailure(Exception):
    """A tool that could not do its job; the message says why."""


@dataclass(frozen=True)
class ToolContext:
    """What a running tool can ask of the Harness."""
    abort: threading.Event = field(default_factory=threading.Event)

    def cancelled(self) -> bool:
        """True once the Harness stopped waiting for this call."""
        return self.abort.is_set()

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``; True when the call was aborted meanwhile."""
        return self.abort.wait(seconds)


@dataclass(frozen=True)
class PackTool:
    name: str
    description: str
    run: Callable[[dict, ToolContext], str]
    parameters: dict = field(default_factory=lambda: dict(EMPTY_SCHEMA))
    survives_stop: bool = False


@dataclass(frozen=True)
class Pack:
    """``prelude`` is Lua source the Pack installs in every section VM of a
    prompt that declares it (helpers around its tools, say), run before any
    of the section's code."""
    id: str
    tools: tuple[PackTool, ...]
    prelude: str = ''

    def tool(self, name: str) -> PackTool | None:
        for tool in self.tools:
            if tool.name == name:
                return tool
        return None


def load_packs(module_names) -> dict[str, Pack]:
    """The Packs the modules' ``PACKS`` lists hold, by id; ValueError for a
    module that cannot be used."""
    packs: dict[str, Pack] = {}
    for name in module_names:
        try:
            module = importlib.import_module(name)
        except ImportError as err:
            raise ValueError('cannot import Pack module %s: %s' % (name, err)) from None
        found = getattr(module, 'PACKS', None)
        if not isinstance(found, (list, tuple)) or not all(isinstance(p, Pack) for p in found):
            raise ValueError('Pack module %s has no PACKS list of Pack values' % name)
        for pack in found:
            if pack.id in packs:
                raise ValueError('Pack %s is loaded twice' % pack.id)
            packs[pack.id] = pack
    return packs
