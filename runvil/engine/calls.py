"""The ``call`` and ``jump`` globals: running other sections from Lua.

* ``call(section, args?)`` runs the section, and the sections under it, as
  a call chain and returns its result (JSON data: the value the last
  returning section returned), or raises its failure unchanged.  The caller
  waits; the call takes no task slot.  ``args`` (JSON data) is laid over the
  caller's args.  Calls and tasks share the call depth cap.
* ``return jump(section)`` ends the section entry; its chain goes on at
  that section (the walk from there in document order; a call chain or a
  task within the sections it runs).  The reference's form is checked at
  the call; the target is resolved when the section ends, by the chain's
  machinery, so a missing target keeps run error kind Lua even in the H1
  pass.
"""
from __future__ import annotations

from pylua.raw import LuaTable, Userdata

from ..vocabulary import headings
from ..vocabulary.crossing import TEXT
from ..vocabulary.effects import request
from ..vocabulary.failure import lua_failure
from ..vocabulary.functions import bad_argument, method
from ..vocabulary.waits import CALL, WAIT, Wait


class Calls:
    def __init__(self, vm):
        self.vm = vm
        vm.globals.set_str('call', vm.generator('call', self._call, takes=(TEXT,)))
        vm.globals.set_str('jump', vm.function('jump', self._jump, takes=(TEXT,)))

    def _call(self, *args):
        if not 1 <= len(args) <= 2:
            raise lua_failure('call takes (section, args?)')
        if args[0].__class__ is not str:
            raise bad_argument(1, 'call', 'string', args[0])
        tasks = self.vm.tasks
        given = tasks.args_data(args[1] if len(args) == 2 else None, 2, 'call')
        task = tasks.start(args[0], CALL, given)
        yield from request(WAIT, Wait((task,), 'one', lends=False))
        return (tasks.take(task, 'call'),)

    def _jump(self, *args):
        if len(args) != 1:
            raise lua_failure('jump takes (section)')
        if args[0].__class__ is not str:
            raise bad_argument(1, 'jump', 'string', args[0])
        reference = args[0]
        headings.check_form(reference)
        return (Userdata(Jump(reference), _JUMP_META),)


class Jump:
    """Where a section entry asked its chain to go on."""

    def __init__(self, reference: str):
        self.reference = reference


def jump_of(value) -> Jump | None:
    """The jump a section's returned value asks for, or None."""
    if value.__class__ is Userdata and value.meta is _JUMP_META:
        return value.payload
    return None


def _tostring(handle=None, *_):
    return ('jump to ' + handle.payload.reference,)


_JUMP_META = LuaTable()
_JUMP_META.set_str('__name', 'jump')
_JUMP_META.set_str('__tostring', method('tostring', _tostring, gives=(TEXT,)))
_JUMP_META.set_str('__metatable', False)


def install(vm) -> Calls:
    return Calls(vm)
