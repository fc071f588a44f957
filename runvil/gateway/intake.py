"""One round's response as it arrives, whichever route carried it.

Both routes (the direct HTTP/1.1 one and httpx's) push what they receive
into a ``ReplyIntake``: ``head`` once, ``body`` per piece, ``end`` when the
response is complete.  It applies the response cap, reads an event stream or
a JSON body, feeds the round's listeners and settles the round's future
through its ``RoundReport``; a failure is raised, and ``failure_of`` turns
anything raised into what the future gets.  After a successful reply settles
the rest of the body is still taken in (and dropped) so the connection can
carry the next round.
"""

from __future__ import annotations

import concurrent.futures

from .classify import classify_status, classify_stream_error
from .errors import TRANSPORT_FAILED, CompletionError, ErrorKind, malformed
from .listeners import DebugCapture, RoundListeners
from .readers import EventStreamReply, JsonReply
from .reply import Completion, StreamErrorReported


def transport_failed() -> CompletionError:
    return CompletionError(ErrorKind.TRANSPORT, TRANSPORT_FAILED)


def failure_of(raised: BaseException) -> BaseException:
    """What a round's future gets for an exception its intake raised: a
    CompletionError as it is, a stream's error object classified by its
    text, and anything else (a listener's exception, a bug) unchanged."""
    if isinstance(raised, StreamErrorReported):
        return classify_stream_error(raised.text)
    return raised


class ReplyIntake:
    def __init__(self, report: RoundReport, *, cap: int, tools_advertised: bool) -> None:
        self.report = report
        self._cap = cap
        self._tools_advertised = tools_advertised
        self._reader: EventStreamReply | JsonReply | None = None  # None: an error reply
        self._error_body = bytearray()
        self._total = 0

    @property
    def settled(self) -> bool:
        return self.report.ended

    def head(self, status: int, content_type: str | None, content_length: str | None) -> None:
        self.report.status = status
        length = int(content_length) if content_length and content_length.isdigit() else None
        if not 200 <= status < 300:
            if length is not None and length > self._cap:
                raise malformed(f"response body of {length} bytes exceeds the {self._cap}-byte limit")
            return
        media = (content_type or "").partition(";")[0].strip().lower()
        if media == "text/event-stream":
            self._reader = EventStreamReply()
        elif media == "application/json":
            self._reader = JsonReply()
        else:
            raise malformed("reply has an unexpected content type")
        if length is not None and length > self._cap:
            raise malformed(self._over_cap())

    def body(self, chunk: bytes) -> None:
        self._total += len(chunk)
        reader = self._reader
        if reader is None:
            self._error_body += chunk
            if self._total > self._cap:
                raise malformed(f"response body exceeds the {self._cap}-byte limit")
            self.report.received(chunk)
            return
        if self._total > self._cap:
            raise malformed(self._over_cap())  # before any of this piece is decoded
        if self.report.ended:
            return  # the rest after [DONE], read only so the connection is reused
        self.report.received(chunk)
        self.report.fragments(reader.feed(chunk))
        if reader.done:
            self._settle(reader)

    def end(self) -> None:
        reader = self._reader
        if reader is None:
            raise classify_status(self.report.status, bytes(self._error_body))
        if not self.report.ended:
            self._settle(reader)

    def unreadable(self) -> CompletionError:
        """The failure for a body that could not be decoded: a success reply
        is malformed; an error reply whose body cannot be read is Transport."""
        if self._reader is None:
            return transport_failed()
        return malformed("reply body could not be decoded")

    def _settle(self, reader: EventStreamReply | JsonReply) -> None:
        self.report.fragments(reader.close())
        self.report.finish(reader.builder.build(tools_advertised=self._tools_advertised))

    def _over_cap(self) -> str:
        return f"response stream exceeds the {self._cap}-byte limit"


class RoundReport:
    """A round's side of its future: the listeners as the reply comes in,
    then the one result, preceded by the raw response in debug mode."""

    def __init__(self, future: concurrent.futures.Future, listeners: RoundListeners) -> None:
        self._future = future
        self._on_text = listeners.on_text
        self._on_reasoning = listeners.on_reasoning
        self._debug = listeners.debug
        self._body: list[bytes] | None = [] if listeners.debug is not None else None
        self.ended = False
        self.status: int | None = None

    def received(self, chunk: bytes) -> None:
        if self._body is not None:
            self._body.append(chunk)

    def fragments(self, fragments: list[tuple[str, str]]) -> None:
        for kind, text in fragments:
            listener = self._on_text if kind == "text" else self._on_reasoning
            if listener is not None:
                listener(text)

    def finish(self, completion: Completion) -> None:
        self._end(completion, None)

    def cancel(self) -> None:
        """The client is closing under the round: its caller sees it cancelled."""
        self.ended = True
        self._future.cancel()

    def fail(self, error: BaseException) -> None:
        self._end(None, error)

    def _end(self, completion: Completion | None, error: BaseException | None) -> None:
        # A failure while draining a delivered reply concerns nobody, nor
        # does any result of a round its caller cancelled.
        if self.ended:
            return
        self.ended = True
        if self._debug is not None and self.status is not None:
            try:
                self._debug(DebugCapture("response", b"".join(self._body), self.status))
            except Exception as bug:
                error = bug
        if not self._future.set_running_or_notify_cancel():
            return
        if error is None:
            self._future.set_result(completion)
        else:
            self._future.set_exception(error)
