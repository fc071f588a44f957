"""Random Lua chunks that use nearly all of a function's registers.

Lua gives a function 255 registers and refuses a statement that needs more
with "function or expression needs too many registers near X".  Which
statements it refuses, and the token X, follow from the order lcode.c
reserves registers in, so ``chunk(rng)`` declares many locals (most of the
registers) and then writes one statement of a random form whose
expressions nest calls, argument lists, concatenations, constructors,
index chains, method calls, functions and operators of every kind over
locals, upvalues, globals and constants (small and large numbers, short
and long strings, ``<const>`` locals); a few statements follow each other
or nest.  The chunks are only compiled: what they would do when run does
not matter.
"""
from __future__ import annotations

BINARY = ['+', '-', '*', '/', '//', '%', '^', '..', '&', '|', '~', '<<', '>>',
          '==', '~=', '<', '<=', '>', '>=', 'and', 'or']
UNARY = ['-', 'not ', '#', '~']
CONSTANTS = ['0', '1', '-1', '5', '128', '-127', '-128', '129', '255', '256', '1000', '1.0', '2.5',
             '-0.0', '1e300', '"s"', '"k"', '"%s"' % ('x' * 41), 'nil', 'true', 'false',
             '(1 // 0)', '(2 * 3)', '(-2)', '(~0)', '(1 << 2)']


def _is_name(text):
    return text.isidentifier() and text not in ('nil', 'true', 'false')


class _Gen:
    def __init__(self, rng, nlocals):
        self.rng = rng
        self.nlocals = nlocals
        self.size = 0

    def pick(self, seq):
        return self.rng.choice(seq)

    def atom(self):
        r = self.rng.random()
        if r < 0.4 and self.nlocals:
            return 'a%d' % self.rng.randint(1, self.nlocals)
        if r < 0.55:
            return self.pick(['u', 'w'])              # upvalues (locals of the enclosing chunk)
        if r < 0.7:
            return self.pick(['g', 'h', 'print', 'x' * 42])
        if r < 0.75:
            return self.pick(['...', 'c'])             # c: a compile-time constant
        return self.pick(CONSTANTS)

    def expr(self, depth=0):
        self.size += 1
        r = self.rng.random()
        if depth > 6 or self.size > 400 or r < 0.3:
            return self.atom()
        if r < 0.5:
            op = self.pick(BINARY)
            text = '%s %s %s' % (self.expr(depth + 1), op, self.expr(depth + 1))
            return '(%s)' % text if self.rng.random() < 0.5 else text
        if r < 0.55:
            return '%s%s' % (self.pick(UNARY), self.operand(depth))
        if r < 0.68:
            return '%s(%s)' % (self.prefix(depth), self.args(depth))
        if r < 0.73:
            return '%s:%s(%s)' % (self.prefix(depth), self.pick(['m', 'y' * 41]), self.args(depth))
        if r < 0.78:
            return self.pick(['%s"str"', '%s{%s}']).replace('%s', self.prefix(depth), 1).replace('%s', self.fields(depth))
        if r < 0.87:
            return self.pick(['%s.f', '%s[%s]', '%s.' + 'z' * 41]) \
                .replace('%s', self.prefix(depth), 1).replace('%s', self.expr(depth + 1))
        if r < 0.95:
            return '{%s}' % self.fields(depth)
        if r < 0.96:
            return 'function() end'
        if r < 0.97:
            return 'function(p, ...) local q <const> = %s; return %s end' % (self.expr(depth + 1), self.exprs())
        return '(%s)' % self.expr(depth + 1)

    def operand(self, depth):
        """An operand of a unary operator: no binary operator at its top."""
        e = self.expr(depth + 1)
        return e if _is_name(e) or e[0] in '({' and e[-1] in ')}' else '(%s)' % e

    def prefix(self, depth):
        """A prefix expression: a name, a call or index, or a parenthesised expression."""
        r = self.rng.random()
        if r < 0.6:
            a = self.atom()
            return a if _is_name(a) else '(%s)' % a
        if r < 0.8:
            return '%s(%s)' % (self.pick(['g', 'a1' if self.nlocals else 'g', 'u']), self.args(depth))
        return '(%s)' % self.expr(depth + 1)

    def args(self, depth):
        return self.pick([', ', ',\n']).join(self.expr(depth + 1) for _ in range(self.count()))

    def count(self):
        return self.pick([0, 1, 2, 3, self.rng.randint(4, 80)])

    def fields(self, depth):
        out = []
        for _ in range(self.count()):
            r = self.rng.random()
            if r < 0.6:
                out.append(self.expr(depth + 1))
            elif r < 0.8:
                out.append('%s = %s' % (self.pick(['k', 'q' * 41]), self.expr(depth + 1)))
            else:
                out.append('[%s] = %s' % (self.expr(depth + 1), self.expr(depth + 1)))
        return self.pick([', ', '; ']).join(out) + self.pick(['', ',', ';'] if out else [''])

    def target(self, depth):
        r = self.rng.random()
        if r < 0.3 and self.nlocals:
            return 'a%d' % self.rng.randint(1, self.nlocals)
        if r < 0.45:
            return self.pick(['u', 'g'])
        return self.pick(['%s.f', '%s[%s]']).replace('%s', self.prefix(depth), 1).replace('%s', self.expr(depth + 1))

    def exprs(self):
        return ', '.join(self.expr() for _ in range(max(1, self.count())))

    def statement(self):
        r = self.rng.random()
        if r < 0.2:
            names = ', '.join('b%d' % i for i in range(self.rng.randint(1, 3)))
            return 'local %s = %s' % (names, self.exprs())
        if r < 0.4:
            targets = ', '.join(self.target(0) for _ in range(self.rng.randint(1, 4)))
            return '%s = %s' % (targets, self.exprs())
        if r < 0.55:
            return '%s(%s)' % (self.prefix(0), self.args(0))
        if r < 0.65:
            return 'do return %s end' % self.exprs()
        if r < 0.72:
            return 'if %s then %s end' % (self.expr(), self.pick(['', 'break', 'g()']))
        if r < 0.77:
            return 'while %s do end' % self.expr()
        if r < 0.82:
            return 'repeat local r = %s until %s' % (self.expr(), self.expr())
        if r < 0.87:
            return 'for i = %s, %s%s do end' % (self.expr(), self.expr(),
                                                 self.pick(['', ', ' + self.expr()]))
        if r < 0.92:
            return 'for k, v in %s do end' % self.exprs()
        if r < 0.94:
            return 'function %s() end' % self.pick(['g', 'g.f', 'g.f.h', 'g:m', 'a1.f' if self.nlocals else 'u.f'])
        if r < 0.96:
            return 'do local d <const> = %s; %s end' % (self.pick(CONSTANTS), self.statement())
        return 'local function lf(...) return %s end' % self.exprs()


def chunk(rng) -> str:
    """A chunk of source: upvalues ``u`` and ``w``, a constant ``c``, and a
    vararg function declaring many locals and one random statement (a loop
    around it lets 'break' compile)."""
    nlocals = rng.choice([0, rng.randint(100, 185), rng.randint(170, 185), rng.randint(180, 185)])
    gen = _Gen(rng, nlocals)
    decls = ''
    if nlocals:
        decls = 'local %s\n' % ', '.join('a%d' % i for i in range(1, nlocals + 1))
    # ';' keeps a statement that starts with '(' from calling the one before
    statement = ';\n'.join(gen.statement() for _ in range(rng.choice([1, 1, 2, 3])))
    if 'break' in statement:
        statement = 'while true do %s end' % statement
    return 'local u, w = 1, 2\nlocal c <const> = 3\nreturn function(...)\n%s%s\nend\n' % (decls, statement)
