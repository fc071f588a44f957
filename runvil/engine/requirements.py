"""Binding a prompt to the environment a run offers, and the requirements
it states: the Packs it uses and what its model roles need.

Every unmet requirement is listed under the notice
``the environment cannot satisfy this prompt:``, one ``- `` line each, and
the run fails with run error kind RequirementsUnmet before anything runs.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..prompt import Prompt
from .failure import UNMET_NOTICE, Failure
from .kinds import RunErrorKind

UNBOUND_CONTEXT_WINDOW = 8192


@dataclass(frozen=True)
class ModelBinding:
    """The model a role runs on, as the Host bound it."""
    model: str | None = None
    context_window: int = UNBOUND_CONTEXT_WINDOW
    keywords: frozenset = frozenset()


@dataclass(frozen=True)
class Environment:
    """What a run offers: the Packs it can activate and the Host's model
    bindings by role label (a role with no binding gets its frontmatter
    ``model`` and the unbound defaults)."""
    packs: frozenset = frozenset()
    models: dict = field(default_factory=dict)

    def binding(self, role) -> ModelBinding:
        return self.models.get(role.label) or ModelBinding(role.model)


def check(prompt: Prompt, environment: Environment) -> None:
    unmet = []
    for pack in prompt.frontmatter.uses:
        if pack not in environment.packs:
            unmet.append('Pack `%s` is not available to this run' % pack)
    for role in prompt.frontmatter.models:
        bound = environment.binding(role)
        if role.min_context is not None and bound.context_window < role.min_context:
            unmet.append('model role `%s` needs a context window of at least %d tokens, '
                         'but its model offers %d' % (role.label, role.min_context, bound.context_window))
        for keyword in role.requires:
            if keyword not in bound.keywords:
                unmet.append('model role `%s` requires `%s`, which its model does not offer'
                             % (role.label, keyword))
    if unmet:
        raise Failure(RunErrorKind.REQUIREMENTS_UNMET,
                      UNMET_NOTICE + ''.join('\n- ' + line for line in unmet), error_kind=None)
