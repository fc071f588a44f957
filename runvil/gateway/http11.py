"""HTTP/1.1 for the direct route, without I/O: the request head built once
per gateway, and a response parsed as its bytes arrive.

A model round is one POST and one response on a kept-alive connection, and
the round's client time is mostly spent in the HTTP layer, so this layer
does only that: a status line, headers, and a body framed by
``Content-Length``, by chunks, or by the end of the connection.
``ResponseParser`` hands what it parses to a sink as it goes (no event
objects): ``head(ResponseHead)``, ``body(bytes)`` (the data of every chunk
that arrived in one piece of input, joined), ``end()``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

MAX_HEAD_BYTES = 64 * 1024  # a status line and headers longer than this are no reply

_FIELD_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_FORBIDDEN_IN_VALUE = re.compile(rb"[\x00\r\n]")
_STATUS_LINE = re.compile(r"HTTP/1\.([01]) ([0-9]{3})(?: [^\r\n]*)?")
_CHUNK_SIZE = re.compile(rb"([0-9A-Fa-f]{1,16})[ \t]*(?:;[^\r\n]*)?")
_PLAIN_CHUNK_SIZE_LINE = re.compile(rb"([0-9A-Fa-f]{1,16})\r\n")  # the usual case, in one step


class ProtocolError(Exception):
    """The peer broke HTTP/1.1 framing (or a request header is unusable)."""


def request_head(method: str, target: str, host: str, headers: Mapping[str, str | bytes]) -> bytes:
    """The request line and headers, without ``Content-Length`` and the blank
    line that ends the head; header values are UTF-8 when given as text."""
    lines = [f"{method} {target} HTTP/1.1\r\nhost: {host}\r\n".encode("ascii")]
    for name, value in headers.items():
        raw = value.encode("utf-8") if isinstance(value, str) else value
        if not _FIELD_NAME.fullmatch(name) or _FORBIDDEN_IN_VALUE.search(raw):
            raise ProtocolError(f"header {name} cannot be sent")
        lines.append(name.encode("ascii") + b": " + raw + b"\r\n")
    return b"".join(lines)


def with_body(head: bytes, body: bytes) -> bytes:
    """One request's bytes: ``head`` from ``request_head`` and its body."""
    return b"%scontent-length: %d\r\n\r\n%s" % (head, len(body), body)


@dataclass(slots=True)  # one per round: a frozen dataclass's __init__ costs three times as much
class ResponseHead:
    status: int
    headers: dict[str, str]  # names lowercased; a repeated name's values joined by ", "
    keep_alive: bool         # the connection may carry another request after this body


class ResponseSink(Protocol):
    def head(self, head: ResponseHead) -> None: ...
    def body(self, data: bytes) -> None: ...
    def end(self) -> None: ...


def _chunk_size(line: bytes) -> int:
    """A size line with an extension or blanks (plain ones are matched whole
    by _PLAIN_CHUNK_SIZE_LINE), else broken."""
    matched = _CHUNK_SIZE.fullmatch(line)
    if matched is None:
        raise ProtocolError("malformed chunk size")
    return int(matched.group(1), 16)


# Parser states
_HEAD, _LENGTH, _CHUNK_SIZE_LINE, _CHUNK_DATA, _CHUNK_END, _TRAILERS, _UNTIL_CLOSE, _DONE = range(8)


class ResponseParser:
    """One response to one request; ``feed`` bytes as they arrive, ``eof``
    when the peer closes.  Raises ProtocolError on broken framing; whatever
    the sink raises passes through."""

    def __init__(self, sink: ResponseSink) -> None:
        self._sink = sink
        self._state = _HEAD
        self._buffer = b""
        self._remaining = 0  # body or chunk bytes still to come
        self.keep_alive = False
        self.extra = False   # bytes arrived past the end of the response

    @property
    def done(self) -> bool:
        return self._state == _DONE

    def feed(self, data: bytes) -> None:
        if self._buffer:
            data, self._buffer = self._buffer + data, b""
        if self._state == _HEAD:
            data = self._head(data)
        if self._state == _LENGTH:
            if len(data) < self._remaining:
                self._remaining -= len(data)
                if data:
                    self._sink.body(data)
                return
            piece, data = data[:self._remaining], data[self._remaining:]
            if piece:
                self._sink.body(piece)
            self._finish(data)
        elif self._state == _UNTIL_CLOSE:
            if data:
                self._sink.body(data)
        elif self._state != _DONE and self._state != _HEAD:
            self._chunks(data)
        elif self._state == _DONE and data:
            self.extra = True

    def eof(self) -> None:
        """The peer closed the connection: the end of a body framed by it,
        else a response cut short."""
        if self._state == _UNTIL_CLOSE:
            self._state = _DONE
            self._sink.end()
        elif self._state != _DONE:
            raise ProtocolError("the connection closed inside the response")

    def _head(self, data: bytes) -> bytes:
        while self._state == _HEAD:
            end = data.find(b"\r\n\r\n")
            if end < 0:
                if len(data) > MAX_HEAD_BYTES:
                    raise ProtocolError("response head too long")
                self._buffer = data
                return b""
            head, data = self._parse_head(data[:end]), data[end + 4:]
            if 100 <= head.status < 200:
                continue  # an interim response; the real one follows
            self.keep_alive = head.keep_alive
            self._frame(head)
            self._sink.head(head)
        return data

    @staticmethod
    def _parse_head(raw: bytes) -> ResponseHead:
        status_line, *fields = raw.decode("latin-1").split("\r\n")
        matched = _STATUS_LINE.fullmatch(status_line)
        if matched is None:
            raise ProtocolError("malformed status line")
        headers: dict[str, str] = {}
        for field in fields:
            name, colon, value = field.partition(":")
            if not colon or not _FIELD_NAME.fullmatch(name):
                raise ProtocolError("malformed header")
            key = name.lower()
            value = value.strip(" \t")
            headers[key] = f"{headers[key]}, {value}" if key in headers else value
        connection = headers.get("connection", "").lower()
        keep_alive = matched.group(1) == "1" and "close" not in connection.replace(" ", "").split(",")
        return ResponseHead(int(matched.group(2)), headers, keep_alive)

    def _frame(self, head: ResponseHead) -> None:
        coding = head.headers.get("transfer-encoding")
        length = head.headers.get("content-length")
        if head.status in (204, 304):
            self._state = _LENGTH
        elif coding is not None:
            if coding.rpartition(",")[2].strip().lower() == "chunked":
                self._state = _CHUNK_SIZE_LINE
            else:
                self._until_close()
        elif length is not None:
            values = {value.strip() for value in length.split(",")}
            if len(values) != 1 or not all(v.isascii() and v.isdigit() for v in values):
                raise ProtocolError("malformed Content-Length")
            self._state = _LENGTH
            self._remaining = int(values.pop())
        else:
            self._until_close()

    def _until_close(self) -> None:
        self._state = _UNTIL_CLOSE
        self.keep_alive = False

    def _chunks(self, data: bytes) -> None:
        pieces: list[bytes] = []  # the data of every chunk in ``data``, handed over as one
        try:
            rest = self._chunk_pieces(data, pieces)
        finally:
            # Data before broken framing still counts: its reply may be complete.
            if pieces:
                self._sink.body(b"".join(pieces))
        if rest is not None:
            self._finish(rest)

    def _chunk_pieces(self, data: bytes, pieces: list[bytes]) -> bytes | None:
        """Collect chunk data into ``pieces``; the bytes after the response
        when it ended in ``data``, else None."""
        position = 0
        size = len(data)
        while position < size:
            if self._state == _CHUNK_DATA:
                take = min(self._remaining, size - position)
                pieces.append(data[position:position + take])
                position += take
                self._remaining -= take
                if self._remaining == 0:
                    self._state = _CHUNK_END
                continue
            if self._state == _CHUNK_SIZE_LINE:
                plain = _PLAIN_CHUNK_SIZE_LINE.match(data, position)
                if plain is not None:
                    length = int(plain[1], 16)
                    position = plain.end()
                else:
                    end = data.find(b"\r\n", position)
                    if end < 0:
                        return self._keep(data, position)
                    length = _chunk_size(data[position:end])
                    position = end + 2
                if not length:
                    self._state = _TRAILERS
                    continue
                stop = position + length
                if data[stop:stop + 2] == b"\r\n":  # the whole chunk is here: the usual case
                    pieces.append(data[position:stop])
                    position = stop + 2
                else:
                    self._remaining = length
                    self._state = _CHUNK_DATA
                continue
            end = data.find(b"\r\n", position)
            if end < 0:
                return self._keep(data, position)
            line = data[position:end]
            position = end + 2
            if self._state == _CHUNK_END:
                if line:
                    raise ProtocolError("chunk data longer than its size")
                self._state = _CHUNK_SIZE_LINE
            elif not line:  # the blank line after the trailers
                return data[position:]
        return None

    def _keep(self, data: bytes, position: int) -> None:
        """A framing line not yet ended: kept for the next input."""
        if len(data) - position > MAX_HEAD_BYTES:
            raise ProtocolError("chunk framing line too long")
        self._buffer = data[position:]

    def _finish(self, rest: bytes) -> None:
        self._state = _DONE
        self.extra = bool(rest)
        self._sink.end()
