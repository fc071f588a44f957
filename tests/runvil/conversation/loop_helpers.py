"""Conversation prompts: one section that selects ``writer`` and runs Lua,
and what the gateway received."""
from __future__ import annotations

from gateway_runs import WRITER, prompt, section

WEB_HEAD = 'uses:\n  - web\n' + WRITER


def chat(source: str, head: str = WRITER) -> str:
    """A prompt whose one section selects writer and runs ``source``."""
    return prompt(section('Chat', "models.use('writer')\n" + source), head=head)


def call(call_id: str, name: str, **arguments) -> dict:
    """A scripted reply asking for one tool call."""
    return {'tool_calls': [{'id': call_id, 'name': name, 'arguments': arguments}]}


def sent(gateway, index: int) -> list[dict]:
    """The messages of the gateway's request ``index``."""
    return gateway.requests[index].json['messages']
