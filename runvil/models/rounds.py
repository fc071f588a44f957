"""One model round as an effect: the request a round sends, the Harness's
answer, and what the round reports.

The Engine builds the request and issues it as a ``model.round`` effect;
the Harness sends it through the gateway client and answers with a
``RoundResult`` (the completion or the completion error, plus the raw
traffic when debug capture is on).  Judging the answer and reporting it
stay here, so the events of a round come out in the run's own order:

1. ``chat``: the messages the request adds, as it leaves;
2. ``request`` / ``response`` (debug mode; none for an empty reply);
3. ``model_turn_completed`` (or ``model_turn_failed``);
4. ``thinking`` when the model returned reasoning;
5. ``model_turn_truncated`` when a reply with text finished with ``length``;
6. ``assistant_reply`` (or, in a loop, the tool-call batch).

``send`` is shared by ``models.infer`` (below) and the conversation loop.
A round the Host stops or the run cancels never gets here: the Harness
answers it as interrupted or dropped, and it reports nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..conversation import precheck
from ..vocabulary.effects import request
from ..vocabulary.model_failures import CONTEXT_OVERFLOW_KIND, completion_failure, context_exhausted

MODEL_ROUND = 'model.round'
INFER_ORIGIN = 'infer'


@dataclass(frozen=True)
class Target:
    """The model a round goes to: its gateway id, context window, the
    sampling fields its requests carry, and the role it was reached by
    (None for a raw model id)."""
    model: str
    context_window: int
    options: dict = field(default_factory=dict)
    role: str | None = None


@dataclass(frozen=True)
class RoundRequest:
    """A model.round effect's payload: the chat request body, whether the
    caller takes tool calls (a loop judges every call itself, even with no
    tool offered; an infer round takes none), and the round's event fields
    (section, model, role, origin, round id) for live output."""
    body: dict
    tool_calls_allowed: bool = False
    stamp: dict = field(default_factory=dict)


@dataclass(frozen=True)
class RoundResult:
    """The Harness's answer to a model.round effect: exactly one of
    ``completion`` and ``error``; ``captures`` are DebugCaptures in order."""
    completion: object = None
    error: object = None
    captures: tuple = ()


class ProviderOverflow(Exception):
    """The provider rejected a sent round as too large for the context
    window (reported already as a failed round); ``error`` is the
    gateway's CompletionError."""

    def __init__(self, error):
        super().__init__(error.message)
        self.error = error


def where(section: str | None, target: Target, origin: str) -> dict:
    """The fields every event of a round carries."""
    return {'section': section, 'model': target.model, 'role': target.role, 'origin': origin}


def refuse(run, place: dict, failure) -> None:
    """Report a round refused before it was sent (precheck, a broken list)."""
    fields = {'reason': failure.fields['reason']} if 'reason' in failure.fields else {}
    run.emit('model_turn_failed', **place, **fields, message=failure.message)


def send(run, place: dict, round_request: RoundRequest, added: list[dict]):
    """Send one round (a generator) and report it; returns the Completion
    of a served round, whose turn is ``run.rounds``.  ``added`` are the
    messages the chat record logs.  A failed round raises its Failure,
    except a provider context overflow, which raises ProviderOverflow."""
    run.sends += 1
    place = dict(place, round=run.sends)
    run.emit('chat', **place, messages=added)
    result = yield from request(MODEL_ROUND, replace(round_request, stamp=place))
    completion = result.completion
    if result.error is not None:
        _debug(run, place, result.captures)
        failure = completion_failure(result.error)
        run.emit('model_turn_failed', **place, kind=str(result.error.kind), message=failure.message,
                 retryable=failure.retryable)
        if result.error.kind == CONTEXT_OVERFLOW_KIND:
            raise ProviderOverflow(result.error)
        raise failure
    run.rounds += 1
    turn = dict(place, turn=run.rounds, finish_reason=completion.finish_reason, usage=_usage(completion))
    if completion.is_empty:
        run.emit('model_turn_completed', **turn, message=completion.empty_reply_error().message)
        return completion
    _debug(run, place, result.captures)
    run.emit('model_turn_completed', **turn)
    if completion.reasoning:
        run.emit('thinking', **place, text=completion.reasoning)
    if completion.finish_reason == 'length' and not completion.tool_calls:
        run.emit('model_turn_truncated', **place, turn=run.rounds)
    return completion


def report_reply(run, place: dict, completion) -> None:
    run.emit('assistant_reply', **place, round=run.sends, turn=run.rounds, finish_reason=completion.finish_reason,
             usage=_usage(completion), text=completion.text)


def infer(run, section: str | None, target: Target, prompt: str):
    """One round with no tools over one user message (a generator); returns
    the reply text."""
    message = {'role': 'user', 'content': prompt}
    body = dict(target.options, model=target.model, messages=[message])
    place = where(section, target, INFER_ORIGIN)
    if not precheck.admits(precheck.estimate([message]), target.context_window,
                           target.options.get('max_tokens')):
        failure = context_exhausted('precheck')
        refuse(run, place, failure)
        raise failure
    try:
        completion = yield from send(run, place, RoundRequest(body), [message])
    except ProviderOverflow:
        # conversations.txt names this case (context_exhausted, reason
        # provider) over the general rule that model failures are internal.
        raise context_exhausted('provider') from None
    if completion.is_empty:
        raise completion_failure(completion.empty_reply_error())
    report_reply(run, place, completion)
    return completion.text


def _debug(run, place: dict, captures) -> None:
    for capture in captures:
        fields = {'body': capture.body.decode('utf-8', 'replace')}
        if capture.status is not None:
            fields['status'] = capture.status
        run.emit(capture.direction, **place, **fields)


def _usage(completion) -> dict | None:
    usage = completion.usage
    if usage is None:
        return None
    return {'prompt_tokens': usage.prompt_tokens, 'completion_tokens': usage.completion_tokens,
            'reasoning_tokens': usage.reasoning_tokens}
