"""The context precheck: Runvil's own estimate, before a request leaves, of
whether it fits the context window of the model it goes to.

The estimate is the UTF-8 byte length of the text the request's messages
carry (plain content, text parts, and each tool call's whole serialised
form), divided by 4 once, plus 4 tokens of framing for each message; images,
tool schemas and templates add nothing.  The output reserve is the model's
max_tokens when set, else an eighth of the window capped at 8192, and never
more than half the window.  A request is refused only when its count plus
the reserve exceeds the window.

The provider anchor: after a served round whose provider reported usage,
the list remembers that round's messages and its measured total (prompt +
completion - reasoning).  A later request to the same model that extends
exactly those messages with the reply (an assistant message) counts as the
measured total plus the estimate of what follows the reply.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

BYTES_PER_TOKEN = 4
MESSAGE_OVERHEAD = 4
DEFAULT_RESERVE_CAP = 8192


def text_bytes(message: dict) -> int:
    """The text bytes one request message counts for."""
    content = message.get('content')
    if content.__class__ is str:
        size = len(content.encode('utf-8'))
    elif content.__class__ is list:
        size = sum(len(part['text'].encode('utf-8')) for part in content if part.get('type') == 'text')
    else:
        size = 0
    calls = message.get('tool_calls')
    if calls:
        size += sum(len(json.dumps(call, ensure_ascii=False, separators=(',', ':')).encode('utf-8'))
                    for call in calls)
    return size


def estimate(messages: list[dict], total_bytes: int | None = None) -> int:
    """Tokens for request ``messages`` (composed, as sent); ``total_bytes``
    is their text bytes when the caller knows them already."""
    if total_bytes is None:
        total_bytes = sum(map(text_bytes, messages))
    return total_bytes // BYTES_PER_TOKEN + MESSAGE_OVERHEAD * len(messages)


def reserve(context_window: int, max_tokens: int | None) -> int:
    wanted = max_tokens if max_tokens is not None else min(context_window // 8, DEFAULT_RESERVE_CAP)
    return min(wanted, context_window // 2)


def admits(tokens: int, context_window: int, max_tokens: int | None) -> bool:
    return tokens + reserve(context_window, max_tokens) <= context_window


@dataclass(frozen=True)
class Anchor:
    """The latest measured round on a list: the model it went to, the
    messages it sent, and the provider's total for them and the reply."""
    model: str
    sent: list
    tokens: int


def count(messages: list[dict], model: str, anchor: Anchor | None, total_bytes: int | None = None) -> int:
    """The precheck's token count for a request: anchored when the request
    extends the measured round on the same model, else the estimate."""
    if anchor is not None and anchor.model == model:
        n = len(anchor.sent)
        if len(messages) > n and messages[n]['role'] == 'assistant' and messages[:n] == anchor.sent:
            return anchor.tokens + estimate(messages[n + 1:])
    return estimate(messages, total_bytes)
