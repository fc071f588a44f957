"""Preparing a run, before any Lua runs: parse (Parse), check the version
(Version), bind and check requirements (RequirementsUnmet), stage the input
and the args (Input).  The first failure ends the run."""
from __future__ import annotations

from dataclasses import dataclass

from ..prompt import ParseError, Prompt, UnsupportedVersion, parse, require_runnable
from ..vocabulary.environment import Environment
from ..vocabulary.failure import Failure
from ..vocabulary.kinds import RunErrorKind
from . import requirements, staging


@dataclass(frozen=True)
class Prepared:
    prompt: Prompt
    input_text: str | None
    args: dict
    models: dict        # role label -> ModelBinding


def prepare(text: str, path: str | None, environment: Environment,
            input_text: str | None, args: dict[str, str], parsed: Prompt | None = None) -> Prepared:
    """``parsed`` is ``text`` already parsed (a Host running one prompt many
    times parses it once)."""
    try:
        prompt = parsed if parsed is not None else parse(text, path=path)
        require_runnable(prompt)
    except ParseError as err:
        raise Failure(RunErrorKind.PARSE, err.message, error_kind=None, location=err.location) from None
    except UnsupportedVersion as err:
        raise Failure(RunErrorKind.VERSION, err.message, error_kind=None) from None
    bindings = requirements.bind(prompt, environment)
    requirements.check(prompt, environment, bindings)
    staged = staging.stage_input(prompt.frontmatter.input, input_text)
    return Prepared(prompt, staged, staging.bind_args(prompt.frontmatter.args, args), bindings)
