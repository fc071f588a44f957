"""The content under one heading: prose pieces, Lua blocks and list items.

Block roles: a Lua block with no prose before it in its section opens the
section and is the prologue; the section's last block, when it is not the
prologue, is the epilog; the blocks between are ``lua 1``, ``lua 2``, ...
counted in document order from 1, the prologue and epilog not counted.
"""
from __future__ import annotations

import re

from .model import ListItem, LuaBlock, Piece, Prose
from .scan import LuaFence, Text
from .source import Body

_LIST_MARKER = re.compile(r'[ \t]*(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]+(.*))?\Z')


def roles(content: list[Text | LuaFence], lines: list[str]) -> dict[int, tuple[str, int | None]]:
    """Role and number of each Lua fence in ``content``, keyed by its opening line index."""
    first = next((item for item in content
                  if isinstance(item, LuaFence) or not _blank(lines, item.start, item.end)), None)
    fences = [item for item in content if isinstance(item, LuaFence)]
    result = {}
    middle = 0
    for position, fence in enumerate(fences):
        if fence is first:
            result[fence.open] = ('prologue', None)
        elif position == len(fences) - 1:
            result[fence.open] = ('epilog', None)
        else:
            middle += 1
            result[fence.open] = ('lua', middle)
    return result


def section_pieces(name: str, content: list[Text | LuaFence], body: Body) -> tuple[Piece, ...]:
    assigned = roles(content, body.lines)
    labels = {'prologue': 'section `%s` prologue' % name, 'epilog': 'section `%s` epilog' % name}
    pieces = []
    for item in content:
        if isinstance(item, Text):
            pieces.extend(_prose(body, item))
            continue
        role, number = assigned[item.open]
        label = labels.get(role) or 'section `%s` lua %d' % (name, number)
        pieces.append(_block(body, item, role, number, label))
    return tuple(pieces)


def h1_pieces(title: str, content: list[Text | LuaFence], body: Body) -> tuple[Piece, ...]:
    label = 'H1 `%s` lua' % title
    pieces = []
    for item in content:
        if isinstance(item, Text):
            pieces.extend(_prose(body, item))
        else:
            pieces.append(_block(body, item, 'h1', None, label))
    return tuple(pieces)


def list_items(content: list[Text | LuaFence], body: Body) -> tuple[ListItem, ...] | None:
    """The items of a list section (no Lua, every non-blank line a list
    marker, at least one), with their text stripped; None for any other
    section."""
    lines = body.lines
    items = []
    for item in content:
        if isinstance(item, LuaFence):
            return None
        for index in range(item.start, item.end):
            line = lines[index]
            if not line.strip():
                continue
            match = _LIST_MARKER.match(line)
            if match is None:
                return None
            items.append(ListItem((match.group(1) or '').strip(), body.file_line(index)))
    return tuple(items) or None


def _blank(lines: list[str], start: int, end: int) -> bool:
    return all(not lines[index].strip() for index in range(start, end))


def _prose(body: Body, text: Text) -> list[Prose]:
    lines = body.lines
    start, end = text.start, text.end
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    if start == end:
        return []
    return [Prose('\n'.join(lines[start:end]), body.file_line(start), body.file_line(end - 1))]


def _block(body: Body, fence: LuaFence, role: str, number: int | None, label: str) -> LuaBlock:
    return LuaBlock(role, number, label, '\n'.join(body.lines[fence.open + 1:fence.close]),
                    body.file_line(fence.open + 1), body.file_line(fence.open), body.file_line(fence.close))
