"""Model handles: the userdata ``models.get`` returns, fixed to one model.

``h.context`` is the model's context window, ``h.model`` its gateway id,
``h.role`` the role label it was reached by (nil for a raw model id), and
``h:infer(prompt)`` runs one round on it; ``h:loop(compactor?)`` runs the
section's conversation on it (``runvil.models.loop``).
"""
from __future__ import annotations

from pylua.raw import LuaTable, Userdata

from ..vocabulary.crossing import CHARGED_TEXT, TEXT, VALUE
from ..vocabulary.failure import lua_failure
from ..vocabulary.functions import bad_argument
from . import rounds


class ModelHandles:
    """The handles of one section VM (they share one metatable)."""

    def __init__(self, vm):
        self.vm = vm
        self.meta = LuaTable()
        self.meta.set_str('__name', 'model handle')
        self.meta.set_str('__index', vm.function('model handle', self._index, gives=(TEXT,)))
        self.meta.set_str('__metatable', False)
        self.methods = {'infer': vm.generator('infer', self._infer_on, takes=(VALUE, TEXT), gives=(CHARGED_TEXT,))}

    def make(self, target: rounds.Target) -> Userdata:
        return Userdata(target, self.meta)

    def target_of(self, value) -> rounds.Target | None:
        if value.__class__ is Userdata and value.meta is self.meta:
            return value.payload
        return None

    def _index(self, handle, key=None, *_):
        target = handle.payload
        if key == 'context':
            return (target.context_window,)
        if key == 'model':
            return (target.model,)
        if key == 'role':
            return (target.role,)
        return (self.methods.get(key) if key.__class__ is str else None,)

    def _infer_on(self, *args):
        target = self.target_of(args[0]) if args else None
        if target is None:
            raise lua_failure('call infer on a model handle with a colon: handle:infer(prompt)')
        if len(args) != 2:
            raise lua_failure('handle:infer takes (prompt)')
        prompt = args[1]
        if prompt.__class__ is not str:
            raise bad_argument(1, 'infer', 'string', prompt)
        return ((yield from rounds.infer(self.vm.run, self.vm.section_name, target, prompt)),)
