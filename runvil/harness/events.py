"""The run's event stream: every event the Engine emits, stamped with the
run's execution id and a sequence number, handed to the Host's sinks."""
from __future__ import annotations

import uuid


class EventStream:
    def __init__(self, sinks=(), execution_id: str | None = None):
        self.execution_id = execution_id or uuid.uuid4().hex
        self.sinks = tuple(sinks)
        self.seq = 0

    def emit(self, name: str, /, **fields) -> None:
        self.seq += 1
        event = {'execution_id': self.execution_id, 'seq': self.seq, 'event': name}
        event.update(fields)
        for sink in self.sinks:
            sink(event)
