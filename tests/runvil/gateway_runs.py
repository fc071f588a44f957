"""Running prompts against the scripted gateway, through the real
GatewayClient over HTTP on 127.0.0.1, with the built-in test Pack offered."""
from __future__ import annotations

from runvil.engine import Environment, ModelBinding
from runvil.vocabulary.environment import DEFAULT_MODEL_ID, UNBOUND_CONTEXT_WINDOW
from runvil.harness import EventStream, Harness
from runvil.testing.packs import WEB

LUA = '```lua\n'
END = '\n```\n'
WRITER = 'models:\n  writer: {}\n'


def prompt(body: str, head: str = WRITER, h1: str = '') -> str:
    """A prompt declaring ``head``; ``h1`` is Lua for the H1 body."""
    h1_block = LUA + h1 + END + '\n' if h1 else ''
    return '---\nname: t\ndescription: A test prompt.\nrunvil: 0\n%s---\n\n# T\n\n%s%s' % (head, h1_block, body)


def section(name: str, source: str, prose: str = '') -> str:
    return '## %s\n\n%s%s%s\n' % (name, prose + '\n\n' if prose else '', LUA + source, END)


def environment(context_window: int = UNBOUND_CONTEXT_WINDOW, **roles: ModelBinding) -> Environment:
    """The test Pack, the default model id with ``context_window`` tokens,
    and ``roles`` bound as given."""
    return Environment(packs={'web': WEB}, models=roles,
                       catalog={DEFAULT_MODEL_ID: ModelBinding(DEFAULT_MODEL_ID, context_window)})


def run(client, text: str, *, events: list | None = None, context_window: int = UNBOUND_CONTEXT_WINDOW,
        **options):
    stream = EventStream([events.append] if events is not None else [])
    handle = options.pop('handle', None)
    options.setdefault('environment', environment(context_window))
    return Harness(gateway=client, **options).run(text, 't.md', handle=handle, events=stream)


def outcome(client, text: str, **options) -> dict:
    return run(client, text, **options).to_dict()


def result(client, text: str, **options) -> str:
    done = run(client, text, **options)
    assert done.status == 'completed', done.to_dict()
    return done.result


def error(client, text: str, **options) -> dict:
    done = run(client, text, **options)
    assert done.status == 'failed', done.to_dict()
    return done.to_dict()['error']
