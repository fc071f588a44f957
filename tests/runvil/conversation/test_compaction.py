"""replace, models.compact, the compactors and compaction in the loop."""
import pytest

from gateway_runs import error, result
from loop_helpers import WEB_HEAD, chat, sent

FOUR = ("messages:user('u1')\nmessages:append({ role = 'assistant', content = 'a1' })\n"
        "messages:user('u2')\nmessages:append({ role = 'assistant', content = 'a2' })\n")
CONTENTS = "\nlocal out = {}\nfor i = 1, #messages do out[i] = messages[i].content end\nreturn table.concat(out, ' ')"


def edited(client, line: str, start: str = FOUR) -> str:
    source = start + "models.compact(function(reason)\n  " + line + "\nend, 'why')" + CONTENTS
    return result(client, chat(source))


def refusal(client, line: str, start: str = FOUR) -> str:
    source = start + ("local ok, err = pcall(models.compact, function(reason)\n  " + line + "\nend, 'why')\n"
                      "local out = {}\nfor i = 1, #messages do out[i] = messages[i].content end\n"
                      "return tostring(err) .. '|' .. table.concat(out, ' ')")
    return result(client, chat(source))


@pytest.mark.parametrize('line, expected', [
    ("messages:replace(3, 3, { role = 'user', content = 'u2b' })", 'u1 a1 u2b a2'),
    ("messages:replace(2, 3)", 'u1 a2'),
    ("messages:replace(#messages, #messages)", 'u1 a1 u2'),
    ("messages:replace(3, 2, { role = 'user', content = 'mid' })", 'u1 a1 mid u2 a2'),
    ("messages:replace(1, 0, { role = 'system', content = 'Be brief.' })", 'Be brief. u1 a1 u2 a2'),
    ("messages:replace(#messages + 1, #messages, { role = 'user', content = 'end' })", 'u1 a1 u2 a2 end'),
    ("messages:replace(1, #messages, { role = 'system', content = 's' }, { role = 'user', content = 'summary' })",
     's summary'),
    ("messages:replace(2.0, 4.0)", 'u1'),
    ("messages:replace(2, 4, { role = 'user', content = 'one and two' })", 'u1 one and two'),
    ("local first = messages[1]\n messages:replace(1, 1)\n messages:replace(1, 0, first)", 'u1 a1 u2 a2'),
    ("compactors.clear(reason)\n messages:user('fresh')", 'fresh'),
])
def test_replace_edits(served, line, expected):
    _, client = served()
    assert edited(client, line) == expected


def test_editing_the_leading_system_block(served):
    _, client = served()
    start = "messages:append({ role = 'system', content = 's1' })\nmessages:append({ role = 'system', content = 's2' })\n" \
            "messages:user('u')\n"
    line = ("messages:replace(1, 2, { role = 'system', content = 'one' }, { role = 'system', content = 'two' },\n"
            "  { role = 'system', content = 'three' })")
    assert edited(client, line, start) == 'one two three u'
    late = ('messages[%d] is a system message after a non-system message; system messages lead the list, and '
            'only a compactor can change the leading block|s1 s2 u')
    assert refusal(client, "messages:replace(4, 3, { role = 'system', content = 'late' })", start) == late % 4
    assert refusal(client, "messages:replace(1, 1, { role = 'user', content = 'u0' })", start) == late % 2


@pytest.mark.parametrize('line, message', [
    ("messages:replace(2, 5)", 'replace(2, 5) is out of bounds on a list of 4 records: it needs 1 <= first <= last + 1 <= 5'),
    ("messages:replace(0, 0)", 'replace(0, 0) is out of bounds on a list of 4 records: it needs 1 <= first <= last + 1 <= 5'),
    ("messages:replace(-1, 0)", 'replace(-1, 0) is out of bounds on a list of 4 records: it needs 1 <= first <= last + 1 <= 5'),
    ("messages:replace(3, 1)", 'replace(3, 1) is out of bounds on a list of 4 records: it needs 1 <= first <= last + 1 <= 5'),
    ("messages:replace(6, 5)", 'replace(6, 5) is out of bounds on a list of 4 records: it needs 1 <= first <= last + 1 <= 5'),
    ("messages:replace(1.5, 2)", 'replace first must be an integer, got 1.5'),
    ("messages:replace('2', 2)", 'replace first must be an integer, got string'),
    ("messages:replace(2)", 'replace last must be an integer, got nil'),
    # bounds are checked before any record
    ("messages:replace(2, 9, { role = 'nobody' })", 'replace(2, 9) is out of bounds on a list of 4 records: it needs 1 <= first <= last + 1 <= 5'),
    ("messages:replace(1, 1, { role = 'user', content = 'ok' }, { role = 'user' })",
     'messages[2] content must be a string or a non-empty array of content parts'),
    ("messages:replace(1, 1, { role = 'user', content = function() end })",
     'messages[1] must be a JSON-representable message table: unsupported value type `function`'),
])
def test_replace_refusals_leave_the_list_unchanged(served, line, message):
    _, client = served()
    assert refusal(client, line) == message + '|u1 a1 u2 a2'


def test_replace_outside_a_compactor(served):
    _, client = served()
    source = FOUR + "local ok, err = pcall(messages.replace, messages, 1, 1)\nreturn err.kind .. ':' .. tostring(err)"
    assert result(client, chat(source)) == \
        'lua:replace works only inside a compactor; rewrite history with models.compact(compactor, reason)'


def test_a_compactor_gets_exactly_the_reason_and_its_return_is_ignored(served):
    _, client = served()
    source = FOUR + "local n, why\nmodels.compact(function(...) n, why = select('#', ...), ... return 'x' end, 'my reason')\n" \
                    "return n .. why .. tostring(models.compact(function() end, 'r'))"
    assert result(client, chat(source)) == '1my reasonnil'


def test_models_compact_argument_checks_in_order(served):
    _, client = served()
    checks = [("models.compact(1, 2, 3)", 'models.compact takes (compactor, reason)'),
              ("models.compact(nil, 'why')", 'compactor must be a function, got nil'),
              ("models.compact(7, 'why')", 'compactor must be a function, got integer'),
              ("models.compact(compactors.clear)", 'reason must be a string, got nil'),
              ("models.compact(compactors.clear, 1.5)", 'reason must be a string, got number'),
              ("models.compact(function() models.compact(compactors.clear, 'x') end, 'y')",
               'models.compact cannot start while a loop or a compactor is running in this section'),
              ("models.compact(function() models.loop() end, 'y')",
               'a loop or a compactor is already running in this section; ask a side question with models.infer(prompt)')]
    for line, message in checks:
        source = FOUR + "local ok, err = pcall(function() %s end)\nreturn tostring(err) .. '|' .. #messages" % line
        assert result(client, chat(source)) == message + '|4', line


def test_a_broken_structural_rule_restores_the_records(served):
    _, client = served()
    line = "messages:replace(2, 2, { role = 'assistant', content = '', tool_calls = { { id = 'call_1', name = 'x' } } })"
    assert refusal(client, line) == 'messages[2] tool call "call_1" has no tool result|u1 a1 u2 a2'


def test_a_compactor_error_passes_unchanged_and_restores(served):
    _, client = served()
    source = FOUR + ("local own = { reason = 'mine' }\n"
                     "local ok, err = pcall(models.compact, function() compactors.clear('x') error(own) end, 'y')\n"
                     "return tostring(err == own) .. tostring(getmetatable(err)) .. #messages")
    assert result(client, chat(source)) == 'truenil4'


def test_compactors_fail_and_clear(served):
    _, client = served()
    source = ("local ok, err = pcall(compactors.fail, 'manual')\n"
              "local ok2, err2 = pcall(compactors.fail, 'precheck')\n"
              "local ok3, err3 = pcall(compactors.clear, 'x')\n"
              "return err.kind .. ':' .. err.reason .. ':' .. tostring(err) .. '|' .. tostring(err2) .. '|' .. tostring(err3)")
    assert result(client, chat(source)) == (
        "context_exhausted:manual:context exhausted: manual|context exhausted: the request precheck overflowed the "
        "model's context window|compactors.clear works only inside a compactor; empty messages with "
        "models.compact(compactors.clear, reason)")


def test_uncaught_context_exhaustion_ends_the_run_as_context_exhausted(served):
    _, client = served(['y'])
    assert error(client, chat("compactors.fail('manual')")) == {
        'kind': 'ContextExhausted', 'message': 'context exhausted: manual', 'retryable': False, 'location': None}
    assert error(client, chat("local ok, err = pcall(compactors.fail, 'x')\nmodels.infer('y')\nerror(err)"))['kind'] == \
        'ContextExhausted'


LONG = "messages:user(string.rep('x', 100000))\n"


def test_a_compactor_can_summarise_with_models_infer(served):
    gw, client = served(['the summary', 'reply'])
    source = LONG + ("models.loop(function(reason)\n"
                     "  local summary = models.infer('Summarize: ' .. #messages[1].content)\n"
                     "  messages:replace(1, 1, { role = 'user', content = 'Summary: ' .. summary, meta = { summary = true } })\n"
                     "end)\nreturn messages[1].content .. '|' .. tostring(messages[1].meta.summary) .. '|' .. messages[2].content")
    assert result(client, chat(source), context_window=4096) == 'Summary: the summary|true|reply'
    assert sent(gw, 0) == [{'role': 'user', 'content': 'Summarize: 100000'}]
    assert sent(gw, 1) == [{'role': 'user', 'content': 'Summary: the summary'}]


def test_a_compaction_that_does_not_shrink_raises_with_the_overflow_reason(served):
    gw, client = served(['never'])
    source = LONG + ("local ok, err = pcall(models.loop, function(reason)\n"
                     "  messages:replace(1, 1, { role = 'user', content = string.rep('y', 100000) })\nend)\n"
                     "return err.kind .. ':' .. err.reason .. '|' .. messages[1].content:sub(1, 1)")
    assert result(client, chat(source), context_window=4096) == 'context_exhausted:precheck|x'
    assert not gw.requests


def test_a_retry_that_overflows_again_restores_and_raises_the_retrys_reason(served):
    overflow = {'status': 400, 'body': "This model's maximum context length is 4096 tokens."}
    gw, client = served([overflow, overflow])
    source = ("messages:user('u1')\nmessages:user('u2')\n"
              "local seen\nlocal ok, err = pcall(models.loop, function(reason)\n  seen = reason\n"
              "  messages:replace(1, 1)\nend)\n"
              "return seen .. '|' .. err.kind .. ':' .. err.reason .. '|' .. #messages")
    assert result(client, chat(source)) == 'provider|context_exhausted:provider|2'
    assert [len(r.json['messages']) for r in gw.requests] == [1, 1]
    assert sent(gw, 1) == [{'role': 'user', 'content': 'u2'}]


def test_the_retry_after_a_compaction_is_not_counted_against_the_cap(served):
    overflow = {'status': 413, 'body': 'prompt is too long'}
    gw, client = served([{'tool_calls': [{'id': 'c1', 'name': 'web_search', 'arguments': {'query': 'x'}}]},
                         overflow, 'fine'])
    head = 'max_tool_iterations: 2\n' + WEB_HEAD
    source = ("tools.offer('web/search')\nmessages:user('pad pad pad')\n"
              "models.loop(function(reason) messages:replace(1, 1, { role = 'user', content = 'p' }) end)\n"
              "return messages[#messages].content")
    assert result(client, chat(source, head)) == 'fine'
    assert len(gw.requests) == 3


def test_an_unrelated_400_never_calls_the_compactor(served):
    _, client = served([{'status': 400, 'body': 'unknown field foo'}])
    source = ("messages:user('x')\nlocal called = false\n"
              "local ok, err = pcall(models.loop, function() called = true end)\n"
              "return tostring(called) .. '|' .. err.kind .. '|' .. tostring(err)")
    assert result(client, chat(source)) == 'false|internal|the model backend rejected the request (status 400)'


def test_an_overflow_inside_the_stream_takes_the_provider_path(served):
    _, client = served([{'stream_error': 'context_length_exceeded'}])
    source = "messages:user('x')\nlocal ok, err = pcall(models.loop)\nreturn err.kind .. ':' .. err.reason"
    assert result(client, chat(source)) == 'context_exhausted:provider'


def test_the_default_is_read_from_the_installed_table_when_each_call_begins(served):
    _, client = served(['ordinary'])
    source = ("compactors.fail = 'not a function'\ncompactors = { fail = function() error('other table') end }\n"
              "messages:user('x')\nmodels.loop()\nmessages:user(string.rep('x', 100000))\n"
              "local ok, err = pcall(models.loop)\nreturn messages[2].content .. '|' .. type(err) .. ':' .. err")
    assert result(client, chat(source), context_window=4096) == 'ordinary|string:attempt to call a string value'


def test_a_compaction_between_calls_changes_what_the_next_request_sends(served):
    gw, client = served(['a1', 'a2'])
    events = []
    source = ("messages:system('rules'):user('u1')\nmodels.loop()\nmessages:user('u2')\n"
              "models.compact(function() messages:replace(1, 1, { role = 'system', content = 'other' }) end, 'r')\n"
              "models.loop()\nreturn #messages")
    assert result(client, chat(source), events=events) == '5'
    assert sent(gw, 1)[0] == {'role': 'system', 'content': 'other'}
    chats = [e['messages'] for e in events if e['event'] == 'chat']
    assert chats[0] == [{'role': 'system', 'content': 'rules'}, {'role': 'user', 'content': 'u1'}]
    assert chats[1] == sent(gw, 1)          # the first message differs: everything from there, once


def test_chat_records_log_only_what_each_request_adds(served):
    gw, client = served([{'tool_calls': [{'id': 'c1', 'name': 'web_search', 'arguments': {'query': 'x'}}]}, 'done'])
    events = []
    source = "tools.offer('web/search')\nmessages:user('go')\nmodels.loop()\nreturn 'ok'"
    result(client, chat(source, WEB_HEAD), events=events)
    chats = [e['messages'] for e in events if e['event'] == 'chat']
    assert chats[0] == [{'role': 'user', 'content': 'go'}]
    assert chats[1] == sent(gw, 1)[1:]
