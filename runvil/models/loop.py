"""The model-tool loop: ``models.loop(compactor?)`` and
``handle:loop(compactor?)``.

One call runs rounds over the section's live list until the model replies
with text.  Each round: the list must hold records, the model is chosen
(the handle's, else the section's current one), the section's tool list is
rendered (fixed at the first round), the cross-record rules are checked
and the list composed, then the precheck admits it or the round overflows.

Each answer is judged in a fixed order: a context overflow (the compactor
rewrites the list, the round is retried once, not counted), tool calls (a
tool round: every call answered, then the whole batch appended), a
non-empty text (the terminal record; the call returns), and the clean exit
(an empty ``stop`` reply after at least one answered call).  Anything else
raises ``empty_model_reply``.  A call makes at most the round cap of
rounds; the cap's last tool round raises ``tool_loop_exhausted``.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby

from ..conversation import precheck
from ..conversation.compaction import BUSY, check_compactor
from ..tools.calls import ToolRequest, run_bound, untrusted
from ..tools.scope import BoundTool, out_of_scope
from ..vocabulary.bounded_json import loads
from ..vocabulary.crossing import TEXT
from ..vocabulary.failure import Failure, lua_failure
from ..vocabulary.kinds import ErrorKind, RunErrorKind
from ..vocabulary.model_failures import completion_failure, context_exhausted
from .rounds import ProviderOverflow, RoundRequest, refuse, report_reply, send, where

CHAT_ORIGIN = 'chat'
NOT_CONVERGED = 'tool-call loop did not converge'
EMPTY_LIST = 'messages must not be empty'


def loop_exhausted() -> Failure:
    return Failure(RunErrorKind.TOOL, NOT_CONVERGED, error_kind=ErrorKind.TOOL_LOOP_EXHAUSTED)


class Loop:
    """One section VM's loop entries."""

    def __init__(self, vm, messages, compaction, tools, models):
        self.vm = vm
        self.run = vm.run
        self.list = messages
        self.compaction = compaction
        self.tools = tools
        self.models = models
        self.loop = vm.generator('models.loop', self._models_loop)
        self.handle_loop = vm.generator('loop', self._handle_loop)

    # -- the entries ------------------------------------------------------------------
    def _models_loop(self, *args):
        if args and self.models.handles.target_of(args[0]) is not None:
            raise lua_failure('models.loop takes (compactor?); call handle:loop(compactor?) to run on a model handle')
        if len(args) > 1:
            raise lua_failure('models.loop takes (compactor?)')
        return (yield from self._start(self.models.current, args[0] if args else None))

    def _handle_loop(self, *args):
        target = self.models.handles.target_of(args[0]) if args else None
        if target is None:
            raise lua_failure('call loop on a model handle with a colon: handle:loop(compactor?)')
        if len(args) > 2:
            raise lua_failure('handle:loop takes (compactor?)')
        return (yield from self._start(lambda: target, args[1] if len(args) > 1 else None))

    def _start(self, pick, compactor):
        check_compactor(compactor)
        if self.list.busy is not None:
            raise lua_failure(BUSY)
        if compactor is None:
            compactor = self.compaction.default()
        self.list.busy = 'loop'
        try:
            yield from _Call(self, pick, compactor).run()
        finally:
            self.list.busy = None
        return (None,)


class _Call:
    """One loop call: its round tally and the tool calls it answered."""

    def __init__(self, loop: Loop, pick, compactor):
        self.loop = loop
        self.state = loop.run
        self.list = loop.list
        self.pick = pick
        self.compactor = compactor
        self.rounds = 0
        self.answered = 0

    def run(self):
        cap = self.state.round_cap
        while True:
            completion, place = yield from self.round()
            self.rounds += 1
            if completion.tool_calls:
                yield from self.tool_round(completion, place)
                self.answered += len(completion.tool_calls)
                if self.rounds >= cap:
                    raise loop_exhausted()
                continue
            if completion.is_empty and not (self.answered and completion.finish_reason == 'stop'):
                raise completion_failure(completion.empty_reply_error())
            text = completion.text if not completion.is_empty else ''
            report_reply(self.state, place, completion)
            self.list.store({'role': 'assistant', 'content': text})
            self.state.emit('reply', section=place['section'], turn=self.state.rounds, origin=CHAT_ORIGIN,
                            finish_reason=completion.finish_reason, text=text)
            return

    # -- one round ---------------------------------------------------------------------
    def round(self):
        """Send one round, through an overflow and its retry (a generator);
        returns the served Completion and the round's event fields."""
        attempt = self.prepare()
        overflow = yield from self.attempt(attempt)
        if overflow.__class__ is not str:
            return overflow, attempt.place
        before = precheck.estimate(attempt.sent, attempt.text_bytes)
        snapshot = self.list.snapshot()
        yield from self.loop.compaction.run(self.compactor, TEXT.give(overflow))
        if self.list.records and precheck.estimate(*self.list.request()) >= before:
            self.list.restore(snapshot)
            raise context_exhausted(overflow)
        retry = self.prepare()
        overflow = yield from self.attempt(retry)
        if overflow.__class__ is not str:
            return overflow, retry.place
        self.list.restore(snapshot)
        raise context_exhausted(overflow)

    def prepare(self) -> '_Attempt':
        if not self.list.records:
            raise lua_failure(EMPTY_LIST)
        target = self.pick()
        self.loop.tools.scope.render()
        self.deliver_notices()
        place = where(self.loop.vm.section_name, target, CHAT_ORIGIN)
        try:
            sent, text_bytes = self.list.request()
        except Failure as failure:
            refuse(self.state, place, failure)
            raise
        return _Attempt(target, place, sent, text_bytes)

    def deliver_notices(self) -> None:
        """The notices of the model's tasks that ended since the last round
        join the list as user records, ahead of the precheck."""
        notices = self.loop.vm.notices
        while notices:
            self.list.store({'role': 'user', 'content': notices.pop(0)})

    def attempt(self, attempt: '_Attempt'):
        """Send the round unless the precheck refuses it (a generator);
        returns the Completion, or the overflow reason."""
        target = attempt.target
        tokens = precheck.count(attempt.sent, target.model, self.list.anchor, attempt.text_bytes)
        if not precheck.admits(tokens, target.context_window, target.options.get('max_tokens')):
            refuse(self.state, attempt.place, context_exhausted('precheck'))
            return 'precheck'
        body = dict(target.options, model=target.model, messages=attempt.sent)
        tools = self.loop.tools.scope.rendered
        if tools:
            body['tools'] = tools
        added = attempt.sent[_first_difference(self.list.logged, attempt.sent):]
        self.list.logged = attempt.sent
        try:
            completion = yield from send(self.state, attempt.place, RoundRequest(body, tool_calls_allowed=True),
                                         added)
        except ProviderOverflow:
            return 'provider'
        if completion.usage is not None:
            self.list.anchor = precheck.Anchor(target.model, attempt.sent, completion.usage.anchor)
        return completion

    # -- a tool round -------------------------------------------------------------------
    def tool_round(self, completion, place):
        """Answer every call of the round, then append the whole batch."""
        scope = self.loop.tools.scope
        calls = [(call, scope.in_scope(call.name), loads(call.arguments)) for call in completion.tool_calls]
        for call, tool, _ in calls:
            if tool is None:
                raise out_of_scope(call.name)
        self.state.emit('tool_calls', **place, turn=self.state.rounds,
                        calls=[{'id': call.id, 'name': call.name, 'arguments': arguments}
                               for call, _, arguments in calls])
        results: list[str] = []
        # Consecutive Pack tool calls go out together; a local call runs alone.
        for bound, group in groupby(calls, key=lambda entry: isinstance(entry[1], BoundTool)):
            if bound:
                results += yield from self.bound(list(group), place)
                continue
            for call, tool, arguments in group:    # a local tool or a task built-in
                results.append((yield from self.loop.tools.run_unbound(tool, arguments)))
                self.observe(place, call, True)
        self.list.store({'role': 'assistant', 'content': '',
                         'tool_calls': [{'id': call.id, 'name': call.name, 'arguments': arguments}
                                        for call, _, arguments in calls]})
        for (call, _, _), text in zip(calls, results):
            self.list.store({'role': 'tool', 'content': text, 'tool_call_id': call.id})

    def bound(self, group, place):
        """Run consecutive Pack tool calls together; failures become
        untrusted text for the model."""
        requests = [ToolRequest(tool.pack, tool.tool.name, arguments) for _, tool, arguments in group]
        survives = all(tool.tool.survives_stop for _, tool, _ in group)
        answers = yield from run_bound(requests, survives)
        texts = []
        for (call, tool, _), answer in zip(group, answers):
            self.observe(place, call, answer.ok, None if answer.ok else answer.text)
            texts.append(answer.text if answer.ok else untrusted(tool.label, answer.text))
        return texts

    def observe(self, place, call, ok: bool, message: str | None = None) -> None:
        fields = dict(place, turn=self.state.rounds, id=call.id, name=call.name)
        if ok:
            self.state.emit('tool_call_succeeded', **fields)
        else:
            self.state.emit('tool_call_failed', **fields, message=message)


@dataclass(frozen=True)
class _Attempt:
    """A round ready to go: its model, event fields and request messages."""
    target: object
    place: dict
    sent: list
    text_bytes: int


def _first_difference(logged: list, sent: list) -> int:
    n = 0
    for old, new in zip(logged, sent):
        if old is not new and old != new:     # most messages are shared with the last request
            break
        n += 1
    return n
