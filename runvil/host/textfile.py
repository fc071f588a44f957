"""Reading the files a Host is given (prompts, inputs) as UTF-8 text."""
from __future__ import annotations


class Unreadable(Exception):
    """The file could not be read as UTF-8 text; the message says why."""


def read_utf8(path: str, what: str | None = None) -> str:
    """The text of ``path``; ``what`` (``prompt``, ``input``) names it in the message."""
    name = path if what is None else '%s %s' % (what, path)
    try:
        with open(path, 'rb') as handle:
            data = handle.read()
    except OSError as err:
        raise Unreadable('cannot read %s: %s' % (name, err.strerror or err)) from None
    try:
        return data.decode('utf-8')
    except UnicodeDecodeError as err:
        raise Unreadable('cannot read %s: not UTF-8 text (byte %d)' % (name, err.start)) from None
