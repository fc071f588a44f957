"""The Workshop's server side without a browser: the command, the prompt
files it serves and saves, and the run history, over real HTTP."""
from __future__ import annotations

import json
import signal
import subprocess
import sys

import httpx
import pytest

from runvil.cli import build_parser

PROMPT = '---\nname: hello\ndescription: Says hello.\nrunvil: 0\n---\n\n# Hello\n\n## Main\n\n```lua\nreturn "hi"\n```\n'


def test_the_command_takes_the_harness_flags_of_runvil_run():
    args = build_parser().parse_args(['workshop', 'prompts', '--port', '0', '--no-browser', '--bind',
                                      'writer=m', '--round-cap', '3', '--store', 'kept'])
    assert (args.dir, args.port, args.no_browser, args.bind, args.round_cap, args.store) == (
        'prompts', 0, True, ['writer=m'], 3, 'kept')


def test_only_prompt_files_under_the_directory_are_served_or_written(workshop, tmp_path):
    served = workshop({'hello.md': PROMPT})
    (tmp_path / 'outside.md').write_text(PROMPT)
    for path in ('../outside.md', '/etc/passwd', 'hello.txt', '.'):
        assert httpx.get(served.url + 'api/file', params={'path': path}).status_code == 404
        saved = httpx.post(served.url + 'api/save', json={'path': path, 'text': 'x', 'version': ''})
        assert saved.status_code == 400
    assert (tmp_path / 'outside.md').read_text() == PROMPT


def test_a_new_file_saves_once_and_a_stale_version_never_overwrites(workshop):
    served = workshop({})
    created = httpx.post(served.url + 'api/save', json={'path': 'new/one.md', 'text': PROMPT, 'version': ''})
    assert created.status_code == 200 and created.json()['problem'] is None
    again = httpx.post(served.url + 'api/save', json={'path': 'new/one.md', 'text': 'other', 'version': ''})
    assert again.status_code == 409
    assert again.json()['conflict'] == {'path': 'new/one.md', 'text': PROMPT, 'version': created.json()['version']}
    assert (served.root / 'new' / 'one.md').read_text() == PROMPT
    assert httpx.get(served.url + 'api/files').json()['files'] == ['new/one.md']


def test_a_run_setup_problem_is_refused_before_anything_runs(workshop):
    served = workshop({'hello.md': PROMPT})
    started = httpx.post(served.url + 'api/runs', json={'prompt': 'hello.md', 'text': PROMPT,
                                                       'limits': {'round_cap': 'many'}})
    assert started.status_code == 400
    assert started.json() == {'error': "round_cap: expected a whole number, got 'many'"}
    assert not (served.root / '.runvil').exists()


def followed(served, run_id: str) -> list[dict]:
    """Every event the page gets for the run, to the end of the stream."""
    with httpx.stream('GET', served.url + 'api/runs/%s/events' % run_id, timeout=10) as live:
        return [json.loads(line[len('data: '):]) for line in live.iter_lines() if line.startswith('data: ')]


def run_events(served, **request) -> tuple[str, list[dict]]:
    """Start a run as the run form does; its id and every event the page gets."""
    run_id = httpx.post(served.url + 'api/runs', json=request).json()['run_id']
    return run_id, followed(served, run_id)


def test_the_forms_limit_overrides_and_role_bindings_reach_the_run(workshop):
    logging = PROMPT.replace('return "hi"', "log('one')\nlog('two')\nreturn 'logged'")
    modelled = PROMPT.replace('runvil: 0\n', 'runvil: 0\nmodels:\n  writer: {}\n').replace(
        'return "hi"', "models.use('writer')\nreturn models.infer('hi')")
    served = workshop({'logging.md': logging, 'modelled.md': modelled}, {'models': {'big': ['from big']}})
    _, events = run_events(served, prompt='logging.md', text=logging, limits={'log_event_quota': '1'})
    assert events[-2]['error']['kind'] == 'Quota'
    _, events = run_events(served, prompt='modelled.md', text=modelled, binds={'writer': 'big'})
    assert events[-2]['result'] == 'from big'
    assert served.gateway.requests[-1].json['model'] == 'big'


def test_a_run_is_kept_as_json_lines_and_replayed_as_server_sent_events(workshop):
    served = workshop({'hello.md': PROMPT})
    run_id, streamed = run_events(served, prompt='hello.md', text=PROMPT)
    assert streamed[-1] == {'event': 'stream_end'}
    assert streamed[-2]['event'] == 'run_finished' and streamed[-2]['result'] == 'hi'
    kept = [json.loads(line) for line in (served.root / '.runvil' / 'runs' / (run_id + '.jsonl')).open()]
    assert [event['event'] for event in kept] == [event['event'] for event in streamed[:-1]]
    assert httpx.get(served.url + 'api/runs').json()['runs'] == [
        {'run_id': run_id, 'prompt': 'hello.md', 'chat': False, 'started': pytest.approx(kept[0]['time']),
         'outcome': 'completed'}]

    restarted = workshop({})      # a new Workshop over the same directory replays the kept file
    assert followed(restarted, run_id) == kept + [{'event': 'stream_end'}]


def test_an_unknown_run_is_not_found(workshop):
    served = workshop({})
    assert httpx.get(served.url + 'api/runs/../../x/events').status_code == 404
    assert httpx.get(served.url + 'api/runs/20260101-000000000-abcdef/events').status_code == 404
    assert httpx.post(served.url + 'api/runs/nope/cancel', json={}).status_code == 409


def test_runvil_workshop_serves_on_127_0_0_1_until_ctrl_c(tmp_path):
    pytest.importorskip('uvicorn', reason='the Workshop needs the workshop extra (starlette, uvicorn)')
    (tmp_path / 'hello.md').write_text(PROMPT)
    process = subprocess.Popen([sys.executable, '-m', 'runvil', 'workshop', str(tmp_path), '--port', '0',
                                '--no-browser'], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        announced = process.stdout.readline()
        url = announced.split()[2]
        assert announced == 'Workshop on %s (Ctrl-C stops it)\n' % url and url.startswith('http://127.0.0.1:')
        page = httpx.get(url)
        assert page.status_code == 200 and '<title>Runvil Workshop</title>' in page.text
        assert httpx.get(url + 'static/workshop.js').status_code == 200
        assert httpx.get(url + 'api/files').json()['files'] == ['hello.md']
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(20) == 0
        assert process.stderr.read() == ''


def test_runvil_workshop_refuses_a_missing_directory(tmp_path):
    done = subprocess.run([sys.executable, '-m', 'runvil', 'workshop', str(tmp_path / 'nowhere'), '--no-browser'],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (2, 'runvil workshop: error: not a directory: %s\n'
                                              % (tmp_path / 'nowhere'))


def test_only_the_workshops_own_page_is_answered(workshop):
    served = workshop({'hello.md': PROMPT})
    save = {'path': 'hello.md', 'text': 'overwritten', 'version': ''}
    rebound = httpx.get(served.url + 'api/files', headers={'Host': 'evil.example:8470'})
    assert rebound.status_code == 403
    assert rebound.json() == {'error': 'the Workshop answers requests to 127.0.0.1 only, not to evil.example:8470'}
    as_form = httpx.post(served.url + 'api/save', content=json.dumps(save), headers={'Content-Type': 'text/plain'})
    assert (as_form.status_code, as_form.json()) == (403, {'error': 'the Workshop takes JSON bodies only'})
    elsewhere = httpx.post(served.url + 'api/runs', json={'prompt': 'hello.md', 'text': PROMPT},
                           headers={'Origin': 'https://evil.example'})
    assert elsewhere.status_code == 403
    assert (served.root / 'hello.md').read_text() == PROMPT and not (served.root / '.runvil').exists()
    own = httpx.post(served.url + 'api/check', json={'path': 'hello.md', 'text': PROMPT},
                     headers={'Origin': served.url.rstrip('/')})
    assert own.status_code == 200 and own.json()['problem'] is None
