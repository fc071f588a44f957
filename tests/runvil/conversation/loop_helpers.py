"""Running conversation prompts against the scripted gateway over HTTP on
127.0.0.1, with the built-in test Pack available."""
from __future__ import annotations

from runvil.engine import Environment, ModelBinding
from runvil.harness import EventStream, Harness
from runvil.testing.packs import WEB

LUA = '```lua\n'
END = '\n```\n'
WRITER = 'models:\n  writer: {}\n'
WEB_HEAD = 'uses:\n  - web\n' + WRITER


def prompt(body: str, head: str = WRITER, h1: str = '') -> str:
    h1_block = LUA + h1 + END + '\n' if h1 else ''
    return '---\nname: t\ndescription: A test prompt.\nrunvil: 0\n%s---\n\n# T\n\n%s%s' % (head, h1_block, body)


def section(name: str, source: str, prose: str = '') -> str:
    return '## %s\n\n%s%s%s\n' % (name, prose + '\n\n' if prose else '', LUA + source, END)


def chat(source: str, head: str = WRITER) -> str:
    """A prompt whose one section selects writer and runs ``source``."""
    return prompt(section('Chat', "models.use('writer')\n" + source), head=head)


def environment(context_window: int = 8192, **models) -> Environment:
    bound = {'writer': ModelBinding('writer-model', context_window)}
    bound.update(models)
    return Environment(packs={'web': WEB}, models=bound)


def run(client, text: str, *, events: list | None = None, context_window: int = 8192,
        environment_: Environment | None = None, **options):
    stream = EventStream([events.append] if events is not None else [])
    handle = options.pop('handle', None)
    env = environment_ or environment(context_window)
    return Harness(gateway=client, environment=env, **options).run(text, 't.md', handle=handle, events=stream)


def result(client, text: str, **options) -> str:
    done = run(client, text, **options)
    assert done.status == 'completed', done.to_dict()
    return done.result


def error(client, text: str, **options) -> dict:
    done = run(client, text, **options)
    assert done.status == 'failed', done.to_dict()
    return done.to_dict()['error']


def call(call_id: str, name: str, **arguments) -> dict:
    """A scripted reply asking for one tool call."""
    return {'tool_calls': [{'id': call_id, 'name': name, 'arguments': arguments}]}


def sent(gateway, index: int) -> list[dict]:
    """The messages of the gateway's request ``index``."""
    return gateway.requests[index].json['messages']
