"""Message records: the per-record rules and the records an edit stores.

A record is stored as a plain dict of JSON data (Python text, lists,
dicts) holding only the fields it has, in the fixed order ``FIELDS``:

    {'role': 'assistant', 'content': '',
     'tool_calls': [{'id': 'call_1', 'name': 'read', 'arguments': {}}],
     'meta': {...}}

Stored records are never changed: an edit puts new records into the list,
so a view keeps showing the record it was read from.  Everything here is
pure and works on converted JSON data; the Lua side (conversion, error
values) is in ``messages``.

The rules run in the spec's fixed order, and only the first broken one is
reported: table shape, role, content (each part), the type of
tool_call_id, role against tool_call_id, tool_calls (each call, id before
name before arguments), the size of meta.  System placement is a rule of
the list (``placement``), checked after a record passes.
"""
from __future__ import annotations

import json

ROLES = ('system', 'user', 'assistant', 'tool')
FIELDS = ('role', 'content', 'tool_calls', 'tool_call_id', 'meta')
PART_TYPES = ('text', 'image_url')
META_LIMIT = 8192


class RecordError(Exception):
    """A refused record; the message is the full text of the error value."""


def compact(data) -> str:
    """Compact JSON text, the form sizes are measured in and arguments sent as."""
    return json.dumps(data, ensure_ascii=False, separators=(',', ':'))


def check(data, position: int) -> dict:
    """The stored form of the record ``data`` (converted JSON data) would
    take at ``position``, or RecordError for the first rule it breaks.
    Fields other than the five are dropped, and so is a null meta."""
    at = 'messages[%d]' % position
    if data.__class__ is list:          # a Lua array is a table, but names no field
        data = {}
    elif data.__class__ is not dict:
        raise RecordError('%s must be a message table' % at)
    record = {'role': _role(data.get('role'), at), 'content': _content(data, at)}
    has_id = 'tool_call_id' in data
    if has_id and data['tool_call_id'].__class__ is not str:
        raise RecordError('%s tool_call_id must be a string' % at)
    if record['role'] == 'tool' and not has_id:
        raise RecordError('%s is a tool message and must set a string tool_call_id' % at)
    if record['role'] != 'tool' and has_id:
        raise RecordError('%s sets a tool_call_id but is not a tool message' % at)
    if 'tool_calls' in data:
        calls = _tool_calls(data['tool_calls'], at)
        if calls:
            record['tool_calls'] = calls
    if has_id:
        record['tool_call_id'] = data['tool_call_id']
    meta = data.get('meta')
    if meta is not None:
        size = len(compact(meta).encode('utf-8'))
        if size > META_LIMIT:
            raise RecordError('%s meta is %d bytes as JSON; the limit is %d bytes' % (at, size, META_LIMIT))
        record['meta'] = meta
    return record


def placement(records, position: int, role: str) -> None:
    """A system record joins the list only inside its leading block."""
    if role == 'system' and any(record['role'] != 'system' for record in records[:position - 1]):
        raise RecordError(_late_system(position))


def leading_block(records) -> None:
    """The whole list keeps its system records leading; the error names the
    first late one."""
    seen_other = False
    for position, record in enumerate(records, 1):
        if record['role'] != 'system':
            seen_other = True
        elif seen_other:
            raise RecordError(_late_system(position))


def _late_system(position: int) -> str:
    return ('messages[%d] is a system message after a non-system message; system messages lead the '
            'list, and only a compactor can change the leading block' % position)


def _role(role, at: str) -> str:
    if role.__class__ is not str:
        raise RecordError('%s role must be a string, one of: %s' % (at, ', '.join(ROLES)))
    if role not in ROLES:
        raise RecordError('%s role "%s" is unknown; known roles: %s' % (at, role, ', '.join(ROLES)))
    return role


def _content(data: dict, at: str):
    content = data.get('content')
    if content.__class__ is str:
        return content
    if content.__class__ is not list or not content:
        raise RecordError('%s content must be a string or a non-empty array of content parts' % at)
    return [_part(part, '%s content part %d' % (at, number)) for number, part in enumerate(content, 1)]


def _part(part, at: str) -> dict:
    kind = part.get('type') if part.__class__ is dict else None
    if kind.__class__ is not str:
        raise RecordError('%s must be a table with a string type field' % at)
    if kind == 'text':
        if part.get('text').__class__ is not str:
            raise RecordError('%s is a text part and must set a string text field' % at)
        return {'type': 'text', 'text': part['text']}
    if kind == 'image_url':
        image = part.get('image_url')
        if image.__class__ is not dict or image.get('url').__class__ is not str:
            raise RecordError('%s is an image_url part and must set an image_url table with a string '
                              'url field' % at)
        return {'type': 'image_url', 'image_url': {'url': image['url']}}
    raise RecordError('%s has unknown type "%s"; known types: %s' % (at, kind, ', '.join(PART_TYPES)))


def _tool_calls(calls, at: str) -> list:
    # An empty Lua table is both an empty array and an empty object: either
    # way it holds no call, and a record without calls has no tool_calls.
    if calls == {}:
        return []
    if calls.__class__ is not list:
        raise RecordError('%s tool_calls must be an array' % at)
    return [_call(call, '%s tool_calls[%d]' % (at, number)) for number, call in enumerate(calls, 1)]


def _call(call, at: str) -> dict:
    if call.__class__ is list:          # a table, but with no named field
        call = {}
    elif call.__class__ is not dict:
        raise RecordError('%s must be a table' % at)
    if call.get('id').__class__ is not str:
        raise RecordError('%s must set a string id' % at)
    if call.get('name').__class__ is not str:
        raise RecordError('%s must set a string name' % at)
    arguments = call.get('arguments', {})
    if arguments.__class__ is not dict:
        raise RecordError('%s arguments must be a table' % at)
    return {'id': call['id'], 'name': call['name'], 'arguments': arguments}
