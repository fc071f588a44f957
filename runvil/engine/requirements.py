"""Binding a prompt to the environment a run offers
(``runvil.vocabulary.environment``), and the requirements it states: the
Packs it uses and what its model roles need.

Every unmet requirement is listed under the notice
``the environment cannot satisfy this prompt:``, one ``- `` line each, and
the run fails with run error kind RequirementsUnmet before anything runs.
"""
from __future__ import annotations

from ..prompt import Prompt
from ..vocabulary.environment import Environment
from ..vocabulary.failure import UNMET_NOTICE, Failure
from ..vocabulary.kinds import RunErrorKind


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
