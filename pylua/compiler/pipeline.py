"""Source -> parse -> resolve/codegen -> translate -> Python code object,
cached per (source, chunk name) so a chunk compiles once per process."""
from __future__ import annotations

import linecache
from collections import OrderedDict
from dataclasses import dataclass
from functools import partial
from types import FunctionType

from ..runtime import frames, memory, ops
from ..runtime.errors import LuaMemoryError, LuaSyntaxError
from ..runtime.state import count_work, reserve_memory
from .codegen import compile_chunk
from .resolver import C_STACK_OVERFLOW, too_deep
from ..runtime.hooks import untraced
from ..runtime.luathread import compiler_frames
from ..runtime.python_gc import collector_paused
from .chunk_store import StoredChunk, store_for
from .pycompile import compile_module
from .translation import translate
from .translation.module import chunk_functions, plain_form_facts


class CompileCache(OrderedDict):
    """Compiled chunks by key (source first), least recently used first,
    with the bytes of source they hold: a cache swapped for another
    (``benchmarks.check_cost`` keeps one per kind) takes its count along."""

    def __init__(self):
        super().__init__()
        self.source_bytes = 0

    def clear(self):
        super().clear()
        self.source_bytes = 0


_CACHE = CompileCache()
_CACHE_SIZE = 256
# The most source the cache keeps compiled, in bytes: a compiled chunk keeps
# about two objects Python's collector tracks per source byte (prototypes,
# and the structure its generator forms are rendered from when first
# needed), and every full collection walks them, about 0.25 us each, in
# every runtime of the process: 64 KiB of source is about 30 ms.
_CACHE_BYTES = 64 * 1024
LUA_IDSIZE = 60


class Compiled:
    __slots__ = ('module_code', 'main_factory', 'proto', 'filenames')

    def __init__(self, module_code, main_factory, proto, filenames):
        self.module_code = module_code      # MODULE(): defines the prototypes, returns the main factory
        self.main_factory = main_factory
        self.proto = proto
        self.filenames = filenames          # of its Python sources in ``linecache`` (grows with generator forms)


def display_name(chunkname: str) -> str:
    """Lua's rendering of a chunk name in messages (luaO_chunkid) given
    through the C API, which reads it up to its first NUL."""
    chunkname = chunkname.partition('\0')[0]
    if chunkname.startswith('='):
        return chunkname[1:LUA_IDSIZE]
    if chunkname.startswith('@'):
        name = chunkname[1:]
        if len(name) > LUA_IDSIZE - 1:
            return '...' + name[-(LUA_IDSIZE - 4):]
        return name
    first, nl, _ = chunkname.partition('\n')
    limit = LUA_IDSIZE - len('[string "..."]') - 1
    if nl or len(first) >= limit:         # kept whole only when shorter
        return '[string "%s..."]' % first[:limit]
    return '[string "%s"]' % first


def compile_lua(source: str, chunkname: str, source_name: str | None = None, c_levels: int = 1,
                from_file: bool = False) -> Compiled:
    """Compile Lua source (a byte string) whose messages use ``chunkname``
    verbatim; ``source_name`` is the name ``load`` was given, when known;
    ``c_levels``, the C levels lua5.4 has open where it parses the chunk
    (the nesting it accepts depends on them: ``resolver.too_deep``).  A
    chunk read ``from_file`` is kept in the chunk store, when one is open."""
    key = (source, chunkname, source_name)
    hit = _CACHE.get(key)
    if hit is not None:
        if too_deep(hit.proto.nesting, c_levels):
            raise LuaSyntaxError(C_STACK_OVERFLOW)
        _CACHE.move_to_end(key)
        return hit
    count_work(len(source))       # the cancel check before any stage
    reserve_memory(len(source) * memory.PARSE_PER_SOURCE_BYTE)
    from .parser import parse     # deferred: importing the grammar is the slow part
    with collector_paused(), untraced(), compiler_frames():
        proto = compile_chunk(parse(source, chunkname, from_file=False, c_levels=c_levels), c_levels)
    name_source(proto, source_name)
    store = store_for(from_file)
    if store is None:
        return _translated(key, proto, chunkname, 'main chunk')
    digest = store.digest(source, chunkname, source_name)
    stored = store.load(digest)
    if stored is not None:
        return _from_store(key, proto, chunkname, 'main chunk', stored)
    uid = 'h' + digest[:16]
    return _translated(key, proto, chunkname, 'main chunk', uid, on_translated=partial(_store, store, digest, uid))


def name_source(proto, source_name):
    """Give each prototype of the tree its chunk's ``source``."""
    for p in _prototypes(proto):
        p.source = source_name


def compile_binary(text: str, proto, chunkname: str) -> Compiled:
    """Compile a prototype read from binary chunk ``text`` (cached by ``text``)
    as a chunk of its own, its root described as Lua describes a function."""
    key = (text, None)
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit
    description = 'main chunk' if proto.name == 'main chunk' else 'function <%s:%d>' % (chunkname, proto.line)
    return _translated(key, proto, chunkname, description)


def _translated(key, proto, chunkname, description, uid=None, on_translated=None):
    reserve_memory(_translation_bytes(proto))
    with collector_paused(), untraced(), compiler_frames():
        tr = translate(proto, description, uid)
        filenames = []
        code = _compile_python(tr.source, chunkname, tr.main_factory, filenames)
    if on_translated is not None:
        on_translated(tr, code)
    return _loaded(key, proto, code, tr.main_factory, chunkname, tr, tr.generator_forms, len(tr.source), filenames)


def _store(store, digest, uid, tr, code):
    store.save(digest, StoredChunk(uid, code, tr.main_factory, len(tr.source), tr.lines, tr.calls, tr.tops))


def _from_store(key, proto, chunkname, description, stored):
    """A chunk whose translation and code come from a store: its
    prototypes, parsed again, get the names they had; a generator form,
    when first needed, is translated again under the same uid."""
    order = chunk_functions(proto, description, stored.uid)
    names, predicates, orders = plain_form_facts(order)
    reserve_memory(_kept_bytes(names, stored.python_bytes))
    again = _Retranslation(proto, description, stored.uid)
    generator_forms = {'Q' + fname[1:]: partial(again.generator_form, 'Q' + fname[1:]) for _, _, fname in order}
    facts = _PlainFacts(stored.lines, stored.calls, stored.tops, names, predicates, orders)
    return _loaded(key, proto, stored.module_code, stored.main_factory, chunkname, facts, generator_forms,
                   stored.python_bytes, [])


@dataclass(frozen=True, slots=True)
class _PlainFacts:
    """What registering a chunk's plain forms reads from its Translation."""
    lines: list
    calls: dict
    tops: dict
    proto_names: dict
    predicates: set
    orders: dict


class _Retranslation:
    """A stored chunk translated again, once, when a generator form is first needed."""

    def __init__(self, proto, description, uid):
        self.proto = proto
        self.description = description
        self.uid = uid
        self.translation = None

    def generator_form(self, qname):
        if self.translation is None:
            reserve_memory(_translation_bytes(self.proto))
            self.translation = translate(self.proto, self.description, self.uid)
        return self.translation.generator_forms[qname]()


def _loaded(key, proto, code, main_factory, chunkname, facts, generator_forms, python_bytes, filenames):
    """The Compiled chunk of module ``code``: its functions registered,
    given their kept shares and the way to their generator forms, cached."""
    _register(code, chunkname, facts.lines, facts.calls, facts.tops, facts.proto_names)
    codes = _code_objects(code)
    _record_kept(codes, facts.proto_names, python_bytes)
    _link_forms(codes, facts, generator_forms, chunkname, filenames)
    result = Compiled(_find_code(_find_code(code, 'OUTER'), 'MODULE'), main_factory, proto, filenames)
    _remember(key, result)
    return result


def _remember(key, compiled):
    """Cache ``compiled`` under ``key`` (whose first item is the source),
    dropping the least recently used chunks past the cache's bounds; a
    chunk bigger than them all is not kept.  A chunk leaving the cache
    takes its Python sources out of ``linecache``."""
    cache = _CACHE
    cache[key] = compiled
    cache.source_bytes += len(key[0])
    while cache and (len(cache) > _CACHE_SIZE or cache.source_bytes > _CACHE_BYTES):
        old_key, old = cache.popitem(last=False)
        cache.source_bytes -= len(old_key[0])
        for filename in old.filenames:
            linecache.cache.pop(filename, None)


def translate_chunk(source: str, chunkname: str):
    """The Translation of a chunk: parsed, compiled to bytecode, translated."""
    from .parser import parse     # deferred: importing the grammar is the slow part
    with collector_paused(), untraced(), compiler_frames():
        return translate(compile_chunk(parse(source, chunkname, from_file=False)))


def _prototypes(proto):
    """``proto`` and every prototype nested in it."""
    stack = [proto]
    while stack:
        p = stack.pop()
        yield p
        stack.extend(p.protos)


# Instructions that translate to a line or two (a table constructor's
# constants are most of a data file's).
_LOADS = frozenset(('MOVE', 'LOADK', 'LOADNIL', 'LOADBOOL', 'SETLIST'))


def _translation_bytes(proto):
    """About the most memory translating ``proto``'s chunk holds at once."""
    total = 0
    for p in _prototypes(proto):
        loads = sum(1 for i in p.code if i.op in _LOADS)
        total += loads * memory.TRANSLATE_PER_LOAD + (len(p.code) - loads) * memory.TRANSLATE_PER_INSTRUCTION
    return total


def _instructions(proto_names):
    return sum(len(p.code) + 1 for p in {p for p, _ in proto_names.values()})


def _kept_bytes(proto_names, python_bytes):
    """What a chunk keeps while any of its functions lives (``memory.KEPT_PER_*``)."""
    return _instructions(proto_names) * memory.KEPT_PER_INSTRUCTION + python_bytes * memory.KEPT_PER_PYTHON_BYTE


def _record_kept(codes, proto_names, python_bytes):
    """Give each function its share of what the chunk keeps
    (``_kept_bytes``), by its instructions, recorded for its plain form's
    code and its factory's (in ``codes``, the chunk's code objects by
    name), so that measuring the heap counts compiled code at its size."""
    per_instruction = memory.KEPT_PER_INSTRUCTION + python_bytes * memory.KEPT_PER_PYTHON_BYTE // _instructions(proto_names)
    for name, (p, _) in proto_names.items():
        if name.startswith('Q'):
            share = memory.KeptShare((len(p.code) + 1) * per_instruction)
            for form in (name, 'F' + name[1:]):
                if form in codes:
                    memory.KEPT_BY_CODE[codes[form]] = share


def _compile_python(source, chunkname, part, filenames):
    """Compile generated Python, registered in ``linecache`` under a name
    of its own so that Python-level tracebacks show its lines."""
    # Python refuses a NUL in a code object's file name; a chunk name may hold one.
    filename = '<lua %s %s>' % (chunkname.replace('\0', '\\0'), part)
    try:
        code = compile_module(source, filename)
    except MemoryError:
        raise LuaMemoryError() from None
    except (SyntaxError, RecursionError, ValueError, OverflowError) as e:
        # Python's compiler has limits of its own (how deep its syntax tree
        # may nest, what fits its memory): a chunk past them fails to load
        # as one past Lua's limits does, never as an internal error.
        raise LuaSyntaxError('%s: chunk too complex to translate (%s)'
                             % (chunkname, str(e).partition('\n')[0] or type(e).__name__)) from None
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    filenames.append(filename)
    return code


def _find_code(code, name):
    return next(c for c in code.co_consts if hasattr(c, 'co_code') and c.co_name == name)


def _register(code, chunkname, lines, calls, tops, proto_names):
    for const in code.co_consts:
        if hasattr(const, 'co_code'):
            entry = proto_names.get(const.co_name)
            if entry is not None:
                frames.register(const, chunkname, lines, entry[1], calls, entry[0], tops)
            _register(const, chunkname, lines, calls, tops, proto_names)


def _code_objects(code):
    """Every code object in ``code``, by name."""
    forms = {}
    stack = [code]
    while stack:
        c = stack.pop()
        forms[c.co_name] = c
        stack.extend(k for k in c.co_consts if hasattr(k, 'co_code'))
    return forms


def _link_forms(codes, facts, generator_forms, chunkname, filenames):
    """Give each plain form's code (``Q...``, in ``codes``, the chunk's code
    objects by name) the way to its generator form's (``P...``, made by
    ``generator_forms[name]()``), and record which plain forms are
    predicates or plain orders (``facts``)."""
    for name, plain in codes.items():
        if name.startswith('Q'):
            ops.link_gen_form(plain, partial(_compile_generator_form, name, generator_forms[name],
                                             facts.proto_names, chunkname, filenames))
            if name in facts.predicates:
                ops.PREDICATES.add(plain)
            if name in facts.orders:
                ops.ORDERS[plain] = facts.orders[name]


def _compile_generator_form(name, translate, proto_names, chunkname, filenames):
    """The code of plain form ``name``'s generator form, translated (by
    ``translate()``) and compiled on first use."""
    with collector_paused(), untraced(), compiler_frames():
        source, lines, calls, tops = translate()
        code = _compile_python(source, chunkname, 'P' + name[1:], filenames)
    _register(code, chunkname, lines, calls, tops, proto_names)
    return _code_objects(code)['P' + name[1:]]


def check_syntax(source: str, chunkname: str) -> None:
    """Raise LuaSyntaxError if ``source`` does not compile.  Every compile error
    is found by the parser, resolver or code generator, so translating to
    Python is not needed to check."""
    if (source, chunkname) in _CACHE:
        return
    from .parser import parse
    with compiler_frames():
        compile_chunk(parse(source, chunkname, from_file=False))


def load_into(vm, compiled: Compiled, env):
    """Instantiate a compiled chunk in ``vm``: its main function with ``_ENV = env``."""
    factory = chunk_factory(vm, compiled)
    # The main chunk's _ENV is a cell only when the chunk assigns it.
    return factory([env] if compiled.proto.upvals[0][3] == 'cell' else env)


def chunk_factory(vm, compiled: Compiled):
    """The chunk's main-function factory in ``vm``, made on first use."""
    factory = vm.factories.get(compiled.main_factory)
    if factory is None:
        code = compiled.module_code
        cells = {'DEBT': vm.debt_cell, 'DIRECT_TAILS': vm.direct_tails_cell,
                 'LAPS': vm.laps_cell}
        closure = tuple(cells[name] for name in code.co_freevars) or None
        factory = FunctionType(code, vm.ns, 'MODULE', None, closure)()
        vm.factories[compiled.main_factory] = factory
    return factory
