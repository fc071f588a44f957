"""The runtime table's layout (``pylua.runtime.table.LuaTable``) as the
generated code reaches into it: the one place that names its slots.

Generated code reads a table's parts directly on its fast paths: the dict of
its hash part, the list of its array part (``t[1..n]``) and its metatable
(``None`` when it has none); and it makes tables without calling
``LuaTable.__init__`` (a Python frame per table)."""
from __future__ import annotations

from .ir import code

HASH = 'hash'                      # dict: every key outside the array part
ARR = 'arr'                        # list: the values of keys 1..n, never ending in nil
META = 'meta'                      # the metatable, or None


def hash_of(table: str) -> str:
    """The expression of the hash part's dict of the table ``table`` names."""
    return '%s.%s' % (table, HASH)


def arr_of(table: str) -> str:
    """The expression of the array part's list."""
    return '%s.%s' % (table, ARR)


def meta_of(table: str) -> str:
    """The expression of the metatable."""
    return '%s.%s' % (table, META)


def without_meta(table: str, *events: str) -> str:
    """The condition that the table ``table`` names has no metatable, or
    one without handlers for ``events`` (metatables are tables whose every
    string key is in the hash part)."""
    meta = meta_of(table)
    return '(%s is None or %s)' % (meta, ' and '.join("'%s' not in %s" % (e, hash_of(meta)) for e in events))


def hash_store(table, k, v):
    """The statement storing a value known not nil under a key of the hash
    part that needs no normalising, accounting the dict's growth."""
    return code('_h = %s; _h[%s] = %s; len(_h) & (len(_h) - 1) or charge_growth(64 * len(_h))',
                hash_of(table), k, v)


def raw_length(table: str) -> str:
    """The condition that ``#`` of the table ``table`` names is its raw border."""
    return without_meta(table, '__len')


def raw_elements(table: str) -> str:
    """The condition that ``#`` and stores of elements of the table
    ``table`` names are raw (``lua_seti``, ``luaL_len`` as the table
    library uses them); a read is raw where the element is present."""
    return without_meta(table, '__len', '__newindex')


def new_table(table: str, hash_items='', list_items='') -> str:
    """A statement making a table into ``table`` as ``LuaTable()`` does,
    without its ``__init__``'s frame: the object and its three parts, the
    hash part holding ``hash_items`` (a dict display's items) and the
    list part ``list_items`` (a list display's, none of them nil), each
    text or an ``ir`` node and none by default."""
    return code('%s = NEW(Table); %s = [%s]; %s = {%s}; %s = None',
                table, arr_of(table), list_items, hash_of(table), hash_items, meta_of(table))
