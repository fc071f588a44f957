"""var: JSON data kept across sections."""
from engine_helpers import failure, result, section


def test_var_carries_json_data_from_section_to_section():
    body = (section('A', "var.items = json.array()", "for i = 1, 3 do var.items[#var.items + 1] = i * i end")
            + section('B', "var.count = #var.items", "var.items[1] = 'one'")
            + section('C', "return json.encode(var.items) .. ' ' .. var.count"))
    assert result(body) == '["one",4,9] 3'


def test_a_userdata_write_is_refused_at_once_with_its_name():
    body = section('A', "local ok, err = pcall(function() var.box = json end)\n"
                        "var.null = json.null\n"
                        "local ok2, err2 = pcall(function() var.v = var end)\n"
                        "return err.kind .. ': ' .. err.message .. ' | ' .. tostring(err2)")
    assert result(body) == ('lua: var.box.array must be JSON data, got function'
                            ' | var.v must be JSON data, got userdata')


def test_nested_edits_are_checked_by_the_final_read_back():
    error = failure(section('A', "var.list = {1, 2}", "var.list[3] = json") + section('B', "return 1"))
    assert error == {'kind': 'Lua', 'message': 'var.list[3].array must be JSON data, got function',
                     'retryable': False, 'location': None}


def test_empty_arrays_and_nulls_survive_between_sections():
    body = section('A', "var.a = json.array() var.o = {} var.n = json.null") + \
        section('B', "return json.encode({var.a, var.o, var.n}) .. type(var.n)")
    assert result(body) == '[[],{},null]userdata'


def test_var_keys_are_strings_and_nil_removes():
    assert result(section('A', "local ok, e = pcall(function() var[1] = 2 end) return e.message")) == \
        'var keys must be strings, got number'
    assert result(section('A', "var.x = 1") + section('B', "var.x = nil") + section('C', "return tostring(var.x)")) == 'nil'


def test_pairs_walks_var():
    body = section('A', "var.a = 1 var.b = 2") + section('B', "local n = 0 for k, v in pairs(var) do n = n + v end return n")
    assert result(body) == '3'


def test_var_writes_spend_the_size_budget_of_the_memory_ceiling():
    from runvil.harness import RunLimits
    # 300,000 NUL bytes fit the ceiling; as JSON each is the 6-byte escape \u0000
    body = section('A', "local ok, e = pcall(function() var.big = string.rep('\\0', 300000) end) return e.message")
    assert result(body, limits=RunLimits(memory_ceiling=1 << 20)) == \
        'var.big is 1800002 bytes as JSON; the size budget is 1048576 bytes'


def test_h1_var_reaches_the_walk():
    from engine_helpers import block
    assert result(block("var.mode = 'h1'") + '\n' + section('S', "return var.mode")) == 'h1'
