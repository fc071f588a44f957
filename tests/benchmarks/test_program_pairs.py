"""The object-oriented benchmark pairs compute the same thing: each
``.py`` twin prints, on CPython, the line its ``.lua`` program prints on the
reference interpreter.  (pylua's agreement is checked by every run of
``python -m benchmarks``; running it here would cost too long.)"""
import pytest

from benchmarks.impls import CPython, Lua54, RunFailed
from benchmarks.runner import discover

OO_PROGRAMS = [p for p in discover() if p.suite == 'oo']
LUA = Lua54()


def test_the_object_oriented_suite_is_found():
    names = {p.name for p in OO_PROGRAMS}
    assert names >= {'oo/cd', 'oo/deltablue', 'oo/havlak', 'oo/json', 'oo/lists',
                     'oo/records', 'oo/richards'}
    assert all(p.description for p in OO_PROGRAMS)


@pytest.mark.skipif(not LUA.available, reason='lua5.4 is not installed')
@pytest.mark.parametrize('program', OO_PROGRAMS, ids=lambda p: p.name)
def test_python_twin_prints_what_lua_prints(program):
    cpython = CPython()
    try:
        _, expected = LUA.run_once(LUA.prepare(program))
        _, printed = cpython.run_once(cpython.prepare(program))
    except RunFailed as exc:
        pytest.fail('%s failed: %s' % (program.name, exc))
    assert expected.count('\n') == 1 and expected.startswith(program.name.split('/')[-1] + ': ')
    assert printed == expected
