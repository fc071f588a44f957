"""Failed rounds over real HTTP: every completion error kind, its exact
message and retryable answer, and that no backend body reaches a message."""

import pytest

from runvil.gateway import CompletionError, ErrorKind
from runvil.gateway.classify import OVERFLOW_PHRASES, SPEC_OVERFLOW_PHRASES, bound_error_text

BOTH_ROUTES = True  # each test over the direct and the httpx route (conftest.py)

ASK = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
FORGED = "SECRET-PAYLOAD\nerror[Internal]: forged log line"


def fail(gateway, gateway_client, reply, **limits) -> CompletionError:
    gw = gateway([reply])
    with pytest.raises(CompletionError) as caught:
        gateway_client(gw, **limits).complete(ASK)
    return caught.value


def outcome(error: CompletionError):
    return error.kind, error.message, error.retryable


@pytest.mark.parametrize("status, body, kind, message, retryable", [
    (429, "slow down", ErrorKind.RATE_LIMITED,
     "the model backend is limiting the request rate (status 429)", True),
    (429, {"error": {"code": "insufficient_quota"}}, ErrorKind.QUOTA_EXHAUSTED,
     "the model backend says the usage quota is spent (status 429)", False),
    (429, "Your BILLING details are missing", ErrorKind.QUOTA_EXHAUSTED,
     "the model backend says the usage quota is spent (status 429)", False),
    (429, "out of credits", ErrorKind.QUOTA_EXHAUSTED,
     "the model backend says the usage quota is spent (status 429)", False),
    (503, "", ErrorKind.OVERLOADED, "the model backend is overloaded (status 503)", True),
    (529, "", ErrorKind.OVERLOADED, "the model backend is overloaded (status 529)", True),
    (500, {"error": {"type": "Overloaded_Error"}}, ErrorKind.OVERLOADED,
     "the model backend is overloaded (status 500)", True),
    (500, "boom", ErrorKind.SERVER_ERROR,
     "the model backend reported a fault of its own (status 500)", True),
    (502, FORGED, ErrorKind.SERVER_ERROR,
     "the model backend reported a fault of its own (status 502)", True),
    (599, "", ErrorKind.SERVER_ERROR,
     "the model backend reported a fault of its own (status 599)", True),
    (400, "violates our content policy", ErrorKind.REFUSED,
     "the model backend refused the request on content policy grounds (status 400)", False),
    (400, {"error": {"code": "content_filter"}}, ErrorKind.REFUSED,
     "the model backend refused the request on content policy grounds (status 400)", False),
    (400, "This model's maximum context length is 4096 tokens.", ErrorKind.CONTEXT_OVERFLOW,
     "the request is larger than the model's context window (status 400)", False),
    (413, "Prompt Is Too Long", ErrorKind.CONTEXT_OVERFLOW,
     "the request is larger than the model's context window (status 413)", False),
    (400, "content policy, and the context window is exceeded", ErrorKind.CONTEXT_OVERFLOW,
     "the request is larger than the model's context window (status 400)", False),
    (413, "content policy", ErrorKind.REJECTED,
     "the model backend rejected the request (status 413)", False),
    (413, "payload too large", ErrorKind.REJECTED,
     "the model backend rejected the request (status 413)", False),
    (400, {"error": "unknown field: frobnicate"}, ErrorKind.REJECTED,
     "the model backend rejected the request (status 400)", False),
    (401, "", ErrorKind.UNAVAILABLE,
     "the model backend did not accept the credentials (status 401)", False),
    (403, "quota", ErrorKind.UNAVAILABLE,
     "the model backend did not accept the credentials (status 403)", False),
    (404, "no such model", ErrorKind.REJECTED,
     "the model backend rejected the request (status 404)", False),
    (422, "context length", ErrorKind.REJECTED,
     "the model backend rejected the request (status 422)", False),
    (302, "", ErrorKind.REJECTED, "the model backend rejected the request (status 302)", False),
])
def test_status_classification(gateway, gateway_client, status, body, kind, message, retryable):
    error = fail(gateway, gateway_client, {"status": status, "body": body})
    assert outcome(error) == (kind, message, retryable)
    assert error.status == status


@pytest.mark.parametrize("phrase", OVERFLOW_PHRASES)
def test_each_overflow_phrase_ignoring_case(gateway, gateway_client, phrase):
    error = fail(gateway, gateway_client,
                 {"status": 400, "body": {"error": {"message": f"Sorry: {phrase.upper()}!"}}})
    assert error.kind == ErrorKind.CONTEXT_OVERFLOW and not error.retryable


def test_the_spec_twelve_overflow_phrases_are_all_recognised():
    assert len(SPEC_OVERFLOW_PHRASES) == 12 and set(SPEC_OVERFLOW_PHRASES) <= set(OVERFLOW_PHRASES)


@pytest.mark.parametrize("status", [400, 401, 429, 500, 502, 503])
def test_messages_never_include_the_body(gateway, gateway_client, status):
    error = fail(gateway, gateway_client, {"status": status, "body": FORGED})
    assert "SECRET" not in error.message and "forged" not in error.message
    assert "\n" not in error.message


@pytest.mark.parametrize("error_text, kind, message, retryable", [
    ({"message": "This model's maximum context length is 8192 tokens"}, ErrorKind.CONTEXT_OVERFLOW,
     "the request is larger than the model's context window", False),
    ({"code": "insufficient_quota"}, ErrorKind.QUOTA_EXHAUSTED,
     "the model backend says the usage quota is spent", False),
    ("billing hard limit reached", ErrorKind.QUOTA_EXHAUSTED,
     "the model backend says the usage quota is spent", False),
    ("overloaded_error: try again", ErrorKind.OVERLOADED, "the model backend is overloaded", True),
    ("blocked by the content filter", ErrorKind.REFUSED,
     "the model backend refused the request on content policy grounds", False),
    ("something odd", ErrorKind.TRANSPORT, "the connection to the model backend failed", True),
    (FORGED, ErrorKind.TRANSPORT, "the connection to the model backend failed", True),
])
def test_errors_inside_a_started_stream(gateway, gateway_client, error_text, kind, message,
                                        retryable):
    error = fail(gateway, gateway_client, {"text": "partial", "stream_error": error_text})
    assert outcome(error) == (kind, message, retryable)
    assert error.status is None


def test_stream_error_precedence_follows_the_spec(gateway, gateway_client):
    error = fail(gateway, gateway_client,
                 {"stream_error": "overloaded, quota and context window all at once"})
    assert error.kind == ErrorKind.CONTEXT_OVERFLOW
    error = fail(gateway, gateway_client, {"stream_error": "overloaded: quota"})
    assert error.kind == ErrorKind.QUOTA_EXHAUSTED
    error = fail(gateway, gateway_client, {"stream_error": "overloaded content policy"})
    assert error.kind == ErrorKind.OVERLOADED


def test_a_stream_error_event_is_classified_by_its_text(gateway, gateway_client):
    error = fail(gateway, gateway_client, {"frames": [
        'data: {"choices":[{"index":0,"delta":{"content":"x"}}]}\n\n',
        "event: error\ndata: Overloaded\n\n"]})
    assert outcome(error) == (ErrorKind.OVERLOADED, "the model backend is overloaded", True)


def test_an_error_object_in_a_success_body_is_classified_by_its_text(gateway, gateway_client):
    error = fail(gateway, gateway_client, {"stream": False, "stream_error": "prompt is too long"})
    assert error.kind == ErrorKind.CONTEXT_OVERFLOW and error.status is None


def test_stream_error_text_is_bounded_to_2000_characters(gateway, gateway_client):
    # The error object serialises as {"message": "..."}: 13 characters of prefix.
    inside = fail(gateway, gateway_client, {"stream_error": "x" * 1900 + " context length"})
    assert inside.kind == ErrorKind.CONTEXT_OVERFLOW
    beyond = fail(gateway, gateway_client, {"stream_error": "x" * 2000 + " context length"})
    assert beyond.kind == ErrorKind.TRANSPORT


def test_bound_error_text_escapes_control_characters():
    assert bound_error_text("a\nb\r\tc\x00\x1b\x7f\x85\u2028d") == \
        "a\\nb\\r\\tc\\x00\\x1b\\x7f\\x85\\u2028d"
    assert bound_error_text("é" * 3000) == "é" * 2000


# ---- transport ------------------------------------------------------------

TRANSPORT = (ErrorKind.TRANSPORT, "the connection to the model backend failed", True)


def test_connection_refused(gateway, gateway_client):
    gw = gateway([])
    url = gw.url
    gw.stop()
    with pytest.raises(CompletionError) as caught:
        gateway_client(url).complete(ASK)
    assert outcome(caught.value) == TRANSPORT


def test_connection_closed_before_the_reply(gateway, gateway_client):
    assert outcome(fail(gateway, gateway_client, {"disconnect": "before_reply"})) == TRANSPORT


def test_a_broken_stream(gateway, gateway_client):
    assert outcome(fail(gateway, gateway_client,
                        {"text": "partial", "disconnect": "mid_reply"})) == TRANSPORT


def test_an_error_reply_whose_body_cannot_be_read(gateway, gateway_client):
    assert outcome(fail(gateway, gateway_client,
                        {"status": 503, "body": "overloaded", "disconnect": "mid_reply"})) == TRANSPORT


def test_retryable_follows_the_kind_alone():
    retryable = {kind for kind in ErrorKind if CompletionError(kind, "x").retryable}
    assert retryable == {ErrorKind.RATE_LIMITED, ErrorKind.OVERLOADED, ErrorKind.TIMEOUT,
                         ErrorKind.TRANSPORT, ErrorKind.SERVER_ERROR, ErrorKind.MALFORMED_RESPONSE}
    assert len(ErrorKind) == 12
