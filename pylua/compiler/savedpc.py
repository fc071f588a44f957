"""Where Lua 5.4.4 positions an integer division or modulo by zero.

Its VM raises that error without saving the position of the instruction
(``OP_IDIV`` and ``OP_MOD`` have no ``savestate`` in lua 5.4.4's lvm.c), so
the message names the line of the last instruction that saved it (a call,
a concatenation, a length, a new table key, ...) or, when none has run, the
line where the function starts.  pylua follows the bytecode's program
order: what a branch not taken or an earlier iteration of a loop saved is
not known here.

A table read saves the position only when it misses (``luaV_finishget``:
no table, or no value at the key), which only the run knows: a division
with such reads between it and that instruction notes them, and the
translated code records the line of a read that misses.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..runtime.state import analysis_pass

# Instructions whose every run saves the position.
_ALWAYS = frozenset('CALL CONCAT LEN CLOSURE VARARG FORPREP TFORPREP TBC CLOSE'.split())
# Assignments to a table field save it when the key is new: taken as the
# common case (a constructor's fields, a global's first assignment).
_SETS = frozenset(('SETTABLE', 'SETTABUP'))
# Operators on numbers save nothing; on a string (a metamethod) they save.
_OPERATORS = frozenset('ADD SUB MUL DIV MOD POW IDIV BAND BOR BXOR SHL SHR LT LE'.split())
_DIVISIONS = frozenset(('IDIV', 'MOD'))
# Reads of a table that save the position when they miss.
_GETS = frozenset(('GETTABUP', 'GETTABLE'))


@analysis_pass
def mark_zero_division_lines(proto, position_saves):
    """Add to the note of each IDIV and MOD of ``proto`` (a (left, right)
    description) the line its division by zero is reported at; when reads
    that save the position on a miss come between it and the instruction
    that saved that line, also where they are (``zero_line`` reads them).
    ``position_saves``: pc -> line where Lua's OP_CLOSE of a block's
    captured locals, which pylua has no instruction for, runs before the
    instruction at pc."""
    line = 1 if proto.name == 'main chunk' else proto.line     # the main chunk's VARARGPREP is on line 1
    saved_at = None               # the pc of the save of ``line`` (see ZeroLine)
    gets = []                     # reads since then on other lines
    consts = proto.consts
    for pc, ins in enumerate(proto.code):
        if pc in position_saves:
            line, saved_at, gets = position_saves[pc], pc, []
        op = ins.op
        if op in _DIVISIONS:
            ins.note = tuple(ins.note) + (line,)
            # Only an integer zero divides by zero: a constant other than
            # 0 never does, and the run need not decide its line.
            divisor = consts[-ins.c - 1] if ins.c < 0 else None
            if gets and not (divisor.__class__ is float or divisor.__class__ is int and divisor != 0):
                # Plain values, as notes are (a dumped chunk keeps them): see zero_line.
                ins.note += (saved_at,) + tuple(gets)
        elif op in _GETS and ins.line != line:
            gets.append(pc)
        if op in _ALWAYS or op in _SETS or (op == 'EQ' or op == 'NE') and ins.b >= 0 and ins.c >= 0 or \
                op in _OPERATORS and any(x < 0 and consts[-x - 1].__class__ is str for x in (ins.b, ins.c)):
            line, saved_at, gets = ins.line, pc, []


@dataclass(frozen=True)
class ZeroLine:
    """A division whose reported line the run decides: ``line``, the
    statically known one; ``gets``, the pcs of the reads that name their
    own line when they miss; ``saved_at``, the pc of the instruction that
    saves ``line``, or before which a block's close does (None: the
    function's start): a miss before it stops counting there.  (The reads
    come after it in program order, so forgetting a miss just before it
    runs is the same as just after, and outside a loop it opens.)"""
    line: int
    gets: tuple
    saved_at: int | None


def zero_line(note) -> ZeroLine | None:
    """The ``ZeroLine`` of a division's note, if the run decides its line."""
    if note.__class__ not in (tuple, list) or len(note) <= 3:     # a dumped chunk's notes are lists
        return None
    return ZeroLine(note[2], tuple(note[4:]), note[3])
