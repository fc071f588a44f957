"""The models a gateway offers: the body of ``GET {url}/models``.

The OpenAI shape is ``{"object": "list", "data": [{"id": ...}, ...]}``.
Servers that know a model's context window say so in a field of their own:
OpenRouter ``context_length``, vLLM ``max_model_len``, LM Studio
``max_context_length``, llama.cpp ``meta.n_ctx_train`` (the window the
model was trained for; the server's own slot size is not listed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..vocabulary.bounded_json import TooDeep, loads
from .errors import malformed

CONTEXT_FIELDS = ("context_window", "context_length", "max_model_len", "max_context_length")
META_CONTEXT_FIELDS = ("n_ctx", "n_ctx_train")


@dataclass(frozen=True, slots=True)
class ModelInfo:
    id: str
    context_window: int | None = None  # tokens, when the server says


def _window(entry: dict[str, Any]) -> int | None:
    meta = entry.get("meta")
    candidates = [entry.get(name) for name in CONTEXT_FIELDS]
    if isinstance(meta, dict):
        candidates += [meta.get(name) for name in META_CONTEXT_FIELDS]
    for value in candidates:
        if type(value) is int and value > 0:
            return value
    return None


def parse_model_list(body: bytes) -> tuple[ModelInfo, ...]:
    """The listed models in the server's order; entries without a string id are skipped."""
    try:
        listing = loads(body.decode("utf-8"))
    except TooDeep as err:
        raise malformed(f"model list is {err}") from None
    except (UnicodeDecodeError, ValueError):
        raise malformed("model list is not valid JSON") from None
    entries = listing.get("data") if isinstance(listing, dict) else None
    if not isinstance(entries, list):
        raise malformed("model list has no data array")
    return tuple(ModelInfo(entry["id"], _window(entry)) for entry in entries
                 if isinstance(entry, dict) and isinstance(entry.get("id"), str) and entry["id"])
