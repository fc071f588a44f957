"""Assemble one model reply from chat-completion chunks (or a whole message).

Only choice 0 is read: the Engine asks for one completion per round.  Text,
reasoning and tool-call argument pieces are concatenated in arrival order;
tool calls are grouped by their ``index``.  The finished ``Completion`` is
checked against the protocol rules a round must keep before it is returned.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..vocabulary.bounded_json import TooDeep, loads
from .errors import EMPTY_REPLY, REASONING_IGNORED, CompletionError, ErrorKind, malformed


@dataclass(frozen=True, slots=True)
class ToolCall:
    id: str
    name: str
    arguments: str  # JSON object text as the model sent it


@dataclass(frozen=True, slots=True)
class Usage:
    prompt_tokens: int
    completion_tokens: int
    reasoning_tokens: int | None = None

    @property
    def anchor(self) -> int:
        """The precheck's provider anchor: reasoning is never sent back, so it
        does not count, and the total never drops below zero."""
        return max(0, self.prompt_tokens + self.completion_tokens - (self.reasoning_tokens or 0))


@dataclass(frozen=True, slots=True)
class Completion:
    """One completed model round."""

    text: str
    reasoning: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    finish_reason: str | None = None
    usage: Usage | None = None

    @property
    def is_empty(self) -> bool:
        """No tool calls and no text other than whitespace (reasoning never counts)."""
        return not self.tool_calls and not self.text.strip()

    def empty_reply_error(self) -> CompletionError:
        """The EmptyReply failure this round gives where an empty reply fails."""
        phrase = f"{EMPTY_REPLY}: {REASONING_IGNORED}" if self.reasoning else EMPTY_REPLY
        return CompletionError(ErrorKind.EMPTY_REPLY, phrase, finish_reason=self.finish_reason)


class StreamErrorReported(Exception):
    """The backend put an error object in the reply; ``text`` is its raw form."""

    def __init__(self, text: str) -> None:
        super().__init__("stream error")
        self.text = text


class _PendingCall:
    __slots__ = ("id", "name", "arguments")

    def __init__(self) -> None:
        self.id = ""
        self.name: list[str] = []
        self.arguments: list[str] = []


def _string(value: Any, field: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise malformed(f"reply has a malformed {field}")
    return value


def _count(value: Any) -> int | None:
    return value if type(value) is int and value >= 0 else None


class ReplyBuilder:
    """Collects one reply.  ``add_chunk``/``add_message`` return the
    ``(kind, text)`` fragments to show live, kind being "text" or "reasoning"."""

    def __init__(self) -> None:
        self._text: list[str] = []
        self._reasoning: list[str] = []
        self._calls: dict[int, _PendingCall] = {}
        self._finish_reason: str | None = None
        self._usage: Usage | None = None

    def add_chunk(self, chunk: Any) -> list[tuple[str, str]]:
        """One ``chat.completion.chunk`` object."""
        choice = self._first_choice(chunk)
        if choice is None:
            return []
        delta = choice.get("delta")
        if delta is None:
            return []
        if not isinstance(delta, dict):
            raise malformed("reply has a malformed delta")
        fragments = self._add_delta(delta)
        calls = delta.get("tool_calls")
        if calls is not None:
            if not isinstance(calls, list):
                raise malformed("reply has a malformed tool_calls")
            for position, call in enumerate(calls):
                self._add_call_delta(position, call)
        return fragments

    def add_message(self, reply: Any) -> list[tuple[str, str]]:
        """A whole non-streaming ``chat.completion`` object."""
        choice = self._first_choice(reply)
        if choice is None:
            return []
        message = choice.get("message")
        if message is None:
            return []
        if not isinstance(message, dict):
            raise malformed("reply has a malformed message")
        fragments = self._add_delta(message)
        calls = message.get("tool_calls")
        if calls is not None:
            if not isinstance(calls, list):
                raise malformed("reply has a malformed tool_calls")
            for position, call in enumerate(calls):
                if isinstance(call, dict):
                    call = {**call, "index": position}
                self._add_call_delta(position, call)
        return fragments

    def _first_choice(self, obj: Any) -> dict | None:
        if not isinstance(obj, dict):
            raise malformed("reply event is not a JSON object")
        if obj.get("error") is not None:
            raise StreamErrorReported(json.dumps(obj["error"], ensure_ascii=False))
        usage = obj.get("usage")
        if usage is not None:  # on the last chunk only, in a stream
            self._add_usage(usage)
        choices = obj.get("choices")
        if choices is None:
            return None
        if not isinstance(choices, list):
            raise malformed("reply has a malformed choices")
        for choice in choices:
            if not isinstance(choice, dict):
                raise malformed("reply has a malformed choice")
            if choice.get("index", 0) == 0:
                reason = choice.get("finish_reason")
                if reason is not None:
                    if not isinstance(reason, str):
                        raise malformed("reply has a malformed finish_reason")
                    self._finish_reason = reason
                return choice
        return None

    def _add_delta(self, delta: dict) -> list[tuple[str, str]]:
        fragments = []
        text = delta.get("content")
        if text.__class__ is not str:  # the usual str skips the call
            text = _string(text, "content")
        if text:
            self._text.append(text)
            fragments.append(("text", text))
        # Backends name the field reasoning_content (DeepSeek, vLLM) or
        # reasoning (OpenRouter, Ollama); some send both with the same text.
        reasoning = delta.get("reasoning_content")
        if reasoning is None:
            reasoning = delta.get("reasoning")
            if reasoning is None:
                return fragments
        reasoning = _string(reasoning, "reasoning")
        if reasoning:
            self._reasoning.append(reasoning)
            fragments.append(("reasoning", reasoning))
        return fragments

    def _add_call_delta(self, position: int, call: Any) -> None:
        if not isinstance(call, dict):
            raise malformed("reply has a malformed tool call")
        index = call.get("index", position)
        if type(index) is not int:
            raise malformed("reply has a malformed tool call index")
        pending = self._calls.get(index)
        if pending is None:
            pending = self._calls[index] = _PendingCall()
        # Most deltas carry only an argument piece: absent fields are skipped
        # (an absent name or piece adds nothing to the joined text).
        call_id = call.get("id")
        if call_id is not None:
            call_id = _string(call_id, "tool call id")
            if call_id and not pending.id:
                pending.id = call_id  # some backends repeat the id on every delta
        function = call.get("function")
        if function is None:
            return
        if not isinstance(function, dict):
            raise malformed("reply has a malformed tool call function")
        name = function.get("name")
        if name is not None:
            pending.name.append(_string(name, "tool call name"))
        arguments = function.get("arguments")
        if arguments is not None:
            if isinstance(arguments, dict):
                # A few backends send the arguments as an object, not JSON text.
                arguments = json.dumps(arguments, ensure_ascii=False)
            pending.arguments.append(_string(arguments, "tool call arguments"))

    def _add_usage(self, usage: Any) -> None:
        if not isinstance(usage, dict):
            return
        prompt = _count(usage.get("prompt_tokens"))
        completion = _count(usage.get("completion_tokens"))
        if prompt is None or completion is None:
            return  # usage is advisory: without both counts the anchor just does not apply
        details = usage.get("completion_tokens_details")
        reasoning = _count(details.get("reasoning_tokens")) if isinstance(details, dict) else None
        if reasoning is None:
            reasoning = _count(usage.get("reasoning_tokens"))
        self._usage = Usage(prompt, completion, reasoning)

    def build(self, *, tools_advertised: bool) -> Completion:
        """The finished round, or MalformedResponse when it breaks protocol."""
        if self._calls:
            # Judged before the calls themselves: a truncated batch's partial
            # arguments are expected to be broken.
            if not tools_advertised:
                raise malformed("the round sent tool calls, but no tools were advertised")
            if self._finish_reason in ("length", "content_filter"):
                raise malformed(f'tool-call batch truncated by finish_reason "{self._finish_reason}": '
                                "partial arguments must not execute")
        calls = tuple(self._finish_call(number, self._calls[index])
                      for number, index in enumerate(sorted(self._calls), start=1))
        if len({call.id for call in calls}) != len(calls):
            raise malformed("two tool calls in the round share an id")
        return Completion("".join(self._text), "".join(self._reasoning), calls,
                          self._finish_reason, self._usage)

    @staticmethod
    def _finish_call(number: int, pending: _PendingCall) -> ToolCall:
        name = "".join(pending.name)
        if not pending.id.strip():
            raise malformed(f"tool call {number} has no id")
        if not name.strip():
            raise malformed(f"tool call {number} has no name")
        arguments = "".join(pending.arguments)  # missing or empty is not an object either
        try:
            decoded = loads(arguments)
        except TooDeep as err:
            raise malformed(f"tool call {number} arguments are {err}") from None
        except ValueError:
            decoded = None
        if not isinstance(decoded, dict):
            raise malformed(f"tool call {number} arguments are not a JSON object")
        return ToolCall(pending.id, name, arguments)
