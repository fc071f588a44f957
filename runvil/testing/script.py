"""The scripted gateway's script format: which replies it sends, in order.

A script is a list of replies, or a mapping with ``replies`` (the default
queue), ``models`` (queues keyed by the request's model id), ``fallback``
(the reply sent whenever the matching queue is empty) and ``model_list``
(what ``GET /v1/models`` lists; by default the ids of ``models``).  Each reply is a
mapping; see docs/scripted-gateway.md for every key.  ``render_*`` turn a
reply into the bytes the server writes, so the server itself stays a thin
HTTP layer.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

import yaml

DISCONNECT_POINTS = ("before_reply", "mid_reply")
_UNSET: Any = object()  # finish_reason left out: derived from the reply


class ScriptError(ValueError):
    """A script that cannot be used; the message names the place and the problem."""


@dataclass(frozen=True)
class ScriptedCall:
    id: str
    name: str
    arguments: str  # sent verbatim, so a test can send broken JSON


@dataclass(frozen=True)
class Reply:
    text: str | None = None
    reasoning: str | None = None
    tool_calls: tuple[ScriptedCall, ...] = ()
    finish_reason: str | None = _UNSET
    usage: Mapping[str, Any] | None = None
    status: int = 200
    body: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    stream: bool | None = None
    stream_error: Any = None
    events: tuple[Any, ...] | None = None
    frames: tuple[str, ...] | None = None
    done: bool | None = None
    delay: float = 0.0
    headers_delay: float = 0.0
    chunk_chars: int = 32
    pad_bytes: int = 0
    chunked: bool = False
    disconnect: str | None = None

    @property
    def is_error(self) -> bool:
        return not 200 <= self.status < 300

    @property
    def sends_done(self) -> bool:
        if self.done is not None:
            return self.done
        # A broken or failed stream normally ends without its sentinel.
        return self.disconnect is None and self.stream_error is None

    @property
    def final_reason(self) -> str | None:
        if self.finish_reason is not _UNSET:
            return self.finish_reason
        return "tool_calls" if self.tool_calls else "stop"


@dataclass(frozen=True)
class Script:
    replies: tuple[Reply, ...] = ()
    models: Mapping[str, tuple[Reply, ...]] = field(default_factory=dict)
    fallback: Reply | None = None
    model_list: tuple[ListedModel, ...] | None = None  # None: the ids of ``models``

    def listed_models(self) -> tuple[ListedModel, ...]:
        return self.model_list if self.model_list is not None else tuple(map(ListedModel, self.models))


@dataclass(frozen=True)
class ListedModel:
    id: str
    context_length: int | None = None  # sent as OpenRouter's ``context_length``


_REPLY_KEYS = {f.name for f in fields(Reply)}


def _check(condition: bool, where: str, problem: str) -> None:
    if not condition:
        raise ScriptError(f"{where}: {problem}")


def _check_keys(raw: Mapping, known: set[str], where: str) -> None:
    unknown = sorted(str(key) for key in raw if key not in known)
    if unknown:
        raise ScriptError(f"{where}: unknown key {unknown[0]!r}")


def _parse_call(raw: Any, where: str) -> ScriptedCall:
    _check(isinstance(raw, Mapping), where, "a tool call must be a mapping")
    _check_keys(raw, {"id", "name", "arguments"}, where)
    arguments = raw.get("arguments", {})
    if not isinstance(arguments, str):
        arguments = json.dumps(arguments, ensure_ascii=False)
    return ScriptedCall(str(raw.get("id", "")), str(raw.get("name", "")), arguments)


# What each scalar key must hold; None always means "the default" (for
# finish_reason: "send none"), so a YAML null is never a type error.
_KINDS = {
    "text": (str, "a string"), "reasoning": (str, "a string"),
    "finish_reason": (str, "a string"), "usage": (Mapping, "a mapping"),
    "headers": (Mapping, "a mapping"), "status": (int, "an integer"),
    "stream": (bool, "true or false"), "done": (bool, "true or false"),
    "chunked": (bool, "true or false"), "delay": ((int, float), "a number"),
    "headers_delay": ((int, float), "a number"), "chunk_chars": (int, "an integer"),
    "pad_bytes": (int, "an integer"),
}


def parse_reply(raw: Any, where: str = "reply") -> Reply:
    """One reply mapping (a bare string is shorthand for ``{text: ...}``)."""
    if isinstance(raw, str):
        return Reply(text=raw)
    _check(isinstance(raw, Mapping), where, "a reply must be a mapping or a string")
    _check_keys(raw, _REPLY_KEYS, where)
    values = {key: value for key, value in raw.items()
              if value is not None or key == "finish_reason"}
    for key, (kind, described) in _KINDS.items():
        value = values.get(key)
        # bool is an int in Python; `status: true` is still a mistake.
        wrong = value is not None and (not isinstance(value, kind)
                                       or (isinstance(value, bool) and kind is not bool))
        _check(not wrong, where, f"{key} must be {described}")
    for key in ("delay", "headers_delay", "pad_bytes"):
        _check(values.get(key, 0) >= 0, where, f"{key} must not be negative")
    _check(values.get("chunk_chars", 1) >= 1, where, "chunk_chars must be a positive integer")
    _check(values.get("disconnect") in (None, *DISCONNECT_POINTS), where,
           "disconnect must be before_reply or mid_reply")
    calls = values.get("tool_calls", ())
    _check(isinstance(calls, list | tuple), where, "tool_calls must be a list")
    values["tool_calls"] = tuple(_parse_call(c, f"{where} tool_calls[{i}]")
                                 for i, c in enumerate(calls))
    if "body" in values and not isinstance(values["body"], str):
        values["body"] = json.dumps(values["body"], ensure_ascii=False)
    for key in ("events", "frames"):
        if key in values:
            _check(isinstance(values[key], list | tuple), where, f"{key} must be a list")
            values[key] = tuple(values[key])
    _check(all(isinstance(f, str) for f in values.get("frames", ())), where,
           "frames must be strings")
    return Reply(**values)


def _parse_queue(raw: Any, where: str) -> tuple[Reply, ...]:
    _check(isinstance(raw, list | tuple), where, "replies must be a list")
    return tuple(parse_reply(r, f"{where}[{i}]") for i, r in enumerate(raw))


def load_script(source: Any = None) -> Script:
    """A Script from a Script, a list, a mapping, or a YAML/JSON file path."""
    if source is None:
        return Script()
    if isinstance(source, Script):
        return source
    if isinstance(source, str | os.PathLike):
        with open(source, encoding="utf-8") as file:
            try:
                source = yaml.safe_load(file)
            except yaml.YAMLError as error:
                raise ScriptError(f"script: not valid YAML or JSON: {error}") from None
    if isinstance(source, list | tuple):
        return Script(replies=_parse_queue(source, "replies"))
    _check(isinstance(source, Mapping), "script", "must be a list of replies or a mapping")
    _check_keys(source, {"replies", "models", "fallback", "model_list"}, "script")
    models = source.get("models") or {}
    _check(isinstance(models, Mapping), "models", "must map model ids to reply lists")
    fallback = source.get("fallback")
    return Script(
        replies=_parse_queue(source.get("replies") or [], "replies"),
        models={str(m): _parse_queue(q, f"models.{m}") for m, q in models.items()},
        fallback=None if fallback is None else parse_reply(fallback, "fallback"),
        model_list=None if source.get("model_list") is None
        else _parse_model_list(source["model_list"]),
    )


def _parse_model_list(raw: Any) -> tuple[ListedModel, ...]:
    _check(isinstance(raw, list | tuple), "model_list", "must be a list of model ids")
    listed = []
    for i, entry in enumerate(raw):
        where = f"model_list[{i}]"
        if isinstance(entry, str):
            entry = {"id": entry}
        _check(isinstance(entry, Mapping), where, "must be a model id or {id, context_length}")
        _check_keys(entry, {"id", "context_length"}, where)
        _check(isinstance(entry.get("id"), str) and bool(entry["id"]), where, "id must be a non-empty string")
        context = entry.get("context_length")
        _check(context is None or (type(context) is int and context > 0), where,
               "context_length must be a whole number of tokens")
        listed.append(ListedModel(entry["id"], context))
    return tuple(listed)


def render_model_list(models: tuple[ListedModel, ...]) -> bytes:
    """``GET /v1/models``'s body, in the OpenAI list shape."""
    data = []
    for model in models:
        entry: dict[str, Any] = {"id": model.id, "object": "model", "created": 0, "owned_by": "scripted"}
        if model.context_length is not None:
            entry["context_length"] = model.context_length
        data.append(entry)
    return json.dumps({"object": "list", "data": data}, ensure_ascii=False).encode("utf-8")


# ---- rendering --------------------------------------------------------------

def _pieces(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]


def _sse(data: str) -> bytes:
    return b"".join(b"data: " + line.encode("utf-8") + b"\n" for line in data.split("\n")) + b"\n"


def _padding(size: int) -> list[bytes]:
    # SSE comment lines (and a blank line for a last single byte): they count
    # against a client's byte cap and carry no data.
    frames = []
    while size > 0:
        n = min(size, 65536)
        frames.append(b"\n" if n == 1 else b":" + b" " * (n - 2) + b"\n")
        size -= n
    return frames


def render_stream(reply: Reply, model: str) -> list[bytes]:
    """The SSE frames of a streamed reply; each is written as one HTTP chunk."""
    frames = _padding(reply.pad_bytes)
    if reply.frames is not None:
        # surrogateescape lets a test write raw bytes: "\udcff" is the byte 0xff.
        return frames + [f.encode("utf-8", "surrogateescape") for f in reply.frames]

    def chunk(delta: dict, finish: str | None = None) -> bytes:
        return _sse(json.dumps({
            "id": "chatcmpl-scripted", "object": "chat.completion.chunk", "created": 0,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }, ensure_ascii=False))

    if reply.events is not None:
        frames += [_sse(e if isinstance(e, str) else json.dumps(e, ensure_ascii=False))
                   for e in reply.events]
    else:
        frames.append(chunk({"role": "assistant", "content": ""}))
        for piece in _pieces(reply.reasoning or "", reply.chunk_chars) if reply.reasoning else ():
            frames.append(chunk({"reasoning_content": piece}))
        for piece in _pieces(reply.text or "", reply.chunk_chars) if reply.text else ():
            frames.append(chunk({"content": piece}))
        for index, call in enumerate(reply.tool_calls):
            frames.append(chunk({"tool_calls": [{
                "index": index, "id": call.id, "type": "function",
                "function": {"name": call.name, "arguments": ""}}]}))
            for piece in _pieces(call.arguments, reply.chunk_chars) if call.arguments else ():
                frames.append(chunk({"tool_calls": [{"index": index,
                                                     "function": {"arguments": piece}}]}))
        if reply.final_reason is not None:
            frames.append(chunk({}, reply.final_reason))
        if reply.usage is not None:
            frames.append(_sse(json.dumps({
                "id": "chatcmpl-scripted", "object": "chat.completion.chunk", "created": 0,
                "model": model, "choices": [], "usage": dict(reply.usage)})))
    if reply.stream_error is not None:
        frames.append(_sse(json.dumps({"error": _error_object(reply.stream_error)},
                                      ensure_ascii=False)))
    if reply.sends_done:
        frames.append(b"data: [DONE]\n\n")
    return frames


def _error_object(error: Any) -> Any:
    return {"message": error} if isinstance(error, str) else error


def render_body(reply: Reply, model: str) -> bytes:
    """The whole body of an error reply or of a non-streamed answer."""
    if reply.is_error or reply.body is not None:
        body = reply.body
        if body is None:
            body = json.dumps({"error": {"message": f"scripted status {reply.status}"}})
    elif reply.stream_error is not None:
        body = json.dumps({"error": _error_object(reply.stream_error)}, ensure_ascii=False)
    else:
        message: dict[str, Any] = {"role": "assistant", "content": reply.text}
        if reply.reasoning is not None:
            message["reasoning_content"] = reply.reasoning
        if reply.tool_calls:
            message["tool_calls"] = [
                {"id": c.id, "type": "function",
                 "function": {"name": c.name, "arguments": c.arguments}}
                for c in reply.tool_calls]
        answer: dict[str, Any] = {
            "id": "chatcmpl-scripted", "object": "chat.completion", "created": 0,
            "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": reply.final_reason}],
        }
        if reply.usage is not None:
            answer["usage"] = dict(reply.usage)
        body = json.dumps(answer, ensure_ascii=False)
    return body.encode("utf-8") + b" " * reply.pad_bytes
