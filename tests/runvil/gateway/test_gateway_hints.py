"""The Host's hint for a rejected round (``runvil run``): the run error
keeps the spec's words, and the hint on stderr (``hint`` in --json's error)
names the model id sent and where it came from, how to bind, what the
gateway lists, the prompt options sent, and with --debug the backend body."""
import io
import json

from runvil.host import main

LITELLM_UNKNOWN_MODEL = {"status": 400, "body": {"error": {
    "message": "/chat/completions: Invalid model name passed in model=default. Call `/v1/models` to "
               "view available models for your key.", "type": "None", "param": "None", "code": "400"}}}
LITELLM_UNSUPPORTED = {"status": 400, "body": {"error": {
    "message": "litellm.UnsupportedParamsError: anthropic does not support parameters: ['seed'], "
               "for model=claude-3-haiku.", "type": "None", "param": None, "code": "400"}}}
REJECTED = 'error[Completion]: the model backend rejected the request (status 400)\n'


def write(tmp_path, head: str, lua: str, name: str = 'p.md') -> str:
    path = tmp_path / name
    path.write_text('---\nname: t\ndescription: A test prompt.\nrunvil: 0\n%s---\n\n# T\n\n## S\n\n'
                    '```lua\n%s\n```\n' % (head, lua), encoding='utf-8')
    return str(path)


def run(gw, *argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err, environ={'RUNVIL_GATEWAY_URL': gw.url})
    return code, out.getvalue(), err.getvalue()


def test_an_unbound_role_sent_as_the_default_id(tmp_path, gateway):
    gw = gateway({'replies': [LITELLM_UNKNOWN_MODEL],
                  'model_list': ['gpt-4o-mini', {'id': 'llama3', 'context_length': 8192}]})
    path = write(tmp_path, 'models:\n  writer: {}\n', "models.use('writer')\nreturn models.infer('hi')")
    code, out, err = run(gw, path)
    assert (code, out) == (1, '')
    assert err == REJECTED + (
        'hint: model `default` was sent: role `writer` has no binding, so it gets the default model '
        'id (built in)\n'
        'hint: bind a role to a model the gateway serves with --bind ROLE=MODEL, or in the config '
        'file: [models.bind] ROLE = "MODEL"\n'
        'hint: the gateway lists these models: gpt-4o-mini, llama3\n'
        "hint: run with --debug to see the backend's reply body\n")


def test_a_bound_role_with_options_the_backend_refuses(tmp_path, gateway):
    gw = gateway({'replies': [LITELLM_UNSUPPORTED], 'model_list': ['claude-3-haiku']})
    path = write(tmp_path, 'models:\n  writer: {}\n',
                 "models.use('writer', {seed = 7, temperature = 0.5})\nreturn models.infer('hi')")
    code, out, err = run(gw, '--json', '--bind', 'writer=claude-3-haiku', path)
    report = json.loads(out)
    assert code == 1 and err == ''
    assert report['error']['message'] == 'the model backend rejected the request (status 400)'
    hint = report['error']['hint'].split('\n')
    assert hint[0] == 'model `claude-3-haiku` was sent: role `writer` is bound to it by --bind writer=claude-3-haiku'
    assert hint[2] == 'the gateway lists these models: claude-3-haiku (`claude-3-haiku` is one of them)'
    assert hint[3].startswith('prompt options sent: ') and 'seed=7' in hint[3] and 'temperature=0.5' in hint[3]


def test_debug_shows_the_backend_body(tmp_path, gateway):
    gw = gateway([LITELLM_UNKNOWN_MODEL])
    config = tmp_path / 'c.toml'
    config.write_text('[models]\ndefault = "gpt-5"\n', encoding='utf-8')
    path = write(tmp_path, 'models:\n  writer: {}\n', "models.use('writer')\nreturn models.infer('hi')")
    code, _, err = run(gw, '--debug', '--config', str(config), path)
    lines = err.splitlines()
    assert code == 1 and lines[0] + '\n' == REJECTED
    assert lines[1] == ('hint: model `gpt-5` was sent: role `writer` has no binding, so it gets the '
                        'default model id (config %s [models] default)' % config)
    assert lines[3] == 'hint: the gateway lists no models (GET /models)'
    assert lines[4].startswith("hint: the backend's reply body: {") and 'Invalid model name' in lines[4]


def test_a_frontmatter_model_and_a_gateway_that_lists_nothing(tmp_path, gateway):
    gw = gateway([{'status': 404, 'body': {'error': {'message': 'model "qwen" not found, try pulling it first'}}}])
    path = write(tmp_path, 'models:\n  writer: {model: qwen}\n', "models.use('writer')\nreturn models.infer('hi')")
    lines = run(gw, path)[2].splitlines()
    assert lines[0] == 'error[Completion]: the model backend rejected the request (status 404)'
    assert lines[1] == "hint: model `qwen` was sent: role `writer` names it in the prompt's frontmatter"


def test_no_hint_for_other_failures(tmp_path, gateway):
    gw = gateway([{'status': 503}])
    path = write(tmp_path, 'models:\n  writer: {}\n', "models.use('writer')\nreturn models.infer('hi')")
    code, out, err = run(gw, path)
    assert err == 'error[Completion]: the model backend is overloaded (status 503)\n'


def test_a_raw_model_id_the_prompt_names_itself(tmp_path, gateway):
    gw = gateway({'replies': [{'status': 404, 'body': {'error': {'message': 'The model `raw-id` does not exist'}}}],
                  'model_list': ['gpt-4o-mini']})
    path = write(tmp_path, '', "return models.get('raw-id'):infer('hi')")
    lines = run(gw, path)[2].splitlines()
    assert lines[1] == 'hint: model `raw-id` was sent: the prompt asked for this model id itself, not through a role'
    assert lines[3] == 'hint: the gateway lists these models: gpt-4o-mini'
