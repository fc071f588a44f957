"""The Lua 5.4 syntax tree produced by the parser and consumed by the code generator.

Every node carries ``line``, the 1-based source line the compiler uses for
runtime error positions.  String values are Lua byte strings: Python ``str``
whose code points are all below 256, one per byte.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union


@dataclass(slots=True)
class Node:
    line: int


@dataclass(slots=True)
class Spanned(Node):
    """An expression or statement; the parser sets ``last``, the index of its
    last token in ``Chunk.tokens``: where Lua's lexer stands around it."""
    last: int = field(default=0, init=False, repr=False, compare=False)


@dataclass(slots=True)
class Expression(Spanned):
    pass


@dataclass(slots=True)
class Statement(Spanned):
    pass


# ---------------------------------------------------------------- expressions

@dataclass(slots=True)
class Nil(Expression):
    pass


@dataclass(slots=True)
class TrueLit(Expression):
    pass


@dataclass(slots=True)
class FalseLit(Expression):
    pass


@dataclass(slots=True)
class Vararg(Expression):
    pass


@dataclass(slots=True)
class Number(Expression):
    value: Union[int, float]          # ints already wrapped to 64 bits


@dataclass(slots=True)
class String(Expression):
    value: str                        # byte string


@dataclass(slots=True)
class Name(Expression):
    name: str


@dataclass(slots=True)
class Index(Expression):
    obj: "Expr"
    key: "Expr"                       # a.b is Index(a, String('b'))
    end_line: int = 0                 # its last token's: ']' or the field name
    bracketed: bool = False           # a[k]: the key is an expression of its own (a C level of lparser.c)


@dataclass(slots=True)
class Call(Expression):
    func: "Expr"
    args: list
    end_line: int = 0                 # its last token's: ')', '}' or the string
    bare: bool = False                # f{...} or f"...": the argument is no expression of its own


@dataclass(slots=True)
class MethodCall(Expression):
    obj: "Expr"
    method: str
    args: list
    end_line: int = 0
    bare: bool = False                # as Call's
    method_line: int = 0              # the method name's: where Lua indexes the object (SELF)


@dataclass(slots=True)
class Function(Expression):
    params: list                      # parameter names, 'self' first for methods
    is_vararg: bool
    body: "Block"
    end_line: int = 0
    name: Optional[str] = None        # display name for listings, e.g. 'a.b:m'


@dataclass(slots=True)
class BinOp(Expression):
    op: str       # + - * / // % ^ .. == ~= < <= > >= and or & | ~ << >>
    left: "Expr"
    right: "Expr"


@dataclass(slots=True)
class UnOp(Expression):
    op: str       # - not # ~
    operand: "Expr"


@dataclass(slots=True)
class Paren(Expression):
    """A parenthesised expression: truncates calls and varargs to one value."""
    expr: "Expr"
    end_line: int = 0


@dataclass(slots=True)
class PosField(Node):
    value: "Expr"


@dataclass(slots=True)
class NamedField(Node):
    name: str
    value: "Expr"


@dataclass(slots=True)
class KeyedField(Node):
    key: "Expr"
    value: "Expr"


@dataclass(slots=True)
class Table(Expression):
    fields: list                      # PosField | NamedField | KeyedField
    end_line: int = 0


Expr = Union[Nil, TrueLit, FalseLit, Vararg, Number, String, Name, Index, Call,
             MethodCall, Function, BinOp, UnOp, Paren, Table]


# ----------------------------------------------------------------- statements

@dataclass(slots=True)
class Block(Node):
    stmts: list
    end_line: int = 0                 # line of the token that closes the block
    last_line: int = 0                # line of the token before that one


@dataclass(slots=True)
class Local(Statement):
    names: list
    attribs: list                     # per name: None, 'const' or 'close'
    exprs: list
    # Without exprs: the token after the last name, as (its text for a
    # 'near' in a message, its line): where Lua's parser is as it declares it.
    follow: tuple | None = None


@dataclass(slots=True)
class Assign(Statement):
    targets: list                     # Name | Index
    exprs: list


@dataclass(slots=True)
class CallStat(Statement):
    call: Union[Call, MethodCall]


@dataclass(slots=True)
class Do(Statement):
    body: Block


@dataclass(slots=True)
class While(Statement):
    cond: "Expr"
    body: Block


@dataclass(slots=True)
class Repeat(Statement):
    body: Block
    cond: "Expr"                      # sees the body's locals


@dataclass(slots=True)
class If(Statement):
    tests: list                       # [(cond, Block), ...] for if / elseif
    orelse: Optional[Block]
    then_lines: Optional[list] = None  # per test, the line of its 'then' (where Lua tests)


@dataclass(slots=True)
class NumFor(Statement):
    var: str
    start: "Expr"
    stop: "Expr"
    step: Optional["Expr"]
    body: Block
    do_line: int = 0                  # of its 'do': where Lua checks the start, limit and step (FORPREP)


@dataclass(slots=True)
class GenFor(Statement):
    names: list
    exprs: list
    body: Block
    exprs_line: int                   # of the explist's first token: Lua's line for the iterator call


@dataclass(slots=True)
class FunctionStat(Statement):
    """``function a.b.c:m() end``: target is Name or Index; func already has 'self'."""
    target: Union[Name, Index]
    func: Function


@dataclass(slots=True)
class LocalFunction(Statement):
    name: str
    func: Function


@dataclass(slots=True)
class Return(Statement):
    exprs: list


@dataclass(slots=True)
class Break(Statement):
    pass


@dataclass(slots=True)
class Goto(Statement):
    label: str


@dataclass(slots=True)
class Label(Statement):
    name: str


@dataclass(slots=True)
class Chunk(Node):
    body: Block
    chunkname: str = "?"
    last_line: int = 0                # line of its last token, where Lua's main function returns
    tokens: list = field(default_factory=list, repr=False, compare=False)   # the lexer's, which ``Spanned.last`` indexes
