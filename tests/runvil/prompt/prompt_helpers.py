"""Shared helpers for the prompt parser tests."""
from __future__ import annotations

import pytest

import runvil
from runvil.prompt import LuaBlock, ParseError, Prose

HEADER = '---\nname: demo\nrunvil: 0\n---\n'   # body line 1 is file line 5


def parse_error(text: str) -> ParseError:
    with pytest.raises(ParseError) as info:
        runvil.parse(text)
    return info.value


def lua_diagnostic(source: str) -> str:
    """pylua's own compiler text for ``source`` compiled as a prompt block."""
    from pylua import LuaSyntaxError, compile_check
    with pytest.raises(LuaSyntaxError) as info:
        compile_check(source, 'block')
    return str(info.value)


def outline(prompt) -> dict:
    """The shape of a parsed prompt, compact enough to compare with JSON."""
    def blocks(pieces):
        return [[p.role, p.number, p.line] for p in pieces if isinstance(p, LuaBlock)]

    def section(s):
        return {'name': s.name, 'level': s.level, 'line': s.line, 'blocks': blocks(s.pieces),
                'prose_lines': [p.line for p in s.pieces if isinstance(p, Prose)],
                'items': [item.text for item in s.items],
                'children': [section(child) for child in s.children]}

    return {'name': prompt.name, 'title': prompt.title, 'title_line': prompt.title_line,
            'h1_blocks': blocks(prompt.body), 'sections': [section(s) for s in prompt.sections]}
