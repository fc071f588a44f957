"""An incremental server-sent events decoder (the WHATWG event-stream format).

Bytes go in as they arrive, in chunks cut anywhere (inside a line, between
the CR and LF of one line ending); whole events come out.  Only the ``event``
and ``data`` fields matter to chat completions, so ``id`` and ``retry`` are
ignored.
"""

from __future__ import annotations

from dataclasses import dataclass

_BOM = b"\xef\xbb\xbf"


@dataclass(slots=True)  # not frozen: a frozen dataclass's __init__ costs three times as much
class Event:
    data: str
    event: str = "message"


class EventStreamDecoder:
    """Feed bytes with ``feed``, then call ``close`` at the end of the stream.

    Lines must be UTF-8; a line that is not raises UnicodeDecodeError.
    """

    def __init__(self) -> None:
        self._partial = b""       # an unterminated line carried to the next chunk
        self._after_cr = False    # the last chunk ended in CR: a leading LF belongs to it
        self._started = False     # the BOM may only open the stream
        self._data: list[str] = []
        self._event = ""

    def feed(self, chunk: bytes) -> list[Event]:
        if self._after_cr and chunk.startswith(b"\n"):
            chunk = chunk[1:]
        self._after_cr = chunk.endswith(b"\r")
        buffer = self._partial + chunk if self._partial else chunk
        if not self._started and len(buffer) >= len(_BOM):
            self._started = True
            if buffer.startswith(_BOM):
                buffer = buffer[len(_BOM):]
        if b"\r" in buffer:
            lines = [line.rstrip(b"\r\n") for line in buffer.splitlines(keepends=True)]
            self._partial = b"" if buffer.endswith((b"\n", b"\r")) else lines.pop()
            return self._lines([line.decode("utf-8") for line in lines])
        # The common case, LF only: every complete line decoded at once (a
        # multi-byte character never holds an LF byte).
        end = buffer.rfind(b"\n")
        self._partial = buffer[end + 1:]
        if end < 0:
            return []
        return self._lines(buffer[:end].decode("utf-8").split("\n"))

    def _lines(self, lines: list[str]) -> list[Event]:
        events: list[Event] = []
        data = self._data
        for line in lines:
            if line[:6] == "data: ":  # first: nearly every line of a completion stream
                data.append(line[6:])
            elif not line:
                if data:
                    events.append(Event(data[0] if len(data) == 1 else "\n".join(data),
                                        self._event or "message"))
                    data = self._data = []
                self._event = ""
            elif line[:5] == "data:":
                data.append(line[5:])
            else:
                self._field(line)
        return events

    def close(self) -> list[Event]:
        """Flush the end of the stream.

        Unlike a browser, an event whose blank terminating line never came is
        still delivered: a stream ending in ``data: [DONE]`` without the final
        blank line did send its sentinel.
        """
        lines = [self._partial.decode("utf-8"), ""] if self._partial else [""]
        self._partial = b""
        return self._lines(lines)

    def _field(self, line: str) -> None:
        """A line that is neither blank nor ``data:``."""
        if line.startswith(":"):
            return  # a comment, often a keep-alive
        field, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if field == "data":  # "data" without a colon
            self._data.append(value)
        elif field == "event":
            self._event = value
