"""The messages list as a value: fresh per section entry, one identity,
refusing assignment; reading it by length, position and walk; record
views and the guards that refuse them."""
from message_helpers import caught, outcome, prompt, result, section

REASSIGNED = ("messages is the section's conversation and cannot be reassigned; add records with "
              "append(record), or rewrite history with models.compact(compactor, reason)")
ASSIGNED_INTO = ("messages cannot be assigned to by index; add records with append(record), or rewrite "
                 "history with models.compact(compactor, reason)")
READ_ONLY = 'records read from messages are read-only; rewrite history with models.compact(compactor, reason)'


def test_every_section_entry_and_the_h1_pass_get_a_fresh_empty_list():
    text = prompt(section('First', "messages:user('x') messages:user('y') var.first = #messages"),
                  section('Second', "return var.h1 .. '|' .. var.first .. '|' .. #messages .. '|' .. type(messages)"),
                  h1="messages:user('h') var.h1 = #messages")
    assert outcome(text)['result'] == '1|2|0|userdata'


def test_the_list_keeps_its_identity_across_blocks_of_a_section():
    text = prompt('## S\n\n```lua\nkept = messages messages:user("a")\n```\n\n'
                  '```lua\nreturn tostring(kept == messages) .. #kept\n```\n')
    assert outcome(text)['result'] == 'true1'


def test_reassigning_the_global_is_refused_and_it_keeps_the_same_list():
    assert caught("messages = {}") == 'lua: ' + REASSIGNED
    assert caught("_G.messages = nil") == 'lua: ' + REASSIGNED
    assert result("local same = messages\npcall(function() messages = {} end)\n"
                  "return tostring(same == messages) .. type(messages)") == 'trueuserdata'


def test_the_globals_guard_cannot_be_removed():
    assert caught("setmetatable(_G, nil)").endswith(': cannot change a protected metatable')
    assert result("return tostring(getmetatable(_G))") == 'false'


def test_other_globals_are_written_and_read_as_usual():
    assert result("x = 1 x = x + 1 _G.y = 3 z = nil return x + y + tostring(z == nil and 1 or 0)") == '6'


def test_assigning_into_the_list_is_refused_and_the_records_stay():
    assert caught("messages[1] = { role = 'user', content = 'x' }") == 'lua: ' + ASSIGNED_INTO
    assert caught("messages.new = 1") == 'lua: ' + ASSIGNED_INTO
    assert result("messages:user('u')\n"
                  "local ok = pcall(function() messages[#messages] = nil end)\n"
                  "return tostring(ok) .. '|' .. #messages .. '|' .. messages[1].content") == 'false|1|u'


def test_keys_that_are_no_method_and_no_position_read_nil():
    assert result("messages:user('u1'):assistant('a1')\n"
                  "return tostring(messages[0]) .. '|' .. tostring(messages[-1]) .. '|' .. tostring(messages[3])"
                  " .. '|' .. tostring(messages[1.5]) .. '|' .. messages[2.0].content .. '|' .. "
                  "tostring(messages.new) .. tostring(messages[true]) .. tostring(messages.Role) .. "
                  "tostring(messages.replace_all) .. tostring(messages[0/0])") == 'nil|nil|nil|nil|a1|nilnilnilnilnil'
    assert result("return tostring(messages[1] == nil) .. #messages") == 'true0'


def test_shared_names_edit_the_one_list():
    assert result("messages:system('be terse'):user('hi')\nlocal same = messages\nsame:user('more')\n"
                  "return #messages") == '3'


def test_pairs_stops_at_the_starting_count_and_ipairs_reads_live():
    assert result("messages:user('u1'):assistant('a1'):user('u2')\nlocal n = 0\n"
                  "for _ in pairs(messages) do n = n + 1 messages:user('x') end\n"
                  "return n .. '|' .. #messages") == '3|6'
    assert result("messages:user('u1')\nlocal n = 0\n"
                  "for i, v in ipairs(messages) do n = n + 1 if i < 4 then messages:user('x' .. i) end end\n"
                  "return n .. '|' .. messages[4].content") == '4|x3'
    assert result("local n = 0 for _ in pairs(messages) do n = n + 1 end "
                  "for _ in ipairs(messages) do n = n + 1 end return n") == '0'


def test_records_read_back_field_by_field():
    assert result("messages:user('say hi')\n"
                  "  :assistant('', { { id = 'call_1', name = 'web_search', arguments = { query = 'one' } } })\n"
                  "  :tool('three results for one', 'call_1')\n"
                  "  :assistant('done', nil, { checked = true })\n"
                  "return tostring(messages[1].tool_calls) .. tostring(messages[1].tool_call_id) .. "
                  "tostring(messages[1].meta) .. '|' .. messages[2].content .. '|' .. "
                  "messages[2].tool_calls[1].arguments.query .. '|' .. tostring(messages[4].meta.checked)") == \
        'nilnilnil||one|true'


def test_a_view_is_read_only_and_every_read_is_fresh():
    assert caught("messages:user('u') messages[1].role = 'x'") == 'lua: ' + READ_ONLY
    assert caught("messages:user('u') messages[1].extra = 1") == 'lua: ' + READ_ONLY
    assert caught("messages:user('u') messages[1].meta = nil") == 'lua: ' + READ_ONLY
    assert result("messages:user({ { type = 'text', text = 'a' } })\nlocal v = messages[1]\n"
                  "v.content[1].text = 'changed'\n"
                  "return v.content[1].text .. tostring(v.content == v.content) .. type(v) .. "
                  "tostring(v.Role) .. tostring(v[1]) .. tostring(getmetatable(v))") == 'afalseuserdatanilnilfalse'


def test_a_view_keeps_its_record_and_walks_its_fields_in_the_fixed_order():
    assert result("messages:user('say hi')\n"
                  "  :assistant('working', { { id = 'call_1', name = 'web_search' } })\n"
                  "  :tool('three results', 'call_1', { source = 'search' })\n"
                  "local out = {}\n"
                  "for key, value in pairs(messages[3]) do out[#out + 1] = key .. '=' .. type(value) end\n"
                  "return table.concat(out, ',')") == \
        'role=string,content=string,tool_call_id=string,meta=table'


def test_a_view_works_as_a_record_and_converts_inside_tables():
    assert result("messages:system('s'):user('u', { n = 1 })\n"
                  "messages:append(messages[2])\n"
                  "messages:user('w', { copies = { messages[1], messages[2] } })\n"
                  "local copies = messages[4].meta.copies\n"
                  "return #messages .. '|' .. messages[3].content .. messages[3].meta.n .. '|' .. "
                  "copies[1].role .. ':' .. copies[1].content .. ',' .. copies[2].role .. ':' .. "
                  "copies[2].meta.n .. '|' .. tostring(copies[1].meta)") == '4|u1|system:s,user:1|nil'


def test_var_json_and_bare_prose_globals_refuse_a_view():
    assert caught("messages:user('u') var.last = messages[1]") == \
        'lua: var.last must be JSON data, got userdata'
    assert caught("messages:user('u') return json.encode(messages[1])") == \
        'lua: json.encode: value must be JSON data, got userdata'
    assert caught("messages:user('u') return json.encode({ records = { messages[1] } })") == \
        'lua: json.encode: value.records[1] must be JSON data, got userdata'
    assert result("messages:user('u') record = messages[1]\n"
                  "local ok, e = pcall(function() return prose end) return tostring(e)",
                  prose='See {{ record }}.') == \
        'global `record` is a userdata; bare globals in prose must be JSON data'


def test_a_table_of_views_can_be_returned_from_a_block():
    text = prompt(section('A', "messages:system('s'):user('u') return { messages[1], messages[2] }"),
                  section('B', "return 'done'"))
    assert outcome(text)['result'] == 'done'
