"""A function prototype tree as bytes (a Lua string) and back: the body of
``string.dump``'s binary chunks.

Each value is a tag and its contents: ``n`` nil, ``t``/``f`` booleans,
``i<decimal>;`` integers, ``d`` and 8 bytes (an IEEE double), ``s<length>:``
and the bytes of a string, ``l<count>:`` and the items of a list.  A
prototype is the list of its fields (``_PROTO_FIELDS``), its instructions,
constants, upvalue descriptors, locals and child prototypes each a list;
an instruction's operation is its number in ``OPS``.  The chunk's source
(the name ``load`` was given) is written once, for the whole tree.  A stripped tree has
no line information and no names of locals or upvalues in its error
descriptions.

Reading checks every field's type and every operation's number, so whatever
a chunk holds, the translator gets only well-formed prototypes (a chunk of
wrong shape raises ``BadFormat``).
"""
from __future__ import annotations

import struct

from .bytecode import OPS, Instr, LocVar, Proto

_PROTO_FIELDS = ('name', 'line', 'end_line', 'numparams', 'is_vararg', 'maxreg', 'has_goto', 'has_calls')
_FIELD_TYPES = (str, int, int, int, bool, int, bool, bool)
_UPVALUE_KINDS = frozenset(('cell', 'value', 'self'))
_OP_NUMBERS = {op: n for n, op in enumerate(OPS)}
_NAMED_TARGETS = frozenset(('GOTO', 'LABEL'))    # their A is the label's name


class BadFormat(Exception):
    """The bytes are no prototype tree."""


# ------------------------------------------------------------------ writing
def encode(proto: Proto, chunkname: str, strip: bool) -> str:
    out = []
    _write(out, chunkname)
    _write(out, _proto_value(proto, strip))
    return ''.join(out)


def _proto_value(p, strip):
    fields = [getattr(p, name) for name in _PROTO_FIELDS]
    code = [(_OP_NUMBERS[i.op], i.a, i.b, i.c, 0, _stripped_note(i.note), i.temp) if strip else
            (_OP_NUMBERS[i.op], i.a, i.b, i.c, i.line, i.note, i.temp) for i in p.code]
    # Kept when stripped: the collector reads the scopes' registers (the
    # debug library shows no locals of stripped code).
    locvars = [(v.name, v.reg, v.captured, v.startpc, v.endpc) for v in p.locvars]
    return fields + [code, list(p.consts), [list(u) for u in p.upvals], locvars,
                     [_proto_value(c, strip) for c in p.protos]]


def _stripped_note(note):
    """A variable description as Lua gives it without debug information:
    no local or upvalue names, and globals are fields of an unnamed table."""
    c = note.__class__
    if c is tuple:
        return tuple(_stripped_note(n) for n in note)
    if c is not str:
        return note
    kind, _, name = note.partition(' ')
    if kind == 'global':
        return 'field ' + name
    return None if kind in ('local', 'upvalue') else note


def _write(out, v):
    c = v.__class__
    if v is None:
        out.append('n')
    elif c is bool:
        out.append('t' if v else 'f')
    elif c is int:
        out.append('i%d;' % v)
    elif c is float:
        out.append('d' + struct.pack('<d', v).decode('latin-1'))
    elif c is str:
        out.append('s%d:' % len(v))
        out.append(v)
    else:                                      # a list or tuple
        out.append('l%d:' % len(v))
        for item in v:
            _write(out, item)


# ------------------------------------------------------------------ reading
def decode(text: str) -> tuple[Proto, str]:
    """(the prototype tree, its chunk name) of ``encode``'s output."""
    reader = _Reader(text)
    chunkname = reader.value()
    value = reader.value()
    if reader.pos != len(text) or chunkname.__class__ is not str:
        raise BadFormat
    return _proto(value, chunkname), chunkname


class _Reader:
    def __init__(self, text):
        self.text = text
        self.pos = 0

    def _until(self, mark):
        end = self.text.find(mark, self.pos)
        if end < 0:
            raise BadFormat
        digits = self.text[self.pos:end]
        self.pos = end + 1
        if not digits.lstrip('-').isdigit():
            raise BadFormat
        return int(digits)

    def value(self):
        text, pos = self.text, self.pos
        if pos >= len(text):
            raise BadFormat
        tag = text[pos]
        self.pos = pos + 1
        if tag == 'n':
            return None
        if tag == 't' or tag == 'f':
            return tag == 't'
        if tag == 'i':
            return self._until(';')
        if tag == 'd':
            raw = text[self.pos:self.pos + 8]
            if len(raw) < 8:
                raise BadFormat
            self.pos += 8
            return struct.unpack('<d', raw.encode('latin-1'))[0]
        if tag == 's':
            n = self._until(':')
            s = text[self.pos:self.pos + n]
            if n < 0 or len(s) < n:
                raise BadFormat
            self.pos += n
            return s
        if tag == 'l':
            n = self._until(':')
            if n < 0:
                raise BadFormat
            return [self.value() for _ in range(n)]
        raise BadFormat


def _check(ok):
    if not ok:
        raise BadFormat


def _is_note(v):
    c = v.__class__
    if c is list:
        return all(x is None or x.__class__ is str for x in v)
    return v is None or c is str or c is int


def _proto(value, chunkname):
    _check(value.__class__ is list and len(value) == len(_PROTO_FIELDS) + 5)
    fields = value[:len(_PROTO_FIELDS)]
    for v, kind in zip(fields, _FIELD_TYPES):
        _check(v.__class__ is kind)
    code, consts, upvals, locvars, children = value[len(_PROTO_FIELDS):]
    p = Proto(chunkname, fields[0], fields[1], fields[2], fields[3], fields[4])
    p.maxreg, p.has_goto, p.has_calls = fields[5:]
    _check(code.__class__ is list and consts.__class__ is list and upvals.__class__ is list
           and locvars.__class__ is list and children.__class__ is list)
    for ins in code:
        _check(ins.__class__ is list and len(ins) == 7)
        number, a, b, c, line, note, temp = ins
        _check(number.__class__ is int and 0 <= number < len(OPS))
        op = OPS[number]
        _check(b.__class__ is int and c.__class__ is int and line.__class__ is int
               and (a.__class__ is int or (op in _NAMED_TARGETS and a.__class__ is str))
               and _is_note(note) and (temp is None or temp.__class__ is bool))
        i = Instr(op, a, b, c, line, tuple(note) if note.__class__ is list else note)
        i.temp = temp
        p.code.append(i)
    for k in consts:
        _check(k is None or k.__class__ in (bool, int, float, str))
    p.consts = consts
    for u in upvals:
        _check(u.__class__ is list and len(u) == 4 and u[0].__class__ is str and u[1].__class__ is bool
               and u[2].__class__ is int and u[3] in _UPVALUE_KINDS)
    p.upvals = [tuple(u) for u in upvals]
    for v in locvars:
        _check(v.__class__ is list and len(v) == 5 and v[0].__class__ is str and v[1].__class__ is int
               and v[2].__class__ is bool and v[3].__class__ is int and v[4].__class__ is int)
        local = LocVar(v[0], v[1], v[2], v[3])
        local.endpc = v[4]
        p.locvars.append(local)
    p.protos = [_proto(c, chunkname) for c in children]
    return p
