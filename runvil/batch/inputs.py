"""Reading a batch's inputs: JSON lines, or CSV when the file name ends in
``.csv``.  Each line (CSV: each record) is one run.  A line that cannot be
one is a BadLine, reported with its line number and skipped; it never
stops the batch.

JSON lines: ``{"id": ..., "input": "...", "args": {...}}``, every key
optional; the id is a string or an integer (default: the line number), the
input a string or null, args a mapping of prompt arg names to strings,
numbers or booleans (passed as ``--set`` would pass them).  Other keys are
left alone, so a dataset may carry its own fields (an expected answer).

CSV: a header row; the columns ``id`` and ``input``, and every other column
a prompt arg by its header (an empty cell leaves the arg unset).
"""
from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass

from .records import BatchInput

NOT_UTF8 = 'not UTF-8 text (byte %d of the line)'
_SURROGATE = re.compile('[\udc80-\udcff]')


@dataclass(frozen=True)
class BadLine:
    line: int
    message: str


@dataclass(frozen=True)
class Inputs:
    runs: list[BatchInput]
    bad: list[BadLine]


class InputsError(Exception):
    """The inputs file cannot be read at all."""


def read_inputs(path: str) -> Inputs:
    try:
        with open(path, 'rb') as handle:
            data = handle.read()
    except OSError as err:
        raise InputsError('cannot read inputs %s: %s' % (path, err.strerror or err)) from None
    entries = _csv_entries(data) if path.lower().endswith('.csv') else _json_entries(data)
    runs, bad, seen = [], [], {}
    for entry in entries:
        if isinstance(entry, BadLine):
            bad.append(entry)
        elif entry.key in seen:
            bad.append(BadLine(entry.line, 'duplicate id %s (first on line %d)' % (entry.key, seen[entry.key])))
        else:
            seen[entry.key] = entry.line
            runs.append(entry)
    return Inputs(runs, bad)


def _json_entries(data: bytes):
    for number, raw in enumerate(data.split(b'\n'), 1):
        try:
            text = raw.decode('utf-8')
        except UnicodeDecodeError as err:
            yield BadLine(number, NOT_UTF8 % (err.start + 1))
            continue
        if not text.strip():
            continue
        try:
            value = json.loads(text)
        except ValueError as err:
            yield BadLine(number, 'not JSON: %s' % err)
            continue
        if not isinstance(value, dict):
            yield BadLine(number, 'a line must be a JSON object, got %s' % type(value).__name__)
            continue
        yield _entry(number, value.get('id', number), value.get('input'), value.get('args', {}))


def _csv_entries(data: bytes):
    # Undecodable bytes stay lone surrogates, so only their records are bad.
    text = data.decode('utf-8', 'surrogateescape').removeprefix('\ufeff')
    reader = csv.reader(io.StringIO(text, newline=''))
    header, start = None, 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as err:
            yield BadLine(start, 'not CSV: %s' % err)
            start = reader.line_num + 1
            continue
        line, start = start, reader.line_num + 1
        if not any(cell.strip() for cell in row):
            continue
        undecodable = next((cell for cell in row if _SURROGATE.search(cell)), None)
        if undecodable is not None:
            offset = _SURROGATE.search(undecodable).start()
            yield BadLine(line, 'not UTF-8 text (byte %d of a field)' % (len(undecodable[:offset].encode()) + 1))
            continue
        if header is None:
            header = row
            continue
        if len(row) != len(header):
            yield BadLine(line, 'expected %d fields as in the header, got %d' % (len(header), len(row)))
            continue
        cells = dict(zip(header, row))
        run_id = cells.pop('id', '') or line
        input_text = cells.pop('input', None)
        yield _entry(line, run_id, input_text, {name: value for name, value in cells.items() if value != ''})


def _entry(line: int, run_id, input_text, args):
    if type(run_id) not in (str, int):
        return BadLine(line, 'id must be a string or an integer, got %s' % json.dumps(run_id))
    if input_text is not None and not isinstance(input_text, str):
        return BadLine(line, 'input must be a string or null, got %s' % json.dumps(input_text))
    if not isinstance(args, dict):
        return BadLine(line, 'args must be an object of arg names to values, got %s' % json.dumps(args))
    values = {}
    for name, value in args.items():
        if isinstance(value, bool):
            values[name] = 'true' if value else 'false'
        elif isinstance(value, (str, int, float)):
            values[name] = value if isinstance(value, str) else json.dumps(value)
        else:
            return BadLine(line, 'args.%s must be a string, a number or a boolean, got %s'
                           % (name, json.dumps(value)))
    return BatchInput(run_id, input_text, values, line)
