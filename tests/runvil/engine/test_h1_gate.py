"""The H1 pass: the hard gate and the failures that keep their kind."""
from engine_helpers import block, failure, section
from runvil.engine import GATE_NOTICE
from runvil.harness import RunLimits

WALK = '\n' + section('S', "return 'walked'")


def test_an_ordinary_lua_error_fails_the_gate_with_the_notice_then_the_error_text():
    assert GATE_NOTICE == 'the environment cannot satisfy this prompt:\n- the H1 gate failed'
    assert failure(block("error('no service')") + WALK) == {
        'kind': 'RequirementsUnmet',
        'message': 'the environment cannot satisfy this prompt:\n- the H1 gate failed: t:10: no service',
        'retryable': False, 'location': None}


def test_running_past_the_memory_ceiling_in_the_h1_pass_fails_the_gate():
    hoard = "local t, i = {}, 1\nwhile true do t[i] = string.rep('x', 16384) i = i + 1 end"
    error = failure(block(hoard) + WALK, limits=RunLimits(memory_ceiling=4 << 20))
    assert error['kind'] == 'RequirementsUnmet'
    assert error['message'] == GATE_NOTICE + ': not enough memory'


def test_lua_kind_error_values_fail_the_gate():
    assert failure(block("json.encode(var)") + WALK)['message'] == \
        GATE_NOTICE + ': json.encode: value must be JSON data, got userdata'


def test_a_log_quota_failure_in_the_h1_pass_stays_quota():
    assert failure(block("for i = 1, 5 do log('x') end") + WALK, limits=RunLimits(log_event_quota=2))['kind'] == 'Quota'


def test_failures_of_other_kinds_keep_their_kind():
    assert failure(block("error({kind = 'tool', message = 'broke'})") + WALK)['kind'] == 'Tool'
    assert failure(block("error({kind = 'store', message = 'gone'})") + WALK)['kind'] == 'Vfs'


def test_the_final_var_read_back_is_machinery_and_keeps_kind_lua():
    assert failure(block("var.t = {}\nvar.t.f = json") + WALK) == {
        'kind': 'Lua', 'message': 'var.t.f.array must be JSON data, got function',
        'retryable': False, 'location': None}


def test_the_same_errors_in_a_section_are_lua():
    assert failure(section('S', "error('no service')"))['kind'] == 'Lua'
