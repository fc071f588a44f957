"""The frontmatter block and the prompt contract."""
from __future__ import annotations

import pytest

import runvil
from prompt_helpers import parse_error
from runvil.prompt import (InputSpec, ModelRole, ParseErrorKind, PromptArg, UnsupportedVersion,
                           require_runnable)

BODY = '\n# T\n'


def fm(*lines: str) -> str:
    """A prompt whose frontmatter is ``lines`` (file lines 2...) and a bare H1 body."""
    return '---\n' + ''.join(line + '\n' for line in lines) + '---\n' + BODY


def refusal(*lines: str):
    error = parse_error(fm(*lines))
    assert error.kind is ParseErrorKind.FRONTMATTER
    assert error.location.path == '<prompt>' and error.location.span is None
    return error.message, error.location.line, error.location.column


# Delimiters -----------------------------------------------------------------

@pytest.mark.parametrize('text', ['', '\n---\nname: x\n---\n# T\n', '# T\n', ' ---\nname: x\n---\n# T\n'])
def test_a_file_must_begin_with_the_delimiter(text):
    error = parse_error(text)
    assert error.kind is ParseErrorKind.FRONTMATTER
    assert error.message == 'file must begin with a --- frontmatter delimiter'
    assert (error.location.path, error.location.line, error.location.column) == ('<prompt>', None, None)


def test_an_unclosed_block_is_refused():
    error = parse_error('---\nname: x\nrunvil: 0\n\n# T\n')
    assert error.message == 'frontmatter was not closed with ---'
    assert error.location.line is None


def test_bom_and_crlf_are_accepted():
    prompt = runvil.parse('\ufeff---\r\nname: crlf\r\nrunvil: 0\r\n---\r\n\r\n# T\r\n\r\n## S\r\n\r\nok\r\n')
    assert prompt.name == 'crlf'
    assert prompt.title_line == 6 and prompt.sections[0].line == 8
    assert prompt.sections[0].pieces[0].text == 'ok'


def test_crlf_positions_count_the_file_as_written():
    error = parse_error('---\r\nname: crlf\r\nuses: [Web]\r\n---\r\n# T\r\n')
    assert (error.location.line, error.location.column) == (3, 8)


# YAML -------------------------------------------------------------------------

def test_invalid_yaml_gives_the_decoder_message_with_file_line_and_column():
    message, line, column = refusal('name: x', 'a: [1, 2', 'b: 3')
    assert message == "invalid frontmatter: while parsing a flow sequence, expected ',' or ']', but got ':' " \
                      "at line 4 column 2"
    assert (line, column) == (4, 2)


def test_invalid_yaml_message_never_dumps_the_source():
    message, _, _ = refusal('name: secret-value', 'description: "never closed')
    assert 'secret' not in message and 'never closed' not in message and '^' not in message


def test_special_characters_are_refused_with_a_position():
    message, line, column = refusal('name: x', 'description: a\x07b')
    assert message == 'invalid frontmatter: special characters are not allowed (#x0007) at line 3 column 15'
    assert (line, column) == (3, 15)


def test_yaml_columns_count_bytes():
    message, line, column = refusal('args: [{name: topic, description: é, type: strng}]')
    assert message == 'invalid frontmatter: arg `topic` has unknown type `strng`; known types: ' \
                      'boolean, integer, number, string'
    assert (line, column) == (2, len('args: [{name: topic, description: é, type: '.encode()) + 1)


def test_a_key_given_twice_is_refused_at_the_second():
    assert refusal('name: x', 'runvil: 0', 'name: y') == \
        ('invalid frontmatter: key `name` is given more than once', 4, 1)


def test_aliases_are_refused_where_written():
    assert refusal('name: &n x', 'description: *n') == \
        ('invalid frontmatter: YAML aliases are not supported at line 3 column 14', 3, 14)


def test_python_tags_are_refused():
    assert refusal('name: !!python/object:os.system x')[0].startswith('invalid frontmatter: unsupported YAML tag')


@pytest.mark.parametrize('nested', ['[' * 5000, '{a: ' * 5000, '{a: ' + '[' * 90 + ']' * 90 + ', b: ' + '[' * 120,
                                    ''.join('\n' + ' ' * i + 'k:' for i in range(1, 150))])
def test_deep_nesting_is_refused_where_it_passes_the_limit_and_quickly(nested):
    import time
    start = time.perf_counter()
    message, line, column = refusal('name: x', 'description: ' + nested)
    assert message.startswith('invalid frontmatter: the YAML nests too deeply at line ')
    assert line >= 3 and time.perf_counter() - start < 2


def test_nesting_up_to_the_limit_decodes():
    from runvil.prompt.yamltree import MAX_NESTING, decode
    node = decode('a: ' + '[' * (MAX_NESTING - 1) + ']' * (MAX_NESTING - 1) + '\n', first_line=2)
    depth, value = 0, node.value[0][1]
    while value.kind == 'seq':
        depth, value = depth + 1, (value.value[0] if value.value else None)
        if value is None:
            break
    assert depth == MAX_NESTING - 1


def test_core_schema_keeps_yes_and_no_as_strings():
    prompt = runvil.parse(fm('name: no', 'description: yes'))
    assert (prompt.name, prompt.frontmatter.description) == ('no', 'yes')


def test_frontmatter_must_be_a_mapping():
    assert refusal('- a', '- b') == ('invalid frontmatter: the frontmatter must be a mapping of keys '
                                      'to values, got a list', 2, 1)


def test_empty_frontmatter_is_refused():
    assert parse_error('---\n---\n# T\n').message == \
        'invalid frontmatter: the frontmatter is empty; it needs at least a name key'


# Keys ---------------------------------------------------------------------------

def test_a_full_contract_decodes():
    prompt = runvil.parse(fm(
        'name: research', 'description: Researches a person.', 'runvil: 0', 'max_tool_iterations: 1000',
        'uses:', '  - web', '  - acme/crm',
        'models:', '  writer: {}', '  reviewer:', '    model: gpt-4o-mini', '    min_context: 32000',
        '    requires: [tools]', '    prefers: [vision, json]', '  plain:',
        'args:', '  - name: topic', '    description: What to research.',
        '  - {name: depth, type: integer, default: 3}', '  - {name: strict, type: boolean, default: false}',
        '  - {name: ratio, type: number, default: 2}',
        'input:', '  description: Notes to summarize.', '  required: false'))
    front = prompt.frontmatter
    assert (front.name, front.description, front.runvil.major, front.max_tool_iterations) == \
        ('research', 'Researches a person.', 0, 1000)
    assert front.uses == ('web', 'acme/crm')
    assert front.models == (ModelRole('writer'),
                            ModelRole('reviewer', 'gpt-4o-mini', 32000, ('tools',), ('vision', 'json')),
                            ModelRole('plain'))
    assert front.model_role('reviewer').min_context == 32000
    assert front.args == (PromptArg('topic', 'string', description='What to research.'),
                          PromptArg('depth', 'integer', True, 3), PromptArg('strict', 'boolean', True, False),
                          PromptArg('ratio', 'number', True, 2))
    assert front.args[0].required and not front.args[1].required
    assert front.input == InputSpec('Notes to summarize.', False)


def test_optional_keys_default_to_absent():
    front = runvil.parse(fm('name: bare')).frontmatter
    assert (front.description, front.runvil, front.max_tool_iterations, front.uses, front.models,
            front.args, front.input) == (None, None, None, (), (), (), None)


def test_name_is_required():
    assert refusal('runvil: 0') == ('invalid frontmatter: the frontmatter is missing the required key `name`',
                                    None, None)


@pytest.mark.parametrize('key, suggestion', [('naem', 'name'), ('max_tool_iteration', 'max_tool_iterations'),
                                             ('model', 'models')])
def test_unknown_and_misspelled_keys_are_refused_at_the_key(key, suggestion):
    message, line, column = refusal('name: x', '%s: 1' % key)
    assert message == ('invalid frontmatter: unknown frontmatter key `%s`; expected one of: args, description, '
                       'input, max_tool_iterations, models, name, runvil, uses (did you mean `%s`?)'
                       % (key, suggestion))
    assert (line, column) == (3, 1)


def test_an_unrelated_unknown_key_gets_no_suggestion():
    assert refusal('name: x', 'zzz: 1')[0].endswith('runvil, uses')


@pytest.mark.parametrize('value, message', [
    ('', 'name must be a non-empty string, got nothing'),
    ('"  "', 'name must be a non-empty string, got "  "'),
    ('42', 'name must be a non-empty string, got 42'),
    ('[a]', 'name must be a non-empty string, got a list'),
])
def test_bad_names(value, message):
    assert refusal('name: ' + value)[0] == 'invalid frontmatter: ' + message


def test_description_must_be_a_string():
    assert refusal('name: x', 'description: {a: 1}') == \
        ('invalid frontmatter: description must be a string, got a mapping', 3, 14)


# runvil version ---------------------------------------------------------------

def test_a_prompt_without_runvil_parses_but_cannot_run():
    prompt = runvil.parse(fm('name: old'))
    with pytest.raises(runvil.ParseError) as info:
        require_runnable(prompt)
    error = info.value
    assert error.kind is ParseErrorKind.FRONTMATTER
    assert error.message == 'not a runvil prompt: no runvil version'
    assert (error.location.path, error.location.line) == ('<prompt>', None)


def test_an_unsupported_major_parses_but_cannot_run():
    prompt = runvil.parse(fm('name: future', 'runvil: 1'))
    with pytest.raises(UnsupportedVersion) as info:
        require_runnable(prompt)
    assert info.value.kind == 'Version'
    assert str(info.value) == 'unsupported runvil version: 1 (this build supports major 0)'


@pytest.mark.parametrize('value', ['0', '0.3', '"0.3.1"'])
def test_major_zero_runs(value):
    require_runnable(runvil.parse(fm('name: x', 'runvil: ' + value)))


@pytest.mark.parametrize('value', ['zero', 'true', '-1', '[0]', '0.1.2.3'])
def test_a_malformed_version_is_refused(value):
    message, line, column = refusal('name: x', 'runvil: ' + value)
    assert message.startswith('invalid frontmatter: runvil must be a version number such as 0, got ')
    assert (line, column) == (3, 9)


# max_tool_iterations ----------------------------------------------------------

@pytest.mark.parametrize('value', ['1', '50', '1000'])
def test_max_tool_iterations_accepts_1_to_1000(value):
    assert runvil.parse(fm('name: x', 'max_tool_iterations: ' + value)).frontmatter.max_tool_iterations == int(value)


@pytest.mark.parametrize('value, message', [
    ('0', 'max_tool_iterations must be at least 1, got 0'),
    ('-5', 'max_tool_iterations must be at least 1, got -5'),
    ('1001', 'max_tool_iterations must be at most 1000, got 1001'),
    ('4294967297', 'max_tool_iterations must be at most 1000, got 4294967297'),
    ('100000000000', 'max_tool_iterations must be at most 1000, got 100000000000'),
    ('"50"', 'max_tool_iterations must be a whole number written as a bare integer, got 50'),
    ('5.0', 'max_tool_iterations must be a whole number written as a bare integer, got 5.0'),
    ('0x10', 'max_tool_iterations must be a whole number written as a bare integer, got 0x10'),
    ('true', 'max_tool_iterations must be a whole number written as a bare integer, got true'),
])
def test_max_tool_iterations_refusals(value, message):
    assert refusal('name: x', 'max_tool_iterations: ' + value) == ('invalid frontmatter: ' + message, 3, 22)


# uses -----------------------------------------------------------------------

def test_uses_entry_points_at_the_value_after_the_marker():
    message, line, column = refusal('name: helper', 'description: d', 'uses:', '  - not a Pack id')
    assert message == 'invalid frontmatter: uses entry `not a Pack id` is neither a Pack id (such as web) ' \
                      'nor a vendor/name (such as acme/crm)'
    assert (line, column) == (5, 5)


@pytest.mark.parametrize('entry, shown', [('Web', '`Web`'), ('a/b/c', '`a/b/c`'), ('{pack: web}', 'a mapping'),
                                          ('3', '`3`')])
def test_malformed_uses_entries(entry, shown):
    message, _, _ = refusal('name: x', 'uses:', '  - ' + entry)
    assert message.startswith('invalid frontmatter: uses entry %s is neither' % shown)


def test_uses_must_be_a_list():
    assert refusal('name: x', 'uses: web')[0] == 'invalid frontmatter: uses must be a list of Pack ids, got web'


@pytest.mark.parametrize('pack', ['web', 'acme/crm'])
def test_a_pack_declared_twice_has_no_position(pack):
    assert refusal('name: x', 'uses:', '  - ' + pack, '  - ' + pack) == \
        ('invalid frontmatter: Pack id %s is declared more than once under uses' % pack, None, None)


def test_contract_errors_come_before_duplicate_packs():
    message, _, _ = refusal('name: x', 'uses: [web, web]', 'bogus: 1')
    assert message.startswith('invalid frontmatter: unknown frontmatter key `bogus`')


# models -----------------------------------------------------------------------

@pytest.mark.parametrize('label', ['9writer', '-x', 'wri ter', 'a' * 65, '"é"'])
def test_role_labels_follow_the_alias_grammar(label):
    message, line, column = refusal('name: x', 'models:', '  %s: {}' % label)
    assert message.startswith('invalid frontmatter: invalid model role label "')
    assert message.endswith('": expected [A-Za-z][A-Za-z0-9_-]{0,63}')
    assert (line, column) == (4, 3)


def test_a_64_character_label_is_fine():
    assert runvil.parse(fm('name: x', 'models:', '  %s: {}' % ('a' * 64))).frontmatter.models[0].label == 'a' * 64


def test_unknown_role_field():
    assert refusal('name: x', 'models:', '  writer:', '    min_ctx: 5') == (
        'invalid frontmatter: unknown field `min_ctx` in model role `writer`; expected one of: min_context, '
        'model, prefers, requires (did you mean `min_context`?)', 5, 5)


@pytest.mark.parametrize('value', ['0', '-1', '"8k"'])
def test_min_context_must_be_positive(value):
    message, line, column = refusal('name: x', 'models:', '  writer: {min_context: %s}' % value)
    assert message == 'invalid frontmatter: model role `writer` min_context must be a positive whole number ' \
                      'of tokens, got %s' % value.strip('"')
    assert (line, column) == (4, len('  writer: {min_context: ') + 1)


def test_unknown_model_keyword():
    assert refusal('name: x', 'models:', '  writer:', '    requires: [tools, telepathy]') == (
        'invalid frontmatter: unknown model keyword `telepathy` in model role `writer` requires; known keywords: '
        'json, reasoning, tools, vision', 5, len('    requires: [tools, ') + 1)


def test_models_must_be_a_mapping():
    assert refusal('name: x', 'models: [writer]')[0] == \
        'invalid frontmatter: models must be a mapping from role labels to role settings, got a list'


def test_role_settings_must_be_a_mapping():
    assert refusal('name: x', 'models:', '  writer: gpt')[0] == \
        'invalid frontmatter: model role `writer` must be a mapping of role settings, got gpt'


# args and input ---------------------------------------------------------------

@pytest.mark.parametrize('entry, message, at', [
    ('{name: topic, kind: string}', 'unknown field `kind` in args entry; expected one of: default, description, '
     'name, type', 'kind'),
    ('{name: 9lives}', 'invalid arg name "9lives": expected [A-Za-z_][A-Za-z0-9_]{0,63}', '9lives'),
    ('{name: my-arg}', 'invalid arg name "my-arg": expected [A-Za-z_][A-Za-z0-9_]{0,63}', 'my-arg'),
    ('{name: n, type: str}', 'arg `n` has unknown type `str`; known types: boolean, integer, number, string',
     'str'),
    ('{name: n, type: integer, default: many}', 'arg `n` default many is not an integer', 'many'),
    ('{name: n, type: integer, default: 1.5}', 'arg `n` default 1.5 is not an integer', '1.5'),
    ('{name: n, type: boolean, default: "yes"}', 'arg `n` default yes is not a boolean', '"yes"'),
    ('{name: n, default: 5}', 'arg `n` default 5 is not a string', '5'),
    ('{name: n, type: number, default: [1]}', 'arg `n` default a list is not a number', '[1]'),
    ('{type: string}', 'args entry has no name field', '{'),
    ('topic', 'args entry must be a mapping with a name field, got topic', 'topic'),
])
def test_arg_refusals_point_at_the_offending_value(entry, message, at):
    line = '  - ' + entry
    assert refusal('name: x', 'args:', line) == ('invalid frontmatter: ' + message, 4, line.index(at) + 1)


def test_an_arg_declared_twice():
    assert refusal('name: x', 'args:', '  - name: a', '  - name: a')[0] == \
        'invalid frontmatter: arg `a` is declared more than once under args'


def test_args_must_be_a_list():
    assert refusal('name: x', 'args: {a: 1}')[0] == \
        'invalid frontmatter: args must be a list of argument entries, got a mapping'


@pytest.mark.parametrize('value, message', [
    ('text', 'input must be a mapping with description and required fields, got text'),
    ('{format: md}', 'unknown field `format` in input; expected one of: description, required'),
    ('{required: maybe}', 'input required must be true or false, got maybe'),
    ('{description: 5}', 'input description must be a string, got 5'),
])
def test_input_refusals(value, message):
    assert refusal('name: x', 'input: ' + value)[0] == 'invalid frontmatter: ' + message


def test_frontmatter_errors_come_before_body_errors():
    error = parse_error('---\nname: x\nuses: [web, web]\n---\n\nno title here\n')
    assert error.message == 'invalid frontmatter: Pack id web is declared more than once under uses'
