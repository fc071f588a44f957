"""Data moves (registers, constants, upvalues, cells) and table access:
reads and stores inline on plain tables with the metatable paths behind
them, and ``t[#t + 1] = v`` as a list append."""
from __future__ import annotations

from dataclasses import dataclass

from ...runtime.table import LuaTable
from .facts import FRESH, FUSABLE, OWN, TABLE
from .intrinsics import SLOT_COST
from .ir import Choice, Const, code, join
from .layout import arr_of, hash_of, hash_store, meta_of, new_table, raw_elements

TABLE_COST = 200
_INLINE_ITEMS = 8                  # a constructor's list items stored inline at most
# Constructors nested in one statement at most: each is a call's parentheses,
# and Python's parser takes 200 levels of them.
_NESTED_TABLES = 16


@dataclass
class ConstantTree:
    """A constructor that stores only constants and constructors like it
    (``TableOps.constant_tree``): its list items and hash fields as
    expressions, the tables it makes, and the index of the instruction
    after its code."""
    items: list
    fields: list
    tables: int
    end: int

    def field_items(self):
        """The hash part's dict display items."""
        return join(', ', (code('%s: %s', Const(key), value) for key, value in self.fields))

    def expression(self):
        """The tree as one expression, for a constructor nested in another."""
        return code('Table([%s], {%s})', join(', ', self.items), self.field_items())


class TableOps:
    """Mixin of ``FunctionTranslator``: data moves and table instructions."""

    # ---------------------------------------------------------- data moves
    def op_MOVE(self, i):
        if self.delaying:
            self.moves[i.a] = i.b         # a call may read the source itself
        else:
            self.w('r%d = r%d', i.a, i.b)
        if self.isint(i.b):
            self.declare(i.a, int)
        elif i.b in self.types:
            self.declare(i.a, self.types[i.b])
        elif self.istable(i.b):
            self.declare(i.a, TABLE)

    def op_LOADK(self, i):
        self.w('r%d = %s', i.a, self.rk(i.b))
        kind = self.p.consts[-i.b - 1].__class__
        if kind is int or kind is str or kind is float:
            self.declare(i.a, kind)

    def op_LOADNIL(self, i):
        self.w(' = '.join('r%d' % r for r in range(i.a, i.a + i.b)) + ' = None')

    def op_LOADBOOL(self, i):
        self.w('r%d = %s', i.a, 'True' if i.b else 'False')
        self.declare(i.a, bool)       # no nil: a store of it needs no nil test

    def upval(self, n):
        """The Python expression for upvalue ``n``'s value."""
        kind = self.p.upvals[n][3]
        if kind == 'cell':
            return 'U%d[0]' % n
        return 'U%d' % n if kind == 'value' else self.qname

    def op_GETUPVAL(self, i):
        self.w('r%d = %s', i.a, self.upval(i.b))
        if self.p.upvals[i.b][3] == 'self':
            self.declare(i.a, OWN)
        elif self.p.typed_upvalues.get(i.b) is int:
            self.declare(i.a, int)
        elif self.p.typed_upvalues.get(i.b) is LuaTable:
            self.declare(i.a, TABLE)

    def op_SETUPVAL(self, i):
        assert self.p.upvals[i.b][3] == 'cell', 'an assigned upvalue lives in a cell'
        self.w('U%d[0] = r%d', i.b, i.a)

    def op_NEWCELL(self, i):
        self.w('r%d = [r%d]', i.a, i.a)

    def op_GETCELL(self, i):
        self.w('r%d = r%d[0]', i.a, i.b)

    def op_SETCELL(self, i):
        self.w('r%d[0] = %s', i.a, self.rk(i.b))

    # --------------------------------------------------------------- tables
    def get(self, dst, obj, key, note, table=False, held=False):
        """Emit ``dst = obj[key]`` where obj is a Python expression (a name);
        ``table`` when obj is known to be a table; ``held`` when a constant
        string key is usually there whatever the chunk stores (a global's
        field) unless the chunk says it is often absent."""
        isk, kv = self.const(key)
        k = self.rk(key)
        if isk and kv.__class__ is str:
            lines = self.field_lines(dst, obj, k)
            raw = 1                   # lines of the raw read, before the metatable's
        else:
            if k == dst:
                self.w('_k = %s', k)
                k = '_k'
            lines = self.index_lines(dst, obj, key, k)
            raw = len(lines) - 3
        general = self.meta_wait('index', '(%s, %s, %r)', obj, k, note)
        if self.miss_line is not None:
            # A read that misses names its line in a division by zero (track_zero_line).
            lines.insert(raw, code('if %s is None: _zl = %d', dst, self.miss_line))
            general = code('%s; _zl = %d', general, self.miss_line)
        if isk and kv.__class__ is str and (kv in self.held or held and kv not in self.absent):
            self.held_field(dst, obj, k, None if table else general)
            return
        if table:
            for text in lines:
                self.w(text)
            return
        if isk and kv.__class__ is str:
            # Only tables have a hash part: reading it is the class test
            # (free in Python unless it fails, which a field of a non-table
            # seldom does).
            self.w('try: ' + lines[0])
            self.w('except AttributeError: %s = %s', dst, general)
            self.w('else:')
            for text in lines[1:]:
                self.w('    ' + text)
            return
        self.w('if %s.__class__ is Table:', obj)
        for text in lines:
            self.w('    ' + text)
        self.w('else: %s = %s', dst, general)

    def held_field(self, dst, obj, k, general):
        """``dst = obj[k]`` for a key the chunk's reads usually find in the
        table itself (``facts.held_fields``): a subscript under ``try``,
        cheaper than ``get`` and its nil test when it hits.  A miss, already
        the slow path, asks ``index_chain`` in the ``KeyError`` handler
        (which probes the metatable's cache itself: an inline probe would
        raise again where no cache is kept); ``general``, when the object
        may be no table, runs in the ``AttributeError`` one (only tables
        have a hash part)."""
        self.w('try: %s = %s[%s]', dst, hash_of(obj), k)
        self.w('except KeyError:')
        if self.miss_line is not None:
            self.w('    _zl = %d', self.miss_line)
        for text in self.cache_miss(dst, obj, k):
            self.w('    ' + text)
        if general is not None:
            self.w('except AttributeError: %s = %s', dst, general)

    def field_lines(self, dst, obj, k):
        """``dst = obj[k]`` for a table and a constant string: on a miss, the
        metatable's cache of ``__index`` chain lookups (``ops.index_chain``),
        probed inline, answers for methods and fields any classes up."""
        return [code('%s = %s.get(%s)', dst, hash_of(obj), k),
                code('if %s is None and (_m := %s) is not None:', dst, meta_of(obj)),
                # Only a ClassHash has lookups; index_chain makes a
                # metatable's hash one once it has served a few lookups
                # and caches the key, so the handler runs a few times per
                # metatable and key (a subscript is cheaper than get when
                # it hits).  The cache
                # holds values only (no "a handler must run"): what the
                # subscript finds needs no test.
                code('    try: %s = %s.lookups[%s]', dst, hash_of('_m'), k),
                code('    except (AttributeError, KeyError):')] + [
                '        ' + text for text in self.cache_miss(dst, obj, k)]

    def cache_miss(self, dst, obj, k):
        """What a probe of the metatable's lookup cache that raised does:
        no cache yet, a key not cached, or a handler to run (``ops``
        caches that apart from the values, under ``(k,)``)."""
        return [code('%s = index_chain(%s, %s)', dst, obj, k),
                code('if %s is CALL_NEEDED: %s = %s', dst, dst, self.meta_wait('index_miss', '(%s, %s)', obj, k))]

    def index_lines(self, dst, obj, key, k):
        """``dst = obj[k]`` for a table and any other key."""
        isk, kv = self.const(key)
        if isk and kv.__class__ is int:
            if kv >= 1:
                lines = [code('_a = %s', arr_of(obj)),
                         code('%s = _a[%d] if len(_a) >= %d else %s.get(%s)', dst, kv - 1, kv, hash_of(obj), k)]
            else:
                lines = [code('%s = %s.get(%s)', dst, hash_of(obj), k)]
        elif not isk and self.isint(key):
            lines = [code('_a = %s', arr_of(obj)),
                     code('%s = _a[%s - 1] if %s else %s.get(%s)', dst, k, self.in_list(key, 'len(_a)'), hash_of(obj), k)]
        elif not isk:
            lines = [code('if %s.__class__ is int:', k),
                     code('    _a = %s', arr_of(obj)),
                     code('    %s = _a[%s - 1] if %s else %s.get(%s)', dst, k, self.in_list(key, 'len(_a)'), hash_of(obj), k),
                     code('elif %s.__class__ is str or %s.__class__ is Table: %s = %s.get(%s)', k, k, dst, hash_of(obj), k),
                     code('else: %s = %s.get(%s)', dst, obj, k)]
        else:
            lines = [code('%s = %s.get(%s)', dst, obj, k)]
        return lines + [code('if %s is None and %s is not None:', dst, meta_of(obj)),
                        code('    %s = index_chain(%s, %s)', dst, obj, k),
                        code('    if %s is CALL_NEEDED: %s = %s', dst, dst, self.meta_wait('index_miss', '(%s, %s)', obj, k))]

    def in_list(self, key, n):
        """The test that integer ``key`` indexes a list part of length ``n``
        (Python text): two comparisons joined by ``and``, two bytecodes
        cheaper than Python's chained ``0 < k <= n``; none below for a loop
        variable known to stay positive."""
        k = self.rk(key)
        if key in self.positive:
            return code('%s <= %s', k, n)
        return code('%s > 0 and %s <= %s', k, k, n)

    def op_GETTABLE(self, i):
        src = 'r%d' % i.b
        if i.a == i.b:
            self.w('_o = r%d', i.b)
            src = '_o'
        self.get('r%d' % i.a, src, i.c, i.note, self.istable(i.b), i in self.global_reads)

    def held_global(self, i):
        """Is GETTABUP ``i`` a global read the chunk does not say is often
        absent (``facts.held_fields``)?  Globals are mostly the libraries
        and the chunk's own functions and values."""
        isk, kv = self.const(i.c)
        return isk and kv.__class__ is str and kv not in self.absent

    def op_GETTABUP(self, i):
        if self.p.upvals[i.b][3] == 'value':
            k = self.rk(i.c)
            miss = '' if self.miss_line is None else '_zl = %d; ' % self.miss_line
            general = self.meta_wait('index', '(U%d, %s, %r)', i.b, k, i.note)
            if self.held_global(i):
                # The environment's dict subscripted: cheaper than its
                # bound get and the nil test when the global is there.
                self.w('try: r%d = EH%d[%s]', i.a, i.b, k)
                self.w('except KeyError: %sr%d = %s', miss, i.a, general)
                return
            self.w('r%d = E%d(%s)', i.a, i.b, k)
            self.w('if r%d is None: %sr%d = %s', i.a, miss, i.a, general)
            return
        self.w('_o = %s', self.upval(i.b))
        self.get('r%d' % i.a, '_o', i.c, i.note)

    def set(self, obj, key, val, note, table=False, made=False):
        """Emit ``obj[key] = val``; ``table`` when obj is known to be a
        table, ``made`` when it is one the function made itself."""
        isk, kv = self.const(key)
        vk, vv = self.const(val)
        k = self.rk(key)
        v = self.rk(val)
        w = self.w
        istable = '' if table else code('%s.__class__ is Table and ', obj)
        if isk and kv.__class__ is str:
            # A metatable without __newindex has no say in a store, nor
            # __newindex in one to a field already present.  Presence is
            # tested first where an object's field is mostly stored again,
            # its class its metatable; a table the function made mostly
            # has none and is being filled.
            meta, present = code('%s is None', meta_of(obj)), code('%s in %s', k, hash_of(obj))
            first, second = (meta, present) if made else (present, meta)
            w("if %s(%s or %s or '__newindex' not in %s):", istable, first, second, hash_of(meta_of(obj)))
        else:
            # Any key: a metatable without __newindex has no say either (a
            # scope chained to its parent's by __index, an object's slots).
            w("if %s(%s is None or '__newindex' not in %s):", istable, meta_of(obj), hash_of(meta_of(obj)))
        # A constant or a register of known type is no nil.
        notnil = vv is not None if vk else self.never_nil(val)
        if isk and kv.__class__ is str:
            if notnil:
                w('    %s[%s] = %s', hash_of(obj), k, v)
            elif vk:
                w('    %s.pop(%s, None)', hash_of(obj), k)
            else:
                w('    if %s is not None: %s[%s] = %s', v, hash_of(obj), k, v)
                w('    else: %s.pop(%s, None)', hash_of(obj), k)
        elif isk and kv.__class__ is int:
            w('    %s.set_int(%s, %s)', obj, k, v)
        else:
            # Array stores inline: overwrite or append (accounting each
            # doubling of the list, as LuaTable.set_int does).
            maybe_nil = not notnil
            notnil = '' if notnil else code(' and %s is not None', v)
            if self.isint(key):
                w('    if True:')
            else:
                w('    if %s.__class__ is int:', k)
            w('        _a = %s; _n = len(_a)', arr_of(obj))
            w('        if %s%s: _a[%s - 1] = %s', self.in_list(key, '_n'), notnil, k, v)
            # Keys following the list's end in the hash part move with an append.
            w('        elif %s == _n + 1%s and (not %s or %s + 1 not in %s):', k, notnil, hash_of(obj), k, hash_of(obj))
            w('            _a.append(%s); %s', v, self.debt(SLOT_COST))
            # Keys outside 1..n+1 (sparse, negative, arriving out of order)
            # live in the hash part: stored there as LuaTable._set_hash does.
            w('        elif not 0 < %s <= _n + 1%s: %s', k, notnil, hash_store(obj, k, v))
            w('        else: %s.set_int(%s, %s)', obj, k, v)
            if not self.isint(key):
                w('    elif %s.__class__ is str:', k)
                if maybe_nil:
                    w('        if %s is not None: %s[%s] = %s', v, hash_of(obj), k, v)
                    w('        else: %s.pop(%s, None)', hash_of(obj), k)
                else:
                    w('        %s[%s] = %s', hash_of(obj), k, v)
                # Tables as keys (sets of objects, maps keyed by nodes).
                w('    elif %s.__class__ is Table%s: %s', k, notnil, hash_store(obj, k, v))
                w('    else: %s.set(%s, %s)', obj, k, v)
        # The plain form's helper stores raw itself where the metatable has
        # no say; the generator form tests that first (``set_plain``), to
        # run no generator then.
        other = '' if table else code('%s.__class__ is not Table or ', obj)
        w('%s', Choice(code('else: setindex_plainly(%s, %s, %s, %r)', obj, k, v, note),
                       code('elif %snot set_plain(%s, %s, %s): %s', other, obj, k, v,
                            self.wait('setindex(%s, %s, %s, %r)', obj, k, v, note))))

    def op_SETTABLE(self, i):
        isk, kv = self.const(i.b)
        if isk and kv.__class__ is str and self.types.get(i.a) is FRESH:
            self.fresh_field(i)
        else:
            self.set('r%d' % i.a, i.b, i.c, i.note, self.istable(i.a), i.a in self.new_tables)

    def fresh_field(self, i):
        """A field of a table still being made (a constructor's ``k = v``):
        no metatable can have a say."""
        t, k, v = 'r%d' % i.a, self.rk(i.b), self.rk(i.c)
        vk, vv = self.const(i.c)
        if vv is not None if vk else self.never_nil(i.c):
            self.w('%s[%s] = %s', hash_of(t), k, v)
        elif vk:
            self.w('%s.pop(%s, None)', hash_of(t), k)
        else:
            self.w('if %s is not None: %s[%s] = %s', v, hash_of(t), k, v)
            self.w('else: %s.pop(%s, None)', hash_of(t), k)

    def op_SETTABUP(self, i):
        self.w('_o = %s', self.upval(i.a))
        self.set('_o', i.b, i.c, i.note)

    def op_NEWTABLE(self, i):
        # Accounted without a check: the periodic check measures the heap when
        # the debt is large (a table costs about this much in CPython).
        self.w(new_table('r%d' % i.a))
        self.w(self.debt(TABLE_COST))
        self.declare(i.a, FRESH)

    def constant_tree(self, k, hi, depth=0):
        """The constructor NEWTABLE ``code[k]`` opens as a ``ConstantTree``,
        when it and every constructor in it store only constants (no nil)
        as list items and under string keys, written on one line; else
        None.  Made in one statement, it runs none of the loads and stores
        in between, which nothing could observe: they cannot fail, and a
        line hook sees one line.  A data file of 10,000 rows of records
        translates to 2.0 MB of Python this way, against 5.1 MB."""
        if depth > _NESTED_TABLES:
            return None
        code_, p = self.p.code, self.p
        new = code_[k]
        items, fields, loaded, tables = [], [], {}, 1
        j = k + 1
        while len(items) < new.b or len(fields) < new.c:
            if j >= hi or code_[j].line != new.line:
                return None
            ins = code_[j]
            op = ins.op
            if op in ('LOADK', 'LOADBOOL', 'NEWTABLE'):
                if ins.a <= new.a or ins.a in loaded:
                    return None
                if op == 'NEWTABLE':
                    nested = self.constant_tree(j, hi, depth + 1)
                    if nested is None:
                        return None
                    loaded[ins.a] = nested.expression()
                    tables += nested.tables
                    j = nested.end
                    continue
                value = p.consts[-ins.b - 1] if op == 'LOADK' else bool(ins.b)
                if value is None:
                    return None
                loaded[ins.a] = Const(value)
            elif op == 'SETTABLE' and ins.a == new.a:
                is_key, key = self.const(ins.b)
                if not is_key or key.__class__ is not str:
                    return None
                is_value, value = self.const(ins.c)
                if is_value:
                    if value is None:
                        return None
                    fields.append((key, Const(value)))
                elif ins.c in loaded:
                    fields.append((key, loaded.pop(ins.c)))
                else:
                    return None
            elif op == 'SETLIST' and ins.a == new.a and ins.b > 0 and ins.c == len(items):
                regs = range(ins.note, ins.note + ins.b)
                if any(r not in loaded for r in regs):
                    return None
                items.extend(loaded.pop(r) for r in regs)
            else:
                return None
            j += 1
        if loaded:
            return None
        return ConstantTree(items, fields, tables, j)

    def constant_constructor(self, instructions, tree):
        """The ``instructions`` of a ``ConstantTree`` (NEWTABLE first) as
        one statement; the table is still being made (FRESH) after them."""
        new = instructions[0]
        self.w(new_table('r%d' % new.a, tree.field_items(), join(', ', tree.items)))
        self.w(self.debt(TABLE_COST * tree.tables))
        for ins in instructions:
            self.forget(ins)
        self.types[new.a] = FRESH

    def constructor_fields(self, k, hi):
        """How many of the instructions after NEWTABLE ``code[k]`` (up to
        ``hi``) store a field of the new table under a string constant from
        a constant or a register (``{name = name, n = 0}``), on its line:
        ``constructor`` makes them one dict display."""
        code, a, line = self.p.code, self.p.code[k].a, self.p.code[k].line
        n = 0
        for j in range(k + 1, hi):          # by index: islice would walk from the start
            ins = code[j]
            # A field on a line of its own keeps its line event.
            if ins.op != 'SETTABLE' or ins.a != a or ins.c == a or ins.line != line:
                break
            isk, kv = self.const(ins.b)
            if not (isk and kv.__class__ is str):
                break
            n += 1
        return n

    def constructor(self, new, fields):
        """NEWTABLE ``new`` and its ``fields`` (see ``constructor_fields``):
        the hash part made at once, without the values that are nil; the
        table is still being made (FRESH) after them."""
        t = 'r%d' % new.a
        items, maybe_nil = [], []
        for ins in fields:
            vk, vv = self.const(ins.c)
            if vk and vv is None:
                continue                    # {k = nil} stores nothing
            items.append(code('%s: %s', self.rk(ins.b), self.rk(ins.c)))
            if not vk and not self.never_nil(ins.c):
                maybe_nil.append('r%d' % ins.c)
        self.w(new_table(t, join(', ', items)))
        if maybe_nil:
            self.w('if %s: %s = {_k: _v for _k, _v in %s.items() if _v is not None}',
                   ' or '.join('%s is None' % r for r in maybe_nil), hash_of(t), hash_of(t))
        self.w(self.debt(TABLE_COST))
        for ins in (new, *fields):
            self.forget(ins)
        self.types[new.a] = FRESH

    def op_SETLIST(self, i):
        # ``note`` holds the scratch register where the list items start.
        base = i.note
        if i.b == -1:
            vals = self.multret_args(base)
        else:
            vals = code('(%s,)', ', '.join('r%d' % r for r in range(base, base + i.b)))
            if i.c == 0 and self.types.get(i.a) is FRESH and i.b <= _INLINE_ITEMS:
                self.list_items(i.a, range(base, base + i.b), vals)
                return
        self.w('setlist(r%d, %d, %s)', i.a, i.c, vals)

    def list_items(self, a, regs, vals):
        """A constructor's first list items (``{a, b}``) into a table just
        made: when it holds nothing yet and no item is nil, they are its
        list part, as ``ops.setlist`` makes it."""
        t = 'r%d' % a
        conds = ['not %s' % arr_of(t), 'not %s' % hash_of(t)]
        conds += ['r%d is not None' % r for r in regs if not self.never_nil(r)]
        self.w('if %s: %s = [%s]', ' and '.join(conds), arr_of(t), ', '.join('r%d' % r for r in regs))
        self.w('else: setlist(%s, 0, %s)', t, vals)

    def is_field_update(self, seq):
        """``GETTABLE x t "k"; ADD/SUB/MUL y x c; SETTABLE t "k" y``: the
        statement ``t.k = t.k + c``."""
        get, op, st = seq
        # Only these operands are registers or constants: read them after the opcodes.
        if get.op != 'GETTABLE' or op.op not in ('ADD', 'SUB', 'MUL') or st.op != 'SETTABLE':
            return False
        key = self.const(get.c)
        ck, cv = self.const(op.c)
        return (key[0] and key[1].__class__ is str and get.temp
                and op.b == get.a and op.c != get.a
                and (not ck or cv.__class__ is int or cv.__class__ is float)
                and op.a != get.b and st.a == get.b
                and st.b == get.c and st.c == op.a)

    def is_number_op_between(self, get, op):
        """Is ``op``, just after ``get`` reads a field, arithmetic on numbers
        known here that neither reads nor changes what ``get`` uses (so it
        may run first: it calls nothing)?"""
        operands = (op.b, op.c)
        return (op.op in ('ADD', 'SUB', 'MUL')
                and all(self.isint(x) or self.isfloat(x) for x in operands)
                and op.a not in (get.a, get.b) and get.a not in operands)

    def field_update(self, get, op, st):
        """``t.k = t.k + c`` where ``t.k`` holds a number in ``t`` itself:
        the store goes to a field already present, which never consults
        ``__newindex``, and numbers call no metamethod in between.
        Anything else runs the three instructions as they are (reading
        ``t``'s own field again is free of effects)."""
        t, k, x, y, c = 'r%d' % get.b, self.rk(get.c), 'r%d' % get.a, 'r%d' % op.a, self.rk(op.c)
        pyop = FUSABLE[op.op]
        before = dict(self.types)
        if self.istable(get.b):
            self.w('%s = %s.get(%s)', x, hash_of(t), k)
        else:
            self.w('%s = %s.get(%s) if %s.__class__ is Table else None', x, hash_of(t), k, t)
        both_int = code('%s.__class__ is int', x)
        if not self.isint(op.c):
            both_int += code(' and %s.__class__ is int', c)
        floats = code('%s.__class__ is float', x)
        if not self.isint(op.c):
            floats += code(' and %s', self.num_guard(c))
        if self.isfloat(op.c):
            branches = [(self.num_guard(x), None)]      # a float with any number is a float
        elif self.floaty:
            branches = [(floats, None), (both_int, self.overflow_check(op, pyop, y))]
        else:
            branches = [(both_int, self.overflow_check(op, pyop, y)), (floats, None)]
        for n, (cond, check) in enumerate(branches):
            self.w('%s %s:', 'elif' if n else 'if', cond)
            self.w('    %s = %s %s %s', y, x, pyop, c)
            if check:
                self.w('    ' + check)
            self.w('    %s[%s] = %s', hash_of(t), k, y)
        self.w('else:')
        self.ind += 1
        self.empty.append(True)
        for ins in (get, op, st):
            self.step(ins)
        self.empty.pop()
        self.ind -= 1
        # What the branches leave differs; only the registers written change.
        self.types = before
        for ins in (get, op, st):
            self.forget(ins)

    def is_append(self, seq):
        """``LEN x t; ADD y x 1; SETTABLE t y v``: the statement ``t[#t + 1] = v``."""
        n, add, st = seq
        if add.op != 'ADD' or st.op != 'SETTABLE':
            return False
        one = self.const(add.c)
        return (n.temp and add.temp
                and add.b == n.a and one[0] and one[1].__class__ is int and one[1] == 1
                and st.a == n.b and st.b == add.a and st.c not in (n.a, add.a))

    def append(self, n, add, st):
        """``t[#t + 1] = v`` on a table with only a list part is an append."""
        t, v = 'r%d' % st.a, self.rk(st.c)
        known = self.const(st.c)[1] is not None if st.c < 0 else st.c in self.known or st.c in self.types
        notnil = '' if known else code(' and %s is not None', v)
        istable = '' if self.istable(st.a) else code('%s.__class__ is Table and ', t)
        self.w('if %s%s and (not %s or len(%s) + 2 not in %s)%s:', istable, raw_elements(t), hash_of(t), arr_of(t), hash_of(t), notnil)
        self.w('    %s.append(%s); %s', arr_of(t), v, self.debt(SLOT_COST))
        self.w('else:')
        self.ind += 1
        self.empty.append(True)
        self.op_LEN(n)
        self.op_arith_single(add)
        self.op_SETTABLE(st)
        self.empty.pop()
        self.ind -= 1
