"""The httpx route: rounds through an httpx transport, each a task.

It carries what the direct route does not: https and proxied gateways
(httpx's TLS, CA and proxy handling), a transport given to the client (an
``httpx.MockTransport`` in byte-level unit tests), and the model list.
Cancelling a round's task interrupts its wait on the socket at once.

This module imports httpx, so the client imports it only when a round or a
listing needs this route.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable

import httpx

try:
    import sniffio  # noqa: F401
except ImportError:
    # httpcore tries ``import sniffio`` each time it sets up a lock, several
    # times a round; without the package each failed import searches the
    # whole sys.path again (a quarter of a round's client time).  A None
    # entry makes the import fail at once, as Python documents.
    sys.modules.setdefault("sniffio", None)

from .classify import classify_status
from .config import GatewayConfig
from .errors import NO_ANSWER_IN_TIME, CompletionError, ErrorKind, malformed
from .intake import ReplyIntake, failure_of, transport_failed
from .model_list import ModelInfo, parse_model_list
from .receive_timer import ReceiveTimer


class HttpxRoute:
    def __init__(self, http: httpx.AsyncBaseTransport, config: GatewayConfig,
                 headers: dict[str, str | bytes], receive_timeout: float, cap: int) -> None:
        self._http = http
        self._endpoint = httpx.URL(config.endpoint)
        self._models_url = httpx.URL(f"{config.url}/models")
        self._headers = headers
        self._timeout = receive_timeout
        self._cap = cap
        self._tasks: set[asyncio.Task] = set()

    @staticmethod
    def network(config: GatewayConfig, proxy: str | None) -> httpx.AsyncHTTPTransport:
        """httpx's network transport; built on the loop that will use it.

        Rounds go to the transport itself, not through an httpx.AsyncClient,
        whose auth, redirect and cookie steps (none of which a round uses)
        cost an eighth of a round's client time.  No httpx timeouts: they are
        per socket operation, while the receive timeout is one window from
        the send to the headers, then one per chunk (ReceiveTimer).  Proxy
        and CA variables apply to remote gateways only.
        """
        if config.is_loopback:
            return httpx.AsyncHTTPTransport(trust_env=False)
        return httpx.AsyncHTTPTransport(trust_env=True, proxy=proxy)

    def start(self, body: bytes, intake: ReplyIntake) -> Callable[[], None]:
        """Start one round as a task; returns what cancels it."""
        task = asyncio.get_running_loop().create_task(self._round(body, intake))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task.cancel

    async def _round(self, body: bytes, intake: ReplyIntake) -> None:
        task = asyncio.current_task()
        timer = ReceiveTimer(asyncio.get_running_loop(), self._timeout, task.cancel)
        try:
            try:
                response = await self._http.handle_async_request(
                    httpx.Request("POST", self._endpoint, headers=self._headers, content=body))
                try:
                    timer.touch()  # headers are in: now each chunk
                    intake.head(response.status_code, response.headers.get("content-type"),
                                response.headers.get("content-length"))
                    async for chunk in response.aiter_bytes():
                        timer.touch()
                        intake.body(chunk)
                    intake.end()
                finally:
                    await response.aclose()  # a reply not read to its end closes the connection
            finally:
                timer.stop()
        except asyncio.CancelledError:
            if not timer.expired:
                intake.report.cancel()  # the caller gave up, or the client is closing
                raise
            task.uncancel()
            intake.report.fail(CompletionError(ErrorKind.TIMEOUT, NO_ANSWER_IN_TIME))
        except httpx.DecodingError:
            intake.report.fail(intake.unreadable())
        except httpx.HTTPError:
            intake.report.fail(transport_failed())
        except Exception as raised:
            intake.report.fail(failure_of(raised))

    async def models(self, timeout: float) -> tuple[ModelInfo, ...]:
        """``GET {url}/models``: the listed models, or the failure raised."""
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
            raise transport_failed() from None
        if not response.is_success:
            raise classify_status(response.status_code, bytes(body))
        return parse_model_list(bytes(body))

    async def close(self) -> None:
        """Cancel the rounds still running and drop every connection."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self._http.aclose()
