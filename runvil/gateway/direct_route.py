"""The direct route: rounds to a plain-http gateway reached without a proxy
(every loopback gateway, where model servers usually run), over kept-alive
connections that are asyncio protocols.

A round here is callbacks, not a task: its request goes out as one write of
bytes encoded once per gateway plus the body, the reply is parsed
(``http11``) and handed to the round's ``ReplyIntake`` inside the loop's
``data_received`` call, and the future settles from there.  That is what
keeps a round's client time low: httpx's layers (httpcore, h11, anyio) cost
about four fifths of it.  Cancelling a round aborts its connection at once.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import Callable, Mapping
from urllib.parse import quote, urlsplit

from .errors import NO_ANSWER_IN_TIME, CompletionError, ErrorKind
from .http11 import ProtocolError, ResponseHead, ResponseParser, request_head, with_body
from .intake import ReplyIntake, failure_of, transport_failed
from .receive_timer import ReceiveTimer

# What a content coding is undone with; httpx's choices (an unknown coding
# is taken as it is).
_DECOMPRESSOR_BITS = {"gzip": zlib.MAX_WBITS | 16, "deflate": zlib.MAX_WBITS}
RECEIVE_BUFFER_BYTES = 64 * 1024


class DirectRoute:
    def __init__(self, loop: asyncio.AbstractEventLoop, endpoint: str,
                 headers: Mapping[str, str | bytes], receive_timeout: float) -> None:
        parts = urlsplit(endpoint)
        self.loop = loop
        self.receive_timeout = receive_timeout
        self._address = (parts.hostname, parts.port or 80)
        try:
            self._head: bytes | None = request_head(
                "POST", quote(parts.path, safe="/%!$&'()*+,;=:@-._~"), parts.netloc, headers)
        except ProtocolError:
            self._head = None  # a header no request may carry: every round fails as Transport
        self._idle: list[_Connection] = []
        self._rounds: set[_DirectRound] = set()

    def start(self, body: bytes, intake: ReplyIntake) -> Callable[[], None]:
        """Send one round; returns what cancels it."""
        if self._head is None:
            intake.report.fail(transport_failed())
            return lambda: None
        round_ = _DirectRound(self, with_body(self._head, body), intake)
        self._rounds.add(round_)
        while self._idle:
            connection = self._idle.pop()
            if connection.usable:
                round_.send(connection)
                return round_.cancel
        round_.connect(self.loop.create_task(self._connect()))
        return round_.cancel

    async def _connect(self) -> _Connection:
        _, connection = await self.loop.create_connection(lambda: _Connection(self), *self._address)
        return connection

    def release(self, connection: _Connection) -> None:
        self._idle.append(connection)

    def forget(self, connection: _Connection) -> None:
        if connection in self._idle:
            self._idle.remove(connection)

    def finished(self, round_: _DirectRound) -> None:
        self._rounds.discard(round_)

    def close(self) -> None:
        """Cancel the rounds still running and drop every connection."""
        for round_ in list(self._rounds):
            round_.intake.report.cancel()
            round_.cancel()
        for connection in self._idle:
            connection.transport.close()
        self._idle.clear()


class _Connection(asyncio.BufferedProtocol):
    """One kept-alive connection.  It receives into a buffer of its own:
    a plain protocol gets a fresh 256 KiB bytes object per receive, which
    costs an mmap, an mremap and a munmap each time."""

    def __init__(self, route: DirectRoute) -> None:
        self._route = route
        self._buffer = memoryview(bytearray(RECEIVE_BUFFER_BYTES))
        self.transport: asyncio.Transport | None = None
        self.round: _DirectRound | None = None
        self.usable = True

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def get_buffer(self, sizehint: int) -> memoryview:
        return self._buffer

    def buffer_updated(self, nbytes: int) -> None:
        if self.round is None:
            self.transport.abort()  # nothing may arrive on an idle connection
        else:
            self.round.received(bytes(self._buffer[:nbytes]))

    def connection_lost(self, exc: Exception | None) -> None:
        self.usable = False
        self._route.forget(self)
        round_, self.round = self.round, None
        if round_ is not None:
            round_.lost()


class _DirectRound:
    """One round on the direct route: the sink of its response parser."""

    def __init__(self, route: DirectRoute, request: bytes, intake: ReplyIntake) -> None:
        self._route = route
        self._request = request
        self.intake = intake
        self._parser = ResponseParser(self)
        self._connection: _Connection | None = None
        self._connecting: asyncio.Task | None = None
        self._decompressor = None
        self._ended = False  # cancelled or failed: nothing more may be sent
        self._timer = ReceiveTimer(route.loop, route.receive_timeout, self._expired)

    def connect(self, task: asyncio.Task) -> None:
        self._connecting = task
        task.add_done_callback(self._connected)

    def _connected(self, task: asyncio.Task) -> None:
        self._connecting = None
        if task.cancelled():
            return  # the round was cancelled or failed while connecting
        if task.exception() is not None:
            self._fail(transport_failed())
        elif self._ended:
            # It ended after the connection was made, before this callback:
            # nothing is sent, and the connection serves the next round.
            self._route.release(task.result())
        else:
            self.send(task.result())

    def send(self, connection: _Connection) -> None:
        self._connection = connection
        connection.round = self
        connection.transport.write(self._request)

    def cancel(self) -> None:
        self._ended = True
        self._timer.stop()
        self._route.finished(self)
        if self._connecting is not None:
            self._connecting.cancel()
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.round = None
            connection.transport.abort()

    # ---- from the connection
    def received(self, data: bytes) -> None:
        self._timer.touch()
        try:
            self._parser.feed(data)
        except Exception as raised:
            self._fail_raised(raised)

    def lost(self) -> None:
        self._connection = None
        try:
            self._parser.eof()
        except Exception as raised:
            self._fail_raised(raised)

    def _expired(self) -> None:
        self._fail(CompletionError(ErrorKind.TIMEOUT, NO_ANSWER_IN_TIME))

    def _fail_raised(self, raised: Exception) -> None:
        if isinstance(raised, ProtocolError):
            self._fail(transport_failed())
        elif isinstance(raised, zlib.error):
            self._fail(self.intake.unreadable())
        else:
            self._fail(failure_of(raised))

    def _fail(self, error: BaseException) -> None:
        self.intake.report.fail(error)
        self.cancel()

    # ---- from the parser
    def head(self, head: ResponseHead) -> None:
        headers = head.headers
        bits = _DECOMPRESSOR_BITS.get(headers.get("content-encoding", "").strip().lower())
        if bits is not None:
            self._decompressor = zlib.decompressobj(bits)
        self.intake.head(head.status, headers.get("content-type"), headers.get("content-length"))

    def body(self, data: bytes) -> None:
        if self._decompressor is not None:
            data = self._decompressor.decompress(data)
        if data:
            self.intake.body(data)

    def end(self) -> None:
        if self._decompressor is not None:
            rest = self._decompressor.flush()
            if rest:
                self.intake.body(rest)
        self.intake.end()
        self._timer.stop()
        self._route.finished(self)
        connection, self._connection = self._connection, None
        if connection is None:
            return  # the body ended with the connection
        connection.round = None
        if self._parser.keep_alive and not self._parser.extra:
            self._route.release(connection)
        else:
            connection.transport.close()
