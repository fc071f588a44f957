"""Pending prose and its placeholders.

Before each block runs, ``prose`` holds the section prose above its fence
since the previous block (the pending prose).  ``{{ ... }}`` placeholders in
it are substituted when ``prose`` is read, inside the block, so a failure
is an ordinary Lua error the block can catch with pcall:

* ``{{ name }}`` (a bare global) gives that global's value;
* anything else is a Lua expression, evaluated in the section's globals.

Strings substitute as they are, numbers and booleans as ``tostring`` shows
them, ``json.null`` as ``null`` and tables as compact JSON; anything else,
nil included, fails.  ``{{ '{{' }}`` writes a literal ``{{``.
"""
from __future__ import annotations

import re

from pylua import LuaError, LuaInterrupt, LuaSyntaxError
from pylua.raw import LuaTable, call, charge, tostring_raw, type_name

from ..vocabulary.crossing import TEXT
from ..vocabulary.error_values import describe
from ..vocabulary.failure import lua_failure

_PLACEHOLDER = re.compile(r'\{\{(.+?)\}\}')
_BARE = re.compile(r'[A-Za-z_][A-Za-z0-9_]*\Z')
_KEYWORDS = frozenset(
    'and break do else elseif end false for function goto if in local nil not or repeat return '
    'then true until while'.split())


class Placeholder:
    def __init__(self, expression: str, line: int):
        self.expression = expression
        self.line = line              # file line, for error positions in the expression
        self.bare = bool(_BARE.match(expression)) and expression not in _KEYWORDS

    @property
    def shown(self) -> str:
        return '{{ %s }}' % self.expression


class PendingProse:
    """The pending prose of one block: literal text and placeholders."""

    def __init__(self, pieces):
        self.parts: list = []
        for piece in pieces:
            if self.parts:
                self.parts.append('\n\n')
            self._split(piece.text, piece.line)

    def _split(self, source: str, line: int) -> None:
        position = 0
        for match in _PLACEHOLDER.finditer(source):
            self.parts.append(source[position:match.start()])
            self.parts.append(Placeholder(match.group(1).strip(),
                                          line + source.count('\n', 0, match.start())))
            position = match.end()
        self.parts.append(source[position:])

    @property
    def literal(self) -> str | None:
        """The text when it holds no placeholder."""
        if any(part.__class__ is Placeholder for part in self.parts):
            return None
        return ''.join(self.parts)


class Substitution:
    """Reads ``prose`` for one VM: ``vm`` supplies globals, the JSON shapes,
    the chunk name and ``load``."""

    def __init__(self, vm):
        self.vm = vm
        self.busy = False

    def substitute(self, prose: PendingProse):
        if self.busy:
            raise lua_failure('prose cannot be substituted into itself')
        self.busy = True
        try:
            out = []
            for part in prose.parts:
                if part.__class__ is Placeholder:
                    out.append((yield from self._value(part)))
                else:
                    out.append(TEXT.give(part))
            substituted = ''.join(out)
            charge(len(substituted))
            return substituted
        finally:
            self.busy = False

    def _value(self, placeholder: Placeholder):
        if placeholder.bare:
            value = self.vm.engine_global(placeholder.expression)
            who = 'global `%s`' % placeholder.expression
            rule = 'bare globals in prose must be JSON data'
        else:
            value = yield from self._evaluate(placeholder)
            who = 'placeholder `%s`' % placeholder.shown
            rule = 'placeholders in prose must be JSON data'
        c = value.__class__
        if c is str:
            return value
        if c is bool:
            return 'true' if value else 'false'
        if c is int or c is float:
            return tostring_raw(value)
        if c is LuaTable or value is self.vm.shapes.null:
            return TEXT.give(self.vm.shapes.encode(value, placeholder.expression, ''))
        raise lua_failure('%s is %s; %s' % (who, 'nil' if value is None else 'a ' + type_name(value), rule))

    def _evaluate(self, placeholder: Placeholder):
        source = '\n' * (placeholder.line - 1) + 'return (' + placeholder.expression + ')'
        try:
            fn = self.vm.load(source)
        except LuaSyntaxError as err:
            raise lua_failure('placeholder `%s` is not a Lua expression: %s'
                              % (placeholder.shown, TEXT.take(err.value))) from None
        try:
            results = yield from call(fn, ())
        except LuaInterrupt:
            raise
        except LuaError as err:
            shown = yield from describe(err.value)
            raise lua_failure('placeholder `%s` failed: %s' % (placeholder.shown, shown)) from None
        return results[0] if results else None
