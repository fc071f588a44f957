"""What crosses between the batch's parts: what a worker needs to run the
batch's prompt, one input (a run to make) and one run's record (a line of
the output file)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

RECORD_KEYS = ('id', 'outcome', 'result', 'error', 'usage', 'rounds', 'seconds')


def id_key(run_id) -> str:
    """Ids are strings or integers; ``3`` and ``"3"`` are different ids."""
    return json.dumps(run_id)


@dataclass(frozen=True)
class BatchSpec:
    """What every worker needs to run the batch's prompt: its text, the
    label its errors show, the Harness flags and the gateway variables."""
    text: str
    label: str
    flags: object           # the parsed ``add_harness_flags`` arguments
    environ: dict


@dataclass(frozen=True)
class BatchInput:
    id: str | int
    input: str | None
    args: dict[str, str] = field(default_factory=dict)
    line: int = 0           # where the input file holds it

    @property
    def key(self) -> str:
        return id_key(self.id)


@dataclass(frozen=True)
class RunRecord:
    """One finished run: ``error`` is the ``runvil run --json`` error object,
    ``usage`` the token counts the gateway reported (None when none did)."""
    id: str | int
    outcome: str
    result: str | None
    error: dict | None
    usage: dict | None
    rounds: int
    seconds: float

    @property
    def key(self) -> str:
        return id_key(self.id)

    @property
    def retryable_failure(self) -> bool:
        return self.outcome == 'failed' and bool(self.error and self.error.get('retryable'))

    def to_dict(self) -> dict:
        return {name: getattr(self, name) for name in RECORD_KEYS}

    @classmethod
    def from_dict(cls, data: dict) -> RunRecord:
        return cls(**{name: data[name] for name in RECORD_KEYS})


def worker_lost(run_id, attempts: int) -> RunRecord:
    """The record of a run whose worker process died on every attempt."""
    return worker_failed(run_id, 'the batch worker running this input died (%d attempts)' % attempts)


def worker_failed(run_id, message: str) -> RunRecord:
    """The record of a run the batch's own machinery failed, as an Internal failure."""
    error = {'kind': 'Internal', 'message': message, 'retryable': False, 'location': None}
    return RunRecord(run_id, 'failed', None, error, None, 0, 0.0)
