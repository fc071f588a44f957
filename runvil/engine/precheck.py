"""The context precheck: Runvil's own estimate, before a request leaves, of
whether it fits the context window of the model it goes to.

The estimate is the UTF-8 byte length of the text sent, divided by 4 once,
plus 4 tokens of framing for each record; the output reserve is the
model's max_tokens when set, else an eighth of the window capped at 8192,
and never more than half the window.  A request is refused only when
estimate + reserve exceeds the window.
"""
from __future__ import annotations

BYTES_PER_TOKEN = 4
RECORD_OVERHEAD = 4
DEFAULT_RESERVE_CAP = 8192


def estimate(record_bytes: list[int]) -> int:
    """Tokens for records whose text is ``record_bytes`` UTF-8 bytes each."""
    return sum(record_bytes) // BYTES_PER_TOKEN + RECORD_OVERHEAD * len(record_bytes)


def reserve(context_window: int, max_tokens: int | None) -> int:
    wanted = max_tokens if max_tokens is not None else min(context_window // 8, DEFAULT_RESERVE_CAP)
    return min(wanted, context_window // 2)


def admits(tokens: int, context_window: int, max_tokens: int | None) -> bool:
    return tokens + reserve(context_window, max_tokens) <= context_window
