"""The run history: each run's events as JSON lines in
``DIR/.runvil/runs/RUN_ID.jsonl``.  The first line is the Workshop's
``workshop_run`` record (what was run, with which args and input); then
every event of the run as the Harness emitted it, and the operator's
questions and answers, in order."""
from __future__ import annotations

import json
import re
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from ..host.sinks import JsonLinesFile

RUNS_DIR = Path('.runvil') / 'runs'
HEADER = 'workshop_run'
_RUN_ID = re.compile(r'[0-9]{8}-[0-9]{9}-[0-9a-f]{6}\Z')


@dataclass(frozen=True)
class RunSummary:
    run_id: str
    prompt: str
    chat: bool
    started: float
    outcome: str | None     # completed, failed, cancelled; None while running or when cut short

    def to_dict(self) -> dict:
        return {'run_id': self.run_id, 'prompt': self.prompt, 'chat': self.chat,
                'started': self.started, 'outcome': self.outcome}


class RunHistory:
    def __init__(self, root: Path):
        self.folder = root / RUNS_DIR

    @staticmethod
    def new_id() -> str:
        """Ids sort in the order the runs started (to the millisecond)."""
        now = time.time()
        return '%s%03d-%s' % (time.strftime('%Y%m%d-%H%M%S', time.gmtime(now)), now % 1 * 1000,
                              uuid.uuid4().hex[:6])

    def writer(self, run_id: str) -> JsonLinesFile:
        self.folder.mkdir(parents=True, exist_ok=True)
        return JsonLinesFile(str(self.folder / (run_id + '.jsonl')))

    def events(self, run_id: str) -> list[dict] | None:
        """A past run's events; None for an unknown run.  A line cut short
        (the Workshop stopped mid-write) ends the list."""
        if not _RUN_ID.match(run_id):
            return None
        try:
            lines = (self.folder / (run_id + '.jsonl')).read_text(encoding='utf-8').splitlines()
        except OSError:
            return None
        events = []
        for line in lines:
            try:
                events.append(json.loads(line))
            except ValueError:
                break
        return events

    def summaries(self) -> list[RunSummary]:
        """Every kept run, newest first."""
        if not self.folder.is_dir():
            return []
        found = []
        for path in sorted(self.folder.glob('*.jsonl'), reverse=True):
            events = self.events(path.stem)
            if not events or events[0].get('event') != HEADER:
                continue
            header = events[0]
            finished = [event for event in events if event.get('event') == 'run_finished']
            found.append(RunSummary(path.stem, header['prompt'], header.get('chat', False), header['time'],
                                    finished[-1]['outcome'] if finished else None))
        return found
