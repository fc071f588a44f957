"""Classify a failed reply into a completion error kind.

Two inputs exist: a non-success HTTP status with its (capped) body, and an
error the backend reports inside a stream that has already begun, which has
no status and is classified by its text alone.  Bodies and texts are only
searched for phrases; they never reach a message.
"""

from __future__ import annotations

from .errors import (
    BAD_CREDENTIALS,
    CONTEXT_OVERFLOW,
    OVERLOADED,
    POLICY_REFUSAL,
    QUOTA_SPENT,
    RATE_LIMITED,
    REJECTED,
    SERVER_FAULT,
    TRANSPORT_FAILED,
    CompletionError,
    ErrorKind,
)

# The twelve provider overflow phrases of conversations.txt, matched ignoring case.
SPEC_OVERFLOW_PHRASES = (
    "context length",
    "context window",
    "context size",
    "context_length_exceeded",
    "maximum context length",
    "prompt is too long",
    "too many tokens",
    "exceeds the available context size",
    "exceed_context_size",
    "input is too long",
    "exceeds the maximum number of tokens",
    "too large for model",
)

# Overflow wordings of servers people run that the twelve miss: vLLM's engine
# check ("... is longer than the maximum model length of 4096"), LiteLLM's
# error class (ContextWindowExceededError), Anthropic's input plus max_tokens
# check ("... exceed context limit: ...").
SERVER_OVERFLOW_PHRASES = (
    "maximum model length",
    "contextwindowexceeded",
    "context limit",
)

OVERFLOW_PHRASES = SPEC_OVERFLOW_PHRASES + SERVER_OVERFLOW_PHRASES

# "A 429 whose body names a quota, billing, or credit" (credits, insufficient_quota ...).
QUOTA_WORDS = ("quota", "billing", "credit")

OVERLOAD_WORD = "overloaded"

# The spec leaves "a content policy term" open; these are the wordings the
# common OpenAI-compatible backends use for a policy refusal.
POLICY_TERMS = (
    "content policy",
    "content_policy",
    "content management policy",
    "content filter",
    "content_filter",
    "usage policy",
    "usage policies",
    "safety system",
    "responsibleaipolicyviolation",
)

# The spec bounds a stream error's text before classifying it.
STREAM_ERROR_BOUND = 2000

# Control characters (C0, DEL, C1) and the Unicode line/paragraph separators
# could forge log lines wherever the bounded text is shown (debug events).
_ESCAPES = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0))}
_ESCAPES.update({0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r", 0x2028: "\\u2028", 0x2029: "\\u2029"})


def _names_any(text: str, phrases: tuple[str, ...]) -> bool:
    return any(phrase in text for phrase in phrases)


def bound_error_text(text: str) -> str:
    """A stream error's text cut to the spec's bound with control characters escaped."""
    return text[:STREAM_ERROR_BOUND].translate(_ESCAPES)


def classify_status(status: int, body: bytes) -> CompletionError:
    """The completion error for a non-success status and its body."""
    text = body.decode("utf-8", "replace").lower()
    if status == 429:
        if _names_any(text, QUOTA_WORDS):
            return CompletionError(ErrorKind.QUOTA_EXHAUSTED, QUOTA_SPENT, status=status)
        return CompletionError(ErrorKind.RATE_LIMITED, RATE_LIMITED, status=status)
    if status in (401, 403):
        return CompletionError(ErrorKind.UNAVAILABLE, BAD_CREDENTIALS, status=status)
    if status in (400, 413) and _names_any(text, OVERFLOW_PHRASES):
        return CompletionError(ErrorKind.CONTEXT_OVERFLOW, CONTEXT_OVERFLOW, status=status)
    # Overflow is tested first: a policy term only refuses "and no context limit".
    if status == 400 and _names_any(text, POLICY_TERMS):
        return CompletionError(ErrorKind.REFUSED, POLICY_REFUSAL, status=status)
    if 500 <= status <= 599:
        if status in (503, 529) or OVERLOAD_WORD in text:
            return CompletionError(ErrorKind.OVERLOADED, OVERLOADED, status=status)
        return CompletionError(ErrorKind.SERVER_ERROR, SERVER_FAULT, status=status)
    return CompletionError(ErrorKind.REJECTED, REJECTED, status=status)


def classify_stream_error(text: str) -> CompletionError:
    """The completion error for an error reported inside a started stream.

    Checked in the spec's order: context limit, quota or billing word,
    overloaded, content policy term, and anything else is Transport.
    """
    bounded = bound_error_text(text).lower()
    if _names_any(bounded, OVERFLOW_PHRASES):
        return CompletionError(ErrorKind.CONTEXT_OVERFLOW, CONTEXT_OVERFLOW)
    if _names_any(bounded, QUOTA_WORDS):
        return CompletionError(ErrorKind.QUOTA_EXHAUSTED, QUOTA_SPENT)
    if OVERLOAD_WORD in bounded:
        return CompletionError(ErrorKind.OVERLOADED, OVERLOADED)
    if _names_any(bounded, POLICY_TERMS):
        return CompletionError(ErrorKind.REFUSED, POLICY_REFUSAL)
    return CompletionError(ErrorKind.TRANSPORT, TRANSPORT_FAILED)
