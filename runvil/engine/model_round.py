"""One model round as an effect: the request a round sends, the Harness's
answer, and what the round reports.

The Engine builds the request and issues it as a ``model.round`` effect;
the Harness sends it through the gateway client and answers with a
``RoundResult`` (the completion or the completion error, plus the raw
traffic when debug capture is on).  Judging the answer and reporting it
stay here, so the events of a round come out in the run's own order:

1. ``request`` / ``response`` (debug mode; none for an empty reply);
2. ``model_turn_completed`` (or ``model_turn_failed``);
3. ``thinking`` when the model returned reasoning;
4. ``model_turn_truncated`` when a reply with text finished with ``length``;
5. ``assistant_reply``.

A round the Host stops or the run cancels never gets here: the Harness
answers it as interrupted or dropped, and it reports nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import precheck
from .effects import request
from .model_failures import completion_failure, context_exhausted
from .luatext import lua, text

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
class RoundResult:
    """The Harness's answer to a model.round effect: exactly one of
    ``completion`` and ``error``; ``captures`` are DebugCaptures in order."""
    completion: object = None
    error: object = None
    captures: tuple = ()


def infer(run, section: str | None, target: Target, prompt: str):
    """One round with no tools over one user message (a generator); returns
    the reply text as a Lua string."""
    body = dict(target.options, model=target.model,
                messages=[{'role': 'user', 'content': text(prompt)}])
    where = {'section': section, 'model': target.model, 'role': target.role, 'origin': INFER_ORIGIN}
    tokens = precheck.estimate([len(prompt)])     # a Lua string is its UTF-8 bytes
    if not precheck.admits(tokens, target.context_window, target.options.get('max_tokens')):
        failure = context_exhausted('precheck')
        run.emit('model_turn_failed', **where, reason='precheck', message=failure.message)
        raise failure
    result = yield from request(MODEL_ROUND, body)
    completion = result.completion
    if result.error is not None:
        _debug(run, where, result.captures)
        failure = completion_failure(result.error)
        run.emit('model_turn_failed', **where, kind=str(result.error.kind), message=failure.message,
                 retryable=failure.retryable)
        raise failure
    run.rounds += 1
    turn = dict(where, turn=run.rounds, finish_reason=completion.finish_reason, usage=_usage(completion))
    if completion.is_empty:
        error = completion.empty_reply_error()
        run.emit('model_turn_completed', **turn, message=error.message)
        raise completion_failure(error)
    _debug(run, where, result.captures)
    run.emit('model_turn_completed', **turn)
    if completion.reasoning:
        run.emit('thinking', **where, text=completion.reasoning)
    if completion.finish_reason == 'length':
        run.emit('model_turn_truncated', **where, turn=run.rounds)
    run.emit('assistant_reply', **turn, text=completion.text)
    return lua(completion.text)


def _debug(run, where: dict, captures) -> None:
    for capture in captures:
        fields = {'body': capture.body.decode('utf-8', 'replace')}
        if capture.status is not None:
            fields['status'] = capture.status
        run.emit(capture.direction, **where, **fields)


def _usage(completion) -> dict | None:
    usage = completion.usage
    if usage is None:
        return None
    return {'prompt_tokens': usage.prompt_tokens, 'completion_tokens': usage.completion_tokens,
            'reasoning_tokens': usage.reasoning_tokens}
