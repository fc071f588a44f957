"""The run's cancel flag: the one signal a cancel sets.

It is shared by the instruction check of every section VM of the run: a VM
attached to the flag is interrupted (pylua's ``cancel``, checked every
10,000 instructions) when the flag is set, or at its first check when the
flag was set before the VM was built.  Thread-safe: a Host sets it from any
thread, a signal handler included.
"""
from __future__ import annotations

import threading

from ..vocabulary.failure import INTERRUPTED


class CancelFlag:
    def __init__(self):
        self._set = threading.Event()
        # Re-entrant: a signal handler may set the flag while the main thread
        # is inside attach or detach.
        self._lock = threading.RLock()
        self._runtimes: set = set()

    def set(self) -> None:
        with self._lock:
            self._set.set()
            runtimes = list(self._runtimes)
        for runtime in runtimes:
            runtime.cancel(INTERRUPTED)

    def is_set(self) -> bool:
        return self._set.is_set()

    def attach(self, runtime) -> None:
        with self._lock:
            self._runtimes.add(runtime)
            cancelled = self._set.is_set()
        if cancelled:
            runtime.cancel(INTERRUPTED)

    def detach(self, runtime) -> None:
        with self._lock:
            self._runtimes.discard(runtime)
