"""``runvil batch`` on the local engine, over real HTTP against the
scripted gateway: one flushed line per run, resume, limit, retry of
retryable failures, bad input lines, Ctrl-C, a dead worker."""
import io
import json
import os
import threading
import time

from batch_helpers import REPLY, batch, by_id, environ, read_records, texts, write_lines, write_prompt

from runvil.batch.stop import Stop
from runvil.host.command import main as run_main

FLAKY = {'models': {'flaky': [{'status': 503}, {'status': 503}]}, 'fallback': REPLY}


def test_every_input_is_one_result_line(gateway, tmp_path):
    gw = gateway({'fallback': REPLY})
    prompt, inputs = write_prompt(tmp_path), write_lines(tmp_path, texts(5))
    status, stdout, stderr = batch(gw, prompt, '--inputs', inputs, '-j', '2')
    assert status == 0, stderr
    records = by_id(read_records(str(tmp_path / 'inputs.results.jsonl')))
    assert sorted(records) == ['q0', 'q1', 'q2', 'q3', 'q4']
    for number in range(5):
        record = records['q%d' % number]
        assert list(record) == ['id', 'outcome', 'result', 'error', 'usage', 'rounds', 'seconds']
        assert record['outcome'] == 'completed'
        assert record['result'] == 'question %d -> ok' % number
        assert record['error'] is None
        assert record['usage'] == {'prompt_tokens': 7, 'completion_tokens': 2, 'reasoning_tokens': 0}
        assert record['rounds'] == 1
        assert record['seconds'] > 0
    assert sorted(request.json['messages'][0]['content'] for request in gw.requests) == [
        'answer: question %d' % number for number in range(5)]
    assert 'batch summary: %s: 5 results (5 run now, 0 earlier)' % (tmp_path / 'inputs.results.jsonl') in stdout
    assert '  completed     5' in stdout
    assert 'tokens: prompt 35, completion 10, reasoning 0' in stdout


def test_a_failed_run_has_the_error_runvil_run_json_gives(gateway, tmp_path):
    gw = gateway(FLAKY)
    prompt = write_prompt(tmp_path)
    inputs = write_lines(tmp_path, [{'id': 'f', 'input': 'hard one', 'args': {'model': 'flaky'}}])
    status, stdout, _ = batch(gw, prompt, '--inputs', inputs, '--out', str(tmp_path / 'out.jsonl'), '-j', '1')
    assert status == 1
    [record] = read_records(str(tmp_path / 'out.jsonl'))
    shown = io.StringIO()
    assert run_main([prompt, '--json', '--input', 'hard one', '--set', 'model=flaky',
                     '--pack', 'crash_pack'], shown, io.StringIO(), environ=environ(gw)) == 1
    assert record['error'] == json.loads(shown.getvalue())['error']
    assert record['error']['kind'] == 'Completion' and record['error']['retryable'] is True
    assert (record['outcome'], record['result'], record['usage'], record['rounds']) == ('failed', None, None, 0)
    assert '  Completion     1          1' in stdout
    assert 'retryable failures: 1 (rerun them with --retry-failed)' in stdout


def test_limit_then_resume_runs_each_input_once(gateway, tmp_path):
    gw = gateway({'fallback': REPLY})
    prompt, inputs = write_prompt(tmp_path), write_lines(tmp_path, texts(6))
    out = str(tmp_path / 'out.jsonl')
    assert batch(gw, prompt, '--inputs', inputs, '--out', out, '--limit', '2', '-j', '1')[0] == 0
    assert [record['id'] for record in read_records(out)] == ['q0', 'q1']
    status, _, stderr = batch(gw, prompt, '--inputs', inputs, '--out', out)
    assert status == 2
    assert stderr == ('runvil batch: error: %s already holds 2 results: pass --resume to continue '
                      'that batch, or choose another --out\n' % out)
    status, stdout, _ = batch(gw, prompt, '--inputs', inputs, '--out', out, '--resume', '-j', '2')
    assert status == 0
    assert sorted(by_id(read_records(out))) == ['q0', 'q1', 'q2', 'q3', 'q4', 'q5']
    assert len(gw.requests) == 6
    assert '6 results (4 run now, 2 earlier)' in stdout


def test_retry_failed_reruns_only_the_retryable_failures(gateway, tmp_path):
    gw = gateway(FLAKY)
    prompt, out = write_prompt(tmp_path), str(tmp_path / 'out.jsonl')
    inputs = write_lines(tmp_path, texts(2) + [
        {'id': 'f%d' % number, 'input': 'flaky %d' % number, 'args': {'model': 'flaky'}} for number in range(2)])
    assert batch(gw, prompt, '--inputs', inputs, '--out', out, '-j', '1')[0] == 1
    first = by_id(read_records(out))
    assert [first[key]['outcome'] for key in ('q0', 'q1', 'f0', 'f1')] == ['completed', 'completed', 'failed', 'failed']
    status, stdout, _ = batch(gw, prompt, '--inputs', inputs, '--out', out, '--retry-failed', '-j', '1')
    assert status == 0
    again = by_id(read_records(out))
    assert sorted(again) == ['f0', 'f1', 'q0', 'q1']
    assert all(record['outcome'] == 'completed' for record in again.values())
    assert again['q0'] == first['q0']
    assert len(gw.requests) == 6
    assert '4 results (2 run now, 2 earlier)' in stdout


def test_bad_input_lines_are_reported_and_the_rest_runs(gateway, tmp_path):
    gw = gateway({'fallback': REPLY})
    prompt = write_prompt(tmp_path)
    inputs = write_lines(tmp_path, [texts(1)[0], '{oops', {'id': 'q1', 'input': 5}, texts(2)[1]])
    status, stdout, stderr = batch(gw, prompt, '--inputs', inputs, '-j', '1')
    assert status == 1
    assert stderr.splitlines()[:2] == [
        "%s:2: skipped: not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
        % inputs,
        '%s:3: skipped: input must be a string or null, got 5' % inputs]
    assert sorted(by_id(read_records(str(tmp_path / 'inputs.results.jsonl')))) == ['q0', 'q1']
    assert 'skipped input lines: 2' in stdout


def test_ctrl_c_cancels_the_running_runs_and_keeps_the_finished_lines(gateway, tmp_path):
    slow = {'text': 'late', 'headers_delay': 60}
    gw = gateway({'models': {'slow': [slow] * 4}, 'fallback': REPLY})
    prompt, out = write_prompt(tmp_path), str(tmp_path / 'out.jsonl')
    inputs = write_lines(tmp_path, texts(2) + [
        {'id': 's%d' % number, 'input': 'slow %d' % number, 'args': {'model': 'slow'}} for number in range(4)])
    stop, pressed = Stop(), []

    def press_ctrl_c_once_both_slow_rounds_wait():
        while len(gw.requests) < 4:
            time.sleep(0.02)
        pressed.append(time.monotonic())
        stop.request()

    threading.Thread(target=press_ctrl_c_once_both_slow_rounds_wait, daemon=True).start()
    status, stdout, _ = batch(gw, prompt, '--inputs', inputs, '--out', out, '-j', '2', stop=stop)
    assert status == 130
    assert time.monotonic() - pressed[0] < 20     # the slow rounds (60 s) were cancelled, not waited for
    assert sorted(by_id(read_records(out))) == ['q0', 'q1']
    assert '2 results (2 run now, 0 earlier)' in stdout


def test_a_dead_worker_has_its_run_retried_once(gateway, tmp_path):
    gw = gateway({'fallback': REPLY})
    prompt, out = write_prompt(tmp_path), str(tmp_path / 'out.jsonl')
    once = 'crash once %s' % (tmp_path / 'marker')
    attempts = tmp_path / 'attempts'
    inputs = write_lines(tmp_path, texts(2) + [{'id': 'once', 'input': once},
                                               {'id': 'always', 'input': 'crash always %s' % attempts}])
    status, _, _ = batch(gw, prompt, '--inputs', inputs, '--out', out, '-j', '1')
    assert status == 1
    records = by_id(read_records(out))
    assert sorted(records) == ['always', 'once', 'q0', 'q1']
    assert records['once']['result'] == once + ' -> ok'
    assert records['always']['error'] == {
        'kind': 'Internal', 'message': 'the batch worker running this input died (2 attempts)',
        'retryable': False, 'location': None}
    assert attempts.read_text() == 'attempt\nattempt\n'
    assert records['q0']['outcome'] == records['q1']['outcome'] == 'completed'


def test_setup_errors_stop_the_batch_before_any_run(gateway, tmp_path):
    gw = gateway({'fallback': REPLY})
    prompt, inputs = write_prompt(tmp_path), write_lines(tmp_path, texts(1))
    missing = str(tmp_path / 'missing.jsonl')
    assert batch(gw, prompt, '--inputs', missing)[::2] == (
        2, 'runvil batch: error: cannot read inputs %s: No such file or directory\n' % missing)
    assert batch(gw, str(tmp_path / 'none.md'), '--inputs', inputs)[::2] == (
        2, 'runvil batch: error: cannot read prompt %s: No such file or directory\n' % (tmp_path / 'none.md'))
    assert batch(gw, prompt, '--inputs', inputs, '--ray-address', 'auto')[::2] == (
        2, 'runvil batch: error: --ray-address needs --engine ray\n')
    out = write_lines(tmp_path, ['{"not": "a result"}'], name='out.jsonl')
    assert batch(gw, prompt, '--inputs', inputs, '--out', out, '--resume')[::2] == (
        2, 'runvil batch: error: output %s line 1 is not a batch result line; choose another --out\n' % out)
    assert gw.requests == []
