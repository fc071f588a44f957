"""How ``runvil run`` shows an outcome: the CLI contract."""
from __future__ import annotations

import json
from collections.abc import Sequence

EXIT_CODES = {'completed': 0, 'failed': 1, 'cancelled': 130}


def as_json(outcome, label: str, hint: Sequence[str] = ()) -> str:
    return json.dumps(as_dict(outcome, label, hint), ensure_ascii=False)


def as_dict(outcome, label: str, hint: Sequence[str] = ()) -> dict:
    """The ``--json`` object, before it is text; a failure's error gets a
    ``hint`` (its lines joined by newlines) when the Host has one."""
    document = _labelled(outcome.to_dict(), label)
    if hint:
        document['error']['hint'] = '\n'.join(hint)
    return document


def as_text(outcome, label: str, stdout, stderr, hint: Sequence[str] = ()) -> None:
    """The result on stdout; a failure as ``error[KIND]: MESSAGE`` (and its
    location when known, then any ``hint: `` lines) on stderr."""
    if outcome.status == 'completed':
        stdout.write(outcome.result + '\n')
    elif outcome.status == 'cancelled':
        stderr.write('cancelled\n')
    else:
        error = _labelled(outcome.to_dict(), label)['error']
        stderr.write('error[%s]: %s\n' % (error['kind'], error['message']))
        location = error['location']
        if location is not None and location['line'] is not None:
            column = ':%d' % location['column'] if location['column'] is not None else ''
            stderr.write('  --> %s:%d%s\n' % (location['path'], location['line'], column))
        for line in hint:
            stderr.write('hint: %s\n' % line)


def _labelled(report: dict, label: str) -> dict:
    """The Host shows its own label for the file in place of ``<prompt>``."""
    location = (report['error'] or {}).get('location')
    if location is not None and location['path'] == '<prompt>':
        location['path'] = label
    return report
