"""Lua 5.4 parser: a source byte string to a pylua.compiler.ast.Chunk.

lexer.py reads the tokens; the LALR(1) tables in _tables.py, which Lark's
analyser built from grammar.lark (see build_parser.py), drive a small
shift/reduce loop here; each grammar alias has a callback below that builds
one AST node.  Nothing of Lark is imported at run time.

Syntax errors carry lparser.c's exact wording.  Where Lua checks something
during parsing, so does this module: a callback raises _Reject ("syntax
error" for a call statement that is not a call, an unknown attribute, ...),
and parse() adds the position and the token Lua would name.
"""
from __future__ import annotations

from ..runtime.errors import LuaSyntaxError
from ..runtime.state import PARSE_TOKEN, count_instructions
from . import ast as A
from ._tables import ACCEPT, ERRORS, RULES, SPECIAL, TABLE
from .lexer import near, tokenize
from .resolver import C_STACK_OVERFLOW, MAX_LOCALS, too_deep

# Lua refuses nesting deeper than LUAI_MAXCCALLS (200) C levels, which the
# resolver counts as lparser.c takes them (``resolver.MAX_C_LEVELS``).  The
# parse stack holds one to about ten entries per level (a numeric for's
# header is eight), so this bound leaves every program within Lua's levels
# to the resolver, whose message is then Lua's (a nest of numeric fors runs
# out of locals first), and keeps the tree a later pass walks bounded.
MAX_DEPTH = 4000
# A syntax error found with more open levels than LUAI_MAXCCALLS is Lua's
# overflow instead: lparser.c's enterlevel() failed at an earlier token.
# A level is one pending token that opens a recursion of lparser.c, or one
# target of a multiple assignment (restassign recurses per target).
MAX_LEVELS = 200
_LEVEL_TOKENS = frozenset(['(', '{', '[', ',', '..', '^', 'do', 'then', 'repeat'])

# lparser.c's block_follow(): tokens that end a block.
_BLOCK_FOLLOW = frozenset(['else', 'elseif', 'end', 'until', '$END'])


class _Reject(Exception):
    """lparser.c raises an error at the current token."""

    def __init__(self, message: str, near_token: bool = True):
        super().__init__(message)
        self.message = message
        self.near_token = near_token    # luaK_semerror() names no token


def parse(source: str, chunkname: str, *, from_file: bool = True, c_levels: int = 1) -> A.Chunk:
    """Parse Lua source (a byte string: one char per byte) into a Chunk.

    With `from_file` (the default) a UTF-8 BOM and a first line starting
    with '#' are skipped, as lua.c and luaL_loadfile do for files; Lua's
    load() of a string skips nothing, so it passes from_file=False.
    Raises LuaSyntaxError with Lua's message, e.g.
    ``input:1: unexpected symbol near ')'``; ``c_levels`` are the C levels
    open where it is loaded (see ``resolver.too_deep``)."""
    tokens = tokenize(source, from_file)
    body = _run(tokens, chunkname, c_levels)
    _close(body, tokens[-1])
    last_line = tokens[-2][2] if len(tokens) > 1 else 0
    return A.Chunk(0, body, chunkname, last_line, tokens)      # line 0: Lua's main function


def _run(tokens: list, chunkname: str, c_levels: int) -> A.Block:
    # The LR stack is `states` plus `state`, its top, kept in a local.
    states = []
    state = 0
    values = []
    table = TABLE
    rules = _RULES
    try:
        for index, tok in enumerate(tokens):
            if index & 1023 == 1023:
                count_instructions(1024 * PARSE_TOKEN)     # the cancel check
            kind = tok[0]
            while True:
                action = table[state].get(kind)
                if action is None:
                    if kind == '$END' and state == ACCEPT:
                        return values[-1]
                    states.append(state)
                    _fail(tok, states, values)
                if action >= 0:
                    if action >= SPECIAL:
                        action -= SPECIAL
                        tok = _special_shift(tok, tokens[index + 1], states, values)
                    states.append(state)
                    state = action
                    values.append(tok)
                    break
                callback, lhs, size, spans = rules[~action]
                if callback is None:        # A -> B: the value stays as it is
                    state = table[states[-1]][lhs]
                elif size > 0:
                    args = values[-size:]
                    del values[-size:]
                    if size > 1:
                        del states[1 - size:]
                    value = callback(*args)
                    if spans:               # the lookahead follows the expression
                        value.last = index - 1
                    values.append(value)
                    state = table[states[-1]][lhs]
                else:
                    # An empty production of size -1 is given the lookahead token.
                    values.append(callback(tok) if size else callback())
                    states.append(state)
                    state = table[state][lhs]
    except _TooManyLocals:
        raise _error(chunkname, tok, 'too many local variables (limit is %d) in %s'
                     % (MAX_LOCALS, _open_function(values)), True) from None
    except _Reject as e:
        # The statement is a level, each bracket in it at least one more.
        if too_deep(1 + _deepest_brackets(tokens[:index]), c_levels):
            raise LuaSyntaxError(C_STACK_OVERFLOW) from None
        raise _error(chunkname, tok, e.message, e.near_token) from None
    raise AssertionError('the token list ends with $END or ERROR')


def _error(chunkname: str, tok, message: str, near_token: bool) -> LuaSyntaxError:
    what = near(tok) if near_token else None
    if what is not None:
        message = f'{message} near {what}'
    return LuaSyntaxError(f'{chunkname}:{tok[2]}: {message}')


def _fail(tok, states: list, values: list):
    """Raise Lua's error for `tok`, which the state on top of `states` does
    not accept.

    ERRORS says per state what lparser.c would be doing: where it would
    leave a construct (an optional part is absent, or a block-ending token
    ends a block), reduce and look again."""
    if tok[0] == 'ERROR':
        raise _Reject(tok[1], False)        # the lexer's message is complete
    if _open_levels(values) > MAX_LEVELS:
        raise LuaSyntaxError(C_STACK_OVERFLOW)
    while True:
        message, rule, match = ERRORS[states[-1]]
        if message is None or (rule is not None and tok[0] in _BLOCK_FOLLOW):
            _reduce(rule, states, values, tok)
            continue
        if match is not None:
            who, offset = match
            opened = _line(values[-offset])
            if opened != tok[2]:
                message += f' (to close {who} at line {opened})'
        raise _Reject(message)


def _open_function(values: list) -> str:
    """Lua's name of the innermost function being parsed."""
    inside = False
    for v in reversed(values):
        inside = inside or type(v) is _Params
        if inside and type(v) is tuple and v[0] == 'function':
            return 'function at line %d' % v[2]
    return 'main function'


def _deepest_brackets(tokens: list) -> int:
    """How deep brackets nested in `tokens`.  Each is at least a C level of
    lparser.c (an expression inside it): past Lua's limit, it failed there
    before it could reach a syntax error after them, closed by then
    (``((...1))`` as a statement)."""
    depth = deepest = 0
    for tok in tokens:
        kind = tok[0]
        if kind in _OPENING:
            depth += 1
            if depth > deepest:
                deepest = depth
        elif kind in _CLOSING:
            depth -= 1
    return deepest


_OPENING = frozenset('([{')
_CLOSING = frozenset(')]}')


def _open_levels(values: list) -> int:
    levels = 0
    for v in values:
        if type(v) is tuple and type(v[0]) is str:         # a token
            levels += v[0] in _LEVEL_TOKENS
        elif type(v) is _Targets:
            levels += len(v)
    return levels


def _reduce(rule: int, states: list, values: list, lookahead) -> None:
    callback, lhs, size, _ = _RULES[rule]
    if size < 0:
        values.append(callback(lookahead))
        states.append(TABLE[states[-1]][lhs])
        return
    args = values[len(values) - size:]
    del values[len(values) - size:]
    del states[len(states) - size:]
    values.append(callback(*args) if callback else args[0])
    states.append(TABLE[states[-1]][lhs])


def _special_shift(tok, next_tok, states: list, values: list):
    """Checks before shifting a SPECIAL token: one that opens nesting, '...'
    as an expression, or a name that starts a table field.  Returns the
    token to shift."""
    if len(states) >= MAX_DEPTH:
        raise LuaSyntaxError(C_STACK_OVERFLOW)
    kind = tok[0]
    if kind == 'NAME':
        # constructor() peeks at the token after a name for '=', and from
        # then on Lua's line is that token's: it is the line of the name
        # for the code and messages, as in '{f\n(1)}' calling on line 2.
        return (kind, tok[1], next_tok[2], None)
    if kind == '...':
        for value in reversed(values):
            if type(value) is _Params:      # innermost open function
                if not value.vararg:
                    raise _Reject("cannot use '...' outside a vararg function")
                break
    return tok                              # (the main chunk is vararg)


def _line(value) -> int:
    return value[2] if type(value) is tuple else value.line


def _first_token_line(expr) -> int:
    """The line of an expression's first token (a node's own line is its operator's)."""
    while True:
        c = expr.__class__
        if c is A.BinOp or c is A.Call or c is A.Index or c is A.MethodCall:
            expr = expr.left if c is A.BinOp else expr.func if c is A.Call else expr.obj
        else:
            return expr.line


def _close(block: A.Block, tok) -> A.Block:
    """Record the token that closes `block` (its line if it is empty)."""
    block.end_line = tok[2]
    block.last_line = tok[2] if tok[3] is None else tok[3]
    if not block.stmts:
        block.line = tok[2]
    return block


def _dotted_name(expr) -> str:
    """'a.b.c' for the Name/Index chain of a function statement."""
    parts = []
    while type(expr) is A.Index:
        parts.append(expr.key.value)
        expr = expr.obj
    parts.append(expr.name)
    return '.'.join(reversed(parts))


def _target(expr):
    # restassign(): only a variable or a field can be assigned to
    if type(expr) is A.Name or type(expr) is A.Index:
        return expr
    raise _Reject('syntax error')


class _TooManyLocals(Exception):
    """One local statement declares more names than Lua's limit of locals
    (the resolver counts those of the whole function)."""


class _NoInit(list):
    """The empty initializer of a local statement, and the token after it."""

    def __init__(self, follow):
        super().__init__()
        self.follow = follow


class _Targets(list):
    """The targets of an assignment being parsed."""


class _Params:
    """A parameter list; while on the parse stack it marks an open function."""
    __slots__ = ('names', 'vararg')

    def __init__(self, names: list, vararg: bool):
        self.names = names
        self.vararg = vararg


class _Build:
    """The callbacks, one per grammar alias, looked up by name.  Plain
    functions in a class namespace: _Build.name(args) builds the node.
    Tokens arrive as (type, value, line, raw) tuples; see lexer.py."""

    def chunk(block):
        return block

    def block(stats):
        return A.Block(stats[0].line if stats else 0, stats)

    def block_return(stats, ret):
        stats.append(ret)
        return _Build.block(stats)

    def new_list():
        return []

    def append(items, item):
        items.append(item)
        return items

    def append_third(items, _sep, item):
        items.append(item)
        return items

    def list1(item):
        return [item]

    def first(a, _b):
        return a

    def second(_a, b):
        return b

    def none():
        return None

    def return_none(kw, _semi=None):
        return A.Return(kw[2], [])

    def return_values(kw, exprs, _semi=None):
        return A.Return(kw[2], exprs)

    def call_stat(expr):
        # exprstat(): an expression statement must be a call
        if type(expr) is A.Call or type(expr) is A.MethodCall:
            return A.CallStat(expr.line, expr)
        raise _Reject('syntax error')

    def assign(targets, _eq, exprs):
        return A.Assign(targets[0].line, targets, exprs)

    def target_list(expr):
        return _Targets([_target(expr)])

    def target_append(targets, _comma, expr):
        targets.append(_target(expr))
        return targets

    def label(colons, name, _colons):
        return A.Label(colons[2], name[1])

    def break_(kw):
        return A.Break(kw[2])

    def goto(kw, name):
        return A.Goto(kw[2], name[1])

    def do(kw, body, end):
        return A.Do(kw[2], _close(body, end))

    def while_(kw, cond, _do, body, end):
        return A.While(kw[2], cond, _close(body, end))

    def repeat(kw, body, until, cond):
        return A.Repeat(kw[2], _close(body, until), cond)

    def if_(kw, cond, then, body, elseifs, orelse, end):
        tests = [(cond, body)]
        then_lines = [then[2]]
        for elseif_kw, elseif_cond, elseif_then, elseif_body in elseifs:
            _close(body, elseif_kw)
            tests.append((elseif_cond, elseif_body))
            then_lines.append(elseif_then[2])
            body = elseif_body
        if orelse is not None:
            else_kw, orelse = orelse
            _close(body, else_kw)
            body = orelse
        _close(body, end)
        return A.If(kw[2], tests, orelse, then_lines)

    def elseif(items, kw, cond, then, body):
        items.append((kw, cond, then, body))
        return items

    def else_(kw, body):
        return (kw, body)

    def numfor(kw, name, _eq, start, _comma, stop, step, _do, body, end):
        return A.NumFor(kw[2], name[1], start, stop, step, _close(body, end), _do[2])

    def genfor(kw, names, _in, exprs, _do, body, end):
        return A.GenFor(kw[2], names, exprs, _close(body, end), _first_token_line(exprs[0]))

    def funcstat(kw, funcname, _lparen, params, _rparen, body, end):
        target, display, is_method = funcname
        names = ['self'] + params.names if is_method else params.names
        func = A.Function(kw[2], names, params.vararg, _close(body, end), end[2], display)
        return A.FunctionStat(kw[2], target, func)

    def local_function(kw, _function, name, func):
        func.name = name[1]
        return A.LocalFunction(kw[2], name[1], func)

    def local(kw, attnames, exprs):
        names, attribs = attnames
        follow = (near(exprs.follow), exprs.follow[2]) if exprs.__class__ is _NoInit else None
        return A.Local(kw[2], names, attribs, exprs, follow)

    def no_init(lookahead):
        return _NoInit(lookahead)

    def attname_list(name, attrib):
        return ([name[1]], [attrib])

    def attname_append(attnames, _comma, name, attrib):
        names, attribs = attnames
        if len(names) >= MAX_LOCALS:
            raise _TooManyLocals()
        if attrib == 'close' and 'close' in attribs:
            raise _Reject('multiple to-be-closed variables in local list', False)
        names.append(name[1])
        attribs.append(attrib)
        return attnames

    def attrib(_lt, name, _gt):
        if name[1] == 'const' or name[1] == 'close':
            return name[1]
        raise _Reject(f"unknown attribute '{name[1]}'", False)

    def name_list(name):
        return [name[1]]

    def name_append(names, _comma, name):
        names.append(name[1])
        return names

    def funcname(dotted):
        return (dotted, _dotted_name(dotted), False)

    def methodname(dotted, _colon, name):
        target = A.Index(dotted.line, dotted, A.String(name[2], name[1]))
        target.last = dotted.last + 2           # ':' and the name
        return (target, f'{_dotted_name(dotted)}:{name[1]}', True)

    def funcbody(lparen, params, _rparen, body, end):
        # Lua's linedefined for 'function (' and 'local function f(' is the
        # line of '(', where body() starts.
        return A.Function(lparen[2], params.names, params.vararg, _close(body, end), end[2])

    def params(names=None):
        return _Params(names or [], False)

    def params_vararg(_dots):
        return _Params([], True)

    def params_names_vararg(names, _comma, _dots):
        return _Params(names, True)

    def binop(left, op, right):
        return A.BinOp(op[2], op[1], left, right)

    def unop(op, operand):
        return A.UnOp(op[2], op[1], operand)

    def nil(tok):
        return A.Nil(tok[2])

    def true(tok):
        return A.TrueLit(tok[2])

    def false(tok):
        return A.FalseLit(tok[2])

    def number(tok):
        return A.Number(tok[2], tok[1])

    def string(tok):
        return A.String(tok[2], tok[1])

    def vararg(tok):
        return A.Vararg(tok[2])

    def function(_kw, func):
        return func

    def name(tok):
        return A.Name(tok[2], tok[1])

    def paren(lparen, expr, rparen):
        return A.Paren(lparen[2], expr, rparen[2])

    def field(obj, _dot, key):
        return A.Index(obj.line, obj, A.String(key[2], key[1]), key[2])

    def index(obj, _lbracket, key, rbracket):
        return A.Index(obj.line, obj, key, rbracket[2], True)

    # A call's line is where the called expression starts, as in lparser.c's
    # suffixedexp()/funcargs(): 'f\n(1)' fails at runtime on line 1.
    def call_empty(func, _lparen, rparen):
        return A.Call(func.line, func, [], rparen[2])

    def call(func, _lparen, args, rparen):
        return A.Call(func.line, func, args, rparen[2])

    def call_table(func, table):
        return A.Call(func.line, func, [table], table.end_line, True)

    def call_string(func, tok):
        return A.Call(func.line, func, [A.String(tok[2], tok[1])], tok[2], True)

    def method_empty(obj, _colon, method, _lparen, rparen):
        return A.MethodCall(obj.line, obj, method[1], [], rparen[2], method_line=method[2])

    def method(obj, _colon, method, _lparen, args, rparen):
        return A.MethodCall(obj.line, obj, method[1], args, rparen[2], method_line=method[2])

    def method_table(obj, _colon, method, table):
        return A.MethodCall(obj.line, obj, method[1], [table], table.end_line, True, method[2])

    def method_string(obj, _colon, method, tok):
        return A.MethodCall(obj.line, obj, method[1], [A.String(tok[2], tok[1])], tok[2], True, method[2])

    def table(lbrace, fields, rbrace):
        return A.Table(lbrace[2], fields, rbrace[2])

    def positional_field(value):
        return A.PosField(value.line, value)

    def named_field(key, _eq, value):
        return A.NamedField(key[2], key[1], value)

    def keyed_field(lbracket, key, _rbracket, _eq, value):
        return A.KeyedField(lbracket[2], key, value)


# The aliases that build an A.Spanned node, whose last token _run records.
_SPANNED = frozenset(['binop', 'unop', 'nil', 'true', 'false', 'number', 'string', 'vararg',
                      'function', 'funcbody', 'name', 'paren', 'field', 'index', 'table',
                      'call', 'call_empty', 'call_string', 'call_table',
                      'method', 'method_empty', 'method_string', 'method_table',
                      'local', 'assign', 'call_stat', 'return_none', 'return_values', 'label',
                      'break_', 'goto', 'do', 'while_', 'repeat', 'if_', 'numfor', 'genfor',
                      'funcstat', 'local_function'])
# A local statement without '=' needs the token after its names (size -1: see _run).
_RULES = tuple((_Build.no_init, lhs, -1, False) if (lhs, size) == ('localinit', 0) else
               (getattr(_Build, alias) if alias else None, lhs, size, alias in _SPANNED)
               for alias, lhs, size in RULES)
