"""Context overflow as the servers people run report it: each body has the
shape that server sends (its error envelope, status and wording), served
over real HTTP by the scripted gateway, and must come out ContextOverflow.
The same texts inside a started stream overflow too."""

import pytest

from runvil.gateway import CompletionError, ErrorKind

ASK = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}

OPENAI_ENVELOPE = {"type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}

SERVER_BODIES = {
    "OpenAI": (400, {"error": {
        "message": "This model's maximum context length is 8192 tokens. However, your messages "
                   "resulted in 9000 tokens. Please reduce the length of the messages.",
        **OPENAI_ENVELOPE}}),
    "OpenAI (newer models)": (400, {"error": {
        "message": "Your input exceeds the context window of this model. Please adjust your input "
                   "and try again.", **OPENAI_ENVELOPE}}),
    "vLLM API": (400, {"object": "error",
        "message": "This model's maximum context length is 4096 tokens. However, you requested "
                   "5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the "
                   "length of the messages or completion.",
        "type": "BadRequestError", "param": None, "code": 400}),
    "vLLM engine": (400, {"error": {
        "message": "The decoder prompt (length 5000) is longer than the maximum model length of "
                   "4096. Make sure that `max_model_len` is no smaller than the number of text tokens.",
        "type": "BadRequestError", "param": None, "code": 400}}),
    "llama.cpp": (400, {"error": {
        "code": 400, "message": "the request exceeds the available context size, try increasing it",
        "type": "exceed_context_size_error", "n_prompt_tokens": 5000, "n_ctx": 4096}}),
    "Ollama": (400, {"error": {
        "message": "input exceeds maximum context length", "type": "invalid_request_error",
        "param": None, "code": None}}),
    "LiteLLM": (400, {"error": {
        "message": "litellm.ContextWindowExceededError: litellm.BadRequestError: "
                   "ContextWindowExceededError: OpenAIException - Error code: 400\n"
                   "Received Model Group=local\nAvailable Model Group Fallbacks=None",
        "type": None, "param": None, "code": "400"}}),
    "Anthropic (prompt)": (400, {"type": "error", "error": {
        "type": "invalid_request_error", "message": "prompt is too long: 208310 tokens > 200000 maximum"}}),
    "Anthropic (max_tokens)": (400, {"type": "error", "error": {
        "type": "invalid_request_error",
        "message": "input length and `max_tokens` exceed context limit: 197626 + 21333 > 200000, "
                   "decrease input length or `max_tokens` and try again"}}),
    "Gemini": (400, [{"error": {
        "code": 400, "message": "The input token count (1234567) exceeds the maximum number of "
                                "tokens allowed (1048576).", "status": "INVALID_ARGUMENT"}}]),
    "Mistral": (400, {"object": "error",
        "message": "Prompt contains 40000 tokens and 0 draft tokens, too large for model with "
                   "32768 maximum context length", "type": "invalid_request_message_error",
        "param": None, "code": None}),
    "a proxy in front (413)": (413, {"error": {
        "message": "Request too large: input is too long for requested model.", "type": "request_too_large"}}),
}


@pytest.mark.parametrize("server", SERVER_BODIES)
def test_each_servers_overflow_body_is_a_context_overflow(gateway, gateway_client, server):
    status, body = SERVER_BODIES[server]
    gw = gateway([{"status": status, "body": body}])
    with pytest.raises(CompletionError) as caught:
        gateway_client(gw).complete(ASK)
    assert caught.value.kind == ErrorKind.CONTEXT_OVERFLOW
    assert caught.value.message == (
        f"the request is larger than the model's context window (status {status})")


@pytest.mark.parametrize("server", ["llama.cpp", "vLLM engine", "LiteLLM", "Anthropic (max_tokens)"])
def test_the_same_text_inside_a_started_stream_overflows(gateway, gateway_client, server):
    _, body = SERVER_BODIES[server]
    error = body["error"] if isinstance(body, dict) and "error" in body else body
    gw = gateway([{"stream_error": error, "text": "partial"}])
    with pytest.raises(CompletionError) as caught:
        gateway_client(gw).complete(ASK)
    assert (caught.value.kind, caught.value.message) == (
        ErrorKind.CONTEXT_OVERFLOW, "the request is larger than the model's context window")


def test_an_unknown_model_is_a_rejection_not_an_overflow(gateway, gateway_client):
    # LiteLLM's answer to a model id it does not route, which names no context limit.
    gw = gateway([{"status": 400, "body": {"error": {
        "message": "/chat/completions: Invalid model name passed in model=default. Call `/v1/models` "
                   "to view available models for your key.", "type": "None", "param": "None", "code": "400"}}}])
    with pytest.raises(CompletionError) as caught:
        gateway_client(gw).complete(ASK)
    assert caught.value.kind == ErrorKind.REJECTED
