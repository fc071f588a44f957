"""Tools in a section: offers, tools.call, local handlers in the loop, and
stops and cancels while tools run."""
import threading
import time

from gateway_runs import error, result, run
from loop_helpers import WEB_HEAD, call, chat, sent
from runvil.harness import RunHandle


def test_offer_refusals(served):
    _, client = served()
    checks = [("tools.offer('search')", 'tools.offer: a Pack tool is named pack/tool, got "search"'),
              ("tools.offer('mail/send')", 'tools.offer: Pack `mail` is not declared under uses: in the frontmatter'),
              ("tools.offer('web/post')", 'tools.offer: Pack `web` has no tool `post`; it offers: search, fetch, wait'),
              ("tools.offer(3)", "bad argument #1 to 'tools.offer' (string expected, got number)"),
              ("tools.offer()", 'tools.offer takes (tool_id)'),
              ("packs.offer('mail')", 'packs.offer: Pack `mail` is not declared under uses: in the frontmatter'),
              ("tools.offer_local('a b', 'd', {}, function() end)",
               'tools.offer_local: a tool name is 1 to 64 letters, digits, _ or -, got "a b"'),
              ("tools.offer_local('x', 'd', {}, 5)", "bad argument #4 to 'tools.offer_local' (function expected, got number)"),
              ("tools.offer_local('x', 'd', { f = function() end }, print)",
               "bad argument #4 to 'tools.offer_local' (function expected, got nil)"),
              ("tools.offer_local('web_search', 'd', {}, function() end) tools.offer('web/search')",
               'tools.offer: a tool named `web_search` is already offered in this section')]
    for line, message in checks:
        source = "local ok, err = pcall(function() %s end)\nreturn err.kind .. ':' .. tostring(err)" % line
        assert result(client, chat(source, WEB_HEAD)) == 'lua:' + message, line


def test_packs_offer_offers_every_tool_of_the_pack(served):
    gw, client = served(['ok'])
    result(client, chat("packs.offer('web')\ntools.offer('web/search')\nmessages:user('x')\nmodels.loop()\nreturn 1",
                        WEB_HEAD))
    tools = gw.requests[0].json['tools']
    assert [t['function']['name'] for t in tools] == ['web_search', 'web_fetch', 'web_wait']
    assert tools[0]['function']['parameters']['properties']['query']['type'] == 'string'


def test_a_local_tool_schema_and_description_reach_the_model(served):
    gw, client = served(['ok'])
    source = ("tools.offer_local('clock', 'Tells the time', { type = 'object', properties = { zone = { type = 'string' } } },\n"
              "  function() return '14:05' end)\ntools.offer_local('empty', 'No arguments', {}, function() end)\n"
              "messages:user('x')\nmodels.loop()\nreturn 1")
    result(client, chat(source))
    assert gw.requests[0].json['tools'] == [
        {'type': 'function', 'function': {'name': 'clock', 'description': 'Tells the time', 'parameters':
                                          {'type': 'object', 'properties': {'zone': {'type': 'string'}}}}},
        {'type': 'function', 'function': {'name': 'empty', 'description': 'No arguments', 'parameters':
                                          {'type': 'object', 'properties': {}}}}]


def test_tools_call_runs_local_and_pack_tools(served):
    _, client = served()
    source = ("tools.offer_local('twice', 'd', {}, function(a) return a.n * 2 end)\n"
              "tools.offer_local('data', 'd', {}, function(a) return { ok = true, n = a.n } end)\n"
              "return tools.call('twice', { n = 21 }) .. '|' .. tools.call('data', { n = 1 }) .. '|' .. "
              "tools.call('web/search', { query = 'sea' }) .. '|' .. type(tools.call('twice', { n = 1 }))")
    assert result(client, chat(source, WEB_HEAD)) == '42|{"n":1,"ok":true}|The sea (https://example.test/sea)|string'


def test_tools_call_failures(served):
    _, client = served()
    source = ("local ok, err = pcall(tools.call, 'web/fetch', { url = 'nowhere' })\n"
              "local ok2, err2 = pcall(tools.call, 'nothing')\n"
              "return err.kind .. ':' .. err.name .. ':' .. tostring(err) .. '|' .. err2.kind .. ':' .. tostring(err2)")
    assert result(client, chat(source, WEB_HEAD)) == (
        'tool:web/fetch:tool web/fetch failed: no page at nowhere|unbound_tool:tools.call: no local tool and no tool '
        'of a declared Pack is named `nothing`')
    assert error(client, chat("tools.call('web/fetch', { url = 'x' })", WEB_HEAD))['kind'] == 'Tool'
    assert error(client, chat("tools.call('nothing')", WEB_HEAD))['kind'] == 'Tool'


def test_a_handler_that_raises_ends_the_loop_with_nothing_appended(served):
    batch = {'tool_calls': [{'id': 'a', 'name': 'web_search', 'arguments': {'query': 'x'}},
                            {'id': 'b', 'name': 'boom', 'arguments': {}}]}
    gw, client = served([batch])
    source = ("tools.offer('web/search')\ntools.offer_local('boom', 'd', {}, function() error('custom failure', 0) end)\n"
              "messages:user('go')\nlocal ok, err = pcall(models.loop)\nreturn err .. '|' .. #messages")
    assert result(client, chat(source, WEB_HEAD)) == 'custom failure|1'
    assert len(gw.requests) == 1


def test_handlers_may_infer_and_call_tools(served):
    gw, client = served([call('c1', 'ask'), 'side answer', 'done'])
    source = ("tools.offer_local('ask', 'd', {}, function()\n"
              "  return models.infer('side question') .. '+' .. tools.call('web/search', { query = 'clock' })\nend)\n"
              "messages:user('go')\nmodels.loop()\nreturn messages[3].content")
    assert result(client, chat(source, WEB_HEAD)) == 'side answer+Keeping time (https://example.test/clocks)'
    assert sent(gw, 1) == [{'role': 'user', 'content': 'side question'}]
    assert 'tools' not in gw.requests[1].json


def test_a_handler_result_that_is_not_json_data_fails(served):
    _, client = served([call('c1', 'bad')])
    source = ("tools.offer_local('bad', 'd', {}, function() return function() end end)\n"
              "messages:user('go')\nlocal ok, err = pcall(models.loop)\nreturn tostring(err)")
    assert result(client, chat(source)) == 'tool `bad` returned a function; a tool handler returns a string or JSON data'


def test_a_stop_during_a_bound_call_raises_cancelled_and_appends_nothing(gateway, gateway_client):
    handle = RunHandle()
    waiting = {'tool_calls': [{'id': 'w', 'name': 'web_wait', 'arguments': {'seconds': 20}}]}

    def stop_later(request):
        if len(gw.requests) == 1:
            threading.Timer(0.3, handle.stop).start()
    gw = gateway([waiting, 'after'], on_request=stop_later)
    source = ("tools.offer('web/wait')\nmessages:user('go')\nlocal ok, err = pcall(models.loop)\n"
              "local n = #messages\nmessages:user('again')\nmodels.loop()\n"
              "return err.kind .. '|' .. n .. '|' .. messages[#messages].content")
    started = time.monotonic()
    assert result(gateway_client(gw), chat(source, WEB_HEAD), handle=handle) == 'cancelled|1|after'
    assert time.monotonic() - started < 10


def test_a_cancel_interrupts_a_handler_stuck_in_a_loop(gateway, gateway_client):
    handle = RunHandle()
    gw = gateway([call('c1', 'spin')], on_request=lambda r: threading.Timer(0.3, handle.cancel).start())
    source = ("tools.offer_local('spin', 'd', {}, function() while true do end end)\n"
              "messages:user('go')\nlocal ok = pcall(models.loop)\nreturn 'resumed'")
    started = time.monotonic()
    assert run(gateway_client(gw), chat(source), handle=handle).to_dict()['outcome'] == 'cancelled'
    assert time.monotonic() - started < 10


def test_a_cancel_interrupts_a_compactor_stuck_in_a_loop(gateway, gateway_client):
    handle = RunHandle()
    gw = gateway([])
    threading.Timer(0.5, handle.cancel).start()
    source = ("messages:user(string.rep('x', 100000))\n"
              "pcall(models.loop, function() while true do end end)\nreturn 'resumed'")
    started = time.monotonic()
    done = run(gateway_client(gw), chat(source), handle=handle, context_window=4096)
    assert done.to_dict()['outcome'] == 'cancelled'
    assert time.monotonic() - started < 10


def test_a_cancel_drops_a_tool_call_in_flight(gateway, gateway_client):
    for source in ("return tools.call('web/wait', { seconds = 20 })",
                   "tools.offer('web/wait')\nmessages:user('go')\npcall(models.loop)\nreturn 'resumed'"):
        handle = RunHandle()
        gw = gateway([{'tool_calls': [{'id': 'w', 'name': 'web_wait', 'arguments': {'seconds': 20}}]}])
        threading.Timer(0.4, handle.cancel).start()
        started = time.monotonic()
        done = run(gateway_client(gw), chat(source, WEB_HEAD), handle=handle)
        assert done.to_dict()['outcome'] == 'cancelled'
        assert time.monotonic() - started < 5


def test_a_stop_interrupts_tools_call_and_the_run_goes_on(gateway, gateway_client):
    handle = RunHandle()
    threading.Timer(0.4, handle.stop).start()
    source = ("local ok, err = pcall(tools.call, 'web/wait', { seconds = 20 })\n"
              "return err.kind .. '|' .. tools.call('web/search', { query = 'sea' })")
    assert result(gateway_client(gateway([])), chat(source, WEB_HEAD), handle=handle) == \
        'cancelled|The sea (https://example.test/sea)'


def test_a_tool_that_survives_a_stop_keeps_running(gateway, gateway_client):
    from runvil.engine import Environment
    from runvil.tools import Pack, PackTool

    def slow(arguments, context):
        context.wait(0.8)
        return 'finished'
    env = Environment(packs={'web': Pack('web', (PackTool('slow', 'Slow.', slow, survives_stop=True),))})
    handle = RunHandle()
    threading.Timer(0.3, handle.stop).start()
    assert result(gateway_client(gateway([])), chat("return tools.call('web/slow')", WEB_HEAD), handle=handle,
                  environment=env) == 'finished'
