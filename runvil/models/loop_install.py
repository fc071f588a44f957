"""Installing the conversation's functions in a section VM: the
``compactors`` global, ``models.loop``, ``models.compact`` and the model
handles' ``loop``."""
from __future__ import annotations

from ..conversation.compaction import Compaction
from .loop import Loop


def install(vm) -> None:
    compaction = Compaction(vm, vm.messages)
    loop = Loop(vm, vm.messages, compaction, vm.tools, vm.models)
    vm.globals.set_str('compactors', compaction.table)
    vm.models.table.set_str('loop', loop.loop)
    vm.models.table.set_str('compact', compaction.compact)
    vm.models.handles.methods['loop'] = loop.handle_loop
