"""How ``runvil run`` shows an outcome: the CLI contract."""
from __future__ import annotations

import json

EXIT_CODES = {'completed': 0, 'failed': 1, 'cancelled': 130}


def as_json(outcome, label: str) -> str:
    return json.dumps(as_dict(outcome, label), ensure_ascii=False)


def as_dict(outcome, label: str) -> dict:
    """The ``--json`` object, before it is text."""
    return _labelled(outcome.to_dict(), label)


def as_text(outcome, label: str, stdout, stderr) -> None:
    """The result on stdout; a failure as ``error[KIND]: MESSAGE`` (and its
    location when known) on stderr."""
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


def _labelled(report: dict, label: str) -> dict:
    """The Host shows its own label for the file in place of ``<prompt>``."""
    location = (report['error'] or {}).get('location')
    if location is not None and location['path'] == '<prompt>':
        location['path'] = label
    return report
