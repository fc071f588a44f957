"""The network side of the client: httpx.AsyncClient on one event-loop thread.

Rounds run as tasks on a private asyncio loop so that a waiting round can be
abandoned at once: cancelling its task closes the connection mid-wait, which a
blocking socket read in the caller's thread could not do.  A round reports to
its caller through a queue, in order: ``("fragments", [(kind, text), ...])``
any number of times, ``("response", status, body)`` when the caller asked for
debug capture and a response arrived, then exactly one terminal item,
``("done", Completion)``, ``("error", CompletionError)`` or
``("crash", exception)`` for a bug.

This module imports httpx, so the client imports it only for a first round.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import queue
import threading

import httpx

from .classify import classify_status, classify_stream_error
from .config import GatewayConfig
from .errors import (
    NO_ANSWER_IN_TIME,
    TRANSPORT_FAILED,
    CompletionError,
    ErrorKind,
    malformed,
)
from .readers import EventStreamReply, JsonReply
from .reply import StreamErrorReported


def _advertised_length(response: httpx.Response) -> int | None:
    value = response.headers.get("content-length", "")
    return int(value) if value.isdigit() else None


def _media_type(response: httpx.Response) -> str:
    return response.headers.get("content-type", "").partition(";")[0].strip().lower()


class Transport:
    """One gateway's connection pool, its event-loop thread and its rounds."""

    def __init__(self, config: GatewayConfig, *, receive_timeout: float, response_cap: int) -> None:
        self._endpoint = config.endpoint
        self._receive_timeout = receive_timeout
        self._cap = response_cap
        headers = {
            "content-type": "application/json",
            "accept": "text/event-stream",
            # The cap counts bytes as they arrive; compression would let a
            # small count expand into a huge reply.
            "accept-encoding": "identity",
            "user-agent": "runvil",
        }
        if config.api_key is not None:
            headers["authorization"] = b"Bearer " + config.api_key.encode("utf-8")
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever,
                                        name="runvil-gateway", daemon=True)
        self._thread.start()
        # Proxy and CA variables apply to remote gateways; a loopback gateway
        # is always reached directly.
        self._http = self._call(self._open(headers, trust_env=not config.is_loopback)).result()

    def _call(self, coroutine) -> concurrent.futures.Future:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop)

    @staticmethod
    async def _open(headers: dict, *, trust_env: bool) -> httpx.AsyncClient:
        # Built on the loop that will use it.  No httpx timeouts: they are per
        # socket operation, while the receive timeout is one window from the
        # send to the headers, then one per chunk (_ReceiveTimer).
        return httpx.AsyncClient(headers=headers, timeout=None, trust_env=trust_env)

    def start_round(self, body: bytes, *, tools_advertised: bool, capture: bool,
                    out: queue.SimpleQueue) -> concurrent.futures.Future:
        return self._call(self._round(body, tools_advertised, capture, out))

    def close(self) -> None:
        self._call(self._shutdown()).result()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    async def _shutdown(self) -> None:
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self._http.aclose()

    async def _round(self, body: bytes, tools_advertised: bool, capture: bool,
                     out: queue.SimpleQueue) -> None:
        report = _Report(out, capture)
        timer = _ReceiveTimer(self._receive_timeout)
        try:
            try:
                async with self._http.stream("POST", self._endpoint, content=body) as response:
                    timer.touch()  # headers are in: now each chunk
                    await self._answer(response, timer, tools_advertised, report)
            finally:
                timer.stop()
        except asyncio.CancelledError:
            if not timer.expired:
                raise  # the caller gave up, or the client is closing
            asyncio.current_task().uncancel()
            report.end("error", CompletionError(ErrorKind.TIMEOUT, NO_ANSWER_IN_TIME))
        except CompletionError as error:
            report.end("error", error)
        except StreamErrorReported as reported:
            report.end("error", classify_stream_error(reported.text))
        except httpx.DecodingError:
            report.end("error", malformed("reply body could not be decoded"))
        except httpx.HTTPError:
            report.end("error", CompletionError(ErrorKind.TRANSPORT, TRANSPORT_FAILED))
        except Exception as bug:  # surfaces in the caller's thread, not lost here
            report.end("crash", bug)

    async def _answer(self, response: httpx.Response, timer: _ReceiveTimer,
                      tools_advertised: bool, report: _Report) -> None:
        """Read one response and report it.

        After a successful reply the rest of the body is still read (and
        dropped) so httpx can reuse the connection for the next round.
        """
        report.status = response.status_code
        if not response.is_success:
            raise await self._error_reply(response, timer, report)
        media = _media_type(response)
        if media == "text/event-stream":
            reader = EventStreamReply()
        elif media == "application/json":
            reader = JsonReply()
        else:
            raise malformed("reply has an unexpected content type")
        over_cap = f"response stream exceeds the {self._cap}-byte limit"
        length = _advertised_length(response)
        if length is not None and length > self._cap:
            raise malformed(over_cap)
        total = 0
        chunks = response.aiter_bytes()
        async for chunk in chunks:
            timer.touch()
            total += len(chunk)
            if total > self._cap:
                raise malformed(over_cap)  # before any of this chunk is decoded
            report.received(chunk)
            report.fragments(reader.feed(chunk))
            if reader.done:
                break
        report.fragments(reader.close())
        report.end("done", reader.builder.build(tools_advertised=tools_advertised))
        async for chunk in chunks:
            timer.touch()
            total += len(chunk)
            if total > self._cap:
                break

    async def _error_reply(self, response: httpx.Response, timer: _ReceiveTimer,
                           report: _Report) -> CompletionError:
        length = _advertised_length(response)
        if length is not None and length > self._cap:
            return malformed(f"response body of {length} bytes exceeds the {self._cap}-byte limit")
        body = bytearray()
        try:
            async for chunk in response.aiter_bytes():
                timer.touch()
                body += chunk
                if len(body) > self._cap:
                    return malformed(f"response body exceeds the {self._cap}-byte limit")
                report.received(chunk)
        except httpx.HTTPError:
            # "an error reply whose body cannot be read" is a Transport failure.
            return CompletionError(ErrorKind.TRANSPORT, TRANSPORT_FAILED)
        return classify_status(response.status_code, bytes(body))


class _ReceiveTimer:
    """The receive timeout of one round: it cancels the round's task once no
    headers or chunk arrived for ``timeout`` seconds, and no sooner.

    A chunk only records its arrival time; the timer re-arms itself lazily
    when it fires early.  A busy stream thus costs one clock read per chunk,
    not a timer reschedule (which was a tenth of a round's client time).
    """

    def __init__(self, timeout: float) -> None:
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.current_task()
        self._timeout = timeout
        self.expired = False
        self.last = self._loop.time()
        self._handle = self._loop.call_at(self.last + timeout, self._check)

    def touch(self) -> None:
        self.last = self._loop.time()

    def stop(self) -> None:
        self._handle.cancel()

    def _check(self) -> None:
        deadline = self.last + self._timeout
        if self._loop.time() < deadline:
            self._handle = self._loop.call_at(deadline, self._check)
        else:
            self.expired = True
            self._task.cancel()


class _Report:
    """A round's side of the queue: at most one terminal item, preceded by
    the raw response when the caller asked for debug capture."""

    def __init__(self, out: queue.SimpleQueue, capture: bool) -> None:
        self._out = out
        self._body: list[bytes] | None = [] if capture else None
        self._ended = False
        self.status: int | None = None

    def received(self, chunk: bytes) -> None:
        if self._body is not None:
            self._body.append(chunk)

    def fragments(self, fragments: list[tuple[str, str]]) -> None:
        if fragments:
            self._out.put(("fragments", fragments))

    def end(self, tag: str, value: object) -> None:
        # A failure while draining a delivered reply concerns nobody.
        if self._ended:
            return
        self._ended = True
        if self._body is not None and self.status is not None:
            self._out.put(("response", self.status, b"".join(self._body)))
        self._out.put((tag, value))
