"""What one operation costs in the shapes pylua's translator emits, in the
shapes a proposed mechanism would emit instead, and in CPython.

    python -m benchmarks.shape_costs [--iterations N]

Each case is one Lua operation (``obj:m()``'s method lookup, a nil field
read, ``self.x = v``, ``s:sub(i, i)``, ``table.concat``, a call) written in up to three ways:
the Python the translator emits today (copied from its output for the
benchmark programs), a candidate replacement, and the CPython idiom.  Each
way runs N times in a loop inside one function, on the Lua thread, over
real pylua values made by Lua code (classes through ``__index``, a string
with the string metatable); the time per operation is the best of 7 runs
minus an empty loop's, in ns of thread CPU time.

The candidates are sketches that measure a cost, not finished fast paths:
each assumes the guard its mechanism would need (named in the case) and
keeps only the common path.  ``docs/performance-profile.md`` uses these
costs, with the profiler's shares of each shape, to estimate savings.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

# Lua values the cases work on: a two-level class chain (Derived -> Base,
# method m in Base), a three-level one (Top -> Derived -> Base) and an
# instance of each; `link` is a field no level holds (nil); a string buffer.
SETUP_LUA = b'''
local Base = {}
Base.__index = Base
function Base:m() return self end
local Derived = setmetatable({}, {__index = Base})
Derived.__index = Derived
local Top = setmetatable({}, {__index = Derived})
Top.__index = Top
local Proxy = setmetatable({}, {__index = function(t, k) return 1 end})
Proxy.__index = Proxy
return setmetatable({x = 1, y = 2}, Derived), setmetatable({x = 1}, Top), Base.m,
       {'"', 'item 7', '"'}, setmetatable({}, Proxy)
'''


@dataclass(frozen=True)
class Way:
    label: str          # 'today', 'proposed', 'before' (replaced, kept for comparison) or 'CPython'
    body: str           # the loop body (one operation)
    setup: str = ''     # run once before the loop (caches a candidate keeps)


@dataclass(frozen=True)
class Case:
    operation: str
    mechanism: str      # what the proposed way needs to be correct
    ways: tuple


CASES = (
    Case('method lookup found two classes up (obj:m with Derived -> Base)',
         'inline cache at the site keyed on the metatable, valid while no class '
         'table was written since (a global epoch bumped by writes to tables used '
         'as __index)', (
             Way('today', '''
r1 = obj
if r1.__class__ is Table:
    r2 = r1.hash.get('m')
    if r2 is None and (_m := r1.meta) is not None:
        try: r2 = _m.hash.lookups.get('m', UNCACHED)
        except AttributeError: r2 = UNCACHED
        if r2 is UNCACHED: r2 = index_chain(r1, 'm')'''),
             Way('proposed', '''
r1 = obj
if r1.__class__ is Table and r1.meta is _cm and _ce == EPOCH[0] and 'm' not in r1.hash:
    r2 = _cv
else:
    r2 = None''', "_cm = obj.meta; _ce = EPOCH[0]; _cv = obj.meta.hash['__index'].meta.hash['__index'].hash['m']"),
             Way('CPython', 'r2 = pobj.m'),
         )),
    Case('read of a field that is nil, three classes deep (self.link on Top -> Derived -> Base)',
         'the same inline cache, remembering that no level holds the key', (
             Way('before', '''
r1 = obj3
if r1.__class__ is Table:
    r2 = r1.hash.get('link')
    if r2 is None and (_m := r1.meta) is not None:
        try: r2 = _m.hash.lookups.get('link', UNCACHED)
        except AttributeError: r2 = UNCACHED
        if r2 is UNCACHED: r2 = index_chain(r1, 'link')'''),
             Way('today', '''
r1 = obj3
if r1.__class__ is Table:
    r2 = r1.hash.get('link')
    if r2 is None and (_m := r1.meta) is not None:
        try: r2 = _m.hash.lookups['link']
        except (AttributeError, KeyError): r2 = UNCACHED
        if r2 is UNCACHED: r2 = index_chain(r1, 'link')'''),
             Way('proposed', '''
r1 = obj3
if r1.__class__ is Table and r1.meta is _cm and _ce == EPOCH[0] and 'link' not in r1.hash:
    r2 = None''', '_cm = obj3.meta; _ce = EPOCH[0]'),
             Way('CPython', 'r2 = pobj3.link'),
         )),
    Case('read of a field the object holds (self.x)',
         "the register's class tested once per function, not per access", (
             Way('today', '''
r1 = obj
if r1.__class__ is Table:
    r2 = r1.hash.get('x')
    if r2 is None and r1.meta is not None:
        r2 = index_chain(r1, 'x')'''),
             Way('proposed', '''
r2 = obj.hash.get('x')
if r2 is None and obj.meta is not None:
    r2 = index_chain(obj, 'x')'''),
             Way('CPython', 'r2 = pobj.x'),
         )),
    Case('write of a field (self.x = v)',
         'a metatable known to have no __newindex, cached at the site like a lookup', (
             Way('today', '''
r0 = obj; r2 = 5
if r0.__class__ is Table and ('x' in r0.hash or r0.meta is None or '__newindex' not in r0.meta.hash):
    if r2 is not None: r0.hash['x'] = r2
    else: r0.hash.pop('x', None)'''),
             Way('proposed', '''
r0 = obj; r2 = 5
if r0.__class__ is Table and r0.meta is _cm and r2 is not None:
    r0.hash['x'] = r2''', '_cm = obj.meta'),
             Way('CPython', 'pobj.x = 5'),
         )),
    Case('call of a Lua function with one argument, one result used',
         'the callee known to return exactly one value and to take its arguments as '
         'given, through a cache at the site (its first callee, compared by identity)', (
             Way('today', '''
r2 = method; r3 = obj
if r2.__class__ is FN:
    try: r2 = r2(r3)
    except TypeError as _x: r2 = r2(*refit(_x, r2, (r3,)))
    if r2.__class__ is tuple: r2 = (r2[0] if r2[0] is not TAIL else TAILS(r2, True)) if r2 else None'''),
             Way('proposed', '''
r2 = method; r3 = obj
if r2 is SITES[0]:
    r2 = r2(r3)''', 'SITES = [method]'),
             Way('CPython', 'r2 = pmethod(pobj)'),
         )),
    Case("method lookup on a string (s:sub)",
         'a string receiver tested inline, the string metatable\'s __index read '
         'directly instead of through the generator ops.index run by SYNC', (
             Way('today', '''
r2 = S
if r2.__class__ is Table: pass
elif r2.__class__ is str:
    try: r1 = STRING_LOOKUPS['sub']
    except KeyError: r1 = CALL_NEEDED
    if r1 is CALL_NEEDED: r1 = string_field('sub')'''),
             Way('proposed', '''
r2 = S
if r2.__class__ is str:
    r1 = STRMETA.hash.get('__index').hash.get('sub')'''),
         )),
    Case('s:sub(i, i) once the method is found',
         'an intrinsic: the callee compared with string.sub, integer arguments in range', (
             Way('today', '''
r1 = SUB; r2 = S; r3 = 3; r4 = 3
if r1 is S_SUB and r2.__class__ is str and 0 < r3 and 0 <= r4 < r3 + 1024:
    r1 = r2[r3 - 1:r4]'''),
             Way('proposed', '''
r1 = SUB; r2 = S; r3 = 3; r4 = 3
if r1 is _sub and r2.__class__ is str and r3.__class__ is int and r4 is r3 and r3 > 0:
    r1 = r2[r3 - 1:r3]''', '_sub = SUB'),
             Way('CPython', 'r1 = S[2:3]'),
         )),
    Case('table.concat(parts) of a three-piece buffer',
         'a plain function for a table without metatable (as table.insert has), '
         'or an intrinsic: the callee compared with table.concat, str.join on the '
         'array part, numbers and errors left to the general path', (
             Way('today', '''
r3 = CONCAT; r4 = PARTS
if r3 is T_CONCAT and r4.__class__ is Table and r4.meta is None and (r4.arr or not r4.hash) \\
        and (_v := join_small(r4.arr)) is not None:
    r3 = _v'''),
             Way('proposed', '''
r3 = CONCAT; r4 = PARTS
if r3 is _tc and r4.__class__ is Table and r4.meta is None and not r4.hash:
    try: r3 = ''.join(r4.arr)
    except TypeError: pass''', '_tc = CONCAT'),
             Way('CPython', "r3 = ''.join(PPARTS)"),
         )),
)


# The seventh round's shapes (docs/performance-profile.md): each as it was
# and as the translator emits it now.
_HELD_BEFORE = '''
try: r2 = {obj}.hash.get('x')
except AttributeError: r2 = None
else:
    if r2 is None and (_m := {obj}.meta) is not None:
        r2 = index_chain({obj}, 'x')'''
_HELD_TODAY = '''
try: r2 = {obj}.hash['x']
except KeyError:
    r2 = None
    if r2 is None and (_m := {obj}.meta) is not None:
        r2 = index_chain({obj}, 'x')
except AttributeError: r2 = None'''
CASES += (
    Case('read of a field the chunk holds (facts.held_fields), present',
         'a subscript under try; the metatable on KeyError', (
             Way('before', _HELD_BEFORE.format(obj='obj')),
             Way('today', _HELD_TODAY.format(obj='obj')),
             Way('CPython', 'r2 = pobj.x'),
         )),
    Case('read of a field the chunk holds, absent from a table without a metatable',
         'the cost of a wrong guess: the KeyError raised and caught', (
             Way('before', _HELD_BEFORE.format(obj='EMPTY')),
             Way('today', _HELD_TODAY.format(obj='EMPTY')),
         )),
    Case('method lookup found one class up (the lookup cache probed)',
         'the cache subscripted under try instead of get with a default', (
             Way('before', '''
r1 = obj
if 'm' in r1.hash: r2 = r1.hash['m']
else:
    try: r2 = r1.meta.hash.lookups.get('m', CALL_NEEDED)
    except AttributeError: r2 = CALL_NEEDED
    if r2 is CALL_NEEDED: r2 = None'''),
             Way('today', '''
r1 = obj
if 'm' in r1.hash: r2 = r1.hash['m']
else:
    try: r2 = r1.meta.hash.lookups['m']
    except (AttributeError, KeyError): r2 = CALL_NEEDED
    if r2 is CALL_NEEDED: r2 = None'''),
             Way('CPython', 'r2 = pobj.m'),
         )),
    Case('read of a global (table)',
         "the environment's dict subscripted under try instead of its bound get", (
             Way('before', '''
r1 = E0('table')
if r1 is None: r1 = 0'''),
             Way('today', '''
try: r1 = EH0['table']
except KeyError: r1 = 0'''),
             Way('CPython', 'r1 = PTABLE'),
         )),
    Case("tonumber('1234') (str2number)",
         'plain decimal numerals read by int/float once their characters are checked', (
             Way('before', "r1 = numeral('1234')"),
             Way('today', "r1 = str2number('1234')"),
             Way('CPython', "r1 = int('1234')"),
         )),
)


# The eighth round's: the lookup cache holds values only (a handler's need
# under another key), so its probe's hit is taken untested.  A cache as it
# was is a dict holding CALL_NEEDED for the handler's key.
CASES += (
    Case('read of a field that is nil, three classes deep, the cache probed',
         'the probe untested: the cache holds values only', (
             Way('before', '''
r2 = obj3.hash.get('link')
if r2 is None and (_m := obj3.meta) is not None:
    try: r2 = _m.hash.lookups['link']
    except (AttributeError, KeyError): r2 = UNCACHED
    if r2 is UNCACHED: r2 = index_chain(obj3, 'link')
    if r2 is CALL_NEEDED: r2 = SYNC(index_miss(obj3, 'link'))'''),
             Way('today', '''
r2 = obj3.hash.get('link')
if r2 is None and (_m := obj3.meta) is not None:
    try: r2 = _m.hash.lookups['link']
    except (AttributeError, KeyError):
        r2 = index_chain(obj3, 'link')
        if r2 is CALL_NEEDED: r2 = SYNC(index_miss(obj3, 'link'))'''),
             Way('CPython', 'r2 = pobj3.link'),
         )),
    Case('method lookup found one class up, the cache probed',
         'the probe untested: the cache holds values only', (
             Way('before', '''
r1 = obj
if 'm' in r1.hash: r2 = r1.hash['m']
else:
    try: r2 = r1.meta.hash.lookups['m']
    except (AttributeError, KeyError): r2 = CALL_NEEDED
    if r2 is CALL_NEEDED: r2 = SYNC(method_miss(r1, 'm'))''', 'method_miss = None'),
             Way('today', '''
r1 = obj
if 'm' in r1.hash: r2 = r1.hash['m']
else:
    try: r2 = r1.meta.hash.lookups['m']
    except (AttributeError, KeyError):
        r2 = index_chain(r1, 'm')
        if r2 is CALL_NEEDED: r2 = SYNC(index_miss(r1, 'm'))'''),
             Way('CPython', 'r2 = pobj.m'),
         )),
    Case('read of a field an __index function answers, one class up',
         "the cost to handlers: a KeyError and index_chain before the handler's call", (
             Way('before', '''
r2 = proxy.hash.get('x')
if r2 is None and (_m := proxy.meta) is not None:
    try: r2 = _l['x']
    except (AttributeError, KeyError): r2 = UNCACHED
    if r2 is UNCACHED: r2 = index_chain(proxy, 'x')
    if r2 is CALL_NEEDED: r2 = SYNC(index_miss(proxy, 'x'))''', "_l = {'x': CALL_NEEDED}"),
             Way('today', '''
r2 = proxy.hash.get('x')
if r2 is None and (_m := proxy.meta) is not None:
    try: r2 = _m.hash.lookups['x']
    except (AttributeError, KeyError):
        r2 = index_chain(proxy, 'x')
        if r2 is CALL_NEEDED: r2 = SYNC(index_miss(proxy, 'x'))'''),
         )),
)


def _python_twins():
    class PBase:
        def m(self):
            return self

    class PDerived(PBase):
        pass

    class PTop(PDerived):
        pass

    pobj, pobj3 = PDerived(), PTop()
    pobj.x, pobj.y, pobj.link = 1, 2, None
    pobj3.x, pobj3.link = 1, None
    return {'pobj': pobj, 'pobj3': pobj3, 'pmethod': PBase.m}


def _namespace():
    """Globals for the cases: the translated code's helpers and the values."""
    from pylua.api import LuaRuntime
    from pylua.runtime import ops, state
    from pylua.runtime.numbers import numeral, str2number
    from pylua.runtime.table import LuaTable
    rt = LuaRuntime(profile='standalone')
    obj, obj3, method, parts, proxy = rt.call_raw(rt.load(SETUP_LUA, '=shape_costs'), ())
    state.set_current(rt.vm)
    strmeta = rt.vm.string_meta
    namespace = dict(ops.HELPERS)
    namespace.update(_python_twins())
    ops.string_field('sub')        # fills the string metatable's cache, as a first s:sub does
    ops.index_chain(obj, 'm')      # fills the class's cache, as a first obj:m() does
    ops.index_chain(obj3, 'link')  # and a nil field's, as a first read of it does
    ops.index_chain(proxy, 'x')    # and a handler's need, as a first read through it does
    namespace.update({'obj': obj, 'obj3': obj3, 'method': method, 'EPOCH': [0],
                      'STRING_LOOKUPS': rt.vm.ns['STRING_LOOKUPS'],
                      'S_SUB': strmeta.hash['__index'].hash['sub'],
                      'T_CONCAT': rt.vm.globals.get('table').hash['concat'],
                      'S': 'hello world', 'STRMETA': strmeta,
                      'SUB': strmeta.hash['__index'].hash['sub'], 'PARTS': parts,
                      'PPARTS': list(parts.arr),
                      'CONCAT': rt.vm.globals.get('table').hash['concat'], 'rt': rt,
                      'EMPTY': LuaTable(), 'numeral': numeral, 'str2number': str2number,
                      'E0': rt.vm.globals.hash.get, 'EH0': rt.vm.globals.hash, 'PTABLE': parts,
                      'proxy': proxy, 'UNCACHED': ops._UNCACHED})
    return namespace


def _timer(body: str, setup: str, namespace: dict, iterations: int):
    source = 'def run(N):\n    %s\n    for _ in range(N):\n%s\n' % (
        setup or 'pass', '\n'.join('        ' + line for line in body.strip('\n').split('\n')))
    scope = dict(namespace)
    exec(compile(source, '<shape>', 'exec'), scope)
    run = scope['run']

    def best():
        times = []
        for _ in range(7):
            start = time.thread_time()
            run(iterations)
            times.append(time.thread_time() - start)
        return min(times)
    return best


def measure(iterations: int) -> list[tuple[Case, list[tuple[Way, float]]]]:
    """Every case's ways with their ns per operation (run on the Lua thread)."""
    namespace = _namespace()
    empty = _timer('pass', '', namespace, iterations)
    results = []
    for case in CASES:
        timed = []
        for way in case.ways:
            seconds = _timer(way.body, way.setup, namespace, iterations)()
            timed.append((way, max(0.0, seconds - empty()) / iterations * 1e9))
        results.append((case, timed))
    return results


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog='python -m benchmarks.shape_costs',
                                 description='ns per operation of generated-code shapes')
    ap.add_argument('--iterations', type=int, default=300000, metavar='N')
    args = ap.parse_args(argv)
    from pylua.runtime.luathread import on_lua_thread
    for case, timed in on_lua_thread(measure, args.iterations):
        print(case.operation)
        for way, ns in timed:
            print('  %8.1f ns  %s' % (ns, way.label))
        print('  (proposed: %s)' % case.mechanism)
    return 0


if __name__ == '__main__':
    sys.exit(main())
