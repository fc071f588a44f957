"""Byte-level reply cases through an httpx.MockTransport: the same stream
cut into chunks at every place, CR and CRLF line endings, a multi-byte
character or the byte-order mark split across chunks, and a connection that
breaks mid-stream.  (Everything else runs against the scripted gateway over
real HTTP on 127.0.0.1.)"""

import json

import httpx
import pytest

from runvil.gateway import CompletionError, ErrorKind, GatewayClient, GatewayConfig, Usage

ASK = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


def frame(payload: dict) -> bytes:
    return b"data: " + json.dumps(payload, ensure_ascii=False).encode() + b"\n\n"


def delta(**fields) -> dict:
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "m",
            "choices": [{"index": 0, "delta": fields, "finish_reason": None}]}


STREAM = b"".join([
    frame(delta(role="assistant", content="")),
    frame(delta(content="Grüße, ")),
    frame(delta(content="東京 ✓")),
    frame({**delta(), "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
    frame({"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [],
           "usage": {"prompt_tokens": 9, "completion_tokens": 4, "total_tokens": 13}}),
    b"data: [DONE]\n\n",
])


def served(chunks, *, content_type="text/event-stream", broken=False):
    """A client whose every round is answered with ``chunks``."""
    async def stream():
        for chunk in chunks:
            yield chunk
        if broken:
            raise httpx.ReadError("connection reset by peer")

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": content_type}, content=stream())
    return GatewayClient(GatewayConfig("http://127.0.0.1:9/v1"), transport=httpx.MockTransport(answer))


def complete(chunks, **options):
    with served(chunks, **options) as client:
        seen = []
        completion = client.complete(ASK, on_text=seen.append)
    return completion, seen


def cut(data: bytes, size: int) -> list[bytes]:
    return [data[i:i + size] for i in range(0, len(data), size)]


EXPECTED_TEXT = "Grüße, 東京 ✓"


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 64, len(STREAM)])
def test_a_stream_cut_into_chunks_anywhere_gives_the_same_reply(size):
    completion, seen = complete(cut(STREAM, size))
    assert completion.text == EXPECTED_TEXT and "".join(seen) == EXPECTED_TEXT
    assert completion.finish_reason == "stop"
    assert completion.usage == Usage(9, 4)


@pytest.mark.parametrize("ending", [b"\r\n", b"\r"], ids=["CRLF", "CR"])
@pytest.mark.parametrize("size", [1, 4, len(STREAM) * 2])
def test_cr_and_crlf_line_endings_split_anywhere(ending, size):
    # A CRLF cut between its CR and LF must not end the event twice.
    completion, _ = complete(cut(STREAM.replace(b"\n", ending), size))
    assert completion.text == EXPECTED_TEXT and completion.usage == Usage(9, 4)


def test_mixed_line_endings_and_data_without_a_space():
    data = (b"data:" + json.dumps(delta(content="a")).encode() + b"\r\n\n"
            + b": keep-alive\r"
            + b"\r"
            + b"data: " + json.dumps(delta(content="b")).encode() + b"\n\r\n"
            + b"data: [DONE]")  # no blank line after the sentinel
    completion, seen = complete(cut(data, 3))
    assert completion.text == "ab" and seen == ["a", "b"]


def test_a_multibyte_character_split_between_chunks():
    data = frame(delta(content="€")) + b"data: [DONE]\n\n"
    euro = data.index("€".encode())
    completion, _ = complete([data[:euro + 1], data[euro + 1:euro + 2], data[euro + 2:]])
    assert completion.text == "€"


def test_a_byte_order_mark_split_between_chunks_is_dropped():
    data = b"\xef\xbb\xbf" + STREAM
    completion, _ = complete([data[:1], data[1:2], data[2:]])
    assert completion.text == EXPECTED_TEXT


def test_a_json_body_in_pieces():
    body = json.dumps({"id": "c", "object": "chat.completion", "choices": [{"index": 0, "message": {
        "role": "assistant", "content": "whole"}, "finish_reason": "stop"}]}).encode()
    completion, seen = complete(cut(body, 5), content_type="application/json; charset=utf-8")
    assert completion.text == "whole" and seen == ["whole"]  # shown once the body is whole


def test_a_connection_that_breaks_mid_stream_is_a_transport_failure():
    with pytest.raises(CompletionError) as caught:
        complete(cut(STREAM[:120], 10), broken=True)
    assert (caught.value.kind, caught.value.message) == (
        ErrorKind.TRANSPORT, "the connection to the model backend failed")


def test_a_stream_that_ends_without_the_sentinel_is_malformed():
    with pytest.raises(CompletionError) as caught:
        complete(cut(STREAM[:STREAM.index(b"data: [DONE]")], 8))
    assert caught.value.message == ("the model backend sent a reply that could not be understood: "
                                    "completion stream ended without the [DONE] sentinel")
