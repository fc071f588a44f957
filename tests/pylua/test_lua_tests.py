"""The official Lua 5.4.4 test files that pylua passes keep passing.

Runs ``conformance.lua_tests`` (one ``pylua`` process per file, two at a
time); skipped where the folder of official files is absent.  The list grows
as pylua passes more of them.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from conformance.lua_tests.run import official_dir, run_files  # noqa: E402

PASSING = ('bitwise', 'tpack', 'utf8', 'vararg', 'pm', 'math', 'sort', 'strings', 'literals',
           'nextvar', 'constructs', 'events', 'attrib', 'gengc', 'errors', 'cstack',
           'closure', 'goto', 'coroutine', 'locals', 'calls', 'gc', 'db', 'files')


def test_official_files_that_pass_keep_passing():
    folder = official_dir()
    if folder is None:
        pytest.skip('the official Lua 5.4.4 test files are absent')
    failures = [r.line() for r in run_files(PASSING, folder, timeout=180, jobs=2) if not r.passed]
    assert failures == []
