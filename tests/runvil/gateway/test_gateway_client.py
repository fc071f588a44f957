"""The client's contract with the Harness: disabled access, credentials,
cancellation, debug capture, parallel rounds and lazy imports."""

import concurrent.futures
import json
import os
import subprocess
import sys
import threading

import httpx
import pytest

import runvil
from runvil.gateway import (
    CompletionError,
    DebugCapture,
    ErrorKind,
    GatewayClient,
    GatewayConfig,
    ModelInfo,
    RoundCancelled,
)

ASK = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
REPO = os.path.dirname(os.path.dirname(runvil.__file__))


def test_without_a_gateway_every_round_is_unavailable():
    client = GatewayClient(None)
    for _ in range(2):
        with pytest.raises(CompletionError) as caught:
            client.complete(ASK)
        error = caught.value
        assert (error.kind, error.message, error.retryable, error.status) == \
            (ErrorKind.UNAVAILABLE, "model access is turned off or not configured", False, None)
    client.close()


def test_httpx_is_imported_only_for_a_round_that_needs_it():
    code = """
import sys
from runvil.gateway import GatewayClient, GatewayConfig, CompletionError
import runvil.testing.gateway
try:
    GatewayClient(None).complete({"model": "m", "messages": []})
except CompletionError:
    pass
GatewayClient(GatewayConfig("http://127.0.0.1:9/v1")).close()
print(sorted(m for m in ("httpx", "httpcore", "anyio", "asyncio") if m in sys.modules))
"""
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_no_key_is_sent_to_a_loopback_gateway_without_one(gateway, gateway_client):
    gw = gateway(["ok"])
    gateway_client(gw).complete(ASK)
    assert "authorization" not in gw.requests[0].headers


def test_a_set_key_is_sent_even_to_loopback(gateway, gateway_client):
    gw = gateway(["ok"])
    gateway_client(gw, api_key="sk-tëst").complete(ASK)
    assert gw.requests[0].headers["authorization"].encode("latin-1") == "Bearer sk-tëst".encode()


def test_a_key_that_cannot_be_a_header_fails_as_transport(gateway, gateway_client):
    gw = gateway(["ok"])
    with pytest.raises(CompletionError) as caught:
        gateway_client(gw, api_key="bad\nkey").complete(ASK)
    assert caught.value.kind == ErrorKind.TRANSPORT
    assert gw.requests == []


# ---- cancellation ---------------------------------------------------------

def test_a_round_cancelled_before_the_loop_starts_it_sends_nothing(gateway, gateway_client):
    gw = gateway([{"text": "first"}, "second"])
    client = gateway_client(gw)
    release = threading.Event()
    # The first round's listener holds the event loop, so the second round
    # is cancelled before the loop gets to it.
    first = client.submit(ASK, on_text=lambda _: release.wait(5))
    assert gw.wait_for_requests()
    second = client.submit(ASK)
    assert second.cancel()
    release.set()
    assert first.result(5).text == "first"
    assert len(gw.requests) == 1
    assert client.complete(ASK).text == "second"


@pytest.mark.parametrize("reply", [{"text": "late", "headers_delay": 30},
                                   {"text": "slow", "delay": 30}])
def test_cancelling_a_round_in_flight_ends_it_at_once(gateway, gateway_client, reply):
    gw = gateway([reply, "after"])
    client = gateway_client(gw)
    future = client.submit(ASK)
    assert gw.wait_for_requests()
    assert future.cancel()
    with pytest.raises(concurrent.futures.CancelledError):
        future.result(0)
    assert client.complete(ASK).text == "after"  # a cancel leaves the client usable


def test_a_cancel_between_fragments_stops_the_round(gateway, gateway_client):
    gw = gateway([{"text": "abcdef", "chunk_chars": 1, "delay": 0.05}, "after"])
    client = gateway_client(gw)
    seen = []
    rounds = []
    ended = threading.Event()

    def on_text(fragment):
        seen.append(fragment)
        rounds[0].cancel()

    rounds.append(client.submit(ASK, on_text=on_text))
    rounds[0].add_done_callback(lambda _: ended.set())
    assert ended.wait(5) and rounds[0].cancelled()
    assert client.complete(ASK).text == "after"
    assert seen == ["a"]


def test_close_ends_rounds_still_waiting(gateway, gateway_client):
    gw = gateway([{"text": "late", "headers_delay": 30}])
    client = gateway_client(gw)
    outcome = []

    def wait():
        try:
            client.complete(ASK)
        except RoundCancelled:
            outcome.append("cancelled")

    waiter = threading.Thread(target=wait)
    waiter.start()
    assert gw.wait_for_requests()
    client.close()
    waiter.join(5)
    assert outcome == ["cancelled"]
    with pytest.raises(RuntimeError):
        client.complete(ASK)


def test_a_failing_callback_propagates(gateway, gateway_client):
    gw = gateway(["boom", "next"])
    client = gateway_client(gw)

    def on_text(fragment):
        raise KeyError(fragment)

    with pytest.raises(KeyError):
        client.complete(ASK, on_text=on_text)
    assert client.complete(ASK).text == "next"


# ---- parallel rounds ------------------------------------------------------

def test_parallel_rounds_from_worker_threads(gateway, gateway_client):
    models = {f"model-{i}": [{"text": f"reply {i}", "delay": 0.01}] for i in range(8)}
    gw = gateway({"models": models})
    client = gateway_client(gw)
    results = {}

    def round_for(i):
        results[i] = client.complete({**ASK, "model": f"model-{i}"}).text

    threads = [threading.Thread(target=round_for, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert results == {i: f"reply {i}" for i in range(8)}


def client_threads() -> set:
    # The in-process scripted gateway starts a thread per connection of its own.
    return {t for t in threading.enumerate() if "process_request_thread" not in t.name}


def test_parallel_rounds_share_one_loop_thread(gateway, gateway_client):
    models = {f"model-{i}": [{"text": f"reply {i}", "delay": 0.05}] for i in range(8)}
    gw = gateway({"models": models})
    client = gateway_client(gw)
    client.complete({**ASK, "model": "model-0"})  # the loop thread is up
    threads = client_threads()
    rounds = [client.submit({**ASK, "model": f"model-{i}"}) for i in range(1, 8)]
    assert gw.wait_for_requests(8)
    assert client_threads() == threads  # no thread per round
    assert [r.result(10).text for r in rounds] == [f"reply {i}" for i in range(1, 8)]


# ---- debug capture ----------------------------------------------------------

def test_debug_captures_raw_request_and_response(gateway, gateway_client):
    gw = gateway(["hello"])
    captured = []
    gateway_client(gw).complete(ASK, debug=captured.append)
    request, response = captured
    assert request == DebugCapture("request", gw.requests[0].body)
    assert response.direction == "response" and response.status == 200
    assert b'"content":"hello"' in response.body.replace(b" ", b"")
    assert response.body.endswith(b"data: [DONE]\n\n")


def test_debug_captures_an_error_reply_before_the_failure(gateway, gateway_client):
    gw = gateway([{"status": 503, "body": "busy busy"}])
    captured = []
    with pytest.raises(CompletionError):
        gateway_client(gw).complete(ASK, debug=captured.append)
    assert [c.direction for c in captured] == ["request", "response"]
    assert captured[1] == DebugCapture("response", b"busy busy", 503)


def test_debug_has_no_response_when_none_arrived(gateway, gateway_client):
    gw = gateway([{"disconnect": "before_reply"}])
    captured = []
    with pytest.raises(CompletionError):
        gateway_client(gw).complete(ASK, debug=captured.append)
    assert [c.direction for c in captured] == ["request"]


def test_the_round_benchmark_runs(tmp_path):
    # Timings are reported by the benchmark, never asserted; this only keeps it working.
    done = subprocess.run([sys.executable, "-m", "benchmarks.gateway_round", "--rounds", "3", "--runs", "1", "--cancels", "2",
                           "--json", str(tmp_path / "r.json")], cwd=REPO, capture_output=True,
                          text=True, check=True)
    assert "per round: target < 5.0 ms" in done.stdout


def test_the_round_benchmark_profiles_the_scenario_named():
    done = subprocess.run([sys.executable, "-m", "benchmarks.gateway_round", "--profile",
                           "--scenario", "tool call", "--rounds", "3"], cwd=REPO,
                          capture_output=True, text=True, check=True)
    assert "3 rounds of tool call (10 frames)" in done.stdout


# ---- the model list ---------------------------------------------------------

def test_list_models_reads_the_gateways_list(gateway, gateway_client):
    gw = gateway({"model_list": ["small", {"id": "large", "context_length": 128000}]})
    assert gateway_client(gw).list_models() == (ModelInfo("small"), ModelInfo("large", 128000))
    assert gw.requests == []  # listing is not a model request


def test_list_models_defaults_to_the_scripted_model_queues(gateway, gateway_client):
    gw = gateway({"models": {"a": ["x"], "b": ["y"]}})
    assert [m.id for m in gateway_client(gw).list_models()] == ["a", "b"]


@pytest.mark.parametrize("listing, window", [
    ({"id": "m", "max_model_len": 4096}, 4096),                               # vLLM
    ({"id": "m", "meta": {"n_ctx_train": 32768, "n_vocab": 151936}}, 32768),  # llama.cpp
    ({"id": "m", "context_length": 200000}, 200000),                          # OpenRouter
    ({"id": "m", "owned_by": "library"}, None),                               # Ollama, LiteLLM
])
def test_a_servers_own_context_field_is_read(listing, window):
    body = json.dumps({"object": "list", "data": [listing, {"object": "model"}]}).encode()
    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=body))
    with GatewayClient(GatewayConfig("http://127.0.0.1:9/v1"), transport=transport) as client:
        assert client.list_models() == (ModelInfo("m", window),)


def test_a_gateway_without_a_model_list_fails_like_a_round(gateway, gateway_client):
    def not_found(request):
        return httpx.Response(404, json={"error": {"message": "not found"}})
    with GatewayClient(GatewayConfig("http://127.0.0.1:9/v1"),
                       transport=httpx.MockTransport(not_found)) as client, \
            pytest.raises(CompletionError) as caught:
        client.list_models()
    assert caught.value.message == "the model backend rejected the request (status 404)"
