"""Effects: every call that waits on the Harness.

An Engine library suspends Lua with ``value = yield from request(kind,
payload)``; the request passes through every Lua frame and coroutine up to
the Engine, which issues it as an ``Effect`` with a run-unique id and hands
it to the Harness.  The Harness answers each effect exactly once, with an
answer of the effect's kind; anything else (an unknown id, a second answer,
a wrong kind) is an Engine ``Internal`` failure.

Answers: ``Answer.ok(kind, value)`` resumes the call with ``value``;
``Answer.failed(kind, failure)`` raises the failure at the call as an error
value; ``Answer.interrupted()`` is a stop and raises the interrupted error;
``Answer.dropped()`` settles an effect the run no longer waits on (after a
cancel, once the outcome is decided, or one the Engine abandoned).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pylua import Effect as LuaEffect

from .failure import Failure, internal_failure


@dataclass(frozen=True)
class EffectRequest:
    """What a library asks the Harness to do.  ``survives_stop`` marks work
    a stop leaves running (a tool whose Pack says so, an operator question)."""
    kind: str
    payload: object = None
    survives_stop: bool = False


def request(kind: str, payload=None, *, survives_stop: bool = False):
    """Suspend the running Lua until the Harness answers (a generator)."""
    return (yield LuaEffect(EffectRequest(kind, payload, survives_stop)))


@dataclass(frozen=True)
class Effect:
    """An issued request."""
    id: int
    kind: str
    payload: object
    survives_stop: bool


@dataclass(frozen=True)
class Answer:
    kind: str | None                 # None for interrupted and dropped
    value: object = None
    failure: Failure | None = None
    interrupted: bool = False
    dropped: bool = False

    @classmethod
    def ok(cls, kind: str, value=None) -> 'Answer':
        return cls(kind, value)

    @classmethod
    def failed(cls, kind: str, failure: Failure) -> 'Answer':
        return cls(kind, failure=failure)

    @classmethod
    def interrupt(cls) -> 'Answer':
        return cls(None, interrupted=True)

    @classmethod
    def drop(cls) -> 'Answer':
        return cls(None, dropped=True)


@dataclass
class Ledger:
    """Every effect a run issued, and which ones still wait for an answer."""
    issued: dict = field(default_factory=dict)
    waiting: dict = field(default_factory=dict)
    abandoned: set = field(default_factory=set)     # issued, no longer waited on, not yet settled
    next_id: int = 1

    def issue(self, req: EffectRequest) -> Effect:
        effect = Effect(self.next_id, req.kind, req.payload, req.survives_stop)
        self.next_id += 1
        self.issued[effect.id] = effect
        self.waiting[effect.id] = effect
        return effect

    def abandon(self, effect_id: int) -> None:
        """The run stops waiting on an effect; its answer, whatever it is,
        changes nothing."""
        if self.waiting.pop(effect_id, None) is not None:
            self.abandoned.add(effect_id)

    def is_abandoned(self, effect_id: int) -> bool:
        return effect_id in self.abandoned

    def settle_abandoned(self, effect_id: int) -> None:
        self.abandoned.discard(effect_id)

    def settle(self, effect_id: int, answer: Answer, run_waits: bool) -> Failure | None:
        """Record ``answer``; return the Internal failure when the Harness
        broke the protocol.  ``run_waits`` says whether the run still waits
        on its effects (a drop is only right once it does not)."""
        effect = self.issued.get(effect_id)
        if effect is None:
            return internal_failure('the Harness answered effect %r, which was never issued'
                                    % (effect_id,))
        if effect_id not in self.waiting:
            return internal_failure('the Harness answered effect %d twice' % effect_id)
        if answer.kind is not None and answer.kind != effect.kind:
            return internal_failure('the Harness answered effect %d (%s) with an answer of kind %s'
                                    % (effect_id, effect.kind, answer.kind))
        if answer.dropped and run_waits:
            return internal_failure('the Harness dropped effect %d while the run waits on it'
                                    % effect_id)
        del self.waiting[effect_id]
        return None
