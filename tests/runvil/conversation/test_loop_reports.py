"""What the loop reports round by round, its argument checks, and the
precheck with the provider anchor across real rounds."""
from gateway_runs import environment, result
from loop_helpers import WEB_HEAD, call, chat, sent
from runvil.engine import ModelBinding

ROUND_EVENTS = ('chat', 'model_turn_completed', 'model_turn_failed', 'model_turn_truncated', 'thinking',
                'assistant_reply', 'tool_calls', 'tool_call_succeeded', 'tool_call_failed', 'reply')


def reported(events):
    return [e for e in events if e['event'] in ROUND_EVENTS]


def test_a_loop_reports_each_round_in_order(served):
    _, client = served([call('c1', 'web_search', query='x'),
                        {'reasoning': 'thinking it over', 'text': 'done', 'finish_reason': 'stop'}])
    events = []
    result(client, chat("tools.offer('web/search')\nmessages:user('go')\nmodels.loop()\nreturn 1", WEB_HEAD),
           events=events)
    seen = reported(events)
    assert [e['event'] for e in seen] == ['chat', 'model_turn_completed', 'tool_calls', 'tool_call_succeeded',
                                          'chat', 'model_turn_completed', 'thinking', 'assistant_reply', 'reply']
    assert [e['turn'] for e in seen if e['event'] == 'model_turn_completed'] == [1, 2]
    assert all(e['origin'] == 'chat' and e['section'] == 'Chat' for e in seen if 'origin' in e)
    assert seen[2]['calls'] == [{'id': 'c1', 'name': 'web_search', 'arguments': {'query': 'x'}}]
    reply = seen[-1]
    assert (reply['turn'], reply['origin'], reply['finish_reason'], reply['text']) == (2, 'chat', 'stop', 'done')
    assert seen[7]['round'] == seen[4]['round'] == 2
    assert len({e['execution_id'] for e in events}) == 1


def test_a_refused_round_reports_a_failed_turn_and_sends_nothing(served):
    gw, client = served(['never'])
    events = []
    source = ("messages:user('hi')\nmessages:append({ role = 'tool', tool_call_id = 'call_9', content = 'x' })\n"
              "local ok, err = pcall(models.loop)\nreturn tostring(err)")
    assert result(client, chat(source), events=events) == \
        'messages[2] is an orphan tool record: no pending assistant tool call with id "call_9"'
    assert [e['event'] for e in reported(events)] == ['model_turn_failed']
    assert not gw.requests


def test_a_precheck_refusal_leaves_no_trace_of_a_send(served):
    gw, client = served([])
    events = []
    source = "messages:user(string.rep('x', 100000))\nlocal ok, err = pcall(models.loop)\nreturn err.reason"
    assert result(client, chat(source), events=events, context_window=4096) == 'precheck'
    [failed] = reported(events)
    assert (failed['event'], failed['reason']) == ('model_turn_failed', 'precheck')
    assert not gw.requests


def test_loop_argument_errors_in_order(served):
    gw, client = served([])
    checks = [("models.loop(1, 5)", 'models.loop takes (compactor?)'),
              ("models.loop(1)", 'compactor must be a function, got integer'),
              ("models.loop(1.5)", 'compactor must be a function, got number'),
              ("models.loop('f')", 'compactor must be a function, got string'),
              ("models.loop({})", 'compactor must be a function, got table'),
              ("models.loop(messages)", 'compactor must be a function, got userdata'),
              ("models.loop(json.null)", 'compactor must be a function, got userdata'),
              ("models.loop(nil, nil)", 'models.loop takes (compactor?)'),
              ("models.loop(models.get('writer'))",
               'models.loop takes (compactor?); call handle:loop(compactor?) to run on a model handle'),
              ("local h = models.get('writer') h.loop()", 'call loop on a model handle with a colon: handle:loop(compactor?)'),
              ("local h = models.get('writer') local run = h.loop run()",
               'call loop on a model handle with a colon: handle:loop(compactor?)'),
              ("local h = models.get('writer') h:loop(nil, nil)", 'handle:loop takes (compactor?)'),
              ("local h = models.get('writer') h:loop(h)", 'compactor must be a function, got userdata'),
              ("models.compact(function() models.loop(1) end, 'r')", 'compactor must be a function, got integer'),
              ("models.compact(function() models.loop() end, 'r')",
               'a loop or a compactor is already running in this section; ask a side question with models.infer(prompt)')]
    for line, message in checks:
        source = ("messages:user('x')\nerror = function() end\nlocal ok, err = pcall(function() %s end)\n"
                  "return err.kind .. ':' .. tostring(err) .. '|' .. #messages" % line)
        assert result(client, chat(source)) == 'lua:%s|1' % message, line
    assert not gw.requests


def test_the_anchor_refuses_what_the_estimate_would_admit(served):
    gw, client = served([{'text': 'ok', 'usage': {'prompt_tokens': 3400, 'completion_tokens': 100}}, 'never'])
    source = ("messages:user('xxxxx')\nmodels.loop()\nmessages:user(string.rep('y', 400))\n"
              "local ok, err = pcall(models.loop)\nreturn err.reason .. '|' .. #messages")
    assert result(client, chat(source), context_window=4096) == 'precheck|3'
    assert len(gw.requests) == 1


def test_the_anchor_can_admit_what_the_estimate_would_refuse(served):
    gw, client = served([{'text': 'ok', 'usage': {'prompt_tokens': 10, 'completion_tokens': 1}}, 'fits'])
    source = ("messages:user(string.rep('x', 8000))\nmodels.loop()\nmessages:user(string.rep('y', 8000))\n"
              "models.loop()\nreturn messages[#messages].content")
    assert result(client, chat(source), context_window=4096) == 'fits'


def test_a_model_switch_counts_by_the_estimate_and_the_same_model_keeps_the_anchor(served):
    script = {'models': {'m1': [{'text': 'ok', 'usage': {'prompt_tokens': 3400, 'completion_tokens': 100}}, 'm1 again'],
                         'm2': ['other']}}
    head = 'models:\n  writer: {}\n  same: {}\n  other: {}\n'
    env = environment(4096, writer=ModelBinding('m1', 4096), same=ModelBinding('m1', 4096),
                      other=ModelBinding('m2', 4096))
    gw, client = served(script)
    source = ("messages:user('xxxxx')\nmodels.loop()\nmessages:user(string.rep('y', 400))\nmodels.use('same')\n"
              "local ok, err = pcall(models.loop)\nmodels.use('other')\nmodels.loop()\nreturn tostring(ok) .. '|' .. "
              "messages[#messages].content")
    assert result(client, chat(source, head), environment=env) == 'false|other'
    assert [r.json['model'] for r in gw.requests] == ['m1', 'm2']
    assert sent(gw, 1)[1] == {'role': 'assistant', 'content': 'ok'}
