"""The receive timeout of one round, on the gateway's event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


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
