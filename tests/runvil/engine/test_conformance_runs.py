"""Every case in conformance/runvil/ through runvil run --json: all of them
in-process through the Host's entry point, a few as real subprocesses."""
import pytest

from conformance.runvil.runner import load_cases, problems, run_case

CASES = load_cases()
BY_NAME = {case.name: case for case in CASES}


def test_the_suite_is_there():
    names = set(BY_NAME)
    for example in ('steady', 'chatty', 'counter', 'hoarder', 'spinner', 'future', 'future-version-1',
                    'summary', 'brief-503', 'brief-429-quota', 'patient'):
        assert 'run/limits-and-errors--' + example in names
    for example in ('fresh-lists', 'records', 'builders', 'system-first', 'read-records', 'read-records-view'):
        assert 'run/conversations--' + example in names
    assert {'parse/transform', 'parse/dup', 'parse/unclosed-frontmatter', 'parse/twice'} <= names


@pytest.mark.parametrize('case', CASES, ids=lambda case: case.name)
def test_case_in_process(case):
    assert problems(case, run_case(case, 'inprocess')) == []


@pytest.mark.parametrize('name', ['run/limits-and-errors--steady', 'run/limits-and-errors--spinner',
                                  'run/limits-and-errors--hoarder-4mib', 'parse/dup',
                                  'run/limits-and-errors--summary', 'run/limits-and-errors--patient'])
def test_case_as_a_real_command(name):
    case = BY_NAME[name]
    assert problems(case, run_case(case, 'process')) == []
