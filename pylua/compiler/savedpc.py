"""Where Lua 5.4.4 positions an integer division or modulo by zero.

Its VM raises that error without saving the position of the instruction
(``OP_IDIV`` and ``OP_MOD`` have no ``savestate`` in lua 5.4.4's lvm.c), so
the message names the line of the last instruction that saved it (a call,
a concatenation, a length, a new table key, ...) or, when none has run, the
line where the function starts.  Which instruction that is follows the
control flow: every path to the division is followed (branches, loops
and their earlier iterations, gotos), and the saves that can be the last
on one of them are its candidates.

A table read saves the position only when it misses (``luaV_finishget``:
no table, or no value at the key), which only the run knows: it is a
candidate that does not end the paths of the candidates before it.

When all candidates of a division name one line, that line is its note's;
otherwise the run decides: each candidate records its line in the
translated function's ``_zl`` as it saves (a read on its miss path only),
and the division names the line last recorded.
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


# What a candidate of a division is (``ZeroLine.marks``): the function's
# start; a block's close before an instruction (``position_saves``); an
# instruction that saves when it runs; a read that saves when it misses.
ENTRY, CLOSE, SAVE, MISS = range(4)


def _saves(ins, consts):
    """Does every run of ``ins`` save the position?"""
    op = ins.op
    return op in _ALWAYS or op in _SETS or (op == 'EQ' or op == 'NE') and ins.b >= 0 and ins.c >= 0 or \
        op in _OPERATORS and any(x < 0 and consts[-x - 1].__class__ is str for x in (ins.b, ins.c))


def _successors(code):
    """For each pc, the pcs control goes to after its instruction (``len(code)``:
    out of the function)."""
    n = len(code)
    ends, elses, loops, labels = {}, {}, {}, {}
    stack = []
    for pc, ins in enumerate(code):
        op = ins.op
        if op in ('IF', 'IFNOT', 'LOOP', 'FORPREP', 'TFORPREP'):
            stack.append(pc)
        elif op == 'ELSE':
            elses[stack[-1]] = pc
        elif op == 'END':
            ends[stack.pop()] = pc
        elif op == 'BREAK' or op == 'CONTINUE':
            loops[pc] = next(o for o in reversed(stack) if code[o].op in ('LOOP', 'FORPREP', 'TFORPREP'))
        elif op == 'LABEL':
            labels[ins.b] = pc
    succ = [[pc + 1] for pc in range(n)]
    for opener, end in ends.items():
        op = code[opener].op
        if op == 'IF' or op == 'IFNOT':
            # The test skips the block (and a close at its end, which ends it).
            other = elses.get(opener)
            succ[opener] = [opener + 1, (other if other is not None else end) + 1]
            if other is not None:
                succ[other] = [end + 1]
        elif op == 'LOOP':
            succ[end] = [opener + 1]
        elif op == 'FORPREP':
            succ[opener] = succ[end] = [opener + 1, end + 1]
        else:
            # The iterator is called again (TFORPREP saves) at each iteration.
            succ[opener] = [opener + 1, end + 1]
            succ[end] = [opener]
    for pc, loop in loops.items():
        # A break leaves the loop; a continue goes where the body's end goes.
        succ[pc] = [ends[loop] + 1] if code[pc].op == 'BREAK' else [ends[loop]]
    for pc, ins in enumerate(code):
        if ins.op == 'GOTO':
            succ[pc] = [labels[ins.b]]
        elif ins.op == 'RETURN':
            succ[pc] = []
    return succ


@analysis_pass
def mark_zero_division_lines(proto, position_saves):
    """Add to the note of each IDIV and MOD of ``proto`` (a (left, right)
    description) the line its division by zero is reported at, or None and
    its candidates (``ZeroLine``) when the run decides it.
    ``position_saves``: pc -> line where Lua's OP_CLOSE of a block's
    captured locals, which pylua has no instruction for, runs before the
    instruction at pc."""
    code, consts = proto.code, proto.consts
    if not any(ins.op in _DIVISIONS for ins in code):
        return
    start = 1 if proto.name == 'main chunk' else proto.line     # the main chunk's VARARGPREP is on line 1
    succ = _successors(code)
    # The candidates reaching each pc: a frozenset of (kind, pc, line).
    reaching = [None] * (len(code) + 1)
    reaching[0] = frozenset(((ENTRY, -1, start),))
    work = [0]
    while work:
        pc = work.pop()
        if pc == len(code):
            continue
        state = reaching[pc]
        if pc in position_saves:
            state = frozenset(((CLOSE, pc, position_saves[pc]),))
        ins = code[pc]
        if _saves(ins, consts):
            state = frozenset(((SAVE, pc, ins.line),))
        elif ins.op in _GETS:
            state = state | {(MISS, pc, ins.line)}
        for nxt in succ[pc]:
            old = reaching[nxt]
            new = state if old is None else old | state
            if new != old:
                reaching[nxt] = new
                work.append(nxt)
    for pc, ins in enumerate(code):
        if ins.op not in _DIVISIONS:
            continue
        state = reaching[pc]
        if state is None:                  # unreachable
            state = frozenset(((ENTRY, -1, start),))
        if pc in position_saves:
            state = frozenset(((CLOSE, pc, position_saves[pc]),))
        lines = {line for _, _, line in state}
        # Only an integer zero divides by zero: a constant other than 0
        # never does, and the run need not decide its line.
        divisor = consts[-ins.c - 1] if ins.c < 0 else None
        if len(lines) == 1 or divisor.__class__ is float or divisor.__class__ is int and divisor != 0:
            ins.note = tuple(ins.note) + (min(lines),)
        else:
            # Plain values, as notes are (a dumped chunk keeps them): see zero_line.
            ins.note = tuple(ins.note) + (None,) + tuple(x for mark in sorted(state) for x in mark)


@dataclass(frozen=True)
class ZeroLine:
    """A division whose reported line the run decides: ``marks``, its
    candidates, each (kind, pc, line): ENTRY (pc -1), CLOSE before the
    instruction at pc, SAVE by it, MISS by it when it misses."""
    marks: tuple


def zero_line(note) -> ZeroLine | None:
    """The ``ZeroLine`` of a division's note, if the run decides its line."""
    if note.__class__ not in (tuple, list) or len(note) <= 3:     # a dumped chunk's notes are lists
        return None
    return ZeroLine(tuple(tuple(note[i:i + 3]) for i in range(3, len(note), 3)))
