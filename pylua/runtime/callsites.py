"""Call-site caches: each call site of a translated chunk that passes a
fixed number of arguments remembers the first Lua function it called when
that function takes those arguments as they are and its results need no
look: a site wanting one result, a function every return of which gives
exactly one value; a site wanting none, a function that never returns a
tail call's marker.  A call of the remembered function is then a plain
Python call: no test of the callee's class, no refitting of arguments, no
look at the result's shape.  A function object never changes its code, so the identity
test is exact; a site whose first callee does not qualify remembers
``NOT_CACHED`` and never tries again (a site calling many functions pays
one identity test).

The caches hold their functions strongly, which Lua must not see: a
function reachable only from a weak table must go at a collection.  So
every collection first empties every cache (``forget_all``)."""
from __future__ import annotations

import weakref

# Plain forms' code of Lua functions every return of which gives exactly one
# value, and of those that make no tail call (so never return its marker).
SINGLE_RESULT: "weakref.WeakSet" = weakref.WeakSet()
NO_TAIL_CALLS: "weakref.WeakSet" = weakref.WeakSet()
_CO_VARARGS = 0x04
UNFILLED = object()                   # a site that has called no Lua function yet
NOT_CACHED = object()                 # a site that calls a function no cache may hold


class CallSites:
    """Owner of one chunk instance's cache list (kept as the list's last
    item, so that it lives exactly as long as the list)."""
    __slots__ = ('callees', '__weakref__')


_ALL: "weakref.WeakSet" = weakref.WeakSet()


def call_sites(count):
    """The cache list of a chunk instance with ``count`` sites, all empty."""
    owner = CallSites()
    owner.callees = [UNFILLED] * count + [owner]
    _ALL.add(owner)
    return owner.callees


def fill_site(sites, k, f, nargs, wanted):
    """Site ``k`` calls Lua function ``f`` with ``nargs`` arguments for the
    first time, wanting ``wanted`` (0 or 1) results: remember ``f`` if its
    calls there need nothing but the call."""
    code = f.__code__
    fits = code.co_argcount >= nargs or code.co_flags & _CO_VARARGS
    shaped = code in (SINGLE_RESULT if wanted else NO_TAIL_CALLS)
    sites[k] = f if fits and shaped else NOT_CACHED


def forget_all():
    """Empty every site cache (before a collection)."""
    for owner in list(_ALL):
        callees = owner.callees
        callees[:-1] = [UNFILLED] * (len(callees) - 1)


HELPERS = {'call_sites': call_sites, 'fill_site': fill_site, 'UNFILLED': UNFILLED}