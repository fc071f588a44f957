"""The prompt body: H1, section tree, prose and Lua blocks, fences, lists,
and the order in which problems are reported."""
from __future__ import annotations

import sys

import pytest

import runvil
from prompt_helpers import HEADER, lua_diagnostic, outline, parse_error
from runvil.prompt import LuaBlock, ParseErrorKind, Prose


def body(*lines: str) -> str:
    """A prompt named demo whose body lines start at file line 5."""
    return HEADER + ''.join(line + '\n' for line in lines)


def fence_error(*lines: str):
    error = parse_error(body(*lines))
    assert error.kind is ParseErrorKind.FENCE
    assert error.location.path == 'demo'
    return error


LUA = ['```lua', 'return 1', '```']


# The tree -------------------------------------------------------------------

def test_sections_form_a_tree_in_document_order():
    prompt = runvil.parse(body(
        '# Title', 'Intro.', *LUA,
        '## A', '### A1', '#### Deep', '### A2', '## B', '### A1', 'Same name, other parent.'))
    assert prompt.title == 'Title' and prompt.title_line == 5
    assert [(s.name, s.level, s.line) for s in prompt.walk()] == [
        ('A', 2, 10), ('A1', 3, 11), ('Deep', 4, 12), ('A2', 3, 13), ('B', 2, 14), ('A1', 3, 15)]
    assert [child.name for child in prompt.sections[0].children] == ['A1', 'A2']
    assert [p.text for p in prompt.body if isinstance(p, Prose)] == ['Intro.']
    block = prompt.h1_blocks[0]
    assert (block.role, block.number, block.label, block.source, block.line, block.fence_line, block.end_line) \
        == ('h1', None, 'H1 `Title` lua', 'return 1', 8, 7, 9)


def test_block_roles_and_numbering():
    prompt = runvil.parse(body(
        '# T', '## S', *LUA, 'one', *LUA, 'two', '```lua', 'return 2', '```', 'three', *LUA, 'tail prose'))
    section = prompt.sections[0]
    assert [(b.role, b.number, b.label) for b in section.blocks] == [
        ('prologue', None, 'section `S` prologue'), ('lua', 1, 'section `S` lua 1'),
        ('lua', 2, 'section `S` lua 2'), ('epilog', None, 'section `S` epilog')]
    assert [type(p).__name__ for p in section.pieces] == \
        ['LuaBlock', 'Prose', 'LuaBlock', 'Prose', 'LuaBlock', 'Prose', 'LuaBlock', 'Prose']
    assert section.blocks[2].source == 'return 2'


@pytest.mark.parametrize('lines, roles', [
    (LUA, ['prologue']),
    (['', '', *LUA, ''], ['prologue']),
    (['Prose first.', *LUA], ['epilog']),
    (['Prose first.', *LUA, 'More prose.'], ['epilog']),
    ([*LUA, *LUA], ['prologue', 'epilog']),
    (['p', *LUA, 'q', *LUA], ['lua', 'epilog']),
    (['```python', 'x = 1', '```', *LUA], ['epilog']),
])
def test_which_block_opens_and_which_closes_a_section(lines, roles):
    section = runvil.parse(body('# T', '## S', *lines)).sections[0]
    assert [b.role for b in section.blocks] == roles


def test_prose_pieces_keep_their_lines_and_trim_blank_edges():
    section = runvil.parse(body('# T', '## S', '', 'first line', '', 'second para', '', *LUA, '', 'after', '')) \
        .sections[0]
    first, block, after = section.pieces
    assert (first.text, first.line, first.end_line) == ('first line\n\nsecond para', 8, 10)
    assert block.line == 13 and (after.text, after.line) == ('after', 16)


def test_lua_source_keeps_lf_lines_of_a_crlf_file():
    text = body('# T', '## S', '```lua', 'local a = 1', 'return a', '```').replace('\n', '\r\n')
    assert runvil.parse(text).sections[0].blocks[0].source == 'local a = 1\nreturn a'


def test_headings_follow_commonmark():
    prompt = runvil.parse(body('# T #', '   ## Indented ##', '#hashtag is prose', '####### seven is prose',
                               '## Closing#hash', '##\tTabbed'))
    assert prompt.title == 'T'
    assert [s.name for s in prompt.sections] == ['Indented', 'Closing#hash', 'Tabbed']
    assert prompt.sections[0].pieces[0].text == '#hashtag is prose\n####### seven is prose'


def test_fences_hide_headings_and_other_languages_are_prose():
    prompt = runvil.parse(body(
        '# T', '## S', '```bash', '# not a heading', '```', '```lua', 'local t = {}', 'return', '# t', '```',
        '````markdown', '```lua', 'this is (not lua', '```', '# still inside', '````',
        '~~~', '## nor this', '~~~', '```', 'bare fence', '```'))
    assert [s.name for s in prompt.walk()] == ['S']
    section = prompt.sections[0]
    assert [b.source for b in section.blocks] == ['local t = {}\nreturn\n# t']
    assert '```lua\nthis is (not lua' in section.pieces[-1].text


def test_an_unclosed_fence_of_another_language_runs_to_the_end():
    prompt = runvil.parse(body('# T', '## S', '```text', '## Hidden', '```lua', 'x'))
    assert [s.name for s in prompt.walk()] == ['S']


# Fence rule -------------------------------------------------------------------

@pytest.mark.parametrize('opening', [' ```lua', '   ```lua', '``` lua', '```lua ', '```lua\t', '~~~lua',
                                     '    ```lua', '\t```lua', '        ```lua'])
def test_bad_opening_and_lookalike_lines(opening):
    error = fence_error('# T', '## S', 'Prose.', opening, 'return 1', '```')
    assert error.message == '`lua` fence opening line must be exactly ```lua'
    assert (error.location.line, error.location.column) == (8, 1)


@pytest.mark.parametrize('label', ['Lua', 'LUA', 'lua5.4', 'luajit', 'lua run', 'lua {.x}', 'Lua title="a"'])
def test_bad_labels(label):
    error = fence_error('# T', '## S', '```' + label, 'return 1', '```')
    assert error.message == 'unrecognized fence label `%s`; the only Lua fence label is `lua`' % label
    assert (error.location.line, error.location.column) == (7, 1)


@pytest.mark.parametrize('closing', [' ```', '  ```', '   ```', '```  ', '````', '```````', ' ```` '])
def test_bad_closing_lines(closing):
    error = fence_error('# T', '## S', '```lua', 'return 1', closing)
    assert error.message == '`lua` fence closing line must be exactly ```'
    assert (error.location.line, error.location.column) == (9, 1)


@pytest.mark.parametrize('not_a_closer', ['    ```', '```x', '``` x', '~~~', '``'])
def test_lines_that_do_not_close_leave_the_fence_open(not_a_closer):
    error = fence_error('# T', '## S', '```lua', 'return 1', not_a_closer)
    assert error.message == 'section `S` prologue `lua` fence is not closed'
    assert (error.location.line, error.location.column, error.location.span) == (None, None, None)


def test_unclosed_fence_labels():
    assert fence_error('# T', '## S', 'Prose.', '```lua', 'x').message == \
        'section `S` epilog `lua` fence is not closed'
    assert fence_error('# T', '## S', *LUA, 'Prose.', '```lua', 'x').message == \
        'section `S` epilog `lua` fence is not closed'
    assert fence_error('# Title', '```lua', 'x', '## S').message == \
        'section `Title` prologue `lua` fence is not closed'
    assert fence_error('# Title', 'Gate prose.', '```lua', 'x').message == \
        'section `Title` epilog `lua` fence is not closed'
    assert fence_error('# T', '## S', '### Deep', '```lua').message == \
        'section `Deep` prologue `lua` fence is not closed'


def test_inner_lua_fences_of_a_longer_fence_are_never_checked():
    prompt = runvil.parse(body('# T', '## S', '````', '  ```lua', '```Lua', '```lua', '````'))
    assert prompt.sections[0].blocks == ()


def test_only_the_first_fence_error_is_reported():
    error = fence_error('# T', '## A', '```lua', 'x = 1', '  ```', '## B', '```Lua', '```')
    assert error.message == '`lua` fence closing line must be exactly ```'
    assert error.location.line == 9


def test_fence_error_span_covers_the_line_in_body_bytes():
    error = fence_error('# Tété', '## S', '```luaé')
    start, end = error.location.span
    body_bytes = '# Tété\n## S\n```luaé\n'.encode()
    assert body_bytes[start:end] == '```luaé'.encode()


# Headings ---------------------------------------------------------------------

def structure_error(*lines: str):
    error = parse_error(body(*lines))
    assert error.kind is ParseErrorKind.STRUCTURE
    assert error.location.path == 'demo'
    return error


def test_h1_errors_carry_no_line_or_span():
    for lines, message in [
            (['## S'], 'prompt requires an H1 title'),
            (['# A', '# B'], 'prompt must contain exactly one H1 title, found 2 at lines 5, 6'),
            (['#', '## S'], 'prompt H1 title must not be empty'),
            (['# #'], 'prompt H1 title must not be empty')]:
        error = structure_error(*lines)
        assert error.message == message
        assert (error.location.line, error.location.column, error.location.span) == (None, None, None)


@pytest.mark.parametrize('heading, level', [('##', 2), ('## ', 2), ('### ###', 3), ('######', 6)])
def test_empty_section_headings(heading, level):
    error = structure_error('# T', '## S', heading)
    assert error.message == 'an H%d section heading must not be empty' % level
    assert (error.location.line, error.location.column) == (7, 1)
    start, end = error.location.span
    assert end - start == len(heading)


def test_orphans():
    error = structure_error('# T', '### Skip')
    assert error.message == 'section `Skip` is an orphan H3 heading with no parent H2'
    assert (error.location.line, error.location.column) == (6, 1)
    assert structure_error('## Early', '# T').message == \
        'section `Early` is an orphan H2 heading with no parent H1'
    assert structure_error('# T', '## A', '### B', '##### E').message == \
        'section `E` is an orphan H5 heading with no parent H4'


def test_duplicate_span_points_at_the_second_heading():
    error = structure_error('# T', '## Séction', '## Séction')
    assert error.message == ('duplicate sibling section name `Séction`: first declared at line 6, again at '
                             'line 7; sibling section names must be unique')
    start, end = error.location.span
    assert (start, end) == (len('# T\n## Séction\n'.encode()), len('# T\n## Séction\n## Séction'.encode()))


def test_text_before_the_title_is_refused():
    error = structure_error('', 'Preface.', '# T')
    assert error.message == 'the prompt body must start with its H1 title, but line 6 comes first'
    assert error.location.line == 6
    assert structure_error(*LUA, '# T').location.line == 5


def test_blank_lines_before_the_title_are_fine():
    assert runvil.parse(body('', '   ', '# T')).title_line == 7


# Lists -------------------------------------------------------------------------

def test_list_sections_and_their_items():
    prompt = runvil.parse(body('# T', '## Plan', '', '- alpha', '* beta', '+ gamma', '1. delta', '2) epsilon',
                               '  - nested', '', '## Prose', 'Intro.', '- a', '-', '## Empty',
                               '## Code', *LUA, '- x', '-'))
    plan, mixed, empty, code = prompt.sections
    assert plan.is_list
    assert [(item.text, item.line) for item in plan.items][:2] == [('alpha', 8), ('beta', 9)]
    assert [item.text for item in plan.items] == ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'nested']
    assert plan.pieces[0].text.startswith('- alpha')
    assert not mixed.is_list and not empty.is_list and not code.is_list


@pytest.mark.parametrize('item', ['-', '- ', '*', '1.', '3)  ', '  -'])
def test_an_empty_item_fails_the_list_section(item):
    error = parse_error(body('# T', '## Plan', '- alpha', item, '- gamma'))
    assert error.kind is ParseErrorKind.LIST
    assert error.message == 'empty bullet item in list section `Plan`'
    assert (error.location.path, error.location.line, error.location.span) == ('demo', None, None)


# Lua blocks --------------------------------------------------------------------

def lua_error(*lines: str):
    error = parse_error(body(*lines))
    assert error.kind is ParseErrorKind.LUA
    assert (error.location.path, error.location.line, error.location.column, error.location.span) == \
        ('<prompt>', None, None, None)
    return error.message


def test_lua_errors_name_the_block_and_its_first_line():
    assert lua_error('# T', '## S', '```lua', 'local x = = 1', '```') == \
        'lua compilation error at section `S` prologue (line 8): ' + lua_diagnostic('local x = = 1')
    assert lua_error('# T', '## S', *LUA, 'p', '```lua', 'x(', '```', 'q', *LUA) == \
        'lua compilation error at section `S` lua 1 (line 12): ' + lua_diagnostic('x(')
    assert lua_error('# Gate', '```lua', '', 'if then', '```') == \
        'lua compilation error at H1 `Gate` lua (line 7): ' + lua_diagnostic('\nif then')


def test_diagnostic_lines_count_from_the_block():
    diagnostic = lua_diagnostic('local a = 1\nlocal b = = 2')
    assert diagnostic.startswith('block:2:')
    assert lua_error('# T', '## S', 'Prose', '```lua', 'local a = 1', 'local b = = 2', '```') == \
        'lua compilation error at section `S` epilog (line 9): ' + diagnostic


def test_the_diagnostic_appears_once_and_nothing_is_chained():
    error = parse_error(body('# T', '## S', '```lua', 'return (', '```'))
    diagnostic = lua_diagnostic('return (')
    assert error.message.count(diagnostic) == 1
    assert error.__cause__ is None and error.__suppress_context__


# Order ------------------------------------------------------------------------

@pytest.mark.parametrize('lines, kind', [
    # H1 count (4) before the fence rule (6)
    (['# A', '```Lua', '```', '# B'], ParseErrorKind.STRUCTURE),
    # empty H1 (5) before the fence rule (6)
    (['#', '```lua'], ParseErrorKind.STRUCTURE),
    # fence rule (6) before an earlier orphan heading (8)
    (['# T', '### Orphan', '## S', '```lua'], ParseErrorKind.FENCE),
    # fence rule (6) before the H1's Lua (7)
    (['# T', '```lua', 'if then', '```', '## S', '``` lua', '```'], ParseErrorKind.FENCE),
    # H1 Lua (7) before section errors (8)
    (['# T', '```lua', 'if then', '```', '## S', '## S'], ParseErrorKind.LUA),
    # sections in document order (8): a Lua error in A before an orphan after it
    (['# T', '## A', '```lua', 'if then', '```', '#### Orphan'], ParseErrorKind.LUA),
    # ...and a list error in A before a Lua error in B
    (['# T', '## A', '- x', '-', '## B', '```lua', 'if then', '```'], ParseErrorKind.LIST),
])
def test_the_first_problem_in_spec_order_wins(lines, kind):
    assert parse_error(body(*lines)).kind is kind


# Internal ---------------------------------------------------------------------

def test_a_compiler_that_cannot_start_is_internal(monkeypatch):
    monkeypatch.setitem(sys.modules, 'pylua', None)   # makes `import pylua` fail
    error = parse_error(body('# T', '## S', *LUA))
    assert error.kind is ParseErrorKind.INTERNAL
    assert error.message.startswith('the Lua compiler could not start: ')
    location = error.location
    assert location.path == 'runvil/prompt/luacompile.py' and isinstance(location.line, int)
    assert (location.column, location.span) == (None, None)


def test_a_fault_in_the_parser_is_internal_and_names_engine_source(monkeypatch):
    from runvil.prompt import structure

    def broken(*args):
        raise KeyError('lost')
    monkeypatch.setattr(structure, 'h1_pieces', broken)
    error = parse_error(body('# T'))
    assert error.kind is ParseErrorKind.INTERNAL
    assert error.message == "internal invariant violated: KeyError: 'lost'"
    assert error.location.path.startswith('runvil/prompt/') and error.location.column is None


def test_errors_keep_the_source_path():
    with pytest.raises(runvil.ParseError) as info:
        runvil.parse(body('## S'), path='prompts/x.md')
    assert info.value.source_path == 'prompts/x.md'
    assert info.value.to_dict() == {'kind': 'Structure', 'message': 'prompt requires an H1 title',
                                    'location': {'path': 'demo', 'line': None, 'column': None, 'span': None}}


def test_a_rich_prompt_outline():
    text = body('# Research', 'Check tools.', *LUA, '## Plan', '- search', '- read', '## Work', 'Do it.',
                '### Search', *LUA, 'Summarize.', '```lua', 'return prose', '```', '### Read', '```lua', '```')
    assert outline(runvil.parse(text)) == {
        'name': 'demo', 'title': 'Research', 'title_line': 5, 'h1_blocks': [['h1', None, 8]],
        'sections': [
            {'name': 'Plan', 'level': 2, 'line': 10, 'blocks': [], 'prose_lines': [11],
             'items': ['search', 'read'], 'children': []},
            {'name': 'Work', 'level': 2, 'line': 13, 'blocks': [], 'prose_lines': [14], 'items': [],
             'children': [
                 {'name': 'Search', 'level': 3, 'line': 15, 'blocks': [['prologue', None, 17], ['epilog', None, 21]],
                  'prose_lines': [19], 'items': [], 'children': []},
                 {'name': 'Read', 'level': 3, 'line': 23, 'blocks': [['prologue', None, 25]], 'prose_lines': [],
                  'items': [], 'children': []}]}]}
    empty_block = runvil.parse(text).sections[1].children[1].blocks[0]
    assert isinstance(empty_block, LuaBlock) and empty_block.source == ''
