"""Receive timeouts on the gateway's event loop: one round's (the httpx
route), or every round of a route on one timer (the direct route)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Protocol


class ReceiveTimer:
    """Calls ``on_expire`` once no bytes arrived for ``timeout`` seconds,
    and no sooner; ``touch`` whenever some do.

    A touch only records the time; the timer re-arms itself lazily when it
    fires early.  A busy stream thus costs one clock read per piece, not a
    timer reschedule (which was a tenth of a round's client time).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, timeout: float,
                 on_expire: Callable[[], None]) -> None:
        self._loop = loop
        self._timeout = timeout
        self._on_expire = on_expire
        self.expired = False
        self.last = loop.time()
        self._handle = loop.call_at(self.last + timeout, self._check)

    def touch(self) -> None:
        self.last = self._loop.time()

    def stop(self) -> None:
        self._handle.cancel()

    def _check(self) -> None:
        deadline = self.last + self._timeout
        if self._loop.time() < deadline:
            self._handle = self._loop.call_at(deadline, self._check)
        else:
            self.expired = True
            self._on_expire()


class Watched(Protocol):
    last: float  # the loop time of the round's start or of its last arrival

    def expire(self) -> None: ...


class RoundWatch:
    """The receive timeouts of a route's rounds, on one loop timer: a round
    expires (``expire()`` is called) once nothing arrived for ``timeout``
    seconds since its ``last`` arrival, which ``watch`` sets to the start.

    ``watch`` may be called from any thread, so a round its caller's thread
    sent needs no wake-up of the loop: the timer is armed only when none is,
    and one that fires with no round left is not re-armed.  An idle route
    thus costs one loop wake-up per idle spell longer than the timeout.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, timeout: float) -> None:
        self._loop = loop
        self._timeout = timeout
        self._rounds: set[Watched] = set()
        self._armed = False  # a timer is set, or the loop was asked to set one
        self._handle: asyncio.TimerHandle | None = None
        self._lock = threading.Lock()

    def watch(self, round_: Watched) -> bool:
        """Start ``round_``'s window; True when the loop must then call ``arm``."""
        with self._lock:
            round_.last = self._loop.time()
            self._rounds.add(round_)
            if self._armed:
                return False
            self._armed = True
            return True

    def unwatch(self, round_: Watched) -> None:
        with self._lock:
            self._rounds.discard(round_)

    def arm(self) -> None:
        """On the loop: set the timer for the earliest window's end."""
        with self._lock:
            self._set()

    def close(self) -> None:
        with self._lock:
            if self._handle is not None:
                self._handle.cancel()
            self._rounds.clear()

    def _set(self) -> None:
        if self._rounds:
            deadline = min(round_.last for round_ in self._rounds) + self._timeout
            self._handle = self._loop.call_at(deadline, self._check)
        else:
            self._handle = None
            self._armed = False

    def _check(self) -> None:
        with self._lock:
            now = self._loop.time()
            expired = [round_ for round_ in self._rounds if now >= round_.last + self._timeout]
            self._rounds.difference_update(expired)
            self._set()
        for round_ in expired:
            round_.expire()
