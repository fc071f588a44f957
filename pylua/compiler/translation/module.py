"""The entry point: ``translate`` translates every prototype of a chunk once
into its structure (``ir``) and renders their plain forms inside MODULE,
whose cells the loader binds; a generator form is rendered from the same
structure when first needed (``_generator_form``)."""
from __future__ import annotations

import itertools
from functools import partial

from ..bytecode import Proto
from .facts import call_arities, held_fields, is_predicate, plain_order, typed_upvalues
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


def translate(main: Proto, description: str = 'main chunk', uid=None) -> Translation:
    """Translate ``main`` and the prototypes in it; ``description`` names
    ``main`` as tracebacks do (a dumped function is no main chunk).  The
    names of its functions hold ``uid`` (by default, one unique in this
    process): a chunk stored on disk is translated under a uid of its own,
    so that its generator forms can be translated again under it."""
    order = chunk_functions(main, description, next(_unique) if uid is None else uid)
    names, predicates, orders = plain_form_facts(order)
    factories = {id(p): fname for p, _, fname in order}
    structures = []               # (Proto, description, its factory's items)
    generator_forms = {}
    fields = held_fields(main)
    arities = call_arities(main)

    def walk(p):
        fname = factories[id(p)]
        pname = 'P' + fname[1:]
        for c, typed in zip(p.protos, typed_upvalues(p)):
            c.typed_upvalues = typed
        child_factories = [walk(c) for c in p.protos]
        out = Emitter()
        FunctionTranslator(p, out, fname, pname, child_factories, fields, spare_params(p, arities)).run()
        structures.append((p, names[pname][1], out.items))
        generator_forms['Q' + pname[1:]] = partial(_generator_form, out.items, fname, child_factories)
        return fname

    main_factory = walk(main)
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


def chunk_functions(main: Proto, description: str, uid) -> list:
    """``(Proto, description, factory name)`` of ``main`` and every
    prototype in it, parents before children, numbered in that order."""
    order = []

    def walk(p, desc):
        order.append((p, desc, 'F%s_%d' % (uid, len(order))))
        for c in p.protos:
            walk(c, 'function <%s:%d>' % (c.chunkname, c.line))
    walk(main, description)
    return order


def plain_form_facts(order):
    """For ``chunk_functions``' list: each form's name -> (Proto,
    description); the plain forms that are predicates; those that are
    plain orders, with their order."""
    names = {}
    predicates = set()
    orders = {}
    for p, desc, fname in order:
        qname = 'Q' + fname[1:]
        names['P' + fname[1:]] = names[qname] = (p, desc)
        if is_predicate(p):
            predicates.add(qname)
        order_kind = plain_order(p)
        if order_kind is not None:
            orders[qname] = order_kind
    return names, predicates, orders


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


# A function expression takes at most this many spare parameters: a call
# passing more refits its arguments.
ANONYMOUS_SPARE_MAX = 4


def spare_params(p, arities):
    """How many parameters beyond its own a function takes for the extra
    arguments calls may pass (``facts.call_arities``): a named one
    (``function C:m(...)``, ``local function f(...)``) as many as calls
    naming its callee so pass; a function expression (a callback, an
    iterator, a handler) as many as any call of the chunk passes, up to
    ``ANONYMOUS_SPARE_MAX``.  A parameter not passed costs a few ns of a
    call; an argument refitted, 1 us."""
    if p.is_vararg:
        return 0
    if p.name == 'anonymous':
        return max(0, min(arities.most, p.numparams + ANONYMOUS_SPARE_MAX) - p.numparams)
    return max(0, arities.by_name.get(p.name.replace(':', '.').rsplit('.', 1)[-1], 0) - p.numparams)


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
