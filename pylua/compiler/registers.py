"""Where Lua runs out of registers: lcode.c's register reservations, modelled.

Lua refuses a statement whose code needs 255 registers with ``function or
expression needs too many registers near X``, X being the token its lexer
stands on at the reservation that does not fit.  pylua's code generator
lays out its registers its own way (for the translator's sake), so it cannot
say which statements Lua refuses, nor where; this module decides that.

``check`` walks one statement the way lparser.c compiles it,
keeping only what decides registers: each expression's lcode.c descriptor
kind (a constant, a variable, an indexed value, a register, a pending
instruction, a call, a jump) and the reservations and releases made on it.
The lexer's position at a reservation comes from the expressions' ``last``
token (``ast.Spanned``): after a list element Lua has read the ``,``, after
an operator's left operand the operator, and so on, as lparser.c reads them.
Nested functions are checked as the code generator reaches their
statements; a block's statements are checked one by one.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from . import ast as A
from .lexer import near as token_name
from ..runtime.errors import LuaSyntaxError
from ..runtime.state import GENERATE_STATEMENT, count_instructions

MAXREGS = 255                 # lcode.c: a reservation reaching it fails
# A statement reserves at most a register per token of its own, and a
# generic for's fixed ones (up to 3 control values, 3 for the call) beside.
STATEMENT_SLACK = 8
MAX_SHORT_STRING = 40         # LUAI_MAXSHORTLEN: only short strings index as constants
MAXARG_C = 255
OFFSET_SC = MAXARG_C >> 1     # signed immediate operands: -127..128
LFIELDS_PER_FLUSH = 50

class Kind(enum.Enum):
    """lcode.c's expression kinds (``expkind``), as far as registers go."""
    CONSTANT = 'VNIL, VTRUE, VFALSE, VKINT, VKFLT, VKSTR'    # the value in ``Operand.value``
    NAMED_CONSTANT = 'VCONST'       # a <const> local's value: a constant once discharged
    LOCAL = 'VLOCAL'                # a local variable's register
    UPVALUE = 'VUPVAL'
    INDEXED = 'VINDEXED, VINDEXSTR, VINDEXI'     # table (and key) in registers
    INDEXED_UPVALUE = 'VINDEXUP'    # _ENV.name through an upvalue
    REGISTER = 'VNONRELOC'
    PENDING = 'VRELOC'              # an instruction whose target is not yet set
    CALL = 'VCALL'                  # its results from the function's register
    VARARG = 'VVARARG'
    JUMP = 'VJMP'                   # a comparison


class RegisterOverflow(Exception):
    """Lua runs out of registers with its lexer at ``near``: a token index,
    or an expression whose first token it is."""

    def __init__(self, near):
        super().__init__()
        self.near = near


@dataclass(slots=True)
class Operand:
    """An lcode.c ``expdesc`` reduced to what decides registers."""
    kind: Kind
    reg: int = -1             # Kind.REGISTER, Kind.CALL: the register; -1 for a local's (never freed)
    value: object = None      # Kind.CONSTANT: the Lua value
    table: int = -1           # Kind.INDEXED: the table's register, or -1 in a local's
    key: int = -1             # Kind.INDEXED: the key's register, or -1 for a constant key
    variable: object = None   # Kind.LOCAL, Kind.UPVALUE: the binding (for assignment conflicts)
    table_variable: object = None   # Kind.INDEXED, Kind.INDEXED_UPVALUE: the variable indexed
    key_variable: object = None     # Kind.INDEXED: the local the key is read from
    true_jumps: bool = False  # jumps pending to where the value is true (lcode.c's 't' list)
    false_jumps: bool = False  # and to where it is false ('f')
    is_not: bool = False      # Kind.PENDING: a 'not', which a test absorbs

    @property
    def jumps(self) -> bool:
        """lcode.c's hasjumps."""
        return self.true_jumps or self.false_jumps


def _is_numeral(e: Operand) -> bool:
    """lcode.c's tonumeral: a number constant with no jumps."""
    return e.kind is Kind.CONSTANT and not e.jumps and e.value.__class__ in (int, float)


def _fits_c(i: int) -> bool:
    return -OFFSET_SC <= i <= MAXARG_C - OFFSET_SC


def _is_sc_int(e: Operand) -> bool:
    return e.kind is Kind.CONSTANT and not e.jumps and e.value.__class__ is int and _fits_c(e.value)


def _is_sc_number(e: Operand) -> bool:
    """lcode.c's isSCnumber: a number usable as a signed immediate operand."""
    if e.kind is not Kind.CONSTANT or e.jumps:
        return False
    v = e.value
    if v.__class__ is float:
        if v != v or v in (float('inf'), float('-inf')) or v != int(v):
            return False
        v = int(v)
    elif v.__class__ is not int:
        return False
    return _fits_c(v)


def _is_short_string(e: Operand) -> bool:
    """lcode.c's isKstr: a short string constant, which indexes as a constant."""
    return e.kind is Kind.CONSTANT and not e.jumps and e.value.__class__ is str \
        and len(e.value) <= MAX_SHORT_STRING


def _is_c_int(e: Operand) -> bool:
    return e.kind is Kind.CONSTANT and not e.jumps and e.value.__class__ is int \
        and 0 <= e.value <= MAXARG_C


def _truthy_constant(e: Operand) -> bool:
    return e.kind is Kind.CONSTANT and e.value is not None and e.value is not False


class _Model:
    """One function's register use while a statement is compiled."""

    def __init__(self, names: dict, locals_top: int, folded):
        self.names = names
        self.nvar = locals_top
        self.freereg = locals_top
        self.folded = folded

    # ------------------------------------------------------- registers
    def reserve(self, n: int, near) -> None:
        if self.freereg + n >= MAXREGS:
            raise RegisterOverflow(near)
        self.freereg += n

    def check_stack(self, n: int, near) -> None:
        if self.freereg + n >= MAXREGS:
            raise RegisterOverflow(near)

    def free_reg(self, reg: int) -> None:
        if reg >= self.nvar:
            self.freereg -= 1

    def free(self, e: Operand) -> None:
        if e.kind is Kind.REGISTER:
            self.free_reg(e.reg)

    # ------------------------------------------------ lcode.c's discharges
    def discharge_vars(self, e: Operand) -> None:
        kind = e.kind
        if kind is Kind.LOCAL:
            e.kind, e.reg = Kind.REGISTER, -1
        elif kind is Kind.NAMED_CONSTANT:
            e.kind = Kind.CONSTANT
        elif kind is Kind.UPVALUE or kind is Kind.INDEXED_UPVALUE or kind is Kind.VARARG:
            e.kind = Kind.PENDING
        elif kind is Kind.INDEXED:
            for reg in sorted((e.table, e.key), reverse=True):
                self.free_reg(reg)
            e.kind = Kind.PENDING
        elif kind is Kind.CALL:
            e.kind = Kind.REGISTER

    def to_next_reg(self, e: Operand, near) -> None:
        self.discharge_vars(e)
        self.free(e)
        self.reserve(1, near)
        e.kind, e.reg, e.is_not = Kind.REGISTER, self.freereg - 1, False
        e.true_jumps = e.false_jumps = False

    def to_any_reg(self, e: Operand, near) -> None:
        self.discharge_vars(e)
        if e.kind is Kind.REGISTER:
            if not e.jumps:
                return
            if e.reg >= self.nvar:
                e.true_jumps = e.false_jumps = False
                return
        self.to_next_reg(e, near)

    def to_any_reg_up(self, e: Operand, near) -> None:
        if e.kind is not Kind.UPVALUE or e.jumps:
            self.to_any_reg(e, near)

    def to_value(self, e: Operand, near) -> None:
        if e.jumps:
            self.to_any_reg(e, near)
        else:
            self.discharge_vars(e)

    def to_rk(self, e: Operand, near) -> None:
        if e.kind is Kind.CONSTANT and not e.jumps:
            return
        self.to_any_reg(e, near)

    def discharge_to_any_reg(self, e: Operand, near) -> None:
        if e.kind is not Kind.REGISTER:
            self.reserve(1, near)
            e.kind, e.reg = Kind.REGISTER, self.freereg - 1

    def set_multret(self, e: Operand, near) -> None:
        if e.kind is Kind.VARARG:
            self.reserve(1, near)

    @staticmethod
    def set_one_result(e: Operand) -> None:
        if e.kind is Kind.CALL:
            e.kind = Kind.REGISTER
        elif e.kind is Kind.VARARG:
            e.kind = Kind.PENDING

    def jump_on_condition(self, e: Operand, near) -> None:
        if e.kind is Kind.PENDING and e.is_not:
            return
        self.discharge_to_any_reg(e, near)
        self.free(e)

    def go_if_true(self, e: Operand, near) -> None:
        """luaK_goiftrue: go on where ``e`` is true, jumping where it is false."""
        self.discharge_vars(e)
        if not (e.kind is Kind.JUMP or _truthy_constant(e)):
            self.jump_on_condition(e, near)
        e.false_jumps = e.false_jumps or not _truthy_constant(e)
        e.true_jumps = False

    def go_if_false(self, e: Operand, near) -> None:
        self.discharge_vars(e)
        falsy = e.kind is Kind.CONSTANT and (e.value is None or e.value is False)
        if not (e.kind is Kind.JUMP or falsy):
            self.jump_on_condition(e, near)
        e.true_jumps = e.true_jumps or not falsy
        e.false_jumps = False

    def indexed(self, t: Operand, key: Operand, near) -> Operand:
        """luaK_indexed: ``t`` (already up to a register) indexed by ``key``."""
        if t.kind is Kind.UPVALUE and not _is_short_string(key):
            self.to_any_reg(t, near)
        if t.kind is Kind.UPVALUE:
            return Operand(Kind.INDEXED_UPVALUE, table_variable=t.variable)
        result = Operand(Kind.INDEXED, table=t.reg, table_variable=t.variable)
        if not (_is_short_string(key) or _is_c_int(key)):
            self.to_any_reg(key, near)
            result.key, result.key_variable = key.reg, key.variable
        return result

    # ----------------------------------------------------------- expressions
    def expression(self, e) -> Operand:
        c = e.__class__
        if c is A.Name:
            return self.variable(e)
        folded = self.folded(e)
        if folded is not None:
            return Operand(Kind.CONSTANT, value=folded)
        if c is A.Number or c is A.String:
            return Operand(Kind.CONSTANT, value=e.value)
        if c is A.Nil:
            return Operand(Kind.CONSTANT, value=None)
        if c is A.TrueLit or c is A.FalseLit:
            return Operand(Kind.CONSTANT, value=c is A.TrueLit)
        if c is A.Vararg:
            return Operand(Kind.VARARG)
        if c is A.Function:
            result = Operand(Kind.PENDING)
            self.to_next_reg(result, e.last + 1)       # the closure, once its 'end' is read
            return result
        if c is A.Table:
            return self.table(e)
        if c is A.Paren:
            inner = self.expression(e.expr)
            self.discharge_vars(inner)
            return inner
        if c is A.UnOp:
            return self.unary(e)
        if c is A.BinOp:
            return self.binary(e)
        return self.suffixed(e)

    def variable(self, e) -> Operand:
        binding = self.names[id(e)]
        kind = binding[0]
        if kind == 'local':
            return Operand(Kind.LOCAL, variable=binding[1])
        if kind == 'upval':
            return Operand(Kind.UPVALUE, variable=binding)
        if kind == 'const':
            # Not yet a constant to luaK_exp2K: assigned as it is, it takes a register.
            return Operand(Kind.NAMED_CONSTANT, value=binding[1])
        env_kind, env = binding[1][0], binding[1][1]
        table = Operand(Kind.LOCAL, variable=env) if env_kind == 'local' else \
            Operand(Kind.UPVALUE, variable=binding[1])
        # singlevar(): _ENV then luaK_indexed, the name being read already
        self.to_any_reg_up(table, e.last + 1)
        return self.indexed(table, Operand(Kind.CONSTANT, value=e.name), e.last + 1)

    def suffixed(self, e) -> Operand:
        """An index, call or method call, and those it is built on (the
        chains lparser.c's suffixedexp() loops over, taken without
        recursion: they can be as long as the source)."""
        chain = []
        base = e
        while base.__class__ in (A.Index, A.Call, A.MethodCall):
            chain.append(base)
            base = base.func if base.__class__ is A.Call else base.obj
        v = self.expression(base)
        for node in reversed(chain):
            count_instructions(GENERATE_STATEMENT)      # the cancel check, along a long chain
            c = node.__class__
            inner = node.func if c is A.Call else node.obj
            if c is A.Index:
                self.to_any_reg_up(v, inner.last + 1)              # at '.' or '['
                if node.bracketed:
                    key = self.expression(node.key)
                    self.to_value(key, node.key.last + 1)          # at ']'
                else:
                    key = Operand(Kind.CONSTANT, value=node.key.value)
                v = self.indexed(v, key, node.last + 1)
            elif c is A.Call:
                self.to_next_reg(v, inner.last + 1)                # at '(', '{' or the string
                v = self.call_arguments(node, v.reg)
            else:
                after_name = inner.last + 3                        # ':' and the name read
                self.to_any_reg(v, after_name)
                self.free(v)
                self.reserve(2, after_name)
                v = self.call_arguments(node, self.freereg - 2)
        return v

    def call_arguments(self, node, base: int) -> Operand:
        args = node.args
        if node.bare:
            arg = args[0]
            value = self.table(arg) if arg.__class__ is A.Table else Operand(Kind.CONSTANT, value=arg.value)
            self.to_next_reg(value, node.last + 1)
        elif args:
            last = self.expression_list(args)
            if _multiple(args[-1]):
                self.set_multret(last, node.last)                  # at ')'
            else:
                self.to_next_reg(last, node.last + 1)              # after ')'
        self.freereg = base + 1
        return Operand(Kind.CALL, reg=base)

    def expression_list(self, exprs) -> Operand:
        """lparser.c's explist(): each value but the last to the next register
        once the ',' after it is read; the last is returned open."""
        for i, e in enumerate(exprs):
            if i & 63 == 63:
                count_instructions(64 * GENERATE_STATEMENT)
            v = self.expression(e)
            if i == len(exprs) - 1:
                return v
            self.to_next_reg(v, e.last + 2)
        raise AssertionError('an empty expression list')

    def table(self, e) -> Operand:
        self.reserve(1, e)                                 # at '{'
        table_reg = self.freereg - 1
        pending = None
        to_store = 0
        fields = e.fields
        for i, f in enumerate(fields):
            if i & 63 == 63:
                count_instructions(64 * GENERATE_STATEMENT)
            if pending is not None:                        # closelistfield, at the next field
                self.to_next_reg(pending, fields[i - 1].value.last + 2)
                pending = None
                if to_store == LFIELDS_PER_FLUSH:
                    self.freereg = table_reg + 1
                    to_store = 0
            c = f.__class__
            if c is A.PosField:
                pending = self.expression(f.value)
                to_store += 1
                continue
            saved = self.freereg
            if c is A.NamedField:
                key = Operand(Kind.CONSTANT, value=f.name)
            else:
                key = self.expression(f.key)
                self.to_value(key, f.key.last + 1)         # at ']'
            target = self.indexed(Operand(Kind.REGISTER, reg=table_reg), key, f.value)
            value = self.expression(f.value)
            self.store(target, value, f.value.last + 1)
            self.freereg = saved
        if pending is not None:                            # lastlistfield, after the '}'
            if _multiple(fields[-1].value):
                self.set_multret(pending, e.last + 1)
            else:
                self.to_next_reg(pending, e.last + 1)
        self.freereg = table_reg + 1
        return Operand(Kind.REGISTER, reg=table_reg)

    def unary(self, e) -> Operand:
        v = self.expression(e.operand)
        self.discharge_vars(v)
        near = e.last + 1
        if e.op != 'not':
            self.to_any_reg(v, near)
            self.free(v)
            return Operand(Kind.PENDING)
        # codenot() swaps the true and false jumps
        if v.kind is Kind.CONSTANT:
            return Operand(Kind.CONSTANT, value=v.value is None or v.value is False,
                           true_jumps=v.false_jumps, false_jumps=v.true_jumps)
        if v.kind is Kind.JUMP:
            v.true_jumps, v.false_jumps = v.false_jumps, v.true_jumps
            return v
        self.discharge_to_any_reg(v, near)
        self.free(v)
        return Operand(Kind.PENDING, true_jumps=v.false_jumps, false_jumps=v.true_jumps, is_not=True)

    def binary(self, e) -> Operand:
        """An operator and the left-nested chain of operators it ends,
        taken from the innermost up, as lparser.c's subexpr() loops."""
        chain = []
        node = e
        while node.__class__ is A.BinOp and self.folded(node) is None:
            chain.append(node)
            node = node.left
        left = self.expression(node)
        for node in reversed(chain):
            count_instructions(GENERATE_STATEMENT)
            left = self.operator(node, left)
        return left

    def operator(self, e, left: Operand) -> Operand:
        op = e.op
        after_op = e.left.last + 2
        self.discharge_vars(left)
        if op == 'and' or op == 'or':
            # luaK_posfix: the right operand, with the left's jumps out added
            (self.go_if_true if op == 'and' else self.go_if_false)(left, after_op)
            right = self.expression(e.right)
            self.discharge_vars(right)
            if op == 'and':
                right.false_jumps = right.false_jumps or left.false_jumps
            else:
                right.true_jumps = right.true_jumps or left.true_jumps
            return right
        if op == '..':
            self.to_next_reg(left, after_op)
            right = self.expression(e.right)
            self.discharge_vars(right)
            self.to_next_reg(right, e.last + 1)
            self.free(right)
            return left
        if op in ('==', '~='):
            if not _is_numeral(left):
                self.to_rk(left, after_op)
        elif op in ('<', '<=', '>', '>='):
            if not _is_sc_number(left):
                self.to_any_reg(left, after_op)
        elif not _is_numeral(left):
            self.to_any_reg(left, after_op)
        right = self.expression(e.right)
        self.discharge_vars(right)
        near = e.last + 1
        if op in ('==', '~='):
            self.equality(left, right, near)
            return Operand(Kind.JUMP)
        if op in ('<', '<=', '>', '>='):
            if op in ('>', '>='):
                left, right = right, left
            self.order(left, right, near)
            return Operand(Kind.JUMP)
        self.arithmetic(op, left, right, near)
        return Operand(Kind.PENDING)

    def equality(self, e1: Operand, e2: Operand, near) -> None:
        if e1.kind is not Kind.REGISTER:
            e1, e2 = e2, e1
        self.to_any_reg(e1, near)
        if not _is_sc_number(e2):
            self.to_rk(e2, near)
        self.free_both(e1, e2)

    def order(self, e1: Operand, e2: Operand, near) -> None:
        if _is_sc_number(e2):
            self.to_any_reg(e1, near)
        elif _is_sc_number(e1):
            self.to_any_reg(e2, near)
        else:
            self.to_any_reg(e1, near)
            self.to_any_reg(e2, near)
        self.free_both(e1, e2)

    def arithmetic(self, op: str, e1: Operand, e2: Operand, near) -> None:
        """luaK_posfix's arithmetic and bitwise cases: which operands go to
        registers (the rest are constants or immediates)."""
        immediate = False
        if op in ('+', '*'):
            if _is_numeral(e1):
                e1, e2 = e2, e1
            immediate = _is_numeral(e2)
        elif op == '-':
            immediate = _is_numeral(e2)
        elif op in ('/', '//', '%', '^'):
            immediate = _is_numeral(e2)
        elif op in ('&', '|', '~'):
            if e1.kind is Kind.CONSTANT and e1.value.__class__ is int and not e1.jumps:
                e1, e2 = e2, e1
            immediate = e2.kind is Kind.CONSTANT and e2.value.__class__ is int and not e2.jumps
        elif op == '<<':
            if _is_sc_int(e1):
                e1, e2 = e2, e1
                immediate = True
            else:
                immediate = e2.kind is Kind.CONSTANT and e2.value.__class__ is int and not e2.jumps \
                    and _fits_c(e2.value) and _fits_c(-e2.value)
        elif op == '>>':
            immediate = _is_sc_int(e2)
        if not immediate:
            self.to_any_reg(e2, near)
        self.to_any_reg(e1, near)
        self.free_both(e1, e2)

    def free_both(self, e1: Operand, e2: Operand) -> None:
        for reg in sorted((e1.reg if e1.kind is Kind.REGISTER else -1,
                           e2.reg if e2.kind is Kind.REGISTER else -1), reverse=True):
            self.free_reg(reg)

    # ------------------------------------------------------------ stores
    def store(self, target: Operand, value: Operand, near) -> None:
        """luaK_storevar."""
        if target.kind is Kind.LOCAL:
            self.free(value)
            self.discharge_vars(value)
            return
        if target.kind is Kind.UPVALUE:
            self.to_any_reg(value, near)
        else:
            self.to_rk(value, near)
        self.free(value)

    def adjust(self, nvars: int, exprs: list, last: Operand, near) -> None:
        """lparser.c's adjust_assign: ``nvars`` values from ``exprs``."""
        needed = nvars - len(exprs)
        if exprs and _multiple(exprs[-1]):
            if last.kind is Kind.VARARG:
                self.reserve(1, near)
        else:
            if last is not None:
                self.to_next_reg(last, near)
        if needed > 0:
            self.reserve(needed, near)
        else:
            self.freereg += needed

    # -------------------------------------------------------- statements
    def statement(self, s) -> None:
        c = s.__class__
        if c is A.Local:
            self.local(s)
        elif c is A.Assign:
            self.assignment(s)
        elif c is A.CallStat:
            self.expression(s.call)
        elif c is A.Return:
            self.return_(s)
        elif c is A.If:
            for cond, body in s.tests:
                self.freereg = self.nvar
                v = self.expression(cond)
                after_then = cond.last + 2
                if body.stmts and body.stmts[0].__class__ is A.Break:
                    self.go_if_false(v, after_then)
                else:
                    self.go_if_true(v, after_then)
        elif c is A.While:
            self.condition(s.cond)
        elif c is A.NumFor:
            for e in (s.start, s.stop, s.step):
                if e is not None:
                    self.to_next_reg(self.expression(e), e.last + 1)
            do = (s.step or s.stop).last + 1
            if s.step is None:
                self.reserve(1, do)
            self.reserve(1, do + 1)
        elif c is A.GenFor:
            last = self.expression_list(s.exprs)
            do = s.exprs[-1].last + 1
            self.adjust(4, s.exprs, last, do)
            self.check_stack(3, do)
            self.reserve(len(s.names), do + 1)
        elif c is A.FunctionStat:
            target = self.target(s.target)
            closure = Operand(Kind.PENDING)
            self.to_next_reg(closure, s.last + 1)          # once its 'end' is read
            self.store(target, closure, s.last + 1)
        elif c is A.LocalFunction:
            self.reserve(1, s.func.last + 1)

    def condition(self, cond) -> None:
        """lparser.c's cond(): a loop's test, before the token after it."""
        self.go_if_true(self.expression(cond), cond.last + 1)

    def local(self, s) -> None:
        exprs = s.exprs
        nvars = len(s.names)
        last = self.expression_list(exprs) if exprs else None
        if nvars == len(exprs) and s.attribs[-1] == 'const' \
                and last.kind in (Kind.CONSTANT, Kind.NAMED_CONSTANT) and not last.jumps:
            return          # the last is a compile-time constant, in no register
        if exprs:
            self.adjust(nvars, exprs, last, exprs[-1].last + 1)
        else:
            # Within Lua's 200 locals: never past the registers.
            self.freereg += nvars

    def target(self, t) -> Operand:
        """An assignment target, as suffixedexp() leaves it."""
        return self.variable(t) if t.__class__ is A.Name else self.suffixed(t)

    def assignment(self, s) -> None:
        targets = []
        for t in s.targets:
            v = self.target(t)
            if v.kind is Kind.LOCAL or v.kind is Kind.UPVALUE:
                if any(self.conflicts(v, earlier) for earlier in targets):
                    self.reserve(1, t.last + 1)            # check_conflict's copy
            targets.append(v)
        exprs = s.exprs
        last = self.expression_list(exprs)
        near = exprs[-1].last + 1
        if len(exprs) != len(targets):
            self.adjust(len(targets), exprs, last, near)
        else:
            self.set_one_result(last)
            self.store(targets[-1], last, near)

    @staticmethod
    def conflicts(v: Operand, earlier: Operand) -> bool:
        if earlier.kind is Kind.INDEXED:
            return v.kind is Kind.LOCAL and (earlier.table_variable is v.variable
                                        or earlier.key_variable is v.variable)
        if earlier.kind is Kind.INDEXED_UPVALUE:
            return v.kind is Kind.UPVALUE and earlier.table_variable == v.variable
        return False

    def return_(self, s) -> None:
        exprs = s.exprs
        if not exprs:
            return
        last = self.expression_list(exprs)
        near = exprs[-1].last + 1
        if _multiple(exprs[-1]):
            self.set_multret(last, near)
        elif len(exprs) == 1:
            self.to_any_reg(last, near)
        else:
            self.to_next_reg(last, near)


def _multiple(e) -> bool:
    """Can ``e`` give many values (an unparenthesised call or '...')?"""
    return e.__class__ in (A.Call, A.MethodCall, A.Vararg)


def within_reach(locals_top: int, span: int) -> bool:
    """Can a statement of at most ``span`` tokens, with ``locals_top``
    registers held by live locals, run out of registers?  (Only then is it
    worth ``check``.)"""
    return locals_top + span + STATEMENT_SLACK >= MAXREGS


def check(node, names: dict, locals_top: int, folded, tokens: list, chunkname: str) -> None:
    """Raise Lua's error if Lua runs out of registers compiling ``node``, a
    statement or a repeat loop's 'until' test (which sees the body's
    locals), with ``locals_top`` registers held by live locals."""
    model = _Model(names, locals_top, folded)
    try:
        if isinstance(node, A.Statement):
            model.statement(node)
        else:
            model.condition(node)
    except RegisterOverflow as overflow:
        raise register_error(overflow.near, tokens, chunkname) from None


def register_error(near, tokens: list, chunkname: str) -> LuaSyntaxError:
    index = near if near.__class__ is int else first_token(near, tokens)
    token = tokens[min(index, len(tokens) - 1)]
    what = token_name(token)
    message = '%s:%d: function or expression needs too many registers' % (chunkname, token[2])
    return LuaSyntaxError(message if what is None else '%s near %s' % (message, what))


def first_token(e, tokens: list) -> int:
    """The index of the first token of expression ``e``."""
    while True:
        c = e.__class__
        if c is A.BinOp:
            e = e.left
        elif c is A.Index or c is A.MethodCall:
            e = e.obj
        elif c is A.Call:
            e = e.func
        elif c is A.UnOp:
            return first_token(e.operand, tokens) - 1
        elif c is A.Paren:
            return first_token(e.expr, tokens) - 1
        elif c is A.Table:
            return _opening(tokens, e.last, '{', '}')
        elif c is A.Function:
            return _opening(tokens, e.last, 'function', 'end', ('if', 'do'))
        else:
            return e.last


def _opening(tokens: list, last: int, opener: str, closer: str, others=()) -> int:
    """The index of the ``opener`` that the ``closer`` at ``last`` closes
    (``others`` open a ``closer`` too)."""
    depth = 0
    for i in range(last, -1, -1):
        kind = tokens[i][0]
        if kind == closer:
            depth += 1
        elif kind == opener or kind in others:
            depth -= 1
            if depth == 0:
                return i
    return last
