"""Running one Lua block of a section in-process, with no model."""
from __future__ import annotations

from runvil.harness import Harness

LUA = '```lua\n'
END = '\n```\n'


def prompt(*sections: str, h1: str = '') -> str:
    """A prompt whose sections are ``(name, source)`` pairs given as
    ``'## Name\\n\\n' + block``; ``h1`` is Lua for the H1 body."""
    head = '---\nname: t\ndescription: A test prompt.\nrunvil: 0\n---\n\n# T\n\n'
    return head + (LUA + h1 + END + '\n' if h1 else '') + ''.join(sections)


def section(name: str, source: str, prose: str = '') -> str:
    return '## %s\n\n%s%s%s\n' % (name, prose + '\n\n' if prose else '', LUA + source, END)


def outcome(text: str) -> dict:
    return Harness().run(text, 't.md').to_dict()


def result(source: str, prose: str = '') -> str:
    """The run result of one section holding ``source``."""
    report = outcome(prompt(section('S', source, prose)))
    assert report['outcome'] == 'completed', report
    return report['result']


def caught(source: str) -> str:
    """``kind: message`` of the error value the code raises, caught by pcall."""
    return result('local ok, err = pcall(function()\n%s\nend)\n'
                  'assert(not ok, "no error")\n'
                  'if type(err) ~= "table" then return "raw: " .. tostring(err) end\n'
                  'return err.kind .. ": " .. err.message' % source)
