"""Run the official Lua 5.4.4 test files on pylua, one ``pylua`` process each.

Usage::

    python -m conformance.lua_tests [NAME ...] [--timeout S] [--jobs N] [--lua PATH]

The files are read from ``../shared/lua-5.4.4-tests/`` beside the repository
(or ``--dir``/``LUA_TESTS_DIR``) and never copied into the project: each run
works in a fresh temporary folder holding a copy of the whole folder.  As the
folder's README shows, each file runs with the mode globals in front of its
line 1 (``_U=true _soft=true _port=true _nomsg=true``), so line numbers stay
the file's own.  A file passes when the process exits 0 having printed its
closing ``OK`` line.  Output: ``PASS name`` or ``FAIL name: first error``
per file, then ``N passed, M failed``.  ``--lua lua5.4`` runs the reference
interpreter instead, to prove a file's expectations.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULT_DIR = REPO_ROOT.parent / 'shared' / 'lua-5.4.4-tests'

#: The files that need neither the C test library nor io.popen (files.lua
#: writes temporary files, and leaves io.popen to non-portable runs).
PORTABLE_FILES = (
    'bitwise', 'tpack', 'utf8', 'vararg', 'pm', 'math', 'sort', 'strings', 'literals',
    'nextvar', 'constructs', 'closure', 'goto', 'events', 'calls', 'coroutine', 'errors',
    'attrib', 'locals', 'gc', 'gengc', 'cstack', 'db', 'files',
)
#: The line a file prints last when it passes: OK, but files.lua ends with _VERSION.
CLOSING_LINES = {'files': 'lua 5.4'}
MODE_GLOBALS = b'_U=true _soft=true _port=true _nomsg=true '
DEFAULT_TIMEOUT = 120.0


@dataclass(frozen=True)
class FileResult:
    name: str
    passed: bool
    detail: str         # the first error line when failed
    seconds: float

    def line(self) -> str:
        return 'PASS %s' % self.name if self.passed else 'FAIL %s: %s' % (self.name, self.detail)


def official_dir() -> Path | None:
    """The folder of official files, or None where it is absent."""
    given = os.environ.get('LUA_TESTS_DIR')
    folder = Path(given) if given else DEFAULT_DIR
    return folder if (folder / 'all.lua').is_file() else None


def pylua_command() -> list[str]:
    return [sys.executable, '-m', 'pylua']


def _first_error(stdout: str, stderr: str, code: int) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    if lines and lines[0].startswith('Traceback'):
        return 'crash: ' + lines[-1]        # a Python traceback ends with the exception
    if lines:
        return lines[0]
    tail = [line for line in stdout.splitlines() if line.strip()]
    return 'exit %d, last output %r' % (code, tail[-1] if tail else '')


def run_file(name: str, source_dir: Path, command: list[str], timeout: float) -> FileResult:
    import time
    with tempfile.TemporaryDirectory(prefix='lua_tests_') as work:
        work_dir = Path(work) / 'testes'
        shutil.copytree(source_dir, work_dir)
        script = work_dir / ('run_%s.lua' % name)
        script.write_bytes(MODE_GLOBALS + (source_dir / (name + '.lua')).read_bytes())
        env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
        env.pop('LUA_INIT', None)
        env.pop('LUA_INIT_5_4', None)
        start = time.monotonic()
        try:
            proc = subprocess.run(command + [script.name], cwd=work_dir, env=env,
                                  stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return FileResult(name, False, 'timed out after %g s' % timeout, timeout)
        seconds = time.monotonic() - start
    stdout = proc.stdout.decode('latin-1')
    stderr = proc.stderr.decode('latin-1')
    lines = [line for line in stdout.splitlines() if line.strip()]
    # Each file ends by printing OK (utf8.lua: ok; see CLOSING_LINES); gc.lua's finalizers print after it.
    closing = CLOSING_LINES.get(name, 'ok')
    passed = proc.returncode == 0 and any(line.strip().lower() == closing for line in lines)
    detail = '' if passed else _first_error(stdout, stderr, proc.returncode)
    return FileResult(name, passed, detail, seconds)


def run_files(names, source_dir: Path, command=None, timeout=DEFAULT_TIMEOUT, jobs=2):
    """Results in the order of ``names``; the files run ``jobs`` at a time."""
    command = command or pylua_command()
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(lambda n: run_file(n, source_dir, command, timeout), names))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog='python -m conformance.lua_tests', description=__doc__.split('\n')[0])
    parser.add_argument('names', nargs='*', help='files to run, without .lua (default: the 24 portable files)')
    parser.add_argument('--timeout', type=float, default=DEFAULT_TIMEOUT, help='seconds per file')
    parser.add_argument('--jobs', type=int, default=2, help='files run at once')
    parser.add_argument('--dir', type=Path, help='folder of the official files')
    parser.add_argument('--lua', help='run this interpreter instead of pylua (e.g. lua5.4)')
    parser.add_argument('--times', action='store_true', help='show each file\'s seconds')
    args = parser.parse_args(argv)
    source_dir = args.dir if args.dir else official_dir()
    if source_dir is None or not (source_dir / 'all.lua').is_file():
        print('SKIP: the official Lua 5.4.4 test files are absent (looked in %s; set LUA_TESTS_DIR)'
              % (args.dir or DEFAULT_DIR))
        return 0
    names = args.names or list(PORTABLE_FILES)
    command = [args.lua] if args.lua else None
    passed = failed = 0
    for result in run_files(names, source_dir, command, args.timeout, args.jobs):
        print(result.line() + (' (%.1f s)' % result.seconds if args.times else ''), flush=True)
        if result.passed:
            passed += 1
        else:
            failed += 1
    print('%d passed, %d failed' % (passed, failed))
    return 0 if failed == 0 else 1
