"""log and the two log quotas."""
from engine_helpers import block, failure, prompt, result, run, section
from runvil.harness import RunLimits


def checkpoints(body: str, **options) -> list:
    events = []
    run(prompt(body), events=events, **options)
    return [event['message'] for event in events if event['event'] == 'log']


def test_chatty_catches_the_1025th_call():
    body = section('Talk', "local ok, err = pcall(function()\n  for i = 1, 2000 do log('step ' .. i) end\nend)\n"
                           "if not ok then\n  return err.kind .. ': ' .. err.message\nend\nreturn 'every step logged'")
    assert result(body) == 'lua: lua log event budget exceeded'
    assert len(checkpoints(body)) == 1024


def test_uncaught_quota_errors_end_the_run_as_quota_without_a_location():
    assert failure(section('S', "for i = 1, 2000 do log('x') end")) == {
        'kind': 'Quota', 'message': 'lua log event quota exceeded', 'retryable': False, 'location': None}
    assert failure(section('S', "log('one') log('two')"), limits=RunLimits(log_event_quota=1))['message'] == \
        'lua log event quota exceeded'


def test_the_byte_quota_refuses_a_message_whole_and_keeps_earlier_ones():
    body = section('S', "log(string.rep('é', 200))\nlog(string.rep('é', 200))\nlog(string.rep('é', 200))")
    limits = RunLimits(log_event_quota=4)
    assert failure(body, limits=limits) == {
        'kind': 'Quota', 'message': 'lua log byte quota exceeded', 'retryable': False, 'location': None}
    assert checkpoints(body, limits=limits) == ['é' * 200] * 2
    caught = section('S', "log(string.rep('x', 1000)) local ok, e = pcall(log, 'xxxxxxxxxxxxxxxxxxxxxxxxx')\n"
                          "return e.kind .. ': ' .. e.message")
    assert result(caught, limits=limits) == 'lua: lua log cumulative byte budget exceeded'


def test_a_one_argument_call_spends_an_event_before_other_checks():
    body = section('S', "local a = {pcall(log, 42)} local b = {pcall(log, 'ok')} local c = {pcall(log, 'late')}\n"
                        "return a[2].message .. ' | ' .. tostring(b[1]) .. ' | ' .. c[2].message")
    assert result(body, limits=RunLimits(log_event_quota=2)) == \
        'log message must be a string, got number | true | lua log event budget exceeded'
    wrong_count = section('S', "pcall(log) pcall(log, 'a', 'b') log('counted')")
    assert checkpoints(wrong_count, limits=RunLimits(log_event_quota=1)) == ['counted']


def test_message_rules():
    def message(arg):
        return result(section('S', "local ok, e = pcall(log, %s) return e.message" % arg))
    assert message("''") == 'log message must not be empty'
    assert message("string.rep('x', 4097)") == 'log message is 4097 bytes; the limit is 4096 bytes'
    assert message("'two\\nlines'") == 'log message must be UTF-8 text without control characters'
    assert message("'\\255'") == 'log message must be UTF-8 text without control characters'


def test_a_quota_refusal_wins_over_whatever_ends_the_block():
    body = section('S', "pcall(log, 'one') pcall(log, 'two') error('something else')")
    assert failure(body, limits=RunLimits(log_event_quota=1))['kind'] == 'Quota'
    reraised = section('S', "local ok, e = pcall(function() for i = 1, 5 do log('x') end end) error(e)")
    assert failure(reraised, limits=RunLimits(log_event_quota=1))['message'] == 'lua log event quota exceeded'


def test_raising_the_refusal_text_yourself_is_an_ordinary_error():
    assert failure(section('S', "error('lua log event budget exceeded', 0)")) == {
        'kind': 'Lua', 'message': 'lua log event budget exceeded', 'retryable': False, 'location': None}


def test_each_section_vm_gets_its_own_quotas():
    body = ''.join(section(name, "for i = 1, 3 do log('x') end") for name in 'ABC') + section('D', "return 'done'")
    assert result(body, limits=RunLimits(log_event_quota=3)) == 'done'


def test_the_configured_quota_governs_the_first_block_and_the_h1_pass():
    body = block("log('one') log('two')") + '\n' + section('S', "return 1")
    assert failure(body, limits=RunLimits(log_event_quota=1)) == {
        'kind': 'Quota', 'message': 'lua log event quota exceeded', 'retryable': False, 'location': None}
