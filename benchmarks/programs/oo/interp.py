# Interp: a tree-walking interpreter for a small language, written as
# interpreters in Python are: a regex tokenizer over the source string, a
# recursive-descent parser building nodes of classes with eval methods,
# and scopes that are objects with a dict and a parent, made for every
# call and written as it runs.
import re

SOURCE = """
fn fib(n) { if (n < 2) { return n; } return fib(n - 1) + fib(n - 2); }
fn sum_to(n) { let s = 0; let i = 1; while (i <= n) { s = s + i * i % 7; i = i + 1; } return s; }
fn make_adder(k) { return fn(x) { return x + k; }; }
fn apply_all(f, n) { let acc = 0; let i = 0; while (i < n) { acc = f(acc) % 1000003; i = i + 1; } return acc; }
let total = fib(13) + sum_to(300);
let add3 = make_adder(3);
total = total + apply_all(add3, 200) + apply_all(make_adder(total % 11), 150);
return total;
"""

TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_]\w*)|([<>=!]=|\S))")


def tokenize(src):
    tokens = []
    pos = 0
    while True:
        m = TOKEN.match(src, pos)
        if not m:
            break
        num, word, op = m.groups()
        if num:
            tokens.append(("num", int(num)))
        elif word:
            tokens.append(("word", word))
        else:
            tokens.append(("op", op))
        pos = m.end()
    tokens.append(("eof", "<eof>"))
    return tokens


class Scope:
    __slots__ = ("vars", "parent")

    def __init__(self, parent=None):
        self.vars = {}
        self.parent = parent

    def lookup(self, name):
        scope = self
        while scope is not None:
            if name in scope.vars:
                return scope.vars[name]
            scope = scope.parent
        return None

    def assign(self, name, value):
        scope = self
        while name not in scope.vars:
            scope = scope.parent
        scope.vars[name] = value


class ReturnValue(Exception):
    def __init__(self, value):
        self.value = value


BINARY = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "%": lambda a, b: a % b,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, "==": lambda a, b: a == b,
}


class Node:
    pass


class Num(Node):
    def __init__(self, value): self.value = value
    def eval(self, scope): return self.value


class Var(Node):
    def __init__(self, name): self.name = name
    def eval(self, scope): return scope.lookup(self.name)


class Bin(Node):
    def __init__(self, fn, left, right): self.fn, self.left, self.right = fn, left, right
    def eval(self, scope): return self.fn(self.left.eval(scope), self.right.eval(scope))


class Func(Node):
    def __init__(self, params, body): self.params, self.body = params, body

    def eval(self, scope):
        node = self

        def call(*args):
            frame = Scope(scope)
            for name, value in zip(node.params, args):
                frame.vars[name] = value
            try:
                node.body.run(frame)
            except ReturnValue as r:
                return r.value
            return None
        return call


class Call(Node):
    def __init__(self, callee, args): self.callee, self.args = callee, args

    def eval(self, scope):
        f = self.callee.eval(scope)
        return f(*[a.eval(scope) for a in self.args])


class Let(Node):
    def __init__(self, name, value): self.name, self.value = name, value
    def run(self, scope): scope.vars[self.name] = self.value.eval(scope)


class Assign(Node):
    def __init__(self, name, value): self.name, self.value = name, value
    def run(self, scope): scope.assign(self.name, self.value.eval(scope))


class If(Node):
    def __init__(self, cond, body): self.cond, self.body = cond, body

    def run(self, scope):
        if self.cond.eval(scope):
            self.body.run(Scope(scope))


class While(If):
    def run(self, scope):
        while self.cond.eval(scope):
            self.body.run(Scope(scope))


class Return(Node):
    def __init__(self, value): self.value = value
    def run(self, scope): raise ReturnValue(self.value.eval(scope))


class Block(Node):
    def __init__(self, stats): self.stats = stats

    def run(self, scope):
        for s in self.stats:
            s.run(scope)


class Expr(Node):
    def __init__(self, expr): self.expr = expr
    def run(self, scope): self.expr.eval(scope)


PRIORITY = {"<": 1, "<=": 1, ">": 1, "==": 1, "+": 2, "-": 2, "*": 3, "%": 3}


class Parser:
    def __init__(self, tokens):
        self.tokens, self.pos = tokens, 0

    def peek(self):
        return self.tokens[self.pos][1]

    def take(self):
        self.pos += 1
        return self.tokens[self.pos - 1]

    def expect(self, v):
        t = self.take()
        if t[1] != v:
            raise SyntaxError("expected %s near %s" % (v, t[1]))

    def primary(self):
        kind, value = self.take()
        if kind == "num":
            e = Num(value)
        elif value == "(":
            e = self.expr()
            self.expect(")")
        elif value == "fn":
            e = self.func()
        else:
            e = Var(value)
        while self.peek() == "(":
            self.take()
            args = []
            while self.peek() != ")":
                args.append(self.expr())
                if self.peek() == ",":
                    self.take()
            self.take()
            e = Call(e, args)
        return e

    def expr(self, min_=0):
        left = self.primary()
        while True:
            op = self.peek()
            p = PRIORITY.get(op)
            if not p or p <= min_:
                return left
            self.take()
            left = Bin(BINARY[op], left, self.expr(p))

    def func(self):
        params = []
        self.expect("(")
        while self.peek() != ")":
            params.append(self.take()[1])
            if self.peek() == ",":
                self.take()
        self.take()
        return Func(params, self.block())

    def block(self):
        self.expect("{")
        stats = []
        while self.peek() != "}":
            stats.append(self.statement())
        self.take()
        return Block(stats)

    def statement(self):
        t = self.peek()
        if t == "let":
            self.take()
            name = self.take()[1]
            self.expect("=")
            s = Let(name, self.expr())
            self.expect(";")
            return s
        if t == "fn" and self.tokens[self.pos + 1][0] == "word":
            self.take()
            name = self.take()[1]
            return Let(name, self.func())
        if t in ("if", "while"):
            self.take()
            self.expect("(")
            cond = self.expr()
            self.expect(")")
            return (If if t == "if" else While)(cond, self.block())
        if t == "return":
            self.take()
            s = Return(self.expr())
            self.expect(";")
            return s
        if self.tokens[self.pos + 1][1] == "=":
            name = self.take()[1]
            self.take()
            s = Assign(name, self.expr())
            self.expect(";")
            return s
        s = Expr(self.expr())
        self.expect(";")
        return s


def run(src):
    parser = Parser(tokenize(src))
    stats = []
    while parser.tokens[parser.pos][0] != "eof":
        stats.append(parser.statement())
    try:
        Block(stats).run(Scope())
    except ReturnValue as r:
        return r.value


checksum = tokens = 0
for round_ in range(1, 13):
    src = SOURCE.replace("300", str(300 + round_))
    tokens += len(tokenize(src))
    checksum = (checksum * 31 + run(src)) % 1000000007
print("interp: tokens = %d, checksum = %d" % (tokens, checksum))
