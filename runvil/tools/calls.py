"""Bound tool calls as effects, and how a failure reads to the model.

Pack tools run in the Harness: the Engine issues one ``tool.calls`` effect
for a group of calls that may run together (the model's consecutive bound
calls in one round, or a single ``tools.call``), and the Harness answers
with one ``ToolResult`` per call, in the calls' order.

A failed bound tool's message is untrusted text (a web page, a remote
error): in a loop it reaches the model inside ``<untrusted_input_TAG>``
tags, where TAG is derived from the text itself, so the text cannot close
the tag it sits in.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..vocabulary.effects import request

TOOL_CALLS = 'tool.calls'


@dataclass(frozen=True)
class ToolRequest:
    pack: str
    tool: str
    arguments: dict

    @property
    def label(self) -> str:
        return '%s/%s' % (self.pack, self.tool)


@dataclass(frozen=True)
class ToolResult:
    """One call's answer: its result text, or the failure message."""
    ok: bool
    text: str


def run_bound(requests: list[ToolRequest], survives_stop: bool):
    """Issue ``requests`` as one effect (a generator); returns their results."""
    results = yield from request(TOOL_CALLS, tuple(requests), survives_stop=survives_stop)
    return list(results)


def untrusted(label: str, message: str) -> str:
    """A bound tool's failure as the text of its tool record."""
    tag = 'untrusted_input_' + hashlib.sha256(message.encode('utf-8', 'surrogatepass')).hexdigest()[:16]
    return 'tool %s failed: <%s>%s</%s>' % (label, tag, message, tag)
