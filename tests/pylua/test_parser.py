"""pylua.compiler.parser: the tree for every construct, literal decoding, and
syntax errors worded exactly as the reference lua5.4 (5.4.4) words them.

The expected messages below are lua5.4's ``load(src, '=input')`` results;
when lua5.4 is installed, the reference tests re-check them and compare
messages on a few hundred mutated programs.
"""
import dataclasses
import random
import re
import shutil
import struct
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

from pylua.compiler import ast as A
from pylua.compiler import build_parser
from pylua.compiler.parser import parse
from pylua.runtime.errors import LuaSyntaxError

LUA = shutil.which('lua5.4')


def shape(node):
    """A node as nested tuples without line numbers, token positions and the source's
    spelling of indexes and call arguments: ('Name', 'x')."""
    if isinstance(node, list):
        return [shape(x) for x in node]
    if isinstance(node, tuple):
        return tuple(shape(x) for x in node)
    if isinstance(node, A.Node):
        return (type(node).__name__,) + tuple(
            shape(getattr(node, f.name)) for f in dataclasses.fields(node)
            if f.name not in ('line', 'end_line', 'method_line', 'do_line', 'then_lines', 'last_line', 'follow',
                              'bracketed', 'bare', 'last'))
    return node


def stmts(src):
    return parse(src, 'input').body.stmts


def stmt(src):
    body = stmts(src)
    assert len(body) == 1
    return body[0]


def expr(src):
    """The tree of one expression, parsed as 'return <src>'."""
    return stmt('return ' + src).exprs[0]


def error(src, chunkname='input'):
    with pytest.raises(LuaSyntaxError) as info:
        parse(src, chunkname)
    return info.value.value


def N(name):
    return ('Name', name)


def S(value):
    return ('String', value)


def I(value):  # noqa: E743 (a number, as in the AST)
    return ('Number', value)


def block(*stmts):
    return ('Block', list(stmts))


# ------------------------------------------------------------- statements

def test_empty_chunk():
    chunk = parse('', 'input')
    assert chunk == A.Chunk(0, A.Block(1, [], 1, 1), 'input')


def test_local_with_attributes_and_no_values():
    assert shape(stmt('local a <const>, b, c <close> = 1, 2')) == \
        ('Local', ['a', 'b', 'c'], ['const', None, 'close'], [I(1), I(2)])
    assert shape(stmt('local x')) == ('Local', ['x'], [None], [])


def test_assignment_targets():
    assert shape(stmt('a, b.c, d[1] = 1, 2')) == ('Assign', [
        N('a'), ('Index', N('b'), S('c')), ('Index', N('d'), I(1))], [I(1), I(2)])
    assert shape(stmt('a.b.c = f')) == \
        ('Assign', [('Index', ('Index', N('a'), S('b')), S('c'))], [N('f')])


def test_call_statements_and_call_sugar():
    assert shape(stmt('f(1, 2)')) == ('CallStat', ('Call', N('f'), [I(1), I(2)]))
    assert shape(stmt('f()')) == ('CallStat', ('Call', N('f'), []))
    assert shape(stmt('f"str"')) == ('CallStat', ('Call', N('f'), [S('str')]))
    assert shape(stmt('f[[long]]')) == ('CallStat', ('Call', N('f'), [S('long')]))
    assert shape(stmt('f{1}')) == \
        ('CallStat', ('Call', N('f'), [('Table', [('PosField', I(1))])]))
    assert shape(stmt('o:m(1)')) == ('CallStat', ('MethodCall', N('o'), 'm', [I(1)]))
    assert shape(stmt('o:m()')) == ('CallStat', ('MethodCall', N('o'), 'm', []))
    assert shape(stmt('o:m"s"')) == ('CallStat', ('MethodCall', N('o'), 'm', [S('s')]))
    assert shape(stmt('o:m{}')) == ('CallStat', ('MethodCall', N('o'), 'm', [('Table', [])]))
    assert shape(stmt('f(1)(2):m(3)')) == ('CallStat', ('MethodCall', (
        'Call', ('Call', N('f'), [I(1)]), [I(2)]), 'm', [I(3)]))
    assert shape(stmt('("x"):rep(3)')) == \
        ('CallStat', ('MethodCall', ('Paren', S('x')), 'rep', [I(3)]))


def test_a_parenthesis_after_an_expression_is_a_call():
    # Lua 5.4 reads this as 'a = b(f)()', never as two statements
    assert shape(stmts('a = b\n(f)()')) == [('Assign', [N('a')], [
        ('Call', ('Call', N('b'), [N('f')]), [])])]


def test_blocks_and_loops():
    assert shape(stmt('do local x end')) == ('Do', block(('Local', ['x'], [None], [])))
    assert shape(stmt('while x do break end')) == ('While', N('x'), block(('Break',)))
    assert shape(stmt('repeat local y until y')) == \
        ('Repeat', block(('Local', ['y'], [None], [])), N('y'))
    assert shape(stmt('for i = 1, 10 do end')) == ('NumFor', 'i', I(1), I(10), None, block())
    assert shape(stmt('for i = 10, 1, -1 do end')) == \
        ('NumFor', 'i', I(10), I(1), ('UnOp', '-', I(1)), block())
    assert shape(stmt('for k, v in pairs(t), 1 do end')) == \
        ('GenFor', ['k', 'v'], [('Call', N('pairs'), [N('t')]), I(1)], block(), 1)


def test_if_elseif_else():
    assert shape(stmt('if a then x() elseif b then elseif c then y() else z() end')) == (
        'If', [(N('a'), block(('CallStat', ('Call', N('x'), [])))),
               (N('b'), block()),
               (N('c'), block(('CallStat', ('Call', N('y'), []))))],
        block(('CallStat', ('Call', N('z'), []))))
    assert shape(stmt('if a then end')) == ('If', [(N('a'), block())], None)


def test_function_statements():
    assert shape(stmt('function f(a, b) end')) == \
        ('FunctionStat', N('f'), ('Function', ['a', 'b'], False, block(), 'f'))
    assert shape(stmt('function a.b.c:m(x, ...) return self end')) == (
        'FunctionStat',
        ('Index', ('Index', ('Index', N('a'), S('b')), S('c')), S('m')),
        ('Function', ['self', 'x'], True, block(('Return', [N('self')])), 'a.b.c:m'))
    assert shape(stmt('function a.b() end')) == \
        ('FunctionStat', ('Index', N('a'), S('b')), ('Function', [], False, block(), 'a.b'))
    assert shape(stmt('local function f(...) end')) == \
        ('LocalFunction', 'f', ('Function', [], True, block(), 'f'))
    assert shape(expr('function(a, ...) end')) == ('Function', ['a'], True, block(), None)


def test_return_forms_and_empty_statements():
    assert shape(stmt('return')) == ('Return', [])
    assert shape(stmt('return;')) == ('Return', [])
    assert shape(stmt('return 1, ...;')) == ('Return', [I(1), ('Vararg',)])
    assert shape(stmts(';;local x;;;return 1;')) == [('Local', ['x'], [None], []), ('Return', [I(1)])]
    assert shape(stmt('do return end')) == ('Do', block(('Return', [])))


def test_goto_and_labels():
    assert shape(stmts('::top:: goto top')) == [('Label', 'top'), ('Goto', 'top')]


def test_varargs_where_the_function_is_vararg():
    assert shape(stmt('x = ...')) == ('Assign', [N('x')], [('Vararg',)])
    func = expr('function(a, ...) return {f = function(...) return ... end, ...} end')
    assert func.is_vararg and func.params == ['a']
    inner = func.body.stmts[0].exprs[0].fields[0].value
    assert shape(inner.body) == block(('Return', [('Vararg',)]))


def test_table_constructors():
    assert shape(expr('{1, x = 2; [k] = 3, f(), ...}')) == ('Table', [
        ('PosField', I(1)), ('NamedField', 'x', I(2)), ('KeyedField', N('k'), I(3)),
        ('PosField', ('Call', N('f'), [])), ('PosField', ('Vararg',))])
    assert shape(expr('{1;}')) == ('Table', [('PosField', I(1))])
    assert shape(expr('{x}')) == ('Table', [('PosField', N('x'))])
    assert shape(expr('{x == 1}')) == ('Table', [('PosField', ('BinOp', '==', N('x'), I(1)))])
    assert shape(expr('{}')) == ('Table', [])


# ------------------------------------------------------------ expressions

def B(op, left, right):
    return ('BinOp', op, left, right)


def U(op, operand):
    return ('UnOp', op, operand)


@pytest.mark.parametrize('src, tree', [
    ('1 + 2 * 3', B('+', I(1), B('*', I(2), I(3)))),
    ('1 - 2 - 3', B('-', B('-', I(1), I(2)), I(3))),
    ('a .. b .. c', B('..', N('a'), B('..', N('b'), N('c')))),
    ('2 ^ 3 ^ 2', B('^', I(2), B('^', I(3), I(2)))),
    ('-2 ^ 2', U('-', B('^', I(2), I(2)))),
    ('2 ^ -3', B('^', I(2), U('-', I(3)))),
    ('2 ^ -3 ^ 2', B('^', I(2), U('-', B('^', I(3), I(2))))),
    ('#t ^ 2', U('#', B('^', N('t'), I(2)))),
    ('not a == b', B('==', U('not', N('a')), N('b'))),
    ('a or b and c', B('or', N('a'), B('and', N('b'), N('c')))),
    ('a < b == c', B('==', B('<', N('a'), N('b')), N('c'))),
    ('a | b ~ c & d << e .. f', B('|', N('a'), B('~', N('b'), B('&', N('c'), B('<<', N('d'), B('..', N('e'), N('f'))))))),
    ('a + b .. c', B('..', B('+', N('a'), N('b')), N('c'))),
    ('a // b % c / d', B('/', B('%', B('//', N('a'), N('b')), N('c')), N('d'))),
    ('- - ~ x', U('-', U('-', U('~', N('x'))))),
    ('a ~ ~b', B('~', N('a'), U('~', N('b')))),
    ('a >= b ~= c <= d > e', B('>', B('<=', B('~=', B('>=', N('a'), N('b')), N('c')), N('d')), N('e'))),
    ('(a)', ('Paren', N('a'))),
    ('(f())', ('Paren', ('Call', N('f'), []))),
    ('a.b[c]:d()', ('MethodCall', ('Index', ('Index', N('a'), S('b')), N('c')), 'd', [])),
])
def test_expression_trees(src, tree):
    assert shape(expr(src)) == tree


def test_literal_constants():
    assert shape(stmt('return nil, true, false, ...').exprs) == \
        [('Nil',), ('TrueLit',), ('FalseLit',), ('Vararg',)]


def test_long_operator_chains_do_not_recurse():
    tree = expr(' + '.join(['a'] * 20000))
    depth = 0
    while isinstance(tree, A.BinOp):
        tree, depth = tree.left, depth + 1
    assert depth == 19999


# --------------------------------------------------------------- literals

@pytest.mark.parametrize('src, value', [
    ('"plain"', 'plain'),
    ("'single'", 'single'),
    (r'"\a\b\f\n\r\t\v\\\"\'"', '\a\b\f\n\r\t\v\\"\''),
    (r'"\65\066\0673"', 'AB' + 'C3'),
    (r'"\0\00\000x"', '\0\0\0x'),
    (r'"\255"', '\xff'),
    (r'"\x41\xff\x0a"', 'A\xff\n'),
    (r'"\u{41}\u{E9}\u{20AC}"', 'A\xc3\xa9\xe2\x82\xac'),
    (r'"\u{7FFFFFFF}"', '\xfd\xbf\xbf\xbf\xbf\xbf'),
    (r'"\u{D800}"', '\xed\xa0\x80'),
    ('"a\\z  \n\t  b"', 'ab'),
    ('"a\\\nb"', 'a\nb'),
    ('"a\\\r\nb"', 'a\nb'),
    ('"\xc3\xa9"', '\xc3\xa9'),
    ('[[]]', ''),
    ('[[\nfirst newline skipped]]', 'first newline skipped'),
    ('[[\n\nonly one]]', '\nonly one'),
    ('[==[a]]b]=]c]==]', 'a]]b]=]c'),
    ('[=[\r\nx\r\ny\n\r]=]', 'x\ny\n'),
    ('[[\\n is not an escape]]', '\\n is not an escape'),
])
def test_strings(src, value):
    assert shape(expr(src)) == S(value)


@pytest.mark.parametrize('src, value', [
    ('0', 0), ('42', 42), ('007', 7), ('9223372036854775807', 9223372036854775807),
    ('9223372036854775808', 9.223372036854775808e18), ('1e2', 100.0), ('3E-2', 0.03),
    ('.5', 0.5), ('5.', 5.0), ('3.25e+1', 32.5), ('0x10', 16), ('0XfF', 255),
    ('0xffffffffffffffff', -1), ('0x7fffffffffffffff', 9223372036854775807),
    ('0x8000000000000000', -9223372036854775808), ('0x10000000000000001', 1),
    ('0x1p4', 16.0), ('0xA.8p0', 10.5), ('0x.8', 0.5), ('0x1P-2', 0.25), ('0xe', 14),
    ('0xep1', 28.0), ('1e400', float('inf')), ('0x1p99999', float('inf')),
])
def test_numbers(src, value):
    number = expr(src)
    assert type(number) is A.Number
    assert number.value == value and type(number.value) is type(value)


def test_minus_and_hex_e_are_not_part_of_a_number():
    assert shape(expr('0xe+1')) == B('+', I(14), I(1))
    assert shape(expr('3-4')) == B('-', I(3), I(4))


def test_comments_anywhere():
    src = '--[==[ long\n]] ]==] x --[[ a ]] = --c\n 1 --[ short\n-- end'
    assert shape(stmts(src)) == [('Assign', [N('x')], [I(1)])]


def test_shebang_and_bom_are_skipped_in_files():
    assert stmt('#!/usr/bin/lua\nx = 1').line == 2
    assert stmt('\xef\xbb\xbf# comment\r\n\nx = 1').line == 3
    assert stmts('#only a comment') == []


def test_load_of_a_string_skips_nothing():
    with pytest.raises(LuaSyntaxError) as info:
        parse('# not a comment in load', '[string "#"]', from_file=False)
    assert info.value.value == '[string "#"]:1: unexpected symbol near \'#\''
    with pytest.raises(LuaSyntaxError) as info:
        parse('\xef\xbb\xbfx = 1', 'input', from_file=False)
    assert info.value.value == "input:1: unexpected symbol near '<\\239>'"


# ------------------------------------------------------------------ lines

def test_line_ends_each_count_once():
    for eol in ('\n', '\r', '\r\n', '\n\r'):
        body = stmts(f'a = 1{eol}b = 2{eol}{eol}c = 3')
        assert [s.line for s in body] == [1, 2, 4], repr(eol)


def test_node_lines():
    src = 'local t = {\n  x = 1,\n  [2] = 3,\n}\nt.a\n.b = 1 +\n2'
    local, assign = stmts(src)
    table = local.exprs[0]
    assert (local.line, table.line) == (1, 1)
    assert [f.line for f in table.fields] == [2, 3]
    assert assign.line == 5
    assert assign.targets[0].line == 5 and assign.targets[0].key.line == 6
    binop = assign.exprs[0]
    assert (binop.line, binop.left.line, binop.right.line) == (6, 6, 7)


def test_call_line_is_where_the_called_expression_starts():
    call = stmt('f\n(\n1)').call
    assert (call.line, call.args[0].line) == (1, 3)
    call = stmt('a.b\n:c(1)').call
    assert call.line == 1


def test_table_field_name_takes_the_line_of_the_next_token():
    # constructor() peeks past a name for '='; Lua then reports that line
    table = stmt('t = {f\n(1)}').exprs[0]
    assert table.fields[0].value.line == 2


def test_multiline_string_token_line_is_its_last_line():
    ret = stmt('return [[a\nb\nc]]')
    assert ret.line == 1 and ret.exprs[0].line == 3


def test_block_and_function_end_lines():
    chunk = parse('function f()\n  return 1\nend\n\nwhile x do\nend\n', 'input')
    func = chunk.body.stmts[0].func
    assert (func.line, func.end_line, func.body.line, func.body.end_line) == (1, 3, 2, 3)
    loop = chunk.body.stmts[1]
    assert (loop.body.line, loop.body.end_line) == (6, 6)
    assert chunk.body.end_line == 7
    ifs = stmt('if a then\nx()\nelseif b then\n\nelse\ny()\nend')
    assert [b.end_line for _, b in ifs.tests] == [3, 5] and ifs.orelse.end_line == 7


def test_function_line_is_luas_linedefined():
    # the line of '(' for 'function (' and 'local function f(' (lparser.c's body())
    assert expr('function\n()\nend').line == 2
    assert stmt('local function f\n()\nend').func.line == 2
    assert stmt('function f\n()\nend').func.line == 1


# ----------------------------------------------------------------- errors

ERRORS = [
    ('x = = 1', "1: unexpected symbol near '='"),
    ('x y', "1: syntax error near 'y'"),
    ('x', '1: syntax error near <eof>'),
    ('f() = 1', "1: syntax error near '='"),
    ('(a) = 1', "1: syntax error near '='"),
    ('a, (b) = 1', "1: syntax error near '='"),
    ('f(), a = 1', "1: syntax error near ','"),
    ('a, b c', "1: '=' expected near 'c'"),
    ('a.b:c = 1', "1: function arguments expected near '='"),
    ('a:b', '1: function arguments expected near <eof>'),
    ('return 1 x', "1: <eof> expected near 'x'"),
    ('return return', "1: unexpected symbol near 'return'"),
    ('return ;;', "1: <eof> expected near ';'"),
    ('do return 1 x end', "1: 'end' expected near 'x'"),
    ('x = 1 )', "1: unexpected symbol near ')'"),
    ('x = 1 else', "1: <eof> expected near 'else'"),
    ('x = 1 until', "1: <eof> expected near 'until'"),
    ('end', "1: <eof> expected near 'end'"),
    ('local', '1: <name> expected near <eof>'),
    ('local 1', "1: <name> expected near '1'"),
    ('local function', '1: <name> expected near <eof>'),
    ('local function 1', "1: <name> expected near '1'"),
    ('local function f', "1: '(' expected near <eof>"),
    ('local function f 1', "1: '(' expected near '1'"),
    ('local x <', '1: <name> expected near <eof>'),
    ('local x <foo', "1: '>' expected near <eof>"),
    ('local x <foo> = 1', "1: unknown attribute 'foo'"),
    ('local x\n<foo>\n\n= 1', "4: unknown attribute 'foo'"),
    ('local x <const>, y <close>, z <close> = 1', '1: multiple to-be-closed variables in local list'),
    ('local x <foo> "unterminated', '1: unfinished string near <eof>'),
    ('goto 1', "1: <name> expected near '1'"),
    ('::a', "1: '::' expected near <eof>"),
    (':: 1', "1: <name> expected near '1'"),
    ('break break 1', "1: unexpected symbol near '1'"),
    ('function', '1: <name> expected near <eof>'),
    ('function 1', "1: <name> expected near '1'"),
    ('function a.', '1: <name> expected near <eof>'),
    ('function a:', '1: <name> expected near <eof>'),
    ('function a:b.c() end', "1: '(' expected near '.'"),
    ('function f(1) end', "1: <name> or '...' expected near '1'"),
    ('function f(a,) end', "1: <name> or '...' expected near ')'"),
    ('function f(..., a) end', "1: ')' expected near ','"),
    ('function f(a b) end', "1: ')' expected near 'b'"),
    ('function f() return', "1: 'end' expected near <eof>"),
    ('function f()\n\nreturn', "3: 'end' expected (to close 'function' at line 1) near <eof>"),
    ('x = function\n(\n)\n\n', "5: 'end' expected (to close 'function' at line 2) near <eof>"),
    ('local function f\n()', "2: 'end' expected near <eof>"),
    ('for', '1: <name> expected near <eof>'),
    ('for 1', "1: <name> expected near '1'"),
    ('for i x', "1: '=' or 'in' expected near 'x'"),
    ('for i = 1', "1: ',' expected near <eof>"),
    ('for i = 1, 2 x', "1: 'do' expected near 'x'"),
    ('for i = 1, 2, 3', "1: 'do' expected near <eof>"),
    ('for a, b', "1: 'in' expected near <eof>"),
    ('for a, 1', "1: <name> expected near '1'"),
    ('for a in x', "1: 'do' expected near <eof>"),
    ('for i = 1, 2 do\n\n', "3: 'end' expected (to close 'for' at line 1) near <eof>"),
    ('for k in x do\nend end', "2: <eof> expected near 'end'"),
    ('if', '1: unexpected symbol near <eof>'),
    ('if x', "1: 'then' expected near <eof>"),
    ('if x then', "1: 'end' expected near <eof>"),
    ('if x then else elseif', "1: 'end' expected near 'elseif'"),
    ('if x then\nelse\nuntil', "3: 'end' expected (to close 'if' at line 1) near 'until'"),
    ('if x then elseif y', "1: 'then' expected near <eof>"),
    ('while', '1: unexpected symbol near <eof>'),
    ('while x', "1: 'do' expected near <eof>"),
    ('while x do', "1: 'end' expected near <eof>"),
    ('\n\nwhile x do\n\n', "5: 'end' expected (to close 'while' at line 3) near <eof>"),
    ('while x do until', "1: 'end' expected near 'until'"),
    ('repeat', "1: 'until' expected near <eof>"),
    ('repeat x = 1 end', "1: 'until' expected near 'end'"),
    ('repeat x = 1\nend', "2: 'until' expected (to close 'repeat' at line 1) near 'end'"),
    ('repeat until', '1: unexpected symbol near <eof>'),
    ('do', "1: 'end' expected near <eof>"),
    ('do\nelse', "2: 'end' expected (to close 'do' at line 1) near 'else'"),
    ('x = ', '1: unexpected symbol near <eof>'),
    ('x = )', "1: unexpected symbol near ')'"),
    ('x = (1', "1: ')' expected near <eof>"),
    ('x = (1\n\n', "3: ')' expected (to close '(' at line 1) near <eof>"),
    ('x = ((1)', "1: ')' expected near <eof>"),
    ('x = - )', "1: unexpected symbol near ')'"),
    ('x = not', '1: unexpected symbol near <eof>'),
    ('x = 1 +', '1: unexpected symbol near <eof>'),
    ('x = a.', '1: <name> expected near <eof>'),
    ('x = a.1', "1: unexpected symbol near '.1'"),
    ('x = a[1', "1: ']' expected near <eof>"),
    ('x = a[]', "1: unexpected symbol near ']'"),
    ('x = a:b', '1: function arguments expected near <eof>'),
    ('x = a:b 1', "1: function arguments expected near '1'"),
    ('f(1 2', "1: ')' expected near '2'"),
    ('f(\n1 2', "2: ')' expected (to close '(' at line 1) near '2'"),
    ('a.b\n.c(1\n2', "3: ')' expected (to close '(' at line 1) near '2'"),
    ('f(', '1: unexpected symbol near <eof>'),
    ('f(,)', "1: unexpected symbol near ','"),
    ('f(1,)', "1: unexpected symbol near ')'"),
    ('x = {1 2}', "1: '}' expected near '2'"),
    ('x = {\n1 2}', "2: '}' expected (to close '{' at line 1) near '2'"),
    ('x = {[1] 2}', "1: '=' expected near '2'"),
    ('x = {[1 = 2}', "1: ']' expected near '='"),
    ('x = {a = }', "1: unexpected symbol near '}'"),
    ('x = {,}', "1: unexpected symbol near ','"),
    ('x = {1,,}', "1: unexpected symbol near ','"),
    ('x = {x y}', "1: '}' expected near 'y'"),
    ('t = {f\n(1', "2: ')' expected near <eof>"),
    ('x = "a" "b"', '1: unexpected symbol near \'"b"\''),
    ('x = 1 [[s]]', "1: unexpected symbol near '[[s]]'"),
    ('x = 1 [==[\ns]==]', "2: unexpected symbol near '[==[s]==]'"),
    ('x = 1 2.5', "1: unexpected symbol near '2.5'"),
    ('x = 1 0x10', "1: unexpected symbol near '0x10'"),
    ("x = 1 'q'", "1: unexpected symbol near ''q''"),
    ('x = 1 "a\\tb"', '1: unexpected symbol near \'"a\tb"\''),
    ('x = 1 "a\\0b"', '1: unexpected symbol near \'"a\''),
    ('function f() return ... end', "1: cannot use '...' outside a vararg function near '...'"),
    ('function f(...) return function() return ... end end',
     "1: cannot use '...' outside a vararg function near '...'"),
    ('local function f(a) local t = {...} end', "1: cannot use '...' outside a vararg function near '...'"),
    ('x = 1 ... 2', "1: unexpected symbol near '...'"),
    ('a.end = 1', "1: <name> expected near 'end'"),
    ('x = {end = 1}', "1: unexpected symbol near 'end'"),
    ('goto = 1', "1: <name> expected near '='"),
    ('x = a.b.c:d.e', "1: function arguments expected near '.'"),
    ('x = 3x', "1: malformed number near '3x'"),
    ('x = 0x', "1: malformed number near '0x'"),
    ('x = 1e', "1: malformed number near '1e'"),
    ('x = 1e+', "1: malformed number near '1e+'"),
    ('x = 3..2', "1: malformed number near '3..2'"),
    ('x = 1..2', "1: malformed number near '1..2'"),
    ('x = 0x1p', "1: malformed number near '0x1p'"),
    ('x = 1.2.3', "1: malformed number near '1.2.3'"),
    ('x = 08x', "1: malformed number near '08x'"),
    ('x = "\\q"', '1: invalid escape sequence near \'"\\q\''),
    ('x = "\\x5"', '1: hexadecimal digit expected near \'"\\x5"\''),
    ('x = "\\xg"', '1: hexadecimal digit expected near \'"\\xg\''),
    ('x = "\\x"', '1: hexadecimal digit expected near \'"\\x"\''),
    ('x = "\\256"', '1: decimal escape too large near \'"\\256"\''),
    ('x = "\\999"', '1: decimal escape too large near \'"\\999"\''),
    ('x = "\\u{110000000}"', '1: UTF-8 value too large near \'"\\u{110000000\''),
    ('x = "\\u{80000000}"', '1: UTF-8 value too large near \'"\\u{80000000\''),
    ('x = "\\u123"', '1: missing \'{\' near \'"\\u1\''),
    ('x = "\\u{12"', '1: missing \'}\' near \'"\\u{12"\''),
    ('x = "\\u{}"', '1: hexadecimal digit expected near \'"\\u{}\''),
    ('x = "\\u{zz}"', '1: hexadecimal digit expected near \'"\\u{z\''),
    ('x = "ok\\65\\u{41}\\q"', '1: invalid escape sequence near \'"okAA\\q\''),
    ('x = "\\x\r\n"', '1: hexadecimal digit expected near \'"\\x\r\''),
    ('x = "\\u{1\n\r"', '1: missing \'}\' near \'"\\u{1\n\''),
    ('x = "abc', '1: unfinished string near <eof>'),
    ("x = 'abc\n'", "1: unfinished string near ''abc'"),
    ('x = "a\\\nb', '2: unfinished string near <eof>'),
    ('x = [=x', "1: invalid long string delimiter near '[='"),
    ('x = [==[ abc ]=]', '1: unfinished long string (starting at line 1) near <eof>'),
    ('x = [[\n\nabc', '3: unfinished long string (starting at line 1) near <eof>'),
    ('--[[ abc', '1: unfinished long comment (starting at line 1) near <eof>'),
    ('\n--[==[ abc ]]\n', '3: unfinished long comment (starting at line 2) near <eof>'),
    ('x = "\\', '1: unfinished string near <eof>'),
    ('x = @', "1: unexpected symbol near '@'"),
    ('x = 1 ~= 2 !', "1: unexpected symbol near '!'"),
    ('x = \x00', '1: unexpected symbol'),
    ('x = \x01', "1: unexpected symbol near '<\\1>'"),
    ('x = \x80', "1: unexpected symbol near '<\\128>'"),
    ('x = 1 -- comment\n$', "2: unexpected symbol near '$'"),
    ('x = [[\na\nb]] y', '3: syntax error near <eof>'),
    ('x = "a\\z\n\n  b" y', '3: syntax error near <eof>'),
]


@pytest.mark.parametrize('src, message', ERRORS)
def test_syntax_errors(src, message):
    assert error(src) == 'input:' + message


def test_chunkname_is_used_verbatim():
    assert error('x =', '[string "x ="]') == '[string "x ="]:1: unexpected symbol near <eof>'
    assert error('\n\n)', 'test.lua') == "test.lua:3: unexpected symbol near ')'"


def test_semantic_checks_left_to_the_resolver_parse():
    for src in ('break', 'goto nowhere', '::a:: ::a::', 'local x <const> = 1; x = 2'):
        parse(src, 'input')


def test_a_syntax_error_before_a_lexical_error_wins():
    # Lua reads tokens on demand: the bad string after ')' is never read
    assert error('x = ) "unfinished') == "input:1: unexpected symbol near ')'"


def test_deep_nesting_is_a_syntax_error_not_a_crash():
    assert error('x = ' + '(' * 5000 + '1' + ')' * 5000) == 'C stack overflow'
    assert error('x = ' + '{' * 5000 + '}' * 5000) == 'C stack overflow'
    assert error('x = ' + '- ' * 5000 + '1') == 'C stack overflow'


def test_nesting_lua_accepts_is_accepted():
    # lua5.4 accepts up to about 195 levels of each (LUAI_MAXCCALLS)
    for src in ('do ' * 190 + 'end ' * 190,
                'local function f() ' * 190 + 'end ' * 190,
                'x = ' + 'function() return ' * 95 + '1' + ' end' * 95,
                'x = ' + '(' * 190 + '1' + ')' * 190,
                'if x then ' * 190 + 'end ' * 190):
        parse(src, 'input')


# ------------------------------------------------------------- properties

LUA_ALPHABET = st.sampled_from(list('abcxyz019._ \n\t()[]{}=<>~+-*/%^#&|:;,"\'\\') + [
    'local ', 'function ', 'end ', 'return ', 'if ', 'then ', 'else ', 'for ', 'in ', 'do ',
    'while ', 'repeat ', 'until ', 'goto ', '::', '...', '..', '[[', ']]', '[=[', '--', '0x',
    '\\u{', '\\z', '\r', '\x00', '\xff', 'e+'])


def parses_or_fails_cleanly(src):
    try:
        parse(src, 'input')
    except LuaSyntaxError as e:
        assert e.value.startswith('input:')


@given(st.text(alphabet=st.characters(max_codepoint=255), max_size=60))
def test_any_bytes_parse_or_raise_a_syntax_error(src):
    parses_or_fails_cleanly(src)


@given(st.lists(LUA_ALPHABET, max_size=40).map(''.join))
def test_lua_like_text_parses_or_raises_a_syntax_error(src):
    parses_or_fails_cleanly(src)


CORPUS = '''local a, b <const>, c <close> = 1, 2.5, nil
local function f(x, y, ...)
  local t = {1, 2; x = 3, [4] = 5, "s", f(1), ...}
  if x then return x elseif y then return y else return ... end
end
function M.a.b:c(p) self.x = p return self end
while a < b do a = a + 1 break end
repeat local z = a until z > 3
for i = 1, 10, 2 do print(i) end
for k, v in pairs(t) do print(k, v) end
do goto done end
::done::
x = -2 ^ -3 .. "a" .. 'b' or not c and #t == ~1 | 2 & 3 << 4 >> 5 // 6 % 7
y = obj:method "str" obj:m{} f[[long]] f{} ("x"):len()
z = a.b[c].d(e)(f):g(h)
print(("abc"):upper(), (f)(1), function(...) return ... end)
local s = [==[
line]==] .. "\\65\\x41\\u{41}\\z
   tail"
return 1, 2;
'''
_JUNK = ['end', 'until', 'else', ')', ']', '}', '(', '{', '=', ',', ';', '...', 'local',
         'function', 'return', '"', '[[', '--[[', '\\', '@', '\x00', '3x', '"\\q"', '<foo>',
         '<close>', '\n', 'goto', '::', 'in', 'do', 'then', 'if', 'for']


def mutants(count, seed=0):
    """Programs made by deleting, inserting and replacing words of CORPUS."""
    rng = random.Random(seed)
    words = CORPUS.replace('\n', ' \n ').split(' ')
    for _ in range(count):
        w = list(words)
        for _ in range(rng.randrange(1, 4)):
            k = rng.randrange(len(w) + 1)
            op = rng.random()
            if op < 0.3:
                w[k:k + 1] = []
            elif op < 0.6:
                w.insert(k, rng.choice(_JUNK))
            elif op < 0.85:
                w[k:k + 1] = [rng.choice(_JUNK)]
            else:
                del w[k:]
        yield ' '.join(w)


def test_mutated_programs_parse_or_raise_a_syntax_error():
    for src in mutants(1500):
        parses_or_fails_cleanly(src)


# ---------------------------------------------------------------- builds

def test_committed_tables_match_the_grammar():
    assert build_parser.render(build_parser.GRAMMAR.read_text()) == build_parser.OUTPUT.read_text(), \
        'run python -m pylua.compiler.build_parser'


def test_parser_does_not_import_lark():
    code = 'import sys, pylua.compiler.parser; print(any(m.startswith("lark") for m in sys.modules))'
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == 'False'


# ------------------------------------------------------ reference lua5.4

HARNESS = r'''
local f = io.open(arg[1], 'rb'); local data = f:read('a'); f:close()
local pos, out = 1, {}
while pos <= #data do
  local len, p = string.unpack('<I4', data, pos)
  local src = data:sub(p, p + len - 1)
  pos = p + len
  local ok, fn, err = pcall(load, src, '=input', 't')
  local msg = not ok and 'THROW ' .. tostring(fn) or fn and 'OK' or err
  out[#out + 1] = (msg:gsub('\\', '\\\\'):gsub('\n', '\\n'))
end
io.write(table.concat(out, '\n'), '\n')
'''


def reference(sources, tmp_path):
    """lua5.4's load() result for each source: 'OK' or its message."""
    script = tmp_path / 'harness.lua'
    script.write_text(HARNESS)
    data = tmp_path / 'sources.bin'
    data.write_bytes(b''.join(struct.pack('<I', len(s)) + s.encode('latin-1') for s in sources))
    out = subprocess.run([LUA, str(script), str(data)], capture_output=True, check=True).stdout
    lines = out.decode('latin-1').split('\n')[:-1]
    assert len(lines) == len(sources)
    # the harness writes '\\' for '\' and '\n' for a line end
    return [re.sub(r'\\(.)', lambda m: '\n' if m.group(1) == 'n' else m.group(1), line) for line in lines]


def ours(src):
    """parse() as load() uses it, to compare with lua5.4's load()."""
    try:
        parse(src, 'input', from_file=False)
        return 'OK'
    except LuaSyntaxError as e:
        return e.value


# Checks of lparser.c that pylua leaves to its resolver.
RESOLVER_MESSAGES = ('goto', 'break outside', 'const variable', 'label')


@pytest.mark.skipif(LUA is None, reason='lua5.4 is not installed')
def test_reference_agrees_with_the_error_table(tmp_path):
    assert reference([src for src, _ in ERRORS], tmp_path) == ['input:' + m for _, m in ERRORS]


@pytest.mark.skipif(LUA is None, reason='lua5.4 is not installed')
def test_reference_agrees_on_mutated_programs(tmp_path):
    sources = list(mutants(600, seed=1))
    for src, theirs in zip(sources, reference(sources, tmp_path)):
        if any(word in theirs for word in RESOLVER_MESSAGES):
            continue
        assert ours(src) == theirs, src



def _deepest_call(fn, *args):
    """How many Python frames deep ``fn(*args)`` goes at most."""
    depth = deepest = 0

    def profile(frame, event, arg):
        nonlocal depth, deepest
        if event in ('call', 'c_call'):
            depth += 1
            deepest = max(deepest, depth)
        elif event in ('return', 'c_return', 'c_exception'):
            depth -= 1
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 100000))
    sys.setprofile(profile)
    try:
        fn(*args)
    finally:
        sys.setprofile(None)
        sys.setrecursionlimit(limit)
    return deepest


# A chain's depth of Python frames is a long unwind when an error or a
# cancel stops the compile (tens of milliseconds for 20,000 operands).
def test_a_long_chain_of_constants_compiles_without_recursing_down_it():
    from pylua.compiler.codegen import compile_chunk
    assert _deepest_call(compile_chunk, parse('return 1' + ' + 1' * 3000, '=chain', from_file=False)) < 100


def test_the_resolver_walks_a_long_operator_chain_without_recursing_down_it():
    from pylua.compiler.resolver import resolve
    assert _deepest_call(resolve, parse('local x return x' + ' * x' * 3000, '=chain', from_file=False)) < 100


@pytest.mark.parametrize('chain', ['a' + '.b' * 3000, 'a' + '[1]' * 3000, 'o' + ':m()' * 3000,
                                   '(' + 'a.b.c.d' + ')' + '.e' * 3000])
def test_a_long_chain_of_fields_indexes_and_calls_fits_in_the_registers(chain):
    # as lcode.c, once registers run short: each step's table goes in the
    # register of the step's result
    from pylua.compiler.codegen import SCARCE_REGS, compile_chunk
    assert compile_chunk(parse('return ' + chain, '=chain', from_file=False)).maxreg <= SCARCE_REGS + 3


def test_the_deepest_c_level_is_recorded_and_checked_against_the_levels_open():
    from pylua.compiler.codegen import compile_chunk
    from pylua.compiler.resolver import MAX_C_LEVELS
    src = 'return ' + '(' * 150 + '1' + ')' * 150
    assert compile_chunk(parse(src, 'input')).nesting == 152       # the statement, then 151 expressions
    with pytest.raises(LuaSyntaxError, match='^C stack overflow$'):
        compile_chunk(parse(src, 'input'), MAX_C_LEVELS - 152)
    compile_chunk(parse(src, 'input'), MAX_C_LEVELS - 153)


@pytest.mark.parametrize('src', [
    'local x return x' + ' * x' * 3000,
    'local x return x' + ' < x' * 3000,
    'local t = {} return t.a' + ' + t.b' * 3000,
    'local x local function f() return 1 end return x' + ' - f()' * 3000,
])
def test_a_long_chain_of_variables_compiles_without_recursing_down_it(src):
    """The code generator computes a long chain's left operands in the
    chain's register, one operator down each time: it goes down them in a
    loop and finishes them from the innermost up."""
    from pylua.compiler.codegen import compile_chunk
    assert _deepest_call(compile_chunk, parse(src, '=chain', from_file=False)) < 100


def test_a_long_chain_of_variables_computes_what_lua_does():
    from pylua import LuaRuntime
    rt = LuaRuntime()
    assert rt.execute('local x, n = 1, 0 local function f() n = n + 1 return n end '
                      'return x' + ' + x' * 2999 + ', x' + ' - f()' * 3000 + ', n') == (3000, 1 - 3000 * 3001 // 2, 3000)
