"""pylua's register bytecode: Lua 5.4's model (registers, constants, upvalue
descriptors, one prototype per function, line info) with structured control
flow (IF/ELSE/END, LOOP, FORPREP, TFORPREP) in place of raw jumps, so the
translator can emit Python loops; GOTO/LABEL remain for ``goto``.

Operands: registers are ints >= 0; a constant is encoded as ``-(k + 1)``.
"""
from __future__ import annotations

OPS = """
MOVE LOADK LOADNIL LOADBOOL GETUPVAL SETUPVAL NEWCELL GETCELL SETCELL
GETTABUP SETTABUP GETTABLE SETTABLE SELF NEWTABLE SETLIST
ADD SUB MUL DIV MOD POW IDIV BAND BOR BXOR SHL SHR UNM NOT LEN BNOT CONCAT
EQ NE LT LE CLOSURE VARARG CALL RETURN TBC CLOSE
IF IFNOT ELSE END LOOP BREAK FORPREP TFORPREP GOTO LABEL
""".split()

ARITH = {'+': 'ADD', '-': 'SUB', '*': 'MUL', '/': 'DIV', '%': 'MOD', '^': 'POW',
         '//': 'IDIV', '&': 'BAND', '|': 'BOR', '~': 'BXOR', '<<': 'SHL', '>>': 'SHR'}


class Instr:
    __slots__ = ('op', 'a', 'b', 'c', 'line', 'note', 'temp')

    def __init__(self, op, a=0, b=0, c=0, line=0, note=None):
        self.op = op
        self.a = a
        self.b = b
        self.c = c
        self.line = line
        self.note = note          # variable description for error messages
        self.temp = None          # True when the result is an expression temporary

    def __repr__(self):
        return '%s %r %r %r' % (self.op, self.a, self.b, self.c)


class Proto:
    """A compiled function prototype."""

    def __init__(self, chunkname, name, line, end_line, numparams, is_vararg):
        self.chunkname = chunkname
        self.name = name
        self.line = line
        self.end_line = end_line
        self.numparams = numparams
        self.is_vararg = is_vararg
        self.code = []
        self.consts = []
        # (name, instack, index, kind): kind 'cell' (a one-element list),
        # 'value' (the value itself: never assigned after the closure exists)
        # or 'self' (the function's own value, for ``local function f``).
        self.upvals = []
        self.protos = []
        self.maxreg = 0
        self.has_goto = False
        self.has_calls = False


def rk(operand, proto):
    if operand < 0:
        return 'K%d(%s)' % (-operand - 1, _show(proto.consts[-operand - 1]))
    return 'R%d' % operand


def _show(v):
    if isinstance(v, str):
        s = v.encode('latin-1').decode('utf-8', 'replace')
        return '"%s"' % (s if len(s) < 40 else s[:37] + '...')
    if v is None:
        return 'nil'
    if v is True or v is False:
        return 'true' if v else 'false'
    return repr(v)


def listing(proto, out):
    """Write a ``luac -l`` style listing of ``proto`` and its children."""
    kind = 'main' if proto.name == 'main chunk' else 'function'
    out.write('\n%s <%s:%d,%d> (%d instructions)\n' % (
        kind, proto.chunkname, proto.line, proto.end_line, len(proto.code)))
    out.write('%d%s params, %d slots, %d upvalues, %d constants, %d functions\n' % (
        proto.numparams, '+' if proto.is_vararg else '', proto.maxreg,
        len(proto.upvals), len(proto.consts), len(proto.protos)))
    depth = 0
    for pc, ins in enumerate(proto.code, 1):
        if ins.op in ('END', 'ELSE', 'CLOSE'):
            depth -= 1
        args = _operands(ins, proto)
        out.write('\t%d\t[%d]\t%s%-9s\t%s\n' % (pc, ins.line, '  ' * max(depth, 0), ins.op, args))
        if ins.op in ('IF', 'IFNOT', 'ELSE', 'LOOP', 'FORPREP', 'TFORPREP', 'TBC'):
            depth += 1
    for p in proto.protos:
        listing(p, out)


def _operands(ins, proto):
    op = ins.op
    if op in ('LOADK',):
        return 'R%d %s' % (ins.a, rk(ins.b, proto))
    if op in ('GETTABUP',):
        return 'R%d U%d %s' % (ins.a, ins.b, rk(ins.c, proto))
    if op in ('SETTABUP',):
        return 'U%d %s %s' % (ins.a, rk(ins.b, proto), rk(ins.c, proto))
    if op in ('GETUPVAL', 'SETUPVAL'):
        return 'R%d U%d' % (ins.a, ins.b)
    if op in ('GOTO', 'LABEL'):
        return str(ins.a)
    if op in ('ELSE', 'END', 'LOOP', 'BREAK'):
        return ''
    if op in ('IF', 'IFNOT', 'TBC', 'CLOSE', 'NEWCELL', 'FORPREP'):
        return 'R%d' % ins.a
    parts = ['R%d' % ins.a]
    for x in (ins.b, ins.c):
        if isinstance(x, int) and x < 0 and op not in ('CALL', 'RETURN', 'VARARG', 'SETLIST'):
            parts.append(rk(x, proto))
        else:
            parts.append(str(x))
    return ' '.join(parts)
