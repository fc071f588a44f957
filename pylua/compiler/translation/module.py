"""The entry point: ``translate`` emits every prototype of a chunk inside
MODULE, whose cells the loader binds; a generator form is translated only
when first needed (``_generator_form``)."""
from __future__ import annotations

import itertools
from functools import partial

from ..bytecode import Proto
from .facts import is_predicate, plain_order
from .function import FunctionTranslator

_unique = itertools.count()


class Translation:
    def __init__(self, source, lines, calls, main_factory, proto_names, predicates, orders,
                 generator_forms, heads):
        self.source = source          # Python source text
        self.lines = lines            # lua line for each Python line (index = python line)
        self.calls = calls            # python line -> called function's description
        self.main_factory = main_factory
        self.proto_names = proto_names  # python function name -> (Proto, description)
        self.predicates = predicates  # plain forms that always return one Python bool
        self.orders = orders          # plain forms that are ``a < b`` or ``a > b``: 'lt'/'gt'
        self.generator_forms = generator_forms  # plain form -> () -> its generator form's
        #                                         (source, lines, calls), made when needed
        self.heads = heads            # (python line, Lua name and place) where each factory starts


def translate(main: Proto) -> Translation:
    uid = next(_unique)
    out = _Out()
    names = {}
    predicates = set()
    orders = {}
    generator_forms = {}
    heads = []
    counter = itertools.count()

    def walk(p, desc):
        n = next(counter)
        fname = 'F%d_%d' % (uid, n)
        pname = 'P%d_%d' % (uid, n)
        names[pname] = (p, desc)
        names['Q' + pname[1:]] = (p, desc)
        if is_predicate(p):
            predicates.add('Q' + pname[1:])
        order = plain_order(p)
        if order is not None:
            orders['Q' + pname[1:]] = order
        child_factories = [walk(c, 'function <%s:%d>' % (c.chunkname, c.line)) for c in p.protos]
        heads.append((len(out.buf) + 1, function_head(p, desc)))
        FunctionTranslator(p, out, fname, pname, child_factories).run()
        generator_forms['Q' + pname[1:]] = partial(_generator_form, p, fname, pname, child_factories)
        return fname

    main_factory = _in_module(out, [], lambda: walk(main, 'main chunk'))
    return Translation(out.text(), out.lines, out.calls, main_factory, names, predicates,
                       orders, generator_forms, heads)


def function_head(p, desc):
    """How listings head a prototype's code: where it is, and its name."""
    return desc if p.name in ('main chunk', 'anonymous') else "%s '%s'" % (desc, p.name)


def _in_module(out, names, emit):
    """Emit ``emit()``'s prototypes inside MODULE, whose free variables STEPS,
    DEBT and DIRECT_TAILS the loader binds to the VM's instruction-budget,
    allocation-debt and direct-tail-call cells (a cell is cheaper than a
    global); ``names`` are
    MODULE's other names the prototypes use.  MODULE returns what ``emit``
    returns, the name of a factory."""
    out.line(0, 'def OUTER():', 0)
    out.line(1, 'STEPS = DEBT = DIRECT_TAILS = 0', 0)
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
    _in_module(out, children, lambda: FunctionTranslator(p, out, fname, pname, children).run_generator_form())
    return out.text(), out.lines, out.calls


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

    def drop(self, n):
        """Remove line ``n`` (counting from 0)."""
        del self.buf[n]
        del self.lines[n + 1]
        self.calls = {line - (line > n + 1): note for line, note in self.calls.items() if line != n + 1}

    def truncate(self, n):
        """Drop every line after the first ``n``."""
        del self.buf[n:]
        del self.lines[n + 1:]
        for line in [line for line in self.calls if line > n]:
            del self.calls[line]
