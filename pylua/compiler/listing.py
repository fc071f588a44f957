"""What a chunk compiles to, for people: ``pylua -l`` lists its bytecode
(parsed and generated only, never translated), in the spirit of
``luac -l -l``; ``pylua --emit-python`` prints the Python of every prototype,
its plain and its generator form, as text that ``compile()`` accepts."""
from __future__ import annotations

import io

from .bytecode import Proto

# Each instruction format: what operands A, B and C are.
#   R register, K constant, RK register or constant, U upvalue, F child
#   function, N count (-1: up to the top / all results), B boolean flag,
#   L label name, # label number, - unused.
_FORMATS = {
    'MOVE': 'RR', 'GETCELL': 'RR', 'SETCELL': 'RR', 'UNM': 'RR', 'NOT': 'RR', 'LEN': 'RR', 'BNOT': 'RR',
    'LOADK': 'R*', 'LOADNIL': 'RN', 'LOADBOOL': 'RB', 'NEWCELL': 'R',
    'GETUPVAL': 'RU', 'SETUPVAL': 'RU', 'GETTABUP': 'RUK', 'SETTABUP': 'UK*',
    'GETTABLE': 'RR*', 'SETTABLE': 'R**', 'SELF': 'RRK', 'NEWTABLE': 'RNN', 'SETLIST': 'RNN',
    'CONCAT': 'RN', 'CLOSURE': 'RF', 'VARARG': 'RN', 'CALL': 'RNN', 'RETURN': 'RN',
    'TBC': 'R', 'CLOSE': 'RB', 'IF': 'R', 'IFNOT': 'R', 'ELSE': '', 'END': '', 'LOOP': '', 'BREAK': '', 'CONTINUE': '',
    'FORPREP': 'RB', 'TFORPREP': 'RN', 'GOTO': 'L#', 'LABEL': 'L#',
}
for _op in ('ADD', 'SUB', 'MUL', 'DIV', 'MOD', 'POW', 'IDIV', 'BAND', 'BOR', 'BXOR', 'SHL', 'SHR',
            'EQ', 'NE', 'LT', 'LE'):
    _FORMATS[_op] = 'R**'
_OPENS = frozenset(('IF', 'IFNOT', 'ELSE', 'LOOP', 'FORPREP', 'TFORPREP', 'TBC'))
_CLOSES = frozenset(('END', 'ELSE', 'CLOSE'))


def show_chunk(source: str, chunkname: str, python: bool = False) -> str:
    """The bytecode listing of chunk ``source`` (or, with ``python``, its
    Python); raises LuaSyntaxError if it does not compile."""
    out = io.StringIO()
    if python:
        python_listing(source, chunkname, out)
    else:
        from .codegen import compile_chunk
        from .parser import parse
        bytecode_listing(compile_chunk(parse(source, chunkname, from_file=False)), out)
    return out.getvalue()


def bytecode_listing(proto: Proto, out) -> None:
    """Write the listing of ``proto`` and its children to ``out``."""
    kind = 'main' if proto.name == 'main chunk' else 'function'
    out.write('\n%s <%s:%d,%d> (%d instructions)\n' % (
        kind, proto.chunkname, proto.line, proto.end_line, len(proto.code)))
    out.write('%d%s params, %d slots, %d upvalues, %d constants, %d functions\n' % (
        proto.numparams, '+' if proto.is_vararg else '', proto.maxreg,
        len(proto.upvals), len(proto.consts), len(proto.protos)))
    depth = 0
    for pc, ins in enumerate(proto.code, 1):
        if ins.op in _CLOSES:
            depth -= 1
        out.write('\t%d\t[%d]\t%s%-9s\t%s\n' % (pc, ins.line, '  ' * max(depth, 0), ins.op,
                                                 operands(ins, proto)))
        if ins.op in _OPENS:
            depth += 1
    out.write('constants (%d):\n' % len(proto.consts))
    for k, v in enumerate(proto.consts):
        out.write('\t%d\t%s\t%s\n' % (k, _constant_kind(v), _show(v)))
    out.write('upvalues (%d):\n' % len(proto.upvals))
    for n, (name, instack, index, how) in enumerate(proto.upvals):
        out.write('\t%d\t%s\t%d\t%d\t%s\n' % (n, name, 1 if instack else 0, index, how))
    for p in proto.protos:
        bytecode_listing(p, out)


def operands(ins, proto: Proto) -> str:
    """The operands of ``ins`` as its format says to show them."""
    fmt = _FORMATS[ins.op]
    return ' '.join(_operand(kind, value, proto) for kind, value in zip(fmt, (ins.a, ins.b, ins.c)))


def _operand(kind, value, proto):
    if kind == '*':
        kind = 'K' if value < 0 else 'R'
    if kind == 'R':
        return 'R%d' % value
    if kind == 'K':
        return 'K%d(%s)' % (-value - 1, _show(proto.consts[-value - 1]))
    if kind == 'U':
        return 'U%d(%s)' % (value, proto.upvals[value][0])
    if kind == 'F':
        child = proto.protos[value]
        return 'F%d(<%s:%d>)' % (value, child.chunkname, child.line)
    if kind == 'N':
        return 'multi' if value == -1 else str(value)
    if kind == 'B':
        return 'true' if value else 'false'
    if kind == 'L':
        return value
    return '#%d' % value


def _constant_kind(v):
    return {str: 'S', int: 'I', float: 'F', bool: 'B'}.get(v.__class__, 'N')


def _show(v):
    if isinstance(v, str):
        s = v.encode('latin-1').decode('utf-8', 'replace')
        return '"%s"' % (s if len(s) < 40 else s[:37] + '...')
    if v is None:
        return 'nil'
    if v is True or v is False:
        return 'true' if v else 'false'
    return repr(v)


def python_listing(source: str, chunkname: str, out) -> None:
    """Write the Python that chunk ``source`` translates to: the module of
    plain forms, each function headed by its Lua name and line, then each
    generator form."""
    from .pipeline import translate_chunk
    from .translation.module import function_head
    tr = translate_chunk(source, chunkname)
    heads = {line: desc for line, desc in tr.heads}
    out.write('# %s: plain forms\n' % chunkname)
    for n, text in enumerate(tr.source.splitlines(), 1):
        if n in heads:
            out.write('# --- %s: plain form\n' % heads[n])
        out.write(text + '\n')
    for plain, make in tr.generator_forms.items():
        gen_source = make()[0]
        out.write('# --- %s: generator form\n' % function_head(*tr.proto_names[plain]))
        out.write(gen_source)
