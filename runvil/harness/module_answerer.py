"""Answers ``require`` effects: the text of the module's file, looked up
beside the prompt (``helpers.text`` is ``helpers/text.lua`` in the prompt's
directory)."""
from __future__ import annotations

from pathlib import Path

from ..engine import Answer
from ..engine.modules import module_file
from ..vocabulary.failure import lua_failure
from .settled import SETTLED


class ModuleAnswerer:
    def __call__(self, effect, reply):
        reply(self._read(effect.kind, effect.payload['module'], effect.payload['prompt']))
        return SETTLED

    @staticmethod
    def _read(kind: str, name: str, prompt: str | None) -> Answer:
        filename = module_file(name)
        if prompt is None:
            return Answer.failed(kind, lua_failure("module '%s' not found: the prompt has no directory to "
                                                   "look in" % name))
        path = Path(prompt).parent / filename
        try:
            data = path.read_bytes()
        except OSError:
            return Answer.failed(kind, lua_failure("module '%s' not found: no file '%s' beside the prompt"
                                                   % (name, filename)))
        try:
            return Answer.ok(kind, data.decode('utf-8'))
        except UnicodeDecodeError as err:
            return Answer.failed(kind, lua_failure("error loading module '%s' from file '%s':\n\tnot UTF-8 "
                                                   "text (byte %d)" % (name, filename, err.start)))
