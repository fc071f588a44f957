"""The Host's help when the model backend rejects a round.

The run error keeps the spec's words (``the model backend rejected the
request (status N)``); no backend text reaches it.  The Host adds a hint
beside it: which model id was sent and where that id came from (a binding,
the prompt's frontmatter, or the default), how to bind a role, the ids the
gateway lists at ``GET {url}/models``, the prompt options the request
carried, and in ``--debug`` mode the backend's own reply body.

``RejectionRecorder`` sits between the Harness and the gateway client and
keeps each rejected round's request facts; ``rejection_hint`` turns the
one that ended the run into the hint's lines.
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass

REJECTED = 'Rejected'
# The conversation itself; every other request field is a prompt option.
CONVERSATION_FIELDS = frozenset({'model', 'messages', 'tools', 'tool_choice', 'stream', 'stream_options'})
LISTED_IDS_SHOWN = 20
LIST_TIMEOUT = 5.0      # seconds: the hint must not hold the report up for long


@dataclass(frozen=True)
class RejectedRound:
    message: str                # the run error message it gave
    model: object               # the model id the request sent
    options: tuple[str, ...]    # the prompt options sent, as ``name=value``
    backend_body: bytes | None  # the backend's reply body (captured in --debug mode only)


class RejectionRecorder:
    """The gateway as the Harness sees it: rounds pass through unchanged,
    and the rejected ones are kept for the hint."""

    def __init__(self, gateway):
        self.gateway = gateway
        self._rejected: list[RejectedRound] = []
        self._lock = threading.Lock()

    def submit(self, request, *, debug=None, **listeners):
        captured = []
        if debug is not None:
            def capture(item) -> None:
                captured.append(item)
                debug(item)
            listeners['debug'] = capture
        future = self.gateway.submit(request, **listeners)
        future.add_done_callback(lambda done: self._note(done, request, captured))
        return future

    def list_models(self, **options):
        return self.gateway.list_models(**options)

    def close(self) -> None:
        self.gateway.close()

    def last_rejection(self, message: str) -> RejectedRound | None:
        """The last rejected round that gave ``message``."""
        with self._lock:
            return next((r for r in reversed(self._rejected) if r.message == message), None)

    def _note(self, done, request, captured: list) -> None:
        error = None if done.cancelled() else done.exception()
        if getattr(error, 'kind', None) != REJECTED:
            return
        options = tuple('%s=%s' % (name, json.dumps(value, ensure_ascii=False))
                        for name, value in request.items() if name not in CONVERSATION_FIELDS)
        body = next((c.body for c in captured if c.direction == 'response'), None)
        with self._lock:
            self._rejected.append(RejectedRound(str(error), request.get('model'), options, body))


def rejection_hint(error: dict, recorder: RejectionRecorder, sources, roles: tuple,
                   debug: bool) -> list[str]:
    """The hint's lines for a failed run's ``error`` (its report dict);
    none unless a rejected round gave that error."""
    rejected = recorder.last_rejection(error['message'])
    if rejected is None:
        return []
    model = rejected.model
    lines = ['model `%s` was sent: %s' % (model, _where_from(model, sources, roles)),
             'bind a role to a model the gateway serves with --bind ROLE=MODEL, '
             'or in the config file: [models.bind] ROLE = "MODEL"']
    lines.append(_listed(recorder, model))
    if rejected.options:
        lines.append('prompt options sent: %s (a gateway may refuse options its backend does not support)'
                     % ', '.join(rejected.options))
    if not debug:
        lines.append("run with --debug to see the backend's reply body")
    elif rejected.backend_body is not None:
        from ..gateway.classify import bound_error_text
        lines.append("the backend's reply body: %s"
                     % bound_error_text(rejected.backend_body.decode('utf-8', 'replace')))
    return lines


def _where_from(model, sources, roles: tuple) -> str:
    reasons = []
    for role in roles:
        bound = sources.bound.get(role.label)
        if bound is not None:
            given, source = bound.model, 'role `%s` is bound to it by %s' % (role.label, bound.source)
        elif role.model is not None:
            given, source = role.model, "role `%s` names it in the prompt's frontmatter" % role.label
        else:
            given = sources.default_model
            source = 'role `%s` has no binding, so it gets the default model id (%s)' % (
                role.label, sources.default_source)
        if given == model:
            reasons.append(source)
    return '; '.join(reasons) or 'the prompt asked for this model id itself, not through a role'


def _listed(recorder: RejectionRecorder, model) -> str:
    from ..gateway import CompletionError
    try:
        listed = [info.id for info in recorder.list_models(timeout=LIST_TIMEOUT)]
    except CompletionError as err:
        return 'the gateway did not list its models (GET /models: %s)' % err
    if not listed:
        return 'the gateway lists no models (GET /models)'
    shown = ', '.join(listed[:LISTED_IDS_SHOWN])
    if len(listed) > LISTED_IDS_SHOWN:
        shown += ', and %d more' % (len(listed) - LISTED_IDS_SHOWN)
    among = ' (`%s` is one of them)' % model if model in listed else ''
    return 'the gateway lists these models: %s%s' % (shown, among)
