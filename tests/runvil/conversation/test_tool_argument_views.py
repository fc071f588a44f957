"""A record view in tools.call arguments arrives as its record's JSON
form, meta included, alone or inside a table; var, bare prose globals and
json.encode still refuse a view."""
from gateway_runs import error, result
from loop_helpers import WEB_HEAD, chat

ECHO = ("messages:system('s'):user('u', { tag = 'kept' })\n"
        "tools.offer_local('echo', 'echoes', {}, function(args) return json.encode(args) end)\n")


def test_a_view_inside_the_arguments_is_its_record():
    source = ECHO + "return tools.call('echo', { record = messages[2], all = { messages[1], messages[2] } })"
    assert result(None, chat(source)) == (
        '{"all":[{"content":"s","role":"system"},{"content":"u","meta":{"tag":"kept"},"role":"user"}],'
        '"record":{"content":"u","meta":{"tag":"kept"},"role":"user"}}')


def test_a_view_as_the_arguments_is_its_record():
    assert result(None, chat(ECHO + "return tools.call('echo', messages[2])")) == \
        '{"content":"u","meta":{"tag":"kept"},"role":"user"}'


def test_a_pack_tool_receives_the_record():
    source = ("messages:user('runvil', { n = 1 })\n"
              "local found = tools.call('web/search', { query = messages[1].content, record = messages[1] })\n"
              "return found .. '|' .. json.encode(messages[1].meta)")
    assert result(None, chat(source, head=WEB_HEAD)).endswith('|{"n":1}')


def test_other_userdata_in_the_arguments_is_refused():
    source = ECHO + "local ok, err = pcall(tools.call, 'echo', { list = messages })\nreturn tostring(err)"
    assert result(None, chat(source)) == 'tools.call: args.list must be JSON data, got userdata'
    source = ECHO + "local ok, err = pcall(tools.call, 'echo', messages)\nreturn tostring(err)"
    assert result(None, chat(source)) == "bad argument #2 to 'tools.call' (table expected, got userdata)"


def test_var_and_json_encode_still_refuse_a_view():
    assert result(None, chat(ECHO + "local ok, err = pcall(json.encode, messages[1])\nreturn tostring(err)")) == \
        'json.encode: value must be JSON data, got userdata'
    failure = error(None, chat(ECHO + "var.last = messages[1]"))
    assert 'var.last must be JSON data, got userdata' in failure['message']
