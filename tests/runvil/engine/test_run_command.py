"""runvil run: the CLI contract, plain and --json, events, live log, setup errors."""
import io
import json
import subprocess
import sys
from pathlib import Path

from engine_helpers import block, prompt, section
from runvil.host import main

ROOT = Path(__file__).resolve().parents[3]


def invoke(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def write(tmp_path, body: str, head: str = '', name: str = 'p.md') -> str:
    path = tmp_path / name
    path.write_text(prompt(body, head), encoding='utf-8')
    return str(path)


def test_plain_output_prints_the_result(tmp_path):
    assert invoke(write(tmp_path, section('S', "return 'hello'"))) == (0, 'hello\n', '')


def test_plain_failure_prints_kind_and_message_on_stderr(tmp_path):
    code, out, err = invoke(write(tmp_path, section('S', "error('boom')")))
    assert (code, out, err) == (1, '', 'error[Lua]: t:12: boom\n')


def test_plain_parse_failure_shows_the_location(tmp_path):
    path = write(tmp_path, '## S\n\nA.\n\n## S\n\nB.\n')
    code, out, err = invoke(path)
    assert code == 1 and err.splitlines()[1] == '  --> t:13:1'
    assert err.startswith('error[Parse]: duplicate sibling section name `S`')


def test_json_output_is_exactly_one_object(tmp_path):
    code, out, err = invoke('--json', write(tmp_path, section('S', "return 42")))
    assert code == 0 and out.count('\n') == 1
    assert json.loads(out) == {'outcome': 'completed', 'result': '42', 'error': None}
    code, out, _ = invoke('--json', write(tmp_path, section('S', "error({kind = 'tool', message = 'broke'})")))
    assert code == 1 and json.loads(out) == {'outcome': 'failed', 'result': None, 'error': {
        'kind': 'Tool', 'message': 'broke', 'retryable': False, 'location': None}}


def test_the_prompt_placeholder_shows_the_path_given(tmp_path):
    path = tmp_path / 'bad.md'
    path.write_text('no frontmatter\n')
    code, out, _ = invoke('--json', str(path))
    assert json.loads(out)['error']['location'] == {'path': str(path), 'line': None, 'column': None, 'span': None}
    code, _, err = invoke(str(path))
    assert err == 'error[Parse]: file must begin with a --- frontmatter delimiter\n'


def test_events_file_holds_json_lines_with_the_execution_id(tmp_path):
    events = tmp_path / 'events.jsonl'
    body = section('A', "log('one')") + section('B', "log('two') return 'done'")
    assert invoke('--events', str(events), write(tmp_path, body))[0] == 0
    lines = [json.loads(line) for line in events.read_text().splitlines()]
    assert len({line['execution_id'] for line in lines}) == 1 and all('time' in line for line in lines)
    assert [(line['event'], line.get('section')) for line in lines] == [
        ('run_started', None), ('prepared', None), ('section_started', 'A'), ('log', 'A'),
        ('section_finished', 'A'), ('section_started', 'B'), ('log', 'B'), ('section_finished', 'B'),
        ('run_finished', None)]
    assert lines[-1]['outcome'] == 'completed' and lines[-1]['result'] == 'done'


def test_live_log_checkpoints_go_to_stderr(tmp_path):
    body = block("log('warming up')") + '\n' + section('Work', "log('working')", "return 'ok'")
    assert invoke('--log', write(tmp_path, body)) == (0, 'ok\n', '[H1] warming up\n[Work] working\n')


def test_limits_flags_and_config(tmp_path):
    body = section('S', "local ok, e = pcall(function() for i = 1, 10 do log('x') end end)\n"
                        "return ok and 'all logged' or e.message")
    path = write(tmp_path, body)
    assert invoke('--log-event-quota', '3', path)[1] == 'lua log event budget exceeded\n'
    config = tmp_path / 'runvil.toml'
    config.write_text('[limits]\nlog_event_quota = 20\n')
    assert invoke('--config', str(config), path)[1] == 'all logged\n'
    assert invoke('--config', str(config), '--log-event-quota', '3', path)[1] == 'lua log event budget exceeded\n'
    hoard = write(tmp_path, section('S', "local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 16384) end"), name='h.md')
    assert invoke('--memory-ceiling', '4MiB', '--json', hoard)[0] == 1


def test_args_and_input(tmp_path):
    head = 'args:\n  - name: who\ninput:\n  required: false\n'
    path = write(tmp_path, section('S', "return args.who .. ':' .. tostring(input.text)"), head)
    assert invoke('--set', 'who=ada', path)[1] == 'ada:nil\n'
    assert invoke('--set', 'who=ada', '--input', 'text', path)[1] == 'ada:text\n'
    source = tmp_path / 'in.txt'
    source.write_text('from a file')
    assert invoke('--set', 'who=b', '--input-file', str(source), path)[1] == 'b:from a file\n'
    code, _, err = invoke(path)
    assert code == 1 and err == 'error[Input]: arg `who` is required, but no value was given\n'


def test_setup_errors_exit_2_without_running(tmp_path):
    assert invoke(str(tmp_path / 'missing.md')) == \
        (2, '', 'runvil run: error: cannot read prompt %s: No such file or directory\n' % (tmp_path / 'missing.md'))
    path = write(tmp_path, section('S', "return 1"))
    assert invoke('--set', 'novalue', path)[0] == 2
    assert invoke('--concurrency', '0', path) == \
        (2, '', 'runvil run: error: concurrency must be a whole number of at least 1, got 0\n')


def test_the_real_command(tmp_path):
    path = write(tmp_path, section('S', "return 'from the shell'"))
    done = subprocess.run([sys.executable, '-m', 'runvil', 'run', path], capture_output=True, text=True, cwd=ROOT)
    assert (done.returncode, done.stdout, done.stderr) == (0, 'from the shell\n', '')
    done = subprocess.run([sys.executable, '-m', 'runvil', 'run', '--help'], capture_output=True, text=True, cwd=ROOT)
    assert '--memory-ceiling' in done.stdout and '--events' in done.stdout


def test_packs_come_from_pack_modules(tmp_path):
    path = write(tmp_path, section('S', "return tools.call('web/search', { query = 'sea' })"), head='uses:\n  - web\n')
    assert invoke(path)[2] == 'error[RequirementsUnmet]: the environment cannot satisfy this prompt:\n' \
                              '- Pack `web` is not available to this run\n'
    assert invoke('--pack', 'runvil.testing.packs', path) == (0, 'The sea (https://example.test/sea)\n', '')
    config = tmp_path / 'c.toml'
    config.write_text('[packs]\nmodules = ["runvil.testing.packs"]\n', encoding='utf-8')
    assert invoke('--config', str(config), path)[0] == 0
    assert invoke('--pack', 'no.such.module', path) == \
        (2, '', "runvil run: error: cannot import Pack module no.such.module: No module named 'no'\n")
    assert invoke('--pack', 'json', path) == (2, '', 'runvil run: error: Pack module json has no PACKS list of Pack values\n')


def test_stream_shows_replies_as_they_arrive(tmp_path, gateway):
    gw = gateway([{'text': 'Hello there, world', 'chunk_chars': 5}, 'second'])
    path = write(tmp_path, section('S', "models.use('writer')\nmessages:user('hi')\nmodels.loop()\n"
                                        "return models.infer('again')"), head='models:\n  writer: {}\n')
    out, err = io.StringIO(), io.StringIO()
    assert main(['--stream', path], out, err, environ={'RUNVIL_GATEWAY_URL': gw.url}) == 0
    assert out.getvalue() == 'second\n'
    assert err.getvalue() == '[S chat] Hello there, world\n[S infer] second\n'
