"""One batch run in a worker: the prompt parsed once, each run reported
as ``runvil run --json`` reports it."""
import argparse
import io
import json

from batch_helpers import REPLY, environ

from runvil.batch.command import add_arguments
from runvil.batch.records import BatchInput, BatchSpec
from runvil.batch.runner import PromptRunner
from runvil.harness import RunHandle
from runvil.host.command import main as run_main



def runner(gw, tmp_path, text: str) -> PromptRunner:
    path = tmp_path / 'p.md'
    path.write_text(text)
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return PromptRunner(BatchSpec(text, str(path), parser.parse_args([str(path), '--inputs', 'x']), environ(gw)))


def run_json(gw, tmp_path, input_text: str) -> dict:
    shown = io.StringIO()
    run_main([str(tmp_path / 'p.md'), '--json', '--input', input_text], shown, io.StringIO(), environ=environ(gw))
    return json.loads(shown.getvalue())


def prompt(head: str) -> str:
    return ('---\nname: t\ndescription: d\n%s\ninput:\n  description: text\n---\n\n# T\n\n## A\n\n'
            '```lua\nmodels.use(\'writer\')\nreturn models.infer(input.text)\n```\n' % head)


def test_runs_of_one_parsed_prompt_report_as_runvil_run(gateway, tmp_path):
    gw = gateway({'fallback': REPLY})
    worker = runner(gw, tmp_path, prompt('runvil: 0\nmodels:\n  writer: {}'))
    for number in range(3):
        record = worker.run(BatchInput(number, 'say %d' % number), RunHandle())
        shown = run_json(gw, tmp_path, 'say %d' % number)
        assert (record.outcome, record.result, record.error) == (shown['outcome'], shown['result'], shown['error'])
        assert (record.outcome, record.result, record.usage, record.rounds) == (
            'completed', 'ok', {'prompt_tokens': 7, 'completion_tokens': 2, 'reasoning_tokens': 0}, 1)
    worker.close()


def test_a_prompt_that_does_not_parse_or_run_fails_every_run_the_same_way(gateway, tmp_path):
    gw = gateway({'fallback': REPLY})
    for head, kind in (('runvil: 0\nmodels: [', 'Parse'), ('runvil: 1\nmodels:\n  writer: {}', 'Version')):
        worker = runner(gw, tmp_path, prompt(head))
        record = worker.run(BatchInput('a', 'x'), RunHandle())
        assert record.error == run_json(gw, tmp_path, 'x')['error']
        assert record.error['kind'] == kind
        worker.close()


def test_a_batch_run_has_no_operator_to_ask(gateway, tmp_path):
    text = ('---\nname: t\ndescription: d\nrunvil: 0\n---\n\n# T\n\n## A\n\n'
            '```lua\nreturn input.ask(\'which colour?\')\n```\n')
    worker = runner(gateway({'fallback': REPLY}), tmp_path, text)
    record = worker.run(BatchInput('a', None), RunHandle())
    assert (record.outcome, record.error['kind']) == ('failed', 'Lua')
    assert record.error['message'] == 'input.ask: no answer came: the operator input ended'
    worker.close()
