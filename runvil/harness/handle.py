"""The run handle a Host holds: cancel the run, or stop the calls in
flight, from any thread (a signal handler included)."""
from __future__ import annotations

import queue

from ..engine import CancelFlag

CANCEL = 'cancel'
STOP = 'stop'


class RunHandle:
    def __init__(self):
        self.flag = CancelFlag()
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()   # read by the Harness loop
        self._waiting = None    # the Harness's view of the effects waiting now

    def cancel(self) -> None:
        """Cancel the run: running Lua stops at its next instruction check,
        waiting calls never resume, and the run ends cancelled."""
        self.flag.set()
        self.inbox.put((CANCEL, None))

    def stop(self) -> None:
        """Stop the calls waiting right now; they resume with the
        interrupted error and the run goes on.  A stop while nothing waits
        changes nothing."""
        waiting = self._waiting() if self._waiting is not None else ()
        if waiting:
            self.inbox.put((STOP, waiting))

    def watch(self, waiting) -> None:
        """Called by the Harness: ``waiting()`` lists the ids waiting now."""
        self._waiting = waiting
