"""Turn the bytes of a successful reply into a ReplyBuilder's input.

Two forms of success exist: the event stream the client asks for, and a
whole JSON ``chat.completion`` from a backend that ignores ``stream``.
Both expose the same small interface: ``feed(chunk)`` and ``close()`` return
the fragments to show live, and ``builder`` holds the reply.
"""

from __future__ import annotations

from ..vocabulary.bounded_json import TooDeep, loads
from .errors import malformed
from .reply import ReplyBuilder, StreamErrorReported
from .sse import Event, EventStreamDecoder

DONE_SENTINEL = "[DONE]"


class EventStreamReply:
    def __init__(self) -> None:
        self.builder = ReplyBuilder()
        self.done = False  # the [DONE] sentinel arrived; later bytes are ignored
        self._decoder = EventStreamDecoder()

    def feed(self, chunk: bytes) -> list[tuple[str, str]]:
        try:
            return self._events(self._decoder.feed(chunk))
        except UnicodeDecodeError:
            raise malformed("reply is not valid UTF-8") from None

    def close(self) -> list[tuple[str, str]]:
        try:
            fragments = self._events(self._decoder.close())
        except UnicodeDecodeError:
            raise malformed("reply is not valid UTF-8") from None
        if not self.done:
            raise malformed("completion stream ended without the [DONE] sentinel")
        return fragments

    def _events(self, events: list[Event]) -> list[tuple[str, str]]:
        fragments: list[tuple[str, str]] = []
        for event in events:
            if self.done:
                break
            if event.event == "error":
                raise StreamErrorReported(event.data)
            if event.data == DONE_SENTINEL:
                self.done = True
                break
            try:
                chunk = loads(event.data)
            except TooDeep as err:
                raise malformed(f"reply event is {err}") from None
            except ValueError:
                raise malformed("reply event is not valid JSON") from None
            fragments += self.builder.add_chunk(chunk)
        return fragments


class JsonReply:
    def __init__(self) -> None:
        self.builder = ReplyBuilder()
        self.done = False  # a JSON body ends with the response, never early
        self._parts: list[bytes] = []

    def feed(self, chunk: bytes) -> list[tuple[str, str]]:
        self._parts.append(chunk)
        return []

    def close(self) -> list[tuple[str, str]]:
        try:
            reply = loads(b"".join(self._parts).decode("utf-8"))
        except UnicodeDecodeError:
            raise malformed("reply is not valid UTF-8") from None
        except TooDeep as err:
            raise malformed(f"reply body is {err}") from None
        except ValueError:
            raise malformed("reply body is not valid JSON") from None
        return self.builder.add_message(reply)
