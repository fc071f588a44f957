"""prose: pending prose and placeholders."""
from engine_helpers import block, failure, result, section


def test_each_block_sees_the_prose_above_its_fence():
    body = ('## S\n\nFirst part.\n\n' + block("var.a = prose") + '\nSecond part.\n\n' + block("var.b = prose")
            + '\n' + block("return var.a .. '|' .. var.b .. '|' .. prose"))
    assert result(body) == 'First part.|Second part.|'


def test_placeholders_substitute_globals_and_expressions():
    body = ('## S\n\nHello {{ name }}, {{ var.n + 1 }} {{ t }} {{ flag }} {{ json.null }} {{ "{{" }}.\n\n'
            + block("name = 'Ada' var.n = 1 t = {b = 2, a = {1}} flag = true\nreturn prose"))
    assert result(body) == 'Hello Ada, 2 {"a":[1],"b":2} true null {{.'


def test_a_userdata_bare_global_fails_with_the_spec_message_and_pcall_catches_it():
    body = '## S\n\nSee {{ messages }}.\n\n' + block(
        "local ok, e = pcall(function() return prose end)\nreturn e.kind .. ': ' .. tostring(e)")
    assert result(body) == 'lua: global `messages` is a userdata; bare globals in prose must be JSON data'


def test_an_uncaught_substitution_failure_ends_the_run_as_lua():
    body = '## S\n\nSee {{ missing }}.\n\n' + block("return prose")
    assert failure(body) == {'kind': 'Lua', 'message': 'global `missing` is nil; bare globals in prose must be JSON data',
                             'retryable': False, 'location': None}
    body = '## S\n\nSee {{ x.y }}.\n\n' + block("return prose")
    assert failure(body)['message'] == \
        "placeholder `{{ x.y }}` failed: t:11: attempt to index a nil value (global 'x')"
    body = '## S\n\nSee {{ ) }}.\n\n' + block("return prose")
    assert failure(body)['message'].startswith('placeholder `{{ ) }}` is not a Lua expression: t:11:')


def test_substitution_happens_when_prose_is_read():
    body = '## S\n\nNow {{ var.step }}.\n\n' + block("var.step = 1 local a = prose var.step = 2 return a .. prose")
    assert result(body) == 'Now 1.Now 2.'


def test_h1_prose_and_a_failed_h1_substitution_fail_the_gate():
    body = 'Setup {{ nope }}.\n\n' + block("local p = prose") + '\n' + section('S', "return 1")
    assert failure(body)['message'] == ('the environment cannot satisfy this prompt:\n- the H1 gate failed: '
                                        'global `nope` is nil; bare globals in prose must be JSON data')


def test_prose_text_without_placeholders_is_a_plain_string():
    assert result('## S\n\nPlain `code` and {single} braces.\n\n' + block("return prose")) == \
        'Plain `code` and {single} braces.'
