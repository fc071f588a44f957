"""Pack preludes: Lua a declared Pack installs in every section VM."""
from engine_helpers import prompt, section
from runvil.engine import Environment
from runvil.harness import EventStream, Harness, RunLimits
from runvil.testing.packs import BROKEN, WEB
from runvil.tools import Pack, PackTool

USES_WEB = 'uses:\n  - web\n'


def run_with(body: str, head: str, *packs, events=None):
    harness = Harness(RunLimits(), Environment(packs={pack.id: pack for pack in packs}))
    stream = EventStream([events.append] if events is not None else [])
    return harness.run(prompt(body, head), 't.md', events=stream)


def test_the_prelude_is_in_every_section_vm_tasks_included():
    body = (section('A', "return web.search('sea')")
            + section('B', "return tasks.join(tasks.spawn('C', {go = true})) .. '|' .. type(web.fetch)")
            + section('C', "if not args.go then return end\nreturn web.fetch('https://example.test/sea')"))
    outcome = run_with(body, USES_WEB, WEB)
    assert outcome.result == 'The sea covers about seventy percent of the surface of the Earth.|function'


def test_only_declared_packs_install_their_preludes():
    assert run_with(section('A', "return type(web)"), '', WEB).result == 'nil'


def test_a_prelude_that_fails_ends_the_run_as_lua_before_any_code():
    events = []
    body = "```lua\nlog('h1')\n```\n\n" + section('A', "log('a')")
    outcome = run_with(body, 'uses:\n  - broken\n', BROKEN, events=events)
    assert outcome.to_dict()['error'] == {
        'kind': 'Lua', 'message': "Pack `broken` prelude failed to install: [pack broken]:2: attempt to index a "
                                  "nil value (local 'helpers')", 'retryable': False, 'location': None}
    assert not [e for e in events if e['event'] == 'log']


def test_a_prelude_may_not_wait_on_the_harness():
    echo = PackTool('echo', 'Echoes.', lambda arguments, context: 'echo')
    waiting = Pack('waiting', (echo,), "tools.call('waiting/echo')\n")
    outcome = run_with(section('A', "return 1"), 'uses:\n  - waiting\n', waiting)
    assert outcome.to_dict()['error']['message'] == \
        'Pack `waiting` prelude failed to install: a prelude cannot wait on the Harness'
    syntax = Pack('syntax', (), "x = = 1\n")
    outcome = run_with(section('A', "return 1"), 'uses:\n  - syntax\n', syntax)
    assert outcome.to_dict()['error']['message'] == \
        "Pack `syntax` prelude failed to install: [pack syntax]:1: unexpected symbol near '='"


def test_a_prelude_that_runs_out_the_log_quota_ends_the_run_as_quota():
    chatty = Pack('chatty', (), "for n = 1, 3 do log('prelude ' .. n) end\n")
    harness = Harness(RunLimits(log_event_quota=2), Environment(packs={'chatty': chatty}))
    outcome = harness.run(prompt(section('A', "return 1"), 'uses:\n  - chatty\n'), 't.md')
    assert outcome.to_dict()['error'] == {'kind': 'Quota', 'message': 'lua log event quota exceeded',
                                          'retryable': False, 'location': None}
