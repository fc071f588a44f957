"""The receive timeout and the response cap, against real slow and large replies."""

import pytest

from runvil.gateway import DEFAULT_RESPONSE_CAP, CompletionError, ErrorKind
from runvil.testing.script import parse_reply, render_stream

BOTH_ROUTES = True  # each test over the direct and the httpx route (conftest.py)

ASK = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
TIMEOUT = (ErrorKind.TIMEOUT, "the model backend did not answer in time", True)
MALFORMED = "the model backend sent a reply that could not be understood: "


def outcome(error: CompletionError):
    return error.kind, error.message, error.retryable


def fail(client) -> CompletionError:
    with pytest.raises(CompletionError) as caught:
        client.complete(ASK)
    return caught.value


# ---- receive timeout ------------------------------------------------------

def test_headers_that_do_not_arrive_in_time(gateway, gateway_client):
    gw = gateway([{"text": "late", "headers_delay": 2}])
    assert outcome(fail(gateway_client(gw, receive_timeout=0.2))) == TIMEOUT


def test_a_chunk_that_does_not_arrive_in_time(gateway, gateway_client):
    gw = gateway([{"text": "slow", "delay": 2}])
    assert outcome(fail(gateway_client(gw, receive_timeout=0.2))) == TIMEOUT


def test_an_error_body_that_does_not_arrive_in_time(gateway, gateway_client):
    gw = gateway([{"status": 500, "chunked": True, "delay": 2}])
    assert outcome(fail(gateway_client(gw, receive_timeout=0.2))) == TIMEOUT


def test_every_chunk_restarts_the_wait(gateway, gateway_client):
    # Five frames 0.15 s apart take 0.75 s in all, well past the 0.5 s
    # timeout, yet no single wait comes near it: no limit covers the whole request.
    reply = {"text": "steady", "delay": 0.15, "usage": {"prompt_tokens": 1, "completion_tokens": 1}}
    assert len(render_stream(parse_reply(reply), "m")) == 5
    gw = gateway([reply])
    assert gateway_client(gw, receive_timeout=0.5).complete(ASK).text == "steady"


def test_a_timed_out_round_leaves_the_client_usable(gateway, gateway_client):
    gw = gateway([{"text": "late", "headers_delay": 2}, "next"])
    client = gateway_client(gw, receive_timeout=0.2)
    fail(client)
    assert client.complete(ASK).text == "next"


# ---- response cap ---------------------------------------------------------

def stream_size(reply) -> int:
    return sum(len(frame) for frame in render_stream(parse_reply(reply), "m"))


def test_a_reply_exactly_at_the_cap_passes_and_one_byte_more_fails(gateway, gateway_client):
    reply = {"text": "x" * 500}
    size = stream_size(reply)
    gw = gateway([reply, reply])
    assert gateway_client(gw, response_cap=size).complete(ASK).text == "x" * 500
    error = fail(gateway_client(gw, response_cap=size - 1))
    assert outcome(error) == (ErrorKind.MALFORMED_RESPONSE,
                              MALFORMED + f"response stream exceeds the {size - 1}-byte limit", True)


def test_a_streamed_reply_over_the_cap(gateway, gateway_client):
    seen = []
    gw = gateway([{"text": "y" * 5000, "chunk_chars": 100}])
    with pytest.raises(CompletionError) as caught:
        gateway_client(gw, response_cap=1000).complete(ASK, on_text=seen.append)
    assert caught.value.message == MALFORMED + "response stream exceeds the 1000-byte limit"
    assert len("".join(seen)) < 1000  # refused as the bytes arrive


def test_a_non_streamed_reply_over_the_cap(gateway, gateway_client):
    gw = gateway([{"stream": False, "text": "z" * 2000}])
    error = fail(gateway_client(gw, response_cap=1000))
    assert error.message == MALFORMED + "response stream exceeds the 1000-byte limit"


def test_an_error_reply_whose_advertised_length_is_over_the_cap(gateway, gateway_client):
    gw = gateway([{"status": 503, "body": "b" * 1500}])
    error = fail(gateway_client(gw, response_cap=1000))
    assert outcome(error) == (
        ErrorKind.MALFORMED_RESPONSE,
        MALFORMED + "response body of 1500 bytes exceeds the 1000-byte limit", True)


def test_an_error_reply_over_the_cap_without_a_length(gateway, gateway_client):
    gw = gateway([{"status": 503, "body": "b" * 1500, "chunked": True}])
    error = fail(gateway_client(gw, response_cap=1000))
    assert outcome(error) == (ErrorKind.MALFORMED_RESPONSE,
                              MALFORMED + "response body exceeds the 1000-byte limit", True)


def test_an_error_reply_within_the_cap_is_classified(gateway, gateway_client):
    gw = gateway([{"status": 503, "body": "b" * 900, "chunked": True}])
    assert fail(gateway_client(gw, response_cap=1000)).kind == ErrorKind.OVERLOADED


def test_the_default_cap_is_16_mib(gateway, gateway_client):
    gw = gateway([{"text": "big", "pad_bytes": DEFAULT_RESPONSE_CAP}])
    error = fail(gateway_client(gw))
    assert error.message == MALFORMED + "response stream exceeds the 16777216-byte limit"


@pytest.mark.parametrize("limits", [{"response_cap": 0}, {"response_cap": 1.5},
                                    {"receive_timeout": 0}, {"receive_timeout": -1}])
def test_limits_must_be_positive(gateway_client, limits):
    with pytest.raises(ValueError):
        gateway_client("http://127.0.0.1:9/v1", **limits)
