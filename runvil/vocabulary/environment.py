"""The environment a run offers: the Packs it can activate and the models
its roles can be bound to.

How a role is bound (docs/models.md): the Host's binding for the label
(``--bind ROLE=MODEL``) wins; else the role's frontmatter ``model``; else
the Host's default model id.  The model's context window and capability
keywords come from the Host's catalog (``--model-context``, config
``[models.catalog]``); a model the catalog does not know offers 8192 tokens
and no keywords.  Binding a prompt and checking its requirements is the
Engine's (``runvil.engine.requirements``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

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
