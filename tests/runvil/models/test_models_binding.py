"""How prepare binds and checks roles, and the Host's model settings:
flags, the config file's [models] table, and when model access is on."""
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gateway_runs import prompt, section
from runvil.engine import Environment, ModelBinding
from runvil.host import main
from runvil.host.model_settings import build_environment
from runvil.host.settings import SettingsError

ROOT = Path(__file__).resolve().parents[3]
ROLES = ('models:\n  writer: {}\n  reviewer:\n    model: small-reviewer\n'
         '  planner:\n    model: planner-model\n')
SHOW = section('S', "local out = {}\nfor _, r in ipairs({'writer', 'reviewer', 'planner'}) do\n"
                    "  local h = models.get(r)\n  out[#out + 1] = r .. '=' .. h.model .. '@' .. h.context\nend\n"
                    "return table.concat(out, ' ')")


def invoke(tmp_path, text: str, *flags, environ=None):
    path = tmp_path / 'p.md'
    path.write_text(text, encoding='utf-8')
    out, err = io.StringIO(), io.StringIO()
    code = main(['--json', *flags, str(path)], out, err, environ=environ if environ is not None else {})
    return code, (json.loads(out.getvalue()) if out.getvalue() else None), err.getvalue()


def test_prepare_binds_host_binding_then_frontmatter_model_then_the_default(tmp_path, gateway):
    environ = {'RUNVIL_GATEWAY_URL': gateway().url}
    config = tmp_path / 'runvil.toml'
    config.write_text('[models]\ndefault = "house-model"\n[models.bind]\nplanner = "bound-planner"\n'
                      '[models.catalog."bound-planner"]\ncontext = 32000\nkeywords = ["tools"]\n')
    code, report, _ = invoke(tmp_path, prompt(SHOW, head=ROLES), '--config', str(config), environ=environ)
    assert report['result'] == 'writer=house-model@8192 reviewer=small-reviewer@8192 planner=bound-planner@32000'
    code, report, _ = invoke(tmp_path, prompt(SHOW, head=ROLES), '--config', str(config),
                             '--bind', 'writer=flag-writer', '--default-model', 'ignored-here',
                             '--model-context', 'flag-writer=4096', '--model-context', 'bound-planner=1000',
                             environ=environ)
    assert report['result'] == 'writer=flag-writer@4096 reviewer=small-reviewer@8192 planner=bound-planner@1000'
    code, report, _ = invoke(tmp_path, prompt(SHOW, head=ROLES), environ=environ)
    assert report['result'] == 'writer=default@8192 reviewer=small-reviewer@8192 planner=planner-model@8192'


def test_prepare_checks_each_role_against_its_bound_model(tmp_path, gateway):
    environ = {'RUNVIL_GATEWAY_URL': gateway().url}
    head = 'models:\n  writer:\n    min_context: 16000\n    requires: [tools]\n    prefers: [vision]\n'
    text = prompt(section('S', "return 'ran'"), head=head)
    code, report, _ = invoke(tmp_path, text, environ=environ)
    assert code == 1 and report['error'] == {'kind': 'RequirementsUnmet', 'retryable': False, 'location': None,
                                             'message': 'the environment cannot satisfy this prompt:\n'
        '- model role `writer` needs a context window of at least 16000 tokens, but its model offers 8192\n'
        '- model role `writer` requires `tools`, which its model does not offer'}
    config = tmp_path / 'runvil.toml'
    config.write_text('[models.bind]\nwriter = "big"\n[models.catalog.big]\ncontext = 16000\nkeywords = ["tools"]\n')
    assert invoke(tmp_path, text, '--config', str(config), environ=environ)[1]['result'] == 'ran'


def test_a_prompt_with_roles_needs_the_gateway_variables(tmp_path):
    code, report, err = invoke(tmp_path, prompt(section('S', "return 1")))
    assert (code, report, err) == (2, None, 'runvil run: error: missing environment variable: RUNVIL_GATEWAY_URL\n')
    code, report, err = invoke(tmp_path, prompt(section('S', "return 1")),
                               environ={'RUNVIL_GATEWAY_URL': 'http://example.com/v1'})
    assert err == 'runvil run: error: missing environment variable: RUNVIL_GATEWAY_API_KEY\n'


def test_a_prompt_without_roles_runs_with_model_access_off(tmp_path):
    text = prompt(section('S', "local ok, e = pcall(function() return models.get('m'):infer('x') end)\n"
                               "return e.message"), head='')
    code, report, _ = invoke(tmp_path, text)
    assert report['result'] == 'model access is turned off or not configured'


def test_the_host_builds_the_client_with_the_run_limits(tmp_path, gateway):
    environ = {'RUNVIL_GATEWAY_URL': gateway([{'text': 'x' * 5000}]).url}
    text = prompt(section('S', "return models.infer('x')"), h1="models.default('writer')")
    code, report, _ = invoke(tmp_path, text, '--response-cap', '1000', environ=environ)
    assert report['error'] == {'kind': 'Completion', 'retryable': True, 'location': None,
                               'message': 'the model backend sent a reply that could not be understood: '
                                          'response stream exceeds the 1000-byte limit'}


@pytest.mark.parametrize('config, flags, message', [
    ('[models]\nmodel = "x"\n', [], 'models: unknown key `model`; expected one of: bind, catalog, default'),
    ('[models]\ndefault = ""\n', [], 'models.default must be a model id (a non-empty string), got \'\''),
    ('[models.bind]\nwriter = 3\n', [], 'models.bind.writer must be a model id (a non-empty string), got 3'),
    ('[models.catalog.m]\ncontext = 0\n', [], 'context must be a whole number of tokens of at least 1, got 0'),
    ('[models.catalog.m]\nkeywords = ["fast"]\n', [],
     'keywords must be a list of capability keywords (json, reasoning, tools, vision)'),
    ('', ['--bind', 'writer'], "--bind expects ROLE=MODEL, got 'writer'"),
    ('', ['--model-context', 'm=lots'],
     "--model-context expects MODEL=TOKENS with TOKENS a whole number of at least 1, got 'm=lots'"),
])
def test_bad_model_settings_are_setup_errors(tmp_path, config, flags, message):
    path = tmp_path / 'runvil.toml'
    path.write_text(config)
    binds = flags[1:] if flags[:1] == ['--bind'] else []
    contexts = flags[1:] if flags[:1] == ['--model-context'] else []
    with pytest.raises(SettingsError) as info:
        build_environment(str(path), binds, None, contexts)
    assert message in str(info.value)


def test_environment_binding_rules():
    environment = Environment(models={'writer': ModelBinding('w', 100)},
                              catalog={'known': ModelBinding('known', 50000, frozenset({'json'}))},
                              default_model='house')

    class Role:
        def __init__(self, label, model=None):
            self.label, self.model = label, model
    assert environment.binding(Role('writer', 'ignored')) == ModelBinding('w', 100)
    assert environment.binding(Role('reviewer', 'known')) == ModelBinding('known', 50000, frozenset({'json'}))
    assert environment.binding(Role('planner')) == ModelBinding('house', 8192)


def test_an_offline_run_never_imports_the_gateway_or_httpx():
    code = ("import io, sys\nfrom runvil.host import main\n"
            "main(['examples/word-stats.md'], io.StringIO(), io.StringIO(), environ={})\n"
            "print('httpx' in sys.modules, 'runvil.gateway' in sys.modules)")
    shown = subprocess.run([sys.executable, '-c', code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert shown.stdout == 'False False\n'
