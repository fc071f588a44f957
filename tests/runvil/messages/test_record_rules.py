"""The per-record rules: every refusal of conversations.txt, *Record error
messages*, word for word, in the spec's check order, with its positions."""
import pytest

from message_helpers import caught, result

FN = 'function() end'
ONE = "messages:user('first')\n"          # the spec's "list holding one record"


@pytest.mark.parametrize('source, message', [
    # JSON form, on a list holding one record
    ("messages:append({ role = 'user', content = 'x', extra = { f = %s } })" % FN,
     'messages[2] must be a JSON-representable message table: unsupported value type `function`'),
    ("messages:append({ role = 'user', content = 'x', meta = { f = %s } })" % FN,
     'messages[2] must be a JSON-representable message table: unsupported value type `function`'),
    ("messages:assistant('', { { id = 'c', name = 'n', arguments = { f = %s } } })" % FN,
     'messages[2] tool_calls must be JSON-representable: unsupported value type `function`'),
    ("messages:tool('r', %s)" % FN,
     'messages[2] tool_call_id must be JSON-representable: unsupported value type `function`'),
    ("messages:user(%s)" % FN,
     'messages[2] content must be JSON-representable: unsupported value type `function`'),
    ("messages:user({ { type = 'text', text = %s } })" % FN,
     'messages[2] content must be JSON-representable: unsupported value type `function`'),
    ("messages:user('x', %s)" % FN,
     'messages[2] meta must be JSON-representable: unsupported value type `function`'),
    # table shape and role
    ("messages:append('hi')", 'messages[2] must be a message table'),
    ("messages:append({ content = 'x' })",
     'messages[2] role must be a string, one of: system, user, assistant, tool'),
    ("messages:append({ role = 1, content = 'x' })",
     'messages[2] role must be a string, one of: system, user, assistant, tool'),
    ("messages:append({ role = 'bot', content = 'x' })",
     'messages[2] role "bot" is unknown; known roles: system, user, assistant, tool'),
    # content
    ("messages:user(5)", 'messages[2] content must be a string or a non-empty array of content parts'),
    ("messages:user({})", 'messages[2] content must be a string or a non-empty array of content parts'),
    ("messages:user({ type = 'text', text = 'hi' })",
     'messages[2] content must be a string or a non-empty array of content parts'),
    ("messages:user({ { type = 'text', text = 'a' }, 'b' })",
     'messages[2] content part 2 must be a table with a string type field'),
    ("messages:user({ { text = 'a' } })", 'messages[2] content part 1 must be a table with a string type field'),
    ("messages:user({ { type = 'audio' } })",
     'messages[2] content part 1 has unknown type "audio"; known types: text, image_url'),
    ("messages:user({ { type = 'text', text = 3 } })",
     'messages[2] content part 1 is a text part and must set a string text field'),
    ("messages:user({ { type = 'image_url', image_url = { href = 'x' } } })",
     'messages[2] content part 1 is an image_url part and must set an image_url table with a string url field'),
    ("messages:user({ { type = 'image_url' } })",
     'messages[2] content part 1 is an image_url part and must set an image_url table with a string url field'),
    # tool call ids
    ("messages:append({ role = 'user', content = 'x', tool_call_id = 7 })",
     'messages[2] tool_call_id must be a string'),
    ("messages:tool('r', 7)", 'messages[2] tool_call_id must be a string'),
    ("messages:tool('r')", 'messages[2] is a tool message and must set a string tool_call_id'),
    ("messages:append({ role = 'assistant', content = 'x', tool_call_id = 'c' })",
     'messages[2] sets a tool_call_id but is not a tool message'),
    # tool calls
    ("messages:assistant('done', { draft = true })", 'messages[2] tool_calls must be an array'),
    ("messages:assistant('x', 'call_1')", 'messages[2] tool_calls must be an array'),
    ("messages:assistant('x', { id = 'c', name = 'n' })", 'messages[2] tool_calls must be an array'),
    ("messages:assistant('x', { 'c' })", 'messages[2] tool_calls[1] must be a table'),
    ("messages:assistant('x', { { name = 'n' } })", 'messages[2] tool_calls[1] must set a string id'),
    ("messages:assistant('x', { {} })", 'messages[2] tool_calls[1] must set a string id'),
    ("messages:assistant('x', { { id = 'c', name = 'n' }, { id = 'd' } })",
     'messages[2] tool_calls[2] must set a string name'),
    ("messages:assistant('x', { { id = 'c', name = 'n', arguments = '{}' } })",
     'messages[2] tool_calls[1] arguments must be a table'),
    ("messages:assistant('x', { { id = 'c', name = 'n', arguments = { 1, 2 } } })",
     'messages[2] tool_calls[1] arguments must be a table'),
    # meta
    ("messages:user('hi', string.rep('x', 9000))",
     'messages[2] meta is 9002 bytes as JSON; the limit is 8192 bytes'),
    # system placement
    ("messages:system('late')",
     'messages[2] is a system message after a non-system message; system messages lead the list, '
     'and only a compactor can change the leading block'),
    ("messages:append({ role = 'system', content = 'late' })",
     'messages[2] is a system message after a non-system message; system messages lead the list, '
     'and only a compactor can change the leading block'),
])
def test_each_refusal_reads_as_the_spec_writes_it(source, message):
    assert caught(ONE + source) == 'lua: ' + message


@pytest.mark.parametrize('source, message', [
    ("messages:append(nil)", 'messages[1] must be a message table'),
    ("messages:user()", 'messages[1] content must be a string or a non-empty array of content parts'),
    ("messages:user({ 'x' })", 'messages[1] content part 1 must be a table with a string type field'),
    ("messages:append({ role = 'user', content = 'x', tool_call_id = true })",
     'messages[1] tool_call_id must be a string'),
    ("messages:append({ role = 'user', content = '', tool_calls = { 'x' } })",
     'messages[1] tool_calls[1] must be a table'),
    ("messages:append({ role = 'user', content = '', tool_calls = { { name = 'n' } } })",
     'messages[1] tool_calls[1] must set a string id'),
    ("messages:append({ role = 'user', content = '', tool_calls = { { id = 'c' } } })",
     'messages[1] tool_calls[1] must set a string name'),
    ("messages:user('hi', string.rep('x', 9000))",
     'messages[1] meta is 9002 bytes as JSON; the limit is 8192 bytes'),
])
def test_positions_count_the_record_as_the_list_would_stand(source, message):
    assert caught(source) == 'lua: ' + message
    assert caught("messages:user('a'):user('b'):user('c')\n" + source) == \
        'lua: ' + message.replace('messages[1]', 'messages[4]')


@pytest.mark.parametrize('record, message', [
    # JSON form wins over everything, even a missing role
    ("{ content = 5, x = %s }" % FN, 'must be a JSON-representable message table: unsupported value type `function`'),
    # role before content
    ("{ role = 'bot' }", 'role "bot" is unknown; known roles: system, user, assistant, tool'),
    # content before tool_call_id
    ("{ role = 'tool', tool_call_id = 3 }", 'content must be a string or a non-empty array of content parts'),
    # the type of tool_call_id before role against tool_call_id, on any role
    ("{ role = 'user', content = 'x', tool_call_id = 3 }", 'tool_call_id must be a string'),
    ("{ role = 'tool', content = 'x', tool_call_id = 3 }", 'tool_call_id must be a string'),
    # role against tool_call_id before tool_calls
    ("{ role = 'tool', content = 'x', tool_calls = 'bad' }", 'is a tool message and must set a string tool_call_id'),
    # tool_calls before meta; id before name
    ("{ role = 'assistant', content = 'x', tool_calls = { {} }, meta = string.rep('x', 9000) }",
     'tool_calls[1] must set a string id'),
    ("{ role = 'system', content = 'x', meta = string.rep('x', 9000) }",
     'meta is 9002 bytes as JSON; the limit is 8192 bytes'),
])
def test_the_first_broken_rule_in_the_fixed_order_is_reported(record, message):
    assert caught("messages:append(%s)" % record) == 'lua: messages[1] ' + message


def test_the_json_form_reasons_name_what_has_no_json_form():
    assert caught("messages:user('x', 0/0)") == \
        'lua: messages[1] meta must be JSON-representable: non-finite number `nan`'
    assert caught("messages:user('x', { 1, a = 2 })") == ('lua: messages[1] meta must be JSON-representable: '
                                                          'a table whose keys are neither 1..n nor all strings')
    assert caught("local t = {} t.t = t messages:user('x', t)") == \
        'lua: messages[1] meta must be JSON-representable: a table that contains itself'
    assert caught("messages:user('\\xff')") == \
        'lua: messages[1] content must be JSON-representable: a string that is not valid UTF-8'
    assert caught("messages:user('x', messages)") == \
        'lua: messages[1] meta must be JSON-representable: unsupported value type `userdata`'


def test_a_refused_record_leaves_the_list_unchanged():
    assert result("messages:user('u')\n"
                  "local ok = pcall(messages.system, messages, 'late')\n"
                  "local ok2 = pcall(messages.user, messages, 'x', string.rep('x', 9000))\n"
                  "return tostring(ok or ok2) .. '|' .. #messages .. '|' .. messages[1].content") == 'false|1|u'


def test_fields_other_than_the_five_are_dropped_inside_records_too():
    source = ("messages:append({ role = 'user', name = 'bob', api_key = 'k', content = {\n"
              "  { type = 'text', text = 't', extra = 1 },\n"
              "  { type = 'image_url', image_url = { url = 'data:,', detail = 'high' }, more = 2 } } })\n"
              "messages:assistant('', { { id = 'c', name = 'n', note = 'x' } })\n"
              "local function keys(t) local k = {} for key in pairs(t) do k[#k + 1] = key end "
              "table.sort(k) return table.concat(k, ',') end\n"
              "local c = messages[1].content\n"
              "return keys(c[1]) .. '|' .. keys(c[2]) .. '|' .. keys(c[2].image_url) .. '|' .. "
              "keys(messages[2].tool_calls[1]) .. '|' .. tostring(messages[1].name)")
    assert result(source) == 'text,type|image_url,type|url|arguments,id,name|nil'


def test_nil_arguments_leave_fields_out_and_json_null_meta_means_none():
    source = ("messages:assistant('done', nil, { draft = true }):user('u', json.null)\n"
              ":assistant('x', {})\n"
              "local function fields(v) local k = {} for key in pairs(v) do k[#k + 1] = key end "
              "return table.concat(k, ',') end\n"
              "return fields(messages[1]) .. '|' .. fields(messages[2]) .. '|' .. fields(messages[3])")
    assert result(source) == 'role,content,meta|role,content|role,content'


def test_arguments_default_to_the_empty_object_and_keep_marked_arrays():
    source = ("messages:assistant('', { { id = 'a', name = 'n' }, { id = 'b', name = 'n', arguments = "
              "{ tags = json.array(), o = {} } } })\n"
              "local calls = messages[1].tool_calls\n"
              "return json.encode(calls[1].arguments) .. json.encode(calls[2].arguments)")
    assert result(source) == '{}{"o":{},"tags":[]}'


def test_the_list_methods_are_colon_methods_with_fixed_arguments():
    assert caught("messages.user('hi')") == \
        'lua: call user on messages with a colon: messages:user(content, meta?)'
    assert caught("local append = messages.append append({ role = 'user', content = 'x' })") == \
        'lua: call append on messages with a colon: messages:append(record)'
    assert caught("messages:user('a', nil, 'b')") == 'lua: messages:user takes (content, meta?)'
    assert caught("messages:tool('a', 'c', nil, 1)") == \
        'lua: messages:tool takes (content, tool_call_id, meta?)'
    assert caught("messages:append({ role = 'user', content = 'a' }, {})") == \
        'lua: messages:append takes (record)'
