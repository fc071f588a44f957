"""Where a Host sends run events: a JSON-lines file, and the live log
checkpoints on stderr."""
from __future__ import annotations

import json
import time


class JsonLinesFile:
    """One JSON object per line, flushed as it is written, so the file can
    be followed while the run goes on.  The Host adds the wall-clock time."""

    def __init__(self, path: str):
        self.handle = open(path, 'w', encoding='utf-8')

    def __call__(self, event: dict) -> None:
        line = dict(event, time=round(time.time(), 6))
        self.handle.write(json.dumps(line, ensure_ascii=False) + '\n')
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()


class LiveLog:
    """Prints each log checkpoint as ``[Section] message``; ``[H1]`` for the
    H1 pass."""

    def __init__(self, stream):
        self.stream = stream

    def __call__(self, event: dict) -> None:
        if event['event'] == 'log':
            where = event['section'] if event['section'] is not None else 'H1'
            self.stream.write('[%s] %s\n' % (where, event['message']))
            self.stream.flush()
