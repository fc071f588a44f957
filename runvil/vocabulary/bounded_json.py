"""Bounded JSON decoding: every JSON text runvil reads from outside (model
replies and their stream events, tool-call arguments, a gateway's model
list, ``json.decode``)
goes through ``loads``, which refuses a text nested more than
``MAX_DEPTH`` arrays and objects deep before the decoder sees it.

The bound is what keeps a hostile text from crashing the process: the
standard decoder recurses once per level in C, and under the recursion
limit pylua's Lua thread needs, 200,000 ``[`` exhaust a thread's C stack
(a segmentation fault) long before a RecursionError.  The nesting is
measured on the text alone, strings skipped, so it costs a few regular
expression passes and never the decoder's recursion.  This module has no
runvil imports, so the gateway and the Engine share it.
"""
from __future__ import annotations

import json
import re
from itertools import accumulate

MAX_DEPTH = 256

# json.loads goes through two Python layers and two whitespace matches before
# the decoder runs; a text that is one JSON value and nothing else (every
# stream event of a model reply) needs only the decoder.
_DECODER = json.JSONDecoder()

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r'[^\[\]{}]+')
_STEP = {'[': 1, '{': 1, ']': -1, '}': -1}


class TooDeep(ValueError):
    """A JSON text nested more than ``MAX_DEPTH`` levels deep."""

    def __init__(self) -> None:
        super().__init__('nested more than %d levels deep' % MAX_DEPTH)


def nesting(text: str) -> int:
    """How deep the arrays and objects of ``text`` nest at most: exact for
    valid JSON, never less than the decoder would recurse for any text."""
    brackets = _NOT_BRACKET.sub('', _STRING.sub('', text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def loads(text: str, **options):
    """``json.loads(text, **options)`` for a text within the nesting bound;
    TooDeep (a ValueError) for one past it."""
    # Counting the openers first spares nearly every text the measurement.
    if text.count('[') + text.count('{') > MAX_DEPTH and nesting(text) > MAX_DEPTH:
        raise TooDeep()
    if not options:
        try:
            value, end = _DECODER.raw_decode(text)
        except ValueError:
            pass  # json.loads decides: it takes surrounding whitespace, and words the error
        else:
            if end == len(text):
                return value
    return json.loads(text, **options)
