"""Random Markdown-like text never breaks the parser: it returns a Prompt or
raises a ParseError of a prompt kind whose location points inside the file."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import runvil
from runvil.prompt import ParseErrorKind

names = st.text(alphabet='ab Sé#-`\t', max_size=6)
headings = st.builds(lambda hashes, sep, name: '#' * hashes + sep + name,
                     st.integers(0, 7), st.sampled_from(['', ' ', '\t', '  ']), names)
fences = st.builds(lambda indent, char, length, label: indent + char * length + label,
                   st.sampled_from(['', ' ', '   ', '    ', '\t']), st.sampled_from('`~'), st.integers(2, 5),
                   st.sampled_from(['', 'lua', 'Lua', 'lua x', 'luajit', 'python', ' lua', 'lua ', 'x', '`', 'é']))
list_lines = st.builds(lambda indent, marker, text: indent + marker + text,
                       st.sampled_from(['', '  ']), st.sampled_from(['-', '*', '+', '1.', '2)', '-x']),
                       st.sampled_from(['', ' ', ' item', ' é']))
yaml_lines = st.sampled_from([
    '---', 'name: x', 'name: demo', 'runvil: 0', 'description: d', ': : :', 'uses: [web, web]', 'uses:',
    '  - web', '  - not a pack', 'max_tool_iterations: 0', 'max_tool_iterations: 100000000000',
    'models: {9: 1}', 'models:', '  writer: {min_context: 0}', 'args: [{name: 1x}]', 'a: [1', '&a x', '*a',
    'input: {x: 1}', 'bogus: 1', '"unclosed', '\t- tab'])
lua_lines = st.sampled_from(['return 1', 'x(', 'if then', 'end', 'local a = 1', '-- comment', 'return [[',
                             ']]', '# t'])
random_lines = st.text(max_size=12).map(lambda text: text.replace('\n', ' '))
lines = st.one_of(headings, fences, list_lines, yaml_lines, lua_lines, random_lines, st.just(''))


@st.composite
def documents(draw):
    parts = draw(st.lists(lines, max_size=30))
    if draw(st.booleans()):
        parts = ['---', 'name: demo', 'runvil: 0', '---'] + parts
    text = draw(st.sampled_from(['\n', '\r\n'])).join(parts)
    return draw(st.sampled_from(['', '\ufeff'])) + text


def check(text: str) -> None:
    try:
        prompt = runvil.parse(text)
    except runvil.ParseError as error:
        _check_error(text, error)
    else:
        assert prompt.title


def _check_error(text: str, error) -> None:
    assert error.kind is not ParseErrorKind.INTERNAL, error.message
    assert error.message
    location = error.location
    file_lines = _normalized(text).split('\n')
    if location.line is not None:
        assert 1 <= location.line <= len(file_lines)
        line_bytes = file_lines[location.line - 1].encode('utf-8', 'surrogatepass')
        if location.column is not None:
            assert 1 <= location.column <= len(line_bytes) + 1
    else:
        assert location.column is None
    if location.span is not None:
        start, end = location.span
        body = _body(file_lines)
        assert 0 <= start < end <= len(body)
        assert body[start:end] == line_bytes


def _normalized(text: str) -> str:
    return text.removeprefix('\ufeff').replace('\r\n', '\n')


def _body(file_lines: list[str]) -> bytes:
    close = next(i for i in range(1, len(file_lines)) if file_lines[i].rstrip(' \t') == '---')
    return '\n'.join(file_lines[close + 1:]).encode('utf-8', 'surrogatepass')


# A parse takes milliseconds, so these run ten times the profile's examples
# (the quick profile by default, the thorough one with --slow).
EXAMPLES = settings.default.max_examples * 10


@settings(max_examples=EXAMPLES)
@given(documents())
def test_random_markdown_only_raises_located_parse_errors(text):
    check(text)


@settings(max_examples=EXAMPLES)
@given(st.text(max_size=200))
def test_arbitrary_text_only_raises_parse_errors(text):
    check(text)
