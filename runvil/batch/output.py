"""The output file: one JSON line per finished run.

Each record is written with one ``write`` to a file opened for appending
and flushed to the operating system at once, so a batch stopped any way
(Ctrl-C, a crash, ``kill -9``) leaves whole lines only.  Reading it back
(for ``--resume``) repairs the one thing a power cut could leave, a last
line without its newline, by cutting it off: that run did not finish.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass

from .records import RunRecord


class OutputError(Exception):
    """The output file cannot be read or written as a batch's results."""


@dataclass(frozen=True)
class Previous:
    """What an output file already holds, by id key."""
    records: dict[str, RunRecord]


def read_output(path: str) -> Previous:
    try:
        with open(path, 'rb') as handle:
            data = handle.read()
    except FileNotFoundError:
        return Previous({})
    except OSError as err:
        raise OutputError('cannot read output %s: %s' % (path, err.strerror or err)) from None
    whole = data[:data.rfind(b'\n') + 1]
    if len(whole) != len(data):
        _truncate(path, len(whole))
    records = {}
    for number, line in enumerate(whole.splitlines(), 1):
        try:
            record = RunRecord.from_dict(json.loads(line))
        except (ValueError, KeyError, TypeError):
            raise OutputError('output %s line %d is not a batch result line; '
                              'choose another --out' % (path, number)) from None
        records[record.key] = record
    return Previous(records)


def rewrite_output(path: str, records) -> None:
    """Replace the file's content with ``records``, all at once."""
    temporary = path + '.rewrite'
    try:
        with open(temporary, 'w', encoding='utf-8') as handle:
            handle.writelines(_line(record).decode('utf-8') for record in records)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except OSError as err:
        raise OutputError('cannot rewrite output %s: %s' % (path, err.strerror or err)) from None


class OutputFile:
    def __init__(self, path: str):
        self.path = path
        try:
            self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as err:
            raise OutputError('cannot write output %s: %s' % (path, err.strerror or err)) from None

    def write(self, record: RunRecord) -> None:
        data = memoryview(_line(record))
        try:
            while data:                 # a regular file takes it all in one write
                data = data[os.write(self._fd, data):]
        except OSError as err:
            raise OutputError('cannot write output %s: %s' % (self.path, err.strerror or err)) from None

    def close(self) -> None:
        os.close(self._fd)


def _line(record: RunRecord) -> bytes:
    return (json.dumps(record.to_dict(), ensure_ascii=False) + '\n').encode('utf-8')


def _truncate(path: str, size: int) -> None:
    try:
        os.truncate(path, size)
    except OSError as err:
        raise OutputError('cannot repair output %s: %s' % (path, err.strerror or err)) from None
