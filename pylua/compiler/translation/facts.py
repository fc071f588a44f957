"""What the bytecode says, emitting nothing: which registers an instruction
reads and writes, which instructions open and close blocks, how a function
returns and where it counts its instructions.  Shared by the translator's
modules."""
from __future__ import annotations

import weakref
from dataclasses import dataclass

from ...runtime.state import LOOP_COST, analysis_pass
from ...runtime.table import LuaTable
from .intrinsics import INTRINSICS

# Instructions outside loops that a function making no call may run
# uncounted (its callers' counts bound it); a longer one counts its length.
STRAIGHT_LIMIT = 128
LOOPS = frozenset(('LOOP', 'FORPREP', 'TFORPREP'))
OPENERS = frozenset(('IF', 'IFNOT', 'LOOP', 'FORPREP', 'TFORPREP'))
BLOCK_OPS = OPENERS | {'ELSE', 'END', 'BREAK', 'CONTINUE', 'GOTO', 'LABEL', 'TBC', 'CLOSE'}
_BOOL_OPS = frozenset(('EQ', 'NE', 'LT', 'LE', 'NOT'))
FUSABLE = {'ADD': '+', 'SUB': '-', 'MUL': '*', 'UNM': '-'}
_RANGE_READS = frozenset(('CALL', 'RETURN', 'CONCAT'))
_WRITES_A = frozenset('''MOVE LOADK LOADBOOL GETUPVAL GETCELL GETTABUP GETTABLE NEWTABLE ADD SUB MUL
DIV MOD POW IDIV BAND BOR BXOR SHL SHR UNM NOT LEN BNOT CONCAT EQ NE LT LE CLOSURE NEWCELL
CLOSE'''.split())
# What Lua calls a generic for's iterator, in messages and tracebacks.
ITERATOR_NOTE = "for iterator 'for iterator'"
OWN = 'own'                        # what a register holding the function's own value holds
TABLE = 'table'                    # what a register holding a table holds
# A table just made whose metatable is still none: code that could set one
# has not run since (nothing but its constructor's stores, see FRESH_KEEPS).
FRESH = 'fresh table'
FRESH_KEEPS = frozenset(('NEWTABLE', 'SETTABLE', 'SETLIST', 'LOADK', 'LOADNIL', 'LOADBOOL', 'MOVE',
                         'GETUPVAL'))


# Python refuses more than 20 statically nested loop and try blocks and 100
# levels of indentation; nesting past these bounds is translated flat (by the
# dispatcher).  A for loop costs two blocks (its loop and a try).
_MAX_LOOP_BLOCKS = 14
_MAX_NESTING = 40


@analysis_pass
def too_deep_for_python(p):
    """Does ``p`` nest blocks deeper than structured Python can hold?"""
    depth = blocks = 0
    open_ = []
    for ins in p.code:
        op = ins.op
        if op in OPENERS:
            cost = 2 if op in ('FORPREP', 'TFORPREP') else 1 if op == 'LOOP' else 0
            open_.append(cost)
            depth += 1
            blocks += cost
            if depth > _MAX_NESTING or blocks > _MAX_LOOP_BLOCKS:
                return True
        elif op == 'END':
            depth -= 1
            blocks -= open_.pop()
    return False


def passes_results(call, ret):
    """``CALL a`` keeping all results, then ``RETURN a`` of all of them."""
    return call.c == -1 and ret.op == 'RETURN' and ret.a == call.a and ret.b == -1


def has_tail_calls(p):
    """Does ``p`` end with tail calls (``return f(...)``), so that what it
    returns may be a tail call's marker?  (In the scope of a to-be-closed
    variable a ``return f()`` is no tail call, in Lua as here: its CLOSE
    comes between the call and the return.)"""
    code = p.code
    return any(ins.op == 'CALL' and passes_results(ins, ret) for ins, ret in zip(code, code[1:]))


def returns(p):
    """The RETURN instructions of ``p`` that can run: the one a code generator
    adds after a last ``return x`` of the body is never reached."""
    code = p.code
    last = code[-1]
    dead = len(code) > 1 and code[-2].op == 'RETURN' and code[-2].b == 1 and _depth_at_end(code) == 0
    return [ins for ins in code if ins.op == 'RETURN' and not (dead and ins is last)]


def single_result(p):
    """Does every return of ``p`` give exactly one value?"""
    return not p.has_goto and all(ins.b == 1 for ins in returns(p))


def _depth_at_end(code):
    """How many structured blocks are open before the last instruction."""
    return list(with_depth(code))[-1][2]


def with_depth(code):
    """``(index, instruction, how many structured blocks are open before it)``."""
    depth = 0
    for k, ins in enumerate(code):
        yield k, ins, depth
        if ins.op in OPENERS:
            depth += 1
        elif ins.op == 'END':
            depth -= 1


@analysis_pass
def plain_order(p):
    """'lt' for a function that is exactly ``return a < b`` of its two
    parameters, 'gt' for ``return a > b``, else None.  As a sort comparator
    on numbers or strings it is the natural order, or its reverse."""
    if p.numparams != 2 or p.is_vararg or p.upvals or len(p.code) != 3:
        return None
    cmp, ret = p.code[0], p.code[1]
    if cmp.op != 'LT' or ret.op != 'RETURN' or ret.a != cmp.a or ret.b != 1:
        return None
    return {(0, 1): 'lt', (1, 0): 'gt'}.get((cmp.b, cmp.c))


@analysis_pass
def charge_point(p):
    """Where a function that calls counts its instructions: before its first
    call outside its loops when every other such call comes after that one
    in the rest of its block (``if n > 0 then f(n - 1) ... end``; at the top
    level, the rest of the function), so that runs not reaching it (the
    leaves of a recursion, a check's error not raised) count nothing:
    calls in loops come after their iterations' counts, and what such a
    run does outside loops, all but that rest, is bounded by the call that
    made it, which counted, unless it is longer than ``STRAIGHT_LIMIT``.
    None: on entry, as in a function the dispatcher runs (``goto``, or
    nested too deep), which counts at no instruction."""
    if p.has_goto or too_deep_for_python(p):
        return None
    code = p.code
    loop_depth = 0
    loops = []                    # per open block: is it a loop
    for k, ins in enumerate(code):
        op = ins.op
        if op == 'CALL' and not loop_depth:
            # The first call outside the loops: those in loops before it
            # come after their iterations' counts (``counts_on_entry``).
            rest = _block_end(code, k)
            if k == 0 or calls_outside_loops(code[rest:]):
                return None
            return k if outside_loops(code[:k]) + outside_loops(code[rest:]) <= STRAIGHT_LIMIT else None
        if op in OPENERS:
            loops.append(op in LOOPS)
            loop_depth += op in LOOPS
        elif op == 'END' and loops:
            loop_depth -= loops.pop()
    return None


def _block_end(code, k):
    """Where the block holding instruction ``k`` ends (its ``ELSE`` or
    ``END``; past the code at the top level)."""
    depth = 0
    for j in range(k + 1, len(code)):
        op = code[j].op
        if op in OPENERS:
            depth += 1
        elif op == 'END' or op == 'ELSE':
            if not depth:
                return j
            depth -= op == 'END'
    return len(code)


@analysis_pass
def calls_inlined(p):
    """Is every call of ``p`` named like a library function the translator
    inlines, with as many arguments (``intrinsics.INTRINSICS``), and its
    straight-line code short?  An inline body calls no Lua, so a run whose
    calls all take theirs is a leaf, which its callers' counts bound: such
    a function counts its length at each call that does not, not before
    its first (``FunctionTranslator.call_charge``)."""
    if p.has_goto or outside_loops(p.code) > STRAIGHT_LIMIT:
        return False
    calls = [ins for ins in p.code if ins.op == 'CALL']
    return bool(calls) and all(ins.b >= 0 and (callee_name(ins), ins.b) in INTRINSICS for ins in calls)


def callee_name(call):
    """The name a call's note gives its callee (``global 'type'``: type), or None."""
    note = call.note
    return note.split("'")[1] if note and "'" in note else None


def counts_on_entry(p):
    """Does ``p`` count its length where ``charge_point`` says?  A function
    that calls outside its loops does; one whose calls all lie inside its
    loops does not, nor one that makes no call, unless it runs more than
    ``STRAIGHT_LIMIT`` instructions outside its loops.  Each iteration of a
    loop counts before its body runs (a numeric ``for``'s before the loop,
    chunk by chunk), so each call made in a loop comes after a count of
    its own, as a call made by a function that counts comes after that
    one; what runs outside the loops is a leaf's bounded straight line,
    which its callers' counts bound.  So no call tree grows without
    counts.  A function the dispatcher runs (``goto``, or nested too deep)
    counts as a function that calls when it calls at all."""
    if p.has_goto or too_deep_for_python(p):
        return p.has_calls or outside_loops(p.code) > STRAIGHT_LIMIT
    return calls_outside_loops(p.code) or outside_loops(p.code) > STRAIGHT_LIMIT


def calls_outside_loops(code):
    """Is any ``CALL`` of ``code`` in no loop (of its own)?"""
    return any(ins.op == 'CALL' for ins in _outside_loops(code))


def outside_loops(code):
    """How many of the instructions ``code`` are in no loop (of its own)."""
    return sum(1 for _ in _outside_loops(code))


def _outside_loops(code):
    """The instructions of ``code`` in no loop (of its own), in order."""
    depth = 0
    loops = []                    # per open block: is it a loop
    for ins in code:
        op = ins.op
        if not depth:
            yield ins
        if op in OPENERS:
            loops.append(op in LOOPS)
            depth += op in LOOPS
        elif op == 'END' and loops:
            depth -= loops.pop()


def continued_ends(code):
    """{id of a CONTINUE: the END of the loop it continues}: what runs
    there before the next iteration (a division's saved line) runs on its
    way too."""
    loops, pending, found = [], [], {}
    for ins in code:
        op = ins.op
        if op in OPENERS:
            loops.append(op in LOOPS)
            pending.append([])
        elif op == 'CONTINUE':
            k = len(loops) - 1 - loops[::-1].index(True)
            pending[k].append(ins)
        elif op == 'END':
            loops.pop()
            for c in pending.pop():
                found[id(c)] = ins
    return found


def iteration_cost(p, k):
    """Instructions one iteration of the loop opened at ``k`` counts: its
    body's length (the instructions up to its END), at least ``LOOP_COST``."""
    code = p.code
    depth = 0
    for j in range(k + 1, len(code)):
        op = code[j].op
        if op in OPENERS:
            depth += 1
        elif op == 'END':
            if depth == 0:
                return max(LOOP_COST, j - k)
            depth -= 1
    raise AssertionError('unbalanced bytecode')


def is_predicate(p):
    """Does every return give one value just computed by a comparison or
    ``not`` (always a Python bool, whose truth is Lua's)?  Such a function
    can serve as a sort comparator as it is."""
    code = p.code
    for ins in returns(p):
        k = code.index(ins)
        prev = code[k - 1] if k else None
        if ins.b != 1 or prev is None or prev.op not in _BOOL_OPS or prev.a != ins.a:
            return False
    return not p.has_goto


# What held_fields takes a register holding false to be made by (a flag's value).
_FALSE = 'false'


def _constant_made(c):
    """What ``held_fields`` takes constant ``c`` stored under a key to be made by."""
    return 'LOADNIL' if c is None else _FALSE if c is False else 'LOADK'


def held_fields(main):
    """``(held, absent)``: string keys that fields read by name (``o.k``)
    usually find in the table itself, and keys they (or global reads) may
    well not find, over the chunk ``main`` and every function in it.
    Absent: some function stores nil under the key (as a field or a
    global), compares a read of it with nil (``o.k == nil``), or tests a
    read of it for truth (``if o.k``, ``o.k and x``, ``not o.k``, ``if
    jit``) and none stores false under it (a flag kept true or false is
    there, an optional field is not).  Held: some function stores it
    (``o.k = v``, ``{k = v}``), it is not absent, and none stores a
    function under it or calls it as a method (``o:k()``): a method is
    found in a class rather than in the object.  Only a guess of what is
    usual: the read of a held key is cheaper when it hits and dearer when
    it misses, and correct either way."""
    uses = [set() for _ in range(5)]
    stack = [main]
    while stack:
        p = stack.pop()
        for mine, theirs in zip(uses, _field_uses(p)):
            mine |= theirs
        stack.extend(p.protos)
    stored, nils, truth_tested, flags, methods = uses
    absent = nils | (truth_tested - flags)
    return frozenset(stored - absent - methods), frozenset(absent)


@dataclass(frozen=True)
class CallArities:
    """How many arguments the fixed-arity calls of a chunk pass: the most
    any call passes by the name its note gives the callee (``f(...)``,
    ``obj:m(...)`` with the receiver counted, ``M.f(...)``), and the most
    any call at all passes (a generic ``for`` passes its iterator two)."""
    by_name: dict
    most: int


def call_arities(main):
    """The ``CallArities`` of chunk ``main``.  A function with fewer
    parameters than it is called with takes the extra arguments in spare
    parameters of its own (``module.spare_params``): an implementation that
    ignores an argument its siblings use (a leaf node's ``eval(env)``), or a
    callback that ignores the index and the list ``each(list, fn)`` passes,
    would otherwise raise and refit the arguments at every call."""
    by_name = {}
    most = 0
    stack = [main]
    while stack:
        p = stack.pop()
        stack.extend(p.protos)
        for ins in p.code:
            if ins.op == 'CALL' and ins.b >= 1:
                most = max(most, ins.b)
                name = callee_name(ins)
                if name is not None:
                    by_name[name] = max(by_name.get(name, 0), ins.b)
            elif ins.op == 'TFORPREP':
                most = max(most, 2)
    return CallArities(by_name, most)


@analysis_pass
def _field_uses(p):
    """``(stored, nils, truth_tested, flags, methods)`` of ``held_fields``
    for one function: keys stored, stored nil or compared with nil, tested
    for truth, stored false, and methods.  Which register holds what is
    followed in code order, blocks aside: a guess needs no more."""
    stored, nils, truth_tested, flags, methods = set(), set(), set(), set(), set()
    consts = p.consts
    last = {}                          # register -> the opcode that last wrote it
    field = {}                         # register -> the key of the field read into it

    def key_of(x):
        k = consts[-x - 1] if x < 0 else None
        return k if k.__class__ is str else None

    for ins in p.code:
        op = ins.op
        if op == 'SETTABLE' or op == 'SETTABUP':
            k = key_of(ins.b)
            if k is not None:
                v = ins.c
                made = _constant_made(consts[-v - 1]) if v < 0 else last.get(v)
                if made == 'LOADNIL':
                    nils.add(k)
                else:
                    if made == _FALSE:
                        flags.add(k)
                    if op == 'SETTABLE':     # a global's value says nothing of fields
                        (methods if made == 'CLOSURE' else stored).add(k)
        elif op == 'SELF':
            k = key_of(ins.c)
            if k is not None:
                methods.add(k)
        elif op == 'IF' or op == 'IFNOT':
            if ins.a in field:
                truth_tested.add(field[ins.a])
        elif op == 'NOT':
            if ins.b in field:
                truth_tested.add(field[ins.b])
        elif op == 'EQ' or op == 'NE':
            for x, y in ((ins.b, ins.c), (ins.c, ins.b)):
                if x in field and y < 0 and consts[-y - 1] is None:
                    nils.add(field[x])
        copied = field.get(ins.b) if op == 'MOVE' else None
        for r in writes(ins, p.maxreg):
            last[r] = _FALSE if op == 'LOADBOOL' and not ins.b else op
            field.pop(r, None)
        if (op == 'GETTABLE' or op == 'GETTABUP') and key_of(ins.c) is not None:
            field[ins.a] = key_of(ins.c)
        elif op == 'MOVE':
            last[ins.a] = last.get(ins.b)
            if copied is not None:
                field[ins.a] = copied
    return stored, nils, truth_tested, flags, methods


@analysis_pass
def global_field_reads(p):
    """The reads of a constant string key (GETTABLE instructions) from a
    value just read from a global (``GETTABUP``): mostly a library or a
    module (``table.insert``, ``M.f``), whose fields are there, though
    the chunk stores none of them."""
    last = {}                          # register -> the opcode that last wrote it
    reads = set()
    for ins in p.code:
        if ins.op == 'GETTABLE' and ins.c < 0 and p.consts[-ins.c - 1].__class__ is str \
                and last.get(ins.b) == 'GETTABUP':
            reads.add(ins)
        for r in writes(ins, p.maxreg):
            last[r] = ins.op
    return reads


@analysis_pass
def new_tables(p):
    """Registers whose one assignment in ``p`` is a NEWTABLE: Lua reads a
    local only after its declaration, so every read finds a table."""
    count = {}
    for ins in p.code:
        for r in writes(ins, p.maxreg):
            count[r] = count.get(r, 0) + 1
    return {ins.a for ins in p.code if ins.op == 'NEWTABLE' and count[ins.a] == 1}


def may_read(ins, reg):
    """Could ``ins`` read register ``reg``?  (Conservative: any operand
    field that might name it, any register a range operation might cover.)"""
    op = ins.op
    if op == 'CLOSURE':
        return True
    if op == 'SETLIST':
        return reg == ins.a or reg >= ins.note and (ins.b < 0 or reg < ins.note + ins.b)
    if op == 'FORPREP' or op == 'TFORPREP':
        return ins.a <= reg < ins.a + 3
    if op in _RANGE_READS:
        # CALL reads the function and its arguments; -1 counts to the top.
        return reg >= ins.a and (ins.b < 0 or reg < ins.a + ins.b + (op == 'CALL'))
    if op in _WRITES_A and op not in ('NEWCELL', 'CLOSE'):
        return reg == ins.b or reg == ins.c
    return reg == ins.a or reg == ins.b or reg == ins.c


def writes(ins, maxreg):
    """Registers an instruction assigns."""
    op, a = ins.op, ins.a
    if op in _WRITES_A:
        return (a,)
    if op == 'LOADNIL':
        return range(a, a + ins.b)
    if op == 'SELF':
        return (a, a + 1)
    if op == 'CALL' or op == 'VARARG':
        n = ins.c if op == 'CALL' else ins.b
        return range(a, maxreg) if n < 0 else range(a, a + n)
    if op == 'FORPREP':
        return (a + 3,)
    if op == 'TFORPREP':
        return (a + 2,) + tuple(range(a + 4, a + 4 + ins.b))
    return ()


# Operations giving an integer whenever their operands are integers (or
# raising): Lua's integer arithmetic wraps around, and bitwise operations
# on integers give integers.
INTEGER_OPS = frozenset('ADD SUB MUL MOD IDIV BAND BOR BXOR SHL SHR UNM BNOT'.split())


def integer_operands(ins):
    """The operands (registers, or constants as negative numbers) of one of
    ``INTEGER_OPS``."""
    return (ins.b,) if ins.op in ('UNM', 'BNOT') else (ins.b, ins.c)


def int_constant(p, x):
    """Is operand ``x``, a constant (negative), an integer one?"""
    return p.consts[-x - 1].__class__ is int


@analysis_pass
def returns_integers(p, ints, tables):
    """Under the hoisted guards that parameters ``ints`` hold integers and
    ``tables`` tables (never assigned, see ``typed_params``), does every
    return of ``p`` give one integer, taking calls of its own value whose
    arguments pass the same guards to give one?  Along straight-line code
    only: what a block leaves is not followed."""
    known = set(ints)
    known_tables = set(tables) | new_tables(p)
    numbers = set()
    own = set()
    fresh = set()

    def isint(x):
        if x < 0:
            return int_constant(p, x)
        return x in known or x in numbers

    live = returns(p)
    for ins in p.code:
        op = ins.op
        if op in BLOCK_OPS:
            numbers.clear()
            own.clear()
            fresh.clear()
            continue
        if op == 'RETURN' and any(ins is r for r in live) and not (ins.b == 1 and isint(ins.a)):
            return False
        result = None
        if op == 'LOADK' or op == 'MOVE':
            result = 'int' if isint(ins.b) else 'table' if op == 'MOVE' and (
                ins.b in known_tables or ins.b in fresh) else None
        elif op in INTEGER_OPS:
            result = 'int' if all(isint(x) for x in integer_operands(ins)) else None
        elif op == 'NEWTABLE':
            result = 'table'
        elif op == 'GETUPVAL' and p.upvals[ins.b][3] == 'self':
            result = 'own'
        elif op == 'CALL' and ins.a in own and ins.b >= 0 and ins.c == 1:
            args = [ins.a + 1 + r for r in range(ins.b)]
            if all(r < ins.b and isint(args[r]) for r in ints) and all(
                    r < ins.b and (args[r] in known_tables or args[r] in fresh) for r in tables):
                result = 'int'
        for r in writes(ins, p.maxreg):
            numbers.discard(r)
            own.discard(r)
            fresh.discard(r)
        if result == 'int':
            numbers.add(ins.a)
        elif result == 'own':
            own.add(ins.a)
        elif result == 'table':
            fresh.add(ins.a)
    return True


def integer_registers(p, ints=()):
    """Registers holding an integer wherever the function reads them, given
    that parameters ``ints`` do (hoisted guards) and so do the upvalues of
    ``p.typed_upvalues``: every instruction writing one loads an integer
    constant or such an upvalue, copies such a register or computes an
    integer operation of integer constants and such registers (a local
    counted in a ``while`` loop, an accumulator of integers), whatever
    blocks lie between.  A largest fixed point: a register leaves the set
    when one of its writes reads a register outside it.  Lua reads a
    register only after writing it, so the other parameters, written by
    the caller, are never in it."""
    if p.has_goto:
        return frozenset()
    if not ints:
        # Asked for a closure's upvalues first, then for the function itself.
        found = _INTEGERS.get(p)
        if found is None:
            found = _INTEGERS[p] = _integer_registers(p, ints)
        return found
    return _integer_registers(p, ints)


_INTEGERS = weakref.WeakKeyDictionary()      # prototype -> its integer_registers without guards


@analysis_pass
def _integer_registers(p, ints):
    sources = {}                       # register -> the registers its writes read; None: not an integer
    for r in range(p.numparams):
        sources[r] = set() if r in ints else None
    for ins in p.code:
        op = ins.op
        if op == 'LOADK' and p.consts[-ins.b - 1].__class__ is int or \
                op == 'GETUPVAL' and p.typed_upvalues.get(ins.b) is int:
            reads = ()
        elif op == 'MOVE':
            reads = (ins.b,)
        elif op in INTEGER_OPS:
            operands = integer_operands(ins)
            if any(x < 0 and not int_constant(p, x) for x in operands):
                reads = None
            else:
                reads = tuple(x for x in operands if x >= 0)
        else:
            reads = None
        for r in writes(ins, p.maxreg):
            if reads is None:
                sources[r] = None
            elif r not in sources:
                sources[r] = set(reads)
            elif sources[r] is not None:
                sources[r].update(reads)
    integers = {r for r, reads in sources.items() if reads is not None}
    changed = True
    while changed:
        changed = False
        for r in list(integers):
            if any(x not in integers for x in sources[r]):
                integers.discard(r)
                changed = True
    return frozenset(integers)


def typed_upvalues(parent):
    """For each function ``parent`` makes a closure of (``parent.protos``),
    its upvalues (by index) holding one class of value whenever it reads
    them (``int`` or ``LuaTable``): never assigned, and copied or captured,
    when ``parent`` makes the closure, from a register holding an integer
    wherever read or only ever a new table, a cell every one of which
    ``parent`` makes around such a value, or such an upvalue of
    ``parent``."""
    registers = integer_registers(parent)
    tables = new_tables(parent)
    cells = typed_cells(parent, registers, tables)
    every = []
    for child in parent.protos:
        typed = {}
        for n, (_, instack, idx, kind) in enumerate(child.upvals):
            if kind == 'value' and instack:
                held = int if idx in registers else LuaTable if idx in tables else None
            elif kind == 'cell' and instack:
                held = cells.get(idx)
            else:
                held = parent.typed_upvalues.get(idx) if kind in ('value', 'cell') else None
            if held is not None:
                typed[n] = held
        every.append(typed)
    return every


@analysis_pass
def typed_cells(p, registers, tables):
    """Registers of ``p`` whose every cell (``NEWCELL``) is made around a
    value of one class, ``int`` or ``LuaTable`` (see ``typed_upvalues``), and
    never assigned, by ``p`` or any function nested in it: register -> class."""
    made, assigned = {}, set()
    for k, ins in enumerate(p.code):
        if ins.op == 'SETCELL':
            assigned.add(ins.a)
        elif ins.op == 'NEWCELL':
            held = _class_before(p, k, ins.a, registers, tables)
            if held is None or made.setdefault(ins.a, held) is not held:
                assigned.add(ins.a)
    for c in p.protos:
        for n in assigned_upvalues(c):
            name, instack, idx, kind = c.upvals[n][:4]
            if instack:
                assigned.add(idx)
    return {r: held for r, held in made.items() if r not in assigned}


def _class_before(p, k, reg, registers, tables):
    """The class of what straight-line code before instruction ``k`` leaves
    in ``reg``, when it is sure to be ``int`` or ``LuaTable``; else None."""
    for j in range(k - 1, -1, -1):
        ins = p.code[j]
        if ins.op in BLOCK_OPS:
            return None
        if reg in writes(ins, p.maxreg):
            if ins.op == 'LOADK':
                return int if p.consts[-ins.b - 1].__class__ is int else None
            if ins.op == 'NEWTABLE':
                return LuaTable
            if ins.op == 'MOVE':
                return int if ins.b in registers else LuaTable if ins.b in tables else None
            if ins.op in INTEGER_OPS:
                known = all(x in registers if x >= 0 else int_constant(p, x) for x in integer_operands(ins))
                return int if known else None
            return None
    return None


@analysis_pass
def assigned_upvalues(p):
    """The upvalues of ``p`` that ``p`` or a function nested in it assigns."""
    assigned = {ins.b for ins in p.code if ins.op == 'SETUPVAL'}
    for c in p.protos:
        for n in assigned_upvalues(c):
            name, instack, idx, kind = c.upvals[n][:4]
            if not instack:
                assigned.add(idx)
    return assigned


# Instructions whose translation depends on what their operands hold.
_TYPED_READS = frozenset('''ADD SUB MUL DIV MOD POW IDIV BAND BOR BXOR SHL SHR UNM BNOT EQ NE LT LE
GETTABLE SETTABLE SELF CONCAT LEN FORPREP'''.split())


@analysis_pass
def _reach(p, registers):
    """``registers`` and the registers their copies reach."""
    copies = [(ins.b, ins.a) for ins in p.code if ins.op == 'MOVE']
    reach = set(registers)
    changed = True
    while changed:
        changed = False
        for source, target in copies:
            if source in reach and target not in reach:
                reach.add(target)
                changed = True
    return copies, reach


def _typed_operands(ins):
    """The registers (and constants) whose class operation ``ins`` is
    translated for, or () when it is none of those."""
    op = ins.op
    if op not in _TYPED_READS:
        return ()
    return range(ins.a, ins.a + 3) if op == 'FORPREP' else range(ins.a, ins.a + ins.b) \
        if op == 'CONCAT' else (ins.a, ins.b, ins.c) if op == 'SETTABLE' else (ins.b, ins.c)


def typed_reads(p, registers):
    """How many operations translated for a class read one of
    ``registers`` (or a copy of one): the checks a fact about them spares."""
    reach = _reach(p, registers)[1]
    return sum(1 for ins in p.code if any(r in reach for r in _typed_operands(ins)))


def relied_on(p, registers):
    """Those of ``registers`` whose class the translated code relies on: read
    by an operation translated for it (arithmetic, a comparison, an index),
    or copied into a register so read.  A local only returned or passed on
    relies on nothing (``debug.setlocal`` may change it freely)."""
    copies, reach = _reach(p, registers)
    relied = set()
    for ins in p.code:
        # The registers it reads (a constant operand is no register of these).
        relied.update(r for r in _typed_operands(ins) if r in reach)
    changed = True
    while changed:
        changed = False
        for source, target in copies:
            if target in relied and source in reach and source not in relied:
                relied.add(source)
                changed = True
    return relied & set(registers)
