"""The pylua command: the CLI contract external tests rely on."""
import os
import pathlib
import subprocess
import sys

ROOT = str(pathlib.Path(__file__).resolve().parents[2])


def pylua(*args, input=None, cwd=None):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get('PYTHONPATH', ''))
    return subprocess.run([sys.executable, '-m', 'pylua', *args], input=input, cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def test_runs_a_file_with_args(tmp_path):
    (tmp_path / 'a.lua').write_text('#!/usr/bin/env lua\nprint(arg[0], arg[1], ...)\n')
    r = pylua('a.lua', 'x', 'y', cwd=tmp_path)
    assert (r.returncode, r.stdout) == (0, 'a.lua\tx\tx\ty\n')


def test_uncaught_error_prints_message_and_traceback_and_exits_1(tmp_path):
    (tmp_path / 'e.lua').write_text('local t\nprint(t.x)\n')
    r = pylua('e.lua', cwd=tmp_path)
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert lines[0] == "pylua: e.lua:2: attempt to index a nil value (local 't')"
    assert lines[1] == 'stack traceback:'


def test_syntax_error(tmp_path):
    (tmp_path / 's.lua').write_text('x = = 1\n')
    r = pylua('s.lua', cwd=tmp_path)
    assert (r.returncode, r.stderr) == (1, "pylua: s.lua:1: unexpected symbol near '='\n")


def test_execute_statement_and_stdin():
    assert pylua('-e', 'print(1 + 1, _VERSION)').stdout == '2\tLua 5.4\n'
    assert pylua('-', 'a', input='print(...)').stdout == 'a\n'


def test_listing(tmp_path):
    (tmp_path / 'f.lua').write_text('local function f(n) return n + 1 end\nprint(f(1))\n')
    r = pylua('-l', 'f.lua', cwd=tmp_path)
    assert r.returncode == 0
    assert 'main <f.lua:0,0>' in r.stdout and 'CLOSURE' in r.stdout and 'ADD' in r.stdout


def test_repl_evaluates_expressions_and_statements():
    r = pylua(input='x = 6\nx * 7\nfunction f(\n)\nreturn "multi-line" end\nprint(f())\n')
    assert '42\n' in r.stdout
    assert 'multi-line\n' in r.stdout


def test_os_exit_code(tmp_path):
    (tmp_path / 'x.lua').write_text('os.exit(3)')
    assert pylua('x.lua', cwd=tmp_path).returncode == 3


def test_output_into_a_closed_pipe_ends_quietly_as_lua_c_does():
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get('PYTHONPATH', ''))
    proc = subprocess.Popen([sys.executable, '-m', 'pylua', '-e', 'for i = 1, 1e6 do print(i) end'],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout.readline() == b'1\n'
    proc.stdout.close()                   # as `head -1` does
    stderr = proc.stderr.read()
    assert proc.wait(timeout=60) == -13 and stderr == b''     # SIGPIPE, like lua5.4
