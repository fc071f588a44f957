"""What the model receives: the list's records checked against the
cross-record rules and composed into the ``messages`` of a chat request.

The cross-record rules, in the spec's fixed order; only the first broken
one is reported (a lua Failure):

1. a leading system block of two or more records holds only plain text;
2. each record in list order: only assistant records carry tool_calls
   (checked first), then its own role's rule: an assistant record with
   tool_calls may not start while an earlier call is unanswered and may not
   repeat any earlier call id; a tool record answers a still-pending call
   of the open assistant record, once; any other record may not arrive
   while a call is unanswered;
3. no call is still unanswered at the end of the list.

Composing builds new dicts, so the records are never changed: the leading
system block composes into one message (texts joined by a blank line; a
lone record stays as it is, parts included), runs of user records merge
with a blank line between them, runs of assistant records merge with no
separator (text just before an assistant record with tool_calls becomes
its visible content), and tool records never merge.  Empty text fragments
are absorbed; when either side of a merge has content parts the result is
a parts array in arrival order, with the user separator as its own text
part.  Each message holds only role, content, tool_call_id and tool_calls;
a call is sent as an OpenAI function call with its arguments as compact
JSON text.

A ``Composer`` takes records one by one, so a list that only grew since
its last request is composed from where it left off: a long conversation
costs each round only its new records.  Every request is a new list whose
messages before the last are shared with the previous request (they never
change again); the last is a copy, since the next record may merge into it.
"""
from __future__ import annotations

from ..vocabulary.failure import Failure, lua_failure
from . import precheck
from .records import compact

_SEPARATORS = {'system': '\n\n', 'user': '\n\n', 'assistant': ''}


def compose(records: list[dict]) -> list[dict]:
    """The request messages for ``records``, or the first broken rule."""
    composer = Composer()
    composer.feed(records)
    return composer.request()


def check(records: list[dict]) -> None:
    """The cross-record rules alone."""
    compose(records)


class Composer:
    def __init__(self):
        self.fed = 0                    # records taken so far
        self.sent: list[dict] = []
        self.closed_bytes = 0           # precheck text bytes of every message but the last
        self.leading = 0                # records in the leading system block
        self.block_open = True          # still inside the leading block
        self.first_parts = 0            # position of the block's first parts record
        self.seen_ids: set[str] = set()
        self.open_at = 0                # the open assistant record
        self.pending: list[str] = []    # its unanswered call ids
        self.error: Failure | None = None

    def feed(self, records: list[dict]) -> None:
        """Take the records after the ones already fed."""
        for position in range(self.fed + 1, len(records) + 1):
            record = records[position - 1]
            self._lead(record, position)
            if self.error is None:
                self.error = self._rule(record, position)
                if self.error is None:
                    self._compose(record)
            elif not self.block_open:
                break               # past the first error only the leading block still counts
            self.fed = position

    def request(self) -> list[dict]:
        """The messages of a request over every record fed."""
        if self.leading >= 2 and self.first_parts:
            raise lua_failure('messages[%d] is a system message with content parts; only plain text '
                              'system messages can be composed' % self.first_parts)
        if self.error is not None:
            raise self.error
        if self.pending:
            raise _unanswered(self.open_at, self.pending)
        sent = list(self.sent)
        if sent:
            sent[-1] = dict(sent[-1])
        return sent

    @property
    def text_bytes(self) -> int:
        """The precheck's text bytes of the request ``request`` returns."""
        return self.closed_bytes + (precheck.text_bytes(self.sent[-1]) if self.sent else 0)

    # -- the rules --------------------------------------------------------------------
    def _lead(self, record: dict, position: int) -> None:
        if not self.block_open:
            return
        if record['role'] != 'system':
            self.block_open = False
            return
        self.leading += 1
        if record['content'].__class__ is not str and not self.first_parts:
            self.first_parts = position

    def _rule(self, record: dict, position: int) -> Failure | None:
        role = record['role']
        if 'tool_calls' in record and role != 'assistant':
            return lua_failure('messages[%d] sets tool_calls but is not an assistant message' % position)
        if role == 'tool':
            call_id = record['tool_call_id']
            if call_id not in self.pending:
                return lua_failure('messages[%d] is an orphan tool record: no pending assistant tool call '
                                   'with id "%s"' % (position, call_id))
            self.pending.remove(call_id)
            return None
        if self.pending:
            return _unanswered(self.open_at, self.pending)
        if 'tool_calls' in record:
            ids = [call['id'] for call in record['tool_calls']]
            for number, call_id in enumerate(ids):
                if call_id in self.seen_ids or call_id in ids[:number]:
                    return lua_failure('messages[%d] tool call id "%s" duplicates an earlier tool call'
                                       % (position, call_id))
            self.seen_ids.update(ids)
            self.open_at, self.pending = position, ids
        return None

    # -- composing ----------------------------------------------------------------------
    def _compose(self, record: dict) -> None:
        last = self.sent[-1] if self.sent else None
        role = record['role']
        if last is not None and last['role'] == role and role != 'tool' and 'tool_calls' not in last:
            last['content'] = _merged(last['content'], record['content'], _SEPARATORS[role])
            if 'tool_calls' in record:
                last['tool_calls'] = _wire_calls(record['tool_calls'])
            return
        if last is not None:
            self.closed_bytes += precheck.text_bytes(last)
        self.sent.append(_message(record))


def _unanswered(position: int, pending: list[str]) -> Failure:
    return lua_failure('messages[%d] tool call "%s" has no tool result' % (position, pending[0]))


def _message(record: dict) -> dict:
    message = {'role': record['role'], 'content': _copy(record['content'])}
    if 'tool_call_id' in record:
        message['tool_call_id'] = record['tool_call_id']
    if 'tool_calls' in record:
        message['tool_calls'] = _wire_calls(record['tool_calls'])
    return message


def _wire_calls(calls: list[dict]) -> list[dict]:
    return [{'id': call['id'], 'type': 'function',
             'function': {'name': call['name'], 'arguments': compact(call['arguments'])}}
            for call in calls]


def _merged(first, second, separator: str):
    if first.__class__ is str and second.__class__ is str:
        if not first:
            return second
        if not second:
            return first
        return first + separator + second
    middle = [{'type': 'text', 'text': separator}] if separator else []
    return _parts(first) + middle + _parts(second)


def _parts(content) -> list:
    """Content as a parts array; empty text has no part."""
    if content.__class__ is str:
        return [{'type': 'text', 'text': content}] if content else []
    return _copy(content)


def _copy(content):
    """Content on new dicts, so the request shares nothing with the list."""
    if content.__class__ is str:
        return content
    return [{'type': 'text', 'text': part['text']} if part['type'] == 'text'
            else {'type': 'image_url', 'image_url': {'url': part['image_url']['url']}}
            for part in content]
