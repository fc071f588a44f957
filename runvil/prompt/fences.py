"""What a single body line is: an ATX heading, a fence line, or prose.

Fences follow CommonMark (0-3 spaces of indent, a run of three or more
backticks or tildes, an info string) so that a prompt reads the way any
Markdown viewer shows it.  On top of that the strict Lua fence rule holds: a
Lua block opens with a line that is exactly ```lua and closes with a line
that is exactly ```.  A fence of exactly three backticks or tildes whose info
string starts with ``lua`` in any case is meant as Lua and must obey the rule;
every other fence, and every fence longer than three, is prose.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

LUA_OPENING = '```lua'
LUA_CLOSING = '```'

BAD_LABEL = 'unrecognized fence label `%s`; the only Lua fence label is `lua`'
BAD_OPENING = '`lua` fence opening line must be exactly ```lua'
BAD_CLOSING = '`lua` fence closing line must be exactly ```'

_HEADING = re.compile(r' {0,3}(#{1,6})(?:[ \t](.*))?\Z')
_CLOSING_HASHES = re.compile(r'(?:\A|[ \t]+)#+\Z')


def heading(line: str) -> tuple[int, str] | None:
    """(level, name) for an ATX heading line; the name loses its optional
    closing run of #s, so ``## ##`` is an empty H2."""
    if '#' not in line[:4]:
        return None
    match = _HEADING.match(line)
    if match is None:
        return None
    name = _CLOSING_HASHES.sub('', (match.group(2) or '').strip(' \t')).strip(' \t')
    return len(match.group(1)), name


@dataclass(frozen=True, slots=True)
class FenceLine:
    """A line that starts, after any blanks, with ``` or ~~~."""
    char: str        # '`' or '~'
    length: int      # length of the backtick or tilde run
    info: str        # the rest of the line, blanks stripped
    is_fence: bool   # a CommonMark fence line: at most 3 spaces of indent, no tab


def fence_line(line: str) -> FenceLine | None:
    stripped = line.lstrip(' \t')
    head = stripped[:3]
    if head != '```' and head != '~~~':
        return None
    char = head[0]
    length = len(stripped) - len(stripped.lstrip(char))
    info = stripped[length:].strip(' \t')
    if char == '`' and '`' in info:
        return None  # an inline code span such as ```x```, not a fence
    indent = line[:len(line) - len(stripped)]
    return FenceLine(char, length, info, '\t' not in indent and len(indent) <= 3)


@dataclass(frozen=True, slots=True)
class Opening:
    """What a fence line outside any fence does."""
    opens: bool            # it starts a fenced block
    lua: bool              # that block is (meant as) Lua
    problem: str | None    # the fence rule it breaks, if any
    line: FenceLine


def opening(fence: FenceLine, line: str) -> Opening:
    meant_as_lua = fence.length == 3 and fence.info[:3].lower() == 'lua'
    if not meant_as_lua:
        return Opening(fence.is_fence, False, None, fence)
    if fence.info != 'lua':
        problem = BAD_LABEL % fence.info
    elif line != LUA_OPENING:
        # Indented, tilde, ``` lua, trailing blanks: CommonMark may or may not
        # open a block here, but it is never a Lua block opening.
        problem = BAD_OPENING
    else:
        problem = None
    return Opening(fence.is_fence, True, problem, fence)


def closes(line: str, opener: FenceLine) -> bool:
    """Whether ``line`` closes a block opened by ``opener`` (CommonMark: same
    character, at least as long, at most 3 spaces of indent, no info)."""
    fence = fence_line(line)
    return (fence is not None and fence.is_fence and fence.char == opener.char
            and fence.length >= opener.length and not fence.info)
