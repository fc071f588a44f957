"""The direct route: rounds to a plain-http gateway reached without a proxy
(every loopback gateway, where model servers usually run), over kept-alive
connections that are asyncio protocols.

A round here is callbacks, not a task: its request goes out as one write of
bytes encoded once per gateway plus the body, the reply is parsed
(``http11``) and handed to the round's ``ReplyIntake`` inside the loop's
``data_received`` call, and the future settles from there.  That is what
keeps a round's client time low: httpx's layers (httpcore, h11, anyio) cost
about four fifths of it.  Cancelling a round aborts its connection at once.

A round that finds an idle connection is sent by the thread that submits it
(``start_here``): waking the loop thread to send it cost more client time
than parsing the reply.  The idle pool, the set of rounds and each
connection's round are shared with that thread under the route's lock; all
else happens on the loop.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import zlib
from collections.abc import Callable, Mapping
from urllib.parse import quote, urlsplit

from .errors import NO_ANSWER_IN_TIME, CompletionError, ErrorKind
from .http11 import ProtocolError, ResponseHead, ResponseParser, request_head, with_body
from .intake import ReplyIntake, failure_of, transport_failed
from .receive_timer import RoundWatch

# What a content coding is undone with; httpx's choices (an unknown coding
# is taken as it is).
_DECOMPRESSOR_BITS = {"gzip": zlib.MAX_WBITS | 16, "deflate": zlib.MAX_WBITS}
RECEIVE_BUFFER_BYTES = 64 * 1024


class DirectRoute:
    def __init__(self, loop: asyncio.AbstractEventLoop, endpoint: str,
                 headers: Mapping[str, str | bytes], receive_timeout: float) -> None:
        parts = urlsplit(endpoint)
        self.loop = loop
        self._address = (parts.hostname, parts.port or 80)
        try:
            self._head: bytes | None = request_head(
                "POST", quote(parts.path, safe="/%!$&'()*+,;=:@-._~"), parts.netloc, headers)
        except ProtocolError:
            self._head = None  # a header no request may carry: every round fails as Transport
        self._idle: list[_Connection] = []
        self._rounds: set[_DirectRound] = set()
        self._closed = False
        self._lock = threading.Lock()  # the idle pool, the rounds, each connection's round
        self.watch = RoundWatch(loop, receive_timeout)

    def start_here(self, body: bytes, intake: ReplyIntake) -> Callable[[], None] | None:
        """From the submitting thread: send one round on an idle connection
        at once; returns what cancels it (on the loop), or None when the loop
        must start it (``start``): no idle connection, or no usable head."""
        if self._head is None:
            return None
        with self._lock:
            connection = self._claim()
            if connection is None:
                return None
            round_ = self._add(with_body(self._head, body), intake, connection)
            arm = self.watch.watch(round_)
            # Under the lock: the loop closes the socket under it when the connection is lost.
            connection.send_here(round_)
        if arm:
            self.loop.call_soon_threadsafe(self.watch.arm)
        return round_.cancel

    def start(self, body: bytes, intake: ReplyIntake) -> Callable[[], None]:
        """On the loop: send one round; returns what cancels it."""
        if self._head is None:
            intake.report.fail(transport_failed())
            return lambda: None
        with self._lock:
            connection = self._claim()
            round_ = self._add(with_body(self._head, body), intake, connection)
        if self.watch.watch(round_):
            self.watch.arm()
        if connection is None:
            round_.connect(self.loop.create_task(self._connect()))
        else:
            connection.transport.write(round_.request)
        return round_.cancel

    def _claim(self) -> _Connection | None:
        """An idle connection that can carry a round (under the lock)."""
        if self._closed:
            return None
        while self._idle:
            connection = self._idle.pop()
            if connection.usable:
                return connection
        return None

    def _add(self, request: bytes, intake: ReplyIntake, connection: _Connection | None) -> _DirectRound:
        round_ = _DirectRound(self, request, intake)
        self._rounds.add(round_)
        if connection is not None:
            round_.attach(connection)
        return round_

    async def _connect(self) -> _Connection:
        _, connection = await self.loop.create_connection(lambda: _Connection(self), *self._address)
        return connection

    def attach(self, round_: _DirectRound, connection: _Connection) -> None:
        with self._lock:
            round_.attach(connection)

    def detach(self, connection: _Connection) -> None:
        with self._lock:
            connection.round = None

    def release(self, connection: _Connection) -> None:
        with self._lock:
            connection.round = None
            if not connection.lost:
                self._idle.append(connection)

    def lost(self, connection: _Connection) -> _DirectRound | None:
        """The connection closed: out of the pool; returns the round it carried."""
        with self._lock:
            connection.lost = True
            if connection in self._idle:
                self._idle.remove(connection)
            round_, connection.round = connection.round, None
            connection.close_socket()
        return round_

    def finished(self, round_: _DirectRound) -> None:
        with self._lock:
            self._rounds.discard(round_)
        self.watch.unwatch(round_)

    def close(self) -> None:
        """Cancel the rounds still running and drop every connection."""
        with self._lock:
            self._closed = True
            rounds, idle, self._idle = list(self._rounds), self._idle, []
        for round_ in rounds:
            round_.intake.report.cancel()
            round_.cancel()
        for connection in idle:
            connection.transport.close()
        self.watch.close()


class _Connection(asyncio.BufferedProtocol):
    """One kept-alive connection.  It receives into a buffer of its own:
    a plain protocol gets a fresh 256 KiB bytes object per receive, which
    costs an mmap, an mremap and a munmap each time."""

    def __init__(self, route: DirectRoute) -> None:
        self._route = route
        self._buffer = memoryview(bytearray(RECEIVE_BUFFER_BYTES))
        self.transport: asyncio.Transport | None = None
        self._socket: socket.socket | None = None
        self.round: _DirectRound | None = None
        self.lost = False

    @property
    def usable(self) -> bool:
        return not self.lost and not self.transport.is_closing()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        # What the submitting thread sends on: the transport lends no socket
        # that sends.  Closed, under the route's lock, when the connection is.
        self._socket = transport.get_extra_info("socket").dup()

    def send_here(self, round_: _DirectRound) -> None:
        """From the submitting thread: send the round's request; what the
        socket does not take at once goes through the transport."""
        request = round_.request
        try:
            sent = self._socket.send(request)
        except OSError:
            sent = 0  # the transport's write meets the same error and ends the round
        if sent < len(request):
            self._route.loop.call_soon_threadsafe(round_.write, request[sent:])

    def close_socket(self) -> None:
        if self._socket is not None:
            self._socket.close()

    def get_buffer(self, sizehint: int) -> memoryview:
        return self._buffer

    def buffer_updated(self, nbytes: int) -> None:
        round_ = self.round
        if round_ is None:
            self.transport.abort()  # nothing may arrive on an idle connection
        else:
            round_.received(bytes(self._buffer[:nbytes]))

    def eof_received(self) -> None:
        # The peer closed its side: no more of a reply can come.  Closing
        # would wait for a request still being sent to drain, which a peer
        # that stopped reading never lets happen: the round would hang on
        # until its timeout.  Aborting drops the rest and ends it now.
        self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        round_ = self._route.lost(self)
        if round_ is not None:
            round_.lost()


class _DirectRound:
    """One round on the direct route: the sink of its response parser."""

    def __init__(self, route: DirectRoute, request: bytes, intake: ReplyIntake) -> None:
        self._route = route
        self._clock = route.loop.time
        self.request = request
        self.intake = intake
        self.last = 0.0  # when bytes last arrived (RoundWatch)
        self._parser = ResponseParser(self)
        self._connection: _Connection | None = None
        self._connecting: asyncio.Task | None = None
        self._decompressor = None
        self._ended = False  # cancelled or failed: nothing more may be sent

    def attach(self, connection: _Connection) -> None:
        self._connection = connection
        connection.round = self

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
            connection = task.result()
            self._route.attach(self, connection)
            connection.transport.write(self.request)

    def write(self, rest: bytes) -> None:
        """On the loop: the part of the request the submitting thread could not send."""
        if self._connection is not None:
            self._connection.transport.write(rest)

    def cancel(self) -> None:
        self._ended = True
        self._route.finished(self)
        if self._connecting is not None:
            self._connecting.cancel()
        connection, self._connection = self._connection, None
        if connection is not None:
            self._route.detach(connection)
            connection.transport.abort()

    def expire(self) -> None:
        self._fail(CompletionError(ErrorKind.TIMEOUT, NO_ANSWER_IN_TIME))

    # ---- from the connection
    def received(self, data: bytes) -> None:
        self.last = self._clock()
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
        self._route.finished(self)
        connection, self._connection = self._connection, None
        if connection is None:
            return  # the body ended with the connection
        # A reply may end before its request was all sent: request bytes still
        # queued would go out ahead of the next request's.
        if self._parser.keep_alive and not self._parser.extra \
                and not connection.transport.get_write_buffer_size():
            self._route.release(connection)
        else:
            self._route.detach(connection)
            connection.transport.close()
