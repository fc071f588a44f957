"""Which registers hold an integer where each instruction is translated: a
forward must-analysis over the structured bytecode, emitting nothing.

The translator's straight-line knowledge (``Function.types``) ends at every
branch and loop head, and ``facts.integer_registers`` needs every write of
a register anywhere in the function to give an integer, which a register
reused for a comparison's result defeats.  Here facts cross ``IF``/``ELSE``
joins (what both sides leave) and loops (what the entry and every way back
agree on, iterated to a fixed point), so that ``x = (x * a + c) & m`` in a
loop keeps ``x`` an integer across the loop's branches.
"""
from __future__ import annotations

from ...runtime.state import count_instructions, ANALYSE_INSTRUCTION
from .facts import BLOCK_OPS, OPENERS, writes, INTEGER_OPS, integer_operands, int_constant

# Each pass over a loop's body drops at least one register or ends the
# iteration; nested loops multiply the passes.  Past this many instructions
# visited per instruction of the function the analysis gives up (no facts).
_VISITS_PER_INSTRUCTION = 64


class _GiveUp(Exception):
    """The fixed point took too long: the function keeps no flow facts."""


def integers_before(p, ints=()):
    """{id(instruction): frozenset of the registers holding an integer when
    it starts} for the reachable instructions of ``p``, given that the
    parameters ``ints`` hold integers; empty for a function with ``goto``
    (the dispatcher lays its blocks out) or one too costly to analyse."""
    if p.has_goto:
        return {}
    flow = _Flow(p)
    try:
        flow.block(0, len(p.code), frozenset(ints))
    except _GiveUp:
        return {}
    return flow.before


class _Flow:
    def __init__(self, p):
        self.p = p
        self.code = p.code
        self.before = {}
        self.breaks = []              # per enclosing loop: the states its breaks leave with
        self.continues = []           # and those its continues go back to the head with
        self.visits = len(p.code) * _VISITS_PER_INSTRUCTION
        self.elses, self.ends = _block_bounds(p.code)

    def block(self, k, hi, state):
        """Run ``code[k:hi]`` from ``state``; the state at ``hi``, or None
        when no path reaches it (every path broke or returned)."""
        code = self.code
        while k < hi:
            if state is None:
                return None
            self.visits -= 1
            if not self.visits:
                raise _GiveUp
            if not self.visits & 1023:
                count_instructions(1024 * ANALYSE_INSTRUCTION)     # the cancel check
            ins = code[k]
            op = ins.op
            if op == 'IF' or op == 'IFNOT':
                self.before[id(ins)] = state
                end = self.ends[k]
                other = self.elses.get(k)
                then = self.block(k + 1, other if other is not None else end, state)
                otherwise = self.block(other + 1, end, state) if other is not None else state
                state = _meet(then, otherwise)
                k = end + 1
            elif op in OPENERS:
                self.before[id(ins)] = state
                state = self.loop(k, state)
                k = self.ends[k] + 1
            elif op == 'BREAK':
                self.breaks[-1].append(state)
                state = None
                k += 1
            elif op == 'CONTINUE':
                self.continues[-1].append(state)
                state = None
                k += 1
            elif op == 'TBC' or op == 'CLOSE':
                # A to-be-closed region's bounds: a run ends there, the flow goes on.
                self.before[id(ins)] = state
                state = self.transfer(ins, state)
                k += 1
            else:
                k, state = self.straight(k, hi, state)
        return state

    def straight(self, k, hi, state):
        """Run the straight-line code from ``k`` to the next block
        instruction; (its index, the state there).  Each instruction of it
        is given the registers holding an integer from the run's start to
        its end, every write in it giving one: the translator looks ahead
        within a run (fusing arithmetic, choosing guards) and tracks the
        run's other results itself."""
        code = self.code
        start = state
        lost = set()
        end = k
        while end < hi and code[end].op not in BLOCK_OPS:
            ins = code[end]
            state = self.transfer(ins, state)
            lost.update(r for r in writes(ins, self.p.maxreg) if r not in state)
            end += 1
            if not (end - k) & 1023:
                count_instructions(1024 * ANALYSE_INSTRUCTION)     # the cancel check, in a long run
            if ins.op == 'RETURN':
                state = None
                break
        kept = start.difference(lost)
        for j in range(k, end):
            self.before[id(code[j])] = kept
        return end, state

    def loop(self, k, state):
        """A LOOP, numeric or generic for starting at ``k``: iterate its body
        to a fixed point; the state after its END."""
        ins = self.code[k]
        end = self.ends[k]
        written = frozenset(writes(ins, self.p.maxreg))
        entry = state - written
        var = None
        if ins.op == 'FORPREP' and ins.a in state and ins.a + 2 in state:
            var = ins.a + 3           # an integer start and step make an integer loop (forprep)
        head = entry | {var} if var is not None else entry
        while True:
            self.breaks.append([])
            self.continues.append([])
            out = self.block(k + 1, end, head)
            breaks = self.breaks.pop()
            for s in self.continues.pop():
                out = _meet(out, s)       # the iteration's end, reached from inside
            back = _meet(entry, out - written) if out is not None else entry
            again = back | {var} if var is not None else back
            if again == head:
                break
            head = again
        exits = breaks if ins.op == 'LOOP' else breaks + [entry, out]
        after = None
        for s in exits:
            after = _meet(after, s)
        return after - written if after is not None else None

    def transfer(self, ins, state):
        """The state after ``ins``: the registers it writes lose their fact,
        its result gains one when it is an integer."""
        op = ins.op
        p = self.p
        if op == 'LOADK':
            result = p.consts[-ins.b - 1].__class__ is int
        elif op == 'MOVE':
            result = ins.b in state
        elif op == 'GETUPVAL':
            result = p.typed_upvalues.get(ins.b) is int
        elif op in INTEGER_OPS:
            result = all(int_constant(p, x) if x < 0 else x in state for x in integer_operands(ins))
        else:
            result = False
        written = writes(ins, p.maxreg)
        if written:
            state = state.difference(written)
        return state | {ins.a} if result else state


def _meet(a, b):
    """What two paths joining agree on; None is a path that never arrives."""
    if a is None:
        return b
    if b is None:
        return a
    return a & b


def _block_bounds(code):
    """({index of an IF/IFNOT: index of its ELSE}, {index of an opener: index
    of its END})."""
    elses, ends, stack = {}, {}, []
    for k, ins in enumerate(code):
        op = ins.op
        if op in OPENERS:
            stack.append(k)
        elif op == 'ELSE':
            elses[stack[-1]] = k
        elif op == 'END':
            ends[stack.pop()] = k
    return elses, ends
