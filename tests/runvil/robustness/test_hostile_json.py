"""Hostile JSON cannot crash the Host: a model reply nested 200,000 levels
deep, in a stream event, in a JSON body or in a tool call's arguments,
fails its round as a malformed reply, and so does json.decode of such a
text in Lua.  Run as the real ``runvil run --json`` process, where a
segmentation fault would show as a negative exit status."""
import json
import os
import subprocess
import sys
import textwrap

DEEP = '[' * 200_000
MALFORMED = 'internal: the model backend sent a reply that could not be understood: '

PROMPT = textwrap.dedent('''\
    ---
    name: hostile
    description: Meets deeply nested JSON from the model and from Lua.
    runvil: 0
    models:
      writer: {}
    ---

    # Hostile

    ## Rounds

    ```lua
    models.use('writer')
    tools.offer_local('tag', 'Tags a note', {}, function() return 'tagged' end)
    messages:user('Tag the note.')
    local out = {}
    for turn = 1, 3 do
      local ok, err = pcall(models.loop)
      out[turn] = err.kind .. ': ' .. tostring(err)
    end
    local ok, err = pcall(json.decode, string.rep('[', 200000))
    out[4] = err.kind .. ': ' .. tostring(err)
    return table.concat(out, '\\n')
    ```
    ''')


def test_deeply_nested_replies_fail_their_rounds_and_the_host_lives(gateway, tmp_path):
    gw = gateway([
        {'events': [DEEP]},
        {'stream': False, 'body': DEEP},
        {'tool_calls': [{'id': 'call_1', 'name': 'tag', 'arguments': DEEP}], 'chunk_chars': 50_000},
    ])
    path = tmp_path / 'hostile.md'
    path.write_text(PROMPT)
    env = dict(os.environ, RUNVIL_GATEWAY_URL=gw.url)
    done = subprocess.run([sys.executable, '-m', 'runvil', 'run', '--json', str(path)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert json.loads(done.stdout)['result'].split('\n') == [
        MALFORMED + 'reply event is nested more than 256 levels deep',
        MALFORMED + 'reply body is nested more than 256 levels deep',
        MALFORMED + 'tool call 1 arguments are nested more than 256 levels deep',
        'lua: json.decode: text is nested more than 256 levels deep',
    ]
    assert len(gw.requests) == 3


def test_a_deeply_nested_model_list_is_malformed():
    # In a child process: without the bound the decoder recurses until a
    # RecursionError, or past the C stack under a raised recursion limit.
    check = ("from runvil.gateway.model_list import parse_model_list\n"
             "try:\n"
             "    parse_model_list(b'{\"data\": ' + b'[' * 200000)\n"
             "except Exception as err:\n"
             "    print(err)\n")
    done = subprocess.run([sys.executable, '-c', check], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, 'the model backend sent a reply that could not be understood: '
                                                 'model list is nested more than 256 levels deep\n')
