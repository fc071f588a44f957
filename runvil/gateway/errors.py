"""Typed failures of a model round.

Every failed round is one ``CompletionError`` whose kind is one of the spec's
completion error kinds.  The kind alone fixes the retryable answer, and the
message is always one of the spec's fixed phrases (plus ``(status N)`` when a
backend status caused it, or a fixed detail after a colon for a malformed
reply), so no text the backend sent can reach a message.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorKind(StrEnum):
    TRANSPORT = "Transport"
    TIMEOUT = "Timeout"
    MALFORMED_RESPONSE = "MalformedResponse"
    RATE_LIMITED = "RateLimited"
    QUOTA_EXHAUSTED = "QuotaExhausted"
    OVERLOADED = "Overloaded"
    SERVER_ERROR = "ServerError"
    REFUSED = "Refused"
    CONTEXT_OVERFLOW = "ContextOverflow"
    UNAVAILABLE = "Unavailable"
    REJECTED = "Rejected"
    EMPTY_REPLY = "EmptyReply"


# "Only model failures of completion error kind RateLimited, Overloaded,
# Timeout, Transport, ServerError, and MalformedResponse are retryable."
RETRYABLE_KINDS = frozenset({
    ErrorKind.RATE_LIMITED, ErrorKind.OVERLOADED, ErrorKind.TIMEOUT,
    ErrorKind.TRANSPORT, ErrorKind.SERVER_ERROR, ErrorKind.MALFORMED_RESPONSE,
})

TRANSPORT_FAILED = "the connection to the model backend failed"
NO_ANSWER_IN_TIME = "the model backend did not answer in time"
NOT_UNDERSTOOD = "the model backend sent a reply that could not be understood"
RATE_LIMITED = "the model backend is limiting the request rate"
QUOTA_SPENT = "the model backend says the usage quota is spent"
OVERLOADED = "the model backend is overloaded"
SERVER_FAULT = "the model backend reported a fault of its own"
POLICY_REFUSAL = "the model backend refused the request on content policy grounds"
CONTEXT_OVERFLOW = "the request is larger than the model's context window"
ACCESS_OFF = "model access is turned off or not configured"
BAD_CREDENTIALS = "the model backend did not accept the credentials"
REJECTED = "the model backend rejected the request"
EMPTY_REPLY = "the model replied with no text and no tool calls"
REASONING_IGNORED = "reasoning content was present but ignored"


class CompletionError(Exception):
    """A failed model round.

    ``str(error)`` is the message.  ``status`` is the backend HTTP status when
    one caused the failure; ``finish_reason`` is set only on an EmptyReply
    whose provider reported one.
    """

    def __init__(self, kind: ErrorKind, phrase: str, *, status: int | None = None,
                 finish_reason: str | None = None) -> None:
        message = phrase if status is None else f"{phrase} (status {status})"
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status
        self.finish_reason = finish_reason

    @property
    def retryable(self) -> bool:
        return self.kind in RETRYABLE_KINDS

    def __repr__(self) -> str:
        return f"CompletionError({self.kind.value}, {self.message!r})"


def malformed(detail: str) -> CompletionError:
    """A MalformedResponse with the fixed phrase followed by what was wrong."""
    return CompletionError(ErrorKind.MALFORMED_RESPONSE, f"{NOT_UNDERSTOOD}: {detail}")


class RoundCancelled(Exception):
    """The caller's cancel hook fired while the round was waiting.

    Not a model failure: the Engine turns it into the interrupted error.
    """

    def __init__(self) -> None:
        super().__init__("the model round was cancelled")
