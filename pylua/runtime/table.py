"""Lua tables: an array part for keys 1..n and a dict for everything else.

Invariants that keep ``#t`` O(1): the array part never ends in nil, and the
dict never holds the key ``len(arr) + 1`` (appending migrates it).  Booleans
are stored under private keys because Python's ``True == 1`` would make
``t[true]`` and ``t[1]`` the same slot.
"""
from __future__ import annotations

from itertools import chain, islice
from sys import getrefcount

from . import state
from .frames import transparent, vm_error as rt_error

transparent(__file__)

TRUE_KEY = ('<true>',)
FALSE_KEY = ('<false>',)


# A hash part bigger than ``WALK_COPIED`` keys is walked by ``pairs`` in two
# snapshots, of its first ``WALK_HEAD`` keys and then of the rest: a loop
# that stops early copies nothing of a big table, and a smaller one is
# copied at once (the two steps cost more).
WALK_COPIED = 256
WALK_HEAD = 8


class LuaTable:
    # guard and anchor belong to the collector (runtime/collector.py), which
    # sets them only on the tables it deals with; keycache is set by the
    # first ``next`` that enters the hash part (most tables never get one);
    # lookups_served by ``ops.index_chain`` on a metatable it does not
    # cache over yet.
    # Translated code makes its tables without __init__ (its frame costs
    # a fifth of a table): translation/layout.py's new_table sets what it sets.
    __slots__ = ('hash', 'arr', 'meta', 'keycache', 'guard', 'anchor', 'lookups_served', '__weakref__')

    def __init__(self, arr=None, hash=None):
        self.arr = arr if arr is not None else []
        self.hash = hash if hash is not None else {}
        self.meta = None

    # ---------------------------------------------------------------- raw get
    def get(self, k):
        c = k.__class__
        if c is int:
            arr = self.arr
            if 0 < k <= len(arr):
                return arr[k - 1]
            return self.hash.get(k)
        if c is str:
            return self.hash.get(k)
        if c is float:
            i = float_key(k)
            if i is not k:
                return self.get(i)
        elif c is bool:
            k = TRUE_KEY if k else FALSE_KEY
        elif k is None:
            return None
        return self.hash.get(k)

    def get_int(self, k):
        arr = self.arr
        if 0 < k <= len(arr):
            return arr[k - 1]
        return self.hash.get(k)

    # ---------------------------------------------------------------- raw set
    def set(self, k, v):
        c = k.__class__
        if c is int:
            self.set_int(k, v)
            return
        if c is float:
            i = float_key(k)
            if i is not k:
                self.set_int(i, v)
                return
            if k != k:
                rt_error('table index is NaN')
        elif c is bool:
            k = TRUE_KEY if k else FALSE_KEY
        elif k is None:
            rt_error('table index is nil')
        self._set_hash(k, v)

    def set_int(self, k, v):
        arr = self.arr
        n = len(arr)
        if 0 < k <= n:
            if v is None and k == n:
                arr.pop()
                drop_nils(arr)
            else:
                arr[k - 1] = v
            return
        if k == n + 1 and v is not None:
            arr.append(v)
            if n & (n + 1) == 0:          # the list doubled: account its growth
                charge_growth(16 * n + 16)
            hash = self.hash
            if hash:
                k += 1
                while k in hash:
                    arr.append(hash.pop(k))
                    k += 1
            return
        self._set_hash(k, v)

    def _set_hash(self, k, v):
        if v is None:
            self.hash.pop(k, None)
        else:
            hash = self.hash
            hash[k] = v
            n = len(hash)
            if n & (n - 1) == 0:          # the dict may have grown: account it
                charge_growth(64 * n)

    def set_str(self, k, v):
        if v is None:
            self.hash.pop(k, None)
        else:
            self.hash[k] = v

    # ------------------------------------------------------------- length/next
    def length(self):
        """A border, as the raw ``#`` operator."""
        n = len(self.arr)
        if n:
            return n
        hash = self.hash
        if 1 not in hash:
            return 0
        # Unbounded search then binary search, as luaH_getn does for the hash part.
        i, j = 1, 2
        while j in hash:
            i, j = j, j * 2
            if j > 1 << 62:
                k = 1
                while k + 1 in hash:
                    k += 1
                return k
        while j - i > 1:
            m = (i + j) // 2
            if m in hash:
                i = m
            else:
                j = m
        return i

    def next(self, k):
        """Raw ``next``: the (key, value) after ``k``, or None at the end.

        Hash traversal walks a key snapshot taken when the walk goes on
        from the hash part's first key (so ``next(t)`` alone costs nothing
        however big the table); Lua leaves adding keys during a traversal
        undefined, and removed keys are skipped because their value is gone.
        """
        arr = self.arr
        i = None
        if k is None:
            i = 0
        else:
            if k.__class__ is float:
                k = float_key(k)
            if k.__class__ is int and 0 < k <= len(arr):
                i = k
        if i is not None:
            n = len(arr)
            while i < n:
                v = arr[i]
                i += 1
                if v is not None:
                    return i, v
            return self._hash_start()
        hk = TRUE_KEY if k is True else FALSE_KEY if k is False else k
        cache = getattr(self, 'keycache', None)
        if cache is not None and cache[0] is None:
            # The traversal goes on from the hash's first key: the keys
            # after it are the hash's, in order, whether or not it is gone.
            first = cache[1]
            cache = self.keycache = (list(self.hash), None)
            if (hk is first or hk == first) and hk not in self.hash:
                return self._hash_from(cache[0], 0)
        elif cache is None:
            cache = self.keycache = (list(self.hash), None)
        keys, where = cache
        if where is None:
            where = {key: pos for pos, key in enumerate(keys)}
            self.keycache = (keys, where)
        pos = where.get(hk)
        if pos is None:
            if hk not in self.hash:
                rt_error("invalid key to 'next'")
            keys = list(self.hash)
            where = {key: pos for pos, key in enumerate(keys)}
            self.keycache = (keys, where)
            pos = where[hk]
        return self._hash_from(keys, pos + 1)

    def _hash_start(self):
        """The hash part's first entry, a traversal's start, remembered as
        ``(None, key)`` until the traversal goes on (its snapshot then)."""
        for key, v in self.hash.items():
            if v is not None:
                self.keycache = (None, key)
                return _lua_key(key), v
        self.keycache = None
        return None

    def _hash_from(self, keys, pos):
        hash = self.hash
        n = len(keys)
        while pos < n:
            key = keys[pos]
            v = hash.get(key)
            if v is not None:
                return _lua_key(key), v
            pos += 1
        return None

    def items(self):
        """Iteration of (key, value) pairs, never a nil value: ``walk``
        without the fields removed meanwhile."""
        return (kv for kv in self.walk() if kv[1] is not None)

    def walk(self):
        """``pairs`` in a generic ``for``: live over the list part, then over
        snapshots of the hash part's keys taken when the walk gets there:
        of a big one, its first ``WALK_HEAD`` keys, then, if the loop goes
        on, the rest (so a loop that stops early, ``for _ in pairs(t) do
        return false end``, copies nothing of a big table).  A field
        removed before the walk reaches it comes with a nil value, which
        the loop skips; without boolean keys all of it runs in C."""
        return chain.from_iterable(self._walk_parts())

    def _walk_parts(self):
        yield enumerate(self.arr, 1)
        hash = self.hash
        if TRUE_KEY in hash or FALSE_KEY in hash:
            yield self._hash_items()
            return
        if len(hash) <= WALK_COPIED:
            keys = list(hash)
            yield zip(keys, map(hash.get, keys))
            return
        head = list(islice(hash, WALK_HEAD))
        yield zip(head, map(hash.get, head))
        keys = list(hash)
        if len(keys) >= WALK_HEAD and keys[WALK_HEAD - 1] is head[-1]:
            # No key before the head's last was removed: the head is still
            # the hash's first keys (new ones go at its end).
            del keys[:WALK_HEAD]
            yield zip(keys, map(hash.get, keys))
        else:
            # Fields of the head cleared (or set again) meanwhile: the
            # rest is every key the head did not hold, in order.
            seen = set(head)
            rest = [k for k in keys if k not in seen]
            yield zip(rest, map(hash.get, rest))

    def _hash_items(self):
        hash = self.hash
        for key in list(hash):
            v = hash.get(key)
            if v is not None:
                # Only the booleans' private keys are tuples.
                yield (_lua_key(key) if key.__class__ is tuple else key), v


_NOT_CACHED = object()
# The dependents of a table no cache passes through yet: most converted
# hashes are per-object metatables that never get one (see ``depend``).
_NO_DEPENDENTS = {}
# The most caches one table keeps told of its changes: those of tables
# since dropped (a prototype made per object) would otherwise pile up.
DEPENDENTS_MAX = 4096


class ClassHash(dict):
    """The hash part of a table that ``__index`` lookups are cached over (a
    metatable or an ``__index`` table, see ``ops.index_chain``).

    ``lookups`` (on a metatable's hash) maps a string key to what reading it
    from a table with that metatable gives when the table itself lacks it
    (``(key,)`` to ``CALL_NEEDED`` where an ``__index`` function answers).
    Those answers depend on the metatable only through its ``__index``, so
    every metatable whose ``__index`` is the same table shares that table's
    ``as_index`` as its ``lookups`` (``shares``): an object made with a
    metatable of its own, ``setmetatable(o, {__index = Class})``, finds
    its class's methods cached from its first call.  A metatable that
    shares has no say in its answers but through ``__index``: any change
    of it but a plain key's gives it lookups of its own again.
    ``dependents`` holds, by id, every ``lookups`` whose cached chains
    pass through this table.  A change of one key (a store, a
    removal) drops that key's answers from them: an answer depends only on
    its own key in each table of the chain, and on the chain itself, so a
    change of ``__index`` and any other change (the collector's clearing of
    a weak table) empties them.  A cache is so only ever consulted while
    every table of its chain is as it was when filled, for its key.  A class
    counting its instances in a class field thus keeps its methods cached.
    A store that drops a cached answer shows a table written while it is
    read through, an interpreter's scope rather than a class: it stops
    sharing a cache with new metatables (``as_index`` None) until it has
    served twice as many lookups again (``demotions``, see
    ``ops._worth_caching``), so a scope made for every call of a loop
    pays no cache it would empty at its next assignment.
    Translated code stores into a hash part directly, which is why the
    check sits in the dict itself.

    ``shadow`` is the plain dict this one replaced while anything else still
    holds it (translated code binds an environment's ``hash.get``, a
    ``pairs`` walk reads through it): every change is made to it too, until
    this is its last holder.
    """
    __slots__ = ('lookups', 'dependents', 'shadow', 'as_index', 'shares', 'demotions')

    def changed(self):
        self._empty_dependents()
        if self.shares:
            self.lookups = {}
            self.shares = False

    def key_changed(self, k):
        """Key ``k`` was stored or removed: the answers for it are stale
        (string keys only are cached, a handler's as ``(k,)``)."""
        if k.__class__ is not str:
            return
        if k == '__index':              # the chain itself changed
            self.changed()
            return
        handler = (k,)
        dropped = False
        for lookups in self.dependents.values():
            if lookups.pop(k, _NOT_CACHED) is not _NOT_CACHED:
                dropped = True
            lookups.pop(handler, None)
        if dropped and self.as_index is not None:
            self.demote()

    def demote(self):
        """A store dropped a cached answer of a class: it stops sharing a
        cache with new metatables, and the caches through it are emptied
        and let go (those of scopes no longer used would otherwise pile up
        here, each store visiting them all)."""
        self._empty_dependents()
        self.as_index = None
        # Unset until then (getattr's default): a conversion made per object
        # would otherwise pay for a count most tables never need.
        self.demotions = getattr(self, 'demotions', 0) + 1

    def depend(self, ident, lookups):
        """Cache ``lookups`` (by id) passes through this table.  Past
        ``DEPENDENTS_MAX`` the caches are all emptied and let go: those
        still in use fill again, and tell this table again."""
        dependents = self.dependents
        if dependents is _NO_DEPENDENTS:
            dependents = self.dependents = {}
        elif len(dependents) >= DEPENDENTS_MAX and ident not in dependents:
            self._empty_dependents()
            dependents = self.dependents = {}
        dependents[ident] = lookups

    def _empty_dependents(self):
        """Every cache through this table emptied and no longer told of its changes."""
        for lookups in self.dependents.values():
            lookups.clear()
        self.dependents = _NO_DEPENDENTS

    def _mirror(self):
        """The shadow dict to change as well, or None."""
        shadow = self.shadow
        if shadow is not None and getrefcount(shadow) <= 3:    # here, the slot, the call
            shadow = self.shadow = None
        return shadow

    def __setitem__(self, k, v):
        dict.__setitem__(self, k, v)
        if self.shadow is not None and self._mirror() is not None:
            self.shadow[k] = v
        if self.dependents or self.shares:
            self.key_changed(k)

    def __delitem__(self, k):
        dict.__delitem__(self, k)
        self._removed(k)

    def __ior__(self, other):
        dict.update(self, other)
        self._copy_out()
        return self

    def pop(self, k, *default):
        v = dict.pop(self, k, *default)
        self._removed(k)
        return v

    def _removed(self, k):
        """After key ``k``'s removal: the shadow and the caches told of it
        alone (copying the shadow whole made every global removed from a
        sandbox's environment cost the whole environment)."""
        shadow = self._mirror()
        if shadow is not None:
            shadow.pop(k, None)
        if self.dependents or self.shares:
            self.key_changed(k)

    def popitem(self):
        item = dict.popitem(self)
        self._copy_out()
        return item

    def setdefault(self, k, v=None):
        v = dict.setdefault(self, k, v)
        self._copy_out()
        return v

    def update(self, *args, **kw):
        dict.update(self, *args, **kw)
        self._copy_out()

    def clear(self):
        dict.clear(self)
        self._copy_out()

    def _copy_out(self):
        """After any change but a store: the shadow made equal, the caches emptied."""
        shadow = self._mirror()
        if shadow is not None:
            shadow.clear()
            shadow.update(self)
        self.changed()


def class_hash(t):
    """``t``'s hash part as a ClassHash, converting it on first use."""
    if t.hash.__class__ is not ClassHash:
        return _converted(t, {}, False)
    return t.hash


def _converted(t, lookups, shares):
    """``t``'s plain hash part replaced by a ClassHash with ``lookups``."""
    hash = t.hash
    new = ClassHash(hash)
    new.lookups = lookups
    new.shares = shares
    new.dependents = _NO_DEPENDENTS
    new.as_index = None
    t.hash = new
    # The plain dict is kept in step while anything holds it but this
    # frame (its name, getrefcount's argument).
    new.shadow = hash if getrefcount(hash) > 2 else None
    return new


def share_class_lookups(mt):
    """``setmetatable(o, mt)`` of a metatable whose hash is no ClassHash
    yet: when its ``__index`` is a class others' lookups are cached for,
    ``mt`` shares them from now on, so that an object made with a
    metatable of its own, ``{__index = Class}``, finds its methods cached
    from its first call."""
    cls = mt.hash.get('__index')
    if cls.__class__ is LuaTable:
        hash = cls.hash
        if hash.__class__ is ClassHash and hash.as_index is not None:
            _converted(mt, hash.as_index, True)


def index_lookups(cls):
    """The lookups every metatable whose ``__index`` is table ``cls`` shares."""
    hash = class_hash(cls)
    if hash.as_index is None:
        hash.as_index = {}
    return hash.as_index


def lookups_of(mt, cls):
    """Metatable ``mt``'s lookups: shared with every metatable whose
    ``__index`` is table ``cls``, or (``cls`` None) its own."""
    hash = mt.hash
    shares = cls is not None
    if hash.__class__ is ClassHash and hash.shares is shares:
        # Kept even when its class has since stopped sharing (a demotion).
        return hash.lookups
    lookups = index_lookups(cls) if shares else {}
    hash = mt.hash          # converted if it is the class itself (C.__index = C)
    if hash.__class__ is not ClassHash:
        return _converted(mt, lookups, shares).lookups
    hash.lookups = lookups
    hash.shares = shares
    return lookups


def meta_changed(t):
    """``t``'s metatable was set: the cached lookups through ``t`` are stale."""
    if t.hash.__class__ is ClassHash:
        t.hash.changed()


def drop_nils(arr):
    """Restore the invariant that a list part never ends in nil."""
    while arr and arr[-1] is None:
        arr.pop()


def _lua_key(key):
    """The Lua key a hash key stands for (booleans are stored under private keys)."""
    if key is TRUE_KEY:
        return True
    if key is FALSE_KEY:
        return False
    return key


def charge_growth(nbytes):
    """Account ``nbytes`` of new memory to the running VM."""
    vm = state.running.vm
    if vm is not None:
        vm.charge(nbytes)


def float_key(k):
    """The int a float key normalises to, or the float itself."""
    if k.is_integer() and -9.3e18 < k < 9.3e18:
        i = int(k)
        if -(1 << 63) <= i < (1 << 63):
            return i
    return k
