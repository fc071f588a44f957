"""How model failures reach Lua and end a run.

A model call failure (transport, backend, decode, a disabled gateway) is an
error value of kind internal with no fields beyond kind and message, and
ends the run as Completion, keeping the retryable flag.  An empty reply is
kind empty_model_reply (with ``finish_reason`` when the provider gave one),
also Completion.  The missing-model error is kind internal too, but ends
the run as Binding.  A request the precheck refuses is context_exhausted
with its ``reason``.
"""
from __future__ import annotations

from .failure import Failure
from .kinds import ErrorKind, RunErrorKind

EMPTY_REPLY_KIND = 'EmptyReply'
CONTEXT_OVERFLOW_KIND = 'ContextOverflow'
OVERFLOW_DETAIL = {
    'precheck': "the request precheck overflowed the model's context window",
    'provider': "the provider rejected the request as exceeding the model's context window",
}


def binding_required(section: str) -> Failure:
    return Failure(RunErrorKind.BINDING, 'model binding required for section %s' % section,
                   error_kind=ErrorKind.INTERNAL)


def completion_failure(error) -> Failure:
    """The Failure for a ``CompletionError`` of the gateway client."""
    if error.kind == EMPTY_REPLY_KIND:
        fields = {} if error.finish_reason is None else {'finish_reason': error.finish_reason}
        return Failure(RunErrorKind.COMPLETION, error.message, error_kind=ErrorKind.EMPTY_MODEL_REPLY,
                       fields=fields)
    return Failure(RunErrorKind.COMPLETION, error.message, error_kind=ErrorKind.INTERNAL,
                   retryable=error.retryable)


def context_exhausted(reason: str) -> Failure:
    detail = OVERFLOW_DETAIL.get(reason, reason)
    return Failure(RunErrorKind.CONTEXT_EXHAUSTED, 'context exhausted: ' + detail,
                   error_kind=ErrorKind.CONTEXT_EXHAUSTED, fields={'reason': reason})
