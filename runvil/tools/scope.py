"""A section's tool scope: the tools offered so far, and the tool list a
model sees.

Offers collect until the section's first loop round renders the list
(``render``); from then on the list is fixed for the section and every
offer raises.  A Pack tool ``pack/tool`` is offered to the model as
``pack_tool``; a local tool under its own name.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..vocabulary.failure import Failure, lua_failure
from ..vocabulary.kinds import ErrorKind, RunErrorKind

RENDERED = ("the section's tool list was fixed by its first loop round; offer tools before the "
            "first models.loop call")


@dataclass(frozen=True)
class BoundTool:
    """A Pack tool: run by the Harness."""
    pack: str
    tool: object            # the PackTool

    @property
    def name(self) -> str:
        return '%s_%s' % (self.pack, self.tool.name)

    @property
    def label(self) -> str:
        return '%s/%s' % (self.pack, self.tool.name)

    def wire(self) -> dict:
        return _function(self.name, self.tool.description, self.tool.parameters)


@dataclass(frozen=True)
class LocalTool:
    """A tool whose handler is a Lua function of the section."""
    name: str
    description: str
    parameters: dict
    handler: object

    @property
    def label(self) -> str:
        return self.name

    def wire(self) -> dict:
        return _function(self.name, self.description, self.parameters)


def _function(name: str, description: str, parameters: dict) -> dict:
    return {'type': 'function', 'function': {'name': name, 'description': description,
                                             'parameters': parameters}}


class ToolScope:
    def __init__(self):
        self.offered: dict[str, BoundTool | LocalTool] = {}     # model-facing name -> tool
        self.rendered: list[dict] | None = None

    def offer(self, tool, who: str, *, replace: bool = False) -> None:
        """Add a tool to the scope; ``replace`` lets an offer widen a tool
        offered before (the task built-ins' sections)."""
        if self.rendered is not None:
            raise lua_failure('%s: %s' % (who, RENDERED))
        known = self.offered.get(tool.name)
        if known is not None and known != tool and not (replace and type(known) is type(tool)):
            raise lua_failure('%s: a tool named `%s` is already offered in this section' % (who, tool.name))
        self.offered[tool.name] = tool

    def render(self) -> list[dict]:
        """The section's tool list, fixed at the first call."""
        if self.rendered is None:
            self.rendered = [tool.wire() for tool in self.offered.values()]
        return self.rendered

    def in_scope(self, name: str):
        """The rendered tool the model calls by ``name``, or None."""
        return self.offered.get(name) if self.rendered is not None else None


def out_of_scope(name: str) -> Failure:
    return Failure(RunErrorKind.TOOL, 'the model called `%s`, which is not in this section\'s tool scope' % name,
                   error_kind=ErrorKind.OUT_OF_SCOPE_TOOL, fields={'name': name})


def unbound(name: str) -> Failure:
    return Failure(RunErrorKind.TOOL, 'tools.call: no local tool and no tool of a declared Pack is named `%s`'
                   % name, error_kind=ErrorKind.UNBOUND_TOOL, fields={'name': name})


def tool_failed(label: str, message: str) -> Failure:
    return Failure(RunErrorKind.TOOL, 'tool %s failed: %s' % (label, message), error_kind=ErrorKind.TOOL,
                   fields={'name': label})
