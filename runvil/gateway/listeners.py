"""What a caller hears from one round while it runs: reply fragments as
they arrive and, in debug mode, the raw traffic."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class DebugCapture:
    """Raw model traffic for Host debug mode; ``status`` only on a response."""

    direction: Literal["request", "response"]
    body: bytes
    status: int | None = None


@dataclass(slots=True)  # one per round: a frozen dataclass's __init__ costs three times as much
class RoundListeners:
    """Callbacks of one round; each runs on the gateway's event-loop thread
    (the request capture on the caller's), and one that raises ends the round
    with its exception."""

    on_text: Callable[[str], None] | None = None
    on_reasoning: Callable[[str], None] | None = None
    debug: Callable[[DebugCapture], None] | None = None
