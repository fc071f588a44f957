"""Answers ``tool.calls`` effects: runs Pack tools, each call on a thread of
its own so the calls of one effect run in parallel, and answers with their
results in the calls' order once every call is done.

``abort()`` (a stop, a cancel, or the outcome decided) sets every call's
abort event; the Harness no longer waits for the effect, so whatever the
tools still return is ignored.
"""
from __future__ import annotations

import threading

from ..engine import Answer
from ..tools import ToolContext, ToolFailure
from ..tools.calls import TOOL_CALLS, ToolResult


class ToolAnswerer:
    def __init__(self, packs: dict):
        self.packs = packs

    def __call__(self, effect, reply) -> '_Calls':
        work = _Calls(len(effect.payload), reply)
        for index, call in enumerate(effect.payload):
            threading.Thread(target=self._run, args=(call, index, work), daemon=True,
                             name='runvil-tool-%d-%d' % (effect.id, index)).start()
        return work

    def _run(self, call, index: int, work: '_Calls') -> None:
        tool = self.packs[call.pack].tool(call.tool)
        try:
            result = ToolResult(True, str(tool.run(dict(call.arguments), work.context)))
        except ToolFailure as failure:
            result = ToolResult(False, str(failure) or 'the tool failed')
        except Exception as err:        # a fault of the Pack's own code
            result = ToolResult(False, '%s: %s' % (type(err).__name__, err))
        work.done(index, result)


class _Calls:
    def __init__(self, count: int, reply):
        self.context = ToolContext()
        self.results: list = [None] * count
        self.left = count
        self.lock = threading.Lock()
        self.reply = reply

    def done(self, index: int, result: ToolResult) -> None:
        with self.lock:
            self.results[index] = result
            self.left -= 1
            finished = self.left == 0
        if finished:
            self.reply(Answer.ok(TOOL_CALLS, tuple(self.results)))

    def abort(self) -> None:
        self.context.abort.set()
