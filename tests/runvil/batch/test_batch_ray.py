"""``runvil batch --engine ray`` on one local Ray with 2 CPUs, shared by
the tests of this module (Ray starts slowly): the same output as the
local engine, a dead worker's run retried exactly once, Ctrl-C."""
import os
import threading
import time

import pytest
from batch_helpers import HERE, REPLY, batch, by_id, read_records, texts, without_timings, write_lines, write_prompt

from runvil.batch.stop import Stop

ray = pytest.importorskip('ray')
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


@pytest.fixture(scope='module')
def local_ray():
    # Ray's workers inherit this environment: the test Pack is importable there.
    previous = os.environ.get('PYTHONPATH')
    os.environ['PYTHONPATH'] = os.pathsep.join([HERE, ROOT] + ([previous] if previous else []))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level='WARNING')
    yield
    ray.shutdown()
    if previous is None:
        del os.environ['PYTHONPATH']
    else:
        os.environ['PYTHONPATH'] = previous


def test_both_engines_write_the_same_results(local_ray, gateway, tmp_path):
    prompt = write_prompt(tmp_path)
    marker, attempts = tmp_path / 'marker', tmp_path / 'attempts'
    inputs = write_lines(tmp_path, texts(6) + [
        {'id': 'flaky', 'input': 'hard', 'args': {'model': 'flaky'}},
        {'id': 'unknown-arg', 'input': 'x', 'args': {'colour': 'red'}},
        {'id': 'once', 'input': 'crash once %s' % marker},
        {'id': 'always', 'input': 'crash always %s' % attempts},
    ])
    outputs = {}
    for engine in ('local', 'ray'):
        gw = gateway({'models': {'flaky': [{'status': 503}]}, 'fallback': REPLY})
        out = str(tmp_path / ('%s.jsonl' % engine))
        status, _, stderr = batch(gw, prompt, '--inputs', inputs, '--out', out, '--engine', engine, '-j', '2')
        assert status == 1, stderr
        outputs[engine] = read_records(out)
        assert attempts.read_text() == 'attempt\nattempt\n', engine     # retried exactly once
        marker.unlink()
        attempts.unlink()
    assert without_timings(outputs['ray']) == without_timings(outputs['local'])
    records = by_id(outputs['ray'])
    assert len(records) == 10
    assert records['once']['result'] == 'crash once %s -> ok' % marker
    assert records['always']['error']['message'] == 'the batch worker running this input died (2 attempts)'
    assert records['flaky']['error']['kind'] == 'Completion'
    assert records['unknown-arg']['error']['kind'] == 'Input'


def test_ctrl_c_cancels_the_ray_tasks_in_flight(local_ray, gateway, tmp_path):
    gw = gateway({'models': {'slow': [{'text': 'late', 'headers_delay': 60}] * 2}, 'fallback': REPLY})
    prompt, out = write_prompt(tmp_path), str(tmp_path / 'out.jsonl')
    inputs = write_lines(tmp_path, texts(2) + [
        {'id': 's%d' % number, 'input': 'slow', 'args': {'model': 'slow'}} for number in range(2)])
    stop, pressed = Stop(), []

    def press_ctrl_c_once_both_slow_rounds_wait():
        while sum(request.json['model'] == 'slow' for request in gw.requests) < 2:
            time.sleep(0.02)
        pressed.append(time.monotonic())
        stop.request()

    threading.Thread(target=press_ctrl_c_once_both_slow_rounds_wait, daemon=True).start()
    status, _, _ = batch(gw, prompt, '--inputs', inputs, '--out', out, '--engine', 'ray', '-j', '2', stop=stop)
    assert status == 130
    assert time.monotonic() - pressed[0] < 9      # cancelled, not left to the 10 s wait for them
    assert sorted(by_id(read_records(out))) == ['q0', 'q1']
