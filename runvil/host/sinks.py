"""Where a Host sends run events: a JSON-lines file, the live log
checkpoints on stderr, and model replies as they stream in."""
from __future__ import annotations

import json
import threading
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
    H1 pass, ``[Section 0.1]`` in a task."""

    def __init__(self, stream):
        self.stream = stream

    def __call__(self, event: dict) -> None:
        if event['event'] == 'log':
            where = event['section'] if event['section'] is not None else 'H1'
            if event.get('task') is not None:
                where += ' ' + event['task']
            self.stream.write('[%s] %s\n' % (where, event['message']))
            self.stream.flush()


class LiveReplies:
    """Shows each model reply's text as it streams in (``live`` of the model
    answerer), one ``[Section origin]`` line per round."""

    def __init__(self, stream):
        self.stream = stream
        self.lock = threading.Lock()
        self.current = None

    def __call__(self, stamp: dict, kind: str, text: str) -> None:
        if kind != 'text':
            return
        with self.lock:
            if stamp.get('round') != self.current:
                if self.current is not None:
                    self.stream.write('\n')
                self.current = stamp.get('round')
                where = stamp['section'] if stamp.get('section') is not None else 'H1'
                self.stream.write('[%s %s] ' % (where, stamp.get('origin')))
            self.stream.write(text)
            self.stream.flush()

    def close(self) -> None:
        if self.current is not None:
            self.stream.write('\n')
            self.stream.flush()
