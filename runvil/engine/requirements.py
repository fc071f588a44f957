"""Binding a prompt to the environment a run offers, and the requirements
it states: the Packs it uses and what its model roles need.

How a role is bound (docs/models.md): the Host's binding for the label
(``--bind ROLE=MODEL``) wins; else the role's frontmatter ``model``; else
the Host's default model id.  The model's context window and capability
keywords come from the Host's catalog (``--model-context``, config
``[models.catalog]``); a model the catalog does not know offers 8192 tokens
and no keywords.

Every unmet requirement is listed under the notice
``the environment cannot satisfy this prompt:``, one ``- `` line each, and
the run fails with run error kind RequirementsUnmet before anything runs.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..prompt import Prompt
from ..vocabulary.failure import UNMET_NOTICE, Failure
from ..vocabulary.kinds import RunErrorKind

UNBOUND_CONTEXT_WINDOW = 8192
DEFAULT_MODEL_ID = 'default'
"""The model id a role gets when nothing binds it and its frontmatter names
no model, and the Host sets no default of its own."""


@dataclass(frozen=True)
class ModelBinding:
    """A model a run can call: its gateway id and what it offers."""
    model: str = DEFAULT_MODEL_ID
    context_window: int = UNBOUND_CONTEXT_WINDOW
    keywords: frozenset = frozenset()


@dataclass(frozen=True)
class Environment:
    """What a run offers: the Packs it can activate (id -> Pack), the
    Host's model bindings by role label, its catalog of known models (model
    id -> ModelBinding) and its default model id."""
    packs: dict = field(default_factory=dict)
    models: dict = field(default_factory=dict)
    catalog: dict = field(default_factory=dict)
    default_model: str = DEFAULT_MODEL_ID

    def binding(self, role) -> ModelBinding:
        return self.models.get(role.label) or self.model(role.model or self.default_model)

    def model(self, model_id: str) -> ModelBinding:
        """A model id as the catalog knows it, or with the unbound defaults."""
        return self.catalog.get(model_id) or ModelBinding(model_id)


def bind(prompt: Prompt, environment: Environment) -> dict:
    """Every declared role's binding, by label."""
    return {role.label: environment.binding(role) for role in prompt.frontmatter.models}


def check(prompt: Prompt, environment: Environment, bindings: dict) -> None:
    unmet = []
    for pack in prompt.frontmatter.uses:
        if pack not in environment.packs:
            unmet.append('Pack `%s` is not available to this run' % pack)
    for role in prompt.frontmatter.models:
        bound = bindings[role.label]
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
