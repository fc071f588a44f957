"""One pass over the body lines: headings, Lua blocks and prose runs.

The scan never stops at a fence-rule break.  It records the first break and
goes on reading the file the way CommonMark would, so the checks that come
before the fence rule in the parse order (the H1 count) see the same
headings whether or not a fence is broken.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import fences


@dataclass(slots=True)
class Heading:
    level: int
    name: str
    index: int        # body line index


@dataclass(slots=True)
class LuaFence:
    open: int         # body line index of the opening line
    close: int | None  # body line index of the closing line; None if never closed


@dataclass(slots=True)
class Text:
    start: int        # body line indices [start, end): prose, blank lines and
    end: int          # fenced blocks of other languages


Item = Heading | LuaFence | Text


@dataclass(slots=True)
class Scan:
    items: list[Item] = field(default_factory=list)
    problem: tuple[str, int] | None = None   # first fence-rule break: message, line index

    def headings(self) -> list[Heading]:
        return [item for item in self.items if isinstance(item, Heading)]


def scan(lines: list[str]) -> Scan:
    result = Scan()
    items = result.items
    text_start = None
    index, count = 0, len(lines)

    def flush(at: int) -> None:
        nonlocal text_start
        if text_start is not None:
            items.append(Text(text_start, at))
            text_start = None

    def note(message: str, at: int) -> None:
        if result.problem is None:
            result.problem = (message, at)

    while index < count:
        line = lines[index]
        found = fences.heading(line)
        if found is not None:
            flush(index)
            items.append(Heading(found[0], found[1], index))
            index += 1
            continue
        fence = fences.fence_line(line)
        opening = fences.opening(fence, line) if fence is not None else None
        if opening is not None and opening.problem is not None:
            note(opening.problem, index)
        if opening is None or not opening.opens:
            if text_start is None:
                text_start = index
            index += 1
            continue
        close = _closing_index(lines, index + 1, fence)
        if opening.lua:
            flush(index)
            items.append(LuaFence(index, close))
            if close is not None and lines[close] != fences.LUA_CLOSING:
                note(fences.BAD_CLOSING, close)
        elif text_start is None:
            text_start = index
        index = count if close is None else close + 1
    flush(count)
    return result


def _closing_index(lines: list[str], start: int, opener: fences.FenceLine) -> int | None:
    for index in range(start, len(lines)):
        if fences.closes(lines[index], opener):
            return index
    return None  # CommonMark: an unclosed fence runs to the end of the document
