"""A scripted OpenAI-compatible chat-completions server, for tests and offline
prompt development.

It listens on 127.0.0.1 only, answers ``POST /v1/chat/completions`` with the
next scripted reply (streamed as server-sent events when the request asks for
``stream``, one JSON body otherwise) and records every POST it receives;
``GET /v1/models`` lists the script's models (not recorded).

    with ScriptedGateway(["Hello!"]) as gw:
        ...  # point a client at gw.url
        assert gw.requests[0].json["messages"][0]["role"] == "user"

Command line: ``python -m runvil.testing.gateway --script replies.yaml --port 0``
prints the URL it listens on, then serves until interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import socket
import sys
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .script import Reply, ScriptError, load_script, render_body, render_model_list, render_stream

HOST = "127.0.0.1"
API_ROOT = "/v1"
_NO_REPLY_LEFT = Reply(status=500, body=json.dumps(
    {"error": {"message": "scripted gateway has no reply left for this request"}}))


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]  # names lowercased
    body: bytes

    @property
    def json(self) -> Any:
        """The body decoded as JSON, or None when it is not JSON."""
        try:
            return json.loads(self.body)
        except ValueError:
            return None


class ScriptedGateway:
    """Serve ``script`` (see runvil.testing.script.load_script) on 127.0.0.1."""

    def __init__(self, script: Any = None, *, port: int = 0,
                 on_request: Callable[[RecordedRequest], None] | None = None) -> None:
        loaded = load_script(script)
        self._queues = {None: deque(loaded.replies),
                        **{m: deque(q) for m, q in loaded.models.items()}}
        self._fallback = loaded.fallback
        self.model_list_body = render_model_list(loaded.listed_models())
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)
        self._on_request = on_request
        self._port = port
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> ScriptedGateway:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """The API root to use as RUNVIL_GATEWAY_URL."""
        if self._server is None:
            raise RuntimeError("the scripted gateway is not running")
        return f"http://{HOST}:{self._server.server_address[1]}{API_ROOT}"

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far, in arrival order (a snapshot)."""
        with self._lock:
            return list(self._requests)

    @property
    def pending(self) -> int:
        """How many scripted replies are still unsent (the fallback not counted)."""
        with self._lock:
            return sum(len(q) for q in self._queues.values())

    def start(self) -> ScriptedGateway:
        self._server = _Server((HOST, self._port), _Handler, self)
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.01},
                                        name="scripted-gateway", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.stopping.set()  # ends scripted delays at once
        server.shutdown()
        server.server_close()
        server.drop_connections()
        self._thread.join()

    def wait_for_requests(self, count: int = 1, timeout: float = 10.0) -> bool:
        """Wait until ``count`` requests have arrived: True, or False after ``timeout`` seconds."""
        with self._arrived:
            return self._arrived.wait_for(lambda: len(self._requests) >= count, timeout)

    def _record(self, request: RecordedRequest, model: Any, chat: bool) -> Reply | None:
        """Record ``request`` and, for a chat completion, take its reply in
        the same step, before ``on_request`` runs: replies go in arrival
        order even when the callback's effect (a stop) sends the next
        request before this one's handler goes on."""
        with self._arrived:
            self._requests.append(request)
            reply = self._next_reply(model) if chat else None
            self._arrived.notify_all()
        if self._on_request is not None:
            self._on_request(request)
        return reply

    def _next_reply(self, model: Any) -> Reply:
        """The reply for ``model`` (under ``_lock``)."""
        queue = self._queues.get(model) if isinstance(model, str) else None
        if not queue:
            queue = self._queues[None]
        if queue:
            return queue.popleft()
        return self._fallback or _NO_REPLY_LEFT


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # stop() closes connections itself
    request_queue_size = 128  # parallel rounds connect at once; a short backlog drops SYNs

    def __init__(self, address, handler, gateway: ScriptedGateway) -> None:
        self.gateway = gateway
        self.stopping = threading.Event()
        self._connections: set[socket.socket] = set()
        self._connections_lock = threading.Lock()
        super().__init__(address, handler)

    def track(self, connection: socket.socket, open_: bool) -> None:
        with self._connections_lock:
            (self._connections.add if open_ else self._connections.discard)(connection)

    def drop_connections(self) -> None:
        # Idle keep-alive connections would otherwise keep handler threads alive.
        with self._connections_lock:
            for connection in self._connections:
                with contextlib.suppress(OSError):  # already closed by the client
                    connection.shutdown(socket.SHUT_RDWR)

    def handle_error(self, request, client_address) -> None:
        # A client that hangs up mid-reply (a timeout test, a cancel) is normal.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive and chunked streaming
    server: _Server

    def setup(self) -> None:
        # Small SSE frames must leave at once, not wait for Nagle's algorithm.
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().setup()
        self.server.track(self.request, True)

    def finish(self) -> None:
        self.server.track(self.request, False)
        super().finish()

    def log_message(self, format: str, *args: Any) -> None:
        pass  # requests are recorded, not logged

    def do_GET(self) -> None:
        if self.path == f"{API_ROOT}/models":
            reply = Reply(body=self.server.gateway.model_list_body.decode("utf-8"))
        else:
            reply = Reply(status=404, body=json.dumps({"error": {"message": "not found"}}))
        self._send(reply, "", streaming=False)

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        request = RecordedRequest("POST", self.path,
                                  {k.lower(): v for k, v in self.headers.items()},
                                  self.rfile.read(length))
        chat = self.path == f"{API_ROOT}/chat/completions"
        payload = request.json if chat else None
        if not isinstance(payload, dict):
            payload = {}
        model = payload.get("model")
        reply = self.server.gateway._record(request, model, chat)
        if reply is None:
            self._send(Reply(status=404, body=json.dumps({"error": {"message": "not found"}})),
                       "", streaming=False)
            return
        streaming = reply.stream if reply.stream is not None else payload.get("stream") is True
        self._send(reply, model if isinstance(model, str) else "", streaming=streaming)

    def _pause(self, seconds: float) -> bool:
        """Sleep for a scripted delay; False when the server is stopping."""
        return seconds <= 0 or not self.server.stopping.wait(seconds)

    def _send(self, reply: Reply, model: str, *, streaming: bool) -> None:
        if reply.disconnect == "before_reply":
            self.close_connection = True
            self.request.shutdown(socket.SHUT_RDWR)
            return
        if not self._pause(reply.headers_delay):
            return
        as_stream = streaming and not reply.is_error
        frames = render_stream(reply, model) if as_stream else [render_body(reply, model)]
        chunked = as_stream or reply.chunked or reply.disconnect == "mid_reply"
        self.send_response(reply.status)
        headers = {"Content-Type": "text/event-stream" if as_stream else "application/json"}
        if as_stream:
            headers["Cache-Control"] = "no-cache"
        if chunked:
            headers["Transfer-Encoding"] = "chunked"
        else:
            headers["Content-Length"] = str(len(frames[0]))
        headers.update(reply.headers)
        for name, value in headers.items():
            self.send_header(name, str(value))
        self.end_headers()
        for frame in frames:
            if not self._pause(reply.delay):
                return
            self.wfile.write(b"%x\r\n%s\r\n" % (len(frame), frame) if chunked else frame)
        if reply.disconnect == "mid_reply":
            self.close_connection = True
            self.request.shutdown(socket.SHUT_RDWR)
        elif chunked:
            self.wfile.write(b"0\r\n\r\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m runvil.testing.gateway",
        description="Serve scripted OpenAI-compatible chat completions on 127.0.0.1.")
    parser.add_argument("--script", help="YAML or JSON file of replies (default: none)")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0: any free one)")
    parser.add_argument("--log-requests", action="store_true",
                        help="print each request body to stderr as one JSON line")
    options = parser.parse_args(argv)

    def log(request: RecordedRequest) -> None:
        print(request.body.decode("utf-8", "replace"), file=sys.stderr, flush=True)

    try:
        gateway = ScriptedGateway(options.script, port=options.port,
                                  on_request=log if options.log_requests else None)
    except (OSError, ScriptError) as error:
        print(f"scripted gateway: {error}", file=sys.stderr)
        return 2
    # SIGINT stops the server: blocked before any server thread starts (they
    # inherit the mask), then taken by sigwait.  Left to the Python handler,
    # the kernel may hand it to a server thread, which never wakes a main
    # thread blocked on a lock: the server then does not stop.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    with gateway:
        print(gateway.url, flush=True)
        signal.sigwait({signal.SIGINT})
    return 0


if __name__ == "__main__":
    sys.exit(main())
