"""The ``models`` global: which model a section's rounds run on, and
``models.infer``.

* ``models.use(role, options?)`` selects a declared role for the rest of
  the section entry, with sampling options (``sampling``);
* ``models.default(role)``, in the H1 body, sets the prompt-wide default,
  the model of every section that selects none;
* ``models.get(role_or_model_id)`` returns a model handle fixed to that
  model (a raw model id offers the unbound 8192-token window);
* ``models.infer(prompt)`` runs one round with no tools on the section's
  current model and returns the reply; it never touches ``messages``;
* ``models.loop`` (``loop``) and ``models.compact`` (``runvil.conversation.compaction``)
  are installed with them (``loop_install``).

With neither ``models.use`` nor a default in effect, ``models.infer`` fails
with the missing-model error (run error kind Binding).
"""
from __future__ import annotations

import re

from pylua.raw import LuaTable

from ..vocabulary.crossing import CHARGED_TEXT, TEXT, VALUE
from ..vocabulary.environment import UNBOUND_CONTEXT_WINDOW
from ..vocabulary.failure import lua_failure
from ..vocabulary.functions import bad_argument
from ..vocabulary.model_failures import binding_required
from . import rounds, sampling
from .handles import ModelHandles

ALIAS = re.compile(r'[A-Za-z][A-Za-z0-9_-]{0,63}\Z')


class Models:
    """One section VM's ``models`` table and its current model."""

    def __init__(self, vm):
        self.vm = vm
        self.run = vm.run
        self.handles = ModelHandles(vm)
        self.selected: rounds.Target | None = None     # models.use in this section entry
        table = LuaTable()
        table.set_str('use', vm.function('models.use', self._use, takes=(TEXT, VALUE)))
        table.set_str('default', vm.function('models.default', self._default, takes=(TEXT,)))
        table.set_str('get', vm.function('models.get', self._get, takes=(TEXT,)))
        table.set_str('infer', vm.generator('models.infer', self._infer, takes=(TEXT,), gives=(CHARGED_TEXT,)))
        self.table = table

    def current(self) -> rounds.Target:
        """The section's current model: its models.use, else the default."""
        if self.selected is not None:
            return self.selected
        if self.run.default_role is not None:
            return self._role_target(self.run.default_role, {})
        raise binding_required(self._section_label())

    # -- the functions -----------------------------------------------------------
    def _use(self, *args):
        if not 1 <= len(args) <= 2:
            raise lua_failure('models.use takes (role, options?)')
        label = self._declared_role(args[0], 'models.use')
        options = args[1] if len(args) == 2 else None
        if options is not None and options.__class__ is not LuaTable:
            raise bad_argument(2, 'models.use', 'table', options)
        self.selected = self._role_target(label, sampling.request_fields(options))
        return ()

    def _default(self, *args):
        if len(args) != 1:
            raise lua_failure('models.default takes (role)')
        if self.vm.section_name is not None:
            raise lua_failure('models.default sets the prompt-wide default and works only in the H1 body; '
                              'select a model for this section with models.use(role)')
        self.run.default_role = self._declared_role(args[0], 'models.default')
        return ()

    def _get(self, *args):
        if len(args) != 1:
            raise lua_failure('models.get takes (role_or_model_id)')
        name = args[0]
        if name.__class__ is not str:
            raise bad_argument(1, 'models.get', 'string', name)
        if not name:
            raise lua_failure('models.get needs a role label or a model id, got an empty string')
        if name in self.run.models:
            return (self.handles.make(self._role_target(name, {})),)
        return (self.handles.make(rounds.Target(name, UNBOUND_CONTEXT_WINDOW)),)

    def _infer(self, *args):
        if len(args) != 1:
            raise lua_failure('models.infer takes (prompt)')
        prompt = args[0]
        if prompt.__class__ is not str:
            raise bad_argument(1, 'models.infer', 'string', prompt)
        target = self.current()
        return ((yield from rounds.infer(self.run, self.vm.section_name, target, prompt)),)

    # -- helpers ---------------------------------------------------------------------
    def _declared_role(self, label, where: str) -> str:
        if label.__class__ is not str:
            raise bad_argument(1, where, 'string', label)
        if not ALIAS.match(label):
            raise lua_failure('invalid alias "%s": expected [A-Za-z][A-Za-z0-9_-]{0,63}' % label)
        if label not in self.run.models:
            declared = ('declares: ' + ', '.join(self.run.models)) if self.run.models else 'declares no model roles'
            raise lua_failure('unknown model role `%s`; this prompt %s' % (label, declared))
        return label

    def _role_target(self, label: str, options: dict) -> rounds.Target:
        bound = self.run.models[label]
        return rounds.Target(bound.model, bound.context_window, options, label)

    def _section_label(self) -> str:
        section = self.vm.section_name
        return section if section is not None else self.run.prompt.title


def install(vm) -> Models:
    models = Models(vm)
    vm.globals.set_str('models', models.table)
    return models
