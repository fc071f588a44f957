"""Compiled chunks kept on disk (``pylua.compiler.chunk_store``): a chunk
read from a file is translated once, then loaded from the store, and runs
exactly as a fresh translation does."""
import io
import os
import pathlib
import stat
import subprocess
import sys

import pytest

from pylua import LuaError, LuaRuntime, open_chunk_store
from pylua.compiler import chunk_store, pipeline

ROOT = str(pathlib.Path(__file__).resolve().parents[2])

PROGRAM = r'''
local Account = {}
Account.__index = Account
function Account.new(b) return setmetatable({balance = b}, Account) end
function Account:deposit(v) self.balance = self.balance + v; coroutine.yield(self.balance) end
local a = Account.new(10)
local co = coroutine.wrap(function() for i = 1, 3 do a:deposit(i) end return 'done' end)
print(co(), co(), co(), co())
local function bad(t) return t.x.y end
print(pcall(bad, {}))
print(debug.traceback('here', 1))
print(select('#', string.byte(('x'):rep(10), 1, -1)))
bad({})
'''


@pytest.fixture
def store(tmp_path):
    directory = tmp_path / 'chunks'
    assert open_chunk_store(directory)
    pipeline._CACHE.clear()
    yield directory
    open_chunk_store(None)
    pipeline._CACHE.clear()


def _entries(directory):
    return sorted(p.name for p in directory.iterdir() if p.suffix == '.chunk')


def _run_file(path):
    """What running ``path`` prints, and its error."""
    out = io.StringIO()
    rt = LuaRuntime(profile='standalone', stdout=out)
    try:
        rt.execute('dofile(...)', str(path))
    except LuaError as e:
        out.write('error: %s\n' % e)
    return out.getvalue().splitlines()


def _forget_process_cache():
    pipeline._CACHE.clear()


def test_a_file_chunk_is_stored_then_loaded_without_translating(store, tmp_path, monkeypatch):
    path = tmp_path / 'account.lua'
    path.write_text(PROGRAM)
    fresh = _run_file(path)
    assert len(_entries(store)) == 1
    _forget_process_cache()

    def refuse(*args, **kwargs):
        raise AssertionError('translated again')
    monkeypatch.setattr(pipeline, 'translate', refuse)
    monkeypatch.setattr(pipeline, '_compile_python', refuse)
    compiled = pipeline.compile_lua(PROGRAM, pipeline.display_name('@' + str(path)), '@' + str(path), from_file=True)
    assert compiled.main_factory.startswith('Fh')
    monkeypatch.undo()
    _forget_process_cache()
    stored = _run_file(path)
    assert stored == fresh
    assert stored[0] == '11\t13\t16\tdone'          # a generator form, translated again when needed
    assert stored[-1].startswith('error: ') and 'attempt to index a nil value' in stored[-1]


def test_the_command_runs_a_stored_chunk_as_a_fresh_one(tmp_path):
    (tmp_path / 'account.lua').write_text(PROGRAM)
    env = dict(os.environ, PYTHONPATH=ROOT, PYLUA_CACHE_DIR=str(tmp_path / 'chunks'))

    def run():
        return subprocess.run([sys.executable, '-m', 'pylua', 'account.lua'], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60)
    first, second = run(), run()
    assert _entries(tmp_path / 'chunks')
    assert (first.returncode, first.stdout, first.stderr) == (second.returncode, second.stdout, second.stderr)
    assert second.returncode == 1
    assert second.stderr.splitlines()[:3] == [
        "pylua: account.lua:9: attempt to index a nil value (field 'x')",
        'stack traceback:', "\taccount.lua:9: in local 'bad'"]
    off = subprocess.run([sys.executable, '-m', 'pylua', '-e', 'print(1)'], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60, env=dict(env, PYLUA_CACHE_DIR='', HOME=str(tmp_path / 'home')))
    assert off.stdout == '1\n' and not (tmp_path / 'home').exists()


def test_strings_a_program_loads_are_never_stored(store):
    rt = LuaRuntime(profile='standalone')
    assert rt.execute("local f = load('return 1 + ...', '=x'); return f(1)") == 2
    assert rt.execute("local f = load('return 2 + ...', '@named.lua'); return f(1)") == 3
    assert _entries(store) == []


def test_a_damaged_or_foreign_entry_is_translated_again(store, tmp_path):
    path = tmp_path / 'm.lua'
    path.write_text('return 40 + 2')
    rt = LuaRuntime(profile='standalone')
    assert rt.execute('return dofile(...)', str(path)) == 42
    (entry,) = store.iterdir()
    entry.write_bytes(entry.read_bytes()[:100])
    _forget_process_cache()
    assert LuaRuntime(profile='standalone').execute('return dofile(...)', str(path)) == 42
    assert len(entry.read_bytes()) > 100                 # written again whole
    chunk_store._STORE._fingerprint = b'another pylua'
    _forget_process_cache()
    assert LuaRuntime(profile='standalone').execute('return dofile(...)', str(path)) == 42
    assert len(_entries(store)) == 2


def test_a_directory_others_may_write_is_refused(tmp_path):
    shared = tmp_path / 'shared'
    shared.mkdir()
    shared.chmod(0o777)
    try:
        assert not open_chunk_store(shared)
        assert chunk_store.store_for(True) is None
    finally:
        open_chunk_store(None)
    assert open_chunk_store(tmp_path / 'own')
    try:
        assert stat.S_IMODE((tmp_path / 'own').stat().st_mode) == 0o700
        assert chunk_store.store_for(True) is not None and chunk_store.store_for(False) is None
    finally:
        open_chunk_store(None)


def test_the_store_drops_the_least_recently_used_past_its_bound(store, tmp_path, monkeypatch):
    rt = LuaRuntime(profile='standalone')
    for n in range(4):
        (tmp_path / ('m%d.lua' % n)).write_text('return %d' % n)
        rt.execute('return dofile(...)', str(tmp_path / ('m%d.lua' % n)))
    sizes = sorted(p.stat().st_size for p in store.iterdir())
    monkeypatch.setattr(chunk_store, 'MAX_BYTES', sizes[0] * 2 + sizes[0] // 2)
    (tmp_path / 'last.lua').write_text('return 9')
    rt.execute('return dofile(...)', str(tmp_path / 'last.lua'))
    assert len(_entries(store)) == 2


def test_a_stored_chunk_is_charged_as_a_fresh_one(store, tmp_path):
    path = tmp_path / 'big.lua'
    path.write_text('\n'.join('function f%d(a, b) return a * %d + b end' % (n, n) for n in range(300)))

    def growth():
        _forget_process_cache()
        rt = LuaRuntime(profile='standalone')
        before = rt.execute("collectgarbage(); return collectgarbage('count')")
        rt.execute('dofile(...)', str(path))
        return rt.execute("collectgarbage(); return collectgarbage('count')") - before
    fresh = growth()
    assert _entries(store)
    stored = growth()
    assert fresh > 100 and 0.8 < stored / fresh < 1.25


def test_storing_many_new_chunks_scans_the_directory_once(store, tmp_path, monkeypatch):
    """Each store scanned every entry to keep the bound: loading 4,000 new
    files took 55 s, and a big store slowed every process that compiled
    a file.  Now a process scans once and counts what it adds."""
    scans = []
    real_scandir = chunk_store.os.scandir

    def counting_scandir(path='.'):
        if str(path) == str(store):
            scans.append(path)
        return real_scandir(path)
    monkeypatch.setattr(chunk_store.os, 'scandir', counting_scandir)
    rt = LuaRuntime(profile='standalone')
    for n in range(30):
        (tmp_path / ('n%d.lua' % n)).write_text('return %d' % n)
        assert rt.execute('return dofile(...)', str(tmp_path / ('n%d.lua' % n))) == n
    assert len(_entries(store)) == 30 and len(scans) <= 1
