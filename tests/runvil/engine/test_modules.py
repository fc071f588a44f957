"""``require``: Lua modules beside the prompt, loaded through the Harness."""
from pathlib import Path

from engine_helpers import ScriptedAnswers, WaitLibrary, echo, prompt, section
from runvil.harness import EventStream, Harness, RunLimits


def run_files(tmp_path: Path, body: str, files: dict, path: str | None = 'p.md', events=None):
    for name, source in files.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(source)
    harness = Harness(RunLimits(), answerers={'test.wait': ScriptedAnswers(*[echo] * 10)},
                      libraries=(WaitLibrary(),))
    stream = EventStream([events.append] if events is not None else [])
    return harness.run(prompt(body), None if path is None else str(tmp_path / path), events=stream)


def test_a_module_returns_its_value_and_its_file_name(tmp_path):
    body = section('S', "local m, file = require('util.strings')\nreturn m.twice('ab') .. '|' .. file")
    outcome = run_files(tmp_path, body, {'util/strings.lua': "return {twice = function(s) return s .. s end}"})
    assert outcome.result == 'abab|util/strings.lua'


def test_a_module_loads_once_per_vm_and_again_in_each_section(tmp_path):
    events = []
    body = (section('A', "local a = require('counter')\nlocal b = require('counter')\n"
                         "return tostring(a == b) .. '|' .. tostring(a)")
            + section('B', "return tostring(require('counter'))"))
    outcome = run_files(tmp_path, body, {'counter.lua': "log('loading ' .. ...)"}, events=events)
    assert outcome.result == 'true'
    assert [e['message'] for e in events if e['event'] == 'log'] == ['loading counter', 'loading counter']


def test_a_module_runs_in_the_requiring_vm_and_may_suspend(tmp_path):
    body = section('S', "messages:user('hi')\nlocal m = require('probe')\nreturn m.n .. '|' .. m.waited .. '|' .. shared")
    files = {'probe.lua': "shared = 'set by the module'\nreturn {n = #messages, waited = wait('w')}"}
    assert run_files(tmp_path, body, files).result == '1|w|set by the module'


def test_require_failures(tmp_path):
    files = {'bad.lua': 'x = = 1', 'boom.lua': "error('boom at load', 0)", 'loop.lua': "require('loop')"}
    checks = [("require()", "bad argument #1 to 'require' (string expected, got no value)"),
              ("require('../x')", "require: a module name is dot-separated parts of letters, digits and _, got '../x'"),
              ("require('missing')", "module 'missing' not found: no file 'missing.lua' beside the prompt"),
              ("require('bad')", "error loading module 'bad' from file 'bad.lua':\n\tbad.lua:1: unexpected symbol near '='"),
              ("require('boom')", 'boom at load'),
              ("require('loop')", "require: module 'loop' requires itself while it loads")]
    for line, message in checks:
        body = section('S', "local ok, err = pcall(function() %s end)\nreturn tostring(err)" % line)
        assert run_files(tmp_path, body, files).result == message, line
    (tmp_path / 'latin.lua').write_bytes(b'-- \xe9\n')
    body = section('S', "local ok, err = pcall(require, 'latin')\nreturn tostring(err)")
    assert run_files(tmp_path, body, {}).result == \
        "error loading module 'latin' from file 'latin.lua':\n\tnot UTF-8 text (byte 3)"


def test_a_failed_load_can_be_retried(tmp_path):
    body = section('S', "local ok = pcall(require, 'flaky')\nflaky_fail = false\n"
                        "return tostring(ok) .. '|' .. require('flaky')")
    files = {'flaky.lua': "if flaky_fail ~= false then error('not yet', 0) end\nreturn 'loaded'"}
    assert run_files(tmp_path, body, files).result == 'false|loaded'


def test_a_prompt_without_a_file_has_no_modules(tmp_path):
    body = section('S', "local ok, err = pcall(require, 'x')\nreturn tostring(err)")
    assert run_files(tmp_path, body, {}, path=None).result == \
        "module 'x' not found: the prompt has no directory to look in"
