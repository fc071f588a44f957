"""``runvil models``: the gateway's model list, plain and --json, and its failures."""
import io
import json

from runvil import cli
from runvil.host.models_command import main


def listing(environ, *argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err, environ=environ)
    return code, out.getvalue(), err.getvalue()


def test_ids_and_the_context_window_where_the_server_says_it(gateway):
    gw = gateway({'model_list': ['gpt-4o-mini', {'id': 'llama3', 'context_length': 8192}]})
    assert listing({'RUNVIL_GATEWAY_URL': gw.url}) == (0, 'gpt-4o-mini\nllama3\t8192\n', '')
    code, out, _ = listing({'RUNVIL_GATEWAY_URL': gw.url}, '--json')
    assert json.loads(out) == {'models': [{'id': 'gpt-4o-mini', 'context_window': None},
                                          {'id': 'llama3', 'context_window': 8192}]}


def test_a_gateway_that_cannot_list(gateway):
    url = gateway().url.replace('/v1', '/nothing')
    assert listing({'RUNVIL_GATEWAY_URL': url}) == (
        1, '', 'runvil models: error: the model backend rejected the request (status 404)\n')


def test_setup_errors_exit_2():
    assert listing({}) == (2, '', 'runvil models: error: missing environment variable: RUNVIL_GATEWAY_URL\n')


def test_the_command_is_registered(gateway, monkeypatch, capsys):
    gw = gateway({'models': {'qwen/qwen3-8b': ['x']}})
    monkeypatch.setenv('RUNVIL_GATEWAY_URL', gw.url)
    assert cli.main(['models']) == 0
    assert capsys.readouterr().out == 'qwen/qwen3-8b\n'
