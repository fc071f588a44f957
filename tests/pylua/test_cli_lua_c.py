"""The pylua command against lua5.4's lua.c: options, arg, LUA_INIT, messages
and exit codes come out the same (with the program's name swapped)."""
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = str(pathlib.Path(__file__).resolve().parents[2])
LUA = shutil.which('lua5.4')

SCRIPT = 'print("args", ...)\nfor i = -3, #arg do print(i, arg[i]) end\n'
MODULE = 'local M = {}\nfunction M.greet(who) return "hi " .. who end\nreturn M\n'

CASES = [
    ['-x'], ['-e'], ['-E', '-W', '-ix'],
    ['-W', '-e', 'x=1', 'a.lua', 'p', 'q'],
    ['-e', 'print(1)', '--', 'a.lua', '-e'],
    ['-lgreet', '-l', 'g=greet', '-e', 'print(greet.greet("you"), g == greet)'],
    ['-l', 'nosuch', '-e', 'print(1)'],
    ['-e', 'print(package.path) print(package.cpath)'],
    ['-e', 'error(setmetatable({}, {__tostring = function() return "custom" end}))'],
    ['-e', 'print(1)', '-e', 'x ='],
    ['nofile.lua'],
    ['-', 'a', 'b'],
    ['-e', 'setmetatable({}, {__gc = function() print("finalized") end}) os.exit(3, true)'],
    ['-e', 'setmetatable({}, {__gc = function() error("boom") end}) warn("a", "b")', '-W'],
    # Tracebacks: levels named by their callers, the library function that
    # raised, tail calls, error objects, and a stack overflow's ends.
    ['-e', 'local function f() error("deep") end local function g() f() end local function h() return g() end h()'],
    ['-e', 'local t = {m = function() string.rep() end} function glob() t.m() end local o = {} '
           'function o:meth() glob() end o:meth()'],
    ['-e', 'error({})'],
    ['-e', 'local x = nil + 1'],
    ['-e', 'local function f() return 1 + f() end f()'],
]


def run(cmd, args, env_extra, cwd):
    env = dict(os.environ, PYTHONPATH=ROOT, **env_extra)
    for name in ('LUA_INIT', 'LUA_INIT_5_4', 'LUA_PATH', 'LUA_PATH_5_4'):
        if name not in env_extra:
            env.pop(name, None)
    r = subprocess.run(cmd + args, input=b'print("stdin", ...)\n', cwd=cwd, env=env,
                       capture_output=True, timeout=60)
    return r.returncode, r.stdout, r.stderr


def _same_as_lua(args, tmp_path, env_extra=None):
    (tmp_path / 'a.lua').write_text(SCRIPT)
    (tmp_path / 'greet.lua').write_text(MODULE)
    code, out, err = run([LUA], args, env_extra or {}, tmp_path)
    mine = run([sys.executable, '-m', 'pylua'], args, env_extra or {}, tmp_path)
    expected = (code, out.replace(LUA.encode(), b'pylua'), err.replace(LUA.encode(), b'pylua'))
    assert mine[:2] == expected[:2]
    assert _any_depth(mine[2]) == _any_depth(expected[2])


def _any_depth(err):
    """A stack overflow's depth is the implementation's (lua5.4 ~500,000, pylua ~220,000)."""
    return re.sub(rb'\(skipping \d+ levels\)', b'(skipping N levels)', err)


@pytest.mark.skipif(LUA is None, reason='lua5.4 is not installed')
@pytest.mark.parametrize('args', CASES, ids=[' '.join(c) for c in CASES])
def test_like_lua_c(args, tmp_path):
    _same_as_lua(args, tmp_path)


@pytest.mark.skipif(LUA is None, reason='lua5.4 is not installed')
@pytest.mark.parametrize('init', ['@a.lua', 'error("in init")'])
def test_lua_init_and_E(init, tmp_path):
    _same_as_lua(['-e', 'print(2)'], tmp_path, {'LUA_INIT': init})
    _same_as_lua(['-E', '-e', 'print(3)'], tmp_path, {'LUA_INIT_5_4': 'print("5.4 first")', 'LUA_INIT': init})


@pytest.mark.skipif(LUA is None, reason='lua5.4 is not installed')
def test_nesting_limits_count_the_c_levels_of_each_way_to_load(tmp_path):
    # lparser.c's C levels start from those open where the chunk is parsed:
    # require's searcher runs one level deeper than load, dofile and loadfile.
    for n in range(193, 197):
        (tmp_path / ('m%d.lua' % n)).write_text('return ' + '(' * n + '1' + ')' * n)
    _same_as_lua(['-e', 'for n = 193, 196 do print(n, pcall(require, "m" .. n)) '
                        'print(n, pcall(dofile, "m" .. n .. ".lua")) '
                        'print(n, loadfile("m" .. n .. ".lua") ~= nil) end'], tmp_path)
    (tmp_path / 'deep.lua').write_text('x = ' + '(' * 197 + '1' + ')' * 197)
    _same_as_lua(['deep.lua'], tmp_path)
    _same_as_lua(['-e', 'x = ' + '(' * 197 + '1' + ')' * 197], tmp_path)


@pytest.mark.skipif(LUA is None, reason='lua5.4 is not installed')
def test_streams_buffer_as_c_stdio_does(tmp_path):
    # Into one pipe, as `lua x.lua 2>&1 | cat`: print flushes its line,
    # io.write's text waits in stdout's buffer, stderr (warnings, error
    # reports, io.stderr) goes out at once, and a command run by os.execute
    # writes before what is still buffered.  Python's own buffering is left
    # on (no PYTHONUNBUFFERED) as a user's shell has it.
    (tmp_path / 'order.lua').write_text(
        'print("printed")\nio.write("buffered ")\nio.stderr:write("to stderr\\n")\n'
        'warn("@on") warn("a warning")\nos.execute("echo from the shell")\n'
        'io.write("more ")\nerror("the end")\n')

    def merged(cmd):
        env = {k: v for k, v in os.environ.items() if k not in ('PYTHONUNBUFFERED', 'LUA_INIT', 'LUA_INIT_5_4')}
        env['PYTHONPATH'] = ROOT
        r = subprocess.run(cmd + ['order.lua'], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=60)
        return r.returncode, r.stdout

    code, out = merged([LUA])
    assert merged([sys.executable, '-m', 'pylua']) == (code, out.replace(LUA.encode(), b'pylua'))
