"""The ``log`` global: checkpoints, under the two log quotas of a section VM.

``log(message)`` records one checkpoint.  A call with exactly one argument
spends one log event before any other check, so a call refused later for
its type, length or characters still uses up an event.  The byte quota is
256 bytes per allowed event, counted in UTF-8 bytes across the VM's calls;
a message that does not fit what remains is refused whole.

A refusal raises an error value of kind lua.  The VM also keeps the first
refusal: if the block then fails in any way, the run ends with that quota
failure (run error kind Quota, no location) ahead of whatever was raised.
"""
from __future__ import annotations

from pylua.raw import type_name

from ..vocabulary.failure import Failure, lua_failure
from ..vocabulary.kinds import RunErrorKind

BYTES_PER_EVENT = 256
MAX_MESSAGE_BYTES = 4096
EVENT_REFUSAL = 'lua log event budget exceeded'
BYTE_REFUSAL = 'lua log cumulative byte budget exceeded'
EVENT_QUOTA = 'lua log event quota exceeded'
BYTE_QUOTA = 'lua log byte quota exceeded'
NOT_TEXT = 'log message must be UTF-8 text without control characters'


class LogBook:
    """One VM's log quotas and the checkpoints it records."""

    def __init__(self, event_quota: int, record):
        self.events_left = event_quota
        self.bytes_left = event_quota * BYTES_PER_EVENT
        self.record = record            # record(message_text): one checkpoint
        self.quota_failure: Failure | None = None

    def log(self, *args):
        """``log(message)``, its message taken as bytes (``crossing.BYTES``)."""
        if len(args) != 1:
            raise lua_failure('log expects exactly one argument, got %d' % len(args))
        if self.events_left <= 0:
            raise self._refuse(EVENT_REFUSAL, EVENT_QUOTA)
        self.events_left -= 1
        message = args[0]
        if message.__class__ is not bytes:
            raise lua_failure('log message must be a string, got %s' % type_name(message))
        size = len(message)
        if size == 0:
            raise lua_failure('log message must not be empty')
        if size > MAX_MESSAGE_BYTES:
            raise lua_failure('log message is %d bytes; the limit is %d bytes' % (size, MAX_MESSAGE_BYTES))
        text = _checked_text(message)
        if size > self.bytes_left:
            raise self._refuse(BYTE_REFUSAL, BYTE_QUOTA)
        self.bytes_left -= size
        self.record(text)
        return ()

    def _refuse(self, refusal: str, quota: str) -> Failure:
        if self.quota_failure is None:
            self.quota_failure = Failure(RunErrorKind.QUOTA, quota)
        return lua_failure(refusal, gate=False)


def _checked_text(message: bytes) -> str:
    try:
        text = message.decode('utf-8')
    except UnicodeDecodeError:
        raise lua_failure(NOT_TEXT) from None
    if any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in text):
        raise lua_failure(NOT_TEXT)
    return text
