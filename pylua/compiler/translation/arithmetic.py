"""Arithmetic, comparisons, ``not``, ``#`` and ``..``: exact-class fast
paths with the runtime helpers behind them, and the fusion of arithmetic on
temporaries into one expression under one guard."""
from __future__ import annotations

from ..savedpc import zero_line
from .facts import FUSABLE, OPENERS, may_read, writes
from .ir import code, join
from .layout import arr_of, raw_length

MAXINT = (1 << 63) - 1
MININT = -(1 << 63)
_HELPER_NAMES = {'ADD': 'add', 'SUB': 'sub', 'MUL': 'mul'}

# CPython compares integers of one 30-bit digit on its fast path, but not
# bigger constants such as 2**63: range checks test against SMALL first.
SMALL = (1 << 30) - 1
# A concatenation of at most this many operands of unknown type converts
# numbers among them inline (each costs a test per operand).
MIXED_CONCAT_MAX = 4


def _wrap_check(a):
    """Wrap ``a`` to 64 bits when outside them: past SMALL, one method call
    is cheaper than two comparisons with big constants (-2**63 is wrapped
    to itself)."""
    return 'if (%s > %d or %s < %d) and %s.bit_length() > 63: %s = wrap(%s)' % (
        a, SMALL, a, -SMALL, a, a, a)


class ArithmeticOps:
    """Mixin of ``FunctionTranslator``: arithmetic and comparison instructions."""

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
                    # Keyed by its class too: true, 1 and 1.0 are equal in a set.
                    value = self.p.consts[-x - 1]
                    leaves.add(('k', value, value.__class__))
        ops.append(ins)
        if ins.op == 'UNM':
            expr = code('(-%s)', parts[0])
        else:
            expr = code('(%s %s %s)', parts[0], FUSABLE[ins.op], parts[1])
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
        self.flush_moves()
        self.flush_trees()

    def flush_trees(self):
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
            w('%s = %s', a, expr)
            self.declare(dest, float)
            return
        branches = []
        if all(c.__class__ is int for c in consts):
            unknown = [r for r in regs if not self.isint(r)]
            if not unknown:
                w('%s = %s', a, expr)
                w(_wrap_check(a))
                self.declare(dest, int)
                return
            guard = ' and '.join('r%d.__class__ is int' % r for r in unknown)
            branches.append((guard, code('%s = %s', a, expr), _wrap_check(a)))
        if all(c.__class__ is float or (c.__class__ is int and abs(c) < 1 << 53) for c in consts) \
                and not any(self.isint(r) for r in regs):
            guard = ' and '.join('r%d.__class__ is float' % r for r in regs) or 'True'
            branches.append((guard, code('%s = %s', a, expr), None))
        if not branches:
            for op in ops:
                self.op_arith_single(op)
            return
        if self.floaty:
            branches.reverse()
        for n, (guard, assign, check) in enumerate(branches):
            w('%s %s:', 'if' if n == 0 else 'elif', guard)
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

    def op_arith_single(self, ins):
        if ins.op == 'UNM':
            self.op_UNM(ins)
        else:
            self.op_arith(ins, FUSABLE[ins.op], _HELPER_NAMES[ins.op])

    # ----------------------------------------------------------- arithmetic
    def num_guard(self, x):
        first, second = ('float', 'int') if self.floaty else ('int', 'float')
        return code('(%s.__class__ is %s or %s.__class__ is %s)', x, first, x, second)

    def overflow_check(self, i, pyop, a):
        """The cheapest exact 64-bit range check for ``a = b pyop c`` on integers."""
        ck, cv = self.const(i.c)
        bk, bv = self.const(i.b)
        k = cv if ck else bv if (bk and pyop == '+') else None
        if pyop in '+-' and k is not None and k.__class__ is int:
            grows = (k >= 0) if (pyop == '+' or not ck) else (k < 0)
            if pyop == '-' and not ck:
                return _wrap_check(a)
            if grows:
                return 'if %s > %d and %s > %d: %s = wrap(%s)' % (a, SMALL, a, MAXINT, a, a)
            return 'if %s < %d and %s < %d: %s = wrap(%s)' % (a, -SMALL, a, MININT, a, a)
        return _wrap_check(a)

    def op_arith(self, i, pyop, helper):
        a, b, c = 'r%d' % i.a, self.rk(i.b), self.rk(i.c)
        bk, bv = self.const(i.b)
        ck, cv = self.const(i.c)
        w = self.w
        slow = code('%s = %s', a, self.meta_wait('arith', '(%r, %s, %s, %r)', helper, b, c, i.note))
        check = self.overflow_check(i, pyop, a)
        bi, ci = self.isint(i.b), self.isint(i.c)
        if bk and ck:
            w(slow)
            return
        bf, cf = self.isfloat(i.b), self.isfloat(i.c)
        if (bf or cf) and (bf or bi) and (cf or ci):
            # A float with a float or an integer: Python converts the integer
            # to the nearest float, as Lua does.
            w('%s = %s %s %s', a, b, pyop, c)
            self.declare(i.a, float)
            return
        if bf or cf:
            w('if %s: %s = %s %s %s', self.num_guard(c if bf else b), a, b, pyop, c)
            w('else: ' + slow)
            return
        if bi and ci:
            w('%s = %s %s %s', a, b, pyop, c)
            w(check)
            self.declare(i.a, int)
            return
        if ci or bi:
            x = b if ci else c
            w('if %s.__class__ is int:', x)
            w('    %s = %s %s %s', a, b, pyop, c)
            w('    ' + check)
            w('elif %s.__class__ is float: %s = %s %s %s', x, a, b, pyop, c)
        elif ck and cv.__class__ is float:
            w('if %s: %s = %s %s %s', self.num_guard(b), a, b, pyop, c)
        elif bk and bv.__class__ is float:
            w('if %s: %s = %s %s %s', self.num_guard(c), a, b, pyop, c)
        else:
            if self.floaty:
                w('if %s.__class__ is %s.__class__ is float: %s = %s %s %s', b, c, a, b, pyop, c)
                w('elif %s.__class__ is %s.__class__ is int:', b, c)
            else:
                w('if %s.__class__ is %s.__class__ is int:', b, c)
            w('    %s = %s %s %s', a, b, pyop, c)
            w('    ' + check)
            w('elif %s.__class__ is float and (%s.__class__ is float or %s.__class__ is int) '
              'or %s.__class__ is float and %s.__class__ is int: %s = %s %s %s', b, c, c, c, b, a, b, pyop, c)
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
        self.w('%s = %s', a, self.meta_wait('arith', '(%r, %s, %s, %r)', helper, b, c, i.note))

    def op_DIV(self, i):
        a, b, c = 'r%d' % i.a, self.rk(i.b), self.rk(i.c)
        slow = code('%s = %s', a, self.meta_wait('arith', "('div', %s, %s, %r)", b, c, i.note))
        bf, cf = self.isfloat(i.b), self.isfloat(i.c)
        if (bf or cf) and (bf or self.isint(i.b)) and (cf or self.isint(i.c)):
            # Numbers divide to a float; Python refuses only a zero divisor.
            self.w('if %s: %s = %s / %s', c, a, b, c)
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
        self.w('if %s: %s = float(%s) / %s', join(' and ', conds), a, b, c)
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
            return code('%s.__class__ is int', regs[0])
        return code('%s.__class__ is %s.__class__ is int', regs[0], regs[1])

    def int_fast(self, i, expr, helper, extra=None):
        """Emit ``a = expr`` under an integer guard (plus ``extra`` condition), else the helper."""
        a, b, c = 'r%d' % i.a, self.rk(i.b), self.rk(i.c)
        guard = self.int_guard(i.b, i.c)
        slow = code('%s = %s', a, self.meta_wait('arith', '(%r, %s, %s, %s)', helper, b, c, self.division_notes(i)))
        if guard is False:
            self.w(slow)
            return
        conds = [x for x in (guard, extra) if x]
        if not conds:
            self.w('%s = %s', a, expr)
            self.declare(i.a, int)
            return
        self.w('if %s: %s = %s', join(' and ', conds), a, expr)
        self.w('else: ' + slow)
        if guard is None:
            # Integer operands: the helper too gives an integer (or raises).
            self.declare(i.a, int)

    def division_notes(self, i):
        """An integer division's notes for ``arith``: the line of its division
        by zero is ``_zl`` when the run decides it (``track_zero_line``)."""
        if zero_line(i.note) is None:
            return repr(i.note)
        return code('(%r, %r, _zl)', i.note[0], i.note[1])

    def op_MOD(self, i):
        b, c = self.rk(i.b), self.rk(i.c)
        ck, cv = self.const(i.c)
        nonzero = None if ck and cv.__class__ is int and cv != 0 else c
        self.int_fast(i, code('%s %% %s', b, c), 'mod', nonzero)

    def op_IDIV(self, i):
        b, c = self.rk(i.b), self.rk(i.c)
        ck, cv = self.const(i.c)
        safe = None if ck and cv.__class__ is int and cv not in (0, -1) else code('%s and %s != -1', c, c)
        self.int_fast(i, code('%s // %s', b, c), 'idiv', safe)

    def op_POW(self, i):
        self.op_helper_numeric(i, 'pow')

    def op_bit(self, i, pyop, helper):
        b, c = self.rk(i.b), self.rk(i.c)
        self.int_fast(i, code('%s %s %s', b, pyop, c), helper)

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
                expr = code('((%s << %d) & %d ^ %d) - %d', b, cv, (1 << 64) - 1, 1 << 63, 1 << 63)
            else:
                expr = code('(%s >> %d if %s >= 0 else (%s & %d) >> %d)', b, cv, b, b, (1 << 64) - 1, cv)
        else:
            expr = code('shift_left(%s, %s%s)', b, '' if left else '-', c)
        self.int_fast(i, expr, helper)

    def op_SHL(self, i):
        self.op_shift(i, True)

    def op_SHR(self, i):
        self.op_shift(i, False)

    def op_UNM(self, i):
        a, b = 'r%d' % i.a, 'r%d' % i.b
        if self.isint(i.b):
            self.w('%s = -%s if %s != %d else %s', a, b, b, MININT, b)
            return
        if self.isfloat(i.b):
            self.w('%s = -%s', a, b)
            self.declare(i.a, float)
            return
        self.w('if %s.__class__ is float: %s = -%s', b, a, b)
        self.w('elif %s.__class__ is int: %s = -%s if %s != %d else %s', b, a, b, b, MININT, b)
        self.w('else: %s = %s', a, self.meta_wait('arith', "('unm', %s, %s, %r)", b, b, (i.note, i.note)))

    def op_BNOT(self, i):
        a, b = 'r%d' % i.a, 'r%d' % i.b
        self.w('if %s.__class__ is int: %s = ~%s', b, a, b)
        self.w('else: %s = %s', a, self.meta_wait('arith', "('bnot', %s, %s, %r)", b, b, (i.note, i.note)))

    def op_NOT(self, i):
        self.bool_line(i.a, 'r%d is None or r%d is False' % (i.b, i.b))
        self.declare(i.a, bool)

    def op_LEN(self, i):
        a, b = 'r%d' % i.a, 'r%d' % i.b
        if self.istable(i.b):
            self.w('if %s: %s = len(%s) or %s.length()', raw_length(b), a, arr_of(b), b)
        else:
            self.w('if %s.__class__ is Table and %s: %s = len(%s) or %s.length()', b, raw_length(b), a, arr_of(b), b)
            self.w('elif %s.__class__ is str: %s = len(%s)', b, a, b)
        self.w('else: %s = %s', a, self.meta_wait('length', '(%s, %r)', b, i.note))

    def op_CONCAT(self, i):
        regs = ['r%d' % r for r in range(i.a, i.a + i.b)]
        # Strings, and integers (written as tostring does), join inline.
        kinds = [str if self.types.get(r) is str else int if self.isint(r) else None
                 for r in range(i.a, i.a + i.b)]
        cond = ' and '.join('%s.__class__ is str' % r for r, kind in zip(regs, kinds) if kind is None)
        parts = [code('str(%s)', r) if kind is int else r for r, kind in zip(regs, kinds)]
        fast = (code('r%d = %s', i.a, ' + '.join(parts)), 'if len(r%d) > 4096: CHARGE(len(r%d))' % (i.a, i.a))
        if not cond:
            for text in fast:
                self.w(text)
            return
        self.w('if %s:', cond)
        for text in fast:
            self.w('    ' + text)
        unknown = [r for r, kind in zip(regs, kinds) if kind is None]
        if len(unknown) <= MIXED_CONCAT_MAX:
            # Numbers among them, converted inline as tostring writes them.
            number = {r: code('(%s if %s.__class__ is str else str(%s) if %s.__class__ is int else FLOAT_STR(%s))',
                              r, r, r, r, r) for r in unknown}
            self.w('elif %s:', ' and '.join(code('(%s.__class__ is str or %s.__class__ is int or %s.__class__ is float)',
                                                 r, r, r) for r in unknown))
            self.w('    r%d = %s', i.a, ' + '.join(number.get(r, part) for r, part in zip(regs, parts)))
            self.w('    ' + fast[1])
        self.w('else:')
        self.w('    _s = concat_plain((%s,))', ', '.join(regs))
        self.w('    r%d = _s if _s is not None else (%s)', i.a, self.meta_wait('concat', '((%s,), %r)', ', '.join(regs), i.note))

    # ---------------------------------------------------------- comparisons
    def op_EQ(self, i, negate=False):
        a, b, c = 'r%d' % i.a, self.rk(i.b), self.rk(i.c)
        self.declare(i.a, bool)       # a comparison gives a bool, __eq's converted
        bk, bv = self.const(i.b)
        ck, cv = self.const(i.c)
        rb = i.b                       # the operand ``b`` names, after the swap
        if bk and not ck:
            b, c, bk, bv, ck, cv, rb = c, b, ck, cv, bk, bv, i.c
        w = self.w
        if bk and ck:
            # Two constants: equal exactly when the same Lua value.
            same = bv == cv and (bv.__class__ is cv.__class__ or (bv.__class__ in (int, float)
                                                                  and cv.__class__ in (int, float)))
            self.bool_line(i.a, repr(same != negate))
            return
        if ck and self.isint(rb) and cv.__class__ in (int, float):
            self.bool_line(i.a, code('%s %s %s', b, '!=' if negate else '==', c))
            return
        if ck:
            if cv is None or cv is True or cv is False:
                expr = code('%s is %s', b, c)
            elif cv.__class__ is str or (cv.__class__ in (int, float) and cv not in (0, 1)):
                expr = code('%s == %s', b, c)
            else:
                expr = code('(%s == %s and %s.__class__ is not bool)', b, c, b)
            self.bool_line(i.a, code('not (%s)', expr) if negate else expr)
            return
        if self.isint(i.b) or self.isint(i.c):
            # An integer equals only numbers (Python's True == 1 aside).
            if not self.isint(i.b):
                b, c = c, b
            if self.isint(i.b) and self.isint(i.c):
                self.bool_line(i.a, code('%s %s %s', b, '!=' if negate else '==', c))
            else:
                expr = code('(%s == %s and %s.__class__ is not bool)', c, b, c)
                self.bool_line(i.a, code('not %s', expr) if negate else expr)
            return
        op = '!=' if negate else '=='
        # One value is equal to itself, a NaN aside (``x == x`` is Python's
        # answer too), without an ``__eq``.
        w('if %s is %s: %s = %s %s %s', b, c, a, b, op, b)
        # Equal classes among numbers and strings: raw equality decides.
        w('elif %s.__class__ is %s.__class__ and (%s.__class__ is int or %s.__class__ is str '
          'or %s.__class__ is float): %s = %s %s %s', b, c, b, b, b, a, b, op, c)
        # Two objects: the generator only when there is an ``__eq``.
        w('elif %s.__class__ is %s.__class__ and (%s.__class__ is Table or %s.__class__ is Userdata):',
          b, c, b, b)
        w('    _e = eq_tables(%s, %s)', b, c)
        w('    if _e is CALL_NEEDED: _e = %s', self.meta_wait('eq_meta', '(%s, %s)', b, c))
        w('    %s = %s_e', a, 'not ' if negate else '')
        # Else only numbers of two classes can be equal (Python's True == 1 aside).
        w('else: %s = %s(%s == %s and (%s.__class__ is int or %s.__class__ is float) '
          'and (%s.__class__ is int or %s.__class__ is float))', a, 'not ' if negate else '', b, c, b, b, c, c)
        self.next_bool = i.a

    def op_NE(self, i):
        self.op_EQ(i, True)

    def op_cmp(self, i, pyop, helper):
        a, b, c = 'r%d' % i.a, self.rk(i.b), self.rk(i.c)
        self.declare(i.a, bool)       # __lt's and __le's results converted too
        bk, bv = self.const(i.b)
        ck, cv = self.const(i.c)
        w = self.w
        self.next_bool = i.a
        if bk and ck:
            w('%s = %s', a, self.meta_wait(helper, '(%s, %s)', b, c))
            return
        bn = self.isint(i.b) or self.isfloat(i.b)
        cn = self.isint(i.c) or self.isfloat(i.c)
        if bn and cn:
            # Python compares integers and floats exactly, as Lua does.
            self.bool_line(i.a, code('%s %s %s', b, pyop, c))
            return
        if cn or ck and cv.__class__ in (int, float):
            w('if %s: %s = %s %s %s', self.num_guard(b), a, b, pyop, c)
        elif bn or bk and bv.__class__ in (int, float):
            w('if %s: %s = %s %s %s', self.num_guard(c), a, b, pyop, c)
        else:
            w('if %s.__class__ is %s.__class__ and (%s.__class__ is int or %s.__class__ is float '
              'or %s.__class__ is str): %s = %s %s %s', b, c, b, b, b, a, b, pyop, c)
        w('else: %s = %s', a, self.meta_wait(helper, '(%s, %s)', b, c))
        self.next_bool = i.a

    def bool_line(self, reg, expr):
        """``reg = expr``, a Python bool; an IF testing it next may test
        ``expr`` itself (``fused_test``)."""
        self.w('r%d = %s', reg, expr)
        self.next_bool = reg
        self.bool_expr = (reg, expr, self.out.items[-1], self.ind)

    def fused_test(self, i, negate):
        """The condition for ``IF``/``IFNOT`` of a comparison just emitted as
        one line whose register nothing reads later: that line goes, and the
        comparison itself is the test."""
        if self.bool_expr is None:
            return None
        reg, expr, line, ind = self.bool_expr
        self.bool_expr = None
        if reg != i.a or reg != self.known_bool or self.out.items[-1:] != [line] or ind != self.ind \
                or not self.dead_after(self.p.code.index(i), reg):
            return None
        self.out.items.pop()
        return code('not (%s)', expr) if negate else expr

    def dead_after(self, pc, reg):
        """Is ``reg`` assigned before any read on every path after ``pc``?
        (Scanned in order; a temporary is never read across a loop's back edge.)"""
        code = self.p.code
        depth = 1
        killed = None       # depth of the block that assigned it, while that block lasts
        for ins in code[pc + 1:]:
            if killed is None and may_read(ins, reg):
                return False
            if ins.op in OPENERS:
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
