"""A batch killed with ``kill -9`` mid-way leaves whole lines only, its
workers exit, and ``--resume`` finishes it without running a finished
input again."""
import os
import signal
import subprocess
import sys
import time

from batch_helpers import HERE, REPLY, batch, by_id, environ, read_records, texts, write_lines, write_prompt

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def descendants(pid: int) -> set[int]:
    found, stack = set(), [pid]
    while stack:
        parent = stack.pop()
        try:
            with open('/proc/%d/task/%d/children' % (parent, parent)) as handle:
                children = [int(child) for child in handle.read().split()]
        except OSError:
            continue
        found.update(children)
        stack.extend(children)
    return found


def alive(pid: int) -> bool:
    try:
        with open('/proc/%d/stat' % pid) as handle:
            return handle.read().split(') ')[1][0] != 'Z'
    except OSError:
        return False


def test_resume_after_kill_9_mid_batch(gateway, tmp_path):
    gw = gateway({'fallback': dict(REPLY, headers_delay=0.25)})
    prompt, inputs, out = write_prompt(tmp_path), write_lines(tmp_path, texts(12)), str(tmp_path / 'out.jsonl')
    env = dict(os.environ, **environ(gw), PYTHONPATH=os.pathsep.join([HERE, ROOT]))
    batch_process = subprocess.Popen(
        [sys.executable, '-m', 'runvil', 'batch', prompt, '--inputs', inputs, '--out', out, '-j', '2',
         '--pack', 'crash_pack'], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not (os.path.exists(out) and open(out, 'rb').read().count(b'\n') >= 3):
        assert batch_process.poll() is None, batch_process.stderr.read().decode()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    workers = descendants(batch_process.pid)
    batch_process.send_signal(signal.SIGKILL)
    batch_process.wait()
    batch_process.stderr.close()
    assert workers
    while any(alive(worker) for worker in workers):     # they see their pipe close and exit
        assert time.monotonic() < deadline
        time.sleep(0.05)

    finished = by_id(read_records(out))
    assert 3 <= len(finished) < 12
    fast = gateway({'fallback': REPLY})
    status, stdout, _ = batch(fast, prompt, '--inputs', inputs, '--out', out, '--resume', '-j', '2')
    assert status == 0
    records = by_id(read_records(out))
    assert sorted(records) == sorted('q%d' % number for number in range(12))
    assert {record['id']: record for record in records.values() if record['id'] in finished} == finished
    assert sorted(request.json['messages'][0]['content'] for request in fast.requests) == sorted(
        'answer: question %s' % key[1:] for key in records if key not in finished)
    assert '12 results (%d run now, %d earlier)' % (12 - len(finished), len(finished)) in stdout
