"""The json global."""
import pytest

from engine_helpers import failure, result, section
from runvil.harness import RunLimits


def caught(expression: str) -> str:
    """The error value a call raises, as ``kind: message``."""
    return result(section('S', "local ok, e = pcall(function() return %s end)\n"
                               "assert(not ok) return e.kind .. ': ' .. tostring(e)" % expression))


def test_encode_is_compact_with_sorted_keys():
    assert result(section('S', "return json.encode({b = 1, a = {true, false, json.null}, c = 'é'})")) == \
        '{"a":[true,false,null],"b":1,"c":"é"}'
    assert result(section('S', "return json.encode({}) .. json.encode(json.array()) .. json.encode(1.5)")) == \
        '{}[]1.5'


def test_encode_refuses_userdata_at_its_path():
    assert caught("json.encode(json)") == 'lua: json.encode: value.array must be JSON data, got function'
    assert caught("json.encode(var)") == 'lua: json.encode: value must be JSON data, got userdata'
    assert caught("json.encode({records = {var}})") == \
        'lua: json.encode: value.records[1] must be JSON data, got userdata'
    assert caught("json.encode({['a b'] = var})") == 'lua: json.encode: value["a b"] must be JSON data, got userdata'


@pytest.mark.parametrize('expression, message', [
    ("json.encode({1, 2, [4] = 4})", 'value must be JSON data, got a table whose keys are neither 1..n nor all strings'),
    ("json.encode({1, x = 2})", 'value must be JSON data, got a table whose keys are neither 1..n nor all strings'),
    ("json.encode(json.array({x = 1}))", 'value is marked as a JSON array, so its keys must be 1..n'),
    ("json.encode(0/0)", 'value must be JSON data, got a non-finite number (nan)'),
    ("json.encode({math.huge})", 'value[1] must be JSON data, got a non-finite number (inf)'),
    ("json.encode('\\255')", 'value must be JSON data, got a string that is not valid UTF-8'),
])
def test_encode_refuses_what_json_cannot_hold(expression, message):
    assert caught(expression) == 'lua: json.encode: ' + message


def test_encode_refuses_cycles_and_deep_nesting():
    assert caught("(function() local t = {} t[1] = t return json.encode(t) end)()") == \
        'lua: json.encode: value[1] must be JSON data, got a table that contains itself'
    deep = "(function() local t = {} for i = 1, 300 do local u = {t} t = u end return json.encode(t) end)()"
    assert caught(deep).endswith('is nested more than 256 levels deep')


def test_encode_spends_the_size_budget_of_the_memory_ceiling():
    body = section('S', "local ok, e = pcall(json.encode, string.rep('\\0', 300000)) return e.message")
    assert result(body, limits=RunLimits(memory_ceiling=1 << 20)) == \
        'json.encode: value is 1800002 bytes as JSON; the size budget is 1048576 bytes'


def test_decode_marks_arrays_and_nulls():
    body = section('S', "local v = json.decode('{\"a\": [], \"b\": [1, 2.5, null], \"c\": {}}')\n"
                        "return json.encode(v) .. ' ' .. tostring(v.b[3] == json.null) .. ' ' .. math.type(v.b[1])")
    assert result(body) == '{"a":[],"b":[1,2.5,null],"c":{}} true integer'


def test_decode_failures():
    assert caught("json.decode('[1, 2')") == "lua: json.decode: Expecting ',' delimiter at line 1 column 6"
    assert caught("json.decode('NaN')") == 'lua: json.decode: NaN is not JSON'
    assert caught("json.decode({})") == "lua: bad argument #1 to 'json.decode' (string expected, got table)"
    assert caught("json.decode(string.rep('[', 300) .. string.rep(']', 300))") == \
        'lua: json.decode: text is nested more than 256 levels deep'


def test_encode_lines_writes_one_line_per_item():
    assert result(section('S', "return json.encode_lines({{a = 1}, 'two', json.array()})")) == \
        '{"a":1}\n"two"\n[]\n'
    assert caught("json.encode_lines({1, var})") == \
        'lua: json.encode_lines: value[2] must be JSON data, got userdata'
    assert caught("json.encode_lines({a = 1})") == \
        'lua: json.encode_lines: value must be an array of items, got an object'


def test_array_marks_tables():
    assert result(section('S', "local t = {} assert(json.array(t) == t) return json.encode(t)")) == '[]'
    assert caught("json.array(setmetatable({}, {}))") == 'lua: json.array: the table already has a metatable'


def test_null_is_a_userdata_that_reads_null():
    assert result(section('S', "return type(json.null) .. ' ' .. tostring(json.null)")) == 'userdata null'


def test_an_uncaught_json_failure_ends_the_run_as_lua():
    assert failure(section('S', "json.encode(var)")) == {
        'kind': 'Lua', 'message': 'json.encode: value must be JSON data, got userdata',
        'retryable': False, 'location': None}
