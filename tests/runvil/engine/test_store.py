"""The ``store`` global and claims: files the Harness keeps, and races
between chains ending the run as Determinism."""
from pathlib import Path

import pytest

from engine_helpers import prompt, section
from runvil.harness import EventStream, Harness, RunLimits
from runvil.harness.store_answerer import DirectoryStore

GUARD = "if args.who == nil then return end\n"


def run_store(body: str, root: Path | None, events=None, **limits):
    harness = Harness(RunLimits(**limits), store=None if root is None else DirectoryStore(str(root)))
    stream = EventStream([events.append] if events is not None else [])
    return harness.run(prompt(body), 't.md', events=stream)


def outcome_of(body, root, **options) -> dict:
    return run_store(body, root, **options).to_dict()


def test_write_read_exists_list_delete(tmp_path):
    body = section('S', "store.write('notes/a.txt', 'alpha')\nstore.write('notes/b.txt', 'beta')\n"
                        "store.write('other.txt', 'x')\nlocal listed = table.concat(store.list('notes/'), ',')\n"
                        "local all = #store.list()\nlocal gone = store.delete('notes/b.txt')\n"
                        "local again = store.delete('notes/b.txt')\n"
                        "return table.concat({store.read('notes/a.txt'), listed, all, tostring(gone), tostring(again),"
                        " tostring(store.exists('notes/b.txt')), tostring(store.exists('notes/a.txt'))}, '|')")
    assert run_store(body, tmp_path).result == 'alpha|notes/a.txt,notes/b.txt|3|true|false|false|true'
    assert (tmp_path / 'notes' / 'a.txt').read_text() == 'alpha'


def test_store_failures_are_store_error_values(tmp_path):
    body = section('S', "local function why(f, ...) local ok, e = pcall(f, ...) return e.kind .. ':' .. "
                        "tostring(e.reason) .. ':' .. e.message end\n"
                        "return why(store.read, 'missing.txt') .. '\\n' .. why(store.read, '../x') .. '\\n' .. "
                        "why(store.write, '/abs', 'x') .. '\\n' .. why(store.read, 'a//b') .. '\\n' .. "
                        "why(store.write, 'a', 3) .. '\\n' .. why(store.read)")
    assert run_store(body, tmp_path).result.split('\n') == [
        'store:not_found:file not found in store: missing.txt',
        'store:invalid_path:invalid store path `../x`: a path has no empty, . or .. part',
        'store:invalid_path:invalid store path `/abs`: a path is relative and separated by /',
        'store:invalid_path:invalid store path `a//b`: a path has no empty, . or .. part',
        "lua:nil:bad argument #2 to 'store.write' (string expected, got number)",
        'lua:nil:store.read takes (path)']


def test_an_uncaught_store_failure_ends_the_run_as_vfs(tmp_path):
    assert outcome_of(section('S', "store.read('missing.txt')"), tmp_path)['error'] == {
        'kind': 'Vfs', 'message': 'file not found in store: missing.txt', 'retryable': False, 'location': None}
    # raised again after a suspending call, the value is rebuilt from its kind and reason
    body = section('S', "local ok, e = pcall(store.read, 'missing.txt')\nstore.write('x.txt', 'x')\nerror(e)")
    assert outcome_of(body, tmp_path)['error']['kind'] == 'Vfs'


def test_a_run_without_a_store(tmp_path):
    assert outcome_of(section('S', "store.write('a.txt', 'x')"), None)['error'] == {
        'kind': 'Vfs', 'message': 'this run declares no store, so no store operation can run', 'retryable': False,
        'location': None}
    body = section('S', "local ok, e = pcall(store.list)\nreturn e.kind .. ':' .. e.reason")
    assert run_store(body, None).result == 'store:no_store'


def test_a_store_that_cannot_start_fails_the_run_before_it_runs(tmp_path):
    events = []
    outcome = outcome_of(section('S', "log('ran')\nreturn 1"), tmp_path / 'missing', events=events)
    assert outcome['error'] == {'kind': 'Vfs', 'message': 'the store cannot start: no directory at %s'
                                % (tmp_path / 'missing'), 'retryable': False, 'location': None}
    assert [e['event'] for e in events] == ['run_finished']


# -- claims ----------------------------------------------------------------------------------------

WRITER = section('Writer', GUARD + "store.write('shared.txt', args.who)\nreturn args.who")
READER = section('Reader', GUARD + "return store.read('shared.txt')")


@pytest.mark.parametrize('main, sections', [
    # two tasks write one path, neither waiting for the other
    ("local a, b = tasks.spawn('Writer', {who = 'a'}), tasks.spawn('Writer', {who = 'b'})\n"
     "tasks.join(a)\ntasks.join(b)", WRITER),
    # a task reads what its starter writes after starting it
    ("local r = tasks.spawn('Reader', {who = 'r'})\nstore.write('shared.txt', 'late')\ntasks.join(r)", READER),
    # the starter reads what a task writes before taking the task's end
    ("local w = tasks.spawn('Writer', {who = 'w'})\nlocal seen = store.read('shared.txt')\ntasks.join(w)", WRITER),
    # a listing races with a write
    ("local w = tasks.spawn('Writer', {who = 'w'})\nstore.list()\ntasks.join(w)", WRITER),
])
def test_a_race_ends_the_run_as_determinism_past_any_pcall(tmp_path, main, sections):
    (tmp_path / 'shared.txt').write_text('seed')
    events = []
    body = section('Main', "local ok, err = pcall(function()\n%s\nend)\nreturn 'caught: ' .. tostring(err)" % main) \
        + sections
    outcome = outcome_of(body, tmp_path, events=events)
    assert outcome['outcome'] == 'failed' and outcome['error']['kind'] == 'Determinism', outcome
    assert outcome['error']['message'].startswith('claims conflict on store path shared.txt: ')
    assert outcome['error']['message'].endswith(', and neither waited for the other')
    assert not [e for e in events if e['event'] == 'task_finished' and e['status'] == 'failed']


def test_the_conflict_message_names_both_chains(tmp_path):
    body = section('Main', "local a, b = tasks.spawn('Writer', {who = 'a'}), tasks.spawn('Writer', {who = 'b'})\n"
                           "tasks.join(a)\ntasks.join(b)") + WRITER
    assert outcome_of(body, tmp_path)['error']['message'] == (
        'claims conflict on store path shared.txt: task id=0.0 (## Writer) wrote it and task id=0.1 (## Writer) '
        'wrote it, and neither waited for the other')


def test_a_race_in_the_h1_pass_is_determinism_too(tmp_path):
    body = ("```lua\nlocal w = tasks.spawn('Writer', {who = 'w'})\nstore.read('shared.txt')\ntasks.join(w)\n```\n\n"
            + WRITER)
    (tmp_path / 'shared.txt').write_text('seed')
    assert outcome_of(body, tmp_path)['error']['kind'] == 'Determinism'


def test_accesses_ordered_by_spawns_joins_and_calls_never_conflict(tmp_path):
    body = (section('Main', "store.write('shared.txt', 'main')\n"
                            "local a = tasks.spawn('Worker', {who = 'a'})\nlocal seen = {tasks.join(a)}\n"
                            "seen[2] = call('Worker', {who = 'b'})\n"
                            "for _, r in ipairs(tasks.fanout('Reader', {{who = 'x'}, {who = 'y'}})) do seen[#seen + 1] = r end\n"
                            "store.write('shared.txt', 'end')\nreturn table.concat(seen, ',')")
            + section('Worker', GUARD + "local before = store.read('shared.txt')\n"
                                        "store.write('shared.txt', args.who)\nreturn before")
            + READER)
    assert run_store(body, tmp_path).result == 'main,a,b,b'
    assert (tmp_path / 'shared.txt').read_text() == 'end'


def test_concurrent_readers_and_separate_files_never_conflict(tmp_path):
    (tmp_path / 'shared.txt').write_text('seed')
    body = (section('Main', "local hs = {}\nfor i = 1, 4 do hs[i] = tasks.spawn('Worker', {who = 'w' .. i}) end\n"
                            "local seen = store.read('shared.txt')\n"
                            "for i = 1, 4 do seen = seen .. ',' .. tasks.join(hs[i]) end\nreturn seen")
            + section('Worker', GUARD + "store.write(args.who .. '.txt', store.read('shared.txt'))\nreturn args.who"))
    assert run_store(body, tmp_path, concurrency=2).result == 'seed,w1,w2,w3,w4'
