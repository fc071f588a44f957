"""The gateway client the Harness calls for each model round.

``GatewayClient.complete`` is blocking and thread-safe: the Harness may run
rounds from several worker threads at once.  Each call streams one chat
completion and returns a ``Completion`` or raises ``CompletionError``
(``RoundCancelled`` when the caller's cancel hook fires).  Callbacks run in
the calling thread.  httpx (and the network thread) start with the first
round that needs them, so runs without model calls never import httpx.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from .config import GatewayConfig
from .errors import ACCESS_OFF, CompletionError, ErrorKind, RoundCancelled
from .reply import Completion

if TYPE_CHECKING:
    from .transport import Transport

DEFAULT_RECEIVE_TIMEOUT = 120.0          # seconds, per wait for headers or a chunk
DEFAULT_RESPONSE_CAP = 16 * 1024 * 1024  # bytes, per reply
CANCEL_POLL_SECONDS = 0.02               # how late a cancel may be noticed while waiting

_ENDED = ("ended", None)  # the round's task finished, or was cancelled by close()


@dataclass(frozen=True, slots=True)
class DebugCapture:
    """Raw model traffic for Host debug mode; ``status`` only on a response."""

    direction: Literal["request", "response"]
    body: bytes
    status: int | None = None


class GatewayClient:
    """Model rounds against one gateway.

    ``config`` None means model access is turned off or not configured: every
    round then fails as Unavailable and nothing touches the network.
    """

    def __init__(self, config: GatewayConfig | None, *,
                 receive_timeout: float = DEFAULT_RECEIVE_TIMEOUT,
                 response_cap: int = DEFAULT_RESPONSE_CAP) -> None:
        if not receive_timeout > 0:
            raise ValueError("receive timeout must be positive")
        if type(response_cap) is not int or response_cap < 1:
            raise ValueError("response cap must be an integer of at least 1")
        self.config = config
        self.receive_timeout = receive_timeout
        self.response_cap = response_cap
        self._transport: Transport | None = None
        self._closed = False
        self._lock = threading.Lock()

    def __enter__(self) -> GatewayClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Drop connections and stop the network thread; rounds still waiting
        end with RoundCancelled."""
        with self._lock:
            self._closed = True
            transport, self._transport = self._transport, None
        if transport is not None:
            transport.close()

    def complete(self, request: Mapping[str, Any], *,
                 cancel: Callable[[], bool] | threading.Event | None = None,
                 on_text: Callable[[str], None] | None = None,
                 on_reasoning: Callable[[str], None] | None = None,
                 debug: Callable[[DebugCapture], None] | None = None,
                 accept_tool_calls: bool | None = None) -> Completion:
        """Send one chat-completion request and wait for the whole reply.

        ``request`` is the OpenAI request body (model, messages, tools,
        sampling options); ``stream`` is forced on and usage is requested.
        ``cancel`` (a threading.Event or a callable returning true once the
        round must end) is polled while waiting: once set, the connection is
        dropped and RoundCancelled raised within about CANCEL_POLL_SECONDS.
        ``on_text`` and ``on_reasoning`` get fragments as they arrive;
        ``debug`` gets the raw request body before sending and the raw
        response body before the result.  A reply with tool calls is
        malformed unless the request advertised tools, or
        ``accept_tool_calls`` says the caller judges tool calls itself.
        """
        if self.config is None:
            raise CompletionError(ErrorKind.UNAVAILABLE, ACCESS_OFF)
        if isinstance(cancel, threading.Event):
            cancel = cancel.is_set
        if cancel is not None and cancel():
            raise RoundCancelled()
        payload = dict(request)
        payload["stream"] = True
        # Usage feeds the precheck's provider anchor; OpenAI streams send it
        # only when asked.
        payload.setdefault("stream_options", {"include_usage": True})
        body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if debug is not None:
            debug(DebugCapture("request", body))
        out: queue.SimpleQueue = queue.SimpleQueue()
        future = self._get_transport().start_round(
            body, tools_advertised=bool(request.get("tools")) if accept_tool_calls is None else accept_tool_calls,
            capture=debug is not None, out=out)
        future.add_done_callback(lambda _: out.put(_ENDED))
        poll = CANCEL_POLL_SECONDS if cancel is not None else None
        finished = False
        try:
            while True:
                try:
                    tag, *value = out.get(timeout=poll)
                except queue.Empty:
                    tag = None
                if cancel is not None and cancel():
                    raise RoundCancelled()
                if tag == "fragments":
                    for kind, text in value[0]:
                        callback = on_text if kind == "text" else on_reasoning
                        if callback is not None:
                            callback(text)
                elif tag == "response":
                    debug(DebugCapture("response", value[1], value[0]))
                elif tag == "done":
                    finished = True
                    return value[0]
                elif tag in ("error", "crash"):
                    finished = True
                    raise value[0]
                elif tag == "ended":
                    raise RoundCancelled()
        finally:
            if not finished:
                future.cancel()  # drops the connection; a finished round may still be draining

    def _get_transport(self) -> Transport:
        with self._lock:
            if self._closed:
                raise RuntimeError("the gateway client is closed")
            if self._transport is None:
                from .transport import Transport  # imports httpx: only when a round needs it
                self._transport = Transport(self.config, receive_timeout=self.receive_timeout,
                                            response_cap=self.response_cap)
            return self._transport
