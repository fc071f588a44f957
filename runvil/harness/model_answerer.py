"""Answers ``model.round`` effects through the gateway client.

Each round runs on a thread of its own (``GatewayClient.complete`` blocks)
and is answered with a ``RoundResult``: the completion or the completion
error, and the raw traffic when the Host is in debug mode.  ``live``, when
given, gets each fragment of the reply as it arrives (on the round's
thread): ``live(stamp, kind, text)``, kind ``text`` or ``reasoning``,
stamp the round's event fields.  ``abort()`` (a
stop, a cancel, or the outcome decided) trips the round's cancel hook, so
the client drops the connection at once; the Harness no longer waits for
that round, so nothing it might still reply reaches the Engine.
"""
from __future__ import annotations

import threading

from ..engine import Answer
from ..engine.failure import internal_from_exception
from ..engine.model_round import MODEL_ROUND, RoundResult


class ModelAnswerer:
    def __init__(self, client, debug: bool = False, live=None):
        self.client = client
        self.debug = debug
        self.live = live

    def __call__(self, effect, reply) -> '_Round':
        work = _Round()
        threading.Thread(target=self._complete, args=(effect, reply, work), daemon=True,
                         name='runvil-round-%d' % effect.id).start()
        return work

    def _complete(self, effect, reply, work: '_Round') -> None:
        from ..gateway import CompletionError, RoundCancelled
        captures = []
        try:
            round_request = effect.payload
            completion = self.client.complete(round_request.body, cancel=work.aborted.is_set,
                                              debug=captures.append if self.debug else None,
                                              accept_tool_calls=round_request.tool_calls_allowed,
                                              **self._live(round_request.stamp))
            answer = Answer.ok(MODEL_ROUND, RoundResult(completion=completion, captures=tuple(captures)))
        except CompletionError as error:
            answer = Answer.ok(MODEL_ROUND, RoundResult(error=error, captures=tuple(captures)))
        except RoundCancelled:
            # Aborted: the Harness stopped waiting.  Otherwise the client was
            # closed under the round, which ends it like a stop.
            answer = Answer.interrupt()
        except Exception as err:    # a fault of the Harness's own code
            answer = Answer.failed(MODEL_ROUND, internal_from_exception(err))
        reply(answer)


    def _live(self, stamp: dict) -> dict:
        live = self.live
        if live is None:
            return {}
        return {'on_text': lambda text: live(stamp, 'text', text),
                'on_reasoning': lambda text: live(stamp, 'reasoning', text)}


class _Round:
    def __init__(self):
        self.aborted = threading.Event()

    def abort(self) -> None:
        self.aborted.set()
