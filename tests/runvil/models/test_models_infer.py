"""models.use, models.default, models.get and models.infer against the
scripted gateway: what each request holds and what Lua gets back."""
import pytest

from gateway_runs import error, prompt, result, section

DEFAULT = "models.default('writer')"
TWO_ROLES = 'models:\n  writer:\n    model: big-writer\n  reviewer:\n    model: small-reviewer\n'


def test_infer_sends_one_user_message_on_the_default_and_returns_the_reply(served):
    gw, client = served(['A two-line summary.'])
    text = prompt(section('Draft', 'return models.infer(prose)', prose='Draft the summary.'), h1=DEFAULT)
    assert result(client, text) == 'A two-line summary.'
    body = gw.requests[0].json
    assert body['model'] == 'default'
    assert body['messages'] == [{'role': 'user', 'content': 'Draft the summary.'}]
    assert 'tools' not in body


def test_models_use_selects_a_role_with_its_sampling_options(served):
    gw, client = served(['one', 'two'])
    use = ("models.use('reviewer', {temperature = 0.2, max_tokens = 300, top_p = 1, seed = 7,\n"
           "  stop = {'END'}, presence_penalty = -1, frequency_penalty = 0.5, thinking = true})\n"
           "local a = models.infer('x')\nmodels.use('writer')\nreturn a .. models.infer('y')")
    assert result(client, prompt(section('S', use), head=TWO_ROLES)) == 'onetwo'
    first, second = (r.json for r in gw.requests)
    assert {k: first[k] for k in first if k not in ('messages', 'stream', 'stream_options')} == {
        'model': 'small-reviewer', 'temperature': 0.2, 'max_tokens': 300, 'top_p': 1, 'seed': 7,
        'stop': ['END'], 'presence_penalty': -1, 'frequency_penalty': 0.5, 'reasoning_effort': 'medium'}
    assert second['model'] == 'big-writer' and 'temperature' not in second


def test_models_use_lasts_for_its_section_entry_and_the_default_fills_in(served):
    gw, client = served(['a', 'b'])
    body = section('A', "models.use('reviewer')\nvar.a = models.infer('x')") + \
        section('B', "return var.a .. models.infer('y')")
    assert result(client, prompt(body, head=TWO_ROLES, h1=DEFAULT)) == 'ab'
    assert [r.json['model'] for r in gw.requests] == ['small-reviewer', 'big-writer']


@pytest.mark.parametrize('call, message', [
    ("models.use('writer', {temprature = 1})",
     'unknown model option `temprature`; known options: frequency_penalty, max_tokens, presence_penalty, '
     'seed, stop, temperature, thinking, top_p'),
    ("models.use('writer', {temperature = 3})", 'model option `temperature` must be a number from 0 to 2, got 3'),
    ("models.use('writer', {max_tokens = 0.5})",
     'model option `max_tokens` must be a whole number of at least 1, got 0.5'),
    ("models.use('writer', {stop = {1}})",
     'model option `stop` must be a string or an array of 1 to 4 strings, got table'),
    ("models.use('writer', {thinking = 'max'})",
     'model option `thinking` must be true, false, \'low\', \'medium\' or \'high\', got "max"'),
    ("models.use('writer', 5)", "bad argument #2 to 'models.use' (table expected, got number)"),
    ("models.use('editor')", 'unknown model role `editor`; this prompt declares: writer'),
    ("models.use('no good')", 'invalid alias "no good": expected [A-Za-z][A-Za-z0-9_-]{0,63}'),
    ("models.use()", 'models.use takes (role, options?)'),
    ("models.default('writer')", 'models.default sets the prompt-wide default and works only in the H1 body; '
                                 'select a model for this section with models.use(role)'),
    ("models.infer('a', nil)", 'models.infer takes (prompt)'),
    ("models.infer({})", "bad argument #1 to 'models.infer' (string expected, got table)"),
    ("models.get('')", 'models.get needs a role label or a model id, got an empty string'),
])
def test_argument_refusals_are_lua_errors(served, call, message):
    _, client = served()
    body = section('S', 'local ok, e = pcall(function() %s end)\nreturn e.kind .. ": " .. e.message' % call)
    assert result(client, prompt(body, h1=DEFAULT)) == 'lua: ' + message


def test_a_section_with_no_model_fails_as_binding_and_catches_as_internal(served):
    gw, client = served(['never'])
    body = section('Write', 'return models.infer(prose)', prose='Write a one-line brief.')
    assert error(client, prompt(body)) == {'kind': 'Binding', 'retryable': False, 'location': None,
                                           'message': 'model binding required for section Write'}
    caught = section('Write', "local ok, e = pcall(models.infer, 'x')\n"
                              "local fields = {}\nfor k in pairs(e) do fields[#fields + 1] = k end\n"
                              "table.sort(fields)\nreturn e.kind .. '|' .. table.concat(fields, ',')")
    assert result(client, prompt(caught)) == 'internal|kind,message'
    assert error(client, prompt('', h1="models.infer('x')"))['message'] == 'model binding required for section T'
    assert gw.requests == []


def test_handles_from_models_get(served):
    gw, client = served(['r', 'w'])
    head = 'models:\n  writer:\n    model: big-writer\n'
    body = section('S', "local raw, w = models.get('qwen/qwen3-8b'), models.get('writer')\n"
                        "return table.concat({type(raw), raw.context, raw.model, tostring(raw.role),\n"
                        "  w.context, w.model, w.role, type(w.loop), raw:infer('a'), w.infer(w, 'b')}, '|')")
    assert result(client, prompt(body, head=head)) == \
        'userdata|8192|qwen/qwen3-8b|nil|8192|big-writer|writer|function|r|w'
    assert [r.json['model'] for r in gw.requests] == ['qwen/qwen3-8b', 'big-writer']


def test_bytes_that_are_not_utf8_are_sent_as_replacement_characters(served):
    # A prompt, a stop string and a model id with \255\254 reach the gateway
    # as U+FFFD; the reply comes back as UTF-8 bytes.
    gw, client = served(['caf\u00e9', 'ok'])
    body = section('S', "models.use('writer', {stop = {'\\255'}})\nlocal a = models.infer('a\\255\\254')\n"
                        "local b = models.get('m\\254'):infer('\\255')\nreturn #a .. '|' .. a .. '|' .. b")
    assert result(client, prompt(body)) == '5|caf\u00e9|ok'
    first, second = (r.json for r in gw.requests)
    assert first['messages'] == [{'role': 'user', 'content': 'a\ufffd\ufffd'}] and first['stop'] == ['\ufffd']
    assert second['model'] == 'm\ufffd' and second['messages'][0]['content'] == '\ufffd'


def test_a_handle_method_needs_its_handle(served):
    _, client = served()
    body = section('S', "local h = models.get('writer')\nlocal infer = h.infer\n"
                        "local ok1, e1 = pcall(infer, 'x')\nlocal ok2, e2 = pcall(h.infer, h)\n"
                        "return e1.message .. '|' .. e2.message")
    assert result(client, prompt(body)) == \
        'call infer on a model handle with a colon: handle:infer(prompt)|handle:infer takes (prompt)'


def test_infer_suspends_from_a_coroutine_inside_pcall(served):
    _, client = served(['deep'])
    body = section('S', "local co = coroutine.wrap(function()\n"
                        "  return select(2, pcall(function() return models.infer('x') end))\nend)\n"
                        "return co()")
    assert result(client, prompt(body, h1=DEFAULT)) == 'deep'


def test_infer_works_in_the_h1_body(served):
    _, client = served(['from h1'])
    text = prompt(section('S', 'return var.h'), h1="models.default('writer')\nvar.h = models.infer('x')")
    assert result(client, text) == 'from h1'


def test_an_empty_reply_is_empty_model_reply_with_its_finish_reason(served):
    _, client = served([{'text': '', 'finish_reason': 'length'}, {'text': ' ', 'finish_reason': None},
                        {'reasoning': 'hmm', 'text': ''}])
    body = section('S', "local out = {}\nfor i = 1, 3 do\n  local ok, e = pcall(models.infer, 'x')\n"
                        "  out[i] = e.kind .. ':' .. tostring(e.finish_reason) .. ':' .. e.message\nend\n"
                        "return table.concat(out, '|')")
    assert result(client, prompt(body, h1=DEFAULT)) == (
        'empty_model_reply:length:the model replied with no text and no tool calls|'
        'empty_model_reply:nil:the model replied with no text and no tool calls|'
        'empty_model_reply:stop:the model replied with no text and no tool calls: '
        'reasoning content was present but ignored')


def test_a_failure_raised_again_after_another_round_is_a_plain_lua_failure(served):
    _, client = served([{'status': 503}, 'fine'])
    body = section('S', "local ok, e = pcall(models.infer, 'x')\nmodels.infer('y')\nerror(e)")
    assert error(client, prompt(body, h1=DEFAULT)) == {
        'kind': 'Lua', 'message': 'the model backend is overloaded (status 503)', 'retryable': False,
        'location': None}


def test_model_access_turned_off_is_internal_and_not_retryable():
    from runvil.gateway import GatewayClient
    body = section('S', "local ok, e = pcall(models.infer, 'x')\nreturn e.kind .. ': ' .. e.message")
    with GatewayClient(None) as client:
        assert result(client, prompt(body, h1=DEFAULT)) == 'internal: model access is turned off or not configured'
        assert error(client, prompt(section('S', "return models.get('m'):infer('x')"), head='')) == {
            'kind': 'Completion', 'message': 'model access is turned off or not configured',
            'retryable': False, 'location': None}


def test_the_precheck_refuses_an_infer_too_large_for_the_window(served):
    gw, client = served(['sent'])
    from runvil.engine import Environment, ModelBinding
    small = Environment(models={'writer': ModelBinding('tiny', 123)})
    # 396 bytes -> 99 + 4 = 103 tokens; with max_tokens 20 that is exactly 123.
    fits = section('S', "models.use('writer', {max_tokens = 20})\nreturn models.infer(string.rep('x', 396))")
    assert result(client, prompt(fits), environment=small) == 'sent'
    over = section('S', "models.use('writer', {max_tokens = 20})\n"
                        "local ok, e = pcall(models.infer, string.rep('x', 400))\n"
                        "return e.kind .. '|' .. e.reason .. '|' .. e.message")
    assert result(client, prompt(over), environment=small) == \
        "context_exhausted|precheck|context exhausted: the request precheck overflowed the model's context window"
    uncaught = section('S', "return models.get('raw'):infer(string.rep('x', 40000))")
    assert error(client, prompt(uncaught), environment=small)['kind'] == 'ContextExhausted'
    assert len(gw.requests) == 1


def test_a_provider_overflow_on_infer_is_context_exhausted(served):
    overflow = {'status': 400, 'body': {'error': {'message': 'maximum context length is 8192'}}}
    gw, client = served([overflow, overflow])
    body = section('S', "local ok, e = pcall(models.infer, 'x')\nreturn e.kind .. '|' .. e.reason .. '|' .. tostring(e)")
    assert result(client, prompt(body, h1=DEFAULT)) == ("context_exhausted|provider|context exhausted: the provider "
                                                        "rejected the request as exceeding the model's context window")
    failure = error(client, prompt(section('S', "return models.infer('x')"), h1=DEFAULT))
    assert (failure['kind'], failure['message'], failure['retryable']) == (
        'ContextExhausted', "context exhausted: the provider rejected the request as exceeding the model's context "
        'window', False)
    assert len(gw.requests) == 2
