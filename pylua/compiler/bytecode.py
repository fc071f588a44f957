"""pylua's register bytecode: Lua 5.4's model (registers, constants, upvalue
descriptors, one prototype per function, line info) with structured control
flow (IF/ELSE/END, LOOP, FORPREP, TFORPREP) in place of raw jumps, so the
translator can emit Python loops; GOTO/LABEL remain for ``goto``, but for a
``goto`` to a label ending the body of the loop it is in (``goto continue``),
which is CONTINUE, Python's ``continue``.

Operands: registers are ints >= 0; a constant is encoded as ``-(k + 1)``.
"""
from __future__ import annotations

OPS = """
MOVE LOADK LOADNIL LOADBOOL GETUPVAL SETUPVAL NEWCELL GETCELL SETCELL
GETTABUP SETTABUP GETTABLE SETTABLE SELF NEWTABLE SETLIST
ADD SUB MUL DIV MOD POW IDIV BAND BOR BXOR SHL SHR UNM NOT LEN BNOT CONCAT
EQ NE LT LE CLOSURE VARARG CALL RETURN TBC CLOSE
IF IFNOT ELSE END LOOP BREAK FORPREP TFORPREP GOTO LABEL CONTINUE
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


class LocVar:
    """A local's debug information: it lives in register ``reg`` (in a
    cell when ``captured``) while ``startpc <= pc < endpc``."""
    __slots__ = ('name', 'reg', 'captured', 'startpc', 'endpc')

    def __init__(self, name, reg, captured, startpc):
        self.name = name
        self.reg = reg
        self.captured = captured
        self.startpc = startpc
        self.endpc = None


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
        # 'value' (the value itself: the main chunk's unassigned _ENV, or a
        # function's own name seen from a closure inside it) or 'self' (the
        # function's own value, for ``local function f`` seen only by itself).
        self.upvals = []
        self.protos = []
        self.maxreg = 0
        self.has_goto = False
        self.has_calls = False
        self.locvars = []         # LocVar per declared local, in declaration order
        self.nesting = 0          # a main chunk's deepest C level in lparser.c (resolver.MAX_C_LEVELS)
        # Register -> the class the translated code takes it to hold wherever
        # it is read (the translator's facts); debug.setlocal keeps to them.
        self.typed_registers = {}
        self.typed_upvalues = {}  # upvalue index -> class, likewise (debug.setupvalue keeps to them)
        self.source = None        # the chunk's name as load was given it (Lua's ``source``), when known
