"""Where Lua 5.4.4 positions an integer division or modulo by zero.

Its VM raises that error without saving the position of the instruction
(``OP_IDIV`` and ``OP_MOD`` have no ``savestate`` in lua 5.4.4's lvm.c), so
the message names the line of the last instruction that saved it (a call,
a concatenation, a length, a new table key, ...) or, when none has run, the
line where the function starts.  pylua follows the bytecode's program
order: what a branch not taken or an earlier iteration of a loop saved is
not known here.
"""
from __future__ import annotations

from ..runtime.state import analysis_pass

# Instructions whose every run saves the position.
_ALWAYS = frozenset('CALL CONCAT LEN CLOSURE VARARG FORPREP TFORPREP TBC CLOSE'.split())
# Assignments to a table field save it when the key is new: taken as the
# common case (a constructor's fields, a global's first assignment).
_SETS = frozenset(('SETTABLE', 'SETTABUP'))
# Operators on numbers save nothing; on a string (a metamethod) they save.
_OPERATORS = frozenset('ADD SUB MUL DIV MOD POW IDIV BAND BOR BXOR SHL SHR LT LE'.split())
_DIVISIONS = frozenset(('IDIV', 'MOD'))


@analysis_pass
def mark_zero_division_lines(proto, position_saves):
    """Add to the note of each IDIV and MOD of ``proto`` (a (left, right)
    description) the line its division by zero is reported at.
    ``position_saves``: pc -> line where Lua's OP_CLOSE of a block's
    captured locals, which pylua has no instruction for, runs before the
    instruction at pc."""
    line = 1 if proto.name == 'main chunk' else proto.line     # the main chunk's VARARGPREP is on line 1
    consts = proto.consts
    for pc, ins in enumerate(proto.code):
        if pc in position_saves:
            line = position_saves[pc]
        op = ins.op
        if op in _DIVISIONS:
            ins.note = tuple(ins.note) + (line,)
        if op in _ALWAYS or op in _SETS or (op == 'EQ' or op == 'NE') and ins.b >= 0 and ins.c >= 0 or \
                op in _OPERATORS and any(x < 0 and consts[-x - 1].__class__ is str for x in (ins.b, ins.c)):
            line = ins.line
