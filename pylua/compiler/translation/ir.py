"""The translator's output: a structure, rendered to Python text once per form.

A prototype is translated once into ``Line``s (and ``Forms``); its plain
form and its generator form are two renderings of them
(``Rendered.add``).  A line's code is the translator's own Python text, or
a node when some of it is not text of the translator's:

* ``Const``: a Lua constant, rendered as a Python literal; like every node
  it refuses to become text in any other way (``str``, ``%``, ``format``),
  so Lua data can never be read as code;
* ``Wait``: a call that may suspend the Lua thread: ``SYNC(call)`` in the
  plain form, ``yield from call`` in the generator form;
* ``Choice``: code that differs between the forms (a plain and a generator
  rendering);
* ``Template``: the translator's Python with holes holding nodes
  (``code(template, *args)`` makes one when an argument is a node), and
  ``Code``: pieces one after the other.

``Forms`` is the statement-level choice: lines of the plain form and lines
of the generator form in one place of the body.
"""
from __future__ import annotations

import enum
import math
import re

from ...runtime.frames import SCRATCH, CallTop
from ...runtime.state import RENDER_LINE, count_instructions


class Form(enum.Enum):
    PLAIN = 'plain'               # the function value itself, running its slow paths synchronously
    GENERATOR = 'generator'       # calls delegate with ``yield from``


class NodeAsText(TypeError):
    """A node used as text: code it with ``code()``."""


class _Node:
    """A part of code that is no text of its own: it renders per form."""
    __slots__ = ()

    def __str__(self):
        raise NodeAsText

    def __repr__(self):
        return self.__str__()

    def __format__(self, spec):
        return self.__str__()

    def __add__(self, other):
        return Code((self, other))

    def __radd__(self, other):
        return Code((other, self))


class Const(_Node):
    """A Lua constant rendered as a Python literal."""
    __slots__ = ('value',)

    def __init__(self, value):
        self.value = value

    def render(self, form):
        return literal(self.value)


class Wait(_Node):
    """A call whose callee may suspend the Lua thread."""
    __slots__ = ('call',)

    def __init__(self, call):
        self.call = call

    def render(self, form):
        call = render_code(self.call, form)
        return 'SYNC(%s)' % call if form is Form.PLAIN else 'yield from %s' % call


class Choice(_Node):
    """Code that differs between the plain and the generator form."""
    __slots__ = ('plain', 'generator')

    def __init__(self, plain, generator):
        self.plain = plain
        self.generator = generator

    def render(self, form):
        return render_code(self.plain if form is Form.PLAIN else self.generator, form)


class Template(_Node):
    """A template of the translator's own Python whose ``%s`` holes hold
    nodes (or text), filled when rendered; ``%d`` holes hold integers and
    ``%r`` holes data such as a variable's description."""
    __slots__ = ('template', 'args')

    def __init__(self, template, args):
        self.template = template
        self.args = args

    def render(self, form):
        return self.template % tuple([a.render(form) if a.__class__ in NODES else a for a in self.args])


class Code(_Node):
    """Pieces of code (text or nodes) one after the other."""
    __slots__ = ('parts',)

    def __init__(self, parts):
        self.parts = parts

    def render(self, form):
        return ''.join([p if p.__class__ is str else p.render(form) for p in self.parts])


NODES = frozenset((Const, Wait, Choice, Template, Code))


def code(template, *args):
    """``template % args`` as structure: text when every argument is text
    (or an integer, or data for ``%r``), else a ``Template`` node (a node
    refuses to be formatted as text)."""
    for a in args:
        if a.__class__ in NODES:
            return Template(template, args)
    return template % args


def join(separator, items):
    """``separator.join(items)`` for items that may be nodes."""
    items = list(items)
    if not any(x.__class__ in NODES for x in items):
        return separator.join(items)
    parts = []
    for n, x in enumerate(items):
        if n:
            parts.append(separator)
        parts.append(x)
    return Code(parts)


def literal(v):
    """Python literal for a Lua constant."""
    if v.__class__ is float:
        if v != v:
            return 'NAN'
        if v == math.inf:
            return 'INF'
        if v == -math.inf:
            return '(-INF)'
    if (v.__class__ is int or v.__class__ is float) and math.copysign(1, v) < 0:
        # Parenthesised, so that an attribute or power after it applies to all of it.
        return '(%r)' % v
    return repr(v)


def render_code(c, form):
    return c if c.__class__ is str else c.render(form)


#: The ``top`` of a line that prepares a call and reads its arguments after.
CALL_SETUP = -1


class Line:
    """One statement: its indentation, code, Lua line, the description
    of the function it calls when a traceback should name one, and, on the
    lines of a call, the call's first register (``top``): from there up the
    registers are the callee's in Lua, dead to this frame while it runs.
    A statement that ``exits`` always leaves its block (a ``return``):
    what follows it in the block cannot run and is not rendered."""
    __slots__ = ('indent', 'code', 'lualine', 'note', 'top', 'exits')

    def __init__(self, indent, code, lualine, note=None):
        self.indent = indent
        self.code = code
        self.lualine = lualine
        self.note = note
        self.top = None
        self.exits = False


class Forms:
    """Statements that differ between the forms, in one place of the body;
    ``whole`` ones are rendered even after an exit (a function's end)."""
    __slots__ = ('plain', 'generator', 'whole')

    def __init__(self, plain, generator, whole=False):
        self.plain = plain
        self.generator = generator
        self.whole = whole


_INDENTS = ['    ' * n for n in range(128)]  # more than Python's parser allows
# The scratch locals a line of a call uses stay live while it waits there.
_SCRATCH_NAME = re.compile(r'\b(%s)\b' % '|'.join(sorted(SCRATCH)))


class Rendered:
    """Python text being rendered: its lines, the Lua line of each (index =
    Python line, from 1), the callee described at a Python line and what
    the call made there leaves live (``frames.CallTop``)."""

    def __init__(self):
        self.text = []
        self.lines = [0]
        self.calls = {}
        self.tops = {}
        self.exited = None            # indentation of the block a statement just left

    def add(self, items, form, base=0):
        """Render ``items`` (Lines and Forms) in ``form``, indented ``base``
        more, but for the Lines after an exit in its block."""
        text, lines, calls = self.text, self.lines, self.calls
        indents = _INDENTS[base:]
        for item in items:
            if item.__class__ is Forms:
                if item.whole:
                    self.exited = None
                self.add(item.plain if form is Form.PLAIN else item.generator, form, base)
                continue
            if self.exited is not None:
                if item.indent >= self.exited:
                    continue
                self.exited = None
            if item.exits:
                self.exited = item.indent
            c = item.code
            line = c if c.__class__ is str else c.render(form)
            text.append(indents[item.indent] + line)
            lines.append(item.lualine)
            if len(lines) & 255 == 0:
                count_instructions(256 * RENDER_LINE)      # the cancel check
            if item.note is not None:
                calls[len(lines) - 1] = item.note
            if item.top is not None and item.top != CALL_SETUP:
                self.tops[len(lines) - 1] = CallTop(item.top, frozenset(_SCRATCH_NAME.findall(line)))

    def source(self):
        return '\n'.join(self.text) + '\n'


class Emitter:
    """Where the translator writes: a list of Lines and Forms."""

    def __init__(self):
        self.items = []

    def line(self, indent, text, lualine):
        self.items.append(Line(indent, text, lualine))

    def add(self, item):
        self.items.append(item)

    def extend(self, items):
        self.items.extend(items)

    def collect(self, emit):
        """The items ``emit()`` writes, kept apart from those written so far."""
        outer, self.items = self.items, []
        try:
            emit()
            return self.items
        finally:
            self.items = outer

    def forms(self, plain, generator):
        """Statements differing by form: written by ``plain()`` and by ``generator()``."""
        self.items.append(Forms(self.collect(plain), self.collect(generator)))
