"""models.loop and handle:loop: rounds, replies, the clean exit, the round
cap and what each request sends."""
from gateway_runs import environment, error, prompt, result, section
from runvil.engine import ModelBinding
from loop_helpers import WEB_HEAD, call, chat, sent


def test_one_round_appends_the_terminal_record_and_returns_nil(served):
    gw, client = served(['pong'])
    source = "messages:user('hello')\nlocal n = select('#', models.loop())\n" \
             "return n .. '|' .. #messages .. '|' .. messages[2].role .. ':' .. messages[2].content"
    assert result(client, chat(source)) == '1|2|assistant:pong'
    assert sent(gw, 0) == [{'role': 'user', 'content': 'hello'}]
    assert 'tools' not in gw.requests[0].json


def test_each_call_continues_the_conversation(served):
    gw, client = served(['ok', 'second'])
    source = "messages:user('first')\nmodels.loop()\nmessages:user('second question')\nmodels.loop()\nreturn #messages"
    assert result(client, chat(source)) == '4'
    assert sent(gw, 1) == [{'role': 'user', 'content': 'first'}, {'role': 'assistant', 'content': 'ok'},
                           {'role': 'user', 'content': 'second question'}]


def test_tool_rounds_resend_the_whole_conversation(served):
    gw, client = served([call('c1', 'web_search', query='sea'), call('c2', 'web_search', query='paris'),
                         call('c3', 'web_fetch', url='https://example.test/sea'), 'both done'])
    source = "tools.offer('web/search')\ntools.offer('web/fetch')\nmessages:user('go')\nmodels.loop()\n" \
             "return #messages .. '|' .. messages[#messages].content .. '|' .. messages[7].content"
    assert result(client, chat(source, WEB_HEAD)) == \
        '8|both done|The sea covers about seventy percent of the surface of the Earth.'
    assert [len(r.json['messages']) for r in gw.requests] == [1, 3, 5, 7]
    assert [t['function']['name'] for t in gw.requests[0].json['tools']] == ['web_search', 'web_fetch']
    replayed = sent(gw, 1)[1]['tool_calls'][0]
    assert replayed == {'id': 'c1', 'type': 'function', 'function': {'name': 'web_search', 'arguments': '{"query":"sea"}'}}


def test_the_records_a_tool_round_adds(served):
    _, client = served([call('call_1', 'web_search', city='Paris', query='paris'), 'final answer'])
    source = "tools.offer('web/search')\nmessages:user('go')\nmodels.loop()\nlocal c = messages[2].tool_calls[1]\n" \
             "return c.id .. '|' .. c.name .. '|' .. c.arguments.city .. '|' .. messages[2].content .. '|' .. " \
             "messages[3].role .. '|' .. messages[3].tool_call_id .. '|' .. tostring(messages[4].tool_calls)"
    assert result(client, chat(source, WEB_HEAD)) == 'call_1|web_search|Paris||tool|call_1|nil'


def test_a_batch_appends_in_the_models_order_and_handlers_see_the_list_before_the_round(served):
    batch = {'tool_calls': [{'id': 'a', 'name': 'web_search', 'arguments': {'query': 'sea'}},
                            {'id': 'b', 'name': 'count', 'arguments': {}},
                            {'id': 'c', 'name': 'web_fetch', 'arguments': {'url': 'nowhere'}}]}
    gw, client = served([batch, 'fin'])
    source = ("tools.offer('web/search')\ntools.offer('web/fetch')\n"
              "tools.offer_local('count', 'Counts records', {}, function() return #messages end)\n"
              "messages:user('go')\nmodels.loop()\nlocal r = {}\n"
              "for i, m in ipairs(messages) do r[i] = m.role .. '=' .. m.content end\nreturn table.concat(r, ';')")
    out = result(client, chat(source, WEB_HEAD)).split(';')
    assert out[:4] == ['user=go', 'assistant=', 'tool=The sea (https://example.test/sea)', 'tool=1']
    assert out[4].startswith('tool=tool web/fetch failed: <untrusted_input_') and 'no page at nowhere</untrusted' in out[4]
    assert out[5] == 'assistant=fin'
    assert [m['tool_call_id'] for m in sent(gw, 1)[2:]] == ['a', 'b', 'c']


def test_bound_calls_of_one_batch_run_in_parallel(served):
    waits = {'tool_calls': [{'id': 'w%d' % i, 'name': 'web_wait', 'arguments': {'seconds': 0.6}} for i in range(3)]}
    _, client = served([waits, 'done'])
    events = []
    source = "tools.offer('web/wait')\nmessages:user('go')\nmodels.loop()\nreturn messages[3].content"
    import time
    started = time.monotonic()
    assert result(client, chat(source, WEB_HEAD), events=events) == 'waited 0.6 s'
    assert time.monotonic() - started < 1.5
    assert [e['id'] for e in events if e['event'] == 'tool_call_succeeded'] == ['w0', 'w1', 'w2']


def test_a_local_call_and_a_task_call_split_a_batch_of_bound_calls(served):
    # bound, local, task_status, bound: the first call is issued alone, the
    # local and task calls are answered between, then the last is issued.
    batch = {'tool_calls': [{'id': 'a', 'name': 'web_search', 'arguments': {'query': 'sea'}},
                            {'id': 'b', 'name': 'note', 'arguments': {}},
                            {'id': 'c', 'name': 'task_status', 'arguments': {}},
                            {'id': 'd', 'name': 'web_search', 'arguments': {'query': 'paris'}}]}
    _, client = served([batch, 'fin'])
    events = []
    source = ("tools.offer('web/search')\ntools.offer_tasks('Chat')\n"
              "tools.offer_local('note', 'Takes a note', {}, function() return 'noted' end)\n"
              "messages:user('go')\nmodels.loop()\nreturn messages[5].content")
    assert result(client, chat(source, WEB_HEAD), events=events) == 'You have started no tasks.'
    order = [(e['event'], e.get('kind') or e.get('id')) for e in events
             if e['event'] == 'tool_call_succeeded' or e.get('kind') == 'tool.calls']
    assert order == [('effect_issued', 'tool.calls'), ('tool_call_succeeded', 'a'), ('tool_call_succeeded', 'b'),
                     ('tool_call_succeeded', 'c'), ('effect_issued', 'tool.calls'), ('tool_call_succeeded', 'd')]


def test_the_clean_exit_needs_an_answered_call_in_the_same_loop_call(served):
    empty = {'text': '', 'finish_reason': 'stop'}
    _, client = served([call('c1', 'web_search', query='x'), 'done', empty])
    source = ("tools.offer('web/search')\nmessages:user('hello')\nlocal r = models.loop()\n"
              "messages:user('second')\nlocal ok, err = pcall(models.loop)\n"
              "return tostring(r) .. '|' .. tostring(ok) .. '|' .. err.kind .. '|' .. #messages")
    assert result(client, chat(source, WEB_HEAD)) == 'nil|false|empty_model_reply|5'


def test_the_clean_exit_appends_an_empty_terminal_record_even_after_a_failed_tool(served):
    _, client = served([call('c1', 'web_fetch', url='nowhere'), {'text': ' \n', 'finish_reason': 'stop'}])
    source = ("tools.offer('web/fetch')\nmessages:user('hello')\nlocal r = models.loop()\n"
              "return tostring(r) .. '|' .. #messages .. '|' .. messages[4].role .. ':' .. messages[4].content")
    assert result(client, chat(source, WEB_HEAD)) == 'nil|4|assistant:'


def test_empty_replies_that_raise(served):
    cases = [({'text': '', 'finish_reason': 'stop'}, 'stop|the model replied with no text and no tool calls'),
             ({'text': ' \n\t ', 'finish_reason': None}, 'nil|the model replied with no text and no tool calls'),
             ({'reasoning': 'hmm', 'finish_reason': 'length'},
              'length|the model replied with no text and no tool calls: reasoning content was present but ignored')]
    for reply, expected in cases:
        _, client = served([reply])
        source = "messages:user('hello')\nlocal ok, err = pcall(models.loop)\n" \
                 "return tostring(err.finish_reason) .. '|' .. tostring(err) .. '|' .. err.kind .. '|' .. #messages"
        assert result(client, chat(source)) == expected + '|empty_model_reply|1'


def test_after_a_tool_call_an_empty_reply_without_stop_still_raises(served):
    _, client = served([call('c1', 'web_search', query='x'), {'text': '', 'finish_reason': None}])
    source = "tools.offer('web/search')\nmessages:user('hello')\nlocal ok, err = pcall(models.loop)\n" \
             "return err.kind .. '|' .. tostring(err.finish_reason) .. '|' .. #messages"
    assert result(client, chat(source, WEB_HEAD)) == 'empty_model_reply|nil|3'   # completed rounds stay


def test_a_reply_cut_short_for_length_is_the_terminal_record(served):
    _, client = served([{'text': 'partial answer', 'finish_reason': 'length'}])
    events = []
    assert result(client, chat("messages:user('hello')\nmodels.loop()\nreturn #messages .. '|' .. "
                                "messages[#messages].content"), events=events) == '2|partial answer'
    names = [e['event'] for e in events]
    assert names.index('model_turn_truncated') == names.index('model_turn_completed') + 1


def test_a_tool_round_cut_short_fails_as_a_malformed_reply(served):
    cut = dict(call('c1', 'web_search', query='x'), finish_reason='content_filter')
    _, client = served([cut])
    source = "tools.offer('web/search')\nmessages:user('hello')\nlocal ok, err = pcall(models.loop)\n" \
             "return err.kind .. '|' .. tostring(err) .. '|' .. #messages"
    assert result(client, chat(source, WEB_HEAD)) == (
        'internal|the model backend sent a reply that could not be understood: tool-call batch truncated by '
        'finish_reason "content_filter": partial arguments must not execute|1')
    _, client = served([cut])
    assert error(client, chat("tools.offer('web/search')\nmessages:user('x')\nmodels.loop()", WEB_HEAD))['kind'] == \
        'Completion'


def test_malformed_tool_calls_are_kind_internal(served):
    for calls in ([{'id': ' ', 'name': 'web_search', 'arguments': '{}'}],
                  [{'id': 'a', 'name': '', 'arguments': '{}'}],
                  [{'id': 'a', 'name': 'web_search', 'arguments': '{}'}, {'id': 'a', 'name': 'web_search', 'arguments': '{}'}],
                  [{'id': 'a', 'name': 'web_search', 'arguments': '[1]'}]):
        _, client = served([{'tool_calls': calls}])
        source = "tools.offer('web/search')\nmessages:user('hello')\nlocal ok, err = pcall(models.loop)\n" \
                 "return err.kind .. '|' .. #messages"
        assert result(client, chat(source, WEB_HEAD)) == 'internal|1'


def test_the_round_cap(served):
    replies = [call('c%d' % i, 'web_search', query='x') for i in range(3)] + ['late']
    gw, client = served(replies)
    head = 'max_tool_iterations: 2\n' + WEB_HEAD
    source = ("tools.offer('web/search')\nmessages:user('go')\nlocal ok, err = pcall(models.loop)\n"
              "local first = err.kind .. ':' .. tostring(err) .. ':' .. #messages .. ':' .. tostring(err.reason)\n"
              "messages:user('again')\nlocal ok2, err2 = pcall(models.loop)\n"
              "return first .. '|' .. tostring(ok2) .. '|' .. #messages")
    assert result(client, chat(source, head)) == 'tool_loop_exhausted:tool-call loop did not converge:5:nil|true|9'
    assert len(gw.requests) == 4


def test_max_tool_iterations_one_allows_one_round_and_uncaught_is_run_kind_tool(served):
    gw, client = served([call('c1', 'web_search', query='x')])
    head = 'max_tool_iterations: 1\n' + WEB_HEAD
    assert error(client, chat("tools.offer('web/search')\nmessages:user('go')\nmodels.loop()", head)) == {
        'kind': 'Tool', 'message': 'tool-call loop did not converge', 'retryable': False, 'location': None}
    assert len(gw.requests) == 1


def test_a_text_reply_within_the_cap_is_fine(served):
    _, client = served([call('c1', 'web_search', query='x'), 'answer'])
    head = 'max_tool_iterations: 2\n' + WEB_HEAD
    assert result(client, chat("tools.offer('web/search')\nmessages:user('go')\nmodels.loop()\n"
                               "return messages[#messages].content", head)) == 'answer'


def test_handle_loop_runs_on_the_handles_model(served):
    gw, client = served({'models': {'default': ['w1'], 'reviewer-model': ['r1']}})
    head = 'models:\n  writer: {}\n  reviewer: {}\n'
    env = environment(reviewer=ModelBinding('reviewer-model', 8192))
    text = prompt(section('Review', "local other = models.get('reviewer')\nmessages:user('first')\n"
                                    "models.loop()\nmessages:user('second')\nother:loop()\n"
                                    "return #messages .. messages[4].content"), head=head, h1="models.default('writer')")
    assert result(client, text, environment=env) == '4r1'
    assert [r.json['model'] for r in gw.requests] == ['default', 'reviewer-model']
    assert sent(gw, 1)[1] == {'role': 'assistant', 'content': 'w1'}


def test_the_loop_works_in_the_h1_body(served):
    _, client = served(['hi'])
    text = prompt(section('S', "return var.reply"), h1="models.default('writer')\nmessages:user('x')\n"
                                                       "models.loop()\nvar.reply = messages[2].content")
    assert result(client, text) == 'hi'


def test_without_a_model_the_loop_raises_the_missing_model_error(served):
    gw, client = served(['never'])
    text = prompt(section('Only', "messages:user('x')\nmodels.loop()"))
    assert error(client, text)['kind'] == 'Binding'
    assert not gw.requests


def test_errors_raised_by_the_loop_keep_their_kind_uncaught(served):
    _, client = served([{'text': '', 'finish_reason': 'stop'}])
    failure = error(client, chat("messages:user('x')\nmodels.loop()"))
    assert (failure['kind'], failure['message']) == ('Completion', 'the model replied with no text and no tool calls')
    _, client = served([call('c1', 'task')])
    failure = error(client, chat("messages:user('x')\nmodels.loop()"))
    assert failure['kind'] == 'Tool'
    _, client = served([{'status': 500}])
    failure = error(client, chat("messages:user('x')\nmodels.loop()\nerror('not reached')"))
    assert (failure['kind'], failure['message']) == ('Completion', 'the model backend reported a fault of its own (status 500)')


def test_an_empty_list_fails_before_anything_is_sent_and_renders_nothing(served):
    gw, client = served(['ok'])
    source = ("local ok, err = pcall(models.loop)\ntools.offer('web/search')\n"
              "return err.kind .. ':' .. tostring(err)")
    assert result(client, chat(source, WEB_HEAD)) == 'lua:messages must not be empty'
    assert not gw.requests


def test_offers_after_the_first_round_raise(served):
    _, client = served(['ok'])
    source = ("messages:user('x')\nmodels.loop()\nlocal ok, err = pcall(tools.offer, 'web/search')\n"
              "local ok2, err2 = pcall(tools.offer_local, 'n', 'd', {}, print)\nreturn tostring(err) .. '|' .. err2.kind")
    assert result(client, chat(source, WEB_HEAD)) == (
        "tools.offer: the section's tool list was fixed by its first loop round; offer tools before the first "
        "models.loop call|lua")


def test_a_precheck_refusal_still_fixes_the_tool_list(served):
    gw, client = served(['never'])
    source = ("tools.offer('web/search')\nmessages:user(string.rep('x', 100000))\npcall(models.loop)\n"
              "return tostring(select(2, pcall(tools.offer, 'web/fetch')))")
    assert 'fixed by its first loop round' in result(client, chat(source, WEB_HEAD), context_window=4096)
    assert not gw.requests


def test_the_sampling_options_apply_to_every_round(served):
    gw, client = served([call('c1', 'web_search', query='x'), 'ok'])
    source = "models.use('writer', { temperature = 0.5, max_tokens = 100 })\ntools.offer('web/search')\n" \
             "messages:user('x')\nmodels.loop()\nreturn 'ok'"
    result(client, chat(source, WEB_HEAD))
    assert [(r.json['temperature'], r.json['max_tokens']) for r in gw.requests] == [(0.5, 100), (0.5, 100)]
