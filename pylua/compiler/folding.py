"""Lua's constant folding: the number lcode.c's ``constfolding`` makes of
an operator expression on numerals (and ``<const>`` locals holding them)."""
from __future__ import annotations

from . import ast as A
from ..runtime.state import GENERATE_STATEMENT, count_instructions


_FOLDED_ARITH = {'+': 'add', '-': 'sub', '*': 'mul', '/': 'div', '%': 'mod', '//': 'idiv', '^': 'pow'}


def _exact_integer(v):
    """``v`` as an integer when it has one's value (floats too), else None."""
    if v.__class__ is float:
        return int(v) if v.is_integer() and -2.0 ** 63 <= v < 2.0 ** 63 else None
    return v


def _shift_left(a, n):
    from ..runtime.ops import shift_left          # as folded_number's arith_num: no import cycle
    return shift_left(a, n)


_FOLDED_BITWISE = {'&': int.__and__, '|': int.__or__, '~': int.__xor__,
                   '<<': _shift_left, '>>': lambda a, n: _shift_left(a, -n)}


def folded_number(e, names, memo=None):
    """The value Lua's constant folding (lcode.c's ``constfolding``) gives
    numeric expression ``e``, or None where it does not fold: a division by
    zero, a float result that is NaN or zero, bitwise operations on a
    number with no integer value.  ``memo`` (id -> result) keeps a long
    operator chain, asked at each of its operators, linear."""
    while e.__class__ is A.Paren:
        e = e.expr
    c = e.__class__
    if c is A.Number:
        return e.value
    if c is A.Name:
        binding = names.get(id(e))
        value = binding[1] if binding is not None and binding[0] == 'const' else None
        return value if value.__class__ in (int, float) else None
    if c is not A.UnOp and c is not A.BinOp:
        return None
    if memo is not None and id(e) in memo:
        return memo[id(e)]
    if memo is not None:
        # A long chain ``a + b + c + ...`` nests on the left: its operators
        # are folded from the innermost up, each finding its left operand's
        # fold made, so the folding never recurses down the chain (a deep
        # recursion ended by an error or a cancel unwinds slowly).
        spine = []
        inner = e.left if e.__class__ is A.BinOp else None
        while inner.__class__ is A.BinOp and id(inner) not in memo:
            count_instructions(GENERATE_STATEMENT)      # the cancel check, down a long chain
            spine.append(inner)
            inner = inner.left
        for inner in reversed(spine):
            count_instructions(GENERATE_STATEMENT)      # and back up
            memo[id(inner)] = _fold_operation(inner, names, memo)
    result = _fold_operation(e, names, memo)
    if memo is not None:
        memo[id(e)] = result
    return result


def _fold_operation(e, names, memo):
    """``folded_number`` of an operator expression."""
    from ..runtime.ops import arith_num
    if e.__class__ is A.UnOp:
        if e.op != '-' and e.op != '~':
            return None
        v = folded_number(e.operand, names, memo)
        if v is not None and e.op == '~':
            v = _exact_integer(v)
        if v is None:
            return None
        result = arith_num('unm', v, 0) if e.op == '-' else ~v
    elif e.op in _FOLDED_ARITH or e.op in _FOLDED_BITWISE:
        # The right operand first: in a long chain it is the one that fails fast.
        b = folded_number(e.right, names, memo)
        a = folded_number(e.left, names, memo) if b is not None else None
        if a is None or b is None:
            return None
        if e.op in _FOLDED_BITWISE:
            # Floats with an integer value convert (validop's luaV_tointegerns).
            a, b = _exact_integer(a), _exact_integer(b)
            if a is None or b is None:
                return None
            result = _FOLDED_BITWISE[e.op](a, b)
        elif e.op in ('/', '%', '//') and b == 0:
            return None
        else:
            result = arith_num(_FOLDED_ARITH[e.op], a, b)
    else:
        return None
    if result.__class__ is float and (result != result or result == 0):
        return None
    return result
