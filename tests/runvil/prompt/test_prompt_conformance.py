"""The spec's parse examples, kept as files under conformance/runvil/parse/."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import runvil
from prompt_helpers import lua_diagnostic, outline

CASES = Path(__file__).resolve().parents[3] / 'conformance' / 'runvil' / 'parse'
VALID = sorted(CASES.glob('valid/*.md'))
ERRORS = sorted(CASES.glob('errors/*.md'))


def test_the_suite_is_there():
    assert len(VALID) >= 25 and len(ERRORS) >= 25


@pytest.mark.parametrize('path', VALID, ids=lambda p: p.stem)
def test_valid_prompt_parses_into_its_section_tree(path):
    prompt = runvil.parse(path.read_text(encoding='utf-8'), path=str(path))
    assert outline(prompt) == json.loads(path.with_suffix('.json').read_text(encoding='utf-8'))
    assert prompt.source_path == str(path)


@pytest.mark.parametrize('path', ERRORS, ids=lambda p: p.stem)
def test_error_example_fails_exactly(path):
    text = path.read_text(encoding='utf-8')
    expected = json.loads(path.with_suffix('.json').read_text(encoding='utf-8'))
    with pytest.raises(runvil.ParseError) as info:
        runvil.parse(text)
    error = info.value
    assert error.kind.value == expected['kind']
    message = expected['message']
    if message.endswith('{diagnostic}'):
        message = message.replace('{diagnostic}', lua_diagnostic(_block_at(text, error.message)))
    assert error.message == message
    assert str(error) == message
    want = expected['location']
    location = error.location
    assert (location.path, location.line, location.column) == (want['path'], want['line'], want['column'])
    if want['span']:
        start, end = location.span
        body = _body_bytes(text)
        assert 0 <= start < end <= len(body)
        assert body[start:end].decode() == text.split('\n')[location.line - 1]
    else:
        assert location.span is None


def _block_at(text: str, message: str) -> str:
    """The Lua of the block a compile message names by its first line."""
    line = int(message.split('(line ', 1)[1].split(')', 1)[0])
    lines = text.split('\n')[line - 1:]
    return '\n'.join(lines[:lines.index('```')])


def _body_bytes(text: str) -> bytes:
    lines = text.split('\n')
    close = lines.index('---', 1)
    return '\n'.join(lines[close + 1:]).encode()
