"""The direct route's HTTP/1.1 parser, without I/O: every framing a gateway
may use, the same response cut at every place, and broken framing."""

import pytest

from runvil.gateway.http11 import ProtocolError, ResponseParser, request_head, with_body

BODY = b'data: {"choices": []}\n\ndata: [DONE]\n\n'


def chunked(body: bytes, size: int, *, extension: bytes = b"", trailers: bytes = b"") -> bytes:
    pieces = [body[i:i + size] for i in range(0, len(body), size)]
    framed = b"".join(b"%x%s\r\n%s\r\n" % (len(piece), extension, piece) for piece in pieces)
    return framed + b"0\r\n" + trailers + b"\r\n"


CHUNKED = (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
           b"Transfer-Encoding: chunked\r\n\r\n" + chunked(BODY, 7))


class Sink:
    def __init__(self):
        self.heads, self.pieces, self.ended = [], [], 0

    def head(self, head):
        self.heads.append(head)

    def body(self, data):
        assert data
        self.pieces.append(data)

    def end(self):
        self.ended += 1


def parse(response: bytes, *cut_at: int, eof: bool = False) -> tuple[Sink, ResponseParser]:
    sink = Sink()
    parser = ResponseParser(sink)
    edges = [0, *cut_at, len(response)]
    for start, stop in zip(edges, edges[1:]):
        parser.feed(response[start:stop])
    if eof:
        parser.eof()
    return sink, parser


def test_a_chunked_response_cut_at_every_place_parses_alike():
    for cut in range(len(CHUNKED) + 1):
        sink, parser = parse(CHUNKED, cut)
        assert b"".join(sink.pieces) == BODY and sink.ended == 1, cut
        assert parser.done and parser.keep_alive and not parser.extra
        head = sink.heads[0]
        assert (head.status, head.headers["content-type"]) == (200, "text/event-stream")


def test_a_chunked_response_fed_byte_by_byte():
    sink, _ = parse(CHUNKED, *range(1, len(CHUNKED)))
    assert b"".join(sink.pieces) == BODY and sink.ended == 1


def test_chunks_arriving_together_are_handed_over_as_one_piece():
    sink, _ = parse(CHUNKED)
    assert sink.pieces == [BODY]


def test_chunk_extensions_and_trailers_are_skipped():
    response = (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                + chunked(BODY, 5, extension=b";name=value", trailers=b"X-Checksum: 1\r\n"))
    sink, parser = parse(response)
    assert b"".join(sink.pieces) == BODY and parser.done


def test_a_content_length_body():
    response = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 11\r\n\r\n{\"error\":1}"
    for cut in range(len(response) + 1):
        sink, parser = parse(response, cut)
        assert (sink.heads[0].status, b"".join(sink.pieces), sink.ended) == (400, b'{"error":1}', 1)
        assert parser.keep_alive


def test_a_body_ended_by_the_connection():
    response = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{}"
    sink, parser = parse(response)
    assert sink.ended == 0 and not parser.keep_alive
    parser.eof()
    assert (b"".join(sink.pieces), sink.ended) == (b"{}", 1)


@pytest.mark.parametrize("head", [b"HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n",
                                  b"HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\n"
                                  b"Content-Length: 0\r\n\r\n"])
def test_http_1_0_and_connection_close_are_not_kept_alive(head):
    sink, parser = parse(head)
    assert sink.ended == 1 and not parser.keep_alive


def test_interim_responses_are_skipped_and_repeated_headers_joined():
    response = (b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
                b"HTTP/1.1 204 No Content\r\nVia: a\r\nvia:  b \r\n\r\n")
    sink, parser = parse(response)
    assert [head.status for head in sink.heads] == [204]
    assert sink.heads[0].headers["via"] == "a, b" and sink.ended == 1


def test_bytes_after_the_response_are_noted():
    sink, parser = parse(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1")
    assert parser.done and parser.extra and sink.pieces == [b"ok"]


@pytest.mark.parametrize("response", [
    b"HTTP/2 200 OK\r\n\r\n",
    b"HTTP/1.1 2000 OK\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhello\r\n",
])
def test_broken_framing_is_a_protocol_error(response):
    with pytest.raises(ProtocolError):
        parse(response)


def test_a_response_cut_short_is_a_protocol_error():
    with pytest.raises(ProtocolError):
        parse(CHUNKED[:-5], eof=True)


def test_data_before_broken_framing_is_still_handed_over():
    response = CHUNKED[:-5] + b"zz\r\n\r\n"
    sink = Sink()
    with pytest.raises(ProtocolError):
        ResponseParser(sink).feed(response)
    assert b"".join(sink.pieces) == BODY


def test_a_head_that_never_ends_is_refused():
    with pytest.raises(ProtocolError):
        parse(b"HTTP/1.1 200 OK\r\nX: " + b"a" * 70_000)


def test_the_request_head_is_encoded_once_and_carries_each_body():
    head = request_head("POST", "/v1/chat/completions", "127.0.0.1:8080",
                        {"content-type": "application/json", "authorization": "Bearer sk-tëst"})
    assert with_body(head, b"{}") == (
        b"POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1:8080\r\n"
        b"content-type: application/json\r\nauthorization: Bearer sk-t\xc3\xabst\r\n"
        b"content-length: 2\r\n\r\n{}")


@pytest.mark.parametrize("value", ["bad\nkey", "bad\rkey", "bad\x00key"])
def test_a_header_value_that_would_break_the_head_is_refused(value):
    with pytest.raises(ProtocolError):
        request_head("POST", "/", "h", {"authorization": value})

