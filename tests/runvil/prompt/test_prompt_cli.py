"""`runvil check PROMPT.md`."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from runvil.cli import main

ROOT = Path(__file__).resolve().parents[3]
ERRORS = ROOT / 'conformance' / 'runvil' / 'parse' / 'errors'


@pytest.fixture
def prompt_file(tmp_path):
    def write(text: str, name: str = 'prompt.md') -> str:
        path = tmp_path / name
        path.write_text(text, encoding='utf-8')
        return str(path)
    return write


GOOD = '---\nname: good\nrunvil: 0\n---\n\n# Good\n\n## Plan\n\n- one\n- two\n'


def test_ok(prompt_file, capsys):
    assert main(['check', prompt_file(GOOD)]) == 0
    assert capsys.readouterr().out == 'ok\n'


def test_ok_json(prompt_file, capsys):
    path = prompt_file(GOOD)
    assert main(['check', '--json', path]) == 0
    assert json.loads(capsys.readouterr().out) == {'ok': True, 'file': path, 'error': None}


def test_a_located_error(capsys):
    path = str(ERRORS / 'dup.md')
    assert main(['check', path]) == 1
    captured = capsys.readouterr()
    assert captured.out == ''
    assert captured.err.splitlines() == [
        'error[parse_structure]: line 13: duplicate sibling section name `S`: first declared at line 9, '
        'again at line 13; sibling section names must be unique',
        '  --> %s:13:1' % path]


def test_a_located_error_as_json(capsys):
    path = str(ERRORS / 'dup.md')
    assert main(['check', '--json', path]) == 1
    assert json.loads(capsys.readouterr().out) == {'ok': False, 'file': path, 'error': {
        'code': 'parse_structure', 'kind': 'Structure',
        'message': 'duplicate sibling section name `S`: first declared at line 9, again at line 13; '
                   'sibling section names must be unique',
        'location': {'path': 'dup', 'line': 13, 'column': 1, 'span': [22, 26]}}}


@pytest.mark.parametrize('case, code', [('twice', 'parse_frontmatter'), ('steps', 'parse_list'),
                                        ('open', 'parse_fence'), ('untitled', 'parse_structure')])
def test_an_unlocated_error_has_no_line_prefix(case, code, capsys):
    assert main(['check', str(ERRORS / (case + '.md'))]) == 1
    expected = json.loads((ERRORS / (case + '.json')).read_text())['message']
    assert capsys.readouterr().err == 'error[%s]: %s\n' % (code, expected)


def test_frontmatter_position_is_shown(capsys):
    assert main(['check', str(ERRORS / 'helper.md')]) == 1
    first = capsys.readouterr().err.splitlines()[0]
    assert first.startswith('error[parse_frontmatter]: line 5: invalid frontmatter: uses entry `not a Pack id`')


def test_a_prompt_that_cannot_run_fails_the_check(prompt_file, capsys):
    assert main(['check', prompt_file(GOOD.replace('runvil: 0', 'runvil: 1'))]) == 1
    assert capsys.readouterr().err == \
        'error[version]: unsupported runvil version: 1 (this build supports major 0)\n'
    assert main(['check', prompt_file(GOOD.replace('runvil: 0\n', ''))]) == 1
    assert capsys.readouterr().err == 'error[parse_frontmatter]: not a runvil prompt: no runvil version\n'


def test_unreadable_files(tmp_path, capsys):
    missing = str(tmp_path / 'missing.md')
    assert main(['check', missing]) == 1
    assert capsys.readouterr().err == 'error[io]: cannot read %s: No such file or directory\n' % missing
    binary = tmp_path / 'binary.md'
    binary.write_bytes(b'---\nname: \xff\n')
    assert main(['check', '--json', str(binary)]) == 1
    assert json.loads(capsys.readouterr().out)['error'] == {
        'code': 'io', 'kind': None, 'message': 'cannot read %s: not UTF-8 text (byte 10)' % binary,
        'location': None}


def test_python_dash_m_runvil(prompt_file):
    result = subprocess.run([sys.executable, '-m', 'runvil', 'check', prompt_file(GOOD)],
                            capture_output=True, text=True, cwd=ROOT)
    assert (result.returncode, result.stdout) == (0, 'ok\n')
    result = subprocess.run([sys.executable, '-m', 'runvil', 'check', str(ERRORS / 'open.md')],
                            capture_output=True, text=True, cwd=ROOT)
    assert (result.returncode, result.stderr) == (
        1, 'error[parse_fence]: section `S` prologue `lua` fence is not closed\n')


def test_import_runvil_stays_cheap():
    code = 'import sys, runvil; print("yaml" in sys.modules, "runvil.prompt" in sys.modules)'
    result = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, cwd=ROOT)
    assert result.stdout == 'False False\n'
