"""A batch's progress on stderr: a bar (done, failed, runs per second,
ETA, tokens so far) when stderr is a terminal and rich is installed
(``pip install .[batch]``), plain lines at most once a second otherwise."""
from __future__ import annotations

import time

from .records import RunRecord

PLAIN_EVERY = 1.0       # seconds between plain progress lines


class Tally:
    """The counts the progress shows, over this invocation's runs."""

    def __init__(self, total: int):
        self.total = total
        self.done = 0
        self.failed = 0
        self.tokens = 0
        self.started = time.monotonic()

    def add(self, record: RunRecord) -> None:
        self.done += 1
        self.failed += record.outcome == 'failed'
        self.tokens += total_tokens(record)

    @property
    def per_second(self) -> float:
        elapsed = time.monotonic() - self.started
        return self.done / elapsed if elapsed > 0 else 0.0

    @property
    def eta(self) -> float | None:
        rate = self.per_second
        return (self.total - self.done) / rate if rate > 0 else None

    def line(self) -> str:
        eta = '?' if self.eta is None else '%ds' % round(self.eta)
        return ('batch: %d/%d done, %d failed, %.1f/s, ETA %s, %d tokens'
                % (self.done, self.total, self.failed, self.per_second, eta, self.tokens))


def total_tokens(record: RunRecord) -> int:
    usage = record.usage or {}
    return usage.get('prompt_tokens', 0) + usage.get('completion_tokens', 0)


class PlainProgress:
    def __init__(self, stream, tally: Tally):
        self.stream = stream
        self.tally = tally
        self.shown = 0.0

    def update(self) -> None:
        now = time.monotonic()
        if now - self.shown >= PLAIN_EVERY:
            self.shown = now
            self._show()

    def close(self) -> None:
        self._show()

    def _show(self) -> None:
        self.stream.write(self.tally.line() + '\n')
        self.stream.flush()


class BarProgress:
    def __init__(self, stream, tally: Tally):
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeRemainingColumn)
        self.tally = tally
        self.bar = Progress(TextColumn('batch'), BarColumn(), MofNCompleteColumn(),
                            TextColumn('{task.fields[failed]} failed  {task.fields[rate]}/s  ETA'),
                            TimeRemainingColumn(), TextColumn('{task.fields[tokens]} tokens'),
                            console=Console(file=stream), transient=False)
        self.task = self.bar.add_task('batch', total=tally.total, **self._fields())
        self.bar.start()

    def _fields(self) -> dict:
        return {'failed': self.tally.failed, 'rate': '%.1f' % self.tally.per_second,
                'tokens': self.tally.tokens}

    def update(self) -> None:
        self.bar.update(self.task, completed=self.tally.done, **self._fields())

    def close(self) -> None:
        self.update()
        self.bar.stop()


def progress_for(stream, tally: Tally):
    if stream.isatty():
        try:
            return BarProgress(stream, tally)
        except ImportError:
            pass
    return PlainProgress(stream, tally)
