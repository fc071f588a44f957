"""The entry point: ``translate`` translates every prototype of a chunk once
into its structure (``ir``) and renders their plain forms inside MODULE,
whose cells the loader binds; a generator form is rendered from the same
structure when first needed (``_generator_form``)."""
from __future__ import annotations

import itertools
from functools import partial

from ..bytecode import Proto
from .facts import held_fields, is_predicate, method_arities, plain_order, typed_upvalues
from .function import FunctionTranslator
from .ir import Emitter, Form, Line, Rendered

_unique = itertools.count()


class Translation:
    def __init__(self, main, source, lines, calls, tops, main_factory, proto_names, predicates, orders,
                 generator_forms, heads):
        self.main = main              # the main chunk's Proto
        self.source = source          # Python source text
        self.lines = lines            # lua line for each Python line (index = python line)
        self.calls = calls            # python line -> called function's description
        self.tops = tops              # python line -> the CallTop of the call made there
        self.main_factory = main_factory
        self.proto_names = proto_names  # python function name -> (Proto, description)
        self.predicates = predicates  # plain forms that always return one Python bool
        self.orders = orders          # plain forms that are ``a < b`` or ``a > b``: 'lt'/'gt'
        self.generator_forms = generator_forms  # plain form -> () -> its generator form's
        #                                         (source, lines, calls), rendered when needed
        self.heads = heads            # (python line, Lua name and place) where each factory starts


def translate(main: Proto, description: str = 'main chunk') -> Translation:
    """Translate ``main`` and the prototypes in it; ``description`` names
    ``main`` as tracebacks do (a dumped function is no main chunk)."""
    uid = next(_unique)
    structures = []               # (Proto, description, its factory's items)
    names = {}
    predicates = set()
    orders = {}
    generator_forms = {}
    counter = itertools.count()
    fields = held_fields(main)
    arities = method_arities(main)

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
        for c, typed in zip(p.protos, typed_upvalues(p)):
            c.typed_upvalues = typed
        child_factories = [walk(c, 'function <%s:%d>' % (c.chunkname, c.line)) for c in p.protos]
        out = Emitter()
        FunctionTranslator(p, out, fname, pname, child_factories, fields, spare_params(p, arities)).run()
        structures.append((p, desc, out.items))
        generator_forms['Q' + pname[1:]] = partial(_generator_form, out.items, fname, child_factories)
        return fname

    main_factory = walk(main, description)
    rendered = Rendered()
    heads = []

    def emit_all():
        for p, desc, items in structures:
            heads.append((len(rendered.lines), function_head(p, desc)))
            rendered.add(items, Form.PLAIN, 2)
        return main_factory

    _in_module(rendered, [], emit_all)
    return Translation(main, rendered.source(), rendered.lines, rendered.calls, rendered.tops, main_factory,
                       names, predicates, orders, generator_forms, heads)


def function_head(p, desc):
    """How listings head a prototype's code: where it is, and its name."""
    return desc if p.name in ('main chunk', 'anonymous') else "%s '%s'" % (desc, p.name)


def _in_module(rendered, names, emit):
    """Render ``emit()``'s prototypes inside MODULE, whose free variables
    DEBT, DIRECT_TAILS and LAPS the loader binds to the VM's
    allocation-debt, direct-tail-call and loop-lap cells (a cell
    is cheaper than a global); ``names`` are
    MODULE's other names the prototypes use.  MODULE returns what ``emit``
    returns, the name of a factory."""
    rendered.add([Line(0, 'def OUTER():', 0), Line(1, 'DEBT = DIRECT_TAILS = LAPS = 0', 0), Line(1, 'def MODULE():', 0)],
                 Form.PLAIN)
    if names:
        rendered.add([Line(2, '%s = None' % ' = '.join(names), 0)], Form.PLAIN)
    factory = emit()
    rendered.add([Line(2, 'return %s' % factory, 0), Line(1, 'return MODULE', 0)], Form.PLAIN)


def spare_params(p, arities):
    """How many parameters beyond its own a function defined as a method
    (``function C:m(...)``, ``function C.m(...)``) takes for the arguments
    calls of methods of its name pass (``facts.method_arities``)."""
    if p.is_vararg or (':' not in p.name and '.' not in p.name):
        return 0
    return max(0, arities.get(p.name.replace(':', '.').rsplit('.', 1)[-1], 0) - p.numparams)


def _generator_form(items, fname, children):
    """The generator form of one function, rendered when first needed from
    the structure its plain form was rendered from: (source, lua line per
    Python line, calls, call registers).  Its code's free variables have the names of the
    plain form's, so it runs on the plain form's cells."""
    rendered = Rendered()

    def emit():
        rendered.add(items, Form.GENERATOR, 2)
        return 'G' + fname[1:]
    _in_module(rendered, children, emit)
    return rendered.source(), rendered.lines, rendered.calls, rendered.tops
