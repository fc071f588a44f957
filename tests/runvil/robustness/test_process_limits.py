"""The limits seen from outside the process, on the real ``runvil run``:
hostile Lua under ``--memory-ceiling 16MiB`` keeps the process's peak RSS
within three times the ceiling plus the interpreter's own base, and Ctrl-C
ends a run busy in ``load()`` or ``collectgarbage('count')`` loops with
exit 130 within a second."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

MiB = 1 << 20
CEILING = 16 * MiB

# Runs ``runvil run`` as its child, kills it once its resident set passes
# the byte bound given, and prints the child's exit status and peak RSS
# (RUSAGE_CHILDREN, so no other process of the test run is mixed in).
WATCHED_RUN = textwrap.dedent('''\
    import resource, subprocess, sys, time
    bound, argv = int(sys.argv[1]), sys.argv[2:]
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    killed, deadline = False, time.monotonic() + 60
    while child.poll() is None:
        try:
            with open('/proc/%d/status' % child.pid) as status:
                rss = next(int(line.split()[1]) * 1024 for line in status if line.startswith('VmRSS:'))
        except (OSError, StopIteration):
            rss = 0
        if rss > bound or time.monotonic() > deadline:
            child.kill()
            killed = True
        time.sleep(0.01)
    out = child.stdout.read().decode()
    print(child.returncode, killed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
    print(out)
    ''')


def write_prompt(tmp_path, name: str, source: str) -> str:
    path = tmp_path / (name + '.md')
    path.write_text('---\nname: %s\ndescription: A hostile section.\nrunvil: 0\n---\n\n# Hostile\n\n'
                    '## Run\n\n```lua\n%s\n```\n' % (name, source))
    return str(path)


def watched_run(prompt: str, bound: int) -> tuple[int, bool, int, dict | None]:
    argv = [sys.executable, '-m', 'runvil', 'run', '--json', '--memory-ceiling', '16MiB', prompt]
    done = subprocess.run([sys.executable, '-c', WATCHED_RUN, str(bound), *argv],
                          capture_output=True, text=True, timeout=120)
    first, _, rest = done.stdout.partition('\n')
    code, killed, peak = first.split()
    report = json.loads(rest) if rest.strip() else None
    return int(code), killed == 'True', int(peak), report


@pytest.fixture(scope='module')
def base_rss(tmp_path_factory) -> int:
    """The peak RSS of a run that does almost nothing."""
    prompt = write_prompt(tmp_path_factory.mktemp('base'), 'base', "return 'ok'")
    code, _, peak, report = watched_run(prompt, 1 << 40)
    assert (code, report['result']) == (0, 'ok')
    return peak


# Each section hoards until the ceiling refuses, catches the refusal and
# drops what it kept; the next section starts with a fresh VM.
HOARDERS = {
    'Keys': "local t = {}\nlocal i = 0\nwhile true do i = i + 1 t['key' .. i] = i end",
    'Coroutines': ("local kept = {}\nwhile true do\n"
                   "  local co = coroutine.create(function() coroutine.yield() end)\n"
                   "  coroutine.resume(co)\n  kept[#kept + 1] = co\nend"),
}


def test_hoarding_sections_stay_within_three_times_the_ceiling(tmp_path, base_rss):
    sections = ''.join("## %s\n\n```lua\nlocal ok, err = pcall(function()\n%s\nend)\n"
                       "var.caught = (var.caught or '') .. '%s: ' .. tostring(err) .. '; '\n```\n\n"
                       % (name, source, name) for name, source in HOARDERS.items())
    path = tmp_path / 'hoarders.md'
    path.write_text('---\nname: hoarders\ndescription: Hoards keys, then coroutines.\nrunvil: 0\n---\n\n'
                    '# Hoarders\n\n%s## Report\n\n```lua\nreturn var.caught\n```\n' % sections)
    bound = base_rss + 3 * CEILING
    code, killed, peak, report = watched_run(str(path), bound)
    assert not killed, 'peak RSS passed %d MiB' % (bound // MiB)
    assert (code, report['outcome']) == (0, 'completed')
    assert report['result'].count('memory') == len(HOARDERS), report['result']
    assert peak <= bound


# Wall time bounds only that a process stops at all.
STOPS = 10


def _stat(pid):
    """The fields of /proc/PID/stat after the command name, from the state on."""
    with open('/proc/%d/stat' % pid) as f:
        return f.read().rsplit(')', 1)[1].split()


def cpu_seconds(pid):
    """User and system CPU time process ``pid`` has used."""
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def exited(pid):
    return _stat(pid)[0] == 'Z'


# Each call of the loop is long on its own: compiling a long chunk, and
# measuring a large heap, so the cancel must be checked inside the call.
BUSY_LOOPS = {
    'load': "local source = string.rep('x = 1 ', 3000)\nlog('looping')\n"
            "while true do local f = load(source) end",
    "collectgarbage('count')": "keep = {}\nfor i = 1, 100000 do keep[i] = { i } end\nlog('looping')\n"
                               "while true do local kb = collectgarbage('count') end",
}


@pytest.mark.parametrize('loop', sorted(BUSY_LOOPS))
def test_ctrl_c_ends_a_busy_loop_within_a_second(tmp_path, loop):
    prompt = write_prompt(tmp_path, 'busy', BUSY_LOOPS[loop])
    events = tmp_path / 'events.jsonl'
    child = subprocess.Popen([sys.executable, '-m', 'runvil', 'run', '--json', '--events', str(events), prompt],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        deadline = time.monotonic() + 30
        while not (events.exists() and '"looping"' in events.read_text()):
            assert child.poll() is None and time.monotonic() < deadline, 'the loop never started'
            time.sleep(0.02)
        time.sleep(0.5)                          # inside a long call of the loop
        before = cpu_seconds(child.pid)
        child.send_signal(signal.SIGINT)
        # The child's own CPU time from Ctrl-C to its exit (read while it is
        # a zombie, not yet reaped): on a loaded machine wall time is
        # several times longer and not the engine's.
        deadline = time.monotonic() + STOPS
        while not exited(child.pid):
            assert time.monotonic() < deadline, 'still running %d s after Ctrl-C' % STOPS
            time.sleep(0.01)
        assert cpu_seconds(child.pid) - before <= 1.0
        out, _ = child.communicate()
        assert child.returncode == 130 and json.loads(out)['outcome'] == 'cancelled'
    finally:
        if child.poll() is None:
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
