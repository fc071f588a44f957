"""Realistic multi-module Lua programs (tests/pylua/lua_programs/) give the
same output, errors and exit codes on pylua as on lua5.4.

``report/`` is a report generator built from a class library, a JSON codec,
a template engine and a command-line argument parser: it exercises
``require`` of modules in subfolders, metatables and inheritance, closures,
string patterns, ``load`` with an environment, ``io`` files and ``os.exit``.

``wordstat/`` counts words in text files with modules of its own (a
coroutine tokenizer over ``io.lines``, a multiset whose operators are
metamethods, settings behind ``__index``/``__newindex``/``__pairs`` with
errors at the caller's level) and the report's argument parser and JSON
codec, found through ``package.path``; it writes, seeks and removes a file
and formats dates.

``calc/`` runs scripts of a small language: a lexer yielding tokens from a
coroutine (patterns, ``goto continue``, error objects with ``__tostring``),
a Pratt parser whose handlers are closures in tables, node classes three
levels deep through ``__index`` chains (``__len``, ``__name``), and an
evaluator with scopes chained by ``__index``, closures called through
``__call``, ``return`` unwinding as an error object through ``pcall``,
``xpcall`` handlers, ``table.pack``/``unpack``/``move``/``sort`` and
``string.format``.
"""
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROGRAMS = pathlib.Path(__file__).resolve().parent / 'lua_programs'
LUA = shutil.which('lua5.4')

RUNS = [
    ('report', ['-v', 'orders.json']),
    ('report', ['--format=json', '--discount', '0.1', 'orders.json']),
    ('report', ['--format=xml', 'orders.json']),
    ('report', ['bad.json']),
    ('wordstat', ['--top=4', 'alice.txt', 'numbers.txt']),
    ('wordstat', ['--min=5', '--json=out.json', 'numbers.txt']),
    ('wordstat', ['--bogus', 'alice.txt']),
    ('wordstat', ['missing.txt']),
    ('calc', ['numbers.calc', 'closures.calc', 'text.calc']),
    ('calc', ['--ast', '--stats', 'closures.calc', 'numbers.calc']),
    ('calc', ['errors.calc', 'syntax.calc', 'lexical.calc', 'missing.calc']),
    ('calc', ['-e', 'print 1 + 2, "x" .. 3 .. [4], 2 ^ 0.5;']),
    ('calc', ['--bogus']),
]


def _run(cmd, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for name in ('LUA_INIT', 'LUA_INIT_5_4', 'LUA_PATH', 'LUA_PATH_5_4'):
        env.pop(name, None)
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, timeout=120)
    return r.returncode, r.stdout, r.stderr


@pytest.mark.skipif(LUA is None, reason='lua5.4 is not installed')
@pytest.mark.parametrize('program,args', RUNS, ids=[' '.join([p] + a) for p, a in RUNS])
def test_program_runs_as_on_lua(program, args, tmp_path):
    shutil.copytree(PROGRAMS, tmp_path / 'programs')    # a program may use its neighbours' modules
    work = tmp_path / 'programs' / program
    expected = _run([LUA, 'main.lua', *args], work)
    actual = _run([sys.executable, '-m', 'pylua', 'main.lua', *args], work)
    assert actual == (expected[0], expected[1], expected[2].replace(LUA.encode(), b'pylua'))
