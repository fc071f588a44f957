"""The direct route against a raw HTTP/1.1 peer on 127.0.0.1 that answers
each request with exactly the bytes a test scripts: keep-alive reuse, every
body framing, content codings, a connection the peer drops while idle, and
which gateways take the route."""

import concurrent.futures
import gzip
import json
import socket
import subprocess
import sys
import threading
import time
import zlib

import pytest

from runvil.gateway import CompletionError, ErrorKind, GatewayClient, GatewayConfig
from tests.runvil.gateway.test_gateway_client import REPO

ASK = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
STREAM = (b'data: {"choices": [{"index": 0, "delta": {"content": "hello"}}]}\n\n'
          b"data: [DONE]\n\n")


def chunked(body: bytes) -> bytes:
    return b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)


CLOSE = "then close"
SILENT = "never answer"
SSE_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
CHUNKED_REPLY = SSE_HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + chunked(STREAM)


class RawPeer:
    """Answers the n-th request with ``replies[n]``: bytes, ``(bytes,
    CLOSE)`` to close the connection after them, None to close it without
    answering, or SILENT to never answer (``dropped`` is set when the client
    closes that connection); notes which connection carried each request."""

    def __init__(self, replies):
        self.replies = list(replies)
        self.requests: list[tuple[int, bytes]] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}/v1"
        self._connections = 0
        self.dropped = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:
                return
            self._connections += 1
            threading.Thread(target=self._serve, args=(connection, self._connections),
                             daemon=True).start()

    def _serve(self, connection, number):
        with connection:
            data = b""
            while True:
                while b"\r\n\r\n" not in data:
                    more = connection.recv(65536)
                    if not more:
                        return
                    data += more
                head, _, data = data.partition(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
                while len(data) < length:
                    data += connection.recv(65536)
                self.requests.append((number, head + b"\r\n\r\n" + data[:length]))
                data = data[length:]
                reply = self.replies.pop(0)
                if reply is None:
                    return
                if reply == SILENT:
                    while connection.recv(65536):
                        pass
                    self.dropped.set()
                    return
                if isinstance(reply, tuple):
                    connection.sendall(reply[0])
                    return
                connection.sendall(reply)

    def close(self):
        self._listener.close()


@pytest.fixture
def peer():
    peers = []

    def start(*replies):
        peers.append(RawPeer(replies))
        return peers[-1]
    yield start
    for started in peers:
        started.close()


def test_rounds_reuse_one_kept_alive_connection(peer):
    raw = peer(CHUNKED_REPLY, CHUNKED_REPLY, CHUNKED_REPLY)
    with GatewayClient(GatewayConfig(raw.url, "sk-1")) as client:
        assert [client.complete(ASK).text for _ in range(3)] == ["hello"] * 3
    assert [number for number, _ in raw.requests] == [1, 1, 1]
    head, _, body = raw.requests[0][1].partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[:2] == [b"POST /v1/chat/completions HTTP/1.1",
                                       b"host: " + raw.url.split("/")[2].encode()]
    assert b"authorization: Bearer sk-1" in head.split(b"\r\n")
    assert json.loads(body)["stream"] is True


@pytest.mark.parametrize("reply", [
    SSE_HEAD + b"Content-Length: %d\r\n\r\n%s" % (len(STREAM), STREAM),
    SSE_HEAD + b"Connection: close\r\n" + b"Transfer-Encoding: chunked\r\n\r\n" + chunked(STREAM),
    SSE_HEAD + b"\r\n" + STREAM,  # no framing: the body ends with the connection
])
def test_every_body_framing(peer, reply):
    raw = peer(reply, reply)
    with GatewayClient(GatewayConfig(raw.url)) as client:
        assert [client.complete(ASK).text for _ in range(2)] == ["hello"] * 2


def test_a_connection_that_cannot_carry_more_is_not_reused(peer):
    closing = SSE_HEAD + b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(STREAM), STREAM)
    raw = peer(closing, CHUNKED_REPLY)
    with GatewayClient(GatewayConfig(raw.url)) as client:
        assert [client.complete(ASK).text for _ in range(2)] == ["hello"] * 2
    assert [number for number, _ in raw.requests] == [1, 2]


def test_a_connection_the_peer_dropped_while_idle_is_replaced(peer):
    raw = peer((CHUNKED_REPLY, CLOSE), CHUNKED_REPLY)
    with GatewayClient(GatewayConfig(raw.url)) as client:
        assert client.complete(ASK).text == "hello"
        time.sleep(0.2)  # the peer's close reaches the idle connection
        assert client.complete(ASK).text == "hello"
    assert [number for number, _ in raw.requests] == [1, 2]


@pytest.mark.parametrize("coding, encode", [("gzip", gzip.compress), ("deflate", zlib.compress)])
def test_content_codings_are_undone(peer, coding, encode):
    body = encode(STREAM)
    raw = peer(SSE_HEAD + b"Content-Encoding: %s\r\nContent-Length: %d\r\n\r\n%s"
               % (coding.encode(), len(body), body))
    with GatewayClient(GatewayConfig(raw.url)) as client:
        assert client.complete(ASK).text == "hello"


@pytest.mark.parametrize("reply", [
    None,                                                   # closed without answering
    (SSE_HEAD + b"Content-Length: 500\r\n\r\n" + STREAM[:40], CLOSE),  # closed inside the body
    SSE_HEAD + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n",  # broken chunk framing
    b"HTTP/9 200 OK\r\n\r\n",                               # no HTTP/1.x
])
def test_broken_replies_are_transport_failures(peer, reply):
    raw = peer(reply)
    with GatewayClient(GatewayConfig(raw.url)) as client, pytest.raises(CompletionError) as caught:
        client.complete(ASK)
    assert caught.value.kind == ErrorKind.TRANSPORT


def test_a_round_on_the_direct_route_does_not_import_httpx(peer):
    raw = peer(CHUNKED_REPLY)
    code = f"""
import sys
from runvil.gateway import GatewayClient, GatewayConfig
with GatewayClient(GatewayConfig({raw.url!r})) as client:
    assert client.complete({ASK!r}).text == "hello"
print(sorted(m for m in ("httpx", "httpcore", "h11", "anyio") if m in sys.modules))
"""
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, check=True, timeout=60)
    assert done.stdout.strip() == "[]"


# ---- rounds sent by the submitting thread on a kept-alive connection ----------

def test_a_round_sent_on_a_kept_alive_connection_times_out(peer):
    raw = peer(CHUNKED_REPLY, SILENT)
    with GatewayClient(GatewayConfig(raw.url), receive_timeout=0.3) as client:
        assert client.complete(ASK).text == "hello"
        started = time.monotonic()
        with pytest.raises(CompletionError) as caught:
            client.complete(ASK)
        assert caught.value.kind == ErrorKind.TIMEOUT
        assert 0.3 <= time.monotonic() - started < 3
    assert [number for number, _ in raw.requests] == [1, 1]


def test_a_round_after_an_idle_spell_longer_than_the_timeout_still_times_out(peer):
    # The route's timer found no round when it fired, so the next round must set it again.
    raw = peer(CHUNKED_REPLY, CHUNKED_REPLY, SILENT)
    with GatewayClient(GatewayConfig(raw.url), receive_timeout=0.2) as client:
        assert client.complete(ASK).text == "hello"
        time.sleep(0.5)
        assert client.complete(ASK).text == "hello"
        time.sleep(0.5)
        with pytest.raises(CompletionError) as caught:
            client.complete(ASK)
        assert caught.value.kind == ErrorKind.TIMEOUT
    assert [number for number, _ in raw.requests] == [1, 1, 1]


def test_cancelling_a_round_on_a_kept_alive_connection_drops_it_at_once(peer):
    raw = peer(CHUNKED_REPLY, SILENT, CHUNKED_REPLY)
    with GatewayClient(GatewayConfig(raw.url)) as client:
        assert client.complete(ASK).text == "hello"
        future = client.submit(ASK)
        while len(raw.requests) < 2:
            time.sleep(0.01)
        assert future.cancel()
        assert raw.dropped.wait(2)
        assert client.complete(ASK).text == "hello"
    assert [number for number, _ in raw.requests] == [1, 1, 2]


def test_a_request_larger_than_the_socket_takes_at_once_arrives_whole(peer):
    raw = peer(CHUNKED_REPLY, CHUNKED_REPLY)
    big = {**ASK, "messages": [{"role": "user", "content": "x" * (8 << 20)}]}
    with GatewayClient(GatewayConfig(raw.url)) as client:
        assert client.complete(ASK).text == "hello"
        assert client.complete(big).text == "hello"
    assert [number for number, _ in raw.requests] == [1, 1]
    body = raw.requests[1][1].partition(b"\r\n\r\n")[2]
    assert json.loads(body)["messages"] == big["messages"]


def test_threads_submitting_and_cancelling_at_once_share_the_kept_alive_connections(gateway):
    # Rounds sent by their submitting threads race the loop's releases,
    # losses and cancels over the same idle pool.
    models = {f"model-{t}": [{"text": f"reply {t}"}] * 40 for t in range(4)}
    gw = gateway({"models": models})
    outcomes: dict[int, list] = {}
    with GatewayClient(GatewayConfig(gw.url)) as client:
        def rounds(t):
            seen = outcomes.setdefault(t, [])
            for n in range(40):
                future = client.submit({**ASK, "model": f"model-{t}"})
                if n % 5 == 4:
                    future.cancel()
                try:
                    seen.append(future.result(10).text)
                except concurrent.futures.CancelledError:
                    seen.append("cancelled")
        threads = [threading.Thread(target=rounds, args=(t,)) for t in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    for t in range(4):
        assert len(outcomes[t]) == 40
        assert {text for text in outcomes[t] if text != "cancelled"} == {f"reply {t}"}
        assert outcomes[t].count("cancelled") <= 8


# ---- a peer that closes while the request is still being sent -----------------

class ClosingPeer:
    """Answers the first request whole (when ``answer_first``), then reads
    the head of the next one and closes its sending side without answering
    or reading the rest: the client is still sending when it sees the end."""

    def __init__(self, answer_first: bool):
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}/v1"
        self._answer_first = answer_first
        self._connections = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        connection, _ = self._listener.accept()
        self._connections.append(connection)
        data = b""
        if self._answer_first:
            while b"\r\n\r\n" not in data:
                data += connection.recv(65536)
            head, _, data = data.partition(b"\r\n\r\n")
            length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
            while len(data) < length:
                data += connection.recv(65536)
            data = data[length:]
            connection.sendall(CHUNKED_REPLY)
        while b"\r\n\r\n" not in data:
            data += connection.recv(65536)
        connection.shutdown(socket.SHUT_WR)

    def close(self):
        self._listener.close()
        for connection in self._connections:
            connection.close()


@pytest.mark.parametrize("kept_alive", [False, True], ids=["new connection", "kept-alive connection"])
def test_a_peer_closing_while_the_request_is_sent_fails_the_round_at_once(kept_alive):
    # Closing the transport would wait for the unsent 8 MiB to drain, which
    # never happens: the round would end only at its receive timeout.
    raw = ClosingPeer(answer_first=kept_alive)
    big = {**ASK, "messages": [{"role": "user", "content": "x" * (8 << 20)}]}
    try:
        with GatewayClient(GatewayConfig(raw.url), receive_timeout=60) as client:
            if kept_alive:
                assert client.complete(ASK).text == "hello"
            future = client.submit(big)
            with pytest.raises(CompletionError) as caught:
                future.result(timeout=10)
            assert caught.value.kind == ErrorKind.TRANSPORT
    finally:
        raw.close()
