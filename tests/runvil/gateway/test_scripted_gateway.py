"""The scripted gateway itself, spoken to with the standard library only."""

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

import runvil
from runvil.testing.gateway import ScriptedGateway
from runvil.testing.script import ScriptError, load_script

REPO = os.path.dirname(os.path.dirname(runvil.__file__))


def post(url: str, payload, path: str = "/chat/completions"):
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    request = urllib.request.Request(url + path, data=data,
                                     headers={"Content-Type": "application/json", "X-Test": "1"})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def sse_data(body: bytes) -> list[str]:
    return [line[6:] for line in body.decode().split("\n") if line.startswith("data: ")]


def test_listens_on_127_0_0_1_only(gateway):
    gw = gateway([])
    assert gw.url.startswith("http://127.0.0.1:") and gw.url.endswith("/v1")


def test_non_streaming_answer(gateway):
    gw = gateway([{"text": "hi", "reasoning": "r", "usage": {"prompt_tokens": 1, "completion_tokens": 2},
                   "tool_calls": [{"id": "c", "name": "f", "arguments": {"a": 1}}]}])
    status, headers, body = post(gw.url, {"model": "m1", "messages": []})
    assert status == 200 and headers["Content-Type"] == "application/json"
    answer = json.loads(body)
    assert answer["model"] == "m1" and answer["usage"] == {"prompt_tokens": 1, "completion_tokens": 2}
    assert answer["choices"] == [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": "hi", "reasoning_content": "r",
        "tool_calls": [{"id": "c", "type": "function",
                        "function": {"name": "f", "arguments": '{"a": 1}'}}]}}]


def test_streaming_answer(gateway):
    gw = gateway([{"text": "hello", "chunk_chars": 2}])
    status, headers, body = post(gw.url, {"model": "m", "messages": [], "stream": True})
    assert status == 200 and headers["Content-Type"] == "text/event-stream"
    data = sse_data(body)
    assert data[-1] == "[DONE]"
    chunks = [json.loads(d) for d in data[:-1]]
    assert "".join(c["choices"][0]["delta"].get("content", "") for c in chunks) == "hello"
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"


def test_error_status_and_body(gateway):
    gw = gateway([{"status": 429, "body": {"error": {"code": "rate"}}}, {"status": 500}])
    assert post(gw.url, {})[::2] == (429, b'{"error": {"code": "rate"}}')
    status, _, body = post(gw.url, {})
    assert status == 500 and json.loads(body) == {"error": {"message": "scripted status 500"}}


def test_replies_are_consumed_in_order_per_model(gateway):
    gw = gateway({"replies": ["d1", "d2"], "models": {"big": ["b1"]}})
    texts = [json.loads(post(gw.url, {"model": model})[2])["choices"][0]["message"]["content"]
             for model in ("big", "big", "small")]
    assert texts == ["b1", "d1", "d2"]  # an empty model queue falls back to the default one
    assert gw.pending == 0


def test_a_request_takes_its_reply_before_on_request_runs(gateway):
    # A callback whose effect sends the next request (a stop, then a later
    # round) before the first request's handler goes on: the replies still
    # follow the arrival order.
    later = []

    def send_the_second(request):
        if len(gw.requests) == 1:
            later.append(post(gw.url, {"model": "m"}))
    gw = gateway(["first", "second"], on_request=send_the_second)
    first = post(gw.url, {"model": "m"})
    assert [json.loads(r[2])["choices"][0]["message"]["content"] for r in [first] + later] == ["first", "second"]


def test_an_exhausted_script_answers_500(gateway):
    gw = gateway([])
    status, _, body = post(gw.url, {"model": "m"})
    assert status == 500
    assert json.loads(body)["error"]["message"] == "scripted gateway has no reply left for this request"


def test_the_fallback_answers_when_the_queue_is_empty(gateway):
    gw = gateway({"replies": ["first"], "fallback": "again"})
    texts = [json.loads(post(gw.url, {})[2])["choices"][0]["message"]["content"] for _ in range(3)]
    assert texts == ["first", "again", "again"]


def test_every_request_is_recorded(gateway):
    gw = gateway(["a"])
    post(gw.url, {"model": "m", "messages": [{"role": "user", "content": "x"}]})
    post(gw.url, b"not json", path="/models")
    first, second = gw.requests
    assert (first.method, first.path) == ("POST", "/v1/chat/completions")
    assert first.json == {"model": "m", "messages": [{"role": "user", "content": "x"}]}
    assert first.headers["x-test"] == "1"
    assert (second.path, second.body, second.json) == ("/v1/models", b"not json", None)


def test_unknown_paths_answer_404_without_consuming_a_reply(gateway):
    gw = gateway(["kept"])
    assert post(gw.url, {}, path="/completions")[0] == 404
    assert gw.pending == 1


def test_yaml_nulls_mean_the_default():
    reply = load_script([{"text": None, "status": None, "finish_reason": None}]).replies[0]
    assert (reply.text, reply.status, reply.final_reason) == (None, 200, None)


def test_scripts_load_from_yaml_and_json_files(tmp_path):
    (tmp_path / "s.yaml").write_text("replies:\n  - text: hi\n    finish_reason: length\n"
                                     "models:\n  m: [yo]\n")
    (tmp_path / "s.json").write_text('[{"status": 503}]')
    script = load_script(tmp_path / "s.yaml")
    assert script.replies[0].text == "hi" and script.replies[0].final_reason == "length"
    assert script.models["m"][0].text == "yo"
    assert load_script(str(tmp_path / "s.json")).replies[0].status == 503


@pytest.mark.parametrize("script, message", [
    ([{"txt": "typo"}], "replies[0]: unknown key 'txt'"),
    ([5], "replies[0]: a reply must be a mapping or a string"),
    ({"replies": [], "extra": 1}, "script: unknown key 'extra'"),
    ({"models": {"m": [{"disconnect": "later"}]}},
     "models.m[0]: disconnect must be before_reply or mid_reply"),
    ([{"tool_calls": [{"id": "c", "nmae": "f"}]}], "replies[0] tool_calls[0]: unknown key 'nmae'"),
    ([{"chunk_chars": 0}], "replies[0]: chunk_chars must be a positive integer"),
    ([{"text": 5}], "replies[0]: text must be a string"),
    ([{"status": True}], "replies[0]: status must be an integer"),
    ([{"delay": -1}], "replies[0]: delay must not be negative"),
    ([{"headers": ["x"]}], "replies[0]: headers must be a mapping"),
    ([{"frames": ["ok", 1]}], "replies[0]: frames must be strings"),
    ("{broken: [", "script: not valid YAML or JSON"),
])
def test_script_errors_name_the_place(tmp_path, script, message):
    if isinstance(script, str):
        (tmp_path / "bad.yaml").write_text(script)
        script = tmp_path / "bad.yaml"
    with pytest.raises(ScriptError) as caught:
        load_script(script)
    assert str(caught.value).startswith(message)


def test_command_line(tmp_path):
    (tmp_path / "replies.yaml").write_text("- text: from the command line\n")
    server = subprocess.Popen(
        [sys.executable, "-m", "runvil.testing.gateway", "--script", str(tmp_path / "replies.yaml"),
         "--port", "0", "--log-requests"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/v1")
        answer = json.loads(post(url, {"model": "m", "messages": []})[2])
        assert answer["choices"][0]["message"]["content"] == "from the command line"
    finally:
        server.send_signal(signal.SIGINT)
        _, errors = server.communicate(timeout=10)
    assert server.returncode == 0
    assert json.loads(errors.splitlines()[0]) == {"model": "m", "messages": []}
    assert "Warning" not in errors


def test_command_line_reports_a_bad_script(tmp_path):
    (tmp_path / "bad.yaml").write_text("- nope: 1\n")
    done = subprocess.run([sys.executable, "-m", "runvil.testing.gateway", "--script",
                           str(tmp_path / "bad.yaml")], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.strip() == "scripted gateway: replies[0]: unknown key 'nope'"


def test_stop_is_prompt_even_during_a_scripted_delay():
    gw = ScriptedGateway([{"text": "x", "headers_delay": 60}]).start()
    outcome = []

    def wait_for_reply(url):
        try:
            post(url, {})
        except ConnectionError as error:
            outcome.append(type(error))

    client = threading.Thread(target=wait_for_reply, args=(gw.url,))
    client.start()
    while not gw.requests:
        time.sleep(0.01)
    gw.stop()  # returns without waiting out the 60 s delay
    client.join(5)
    assert outcome == [http.client.RemoteDisconnected]
