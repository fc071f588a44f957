"""The gateway client the Harness calls for each model round.

``GatewayClient.submit`` starts one streamed chat completion and returns a
``concurrent.futures.Future`` at once: it settles with a ``Completion`` or a
``CompletionError``, and cancelling it cancels the round (its connection
closes at once).  All rounds of a client run on one event-loop thread,
where their listeners are called too.  ``complete`` is the blocking
form.  httpx (and the loop thread) start with the first round that needs
them, so runs without model calls never import either.
"""

from __future__ import annotations

import concurrent.futures
import json
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .config import GatewayConfig
from .errors import ACCESS_OFF, CompletionError, ErrorKind, RoundCancelled
from .listeners import DebugCapture, RoundListeners
from .model_list import ModelInfo
from .reply import Completion

if TYPE_CHECKING:
    import httpx

    from .transport import Transport

DEFAULT_RECEIVE_TIMEOUT = 120.0          # seconds, per wait for headers or a chunk
DEFAULT_RESPONSE_CAP = 16 * 1024 * 1024  # bytes, per reply
DEFAULT_LIST_TIMEOUT = 10.0              # seconds for the whole model list

# Compact UTF-8 JSON; one encoder for every round (json.dumps with options
# builds a new one per call).
_BODY_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


class GatewayClient:
    """Model rounds against one gateway.

    ``config`` None means model access is turned off or not configured: every
    round then fails as Unavailable and nothing touches the network.
    ``transport`` replaces httpx's network transport (for example an
    ``httpx.MockTransport`` in unit tests).
    """

    def __init__(self, config: GatewayConfig | None, *,
                 receive_timeout: float = DEFAULT_RECEIVE_TIMEOUT,
                 response_cap: int = DEFAULT_RESPONSE_CAP,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        if not receive_timeout > 0:
            raise ValueError("receive timeout must be positive")
        if type(response_cap) is not int or response_cap < 1:
            raise ValueError("response cap must be an integer of at least 1")
        self.config = config
        self.receive_timeout = receive_timeout
        self.response_cap = response_cap
        self._http_transport = transport
        self._transport: Transport | None = None
        self._closed = False
        self._lock = threading.Lock()

    def __enter__(self) -> GatewayClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Drop connections and stop the loop thread; rounds still running
        are cancelled."""
        with self._lock:
            self._closed = True
            transport, self._transport = self._transport, None
        if transport is not None:
            transport.close()

    def submit(self, request: Mapping[str, Any], *,
               on_text: Callable[[str], None] | None = None,
               on_reasoning: Callable[[str], None] | None = None,
               debug: Callable[[DebugCapture], None] | None = None,
               accept_tool_calls: bool | None = None) -> concurrent.futures.Future:
        """Start one chat-completion round; returns its future at once.

        ``request`` is the OpenAI request body (model, messages, tools,
        sampling options); ``stream`` is forced on and usage is requested.
        ``on_text`` and ``on_reasoning`` get fragments as they arrive;
        ``debug`` gets the raw request body before sending (on this thread)
        and the raw response body just before the future settles.  A reply
        with tool calls is malformed unless the request advertised tools, or
        ``accept_tool_calls`` says the caller judges tool calls itself.
        """
        if self.config is None:
            unavailable: concurrent.futures.Future = concurrent.futures.Future()
            unavailable.set_exception(CompletionError(ErrorKind.UNAVAILABLE, ACCESS_OFF))
            return unavailable
        payload = dict(request)
        payload["stream"] = True
        # Usage feeds the precheck's provider anchor; OpenAI streams send it
        # only when asked.
        payload.setdefault("stream_options", {"include_usage": True})
        body = _BODY_ENCODER.encode(payload).encode("utf-8")
        if debug is not None:
            debug(DebugCapture("request", body))
        tools_advertised = bool(request.get("tools")) if accept_tool_calls is None else accept_tool_calls
        return self._get_transport().submit(
            body, tools_advertised=tools_advertised,
            listeners=RoundListeners(on_text, on_reasoning, debug))

    def complete(self, request: Mapping[str, Any], **listeners: Any) -> Completion:
        """``submit`` and wait: the Completion, or its CompletionError;
        RoundCancelled when the client is closed under the round."""
        future = self.submit(request, **listeners)
        try:
            return future.result()
        except concurrent.futures.CancelledError:
            raise RoundCancelled() from None
        finally:
            future.cancel()  # this thread was interrupted: drop the round

    def list_models(self, *, timeout: float = DEFAULT_LIST_TIMEOUT) -> tuple[ModelInfo, ...]:
        """The models ``GET {url}/models`` lists, in the server's order.

        Raises CompletionError like a round does (its kind and phrase); a
        listing that takes longer than ``timeout`` in all is a Timeout.
        """
        if self.config is None:
            raise CompletionError(ErrorKind.UNAVAILABLE, ACCESS_OFF)
        return self._get_transport().list_models(timeout).result()

    def _get_transport(self) -> Transport:
        with self._lock:
            if self._closed:
                raise RuntimeError("the gateway client is closed")
            if self._transport is None:
                from .transport import Transport  # imports asyncio: only when a round needs it
                self._transport = Transport(self.config, receive_timeout=self.receive_timeout,
                                            response_cap=self.response_cap,
                                            http_transport=self._http_transport)
            return self._transport
