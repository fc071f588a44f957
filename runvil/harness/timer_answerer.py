"""Answers timer effects (a timed ``tasks.join`` or ``tasks.join_any``):
the answer comes once the effect's seconds have passed, unless the wait
ends first and the work is aborted."""
from __future__ import annotations

import threading

from ..engine import Answer


class TimerAnswerer:
    def __call__(self, effect, reply):
        timer = threading.Timer(effect.payload, lambda: reply(Answer.ok(effect.kind)))
        timer.daemon = True
        timer.start()
        return _Timer(timer)


class _Timer:
    def __init__(self, timer: threading.Timer):
        self.timer = timer

    def abort(self) -> None:
        self.timer.cancel()
