"""Preparing a run: parse, version, requirements, input and args."""
from engine_helpers import block, prompt, report, result, run, section
from runvil.engine import Environment, ModelBinding
from runvil.harness import Harness
from runvil.testing.packs import WEB


def error_of(text: str, **options) -> dict:
    outcome = report(text, **options)
    assert outcome['outcome'] == 'failed', outcome
    return outcome['error']


def test_a_parse_failure_is_run_error_kind_parse_with_its_location():
    dup = prompt('## S\n\nFirst.\n\n## S\n\nSecond.\n')
    error = error_of(dup)
    assert error['kind'] == 'Parse' and error['retryable'] is False
    assert error['message'].startswith('duplicate sibling section name `S`')
    assert {k: error['location'][k] for k in ('path', 'line', 'column')} == {'path': 't', 'line': 13, 'column': 1}
    assert len(error['location']['span']) == 2


def test_a_parse_failure_stops_everything_even_in_the_last_section():
    text = prompt(section('A', "log('ran')") + section('B', "return (1"))
    events = []
    outcome = run(text, events=events).to_dict()
    assert outcome['error']['kind'] == 'Parse'
    assert outcome['error']['message'].startswith('lua compilation error at section `B` prologue (line 18): ')
    assert [e['event'] for e in events] == ['run_started', 'run_finished']


def test_no_runvil_key_and_an_unsupported_version():
    text = '---\nname: t\n---\n\n# T\n'
    assert error_of(text) == {'kind': 'Parse', 'message': 'not a runvil prompt: no runvil version',
                              'retryable': False,
                              'location': {'path': '<prompt>', 'line': None, 'column': None, 'span': None}}
    future = '---\nname: future\nrunvil: 1\n---\n\n# Future\n\n## Greet\n\n```lua\nreturn \'hello\'\n```\n'
    assert error_of(future) == {'kind': 'Version', 'retryable': False, 'location': None,
                                'message': 'unsupported runvil version: 1 (this build supports major 0)'}
    assert report(future.replace('runvil: 1', 'runvil: 0'))['result'] == 'hello'


def test_unmet_requirements_list_every_one_under_the_notice():
    head = 'uses:\n  - web\nmodels:\n  writer:\n    min_context: 100000\n    requires: [vision]\n'
    text = prompt(section('S', "return 1"), head=head)
    assert error_of(text) == {'kind': 'RequirementsUnmet', 'retryable': False, 'location': None, 'message': (
        'the environment cannot satisfy this prompt:\n'
        '- Pack `web` is not available to this run\n'
        '- model role `writer` needs a context window of at least 100000 tokens, but its model offers 8192\n'
        '- model role `writer` requires `vision`, which its model does not offer')}
    offered = Environment(packs={'web': WEB},
                          models={'writer': ModelBinding('big', 200000, frozenset({'vision'}))})
    assert Harness(environment=offered).run(text).result == '1'


def test_input_staging_refusals_are_the_harness_input_kind():
    assert error_of(prompt(section('S', "return 1")), input_text='hi') == {
        'kind': 'Input', 'message': 'this prompt declares no input, but input was given',
        'retryable': False, 'location': None}
    wants = prompt(section('S', "return input.text"), head='input:\n  description: Text.\n')
    assert error_of(wants)['message'] == 'this prompt requires input, but none was given'
    assert report(wants, input_text='given')['result'] == 'given'
    optional = prompt(section('S', "return tostring(input.text)"), head='input:\n  required: false\n')
    assert report(optional)['result'] == 'nil'


def test_args_are_typed_by_their_declaration():
    head = ('args:\n  - name: topic\n  - name: count\n    type: integer\n    default: 2\n'
            '  - name: ratio\n    type: number\n    default: 0.5\n  - name: loud\n    type: boolean\n    default: false\n')
    text = prompt(section('S', "return args.topic .. ' ' .. args.count * 2 .. ' ' .. args.ratio .. ' ' .. tostring(args.loud)"),
                  head=head)
    assert report(text, args={'topic': 'tea', 'loud': 'true'})['result'] == 'tea 4 0.5 true'
    assert report(text, args={'topic': 'tea', 'count': '5', 'ratio': '2'})['result'] == 'tea 10 2 false'
    assert error_of(text)['message'] == 'arg `topic` is required, but no value was given'
    assert error_of(text, args={'topic': 'x', 'count': 'many'})['message'] == \
        'arg `count` must be an integer, got "many"'
    assert error_of(text, args={'topic': 'x', 'colour': 'red'}) == {
        'kind': 'Input', 'message': 'unknown arg `colour`; this prompt declares: count, loud, ratio, topic',
        'retryable': False, 'location': None}


def test_input_and_args_reach_the_h1_pass():
    text = prompt(block("var.seen = input.text") + '\n' + section('S', "return var.seen"),
                  head='input:\n  description: Text.\n')
    assert report(text, input_text='early')['result'] == 'early'


def test_run_error_kinds_are_the_twelve():
    from runvil.engine import REPORTED_RUN_ERROR_KINDS
    assert [kind.value for kind in REPORTED_RUN_ERROR_KINDS] == [
        'Parse', 'Version', 'Binding', 'Completion', 'Tool', 'Vfs', 'Determinism', 'Lua', 'Quota',
        'ContextExhausted', 'Internal', 'RequirementsUnmet']


def test_error_kinds_are_the_thirteen():
    from runvil.engine import ErrorKind
    assert [kind.value for kind in ErrorKind] == [
        'lua', 'context_exhausted', 'empty_model_reply', 'cancelled', 'tool_loop_exhausted', 'tasks_live',
        'task_not_owned', 'task_consumed', 'out_of_scope_tool', 'unbound_tool', 'tool', 'store', 'internal']
    assert result(section('S', "return 'ok'")) == 'ok'
