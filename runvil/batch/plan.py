"""Which inputs a batch runs, given what its output file already holds.

* A fresh batch needs an output file with no results in it.
* ``--resume`` skips every id the output already holds, so a stopped or
  crashed batch continues where it was and never runs an input twice.
* ``--retry-failed`` takes the retryable failures out of the output and
  runs those inputs again (with ``--resume``, the missing ones as well).
* ``--limit K`` runs at most K of them, in input order.
"""
from __future__ import annotations

from dataclasses import dataclass

from .output import Previous, rewrite_output
from .records import BatchInput, RunRecord


class PlanError(Exception):
    """The flags and the output file do not make a batch."""


@dataclass(frozen=True)
class Plan:
    runs: list[BatchInput]
    kept: list[RunRecord]       # earlier results that stay in the output


def make_plan(runs: list[BatchInput], previous: Previous, out: str, *, resume: bool,
              retry_failed: bool, limit: int | None) -> Plan:
    records = previous.records
    if records and not (resume or retry_failed):
        raise PlanError('%s already holds %d results: pass --resume to continue that batch, '
                        'or choose another --out' % (out, len(records)))
    retry = {key for key, record in records.items() if record.retryable_failure} if retry_failed else set()
    kept = [record for key, record in records.items() if key not in retry]
    if retry:
        rewrite_output(out, kept)
    done = {record.key for record in kept}
    todo = [run for run in runs
            if run.key not in done and (resume or not retry_failed or run.key in retry)]
    return Plan(todo if limit is None else todo[:limit], kept)
