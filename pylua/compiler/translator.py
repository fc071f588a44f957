"""Translator: bytecode prototypes -> Python source for generator functions.

Each prototype becomes a factory ``F<n>(U0, U1, ...)`` taking its upvalue
cells (one-element lists) and returning the generator function ``P<n>`` whose
registers are Python locals.  Fast paths are guarded by exact class checks;
everything else goes to the runtime helpers named in ``pylua.runtime.ops``
(installed as the module globals).  A Lua call is ``yield from``, so host
functions can suspend the whole Lua thread from any depth.

Instruction counting: functions that call add their size to the VM's
``STEPS`` budget (a closure cell shared by all its code) on entry; loops count iterations in a local and settle in
chunks, so the cancel check runs about every 10,000 instructions at a small
cost per iteration.
"""
from __future__ import annotations

import itertools
import math
from functools import partial

from .bytecode import Proto
from .intrinsics import INTRINSICS, SLOT_COST

CHECK_INTERVAL = 10000
LOOP_COST = 16                     # instructions counted per numeric for iteration
TABLE_COST = 200
MAXINT = (1 << 63) - 1
MININT = -(1 << 63)
_unique = itertools.count()


class Translation:
    def __init__(self, source, lines, calls, main_factory, proto_names, predicates, orders,
                 generator_forms):
        self.source = source          # Python source text
        self.lines = lines            # lua line for each Python line (index = python line)
        self.calls = calls            # python line -> called function's description
        self.main_factory = main_factory
        self.proto_names = proto_names  # python function name -> (Proto, description)
        self.predicates = predicates  # plain forms that always return one Python bool
        self.orders = orders          # plain forms that are ``a < b`` or ``a > b``: 'lt'/'gt'
        self.generator_forms = generator_forms  # plain form -> () -> its generator form's
        #                                         (source, lines, calls), made when needed


def translate(main: Proto) -> Translation:
    uid = next(_unique)
    out = _Out()
    names = {}
    predicates = set()
    orders = {}
    generator_forms = {}
    counter = itertools.count()

    def walk(p, desc):
        n = next(counter)
        fname = 'F%d_%d' % (uid, n)
        pname = 'P%d_%d' % (uid, n)
        names[pname] = (p, desc)
        names['Q' + pname[1:]] = (p, desc)
        if _is_predicate(p):
            predicates.add('Q' + pname[1:])
        order = _plain_order(p)
        if order is not None:
            orders['Q' + pname[1:]] = order
        child_factories = [walk(c, 'function <%s:%d>' % (c.chunkname, c.line)) for c in p.protos]
        _FuncTranslator(p, out, fname, pname, child_factories).run()
        generator_forms['Q' + pname[1:]] = partial(_generator_form, p, fname, pname, child_factories)
        return fname

    main_factory = _in_module(out, [], lambda: walk(main, 'main chunk'))
    return Translation(out.text(), out.lines, out.calls, main_factory, names, predicates,
                       orders, generator_forms)


def _in_module(out, names, emit):
    """Emit ``emit()``'s prototypes inside MODULE, whose free variables STEPS
    and DEBT the loader binds to the VM's instruction-budget and
    allocation-debt cells (a cell is cheaper than a global); ``names`` are
    MODULE's other names the prototypes use.  MODULE returns what ``emit``
    returns, the name of a factory."""
    out.line(0, 'def OUTER():', 0)
    out.line(1, 'STEPS = DEBT = 0', 0)
    out.line(1, 'def MODULE():', 0)
    if names:
        out.line(2, '%s = None' % ' = '.join(names), 0)
    out.base = 2
    factory = emit()
    out.base = 0
    out.line(2, 'return %s' % factory, 0)
    out.line(1, 'return MODULE', 0)
    return factory


def _generator_form(p, fname, pname, children):
    """The generator form of one function, translated when first needed:
    (source, lua line per Python line, calls).  Its code's free variables
    have the names of the plain form's, so it runs on the plain form's cells."""
    out = _Out()
    _in_module(out, children, lambda: _FuncTranslator(p, out, fname, pname, children).run_generator_form())
    return out.text(), out.lines, out.calls


# CPython compares integers of one 30-bit digit on its fast path, but not
# bigger constants such as 2**63: range checks test against SMALL first.
SMALL = (1 << 30) - 1


def _wrap_check(a):
    """Wrap ``a`` to 64 bits when outside them: past SMALL, one method call
    is cheaper than two comparisons with big constants (-2**63 is wrapped
    to itself)."""
    return 'if (%s > %d or %s < %d) and %s.bit_length() > 63: %s = wrap(%s)' % (
        a, SMALL, a, -SMALL, a, a, a)


def _passes_results(call, ret):
    """``CALL a`` keeping all results, then ``RETURN a`` of all of them."""
    return call.c == -1 and ret.op == 'RETURN' and ret.a == call.a and ret.b == -1


def _returns(p):
    """The RETURN instructions of ``p`` that can run: the one a code generator
    adds after a last ``return x`` of the body is never reached."""
    code = p.code
    last = code[-1]
    dead = len(code) > 1 and code[-2].op == 'RETURN' and code[-2].b == 1 and _depth_at_end(code) == 0
    return [ins for ins in code if ins.op == 'RETURN' and not (dead and ins is last)]


def _depth_at_end(code):
    """How many structured blocks are open before the last instruction."""
    depth = 0
    for ins in code[:-1]:
        if ins.op in _OPENERS:
            depth += 1
        elif ins.op == 'END':
            depth -= 1
    return depth


def _plain_order(p):
    """'lt' for a function that is exactly ``return a < b`` of its two
    parameters, 'gt' for ``return a > b``, else None.  As a sort comparator
    on numbers or strings it is the natural order, or its reverse."""
    if p.numparams != 2 or p.is_vararg or p.upvals or len(p.code) != 3:
        return None
    cmp, ret = p.code[0], p.code[1]
    if cmp.op != 'LT' or ret.op != 'RETURN' or ret.a != cmp.a or ret.b != 1:
        return None
    return {(0, 1): 'lt', (1, 0): 'gt'}.get((cmp.b, cmp.c))


def _charge_point(p):
    """Where a function that calls counts its instructions: before its first
    call when every call comes after that one at the top level, so that
    calls returning early (the leaves of a recursion) count nothing; they
    are bounded by the calls that made them, which count.  None: on entry."""
    if p.has_goto:
        return None
    depth = 0
    for k, ins in enumerate(p.code):
        if ins.op == 'CALL':
            return k if depth == 0 and k > 0 else None
        if ins.op in _OPENERS:
            depth += 1
        elif ins.op == 'END':
            depth -= 1
    return None


def _is_predicate(p):
    """Does every return give one value just computed by a comparison or
    ``not`` (always a Python bool, whose truth is Lua's)?  Such a function
    can serve as a sort comparator as it is."""
    code = p.code
    for ins in _returns(p):
        k = code.index(ins)
        prev = code[k - 1] if k else None
        if ins.b != 1 or prev is None or prev.op not in _BOOL_OPS or prev.a != ins.a:
            return False
    return not p.has_goto


class _Out:
    def __init__(self):
        self.buf = []
        self.lines = [0]              # python line numbers are 1-based
        self.calls = {}               # python line of a call -> the callee's description
        self.base = 0                 # indentation of the prototypes inside MODULE

    def line(self, indent, text, lualine):
        self.buf.append('    ' * (indent + self.base) + text)
        self.lines.append(lualine)

    def text(self):
        return '\n'.join(self.buf) + '\n'


def lit(v):
    """Python literal for a Lua constant."""
    c = v.__class__
    if c is float:
        if v != v:
            return 'NAN'
        if v == math.inf:
            return 'INF'
        if v == -math.inf:
            return '(-INF)'
        return repr(v)
    return repr(v)


class _FuncTranslator:
    def __init__(self, p, out, fname, pname, child_factories):
        self.p = p
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
        self.positive = set()         # loop variables known to stay integers >= 1
        self.int_start = False        # the numeric for being opened starts at an integer
        self.tables = set()           # registers known to hold tables here
        self.new_tables = _new_tables(p)  # registers only ever assigned a new table
        self.types = {}               # register -> what the straight-line code before left there
        self.result = None            # (register, kind) the current instruction leaves
        self.pending = {}             # register -> delayed arithmetic (expr, leaves, instrs)
        self.sync = False             # emitting the plain (non-generator) twin
        self.qname = 'Q' + pname[1:]
        # Code that divides or has float constants tries floats first.
        self.floaty = any(k.__class__ is float for k in p.consts) or any(
            ins.op in ('DIV', 'POW') for ins in p.code)
        self.next_bool = None

    # ------------------------------------------------------------ output
    def w(self, text):
        if self.sync and 'yield from ' in text:
            # Every emitted ``yield from`` call ends its line.
            text = text.replace('yield from ', 'SYNC(') + ')'
        self.out.line(self.ind, text, self.line)
        if self.empty:
            self.empty[-1] = False

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
            return lit(self.p.consts[-x - 1])
        return 'r%d' % x

    def const(self, x):
        return x < 0, (self.p.consts[-x - 1] if x < 0 else None)

    # -------------------------------------------------------------- driver
    def run(self):
        p = self.p
        params, envs = self.factory_params()
        # The plain form, the function value itself: for callers that cannot
        # yield, code outside any coroutine (where every yield is an error
        # anyway) and Lua's C-call boundaries; its slow paths run synchronously.
        self.out.line(0, 'def %s(%s):' % (self.fname, params), p.line)
        for i in envs:
            # A global read looks in the environment's dict first: a table's
            # dict is never replaced, and a miss (or an environment that is
            # no table) takes the full path.
            self.out.line(1, 'E%d = (U%d.hash if U%d.__class__ is Table else NOHASH).get' % (i, i, i), p.line)
        self.sync = True
        self.function(self.qname)
        self.sync = False
        self.out.line(1, 'return %s' % self.qname, p.end_line)

    def run_generator_form(self):
        """The generator form: calls are ``yield from``, so a host function
        can suspend the whole Lua thread.  It must be a generator even when
        its body never yields.  Most functions never run in it, so it is
        translated, compiled and made from a plain form's cells when first
        needed (``gen_form``); the factory emitted here is never called, it
        only gives the generator form's code the plain factory's names as
        free variables.  Returns the factory's name."""
        p = self.p
        params, envs = self.factory_params()
        gname = 'G' + self.fname[1:]
        self.out.line(0, 'def %s(%s):' % (gname, params), p.line)
        self.out.line(1, '%s = None' % ' = '.join(['E%d' % i for i in envs] + [self.qname]), p.line)
        self.function(self.pname)
        self.out.line(2, 'yield', p.end_line)
        return gname

    def factory_params(self):
        """A factory's parameters (the upvalues) and the upvalues read as
        environments through their dicts."""
        p = self.p
        params = ', '.join('U%d' % i for i, uv in enumerate(p.upvals) if uv[3] != 'self')
        envs = [i for i in sorted({ins.b for ins in p.code if ins.op == 'GETTABUP'})
                if p.upvals[i][3] == 'value']
        return params, envs

    def function(self, name):
        p = self.p
        self.ind = 2
        self.stack = []
        self.known = set()
        self.positive = set()
        self.tables = set(self.new_tables)
        params = ['r%d=None' % i for i in range(p.numparams)]
        if p.is_vararg:
            params.append('*VA')
        self.out.line(1, 'def %s(%s):' % (name, ', '.join(params)), p.line)
        if any(ins.op in ('NEWTABLE', 'SETTABLE', 'CALL') for ins in p.code):
            self.out.line(2, 'nonlocal DEBT', p.line)   # allocations are accounted
        if p.has_calls or any(ins.op == 'FORPREP' for ins in p.code):
            self.out.line(2, 'nonlocal STEPS', p.line)
        self.charge_at = _charge_point(p)
        if p.has_calls and self.charge_at is None:
            self.out.line(2, self.charge(), p.line)
        if p.has_goto:
            # The dispatcher's blocks may read registers on paths Python cannot see.
            others = ['r%d' % i for i in range(p.numparams, p.maxreg)]
            if others:
                self.out.line(2, ' = '.join(others) + ' = None', p.line)
            self.empty.append(True)
            _Dispatcher(self).run()
            self.empty.pop()
        else:
            ints, tables = self.typed_params()
            if ints or tables:
                # Guards hoisted once per value: a body specialised for integer
                # and table parameters, and the generic body for everything else.
                guards = ['r%d.__class__ is int' % r for r in ints]
                guards += ['r%d.__class__ is Table' % r for r in tables]
                self.out.line(2, 'if %s:' % ' and '.join(guards), p.line)
                self.ind = 3
                self.known = set(ints)
                self.tables = set(tables) | self.new_tables
                self.body()
                self.out.line(2, 'else:', p.line)
                self.known = set()
                self.tables = set(self.new_tables)
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
            if code[k].op in _BLOCK_OPS:
                k = self.emit_block_op(k)
                continue
            end = k
            while end < hi and code[end].op not in _BLOCK_OPS:
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
        where the one general copy of the rest, emitted after them, resumes."""
        points = []                   # where guards split the run
        stage = saved = None
        while k < hi:
            if len(points) < splits and self.tbase is None and self.split_guard(k, hi) is not None:
                # Pending arithmetic runs first: what it leaves may be known.
                self.flush()
                guard = self.split_guard(k, hi)
                if guard is not None:
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
        self.w('%s = %d' % (stage, hi))
        for point in reversed(points):
            self.close_block()
            self.w('else: %s = %d' % (stage, point))
        # The general copy: each part runs when a guard before it failed.
        self.types, self.known_bool, self.next_bool = saved
        cold, self.cold = self.cold, True
        self.w('if %s < %d:' % (stage, hi))
        self.ind += 1
        self.empty.append(True)
        for n, point in enumerate(points):
            end = points[n + 1] if n + 1 < len(points) else hi
            self.w('if %s <= %d:' % (stage, point))
            self.ind += 1
            self.empty.append(True)
            k = point
            while k < end:
                k = self.emit_unit(k, end)
            self.flush()
            self.close_block()
        self.close_block()
        self.cold = cold

    def emit_unit(self, k, hi):
        """Emit the instruction at ``k`` (with the ones it fuses with); the
        index after them."""
        code = self.p.code
        ins = code[k]
        if ins.op == 'LEN' and k + 2 < hi and self.is_append(code[k:k + 3]):
            self.flush()
            self.line = ins.line
            self.known_bool = self.next_bool = None
            self.append(*code[k:k + 3])
            for done in code[k:k + 3]:
                self.forget(done)
            return k + 3
        if ins.op in _FUSABLE:
            self.line = ins.line
            self.fuse(ins)
            return k + 1
        self.flush()
        if k == self.charge_at:
            self.w(self.charge())
        # ``return f(...)``: the call's results are the function's.
        tail = ins.op == 'CALL' and k + 1 < hi and _passes_results(ins, code[k + 1])
        self.step(ins, tail)
        return k + (2 if tail else 1)

    def charge(self):
        """The line counting a call's instructions (the function's length)."""
        return 'if (STEPS := STEPS - %d) < 0: TICK()' % max(1, len(self.p.code))

    def split_guard(self, k, hi):
        """``(condition, facts)`` worth a split before instruction ``k``, or None."""
        ins = self.p.code[k]
        field = _TABLE_OPERAND.get(ins.op)
        if field is not None:
            t = getattr(ins, field)
            # A guard and its bookkeeping cost about two class checks.
            if not self.istable(t) and self.table_uses(t, k, hi) >= 3:
                return 'r%d.__class__ is Table' % t, {t: _TABLE}
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
        self.line = ins.line
        self.known_bool = self.next_bool
        self.next_bool = None
        if ins.op in _BLOCK_OPS:
            # A numeric for whose start and step are integers counts in integers.
            self.int_start = ins.op == 'FORPREP' and self.isint(ins.a)
            self.types.clear()
        self.result = None
        if tail:
            self.op_CALL(ins, tail)
        else:
            getattr(self, 'op_' + ins.op)(ins)
        self.forget(ins)
        if self.result is not None:
            self.types[self.result[0]] = self.result[1]

    def forget(self, ins):
        """After control flow nothing is known of registers; after a write,
        nothing of the registers written."""
        if ins.op in _BLOCK_OPS:
            self.types.clear()
        else:
            for r in writes(ins, self.p.maxreg):
                self.types.pop(r, None)

    def declare(self, reg, kind):
        """The instruction being translated leaves ``kind`` (int, str or
        _OWN, the function's own value) in ``reg``."""
        self.result = (reg, kind)

    # ------------------------------------------------------ expression fusion
    def fuse(self, ins):
        """Delay an ADD/SUB/MUL/UNM whose result is a temporary, folding it into
        the arithmetic that consumes it; a run of such operations then needs one
        type guard on its leaves instead of one per operation."""
        operands = (ins.b,) if ins.op == 'UNM' else (ins.b, ins.c)
        parts = []
        leaves = set()
        ops = []
        for x in operands:
            tree = self.pending.pop(x, None) if x >= 0 else None
            if tree is not None:
                parts.append(tree[0])
                leaves |= tree[1]
                ops.extend(tree[2])
            else:
                parts.append(self.rk(x))
                if x >= 0:
                    leaves.add(x)
                else:
                    leaves.add(('k', self.p.consts[-x - 1]))
        ops.append(ins)
        if ins.op == 'UNM':
            expr = '(-%s)' % parts[0]
        else:
            expr = '(%s %s %s)' % (parts[0], _FUSABLE[ins.op], parts[1])
        self.flush_readers(ins.a)
        tree = (expr, leaves, ops)
        if ins.temp and len(ops) < 32:
            self.pending[ins.a] = tree
            self.types.pop(ins.a, None)
        else:
            self.emit_tree(ins.a, tree)

    def flush_readers(self, reg):
        """Emit pending trees that read or will be overwritten by ``reg``."""
        for r in [r for r, tree in self.pending.items() if reg in tree[1] or r == reg]:
            self.emit_tree(r, self.pending.pop(r))

    def flush(self):
        while self.pending:
            r = next(iter(self.pending))
            self.emit_tree(r, self.pending.pop(r))

    def emit_tree(self, dest, tree):
        """Emit delayed arithmetic into ``dest``.  It runs here, in order, so
        what it leaves in ``dest`` is known from here on."""
        self.result = None
        self.tree_code(dest, *tree)
        self.types.pop(dest, None)
        if self.result is not None:
            self.types[dest] = self.result[1]
            self.result = None

    def tree_code(self, dest, expr, leaves, ops):
        if len(ops) == 1 or self.cold:
            for op in ops:
                self.op_arith_single(op)
            return
        regs = sorted(x for x in leaves if x.__class__ is int)
        consts = [x[1] for x in leaves if x.__class__ is tuple]
        a = 'r%d' % dest
        w = self.w
        if regs and all(self.isfloat(r) for r in regs) and all(
                c.__class__ is float or c.__class__ is int and abs(c) < 1 << 53 for c in consts) and all(
                op.b >= 0 or op.op != 'UNM' and op.c >= 0 for op in ops):
            # Every operation has a float operand (a leaf or a float result).
            w('%s = %s' % (a, expr))
            self.declare(dest, float)
            return
        branches = []
        if all(c.__class__ is int for c in consts):
            unknown = [r for r in regs if not self.isint(r)]
            if not unknown:
                w('%s = %s' % (a, expr))
                w(_wrap_check(a))
                self.declare(dest, int)
                return
            guard = ' and '.join('r%d.__class__ is int' % r for r in unknown)
            branches.append((guard, '%s = %s' % (a, expr), _wrap_check(a)))
        if all(c.__class__ is float or (c.__class__ is int and abs(c) < 1 << 53) for c in consts) \
                and not any(self.isint(r) for r in regs):
            guard = ' and '.join('r%d.__class__ is float' % r for r in regs) or 'True'
            branches.append((guard, '%s = %s' % (a, expr), None))
        if not branches:
            for op in ops:
                self.op_arith_single(op)
            return
        if self.floaty:
            branches.reverse()
        for n, (guard, assign, check) in enumerate(branches):
            w('%s %s:' % ('if' if n == 0 else 'elif', guard))
            w('    ' + assign)
            if check:
                w('    ' + check)
        w('else:')
        self.ind += 1
        self.empty.append(True)
        for op in ops:
            self.op_arith_single(op)
        self.empty.pop()
        self.ind -= 1

    def is_append(self, seq):
        """``LEN x t; ADD y x 1; SETTABLE t y v``: the statement ``t[#t + 1] = v``."""
        n, add, st = seq
        one = self.const(add.c)
        return (add.op == 'ADD' and st.op == 'SETTABLE' and n.temp and add.temp
                and add.b == n.a and one[0] and one[1].__class__ is int and one[1] == 1
                and st.a == n.b and st.b == add.a and st.c not in (n.a, add.a))

    def append(self, n, add, st):
        """``t[#t + 1] = v`` on a table with only a list part is an append."""
        t, v = 'r%d' % st.a, self.rk(st.c)
        known = self.const(st.c)[1] is not None if st.c < 0 else st.c in self.known or st.c in self.types
        notnil = '' if known else ' and %s is not None' % v
        istable = '' if self.istable(st.a) else '%s.__class__ is Table and ' % t
        self.w('if %s%s.meta is None and not %s.hash%s:' % (istable, t, t, notnil))
        self.w('    %s.arr.append(%s); DEBT += %d' % (t, v, SLOT_COST))
        self.w('else:')
        self.ind += 1
        self.empty.append(True)
        self.op_LEN(n)
        self.op_arith_single(add)
        self.op_SETTABLE(st)
        self.empty.pop()
        self.ind -= 1

    def op_arith_single(self, ins):
        if ins.op == 'UNM':
            self.op_UNM(ins)
        else:
            self.op_arith(ins, _FUSABLE[ins.op], _HELPER_NAMES[ins.op])

    def matching_end(self, k):
        code = self.p.code
        depth = 0
        for j in range(k + 1, len(code)):
            op = code[j].op
            if op in _OPENERS:
                depth += 1
            elif op == 'END':
                if depth == 0:
                    return j
                depth -= 1
        raise AssertionError('unbalanced bytecode')

    def generic_for_twice(self, k, end):
        """An innermost generic ``for``: a Python ``for`` over pairs/ipairs of a
        plain table, and the general loop calling the iterator function."""
        ins = self.p.code[k]
        a, n = ins.a, ins.b
        self.line = ins.line
        it = self.tmp('i')
        cnt = self.tmp('n')
        vars_ = ['r%d' % r for r in range(a + 4, a + 4 + n)]
        self.w('%s = forgen(r%d, r%d, r%d)' % (it, a, a + 1, a + 2))
        self.open('if %s is not None:' % it, 'if')
        self.w('%s = %d' % (cnt, CHECK_INTERVAL // 16))
        target = ', '.join(vars_) if n == 2 else '_kv'
        self.open('for %s in %s:' % (target, it), 'pyfor')
        self.w('%s -= 1' % cnt)
        self.w('if not %s: %s = %d; TICKN(%d)' % (cnt, cnt, CHECK_INTERVAL // 16, CHECK_INTERVAL))
        # ipairs over a plain table is a bare enumerate: the first nil ends it.
        self.w('if %s is None:' % (vars_[1] if n == 2 else '_kv[1]'))
        self.w('    if %s.__class__ is ENUMERATE: break' % it)
        self.w('    continue           # pairs: a field removed meanwhile')
        if n == 1:
            self.w('r%d = _kv[0]' % (a + 4))
        elif n > 2:
            self.w('%s = _kv + (None,) * %d' % (', '.join(vars_), n - 2))
        self.emit_range(k + 1, end)
        self.stack.pop()
        self.close_block()
        self.stack.pop()
        self.close_block()
        self.open('else:', 'else')
        self.op_TFORPREP(ins)
        self.emit_range(k + 1, end)
        self.line = self.p.code[end].line
        self.op_END(self.p.code[end])
        self.stack.pop()
        self.close_block()

    def typed_params(self):
        """Parameters never assigned and used as numbers or indexed as tables
        (``self.x``, ``t[i]``): each worth one hoisted guard."""
        p = self.p
        written = set()
        numbers = set()
        tables = set()
        for ins in p.code:
            written.update(writes(ins, p.maxreg))
            if ins.op in _NUMERIC_OPS:
                numbers.update(x for x in (ins.b, ins.c) if isinstance(x, int) and 0 <= x < p.numparams)
            if ins.op in _TABLE_OPERAND and 0 <= getattr(ins, _TABLE_OPERAND[ins.op]) < p.numparams:
                tables.add(getattr(ins, _TABLE_OPERAND[ins.op]))
        # Float code's numbers are rarely integers: an integer guard there
        # would send most calls to the general body.
        ints = [] if self.floaty else sorted(numbers - written)[:3]
        return ints, sorted(tables - written)[:2]

    def isint(self, x):
        if x < 0:
            return self.p.consts[-x - 1].__class__ is int
        return x in self.known or self.types.get(x) is int

    def isfloat(self, x):
        if x < 0:
            return self.p.consts[-x - 1].__class__ is float
        return self.types.get(x) is float

    def istable(self, r):
        return r in self.tables or self.types.get(r) is _TABLE

    # ---------------------------------------------------------- data moves
    def op_MOVE(self, i):
        self.w('r%d = r%d' % (i.a, i.b))
        if self.isint(i.b):
            self.declare(i.a, int)
        elif i.b in self.types:
            self.declare(i.a, self.types[i.b])
        elif self.istable(i.b):
            self.declare(i.a, _TABLE)

    def op_LOADK(self, i):
        self.w('r%d = %s' % (i.a, self.rk(i.b)))
        kind = self.p.consts[-i.b - 1].__class__
        if kind is int or kind is str or kind is float:
            self.declare(i.a, kind)

    def op_LOADNIL(self, i):
        self.w(' = '.join('r%d' % r for r in range(i.a, i.a + i.b)) + ' = None')

    def op_LOADBOOL(self, i):
        self.w('r%d = %s' % (i.a, 'True' if i.b else 'False'))

    def upval(self, n):
        """The Python expression for upvalue ``n``'s value."""
        kind = self.p.upvals[n][3]
        if kind == 'cell':
            return 'U%d[0]' % n
        return 'U%d' % n if kind == 'value' else self.qname

    def op_GETUPVAL(self, i):
        self.w('r%d = %s' % (i.a, self.upval(i.b)))
        if self.p.upvals[i.b][3] == 'self':
            self.declare(i.a, _OWN)

    def op_SETUPVAL(self, i):
        assert self.p.upvals[i.b][3] == 'cell', 'an assigned upvalue lives in a cell'
        self.w('U%d[0] = r%d' % (i.b, i.a))

    def op_NEWCELL(self, i):
        self.w('r%d = [r%d]' % (i.a, i.a))

    def op_GETCELL(self, i):
        self.w('r%d = r%d[0]' % (i.a, i.b))

    def op_SETCELL(self, i):
        self.w('r%d[0] = %s' % (i.a, self.rk(i.b)))

    # --------------------------------------------------------------- tables
    def get(self, dst, obj, key, note, table=False, levels=1):
        """Emit ``dst = obj[key]`` where obj is a Python expression (a name);
        ``table`` when obj is known to be a table."""
        isk, kv = self.const(key)
        k = self.rk(key)
        if isk and kv.__class__ is str:
            lines = self.field_lines(dst, obj, k, 0 if self.cold else levels)
        else:
            if k == dst:
                self.w('_k = %s' % k)
                k = '_k'
            lines = self.index_lines(dst, obj, key, k)
        if table:
            for text in lines:
                self.w(text)
            return
        self.w('if %s.__class__ is Table:' % obj)
        for text in lines:
            self.w('    ' + text)
        self.w('else: %s = yield from index(%s, %s, %r)' % (dst, obj, k, note))

    def field_lines(self, dst, obj, k, levels):
        """``dst = obj[k]`` for a table and a constant string: ``levels`` of
        ``__index`` tables (classes, method lookup) inline, then the helpers."""
        lines = ['%s = %s.hash.get(%s)' % (dst, obj, k),
                 'if %s is None and %s.meta is not None:' % (dst, obj)]
        if not levels:
            return lines + ['    %s = index_chain(%s, %s)' % (dst, obj, k),
                            '    if %s is CALL_NEEDED: %s = yield from index_miss(%s, %s)' % (dst, dst, obj, k)]
        h = '_h%d' % levels
        lines.append("    %s = %s.meta.hash.get('__index')" % (h, obj))
        lines.append('    if %s.__class__ is Table:' % h)
        lines.extend('        ' + text for text in self.field_lines(dst, h, k, levels - 1))
        lines.append('    elif %s is not None: %s = yield from index_miss(%s, %s)' % (h, dst, obj, k))
        return lines

    def index_lines(self, dst, obj, key, k):
        """``dst = obj[k]`` for a table and any other key."""
        isk, kv = self.const(key)
        if isk and kv.__class__ is int:
            if kv >= 1:
                lines = ['_a = %s.arr' % obj,
                         '%s = _a[%d] if len(_a) >= %d else %s.hash.get(%s)' % (dst, kv - 1, kv, obj, k)]
            else:
                lines = ['%s = %s.hash.get(%s)' % (dst, obj, k)]
        elif not isk and self.isint(key):
            low = '' if key in self.positive else '0 < '
            lines = ['_a = %s.arr' % obj,
                     '%s = _a[%s - 1] if %s%s <= len(_a) else %s.hash.get(%s)' % (dst, k, low, k, obj, k)]
        elif not isk:
            lines = ['if %s.__class__ is int:' % k,
                     '    _a = %s.arr' % obj,
                     '    %s = _a[%s - 1] if 0 < %s <= len(_a) else %s.hash.get(%s)' % (dst, k, k, obj, k),
                     'elif %s.__class__ is str: %s = %s.hash.get(%s)' % (k, dst, obj, k),
                     'else: %s = %s.get(%s)' % (dst, obj, k)]
        else:
            lines = ['%s = %s.get(%s)' % (dst, obj, k)]
        return lines + ['if %s is None and %s.meta is not None:' % (dst, obj),
                        '    %s = index_chain(%s, %s)' % (dst, obj, k),
                        '    if %s is CALL_NEEDED: %s = yield from index_miss(%s, %s)' % (dst, dst, obj, k)]

    def op_GETTABLE(self, i):
        src = 'r%d' % i.b
        if i.a == i.b:
            self.w('_o = r%d' % i.b)
            src = '_o'
        self.get('r%d' % i.a, src, i.c, i.note, self.istable(i.b))

    def op_GETTABUP(self, i):
        if self.p.upvals[i.b][3] == 'value':
            k = self.rk(i.c)
            self.w('r%d = E%d(%s)' % (i.a, i.b, k))
            self.w('if r%d is None: r%d = yield from index(U%d, %s, %r)' % (i.a, i.a, i.b, k, i.note))
            return
        self.w('_o = %s' % self.upval(i.b))
        self.get('r%d' % i.a, '_o', i.c, i.note)

    def set(self, obj, key, val, note, table=False):
        """Emit ``obj[key] = val``; ``table`` when obj is known to be a table."""
        isk, kv = self.const(key)
        vk, vv = self.const(val)
        k = self.rk(key)
        v = self.rk(val)
        w = self.w
        istable = '' if table else '%s.__class__ is Table and ' % obj
        if isk and kv.__class__ is str:
            # A metatable without __newindex has no say in a store, nor
            # __newindex in one to a field already present.
            w("if %s(%s.meta is None or %s in %s.hash or '__newindex' not in %s.meta.hash):"
              % (istable, obj, k, obj, obj))
        else:
            w('if %s%s.meta is None:' % (istable, obj))
        # A constant or a register of known type is no nil.
        notnil = vv is not None if vk else self.isint(val) or val in self.types
        if isk and kv.__class__ is str:
            if notnil:
                w('    %s.hash[%s] = %s' % (obj, k, v))
            elif vk:
                w('    %s.hash.pop(%s, None)' % (obj, k))
            else:
                w('    if %s is not None: %s.hash[%s] = %s' % (v, obj, k, v))
                w('    else: %s.hash.pop(%s, None)' % (obj, k))
        elif isk and kv.__class__ is int:
            w('    %s.set_int(%s, %s)' % (obj, k, v))
        else:
            # Array stores inline: overwrite or append (accounting each
            # doubling of the list, as LuaTable.set_int does).
            maybe_nil = not notnil
            notnil = '' if notnil else ' and %s is not None' % v
            if self.isint(key):
                w('    if True:')
            else:
                w('    if %s.__class__ is int:' % k)
            w('        _a = %s.arr; _n = len(_a)' % obj)
            low = '' if key in self.positive else '0 < '
            w('        if %s%s <= _n%s: _a[%s - 1] = %s' % (low, k, notnil, k, v))
            w('        elif %s == _n + 1%s and not %s.hash:' % (k, notnil, obj))
            w('            _a.append(%s); DEBT += %d' % (v, SLOT_COST))
            w('        else: %s.set_int(%s, %s)' % (obj, k, v))
            if not self.isint(key):
                w('    elif %s.__class__ is str:' % k)
                if maybe_nil:
                    w('        if %s is not None: %s.hash[%s] = %s' % (v, obj, k, v))
                    w('        else: %s.hash.pop(%s, None)' % (obj, k))
                else:
                    w('        %s.hash[%s] = %s' % (obj, k, v))
                w('    else: %s.set(%s, %s)' % (obj, k, v))
        other = '' if table else '%s.__class__ is not Table or ' % obj
        w('elif %snot set_plain(%s, %s, %s): yield from setindex(%s, %s, %s, %r)'
          % (other, obj, k, v, obj, k, v, note))

    def op_SETTABLE(self, i):
        self.set('r%d' % i.a, i.b, i.c, i.note, self.istable(i.a))

    def op_SETTABUP(self, i):
        self.w('_o = %s' % self.upval(i.a))
        self.set('_o', i.b, i.c, i.note)

    def op_SELF(self, i):
        obj = 'r%d' % i.b
        if i.b == i.a:
            self.w('_o = %s' % obj)     # the method lands where the object is
            obj = '_o'
        if i.b != i.a + 1:
            self.w('r%d = %s' % (i.a + 1, obj))
        # A method may sit two ``__index`` tables up (a subclass, then its base).
        self.get('r%d' % i.a, obj, i.c, i.note, self.istable(i.b), 2)

    def op_NEWTABLE(self, i):
        # Accounted without a check: the periodic check measures the heap when
        # the debt is large (a table costs about this much in CPython).
        self.w('r%d = Table()' % i.a)
        self.w('DEBT += %d' % TABLE_COST)

    def op_SETLIST(self, i):
        # ``note`` holds the scratch register where the list items start.
        base = i.note
        if i.b == -1:
            vals = self.multret_args(base)
        else:
            vals = '(%s,)' % ', '.join('r%d' % r for r in range(base, base + i.b))
        self.w('setlist(r%d, %d, %s)' % (i.a, i.c, vals))

    # ----------------------------------------------------------- arithmetic
    def num_guard(self, x):
        first, second = ('float', 'int') if self.floaty else ('int', 'float')
        return '(%s.__class__ is %s or %s.__class__ is %s)' % (x, first, x, second)

    def overflow_check(self, i, pyop, a):
        """The cheapest exact 64-bit range check for ``a = b pyop c`` on integers."""
        ck, cv = self.const(i.c)
        bk, bv = self.const(i.b)
        k = cv if ck else bv if (bk and pyop == '+') else None
        if pyop in '+-' and k is not None and k.__class__ is int:
            grows = (k >= 0) if (pyop == '+' or not ck) else (k < 0)
            if pyop == '-' and not ck:
                return '    ' + _wrap_check(a)
            if grows:
                return '    if %s > %d and %s > %d: %s = wrap(%s)' % (a, SMALL, a, MAXINT, a, a)
            return '    if %s < %d and %s < %d: %s = wrap(%s)' % (a, -SMALL, a, MININT, a, a)
        return '    ' + _wrap_check(a)

    def op_arith(self, i, pyop, helper):
        a, b, c = 'r%d' % i.a, self.rk(i.b), self.rk(i.c)
        bk, bv = self.const(i.b)
        ck, cv = self.const(i.c)
        w = self.w
        slow = '%s = yield from arith(%r, %s, %s, %r)' % (a, helper, b, c, i.note)
        check = self.overflow_check(i, pyop, a)
        bi, ci = self.isint(i.b), self.isint(i.c)
        if bk and ck:
            w(slow)
            return
        bf, cf = self.isfloat(i.b), self.isfloat(i.c)
        if (bf or cf) and (bf or bi) and (cf or ci):
            # A float with a float or an integer: Python converts the integer
            # to the nearest float, as Lua does.
            w('%s = %s %s %s' % (a, b, pyop, c))
            self.declare(i.a, float)
            return
        if bf or cf:
            w('if %s: %s = %s %s %s' % (self.num_guard(c if bf else b), a, b, pyop, c))
            w('else: ' + slow)
            return
        if bi and ci:
            w('%s = %s %s %s' % (a, b, pyop, c))
            w(check[4:])
            self.declare(i.a, int)
            return
        if ci or bi:
            x = b if ci else c
            w('if %s.__class__ is int:' % x)
            w('    %s = %s %s %s' % (a, b, pyop, c))
            w(check)
            w('elif %s.__class__ is float: %s = %s %s %s' % (x, a, b, pyop, c))
        elif ck and cv.__class__ is float:
            w('if %s: %s = %s %s %s' % (self.num_guard(b), a, b, pyop, c))
        elif bk and bv.__class__ is float:
            w('if %s: %s = %s %s %s' % (self.num_guard(c), a, b, pyop, c))
        else:
            if self.floaty:
                w('if %s.__class__ is %s.__class__ is float: %s = %s %s %s' % (b, c, a, b, pyop, c))
                w('elif %s.__class__ is %s.__class__ is int:' % (b, c))
            else:
                w('if %s.__class__ is %s.__class__ is int:' % (b, c))
            w('    %s = %s %s %s' % (a, b, pyop, c))
            w(check)
            w('elif %s.__class__ is float and (%s.__class__ is float or %s.__class__ is int) '
              'or %s.__class__ is float and %s.__class__ is int: %s = %s %s %s'
              % (b, c, c, c, b, a, b, pyop, c))
        w('else: ' + slow)

    def op_ADD(self, i):
        self.op_arith(i, '+', 'add')

    def op_SUB(self, i):
        self.op_arith(i, '-', 'sub')

    def op_MUL(self, i):
        self.op_arith(i, '*', 'mul')

    def op_helper_numeric(self, i, helper):
        """Ops whose number semantics need a helper (division, modulo, power, shifts)."""
        a, b, c = 'r%d' % i.a, self.rk(i.b), self.rk(i.c)
        self.w('%s = yield from arith(%r, %s, %s, %r)' % (a, helper, b, c, i.note))

    def op_DIV(self, i):
        a, b, c = 'r%d' % i.a, self.rk(i.b), self.rk(i.c)
        slow = "%s = yield from arith('div', %s, %s, %r)" % (a, b, c, i.note)
        bf, cf = self.isfloat(i.b), self.isfloat(i.c)
        if (bf or cf) and (bf or self.isint(i.b)) and (cf or self.isint(i.c)):
            # Numbers divide to a float; Python refuses only a zero divisor.
            self.w('if %s: %s = %s / %s' % (c, a, b, c))
            self.w('else: ' + slow)
            self.declare(i.a, float)
            return
        conds = []
        for x in (i.b, i.c):
            isk, v = self.const(x)
            if not isk:
                conds.append(self.num_guard(self.rk(x)))
            elif v.__class__ not in (int, float) or (x == i.c and v == 0):
                self.w(slow)
                return
        if not self.const(i.c)[0]:
            conds.append(c)
        if not conds:
            self.w(slow)
            return
        self.w('if %s: %s = float(%s) / %s' % (' and '.join(conds), a, b, c))
        self.w('else: ' + slow)

    def int_guard(self, *operands):
        """A condition that all non-constant, not-known-int operands are ints, or None if nothing to check."""
        regs = [self.rk(x) for x in operands if x >= 0 and not self.isint(x)]
        consts_ok = all(self.p.consts[-x - 1].__class__ is int for x in operands if x < 0)
        if not consts_ok:
            return False
        if not regs:
            return None
        if len(regs) == 1:
            return '%s.__class__ is int' % regs[0]
        return '%s.__class__ is %s.__class__ is int' % (regs[0], regs[1])

    def int_fast(self, i, expr, helper, extra=None):
        """Emit ``a = expr`` under an integer guard (plus ``extra`` condition), else the helper."""
        a, b, c = 'r%d' % i.a, self.rk(i.b), self.rk(i.c)
        guard = self.int_guard(i.b, i.c)
        slow = '%s = yield from arith(%r, %s, %s, %r)' % (a, helper, b, c, i.note)
        if guard is False:
            self.w(slow)
            return
        conds = [x for x in (guard, extra) if x]
        if not conds:
            self.w('%s = %s' % (a, expr))
            self.declare(i.a, int)
            return
        self.w('if %s: %s = %s' % (' and '.join(conds), a, expr))
        self.w('else: ' + slow)
        if guard is None:
            # Integer operands: the helper too gives an integer (or raises).
            self.declare(i.a, int)

    def op_MOD(self, i):
        b, c = self.rk(i.b), self.rk(i.c)
        ck, cv = self.const(i.c)
        nonzero = None if ck and cv.__class__ is int and cv != 0 else c
        self.int_fast(i, '%s %% %s' % (b, c), 'mod', nonzero)

    def op_IDIV(self, i):
        b, c = self.rk(i.b), self.rk(i.c)
        ck, cv = self.const(i.c)
        safe = None if ck and cv.__class__ is int and cv not in (0, -1) else '%s and %s != -1' % (c, c)
        self.int_fast(i, '%s // %s' % (b, c), 'idiv', safe)

    def op_POW(self, i):
        self.op_helper_numeric(i, 'pow')

    def op_bit(self, i, pyop, helper):
        b, c = self.rk(i.b), self.rk(i.c)
        self.int_fast(i, '%s %s %s' % (b, pyop, c), helper)

    def op_BAND(self, i):
        self.op_bit(i, '&', 'band')

    def op_BOR(self, i):
        self.op_bit(i, '|', 'bor')

    def op_BXOR(self, i):
        self.op_bit(i, '^', 'bxor')

    def op_shift(self, i, left):
        b, c = self.rk(i.b), self.rk(i.c)
        ck, cv = self.const(i.c)
        helper = 'shl' if left else 'shr'
        if ck and cv.__class__ is int and 0 <= cv < 64:
            if left:
                expr = '((%s << %d) & %d ^ %d) - %d' % (b, cv, (1 << 64) - 1, 1 << 63, 1 << 63)
            else:
                expr = '(%s >> %d if %s >= 0 else (%s & %d) >> %d)' % (b, cv, b, b, (1 << 64) - 1, cv)
        else:
            expr = 'shift_left(%s, %s%s)' % (b, '' if left else '-', c)
        self.int_fast(i, expr, helper)

    def op_SHL(self, i):
        self.op_shift(i, True)

    def op_SHR(self, i):
        self.op_shift(i, False)

    def op_UNM(self, i):
        a, b = 'r%d' % i.a, 'r%d' % i.b
        if self.isint(i.b):
            self.w('%s = -%s if %s != %d else %s' % (a, b, b, MININT, b))
            return
        if self.isfloat(i.b):
            self.w('%s = -%s' % (a, b))
            self.declare(i.a, float)
            return
        self.w('if %s.__class__ is float: %s = -%s' % (b, a, b))
        self.w('elif %s.__class__ is int: %s = -%s if %s != %d else %s' % (b, a, b, b, MININT, b))
        self.w("else: %s = yield from arith('unm', %s, %s, %r)" % (a, b, b, (i.note, i.note)))

    def op_BNOT(self, i):
        a, b = 'r%d' % i.a, 'r%d' % i.b
        self.w('if %s.__class__ is int: %s = ~%s' % (b, a, b))
        self.w("else: %s = yield from arith('bnot', %s, %s, %r)" % (a, b, b, (i.note, i.note)))

    def op_NOT(self, i):
        self.bool_line(i.a, 'r%d is None or r%d is False' % (i.b, i.b))

    def op_LEN(self, i):
        a, b = 'r%d' % i.a, 'r%d' % i.b
        if self.istable(i.b):
            self.w('if %s.meta is None: %s = len(%s.arr) or %s.length()' % (b, a, b, b))
        else:
            self.w('if %s.__class__ is Table and %s.meta is None: %s = len(%s.arr) or %s.length()' % (b, b, a, b, b))
            self.w('elif %s.__class__ is str: %s = len(%s)' % (b, a, b))
        self.w('else: %s = yield from length(%s, %r)' % (a, b, i.note))

    def op_CONCAT(self, i):
        regs = ['r%d' % r for r in range(i.a, i.a + i.b)]
        # Strings, and integers (written as tostring does), join inline.
        kinds = [str if self.types.get(r) is str else int if self.isint(r) else None
                 for r in range(i.a, i.a + i.b)]
        cond = ' and '.join('%s.__class__ is str' % r for r, kind in zip(regs, kinds) if kind is None)
        parts = ['str(%s)' % r if kind is int else r for r, kind in zip(regs, kinds)]
        fast = ('r%d = %s' % (i.a, ' + '.join(parts)), 'if len(r%d) > 4096: CHARGE(len(r%d))' % (i.a, i.a))
        if not cond:
            for text in fast:
                self.w(text)
            return
        self.w('if %s:' % cond)
        for text in fast:
            self.w('    ' + text)
        self.w('else:')
        self.w('    _s = concat_plain((%s,))' % ', '.join(regs))
        self.w('    r%d = _s if _s is not None else (yield from concat((%s,), %r))' % (i.a, ', '.join(regs), i.note))

    # ---------------------------------------------------------- comparisons
    def op_EQ(self, i, negate=False):
        a, b, c = 'r%d' % i.a, self.rk(i.b), self.rk(i.c)
        bk, bv = self.const(i.b)
        ck, cv = self.const(i.c)
        if bk and not ck:
            b, c, bk, bv, ck, cv = c, b, ck, cv, bk, bv
        w = self.w
        if ck and self.isint(i.b) and cv.__class__ in (int, float):
            self.bool_line(i.a, '%s %s %s' % (b, '!=' if negate else '==', c))
            return
        if ck:
            if cv is None or cv is True or cv is False:
                expr = '%s is %s' % (b, c)
            elif cv.__class__ is str or (cv.__class__ in (int, float) and cv not in (0, 1)):
                expr = '%s == %s' % (b, c)
            else:
                expr = '(%s == %s and %s.__class__ is not bool)' % (b, c, b)
            self.bool_line(i.a, 'not (%s)' % expr if negate else expr)
            return
        # Equal classes among numbers and strings: raw equality decides.
        w('if %s.__class__ is %s.__class__ and (%s.__class__ is int or %s.__class__ is str '
          'or %s.__class__ is float): %s = %s %s %s' % (b, c, b, b, b, a, b, '!=' if negate else '==', c))
        w('else:')
        self.ind += 1
        self.w('_e = %s == %s and (%s.__class__ is %s.__class__ or (%s.__class__ is int or %s.__class__ is float) '
          'and (%s.__class__ is int or %s.__class__ is float))' % (b, c, b, c, b, b, c, c))
        w('if not _e and %s.__class__ is %s.__class__ and (%s.__class__ is Table or %s.__class__ is Userdata): '
          '_e = yield from eq_meta(%s, %s)' % (b, c, b, b, b, c))
        w('%s = %s_e' % (a, 'not ' if negate else ''))
        self.ind -= 1
        self.next_bool = i.a

    def op_NE(self, i):
        self.op_EQ(i, True)

    def op_cmp(self, i, pyop, helper):
        a, b, c = 'r%d' % i.a, self.rk(i.b), self.rk(i.c)
        bk, bv = self.const(i.b)
        ck, cv = self.const(i.c)
        w = self.w
        self.next_bool = i.a
        if bk and ck:
            w('%s = yield from %s(%s, %s)' % (a, helper, b, c))
            return
        bn = self.isint(i.b) or self.isfloat(i.b)
        cn = self.isint(i.c) or self.isfloat(i.c)
        if bn and cn:
            # Python compares integers and floats exactly, as Lua does.
            self.bool_line(i.a, '%s %s %s' % (b, pyop, c))
            return
        if cn or ck and cv.__class__ in (int, float):
            w('if %s: %s = %s %s %s' % (self.num_guard(b), a, b, pyop, c))
        elif bn or bk and bv.__class__ in (int, float):
            w('if %s: %s = %s %s %s' % (self.num_guard(c), a, b, pyop, c))
        else:
            w('if %s.__class__ is %s.__class__ and (%s.__class__ is int or %s.__class__ is float '
              'or %s.__class__ is str): %s = %s %s %s' % (b, c, b, b, b, a, b, pyop, c))
        w('else: %s = yield from %s(%s, %s)' % (a, helper, b, c))
        self.next_bool = i.a

    def bool_line(self, reg, expr):
        """``reg = expr``, a Python bool; an IF testing it next may test
        ``expr`` itself (``fused_test``)."""
        self.w('r%d = %s' % (reg, expr))
        self.next_bool = reg
        self.bool_expr = (reg, expr, len(self.out.buf), self.ind)

    def fused_test(self, i, negate):
        """The condition for ``IF``/``IFNOT`` of a comparison just emitted as
        one line whose register nothing reads later: that line goes, and the
        comparison itself is the test."""
        if self.bool_expr is None:
            return None
        reg, expr, n, ind = self.bool_expr
        self.bool_expr = None
        if reg != i.a or reg != self.known_bool or n != len(self.out.buf) or ind != self.ind \
                or not self.dead_after(self.p.code.index(i), reg):
            return None
        self.out.buf.pop()
        self.out.lines.pop()
        return 'not (%s)' % expr if negate else expr

    def dead_after(self, pc, reg):
        """Is ``reg`` assigned before any read on every path after ``pc``?
        (Scanned in order; a temporary is never read across a loop's back edge.)"""
        code = self.p.code
        depth = 1
        killed = None       # depth of the block that assigned it, while that block lasts
        for ins in code[pc + 1:]:
            if killed is None and _may_read(ins, reg):
                return False
            if ins.op in _OPENERS:
                depth += 1
            elif ins.op == 'END':
                depth -= 1
                if killed is not None and depth < killed:
                    killed = None
            elif ins.op == 'ELSE' and killed == depth:
                killed = None
            if reg in writes(ins, self.p.maxreg):
                if depth <= 0:
                    return True
                if killed is None and not self.p.has_goto:
                    killed = depth
        return True

    def op_LT(self, i):
        self.op_cmp(i, '<', 'lt')

    def op_LE(self, i):
        self.op_cmp(i, '<=', 'le')

    # ---------------------------------------------------------------- calls
    def multret_args(self, first):
        """Python argument text for registers first.. followed by the pending results T."""
        regs = ['r%d' % r for r in range(first, self.tbase)]
        regs.append('*T')
        self.tbase = None
        return '(%s)' % ', '.join(regs) if len(regs) > 1 else 'T'

    def op_CALL(self, i, tail=False):
        """A call.  Lua functions return one result bare and other counts as a
        tuple; host functions always return a sequence.  ``tail``: the
        function returns the call's results."""
        a = i.a
        if i.b == -1:
            regs = ['r%d' % r for r in range(a + 1, self.tbase)] + ['*T']
            self.tbase = None
        else:
            regs = ['r%d' % r for r in range(a + 1, a + 1 + i.b)]
        args = ', '.join(regs)
        tup = '(%s)' % args if len(regs) != 1 or regs[0].startswith('*') else '(%s,)' % args
        if regs == ['*T']:
            tup = 'T'
        w = self.w
        n = i.c
        f = 'r%d' % a               # overwritten by the results only after the call
        if self.types.get(a) is _OWN:
            self.call_self(i, regs, tup, tail)
            return
        if i.b != -1 and self.intrinsic(i, regs):
            w('elif %s.__class__ is FN:' % f)
        else:
            w('if %s.__class__ is FN:' % f)
        if self.sync:
            self.call_lua(f, args, tup, 'return' if tail else '_R =')
        else:
            w('    try: _g = %s.gen' % f)
            w('    except AttributeError: _g = gen_form(%s)' % f)
            self.call_lua('_g', args, tup, '_c =')
            w('    _R = yield from _c')
            if tail:
                w('    return _R')
        if n == 1:
            w('    r%d = _R if _R.__class__ is not tuple else _R[0] if _R else None' % a)
        elif n != 0 and not tail:
            w('    if _R.__class__ is not tuple: _R = (_R,)')
        w('elif %s.__class__ is Builtin:' % f)
        w('    try: _R = %s.fn(%s)' % (f, args))
        self.out.calls[len(self.out.lines) - 1] = i.note
        w('    except NeedsLua as _x: _R = yield from finish(_x, %s, %s)' % (f, tup))
        self.out.calls[len(self.out.lines) - 1] = i.note
        if n == 1:
            w('    r%d = _R[0] if _R else None' % a)
        w('else:')
        w('    _R = yield from call(%s, %s, %r)' % (f, tup, i.note))
        self.out.calls[len(self.out.lines) - 1] = i.note
        if n == 1:
            w('    r%d = _R[0] if _R else None' % a)
        elif tail:
            w('return _R if _R.__class__ is tuple else tuple(_R)')
        elif n == -1:
            w('T = _R if _R.__class__ is tuple else tuple(_R)')
            self.tbase = a
        elif n > 1:
            regs = ', '.join('r%d' % r for r in range(a, a + n))
            w('%s = _R if len(_R) == %d else adjust(_R, %d)' % (regs, n, n))

    def call_lua(self, f, args, tup, lead, indent='    '):
        """``lead f(args)`` for a Lua function ``f`` with extra arguments cut
        on the rare call that passes more than ``f`` has parameters for."""
        self.w('%stry: %s %s(%s)' % (indent, lead, f, args))
        self.w('%sexcept TypeError as _x: %s %s(*refit(_x, %s, %s))' % (indent, lead, f, f, tup))

    def call_self(self, i, regs, tup, tail):
        """A call of the function's own value (``local function f`` calling
        ``f``): no check of the callee, and its results' shape is known."""
        a, n = i.a, i.c
        if i.b == -1:
            # How many arguments there are is known only when it runs.
            f = self.qname if self.sync else self.pname
            self.call_lua(f, ', '.join(regs), tup, '_R =', '')
            if not self.sync:
                self.w('_R = yield from _R')
            call = '_R'
        else:
            args = ', '.join(regs[:self.p.numparams] if not self.p.is_vararg else regs)
            call = '%s(%s)' % (self.qname, args) if self.sync else 'yield from %s(%s)' % (self.pname, args)
        if tail:
            if call == '_R':
                self.w('return _R')
            elif self.sync:
                self.w('return %s' % call)
            else:
                self.w('_R = %s' % call)
                self.w('return _R')
            return
        if n == 1 and self.single_result():
            self.w('r%d = %s' % (a, call))
        else:
            if call != '_R':
                self.w('_R = %s' % call)
            if n == 1:
                self.w('r%d = _R if _R.__class__ is not tuple else _R[0] if _R else None' % a)
            elif n != 0:
                self.w('if _R.__class__ is not tuple: _R = (_R,)')
        self.out.calls[len(self.out.lines) - 1] = i.note
        if n == -1:
            self.w('T = _R')
            self.tbase = a
        elif n > 1:
            regs = ', '.join('r%d' % r for r in range(a, a + n))
            self.w('%s = _R if len(_R) == %d else adjust(_R, %d)' % (regs, n, n))

    def single_result(self):
        """Does every return of this function give exactly one value?"""
        return not self.p.has_goto and all(ins.b == 1 for ins in _returns(self.p))

    def intrinsic(self, i, regs):
        """Open the call with an inline body for the library function the
        callee's name suggests; an identity check on the function value keeps
        it exact whatever the name says.  False when there is none."""
        name = i.note.split("'")[1] if i.note and "'" in i.note else None
        emit = INTRINSICS.get((name, len(regs)))
        if emit is None:
            return False
        guard, body, result = emit(*regs)
        w = self.w
        w('if r%d is %s:' % (i.a, ' and '.join(c for c in guard if c not in self.known_conditions(regs))))
        for text in body:
            w('    ' + text)
        n = i.c
        if n == 1:
            w('    r%d = %s' % (i.a, result or 'None'))
        elif n != 0:
            w('    _R = %s' % ('(%s,)' % result if result else '()'))
        return True

    def known_conditions(self, regs):
        """Guard conditions on the registers ``regs`` that are known to hold."""
        conds = set()
        for text in regs:
            r = int(text[1:])
            if self.istable(r):
                conds.add('%s.__class__ is Table' % text)
            if self.isint(r):
                conds.add('%s.__class__ is int' % text)
            if self.isint(r) or self.isfloat(r):
                conds.add('(%s.__class__ is float or %s.__class__ is int)' % (text, text))
            if self.isint(r) or r in self.types:
                conds.add('%s is not None' % text)
        return conds

    def results(self, src, a, n):
        w = self.w
        if n == 0:
            return
        if n == 1:
            w('r%d = %s[0] if %s else None' % (a, src, src))
        elif n == -1:
            w('T = %s' % src)
            self.tbase = a
        else:
            regs = ', '.join('r%d' % r for r in range(a, a + n))
            w('%s = %s if len(%s) == %d else adjust(%s, %d)' % (regs, src, src, n, src, n))

    def op_VARARG(self, i):
        self.results('VA', i.a, i.b)

    def op_RETURN(self, i):
        if i.b == -1:
            if self.tbase == i.a:
                self.tbase = None
                self.w('return T')
            else:
                self.w('return %s' % self.multret_args(i.a))
        elif i.b == 0:
            self.w('return ()')
        elif i.b == 1:
            self.w('return r%d' % i.a)
        else:
            self.w('return (%s,)' % ', '.join('r%d' % r for r in range(i.a, i.a + i.b)))

    def op_CLOSURE(self, i):
        child = self.p.protos[i.b]
        cells = []
        for name, instack, idx, kind in child.upvals:
            if kind == 'self':
                continue
            if instack:
                cells.append('r%d' % idx)
            else:
                cells.append(self.qname if self.p.upvals[idx][3] == 'self' else 'U%d' % idx)
        self.w('r%d = %s(%s)' % (i.a, self.children[i.b], ', '.join(cells)))

    # ------------------------------------------------------------ control
    def truth(self, reg, negate=False):
        r = 'r%d' % reg
        if reg == self.known_bool:
            return ('not %s' % r) if negate else r
        if negate:
            return '%s is None or %s is False' % (r, r)
        return '%s is not None and %s is not False' % (r, r)

    def op_IF(self, i):
        self.open('if %s:' % (self.fused_test(i, False) or self.truth(i.a)), 'if')

    def op_IFNOT(self, i):
        self.open('if %s:' % (self.fused_test(i, True) or self.truth(i.a, True)), 'if')

    def op_ELSE(self, i):
        kind, data = self.stack.pop()
        self.close_block()
        self.open('else:', 'else')

    def op_END(self, i):
        kind, data = self.stack.pop()
        self.close_block()
        if kind == 'numfor':
            self.known.discard(data)
            self.positive.discard(data)
            self.w('else:')
            self.w('    continue')
            self.w('break')
            self.close_block_outer()
        elif kind == 'tbc':
            raise AssertionError('TBC regions end with CLOSE')

    def close_block_outer(self):
        self.stack.pop()
        self.close_block()

    def op_LOOP(self, i):
        n = self.tmp('n')
        self.w('%s = %d' % (n, CHECK_INTERVAL // 16))
        self.open('while True:', 'loop')
        self.w('%s -= 1' % n)
        self.w('if not %s: %s = %d; TICKN(%d)' % (n, n, CHECK_INTERVAL // 16, CHECK_INTERVAL))

    def op_BREAK(self, i):
        self.w('break')

    def op_FORPREP(self, i):
        a = i.a
        chunk = self.tmp('c')
        chunks = 'forprep(r%d, r%d, r%d, %d)' % (a, a + 1, a + 2, LOOP_COST)
        ints = i.b == 1 or (self.int_start and self.step_is_int(i))
        if self.step_is_one(i):
            # A short integer loop needs no chunks: one range (maybe empty), counted here.
            start = '' if ints else 'r%d.__class__ is ' % a
            self.w('if %sr%d.__class__ is int and -1 <= r%d - r%d < %d:'
                   % (start, a + 1, a + 1, a, CHECK_INTERVAL // LOOP_COST))
            self.w('    if (STEPS := STEPS - %d * (r%d - r%d + 1)) < 0: TICK()' % (LOOP_COST, a + 1, a))
            self.w('    %s = (range(r%d, r%d + 1),)' % (chunk, a, a + 1))
            self.w('else: %s = %s' % (chunk, chunks))
            chunks = chunk
        self.open('for %s in %s:' % (chunk, chunks), 'numfor_outer')
        var = a + 3
        int_loop = ints and var not in self.known and not self.loop_writes(i, var)
        self.open('for r%d in %s:' % (var, chunk), 'numfor', var if int_loop else None)
        if int_loop:
            self.known.add(var)
            start, step = self.loaded_constant(i, a), self.constant_step(i)
            if start.__class__ is int and start >= 1 and step.__class__ is int and step > 0:
                self.positive.add(var)

    def loaded_constant(self, forprep, reg):
        """The constant the straight-line code just before ``forprep`` last
        loaded into ``reg``, else None."""
        code = self.p.code
        for ins in reversed(code[:code.index(forprep)]):
            if ins.op in _BLOCK_OPS:
                return None
            if reg in writes(ins, self.p.maxreg):
                return self.p.consts[-ins.b - 1] if ins.op == 'LOADK' else None
        return None

    def step_is_one(self, forprep):
        """Is the loop's step the constant 1?"""
        step = self.constant_step(forprep)
        return step.__class__ is int and step == 1

    def step_is_int(self, forprep):
        """Is the loop's step an integer constant?"""
        return self.constant_step(forprep).__class__ is int

    def constant_step(self, forprep):
        """The loop's step when it is a constant loaded just before FORPREP, else None."""
        code = self.p.code
        k = code.index(forprep)
        if not k or code[k - 1].op != 'LOADK' or code[k - 1].a != forprep.a + 2:
            return None
        step = self.p.consts[-code[k - 1].b - 1]
        return step if step.__class__ is int or step.__class__ is float else None

    def loop_writes(self, forprep, reg):
        """Does the loop body starting after ``forprep`` assign ``reg``?"""
        code = self.p.code
        depth = 0
        for ins in code[code.index(forprep) + 1:]:
            if ins.op in _OPENERS:
                depth += 1
            elif ins.op == 'END':
                if depth == 0:
                    return False
                depth -= 1
            if reg in writes(ins, self.p.maxreg):
                return True
        return False

    def op_TFORPREP(self, i):
        a, n = i.a, i.b
        it = self.tmp('i')
        cnt = self.tmp('n')
        vars_ = ['r%d' % r for r in range(a + 4, a + 4 + n)]
        self.w('%s = forgen(r%d, r%d, r%d)' % (it, a, a + 1, a + 2))
        fits = None
        if self.sync:
            fits = self.tmp('w')
            self.w('%s = takes(r%d, 2)' % (fits, a))
        self.w('%s = %d' % (cnt, CHECK_INTERVAL // 16))
        self.open('while True:', 'loop')
        self.w('%s -= 1' % cnt)
        self.w('if not %s: %s = %d; TICKN(%d)' % (cnt, cnt, CHECK_INTERVAL // 16, CHECK_INTERVAL))
        self.w('if %s is not None:' % it)
        self.w('    _kv = next(%s, None)' % it)
        self.w('    if _kv is None: break')
        self.w('    if _kv[1] is None:')
        self.w('        if %s.__class__ is ENUMERATE: break' % it)
        self.w('        continue')
        if n == 1:
            self.w('    r%d = _kv[0]' % (a + 4))
        elif n == 2:
            self.w('    %s = _kv' % ', '.join(vars_))
        else:
            self.w('    %s = _kv + (None,) * %d' % (', '.join(vars_), n - 2))
        self.w('else:')
        self.ind += 1
        self.call_iterator(a, fits)
        self.ind -= 1
        if n == 1:
            self.w('    r%d = _R[0] if _R else None' % (a + 4))
        else:
            self.w('    %s = _R if len(_R) == %d else adjust(_R, %d)' % (', '.join(vars_), n, n))
        self.w('    if r%d is None: break' % (a + 4))
        self.w('    r%d = r%d' % (a + 2, a + 4))

    def call_iterator(self, a, fits):
        """``_R``: the results of a generic ``for``'s iterator call, as a
        sequence.  ``fits``: the name of a flag that the iterator is a Lua
        function taking both arguments (sync form only)."""
        f, args, note = 'r%d' % a, 'r%d, r%d' % (a + 1, a + 2), "for iterator 'for iterator'"
        w = self.w
        if self.sync:
            w('if %s.__class__ is FN:' % f)
            w('    _R = %s(%s) if %s else %s(*fit_args(%s, (%s)))' % (f, args, fits, f, f, args))
            w('    if _R.__class__ is not tuple: _R = (_R,)')
            w('elif %s.__class__ is Builtin:' % f)
        else:
            w('if %s.__class__ is Builtin:' % f)
        w('    try: _R = %s.fn(%s)' % (f, args))
        self.out.calls[len(self.out.lines) - 1] = note
        w('    except NeedsLua as _x: _R = yield from finish(_x, %s, (%s))' % (f, args))
        self.out.calls[len(self.out.lines) - 1] = note
        w('else: _R = yield from call(%s, (%s), %r)' % (f, args, note))
        self.out.calls[len(self.out.lines) - 1] = note

    def op_TBC(self, i):
        self.w("tbc_check(r%d, %r)" % (i.a, i.note))
        self.open('try:', 'tbc', i.a)

    def op_CLOSE(self, i):
        """Close a <close> variable: early (b=1, before a jump) or at its scope's end.

        The register is cleared before the call so the error handler of the
        region never closes the same value twice."""
        r = 'r%d' % i.a
        if i.b == 0:
            self.stack.pop()
            self.close_block()
            self.w('except BaseException as _e:')
            self.w('    _v = %s; %s = None' % (r, r))
            self.w('    yield from close_error(_v, _e)')
            self.w('    raise')
        self.w('_v = %s; %s = None' % (r, r))
        self.w('if _v is not None and _v is not False: yield from close_var(_v, None)')


# Indexing instructions: the operand holding the table.
_TABLE_OPERAND = {'GETTABLE': 'b', 'SELF': 'b', 'SETTABLE': 'a'}
_NUMERIC_OPS = frozenset('ADD SUB MUL DIV MOD POW IDIV BAND BOR BXOR SHL SHR EQ NE LT LE'.split())
_OPENERS = frozenset(('IF', 'IFNOT', 'LOOP', 'FORPREP', 'TFORPREP'))
_OWN = 'own'                       # what a register holding the function's own value holds
_BOOL_OPS = frozenset(('EQ', 'NE', 'LT', 'LE', 'NOT'))
_BLOCK_OPS = _OPENERS | {'ELSE', 'END', 'BREAK', 'GOTO', 'LABEL', 'TBC', 'CLOSE'}
_FUSABLE = {'ADD': '+', 'SUB': '-', 'MUL': '*', 'UNM': '-'}
_HELPER_NAMES = {'ADD': 'add', 'SUB': 'sub', 'MUL': 'mul'}
_RANGE_READS = frozenset(('CALL', 'RETURN', 'CONCAT'))
_TABLE = 'table'                   # what a register holding a table holds
_FLOAT_OPS = frozenset(('ADD', 'SUB', 'MUL', 'DIV', 'UNM'))
_MAX_SPLITS = 10                   # guards splitting one straight-line run
_SPLIT_LIMIT = 150                 # longest run whose tail is duplicated
_DUPLICATE_LIMIT = 400             # instructions of a generic for body emitted twice
_WRITES_A = frozenset('''MOVE LOADK LOADBOOL GETUPVAL GETCELL GETTABUP GETTABLE NEWTABLE ADD SUB MUL
DIV MOD POW IDIV BAND BOR BXOR SHL SHR UNM NOT LEN BNOT CONCAT EQ NE LT LE CLOSURE NEWCELL
CLOSE'''.split())


def _new_tables(p):
    """Registers whose one assignment in ``p`` is a NEWTABLE: Lua reads a
    local only after its declaration, so every read finds a table."""
    count = {}
    for ins in p.code:
        for r in writes(ins, p.maxreg):
            count[r] = count.get(r, 0) + 1
    return {ins.a for ins in p.code if ins.op == 'NEWTABLE' and count[ins.a] == 1}


def _may_read(ins, reg):
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


class _Dispatcher:
    """Translation of a function that uses ``goto``: its structured bytecode is
    lowered to basic blocks run by a ``while True: if pc == N`` dispatcher."""

    def __init__(self, ft):
        self.ft = ft
        self.ids = itertools.count(1)

    def run(self):
        items = self.lower(self.ft.p.code)
        ft = self.ft
        # <close> variables cannot rely on structured try blocks here: a flag
        # per variable says which are live when an error leaves the function.
        tbc = sorted({ins.a for ins in ft.p.code if ins.op == 'TBC'})
        for r in tbc:
            ft.w('_tbc%d = False' % r)
        if tbc:
            ft.open('try:', 'try')
        ft.w('pc = 0')
        ft.open('while True:', 'dispatch')
        first = True
        for kind, payload in items:
            if kind != 'ins':
                # A jump may land here, or raw code change registers.
                ft.known_bool = ft.next_bool = None
                ft.types.clear()
            if kind == 'label':
                if not first:
                    ft.w('pc = %d' % payload)
                    ft.close_block()
                    ft.stack.pop()
                ft.open('%s pc == %d:' % ('if' if first else 'elif', payload), 'block')
                first = False
                continue
            if kind == 'jump':
                ft.w('pc = %d; continue' % payload)
            elif kind == 'jumpif':
                reg, negate, target = payload
                ft.w('if %s: pc = %d; continue' % (ft.truth(reg, negate), target))
            elif kind == 'raw':
                ft.line = payload[1]
                ft.w(payload[0])
            else:
                ft.step(payload)
        ft.w('return ()')
        ft.close_block()
        ft.stack.pop()
        ft.close_block()
        ft.stack.pop()
        if tbc:
            ft.close_block()
            ft.stack.pop()
            ft.w('except BaseException as _e:')
            for r in reversed(tbc):
                ft.w('    if _tbc%d:' % r)
                ft.w('        _tbc%d = False; _v = r%d; r%d = None' % (r, r, r))
                ft.w('        yield from close_error(_v, _e)')
            ft.w('    raise')

    def lower(self, code):
        """Structured ops -> labels and jumps; every other instruction is kept."""
        label_ids = self.resolve_labels(code)
        items = [('label', 0)]
        stack = []
        for pc, ins in enumerate(code):
            op = ins.op
            if op in ('IF', 'IFNOT'):
                els, end = next(self.ids), next(self.ids)
                items.append(('jumpif', (ins.a, op == 'IF', els)))
                stack.append(['if', els, end])
            elif op == 'ELSE':
                entry = stack[-1]
                items.append(('jump', entry[2]))
                items.append(('label', entry[1]))
                entry[0] = 'else'
            elif op == 'LOOP':
                top, exit_ = next(self.ids), next(self.ids)
                items.append(('label', top))
                items.append(('raw', ('TICKN(4)', ins.line)))
                stack.append(['loop', top, exit_])
            elif op == 'BREAK':
                loop = next(e for e in reversed(stack) if e[0] in ('loop', 'for'))
                items.append(('jump', loop[2]))
            elif op == 'FORPREP':
                top, exit_ = next(self.ids), next(self.ids)
                it = '_it%d' % top
                a = ins.a
                items.append(('raw', ('%s = chain_iter(forprep(r%d, r%d, r%d, %d))' % (it, a, a + 1, a + 2, LOOP_COST), ins.line)))
                items.append(('label', top))
                items.append(('raw', ('r%d = next(%s, None)' % (a + 3, it), ins.line)))
                items.append(('raw', ('if r%d is None: pc = %d; continue' % (a + 3, exit_), ins.line)))
                stack.append(['for', top, exit_])
            elif op == 'TFORPREP':
                top, exit_ = next(self.ids), next(self.ids)
                a, n = ins.a, ins.b
                it = '_it%d' % top
                vars_ = ', '.join('r%d' % r for r in range(a + 4, a + 4 + n))
                items.append(('raw', ('%s = forgen(r%d, r%d, r%d)' % (it, a, a + 1, a + 2), ins.line)))
                items.append(('label', top))
                items.append(('raw', ('TICKN(4)', ins.line)))
                items.append(('raw', ('if %s is not None:' % it, ins.line)))
                items.append(('raw', ('    _kv = next(%s, None)' % it, ins.line)))
                items.append(('raw', ('    if _kv is None or _kv[1] is None and %s.__class__ is ENUMERATE: pc = %d; continue' % (it, exit_), ins.line)))
                items.append(('raw', ('    if _kv[1] is None: pc = %d; continue' % top, ins.line)))
                items.append(('raw', ('    %s = adjust(_kv, %d)' % (vars_, n) if n != 1 else '    r%d = _kv[0]' % (a + 4), ins.line)))
                items.append(('raw', ('else:', ins.line)))
                items.append(('raw', ("    _R = yield from call(r%d, (r%d, r%d), \"for iterator 'for iterator'\")" % (a, a + 1, a + 2), ins.line)))
                items.append(('raw', ('    %s = adjust(_R, %d)' % (vars_, n) if n != 1 else '    r%d = _R[0] if _R else None' % (a + 4), ins.line)))
                items.append(('raw', ('    if r%d is None: pc = %d; continue' % (a + 4, exit_), ins.line)))
                items.append(('raw', ('    r%d = r%d' % (a + 2, a + 4), ins.line)))
                stack.append(['for', top, exit_])
            elif op == 'END':
                entry = stack.pop()
                if entry[0] == 'if':
                    items.append(('label', entry[1]))
                elif entry[0] == 'else':
                    items.append(('label', entry[2]))
                else:
                    items.append(('jump', entry[1]))
                    items.append(('label', entry[2]))
            elif op == 'GOTO':
                items.append(('raw', ('TICKN(1)', ins.line)))
                items.append(('jump', label_ids[pc]))
            elif op == 'LABEL':
                items.append(('label', label_ids[pc]))
            elif op == 'TBC':
                items.append(('raw', ('tbc_check(r%d, %r)' % (ins.a, ins.note), ins.line)))
                items.append(('raw', ('_tbc%d = True' % ins.a, ins.line)))
            elif op == 'CLOSE':
                r = 'r%d' % ins.a
                items.append(('raw', ('_tbc%d = False; _v = %s; %s = None' % (ins.a, r, r), ins.line)))
                items.append(('raw', ('if _v is not None and _v is not False: yield from close_var(_v, None)', ins.line)))
            else:
                items.append(('ins', ins))
        return items

    def resolve_labels(self, code):
        """Map each GOTO's and LABEL's pc to the id of the label it means.

        A goto sees the labels of its own and enclosing structured blocks; the
        resolver has already rejected invisible ones."""
        path = [0]
        block_ids = itertools.count(1)
        labels = []                      # (name, path tuple, pc, id)
        gotos = []                       # (name, path tuple, pc)
        ids = {}
        for pc, ins in enumerate(code):
            op = ins.op
            if op in ('IF', 'IFNOT', 'LOOP', 'FORPREP', 'TFORPREP'):
                path.append(next(block_ids))
            elif op == 'ELSE':
                path[-1] = next(block_ids)
            elif op == 'END':
                path.pop()
            elif op == 'LABEL':
                lid = next(self.ids)
                labels.append((ins.a, tuple(path), pc, lid))
                ids[pc] = lid
            elif op == 'GOTO':
                gotos.append((ins.a, tuple(path), pc))
        for name, gpath, gpc in gotos:
            best = None
            for lname, lpath, lpc, lid in labels:
                if lname != name or gpath[:len(lpath)] != lpath:
                    continue
                rank = (len(lpath), lpc <= gpc, lpc if lpc <= gpc else -lpc)
                if best is None or rank > best[0]:
                    best = (rank, lid)
            ids[gpc] = best[1]
        return ids
