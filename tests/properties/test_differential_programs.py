"""The differential fuzzer: random programs from the whole grammar
(``lua_programs``) print the same on pylua, run plainly and inside a
coroutine, as on the reference lua5.4, and end with the same error message.
Without lua5.4 it still checks that nothing but a LuaError leaves pylua.

A long campaign, in batches that cost each program its own run only:
``python -m tests.properties.campaign SECONDS`` (see there).
"""
import io
import os
import random
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from pylua.cli import run_file
from tests.properties.lua_programs import program

LUA = shutil.which('lua5.4')
CHUNK = 'fuzz.lua'


@dataclass(frozen=True)
class Outcome:
    stdout: bytes
    error: str | None           # the uncaught error's message, without the interpreter's prefix


def _outcome(stdout, error):
    # An address (a table or function turned into a string) differs between
    # any two runs.
    return Outcome(re.sub(rb': 0x[0-9a-f]+', b': 0x', stdout),
                   None if error is None else re.sub(r': 0x[0-9a-f]+', ': 0x', error))


def run_pylua(directory, source):
    path = os.path.join(directory, CHUNK)
    with open(path, 'w', encoding='latin-1') as fh:
        fh.write(source)
    out, err = io.BytesIO(), io.BytesIO()
    cwd = os.getcwd()
    os.chdir(directory)
    try:
        code = run_file(CHUNK, [], out, err)
    finally:
        os.chdir(cwd)
    text = err.getvalue().decode('latin-1')
    assert 'internal error' not in text, text
    return _outcome(out.getvalue(), _message(text, 'pylua: ') if code else None)


def run_lua(directory, source):
    with open(os.path.join(directory, CHUNK), 'w', encoding='latin-1') as fh:
        fh.write(source)
    done = subprocess.run(['lua5.4', CHUNK], executable=LUA, cwd=directory, capture_output=True, timeout=20)
    return _outcome(done.stdout, _message(done.stderr.decode('latin-1'), 'lua5.4: ') if done.returncode else None)


def _message(stderr, prefix):
    first = stderr.split('\n')[0]
    return first[len(prefix):] if first.startswith(prefix) else first


def differences(seed, small=False):
    """The ways pylua differs from lua5.4 (or, without it, from itself in a
    coroutine) on the two programs of ``seed``."""
    found = []
    with tempfile.TemporaryDirectory() as directory:
        for in_coroutine in (False, True):
            source = program(random.Random(seed), in_coroutine, small)
            mine = run_pylua(directory, source)
            if LUA is not None:
                theirs = run_lua(directory, source)
                if mine != theirs:
                    found.append((source, mine, theirs))
    return found


# Each example runs two programs on pylua and lua5.4, most of them small
# ones (a tenth of the time of a big one): a few in the quick profile, more
# with --slow, any number with PYLUA_FUZZ_EXAMPLES.
EXAMPLES = int(os.environ.get('PYLUA_FUZZ_EXAMPLES', 12 if settings.default.max_examples <= 25 else 200))


@settings(max_examples=EXAMPLES)
@given(st.integers(0, 2 ** 32), st.sampled_from([True] * 4 + [False]))
def test_pylua_runs_random_programs_as_lua_does(seed, small):
    found = differences(seed, small)
    assert not found, 'pylua %r\nlua5.4 %r\n%s' % (found[0][1], found[0][2], found[0][0])
