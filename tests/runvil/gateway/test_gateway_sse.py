"""The event-stream decoder: line endings, fields, and chunks cut anywhere."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from runvil.gateway.sse import Event, EventStreamDecoder


def decode(*chunks: bytes) -> list[Event]:
    decoder = EventStreamDecoder()
    events = [e for chunk in chunks for e in decoder.feed(chunk)]
    return events + decoder.close()


def test_data_lines_join_with_newlines_and_one_leading_space_is_dropped():
    assert decode(b"data: a\ndata:  b\ndata:c\n\n") == [Event("a\n b\nc")]


def test_every_line_ending_works():
    assert decode(b"data: a\r\n\r\ndata: b\r\rdata: c\n\n") == [Event("a"), Event("b"), Event("c")]


def test_comments_unknown_fields_and_empty_events_are_skipped():
    assert decode(b": ping\n\nid: 7\nretry: 10\nfoo: bar\n\nevent: x\n\ndata: z\n\n") == [Event("z")]


def test_event_names():
    assert decode(b"event: error\ndata: bad\n\ndata: ok\n\n") == \
        [Event("bad", "error"), Event("ok", "message")]


def test_a_field_without_a_colon_has_an_empty_value():
    assert decode(b"data\ndata\n\n") == [Event("\n")]


def test_a_leading_bom_is_dropped_even_when_split():
    assert decode(b"\xef", b"\xbb\xbfdata: a\n\n") == [Event("a")]


def test_an_unterminated_last_event_is_still_delivered():
    assert decode(b"data: a\n\ndata: [DONE]") == [Event("a"), Event("[DONE]")]


def test_invalid_utf8_raises():
    with pytest.raises(UnicodeDecodeError):
        decode(b"data: \xff\n\n")


def test_multibyte_characters_split_across_chunks():
    raw = "data: héllo ✓\n\n".encode()
    assert decode(raw[:8], raw[8:]) == [Event("héllo ✓")]


STREAM = (b"\xef\xbb\xbf: hi\r\ndata: {\"a\": 1}\r\n\r\nevent: error\rdata: x\r\rdata: y\n"
          b"data: z\n\nid: 3\n\ndata: [DONE]\n\n")


@given(st.lists(st.integers(0, len(STREAM)), max_size=12))
def test_any_split_gives_the_same_events(cuts):
    points = sorted(set(cuts))
    chunks = [STREAM[a:b] for a, b in zip([0, *points], [*points, len(STREAM)], strict=True)]
    assert decode(*chunks) == decode(STREAM) == [
        Event('{"a": 1}'), Event("x", "error"), Event("y\nz"), Event("[DONE]")]
