"""Staging what the Host hands a run: input text and prompt args.

Every refusal fails the run under the Harness's Input kind, before the H1
pass.  Args arrive as text (``--set NAME=VALUE``) and are read by the type
the frontmatter declares; a declared default fills an arg left unset.
"""
from __future__ import annotations

import json
import math

from ..prompt import InputSpec, PromptArg
from ..vocabulary.failure import Failure
from ..vocabulary.kinds import RunErrorKind

_INT_MIN, _INT_MAX = -(1 << 63), (1 << 63) - 1


def refused(message: str) -> Failure:
    return Failure(RunErrorKind.INPUT, message, error_kind=None)


def stage_input(spec: InputSpec | None, given: str | None) -> str | None:
    if spec is None:
        if given is not None:
            raise refused('this prompt declares no input, but input was given')
        return None
    if given is None and spec.required:
        raise refused('this prompt requires input, but none was given')
    return given


def bind_args(declared: tuple[PromptArg, ...], given: dict[str, str]) -> dict:
    """The args' values by name, typed."""
    by_name = {arg.name: arg for arg in declared}
    for name in given:
        if name not in by_name:
            names = ', '.join(sorted(by_name)) or 'none'
            raise refused('unknown arg `%s`; this prompt declares: %s' % (name, names))
    values = {}
    for arg in declared:
        if arg.name in given:
            values[arg.name] = _typed(arg, given[arg.name])
        elif arg.has_default:
            values[arg.name] = arg.default
        else:
            raise refused('arg `%s` is required, but no value was given' % arg.name)
    return values


def _typed(arg: PromptArg, raw: str):
    kind = arg.type
    if kind == 'string':
        return raw
    if kind == 'boolean' and raw in ('true', 'false'):
        return raw == 'true'
    if kind in ('integer', 'number'):
        try:
            number = int(raw, 10)
        except ValueError:
            number = None
        if number is not None and _INT_MIN <= number <= _INT_MAX:
            return number
        if kind == 'number':
            try:
                value = float(raw)
            except ValueError:
                value = None
            if value is not None and math.isfinite(value):
                return value
    wanted = {'boolean': 'true or false', 'integer': 'an integer', 'number': 'a number'}[kind]
    raise refused('arg `%s` must be %s, got %s' % (arg.name, wanted, json.dumps(raw)))
