"""``FunctionTranslator``: one prototype to Python.  It holds the output
helpers, what is known of registers, and the driver that walks the bytecode
(straight-line runs, the guards splitting them, structured blocks); the
instructions themselves are emitted by the mixins it is built from, one
family each."""
from __future__ import annotations

import itertools

from ...runtime.state import ANALYSE_INSTRUCTION, LAP, LAPIT_UNITS, TRANSLATE_INSTRUCTION, count_instructions
from ...runtime.table import LuaTable
from ..savedpc import CLOSE, ENTRY, MISS, zero_line
from .arithmetic import ArithmeticOps
from .calls import CallOps
from .control import ControlOps
from .dispatcher import Dispatcher
from .facts import (BLOCK_OPS, FRESH, FRESH_KEEPS, FUSABLE, LOOP_COST, OPENERS, TABLE, calls_inlined, charge_point,
                    continued_ends, counts_on_entry, global_field_reads, has_tail_calls, integer_registers, new_tables, relied_on, passes_results,
                    returns_integers, single_result,
                    too_deep_for_python, typed_reads, writes)
from .flow_types import integers_before
from .ir import NODES, Choice, Const, Forms, Line, Template, Wait, code
from .layout import hash_of
from .tables import TableOps

# Indexing instructions: the operand holding the table, and the key's.
_TABLE_OPERAND = {'GETTABLE': 'b', 'SELF': 'b', 'SETTABLE': 'a'}
_KEY_OPERAND = {'GETTABLE': 'c', 'SETTABLE': 'b'}
# What gives a key the run reads from elsewhere (a field name from a list, a node).
_READS = frozenset(('GETTABLE', 'GETTABUP', 'CALL', 'GETUPVAL', 'GETCELL'))
# Instructions writing one register that run no code (pending copies stay).
_LOADS = frozenset(('LOADK', 'LOADBOOL', 'GETUPVAL'))
_NUMERIC_OPS = frozenset('ADD SUB MUL DIV MOD POW IDIV BAND BOR BXOR SHL SHR EQ NE LT LE'.split())
_EQUALITY_OPS = frozenset(('EQ', 'NE'))
_FLOAT_OPS = frozenset(('ADD', 'SUB', 'MUL', 'DIV', 'UNM'))
_LOOP_OPS = frozenset(('LOOP', 'FORPREP', 'TFORPREP'))
_MAX_SPLITS = 10                   # guards splitting one straight-line run
_SPLIT_LIMIT = 150                 # longest run whose tail is duplicated
_DUPLICATE_LIMIT = 400             # instructions of a generic for body emitted twice


def count_of(instructions):
    """The units of ``LAPS`` that count ``instructions`` (``LOOP_COST``
    each, rounded, at least one)."""
    return max(1, (instructions + LOOP_COST // 2) // LOOP_COST)


class FunctionTranslator(ArithmeticOps, TableOps, CallOps, ControlOps):
    """Translates one prototype into ``out`` (an ``ir.Emitter``): its
    factory and function, whose renderings are its two forms."""

    def __init__(self, p, out, fname, pname, child_factories, fields, spare=0):
        self.p = p
        # Parameters past the function's own that take the arguments
        # calls may pass beyond them (module.spare_params).
        self.spare = spare
        # Keys the chunk's field reads usually find, and keys they often
        # miss (facts.held_fields); reads of a global's fields (mostly
        # libraries and modules) find any key but the latter.
        self.held, self.absent = fields
        self.global_reads = global_field_reads(p)
        self.out = out
        self.fname = fname
        self.pname = pname
        self.children = child_factories
        self.ind = 2
        self.line = p.line
        self.tbase = None             # register where pending multiple results (T) start
        self.stack = []               # open structured constructs
        self.uid = itertools.count()
        self.empty = []               # per open block: has it emitted a statement yet
        self.known_bool = None        # register the previous instruction set to a Python bool
        self.bool_expr = None         # (register, expr, line index, indent) of the last bool_line
        self.cold = False             # emitting the fallback of a split: compact code
        self.known = set()            # registers known to hold integers here
        self.flow = {}                # id(instruction) -> registers holding integers when it starts
        self.flow_ints = frozenset()  # the flow's registers at the instruction being translated
        self.positive = set()         # loop variables known to stay integers >= 1
        self.int_start = False        # the numeric for being opened starts at an integer
        self.tables = set()           # registers known to hold tables here
        self.not_tables = frozenset()  # registers known never to hold a table (a failed hoisted guard)
        self.new_tables = new_tables(p)  # registers only ever assigned a new table
        self.types = {}               # register -> what the straight-line code before left there
        self.result = None            # (register, kind) the current instruction leaves
        self.run_start = 0            # where the straight-line run being emitted starts
        # Copies into temporaries not written yet (temporary -> source
        # register): a call reading them as arguments reads the sources
        # (``emit_unit``); anything else writes them first (``flush``).
        self.moves = {}
        self.delaying = False         # the MOVE or SELF being emitted may leave its copy pending
        self.call_args = {}           # argument register -> the source the call being emitted reads
        # Registers holding what ``obj:m`` found on a table (op_SELF): the
        # method its call most likely makes of a Lua function (calls.guessed_call).
        self.methods = set()
        self.found_method = None      # the register the current instruction looked a method up into
        self.pending = {}             # register -> delayed arithmetic (expr, leaves, instrs)
        self.qname = 'Q' + pname[1:]   # the plain form's name; pname the generator form's
        # Code that divides or has float constants tries floats first.
        self.floaty = any(k.__class__ is float for k in p.consts) or any(
            ins.op in ('DIV', 'POW') for ins in p.code)
        self.next_bool = None
        # In the body under hoisted guards whose own calls passing them
        # return integers (``returns_integers``): the guarded (ints, tables).
        self.int_results = None
        self.allocates = False        # has the function being emitted accounted an allocation
        self.tail_calls = has_tail_calls(p)   # ``return f(...)`` is a tail call (see calls.tail_call)

    # ------------------------------------------------------------ output
    def w(self, template, *args):
        """A statement: ``template`` with ``args`` as ``ir.code`` takes them
        (its rule inlined: this is the translator's most frequent call)."""
        if args:
            for a in args:
                if a.__class__ in NODES:
                    template = Template(template, args)
                    break
            else:
                template = template % args
        self.out.items.append(Line(self.ind, template, self.line))
        if self.empty:
            self.empty[-1] = False

    def leave(self, template, *args):
        """A statement that leaves the function (a ``return``) at the
        current indentation: the rest of its block is not rendered."""
        self.w(template, *args)
        self.out.items[-1].exits = True

    def note_call(self, note, statements=1):
        """The ``statements`` just written call the function ``note`` describes
        (``''``: one its code does not name, which ends a lookahead for a name)."""
        for item in self.out.items[-statements:]:
            item.note = '' if note is None else note

    def debt(self, size):
        """The statement accounting an allocation of ``size`` bytes."""
        self.allocates = True
        return 'DEBT += %d' % size

    def wait(self, template, *args):
        """A call whose callee may suspend the Lua thread: the generator form
        delegates to it, the plain form runs it to its end (``SYNC``)."""
        return Wait(code(template, *args) if args else template)

    def meta_wait(self, helper, template, *args):
        """``helper`` (an operation of ``ops`` that may run a metamethod)
        called with ``template``'s arguments: the generator form delegates
        to it, the plain form calls its twin ``<helper>_plainly``, which runs
        a Lua function handling a table without the operation's generator."""
        return Choice(code(helper + '_plainly' + template, *args), self.wait(helper + template, *args))

    def open(self, text, kind, data=None):
        self.w(text)
        self.stack.append((kind, data))
        self.ind += 1
        self.empty.append(True)

    def close_block(self):
        if self.empty.pop():
            self.w('pass')
        self.ind -= 1

    def tmp(self, prefix='t'):
        return '_%s%d' % (prefix, next(self.uid))

    def r(self, i):
        return 'r%d' % i

    def rk(self, x):
        if x < 0:
            return Const(self.p.consts[-x - 1])
        return 'r%d' % x

    def const(self, x):
        return x < 0, (self.p.consts[-x - 1] if x < 0 else None)

    # -------------------------------------------------------------- driver
    def run(self):
        """Translate the prototype once: its factory and function, whose two
        renderings are the plain form and the generator form.

        The plain form, the function value itself, serves callers that
        cannot yield, code outside any coroutine (where every yield is an
        error anyway) and Lua's C-call boundaries; its slow paths run
        synchronously.  In the generator form calls are ``yield from``, so
        a host function can suspend the whole Lua thread; it must be a
        generator even when its body never yields.  Most functions never
        run in it, so it is rendered and compiled when first needed and
        made from a plain form's cells; its factory (``G...``) is never
        called, it only gives the generator form's code the plain factory's
        names as free variables."""
        p = self.p
        params, envs = self.factory_params()
        plain_head = [Line(0, 'def %s(%s):' % (self.fname, params), p.line)]
        # A global read looks in the environment's dict first (EH, or its
        # bound get E for a global often absent): a table's dict is never
        # replaced (a ClassHash keeps the dict it took over up to date),
        # and a miss (or an environment that is no table) takes the full
        # path.
        plain_head.extend(Line(1, '%s = (%s if U%d.__class__ is Table else NOHASH)%s'
                               % (name, hash_of('U%d' % i), i, '' if name.startswith('EH') else '.get'), p.line)
                          for name, i in envs)
        generator_head = [Line(0, 'def G%s(%s):' % (self.fname[1:], params), p.line),
                          Line(1, '%s = None' % ' = '.join([name for name, i in envs] + [self.qname]), p.line)]
        self.out.add(Forms(plain_head, generator_head))
        self.function()
        # Whole: the generator form's closing ``yield``, which makes it a
        # generator, follows its last ``return``.
        self.out.add(Forms([Line(1, 'return %s' % self.qname, p.end_line)],
                           [Line(2, 'yield', p.end_line)], whole=True))

    def factory_params(self):
        """A factory's parameters (the upvalues) and the upvalues read as
        environments through their dicts: ``(name, upvalue)`` for the dict
        (``EH``) and its bound get (``E``) as the reads need them."""
        p = self.p
        params = ', '.join('U%d' % i for i, uv in enumerate(p.upvals) if uv[3] != 'self')
        envs = sorted({('EH%d' if self.held_global(ins) else 'E%d') % ins.b for ins in p.code
                       if ins.op == 'GETTABUP' and p.upvals[ins.b][3] == 'value'})
        return params, [(name, int(name.lstrip('EH'))) for name in envs]

    def function(self):
        p = self.p
        self.ind = 2
        self.stack = []
        self.known = set()
        self.positive = set()
        self.tables = set(self.new_tables)
        params = ['r%d=None' % i for i in range(p.numparams)] + ['_x%d=None' % i for i in range(self.spare)]
        if p.is_vararg:
            params.append('*VA')
        self.allocates = False
        self.laps = False
        # Where the function counts its length: before instruction
        # ``charge_at``, on entry (None), nowhere (-1), or at each call
        # made (``charge_calls``).
        self.charge_calls = calls_inlined(p)
        self.charge_at = -1 if self.charge_calls or not counts_on_entry(p) else charge_point(p)
        self.zero_entry, self.zero_marks, self.zero_misses = zero_line_tracking(p)
        self.continued = None         # continued_ends, made when a CONTINUE needs it
        self.miss_line = None         # the line the read being translated records when it misses
        body = self.out.collect(self.function_body)
        entry = self.charge() if self.charge_at is None else None
        out = self.out
        out.line(1, code('def %s(%s):', Choice(self.qname, self.pname), ', '.join(params)), p.line)
        # Allocations are accounted, by the functions that allocate; the
        # budget by those that count it.
        if self.allocates:
            out.line(2, 'nonlocal DEBT', p.line)
        if self.laps:
            out.line(2, 'nonlocal LAPS', p.line)
        for line in entry or ():
            out.line(2, line, p.line)
        if self.zero_entry is not None:
            out.line(2, '_zl = %d' % self.zero_entry, p.line)
        out.extend(body)

    def function_body(self):
        p = self.p
        if p.has_goto or too_deep_for_python(p):
            # The dispatcher's blocks may read registers on paths Python cannot see.
            others = ['r%d' % i for i in range(p.numparams, p.maxreg)]
            if others:
                self.out.line(2, ' = '.join(others) + ' = None', p.line)
            self.empty.append(True)
            Dispatcher(self).run()
            self.empty.pop()
            return
        ints, tables = self.typed_params()
        if not self.worth_hoisting(ints, tables):
            ints, tables = [], []
        integers = integer_registers(p, ints)
        general_flow = integers_before(p)
        special_flow = integers_before(p, ints) if ints else general_flow
        # What the code below takes the registers it reads to hold, whichever body runs.
        typed = dict.fromkeys(integers, int)
        typed.update(dict.fromkeys(set(tables) | self.new_tables, LuaTable))
        for state in itertools.chain(general_flow.values(), special_flow.values()):
            for r in state:
                typed.setdefault(r, int)
        p.typed_registers = {r: typed[r] for r in relied_on(p, typed)}
        if ints or tables:
            # Guards hoisted once per value: a body specialised for integer
            # and table parameters, and the generic body for everything else.
            guards = ['r%d.__class__ is int' % r for r in ints]
            guards += ['r%d.__class__ is Table' % r for r in tables]
            self.out.line(2, 'if %s:' % ' and '.join(guards), p.line)
            if single_result(p) and returns_integers(p, ints, tables):
                # Its own calls that pass these guards return integers: every
                # return gives one if they do, so by induction on the depth
                # of calls they do.
                self.int_results = (ints, tables)
            self.flow = special_flow
            self.specialised_body(integers, tables)
            self.int_results = None
            self.out.line(2, 'else:', p.line)
            self.tables = set(self.new_tables)
            if not ints and len(tables) == 1:
                # The one guard failed, and a hoisted parameter is never
                # assigned: no split below may test it again.
                self.not_tables = frozenset(tables)
        self.known = set(integer_registers(p) if ints else integers)
        self.flow = general_flow
        self.body()
        self.flow = {}
        self.not_tables = frozenset()

    def worth_hoisting(self, ints, tables):
        """Do guards on parameters ``ints`` and ``tables`` spare more checks
        than their own?  A body specialised under them doubles the
        function's code; where only tables are guarded, what they tell is
        read once and nothing loops, the general body makes that one check
        itself (or none: a field read tries the hash part).  An integer
        guard always pays: the general body tests both operands of
        arithmetic on two unknowns."""
        if ints:
            return True
        if not tables:
            return False
        return any(ins.op in _LOOP_OPS for ins in self.p.code) or typed_reads(self.p, tables) > 1

    def specialised_body(self, integers, tables):
        """The body where hoisted guards hold: these parameters hold tables,
        and these registers integers wherever read."""
        self.ind = 3
        self.known = set(integers)
        self.tables = set(tables) | self.new_tables
        self.body()

    def body(self):
        self.empty.append(True)
        self.tbase = None
        self.emit_range(0, len(self.p.code))
        self.empty.pop()

    def emit_range(self, lo, hi):
        code = self.p.code
        self.types.clear()
        k = lo
        while k < hi:
            if code[k].op in BLOCK_OPS:
                k = self.emit_block_op(k)
                continue
            end = k
            while end < hi and code[end].op not in BLOCK_OPS:
                end += 1
            # Python's parser allows 100 levels of indentation; splits nest.
            short = end - k <= _SPLIT_LIMIT and self.ind < 60
            self.emit_run(k, end, _MAX_SPLITS if short else 0)
            k = end
        self.flush()
        self.types.clear()

    def emit_block_op(self, k):
        """Emit the structured instruction at ``k``; the index after it."""
        code = self.p.code
        ins = code[k]
        if ins.op == 'TFORPREP':
            end = self.matching_end(k)
            if end - k < _DUPLICATE_LIMIT and not any(
                    c.op == 'TFORPREP' for c in code[k + 1:end]):
                self.generic_for_twice(k, end)
                return end + 1
        self.step(ins)
        return k + 1

    def emit_run(self, k, hi, splits):
        """Emit straight-line code ``k..hi``.  Up to ``splits`` guards on what
        the rest of the run needs (a register indexed three or more times is
        a table; in float code, the operands of arithmetic are floats) open
        nested ``if``s in which the rest knows it; a failed guard records
        where the one general copy of the rest, emitted after them, resumes
        (with one guard, the general copy is simply its ``else``)."""
        points = []                   # where guards split the run
        stage = saved = None
        self.run_start = k
        while k < hi:
            # An instruction may open more than one guard (a key's, then its table's).
            while len(points) < splits and self.tbase is None and self.split_guard(k, hi) is not None:
                # Pending arithmetic runs first: what it leaves may be known.
                self.flush()
                guard = self.split_guard(k, hi)
                if guard is None:
                    break
                if not points:
                    stage = self.tmp('s')
                    saved = (dict(self.types), self.known_bool, self.next_bool)
                cond, facts = guard
                self.w('if %s:' % cond)
                self.ind += 1
                self.empty.append(True)
                self.types.update(facts)
                points.append(k)
            k = self.emit_unit(k, hi)
        self.flush()
        if not points:
            return
        if len(points) == 1:
            # One guard: the general copy of the rest is its else branch.
            self.close_block()
            self.w('else:')
            self.general_copy(points, hi, saved)
            return
        self.w('%s = %d' % (stage, hi))
        for point in reversed(points):
            self.close_block()
            self.w('else: %s = %d' % (stage, point))
        self.w('if %s < %d:' % (stage, hi))
        self.general_copy(points, hi, saved, stage)

    def general_copy(self, points, hi, saved, stage=None):
        """The general copy of a split run, in the block just opened: each
        part runs when a guard before it failed (``stage``: where)."""
        self.types, self.known_bool, self.next_bool = saved
        cold, self.cold = self.cold, True
        self.ind += 1
        self.empty.append(True)
        for n, point in enumerate(points):
            end = points[n + 1] if n + 1 < len(points) else hi
            if end == point:
                continue              # two guards at one instruction: nothing between them
            if stage is not None:
                self.w('if %s <= %d:' % (stage, point))
                self.ind += 1
                self.empty.append(True)
            k = point
            while k < end:
                k = self.emit_unit(k, end)
            self.flush()
            if stage is not None:
                self.close_block()
        self.close_block()
        self.cold = cold

    def emit_unit(self, k, hi):
        """Emit the instruction at ``k`` (with the ones it fuses with); the
        index after them."""
        code = self.p.code
        ins = code[k]
        # The flow's facts hold for the whole run (``flow_types.straight``):
        # set here, not only by ``step``, so that arithmetic fused or
        # delayed at the run's head does not see the block op's before it.
        self.flow_ints = self.flow.get(id(ins), frozenset())
        if ins.op == 'LEN' and k + 2 < hi and self.is_append(code[k:k + 3]):
            self.flush()
            self.line = ins.line
            self.known_bool = self.next_bool = None
            self.mark_saves(code[k:k + 3])
            self.append(*code[k:k + 3])
            for done in code[k:k + 3]:
                self.forget(done)
            return k + 3
        if ins.op == 'GETTABLE' and k + 2 < hi and not self.cold:
            self.flush()          # as before any instruction that is not fused
            if self.is_field_update(code[k:k + 3]):
                update, n = code[k:k + 3], 3
            elif k + 3 < hi and self.is_number_op_between(*code[k:k + 2]) and \
                    self.is_field_update((code[k], code[k + 2], code[k + 3])):
                # t.k = t.k + a * b with a and b numbers: the product first.
                self.step(code[k + 1])
                update, n = (code[k], code[k + 2], code[k + 3]), 4
            else:
                update = None
            if update is not None:
                self.line = ins.line
                self.known_bool = self.next_bool = None
                self.mark_saves(update)
                self.field_update(*update)
                return k + n
        if ins.op == 'NEWTABLE' and k != self.charge_at:
            tree = self.constant_tree(k, hi)
            if tree is not None and tree.end > k + 1 and self.charge_at not in range(k + 1, tree.end):
                count_instructions((tree.end - k) * TRANSLATE_INSTRUCTION)      # the cancel check
                self.flush()
                self.line = ins.line
                self.known_bool = self.next_bool = None
                self.mark_saves(code[k:tree.end])
                self.constant_constructor(code[k:tree.end], tree)
                return tree.end
            n = self.constructor_fields(k, hi)
            if n and self.charge_at not in range(k + 1, k + n + 1):
                count_instructions((n + 1) * TRANSLATE_INSTRUCTION)      # the cancel check
                self.flush()
                self.line = ins.line
                self.known_bool = self.next_bool = None
                self.mark_saves(code[k:k + n + 1])
                self.constructor(ins, code[k + 1:k + n + 1])
                return k + n + 1
        if ins.op == 'MOVE' and k != self.charge_at and self.delays(ins):
            self.delaying = True
            self.step(ins)
            self.delaying = False
            return k + 1
        if ins.op == 'CALL':
            self.call_args = self.take_moves(ins)
        elif ins.op in FUSABLE and self.moves and not self.keeps_moves(ins):
            self.flush_moves()
        elif ins.op in _LOADS and self.moves and k != self.charge_at and self.untouched(ins.a):
            # A constant or an upvalue's value into a temporary runs nothing:
            # the copies stay pending (arithmetic pending may read the target).
            self.flush_trees()
            self.step(ins)
            return k + 1
        if ins.op in FUSABLE:
            count_instructions(TRANSLATE_INSTRUCTION)            # the cancel check
            self.line = ins.line
            self.mark_saves((ins,))       # arithmetic on a string constant saves
            self.fuse(ins)
            return k + 1
        self.flush()
        if k == self.charge_at:
            for line in self.charge() or ():
                self.w(line)
        # ``return f(...)``: the call's results are the function's.
        tail = ins.op == 'CALL' and self.tail_calls and k + 1 < hi and passes_results(ins, code[k + 1])
        self.delaying = ins.op == 'SELF'
        self.step(ins, tail)
        self.delaying = False
        self.call_args = {}
        return k + (2 if tail else 1)

    def delays(self, ins):
        """May MOVE ``ins`` leave its copy pending (``moves``)?  Its target
        must be a temporary (read once, by what needed it: Lua's code for
        a call moves each argument into the register above the last) that
        no pending copy involves, its source no pending copy's target, and
        no arithmetic be pending (it may compute the source)."""
        moves = self.moves
        return (ins.temp and not self.pending and ins.b not in moves
                and ins.a not in moves and ins.a not in moves.values())

    def untouched(self, r):
        """Is register ``r`` neither a pending copy's target nor its source?"""
        return r not in self.moves and r not in self.moves.values()

    def keeps_moves(self, ins):
        """May arithmetic ``ins`` be emitted with copies pending?  Only on
        numbers known here (no metamethod can run and see the copies'
        registers), reading none of their targets and writing none of
        their registers."""
        operands = [x for x in ((ins.b,) if ins.op == 'UNM' else (ins.b, ins.c)) if x >= 0]
        moves = self.moves
        return (all(self.isint(x) or self.isfloat(x) for x in operands)
                and not any(x in moves for x in operands) and self.untouched(ins.a))

    def take_moves(self, ins):
        """The pending copies into the arguments of CALL ``ins`` (nothing
        runs between them and the call: any other instruction writes them
        first), removed from ``moves``: the call reads their sources."""
        last = ins.a + ins.b if ins.b != -1 else (self.tbase or 0) - 1
        return {r: self.moves.pop(r) for r in list(self.moves) if ins.a < r <= last}

    def flush_moves(self):
        """Write the pending copies (before anything else reads or writes
        their registers)."""
        for r, source in self.moves.items():
            self.w('r%d = r%d', r, source)
        self.moves.clear()

    def arg(self, r):
        """The name a call being emitted reads its argument register ``r`` by."""
        return 'r%d' % self.call_args.get(r, r)

    def track_zero_line(self, ins):
        """``_zl``, the line a division by zero names when the run decides it
        (``savedpc.zero_line``): each of its candidates sets it to its line
        as it saves, a read that misses on its miss path (``miss_line``,
        which ``get`` reads).  A generic for saves at each call of its
        iterator, at the head of its body (``mark_loop_head``)."""
        if ins.op != 'TFORPREP':
            for line in self.zero_marks.get(id(ins), ()):
                self.w('_zl = %d', line)
        self.miss_line = self.zero_misses.get(id(ins))

    def mark_saves(self, instrs):
        """The lines of ``track_zero_line`` for instructions translated
        together (a read among them does not decide: a store follows it)."""
        if self.zero_marks:
            for ins in instrs:
                for line in self.zero_marks.get(id(ins), ()):
                    self.w('_zl = %d', line)

    def continue_marks(self, ins):
        """The lines ``track_zero_line`` sets at the END of the loop that
        CONTINUE ``ins`` continues: the iteration's end runs on its way."""
        if not self.zero_marks:
            return ()
        if self.continued is None:
            self.continued = continued_ends(self.p.code)
        return self.zero_marks.get(id(self.continued[id(ins)]), ())

    def mark_loop_head(self, ins):
        """At the head of generic for ``ins``'s body: its iterator's call saved."""
        for line in self.zero_marks.get(id(ins), ()):
            self.w('_zl = %d', line)

    def charge(self):
        """The lines counting a call's instructions (the function's length)."""
        return self.count_units(len(self.p.code))

    def count_units(self, instructions):
        """The lines counting ``instructions`` on ``LAPS``, the VM's
        countdown shared by all code, in units of ``LOOP_COST``
        instructions (rounded, at least one), charged to the budget a lap
        of ``LAP`` units at a time.  A small int's subtraction and test
        cost about half a float budget's (``STEPS``) and allocate nothing;
        a count of one unit tests for zero, a larger one for less than
        one, and every test resets what it finds run out, so ``LAPS`` is
        positive between them and no zero is skipped.  The reset comes
        before the charge, whose check may raise."""
        self.laps = True
        units = count_of(instructions)
        if units == 1:
            return ['LAPS -= 1', 'if not LAPS: LAPS = %d; TICKN(%d)' % (LAP, LAP * LOOP_COST)]
        return ['LAPS -= %d' % units, self.lap_end()]

    def range_charge(self, cost, count):
        """The lines counting, on ``LAPS`` as ``count_units`` does and before
        it starts, the iterations of ``cost`` instructions of a short
        numeric ``for`` (``count``: the name of their number less one).
        Small ints, where a float budget's ``STEPS - 16 * (n + 1)`` mixed
        types that CPython does not specialise: 20 ns a loop entered
        against 48."""
        self.laps = True
        units = count_of(cost)
        amount = '%s + 1' % count if units == 1 else '%d * %s + %d' % (units, count, units)
        return ['LAPS -= ' + amount, self.lap_end()]

    def lap_end(self):
        """The line charging the lap that a count of ``LAPS`` below one
        ended, what it ran past the lap included."""
        return 'if LAPS < 1: LAPS = %d - LAPS; TICKN(%d * LAPS); LAPS = %d' % (LAP, LOOP_COST, LAP)

    def lap_loop(self, cost):
        """The head of a ``while`` loop whose iterations of ``cost``
        instructions ``LAPIT<units>`` counts, an item each (``VM._lap``),
        or None when they are too long for it (the body counts them,
        ``loop_check``)."""
        laps = self.laps_of(cost)
        return laps and 'for _lap in %s:' % laps

    def lap_iterator(self, cost, it):
        """What a generic ``for`` whose iterations of ``cost`` instructions
        ``LAPIT<units>`` counts runs over, for iterator ``it``: ``COMPRESS``
        takes an item of it (always true) with each of ``it``'s.  None when
        they are too long for it (the body counts them)."""
        laps = self.laps_of(cost)
        return laps and 'COMPRESS(%s, %s)' % (it, laps)

    def laps_of(self, cost):
        """The ``LAPIT<units>`` counting iterations of ``cost`` instructions, or None."""
        units = count_of(cost)
        return 'LAPIT%d' % units if units <= LAPIT_UNITS else None

    def split_guard(self, k, hi):
        """``(condition, facts)`` worth a split before instruction ``k``, or None."""
        ins = self.p.code[k]
        field = _TABLE_OPERAND.get(ins.op)
        if field is not None:
            key = _KEY_OPERAND.get(ins.op)
            keys = self.key_operands(k, hi) if key is not None else ()
            if any(getattr(ins, key) in holders for _, holders in keys):
                facts = {r: int for _, holders in keys for r in holders}
                return ' and '.join('r%d.__class__ is int' % tested for tested, _ in keys), facts
            t = getattr(ins, field)
            # A guard and its bookkeeping cost about two class checks.
            if not self.istable(t) and t not in self.not_tables and self.table_uses(t, k, hi) >= 3:
                return 'r%d.__class__ is Table' % t, {t: TABLE}
            return None
        if not self.floaty or ins.op not in _FLOAT_OPS:
            return None
        operands = (ins.b,) if ins.op == 'UNM' else (ins.b, ins.c)
        if not any(x >= 0 and self.unknown_number(x) for x in operands):
            return None
        regs = self.float_operands(k, hi)
        return ' and '.join('r%d.__class__ is float' % r for r in regs), dict.fromkeys(regs, float)

    def unknown_number(self, r):
        return not (self.isint(r) or self.types.get(r) is float)

    def table_uses(self, t, k, hi):
        """How often ``t`` is indexed from ``k`` on before it is assigned."""
        uses = 0
        for ins in self.p.code[k:hi]:
            field = _TABLE_OPERAND.get(ins.op)
            if field is not None and getattr(ins, field) == t:
                uses += 1
            if t in writes(ins, self.p.maxreg):
                break
        return uses

    def key_operands(self, k, hi):
        """``(tested, holders)`` for each value of unknown type that indexes
        tables as a key at least twice from ``k`` on (``t[i] = t[i] + 1``;
        ``v[i], v[j] = v[j], v[i]``, whose stores index with copies of the
        keys made before the reads): the register of the run's head or the
        copy holding it at ``k`` that a guard tests, and all of those, the
        facts the guard gives.  One guard that it is an integer spares each
        access its test of the key's class and its branches for other keys;
        a key of another class (a string) fails it once and takes the
        general copy, which tests as before.  A key the run reads from a
        table, an upvalue or a call's results gets no such guess."""
        code = self.p.code
        value = {}                    # register -> the value it holds (a copy keeps its source's)
        computed = itertools.count(self.p.maxreg)     # values the run computes
        read = set()                  # of those, what table reads, upvalues and calls gave
        at_k = {}
        uses = {}
        for n in range(self.run_start, hi):
            ins = code[n]
            if n == k:
                at_k = dict(value)
            field = _KEY_OPERAND.get(ins.op)
            if n >= k and field is not None and getattr(ins, field) >= 0:
                v = value.get(getattr(ins, field), getattr(ins, field))
                uses[v] = uses.get(v, 0) + 1
            source = value.get(ins.b, ins.b) if ins.op == 'MOVE' else None
            for r in writes(ins, self.p.maxreg):
                value[r] = next(computed)
                if ins.op in _READS:
                    read.add(value[r])
            if source is not None:
                value[ins.a] = source
        guarded = []
        for v, n in uses.items():
            holders = [r for r in range(self.p.maxreg) if at_k.get(r, r) == v]
            # A key read from elsewhere (``r[FIELDS[i]]``) is as likely a string.
            if n >= 2 and holders and v not in read and not any(self.never_nil(r) for r in holders):
                guarded.append((holders[0], holders))
        return guarded

    def float_operands(self, k, hi):
        """Registers of unknown type that the arithmetic of ``k..hi`` reads
        before anything assigns them (so they hold their values already)."""
        regs = []
        written = set()
        for ins in self.p.code[k:hi]:
            if ins.op in _FLOAT_OPS:
                operands = (ins.b,) if ins.op == 'UNM' else (ins.b, ins.c)
                regs.extend(x for x in operands if x >= 0 and x not in written and x not in regs
                            and self.unknown_number(x))
            written.update(writes(ins, self.p.maxreg))
        return regs

    def step(self, ins, tail=False):
        """Translate one instruction, keeping track of what is known of registers."""
        count_instructions(TRANSLATE_INSTRUCTION)            # the cancel check
        self.line = ins.line
        self.known_bool = self.next_bool
        self.next_bool = None
        self.flow_ints = self.flow.get(id(ins), frozenset())
        if ins.op in BLOCK_OPS:
            # A numeric for whose start and step are integers counts in integers.
            self.int_start = ins.op == 'FORPREP' and self.isint(ins.a)
            self.types.clear()
        self.result = self.found_method = None
        if self.zero_marks or self.zero_misses:
            self.track_zero_line(ins)
        if tail:
            self.op_CALL(ins, tail)
        else:
            getattr(self, 'op_' + ins.op)(ins)
            if ins.op == 'TFORPREP' and self.zero_marks:
                self.mark_loop_head(ins)
        self.miss_line = None
        self.forget(ins)
        if ins.op not in FRESH_KEEPS or ins.op == 'SETTABLE' and self.types.get(ins.a) is not FRESH:
            for r, kind in self.types.items():
                if kind is FRESH:
                    self.types[r] = TABLE
        if self.result is not None:
            self.types[self.result[0]] = self.result[1]
        if self.found_method is not None:
            self.methods.add(self.found_method)

    def forget(self, ins):
        """After control flow nothing is known of registers; after a write,
        nothing of the registers written."""
        if ins.op in BLOCK_OPS:
            self.types.clear()
            self.methods.clear()
        else:
            for r in writes(ins, self.p.maxreg):
                self.types.pop(r, None)
                self.methods.discard(r)

    def declare(self, reg, kind):
        """The instruction being translated leaves ``kind`` (int, float,
        str, bool, TABLE, FRESH or OWN, the function's own value) in
        ``reg``: whatever it is, no nil."""
        self.result = (reg, kind)

    def typed_params(self):
        """Parameters never assigned and used as numbers or indexed as tables
        (``self.x``, ``t[i]``): each worth one hoisted guard."""
        p = self.p
        count_instructions(len(p.code) * ANALYSE_INSTRUCTION)      # the cancel check
        written = set()
        numbers = set()
        tables = set()
        for ins in p.code:
            written.update(writes(ins, p.maxreg))
            if ins.op in _NUMERIC_OPS and (ins.op not in _EQUALITY_OPS or not self.non_number_compared(ins)):
                numbers.update(x for x in (ins.b, ins.c) if isinstance(x, int) and 0 <= x < p.numparams)
            if ins.op in _TABLE_OPERAND and 0 <= getattr(ins, _TABLE_OPERAND[ins.op]) < p.numparams:
                tables.add(getattr(ins, _TABLE_OPERAND[ins.op]))
        # Float code's numbers are rarely integers: an integer guard there
        # would send most calls to the general body.  A parameter also
        # indexed is no integer: guarding it as both would never pass.
        ints = [] if self.floaty else sorted(numbers - written - tables)[:3]
        return ints, sorted(tables - written)[:2]

    def non_number_compared(self, ins):
        """Is ``==``/``~=`` instruction ``ins`` a test against a constant
        that is no number?  ``x == nil`` or ``x == "s"`` says nothing of
        what ``x`` holds (``x == y`` of two registers is taken as a hint)."""
        return any(x < 0 and self.p.consts[-x - 1].__class__ not in (int, float) for x in (ins.b, ins.c))

    def never_nil(self, r):
        """Is register ``r`` known to hold a value of some type (so no nil)?"""
        return self.isint(r) or r in self.types

    def isint(self, x):
        if x < 0:
            return self.p.consts[-x - 1].__class__ is int
        return x in self.known or x in self.flow_ints or self.types.get(x) is int

    def isfloat(self, x):
        if x < 0:
            return self.p.consts[-x - 1].__class__ is float
        return self.types.get(x) is float

    def istable(self, r):
        return r in self.tables or self.types.get(r) in (TABLE, FRESH)

    def matching_end(self, k):
        code = self.p.code
        depth = 0
        for j in range(k + 1, len(code)):
            op = code[j].op
            if op in OPENERS:
                depth += 1
            elif op == 'END':
                if depth == 0:
                    return j
                depth -= 1
        raise AssertionError('unbalanced bytecode')


def zero_line_tracking(p):
    """(line set at the function's start or None, {id of an instruction:
    the lines set before it, or at its body's head for a generic for}, {id
    of a read: the line set when it misses}) for the divisions of ``p``
    whose reported line the run decides (``savedpc.zero_line``)."""
    entry, marks, misses = None, {}, {}
    for ins in p.code:
        z = (ins.op == 'IDIV' or ins.op == 'MOD') and zero_line(ins.note)
        if z:
            for kind, pc, line in z.marks:
                if kind == ENTRY:
                    entry = line
                elif kind == MISS:
                    misses[id(p.code[pc])] = line
                else:
                    lines = marks.setdefault(id(p.code[pc]), [])
                    if line not in lines:
                        # A block's close comes before the instruction's own save.
                        lines.insert(0, line) if kind == CLOSE else lines.append(line)
    return entry, marks, misses
