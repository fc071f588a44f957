"""What the model receives: a pure function from the list's records to the
``messages`` of a chat request.

``compose(records)`` first checks the cross-record rules, in the spec's
fixed order, and raises the first one broken (a lua Failure):

1. a leading system block of two or more records holds only plain text;
2. each record in list order: only assistant records carry tool_calls
   (checked first), then its own role's rule: an assistant record with
   tool_calls may not start while an earlier call is unanswered and may not
   repeat any earlier call id; a tool record answers a still-pending call
   of the open assistant record, once; any other record may not arrive
   while a call is unanswered;
3. no call is still unanswered at the end of the list.

Then it builds the request messages on new dicts, so the records are never
changed: the leading system block composes into one message (texts joined
by a blank line; a lone record stays as it is, parts included), runs of
user records merge with a blank line between them, runs of assistant
records merge with no separator (text just before an assistant record with
tool_calls becomes its visible content), and tool records never merge.
Empty text fragments are absorbed; when either side of a merge has content
parts the result is a parts array in arrival order, with the user
separator as its own text part.  Each message holds only role, content,
tool_call_id and tool_calls; a call is sent as an OpenAI function call
with its arguments as compact JSON text.
"""
from __future__ import annotations

from .failure import lua_failure
from .records import compact

_SEPARATORS = {'system': '\n\n', 'user': '\n\n', 'assistant': ''}


def compose(records: list[dict]) -> list[dict]:
    check(records)
    sent: list[dict] = []
    for record in records:
        last = sent[-1] if sent else None
        role = record['role']
        if last is not None and last['role'] == role and role != 'tool' and 'tool_calls' not in last:
            last['content'] = _merged(last['content'], record['content'], _SEPARATORS[role])
            if 'tool_calls' in record:
                last['tool_calls'] = _wire_calls(record['tool_calls'])
            continue
        sent.append(_message(record))
    return sent


def check(records: list[dict]) -> None:
    """The cross-record rules (see the module docstring)."""
    leading = 0
    while leading < len(records) and records[leading]['role'] == 'system':
        leading += 1
    if leading >= 2:
        for position, record in enumerate(records[:leading], 1):
            if record['content'].__class__ is not str:
                raise lua_failure('messages[%d] is a system message with content parts; only plain '
                                  'text system messages can be composed' % position)
    seen_ids: set[str] = set()
    open_at, pending = 0, []            # the open assistant record and its unanswered call ids
    for position, record in enumerate(records, 1):
        role = record['role']
        if 'tool_calls' in record and role != 'assistant':
            raise lua_failure('messages[%d] sets tool_calls but is not an assistant message' % position)
        if role == 'tool':
            call_id = record['tool_call_id']
            if call_id not in pending:
                raise lua_failure('messages[%d] is an orphan tool record: no pending assistant tool call '
                                  'with id "%s"' % (position, call_id))
            pending.remove(call_id)
            continue
        if pending:
            raise _unanswered(open_at, pending)
        if 'tool_calls' in record:
            open_at, pending = position, []
            for call in record['tool_calls']:
                if call['id'] in seen_ids:
                    raise lua_failure('messages[%d] tool call id "%s" duplicates an earlier tool call'
                                      % (position, call['id']))
                seen_ids.add(call['id'])
                pending.append(call['id'])
    if pending:
        raise _unanswered(open_at, pending)


def _unanswered(position: int, pending: list[str]):
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
