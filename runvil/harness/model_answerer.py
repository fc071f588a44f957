"""Answers ``model.round`` effects through the gateway client.

A round is submitted to the client, which runs it as a task on its event
loop; no thread is started per round.  When the round's future settles, its
done callback replies with a ``RoundResult``: the completion or the
completion error, and the raw traffic when the Host is in debug mode.
``live``, when given, gets each fragment of the reply as it arrives (on the
gateway's loop thread): ``live(stamp, kind, text)``, kind ``text`` or
``reasoning``, stamp the round's event fields.  ``abort()`` (a stop, a
cancel, or the outcome decided) cancels the future, which cancels the task
and drops its connection at once; the Harness no longer waits for that
round, so nothing it might still reply reaches the Engine.
"""
from __future__ import annotations

from ..engine import Answer
from ..models.rounds import MODEL_ROUND, RoundResult
from ..vocabulary.failure import internal_from_exception
from .settled import SETTLED


class ModelAnswerer:
    def __init__(self, client, debug: bool = False, live=None):
        self.client = client
        self.debug = debug
        self.live = live

    def __call__(self, effect, reply):
        round_request = effect.payload
        captures = []
        try:
            future = self.client.submit(round_request.body,
                                        debug=captures.append if self.debug else None,
                                        accept_tool_calls=round_request.tool_calls_allowed,
                                        **self._live(round_request.stamp))
        except Exception as err:    # a fault of the Harness's own code
            reply(Answer.failed(MODEL_ROUND, internal_from_exception(err)))
            return SETTLED
        future.add_done_callback(lambda done: reply(_answer(done, tuple(captures))))
        return _Round(future)

    def _live(self, stamp: dict) -> dict:
        live = self.live
        if live is None:
            return {}
        return {'on_text': lambda text: live(stamp, 'text', text),
                'on_reasoning': lambda text: live(stamp, 'reasoning', text)}


class _Round:
    def __init__(self, future):
        self.future = future

    def abort(self) -> None:
        self.future.cancel()


def _answer(done, captures: tuple) -> Answer:
    from ..gateway import CompletionError
    if done.cancelled():
        # Aborted: the Harness stopped waiting.  Otherwise the client was
        # closed under the round, which ends it like a stop.
        return Answer.interrupt()
    error = done.exception()
    if error is None:
        return Answer.ok(MODEL_ROUND, RoundResult(completion=done.result(), captures=captures))
    if isinstance(error, CompletionError):
        return Answer.ok(MODEL_ROUND, RoundResult(error=error, captures=captures))
    return Answer.failed(MODEL_ROUND, internal_from_exception(error))
