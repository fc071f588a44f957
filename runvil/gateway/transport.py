"""The network side of the client: one event-loop thread and its routes.

Every round of a client runs on one private asyncio loop, so that a waiting
round can be abandoned at once: cancelling it closes its connection
mid-wait, which a blocking socket read could not do.  (A direct round that
finds an idle connection is sent by the submitting thread itself; its reply
is still received on the loop.)  A round settles a
``concurrent.futures.Future`` its caller holds (a ``Completion``, a
``CompletionError``, or the exception of a bug); cancelling that future
cancels the round.  The round's listeners are called on the loop thread.

A round takes one of two routes.  A plain-http gateway reached without a
proxy (every loopback gateway) gets the direct route (``direct_route``), a
lean HTTP/1.1 client on asyncio protocols; https, a proxy, or a transport
given by the caller take the httpx route (``httpx_route``), which the model
list always uses.  httpx is imported only when that route is first needed.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import TYPE_CHECKING

from .config import GatewayConfig
from .direct_route import DirectRoute
from .intake import ReplyIntake, RoundReport
from .listeners import RoundListeners

if TYPE_CHECKING:
    import httpx

    from .httpx_route import HttpxRoute


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
    """One gateway's routes, their event-loop thread and its rounds.

    ``http_transport`` replaces httpx's network transport (an
    ``httpx.MockTransport`` in byte-level unit tests); every round then
    takes the httpx route.
    """

    def __init__(self, config: GatewayConfig, *, receive_timeout: float, response_cap: int,
                 http_transport: httpx.AsyncBaseTransport | None = None) -> None:
        self._config = config
        self._receive_timeout = receive_timeout
        self._cap = response_cap
        self._headers: dict[str, str | bytes] = {
            "content-type": "application/json",
            "accept": "text/event-stream",
            # The cap counts bytes as they arrive; compression would let a
            # small count expand into a huge reply.
            "accept-encoding": "identity",
            "user-agent": "runvil",
        }
        if config.api_key is not None:
            self._headers["authorization"] = b"Bearer " + config.api_key.encode("utf-8")
        self._http_transport = http_transport
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever,
                                        name="runvil-gateway", daemon=True)
        self._thread.start()
        self._proxy = None if config.is_loopback else _environment_proxy(config.url)
        self._direct: DirectRoute | None = None
        if http_transport is None and config.url.startswith("http://") and config.url.isascii() \
                and self._proxy is None:
            self._direct = DirectRoute(self._loop, config.endpoint, self._headers, receive_timeout)
        self._httpx: HttpxRoute | None = None

    def submit(self, body: bytes, *, tools_advertised: bool,
               listeners: RoundListeners) -> concurrent.futures.Future:
        """Start one round; the future settles with its Completion or failure.
        A direct round that finds an idle connection is sent from this
        thread; any other round is started on the loop."""
        future: concurrent.futures.Future = concurrent.futures.Future()
        intake = ReplyIntake(RoundReport(future, listeners), cap=self._cap,
                             tools_advertised=tools_advertised)
        if self._direct is None or not self._begin(self._direct.start_here, body, intake, future):
            self._loop.call_soon_threadsafe(self._start, body, intake, future)
        return future

    def list_models(self, timeout: float) -> concurrent.futures.Future:
        """``GET {url}/models``; the future settles with a tuple of ModelInfo."""
        async def models():
            return await self._httpx_route().models(timeout)
        return asyncio.run_coroutine_threadsafe(models(), self._loop)

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop).result()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def _start(self, body: bytes, intake: ReplyIntake, future: concurrent.futures.Future) -> None:
        if future.cancelled():
            return  # cancelled before the loop got to it: nothing is sent
        self._begin(self._route_start, body, intake, future)

    def _route_start(self, body: bytes, intake: ReplyIntake) -> Callable[[], None]:
        return (self._direct or self._httpx_route()).start(body, intake)

    def _begin(self, start: Callable[[bytes, ReplyIntake], Callable[[], None] | None], body: bytes,
               intake: ReplyIntake, future: concurrent.futures.Future) -> bool:
        """Start the round with ``start``; False when it declined to."""
        try:
            cancel = start(body, intake)
        except Exception as bug:  # the caller gets it rather than waiting for ever
            intake.report.fail(bug)
            return True
        if cancel is None:
            return False
        future.add_done_callback(lambda done: done.cancelled() and self._cancel_soon(cancel))
        return True

    def _cancel_soon(self, cancel: Callable[[], None]) -> None:
        # A future the loop cancelled itself (close) needs nothing more.
        try:
            self._loop.call_soon_threadsafe(cancel)
        except RuntimeError:
            pass  # the loop is closed: so is every connection

    def _httpx_route(self) -> HttpxRoute:
        if self._httpx is None:
            from .httpx_route import HttpxRoute  # imports httpx: only when a round needs it
            http = self._http_transport or HttpxRoute.network(self._config, self._proxy)
            self._httpx = HttpxRoute(http, self._config, self._headers,
                                     self._receive_timeout, self._cap)
        return self._httpx

    async def _shutdown(self) -> None:
        if self._direct is not None:
            self._direct.close()
        if self._httpx is not None:
            await self._httpx.close()
