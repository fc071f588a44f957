"""Successful rounds over real HTTP: streamed text, reasoning, tool calls,
finish reasons, usage, and the protocol checks on a finished reply."""

import json

import pytest

from runvil.gateway import Completion, CompletionError, ErrorKind, ToolCall, Usage

BOTH_ROUTES = True  # each test over the direct and the httpx route (conftest.py)

ASK = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
ASK_WITH_TOOLS = {**ASK, "tools": [{"type": "function", "function": {"name": "search"}}]}
MALFORMED = "the model backend sent a reply that could not be understood: "


def run(gateway, gateway_client, replies, request=ASK, **options):
    gw = gateway(replies)
    return gateway_client(gw).complete(request, **options), gw


def fail(gateway, gateway_client, replies, request=ASK) -> CompletionError:
    with pytest.raises(CompletionError) as caught:
        run(gateway, gateway_client, replies, request)
    return caught.value


def test_text_arrives_in_fragments_and_whole(gateway, gateway_client):
    seen = []
    reply, _ = run(gateway, gateway_client, [{"text": "Hello, world!", "chunk_chars": 3}],
                   on_text=seen.append)
    assert seen == ["Hel", "lo,", " wo", "rld", "!"]
    assert reply == Completion(text="Hello, world!", finish_reason="stop")


def test_reasoning_is_kept_apart_from_the_text(gateway, gateway_client):
    thoughts, texts = [], []
    reply, _ = run(gateway, gateway_client,
                   [{"reasoning": "think first", "text": "answer", "chunk_chars": 5}],
                   on_text=texts.append, on_reasoning=thoughts.append)
    assert (reply.text, reply.reasoning) == ("answer", "think first")
    assert thoughts == ["think", " firs", "t"] and texts == ["answe", "r"]


def test_reasoning_field_named_reasoning(gateway, gateway_client):
    events = [{"choices": [{"index": 0, "delta": {"reasoning": "hm"}}]},
              {"choices": [{"index": 0, "delta": {"reasoning": "m", "reasoning_content": "m"}}]},
              {"choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": "stop"}]}]
    reply, _ = run(gateway, gateway_client, [{"events": events}])
    assert (reply.reasoning, reply.text) == ("hmm", "ok")


def test_tool_calls_split_across_deltas_are_assembled(gateway, gateway_client):
    calls = [{"id": "call_1", "name": "search", "arguments": {"query": "tool calls", "limit": 3}},
             {"id": "call_2", "name": "clock", "arguments": {}}]
    reply, _ = run(gateway, gateway_client, [{"tool_calls": calls, "chunk_chars": 4}],
                   ASK_WITH_TOOLS)
    assert reply.tool_calls == (
        ToolCall("call_1", "search", '{"query": "tool calls", "limit": 3}'),
        ToolCall("call_2", "clock", "{}"),
    )
    assert reply.finish_reason == "tool_calls"
    assert not reply.is_empty


def test_interleaved_tool_call_deltas_are_grouped_by_index(gateway, gateway_client):
    def delta(index, **fields):
        return {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": index, **fields}]}}]}
    events = [
        delta(1, id="b", function={"name": "clo", "arguments": ""}),
        delta(0, id="a", type="function", function={"name": "search", "arguments": '{"q":'}),
        delta(1, id="b", function={"name": "ck", "arguments": "{}"}),  # id repeated
        delta(0, function={"arguments": ' "x"}'}),
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ]
    reply, _ = run(gateway, gateway_client, [{"events": events}], ASK_WITH_TOOLS)
    assert reply.tool_calls == (ToolCall("a", "search", '{"q": "x"}'), ToolCall("b", "clock", "{}"))
    assert reply.finish_reason == "stop"  # a tool round finishing with stop stays a tool round


def test_text_beside_tool_calls_is_kept(gateway, gateway_client):
    reply, _ = run(gateway, gateway_client, [{
        "text": "Let me check both.",
        "tool_calls": [{"id": "c1", "name": "f", "arguments": {}}]}], ASK_WITH_TOOLS)
    assert reply.text == "Let me check both." and len(reply.tool_calls) == 1


@pytest.mark.parametrize("reason", ["stop", "length", "content_filter", "end_turn", "STOP"])
def test_finish_reasons_pass_through_exactly(gateway, gateway_client, reason):
    reply, _ = run(gateway, gateway_client, [{"text": "partial answer", "finish_reason": reason}])
    assert (reply.text, reply.finish_reason) == ("partial answer", reason)


def test_no_finish_reason(gateway, gateway_client):
    reply, _ = run(gateway, gateway_client, [{"text": "hi", "finish_reason": None}])
    assert reply.finish_reason is None


def test_usage_with_reasoning_tokens_and_the_anchor(gateway, gateway_client):
    usage = {"prompt_tokens": 3000, "completion_tokens": 1200,
             "completion_tokens_details": {"reasoning_tokens": 800}}
    reply, _ = run(gateway, gateway_client, [{"text": "ok", "usage": usage}])
    assert reply.usage == Usage(3000, 1200, 800)
    assert reply.usage.anchor == 3400


def test_usage_without_a_reasoning_breakdown(gateway, gateway_client):
    reply, _ = run(gateway, gateway_client, [
        {"text": "ok", "usage": {"prompt_tokens": 3000, "completion_tokens": 1200}}])
    assert reply.usage == Usage(3000, 1200) and reply.usage.anchor == 4200


def test_anchor_never_drops_below_zero():
    assert Usage(0, 10, 50).anchor == 0


def test_no_or_unusable_usage(gateway, gateway_client):
    reply, _ = run(gateway, gateway_client, ["ok", {"text": "ok", "usage": {"total_tokens": 5}}])
    assert reply.usage is None


def test_request_is_sent_streaming_with_usage_requested(gateway, gateway_client):
    request = {**ASK, "temperature": 0.2, "messages": [
        {"role": "user", "content": "héllo"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "content": "r", "tool_call_id": "c1"}]}
    _, gw = run(gateway, gateway_client, ["ok"], request)
    [sent] = gw.requests
    assert sent.path == "/v1/chat/completions"
    assert sent.json == {**request, "stream": True, "stream_options": {"include_usage": True}}
    assert "héllo".encode() in sent.body  # UTF-8, not \\u escapes
    assert sent.headers["content-type"] == "application/json"


def test_a_caller_stream_options_is_kept(gateway, gateway_client):
    _, gw = run(gateway, gateway_client, ["ok"], {**ASK, "stream_options": {"x": 1}})
    assert gw.requests[0].json["stream_options"] == {"x": 1}


def test_a_non_streamed_answer_is_accepted(gateway, gateway_client):
    seen = []
    reply, _ = run(gateway, gateway_client, [{
        "stream": False, "text": "whole", "reasoning": "r",
        "tool_calls": [{"id": "c", "name": "f", "arguments": {"a": 1}}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 2}}], ASK_WITH_TOOLS,
        on_text=seen.append)
    assert reply == Completion("whole", "r", (ToolCall("c", "f", '{"a": 1}'),), "tool_calls",
                               Usage(1, 2))
    assert seen == ["whole"]


def test_done_without_a_final_blank_line_still_counts(gateway, gateway_client):
    chunk = json.dumps({"choices": [{"index": 0, "delta": {"content": "hi"}, "finish_reason": "stop"}]})
    reply, _ = run(gateway, gateway_client, [{"frames": [f"data: {chunk}\r\n\r\n", "data: [DONE]"]}])
    assert reply.text == "hi"


def test_sse_comments_named_events_and_crlf_are_read(gateway, gateway_client):
    chunk = json.dumps({"choices": [{"index": 0, "delta": {"content": "hi"}, "finish_reason": "stop"}]})
    frames = [": keep-alive\r\n\r\n", "event: message\r\nid: 1\r", f"\ndata: {chunk}\r\n\r\n",
              "retry: 5\n\ndata: [DONE]\n\n"]
    reply, _ = run(gateway, gateway_client, [{"frames": frames}])
    assert reply.text == "hi"


def test_bytes_after_done_are_ignored(gateway, gateway_client):
    reply, _ = run(gateway, gateway_client, [{"frames": [
        'data: {"choices":[{"index":0,"delta":{"content":"ok"}}]}\n\n',
        "data: [DONE]\n\n", "data: not json at all\n\n"]}])
    assert reply.text == "ok"


def test_only_the_first_choice_is_read(gateway, gateway_client):
    events = [{"choices": [{"index": 1, "delta": {"content": "other"}},
                           {"index": 0, "delta": {"content": "mine"}, "finish_reason": "stop"}]}]
    reply, _ = run(gateway, gateway_client, [{"events": events}])
    assert reply.text == "mine"


def test_connection_is_reused_between_rounds(gateway, gateway_client):
    gw = gateway(["one", "two", "three"])
    client = gateway_client(gw)
    assert [client.complete(ASK).text for _ in range(3)] == ["one", "two", "three"]


# ---- empty replies --------------------------------------------------------

def test_whitespace_text_is_an_empty_reply(gateway, gateway_client):
    reply, _ = run(gateway, gateway_client, [{"text": " \n\t "}])
    assert reply.is_empty
    error = reply.empty_reply_error()
    assert (error.kind, error.message, error.retryable, error.finish_reason) == \
        (ErrorKind.EMPTY_REPLY, "the model replied with no text and no tool calls", False, "stop")


def test_reasoning_only_is_an_empty_reply_that_says_so(gateway, gateway_client):
    reply, _ = run(gateway, gateway_client, [{"reasoning": "all thought", "finish_reason": "length"}])
    assert reply.is_empty and reply.text == ""
    error = reply.empty_reply_error()
    assert str(error) == ("the model replied with no text and no tool calls: "
                          "reasoning content was present but ignored")
    assert error.finish_reason == "length"


def test_an_empty_reply_without_finish_reason(gateway, gateway_client):
    reply, _ = run(gateway, gateway_client, [{"finish_reason": None}])
    assert reply.is_empty and reply.empty_reply_error().finish_reason is None


# ---- protocol violations --------------------------------------------------

def test_tool_calls_when_none_were_advertised(gateway, gateway_client):
    error = fail(gateway, gateway_client, [{"tool_calls": [{"id": "c", "name": "f"}]}],
                 {**ASK, "tools": []})
    assert error.kind == ErrorKind.MALFORMED_RESPONSE and error.retryable
    assert error.message == MALFORMED + "the round sent tool calls, but no tools were advertised"


@pytest.mark.parametrize("reason", ["length", "content_filter"])
def test_a_truncated_tool_call_batch_must_not_execute(gateway, gateway_client, reason):
    error = fail(gateway, gateway_client, [{
        "tool_calls": [{"id": "c", "name": "f", "arguments": '{"path": "no'}],
        "finish_reason": reason}], ASK_WITH_TOOLS)
    assert error.kind == ErrorKind.MALFORMED_RESPONSE and error.retryable
    assert error.message == (MALFORMED + f'tool-call batch truncated by finish_reason "{reason}": '
                             "partial arguments must not execute")


@pytest.mark.parametrize("call, detail", [
    ({"id": "", "name": "f"}, "tool call 1 has no id"),
    ({"id": "c", "name": " "}, "tool call 1 has no name"),
    ({"id": "c", "name": "f", "arguments": '{"a": '}, "tool call 1 arguments are not a JSON object"),
    ({"id": "c", "name": "f", "arguments": "[1, 2]"}, "tool call 1 arguments are not a JSON object"),
])
def test_unusable_tool_calls(gateway, gateway_client, call, detail):
    error = fail(gateway, gateway_client, [{"tool_calls": [call]}], ASK_WITH_TOOLS)
    assert error.message == MALFORMED + detail


def test_duplicate_tool_call_ids(gateway, gateway_client):
    error = fail(gateway, gateway_client, [{"tool_calls": [
        {"id": "c", "name": "f"}, {"id": "c", "name": "g"}]}], ASK_WITH_TOOLS)
    assert error.message == MALFORMED + "two tool calls in the round share an id"


@pytest.mark.parametrize("reply, detail", [
    ({"events": ["not json"]}, "reply event is not valid JSON"),
    ({"events": [[1, 2]]}, "reply event is not a JSON object"),
    ({"events": [{"choices": {"0": {}}}]}, "reply has a malformed choices"),
    ({"events": [{"choices": [{"index": 0, "delta": {"content": 5}}]}]},
     "reply has a malformed content"),
    ({"events": [{"choices": [{"index": 0, "delta": {}, "finish_reason": 1}]}]},
     "reply has a malformed finish_reason"),
    ({"events": [{"choices": [{"index": 0, "delta": {"tool_calls": {"index": 0}}}]}]},
     "reply has a malformed tool_calls"),
    ({"frames": ["data: {\"choices\": []}\n\n", "data: \udcff\n\n"]}, "reply is not valid UTF-8"),
    ({"stream": False, "body": "{not json"}, "reply body is not valid JSON"),
    ({"headers": {"Content-Type": "text/plain"}}, "reply has an unexpected content type"),
    ({"headers": {"Content-Encoding": "gzip"}}, "reply body could not be decoded"),
])
def test_malformed_replies(gateway, gateway_client, reply, detail):
    error = fail(gateway, gateway_client, [reply])
    assert (error.kind, error.message, error.retryable) == \
        (ErrorKind.MALFORMED_RESPONSE, MALFORMED + detail, True)


def test_a_stream_without_done_is_malformed(gateway, gateway_client):
    error = fail(gateway, gateway_client, [{"text": "cut", "done": False}])
    assert error.message == MALFORMED + "completion stream ended without the [DONE] sentinel"
    assert error.retryable and error.status is None
