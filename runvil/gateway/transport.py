"""The network side of the client: an httpx transport on one event-loop thread.

Every round of a client is a task on one private asyncio loop, so that a
waiting round can be abandoned at once: cancelling its task closes the
connection mid-wait, which a blocking socket read could not do.  A round
settles a ``concurrent.futures.Future`` its caller holds (a ``Completion``,
a ``CompletionError``, or the exception of a bug); cancelling that future
cancels the task.  The round's listeners are called on the loop thread.

This module imports httpx, so the client imports it only for a first round.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import sys
import threading
import urllib.parse
import urllib.request

import httpx

try:
    import sniffio  # noqa: F401
except ImportError:
    # httpcore tries ``import sniffio`` each time it sets up a lock, several
    # times a round; without the package each failed import searches the
    # whole sys.path again (a quarter of a round's client time).  A None
    # entry makes the import fail at once, as Python documents.
    sys.modules.setdefault("sniffio", None)

from .classify import classify_status, classify_stream_error
from .config import GatewayConfig
from .errors import (
    NO_ANSWER_IN_TIME,
    TRANSPORT_FAILED,
    CompletionError,
    ErrorKind,
    malformed,
)
from .listeners import DebugCapture, RoundListeners
from .model_list import ModelInfo, parse_model_list
from .readers import EventStreamReply, JsonReply
from .reply import Completion, StreamErrorReported


def _advertised_length(response: httpx.Response) -> int | None:
    value = response.headers.get("content-length", "")
    return int(value) if value.isdigit() else None


def _media_type(response: httpx.Response) -> str:
    return response.headers.get("content-type", "").partition(";")[0].strip().lower()


def _environment_proxy(url: str) -> str | None:
    """The proxy the environment names for ``url``: HTTP_PROXY or HTTPS_PROXY
    by its scheme, else ALL_PROXY, unless NO_PROXY covers its host (the
    variables httpx reads, through the same standard-library lookup)."""
    parts = urllib.parse.urlsplit(url)
    if urllib.request.proxy_bypass(parts.hostname or ""):
        return None
    proxies = urllib.request.getproxies()
    proxy = proxies.get(parts.scheme) or proxies.get("all")
    if not proxy:
        return None
    return proxy if "://" in proxy else f"http://{proxy}"


class Transport:
    """One gateway's connection pool, its event-loop thread and its rounds.

    ``http_transport`` replaces httpx's network transport (an
    ``httpx.MockTransport`` in byte-level unit tests).
    """

    def __init__(self, config: GatewayConfig, *, receive_timeout: float, response_cap: int,
                 http_transport: httpx.AsyncBaseTransport | None = None) -> None:
        self._endpoint = httpx.URL(config.endpoint)
        self._models_url = httpx.URL(f"{config.url}/models")
        self._receive_timeout = receive_timeout
        self._cap = response_cap
        self._headers = {
            "content-type": "application/json",
            "accept": "text/event-stream",
            # The cap counts bytes as they arrive; compression would let a
            # small count expand into a huge reply.
            "accept-encoding": "identity",
            "user-agent": "runvil",
        }
        if config.api_key is not None:
            self._headers["authorization"] = b"Bearer " + config.api_key.encode("utf-8")
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever,
                                        name="runvil-gateway", daemon=True)
        self._thread.start()
        self._http = http_transport or asyncio.run_coroutine_threadsafe(
            self._open(config), self._loop).result()

    @staticmethod
    async def _open(config: GatewayConfig) -> httpx.AsyncHTTPTransport:
        # Built on the loop that will use it.  Rounds go to the transport
        # itself, not through an httpx.AsyncClient, whose auth, redirect and
        # cookie steps (none of which a round uses) cost an eighth of a
        # round's client time.  No httpx timeouts: they are per socket
        # operation, while the receive timeout is one window from the send
        # to the headers, then one per chunk (_ReceiveTimer).  Proxy and CA
        # variables apply to remote gateways; a loopback gateway is always
        # reached directly.
        if config.is_loopback:
            return httpx.AsyncHTTPTransport(trust_env=False)
        return httpx.AsyncHTTPTransport(trust_env=True, proxy=_environment_proxy(config.url))

    def submit(self, body: bytes, *, tools_advertised: bool,
               listeners: RoundListeners) -> concurrent.futures.Future:
        """Start one round; the future settles with its Completion or failure."""
        future: concurrent.futures.Future = concurrent.futures.Future()
        self._loop.call_soon_threadsafe(self._start, body, tools_advertised, listeners, future)
        return future

    def list_models(self, timeout: float) -> concurrent.futures.Future:
        """``GET {url}/models``; the future settles with a tuple of ModelInfo."""
        return asyncio.run_coroutine_threadsafe(self._models(timeout), self._loop)

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop).result()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def _start(self, body: bytes, tools_advertised: bool, listeners: RoundListeners,
               future: concurrent.futures.Future) -> None:
        if future.cancelled():
            return  # cancelled before the loop got to it: nothing is sent
        task = self._loop.create_task(self._round(body, tools_advertised, listeners, future))
        future.add_done_callback(lambda done: done.cancelled() and self._cancel_soon(task))

    def _cancel_soon(self, task: asyncio.Task) -> None:
        # A future the loop cancelled itself (close) needs nothing more.
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(task.cancel)

    async def _shutdown(self) -> None:
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self._http.aclose()

    async def _round(self, body: bytes, tools_advertised: bool, listeners: RoundListeners,
                     future: concurrent.futures.Future) -> None:
        report = _Report(future, listeners)
        timer = _ReceiveTimer(self._receive_timeout)
        try:
            try:
                response = await self._http.handle_async_request(
                    httpx.Request("POST", self._endpoint, headers=self._headers, content=body))
                try:
                    timer.touch()  # headers are in: now each chunk
                    await self._answer(response, timer, tools_advertised, report)
                finally:
                    await response.aclose()  # a reply not read to its end closes the connection
            finally:
                timer.stop()
        except asyncio.CancelledError:
            if not timer.expired:
                future.cancel()  # the caller gave up, or the client is closing
                raise
            asyncio.current_task().uncancel()
            report.fail(CompletionError(ErrorKind.TIMEOUT, NO_ANSWER_IN_TIME))
        except CompletionError as error:
            report.fail(error)
        except StreamErrorReported as reported:
            report.fail(classify_stream_error(reported.text))
        except httpx.DecodingError:
            report.fail(malformed("reply body could not be decoded"))
        except httpx.HTTPError:
            report.fail(CompletionError(ErrorKind.TRANSPORT, TRANSPORT_FAILED))
        except Exception as bug:  # a listener's exception, or a bug: the caller gets it
            report.fail(bug)

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
        report.finish(reader.builder.build(tools_advertised=tools_advertised))
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

    async def _models(self, timeout: float) -> tuple[ModelInfo, ...]:
        body = bytearray()
        try:
            async with asyncio.timeout(timeout):
                response = await self._http.handle_async_request(httpx.Request(
                    "GET", self._models_url, headers={**self._headers, "accept": "application/json"}))
                try:
                    async for chunk in response.aiter_bytes():
                        body += chunk
                        if len(body) > self._cap:
                            raise malformed(f"response body exceeds the {self._cap}-byte limit")
                finally:
                    await response.aclose()
        except TimeoutError:
            raise CompletionError(ErrorKind.TIMEOUT, NO_ANSWER_IN_TIME) from None
        except httpx.HTTPError:
            raise CompletionError(ErrorKind.TRANSPORT, TRANSPORT_FAILED) from None
        if not response.is_success:
            raise classify_status(response.status_code, bytes(body))
        return parse_model_list(bytes(body))


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
    """A round's side of its future: the listeners as the reply comes in,
    then the one result, preceded by the raw response in debug mode."""

    def __init__(self, future: concurrent.futures.Future, listeners: RoundListeners) -> None:
        self._future = future
        self._on_text = listeners.on_text
        self._on_reasoning = listeners.on_reasoning
        self._debug = listeners.debug
        self._body: list[bytes] | None = [] if listeners.debug is not None else None
        self._ended = False
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

    def fail(self, error: BaseException) -> None:
        self._end(None, error)

    def _end(self, completion: Completion | None, error: BaseException | None) -> None:
        # A failure while draining a delivered reply concerns nobody, nor
        # does any result of a round its caller cancelled.
        if self._ended:
            return
        self._ended = True
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
