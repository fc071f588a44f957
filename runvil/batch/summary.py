"""The table a batch prints at its end, over every result in the output
file (earlier ones a resume kept included): outcomes, run error kinds and
how many of each are retryable, token totals, the slowest runs."""
from __future__ import annotations

from collections import Counter

from .records import RunRecord
from .runner import TOKEN_COUNTS

SLOWEST = 5


def summary_lines(out: str, records: list[RunRecord], ran: int, skipped_lines: int) -> list[str]:
    lines = ['batch summary: %s: %d results (%d run now, %d earlier)'
             % (out, len(records), ran, len(records) - ran)]
    outcomes = Counter(record.outcome for record in records)
    lines += _table(('outcome', 'runs'), [(name, count) for name, count in sorted(outcomes.items())])
    failures = [record for record in records if record.outcome == 'failed']
    if failures:
        kinds = Counter(record.error['kind'] for record in failures)
        retryable = Counter(record.error['kind'] for record in failures if record.retryable_failure)
        lines += _table(('error kind', 'runs', 'retryable'),
                        [(kind, count, retryable[kind]) for kind, count in sorted(kinds.items())])
        lines.append('retryable failures: %d (rerun them with --retry-failed)' % sum(retryable.values()))
    totals = {name: sum((record.usage or {}).get(name, 0) for record in records) for name in TOKEN_COUNTS}
    lines.append('tokens: %s' % ', '.join('%s %d' % (name.split('_')[0], totals[name]) for name in TOKEN_COUNTS))
    slowest = sorted(records, key=lambda record: record.seconds, reverse=True)[:SLOWEST]
    if slowest:
        lines += _table(('slowest id', 'seconds', 'outcome'),
                        [(record.key, '%.3f' % record.seconds, record.outcome) for record in slowest])
    if skipped_lines:
        lines.append('skipped input lines: %d' % skipped_lines)
    return lines


def _table(header: tuple, rows: list[tuple]) -> list[str]:
    cells = [tuple(str(cell) for cell in row) for row in [header] + rows]
    widths = [max(len(row[column]) for row in cells) for column in range(len(header))]
    return ['  ' + '  '.join(cell.ljust(width) if column == 0 else cell.rjust(width)
                             for column, (cell, width) in enumerate(zip(row, widths))).rstrip()
            for row in cells]
