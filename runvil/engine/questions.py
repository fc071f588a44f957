"""``input.ask(question)``: a question to the operator, answered through the
Harness (``runvil run`` asks on the terminal).  The question waits through
a stop, so the operator's answer still reaches the prompt."""
from __future__ import annotations

from ..vocabulary.crossing import CHARGED_TEXT, TEXT
from ..vocabulary.effects import request
from ..vocabulary.failure import lua_failure
from ..vocabulary.functions import bad_argument

ASK = 'input.ask'


def install(vm, table) -> None:
    table.set_str('ask', vm.generator('input.ask', _ask, takes=(TEXT,), gives=(CHARGED_TEXT,)))


def _ask(*args):
    if len(args) != 1:
        raise lua_failure('input.ask takes (question)')
    if args[0].__class__ is not str:
        raise bad_argument(1, 'input.ask', 'string', args[0])
    return ((yield from request(ASK, args[0], survives_stop=True)),)
