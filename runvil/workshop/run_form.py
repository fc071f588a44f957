"""What the page's run form is built from: the prompt's frontmatter
contract (args with their types and defaults, its input, its model roles)
and the run limits with their defaults."""
from __future__ import annotations

from dataclasses import asdict, fields

from ..harness import RunLimits


def run_form(text: str) -> dict | None:
    """The form for prompt ``text``; None when its frontmatter cannot be read
    (the diagnostic says why)."""
    from ..prompt import ParseError
    from ..prompt.frontmatter import read, split
    try:
        frontmatter = read(split(text.removeprefix('\ufeff').replace('\r\n', '\n'))[0])
    except ParseError:
        return None
    return {
        'name': frontmatter.name,
        'description': frontmatter.description,
        'args': [{'name': arg.name, 'type': arg.type, 'description': arg.description,
                  'default': _shown_default(arg) if arg.has_default else None, 'required': not arg.has_default}
                 for arg in frontmatter.args],
        'input': None if frontmatter.input is None else asdict(frontmatter.input),
        'roles': [{'label': role.label, 'model': role.model} for role in frontmatter.models],
        'limits': limit_defaults(),
    }


def limit_defaults() -> dict:
    defaults = RunLimits()
    return {spec.name: getattr(defaults, spec.name) for spec in fields(RunLimits)}


def _shown_default(arg) -> str:
    """A default as the form's text field holds it (args reach the Engine as text)."""
    if isinstance(arg.default, bool):
        return 'true' if arg.default else 'false'
    return str(arg.default)
