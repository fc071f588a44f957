"""The ``require`` global: sharing Lua code between prompts and sections.

``require('helpers.text')`` loads ``helpers/text.lua`` from the prompt's
directory, runs it in the requiring section's VM (so it sees that
section's globals and its ``messages``) and returns what it returns (true
when nothing), with the file name, as Lua's ``require`` does.  Each VM
loads a module once.  Reading the file is I/O, so it is an effect the
Harness answers with the file's text.
"""
from __future__ import annotations

import re

from pylua import LuaSyntaxError
from pylua.raw import ABSENT, call

from ..vocabulary.crossing import TEXT, VALUE
from ..vocabulary.effects import request
from ..vocabulary.failure import lua_failure
from ..vocabulary.functions import bad_argument

REQUIRE = 'require'
MODULE_NAME = re.compile(r'[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\Z')

_LOADING = object()     # a module whose chunk is running now


def module_file(name: str) -> str:
    """The file a module name stands for, relative to the prompt's directory."""
    return name.replace('.', '/') + '.lua'


class Modules:
    """One VM's ``require`` and the modules it has loaded."""

    def __init__(self, vm):
        self.vm = vm
        self.loaded: dict = {}
        vm.globals.set_str('require', vm.generator('require', self._require, takes=(TEXT,), gives=(VALUE, TEXT)))

    def _require(self, *args):
        name = args[0] if args else ABSENT
        if name.__class__ is not str:
            raise bad_argument(1, 'require', 'string', name)
        if not MODULE_NAME.match(name):
            raise lua_failure("require: a module name is dot-separated parts of letters, digits and _, got '%s'" % name)
        known = self.loaded.get(name)
        if known is _LOADING:
            raise lua_failure("require: module '%s' requires itself while it loads" % name)
        if known is not None:
            return (known,)
        source = yield from request(REQUIRE, {'module': name, 'prompt': self.vm.run.prompt.source_path})
        filename = module_file(name)
        try:
            chunk = self.vm.runtime.load(source, '@' + filename)
        except LuaSyntaxError as err:
            raise lua_failure("error loading module '%s' from file '%s':\n\t%s" % (name, filename, err)) from None
        self.loaded[name] = _LOADING
        try:
            results = yield from call(chunk, (TEXT.give(name), TEXT.give(filename)))
        finally:
            del self.loaded[name]
        value = results[0] if results and results[0] is not None else True
        self.loaded[name] = value
        return (value, filename)


def install(vm) -> Modules:
    return Modules(vm)
