"""Answers operator questions (``input.ask``) with a function the Host
gives: ``ask(question) -> str | None``, which may block (it runs on a
thread of its own).  None means no answer can come (the operator's input
ended): the question fails with an ordinary Lua error."""
from __future__ import annotations

import threading

from ..engine import Answer
from ..vocabulary.failure import lua_failure
from .settled import SETTLED

NO_ANSWER = 'input.ask: no answer came: the operator input ended'


class OperatorAnswerer:
    def __init__(self, ask):
        self.ask = ask

    def __call__(self, effect, reply):
        def answer():
            text = self.ask(effect.payload)
            reply(Answer.failed(effect.kind, lua_failure(NO_ANSWER)) if text is None
                  else Answer.ok(effect.kind, text))
        threading.Thread(target=answer, daemon=True).start()
        return SETTLED     # a question on the operator's screen cannot be taken back
