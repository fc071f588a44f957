"""Garbage collection as Lua defines it, over CPython's collector.

CPython decides what is reachable; this module gives it Lua's meaning:

* weak tables: during a collection the weak part of each table with a
  ``__mode`` is held only through weak references (an ephemeron's value
  hangs from its key, so it lives exactly as long as the key), then the
  surviving entries are put back in their order;
* ``__gc``: an object whose metatable had ``__gc`` when it was set gets a
  ``Guard`` in a reference cycle with it.  When the object becomes garbage,
  CPython runs the guard's ``__del__`` (PEP 442), which resurrects the object
  into the pending list; its finalizer then runs at a safe point, in reverse
  order of marking, and it is never finalized again unless marked anew.
  Closing the state finalizes every object still marked.

Collections run when Lua asks (``collectgarbage``) and, while weak tables or
finalizers exist and the collector is running, every so many instructions.
"""
from __future__ import annotations

import gc
import sys
import threading
import time
import weakref
from itertools import count, islice
from types import FunctionType

from . import ops
from .coroutine import Coroutine
from .errors import LuaError
from .frames import dead_registers
from .memory import running_lua_frames, suspended_frames
from .stack import write_locals
from .table import LuaTable
from .values import Builtin, GenBuiltin, Userdata

COLLECTABLE = frozenset((LuaTable, FunctionType, Builtin, GenBuiltin, Userdata, Coroutine))
#: A collection runs on its own at most once per this many instructions ...
AUTO_MIN_INSTRUCTIONS = 50_000
#: ... and spends at most this share of its thread's CPU time: on a wall
#: clock, a collection the machine's load held up counted that wait ten
#: times over, and the process's CPU time counts other threads' work (a
#: host's servers, other runtimes) as the collection's, so a loop making
#: garbage could finish before the next.
AUTO_MAX_SHARE = 0.1
#: Between full collections, whose cost grows with the whole Python heap (a
#: host's too), a young one runs under the same share of its own cost: it
#: drops dead registers and weak entries, so a loop making garbage in a big
#: host still sees finalizers run, as Lua's allocation-paced collector does.
YOUNG_GENERATION = 1
#: A collection drops dead registers in this many innermost frames of each stack.
DEAD_REGISTER_FRAMES = 16


class Guard:
    """Resurrects its object into the collector's pending list when both become garbage."""
    __slots__ = ('obj', 'order', 'collector', '__weakref__')

    def __init__(self, obj, order, collector):
        self.obj = obj
        self.order = order
        self.collector = collector

    def __del__(self):
        obj = self.obj
        if obj is not None and getattr(obj, 'guard', None) is self:
            self.collector.pending.append((self.order, obj))


# Collectable values carry two slots for the collector, unset until it needs
# them: ``guard`` (tables and userdata) and ``anchor``; a Lua function keeps
# its anchor in its attributes.

def _anchor(obj, value):
    """Hang ``value`` from ``obj`` for one collection (an ephemeron's value)."""
    if obj.__class__ is FunctionType:
        obj.__dict__.setdefault('lua_anchor', []).append(value)
    else:
        anchors = getattr(obj, 'anchor', None)
        if anchors is None:
            anchors = obj.anchor = []
        anchors.append(value)


def _drop_anchor(obj):
    if obj.__class__ is FunctionType:
        obj.__dict__.pop('lua_anchor', None)
    else:
        obj.anchor = None


class _Ref:
    """A weakly held collectable value, found again if it was resurrected."""
    __slots__ = ('ref', 'ident')

    def __init__(self, v):
        self.ref = weakref.ref(v)
        self.ident = id(v)


class Collector:
    def __init__(self, vm):
        self.vm = vm
        self.with_meta = weakref.WeakSet()     # tables given a metatable with __mode
        self.guards = weakref.WeakSet()
        self.pending = []
        self.orders = count()
        self.running = True
        self.mode = 'incremental'
        self.params = {'pause': 200, 'stepmul': 100}
        self.step_credit = 0.0                 # KB of work the incremental steps since the last cycle did
        self.finalizing = False
        self.closing = False                   # lua_close began: no new marks (Lua's GCSTPCLS)
        now = time.thread_time()
        self.last_thread = threading.get_ident()   # whose clock the ends below read
        self.last_end = self.last_full_end = now   # of the last collection, of the last full one
        self.last_young_cost = self.last_full_cost = 0.0
        self.last_instructions = 0

    # ------------------------------------------------------------ marking
    def note_metatable(self, obj, mt):
        """Called whenever ``obj`` (a table or userdata) gets metatable ``mt``."""
        if mt is None:
            return
        if obj.__class__ is LuaTable and mt.hash.get('__mode') is not None:
            self.with_meta.add(obj)
        if mt.hash.get('__gc') is not None and getattr(obj, 'guard', None) is None and not self.closing:
            guard = obj.guard = Guard(obj, next(self.orders), self)
            self.guards.add(guard)

    def active(self):
        return bool(self.guards) or bool(self.with_meta) or bool(self.pending)

    # ----------------------------------------------------------- collecting
    def collect(self, full=True):
        """A collection, full or of CPython's young generations only, then
        the finalizers it found."""
        if not self.active():
            # Only weak tables and finalizers show a collection to Lua (the
            # count is the heap walk's), and CPython frees other garbage alone.
            return
        start = time.thread_time()
        self._drop_dead_registers()
        saved = [self._release_weak(t, mode) for t, mode in self._weak_tables()]
        gc.collect() if full else gc.collect(YOUNG_GENERATION)
        resurrected = {id(obj): obj for _, obj in self.pending}
        for t, arr, items, weak_keys in saved:
            self._restore(t, arr, items, weak_keys, resurrected)
        end = time.thread_time()
        self.last_end = end
        if full:
            self.last_full_cost, self.last_full_end = end - start, end
        else:
            self.last_young_cost = end - start
        self.last_thread = threading.get_ident()
        self.last_instructions = self.vm.instructions
        self.run_pending()

    def maybe_collect(self):
        """The periodic check's share: collect when enough has run since the last time."""
        if self.pending and not self.finalizing:
            self.run_pending()
        if not self.running or self.finalizing:
            return
        if self.vm.instructions - self.last_instructions < AUTO_MIN_INSTRUCTIONS:
            return
        if not (self.guards or self.with_meta):
            return
        if threading.get_ident() != self.last_thread:
            self.collect()
            return
        now = time.thread_time()
        if now - self.last_full_end >= self.last_full_cost / AUTO_MAX_SHARE:
            self.collect()
        elif now - self.last_end >= self.last_young_cost / AUTO_MAX_SHARE:
            self.collect(full=False)

    def _drop_dead_registers(self):
        """Lua marks a frame's registers only below the call it is making
        (the rest are the callee's); translated code keeps what it last put
        above (a finished loop's variables), so those are set to nil first:
        CPython then finds the garbage Lua finds."""
        # The innermost frames of each stack only: writing a frame's locals
        # costs CPython a scan of its code per cell variable (tens of
        # milliseconds for a big chunk's), and a deep recursion has many.
        frames = list(islice(running_lua_frames(sys._getframe(1)), DEAD_REGISTER_FRAMES))
        for co in list(getattr(self.vm, 'coroutines', ())):
            if co.gen is not None and not co.gen.gi_running:
                frames.extend(islice(suspended_frames(co.gen), DEAD_REGISTER_FRAMES))
        for frame in frames:
            values = frame.f_locals
            dead = dead_registers(frame, values)
            if dead:
                write_locals(frame, dict.fromkeys(dead))

    def _weak_tables(self):
        for t in list(self.with_meta):
            mt = t.meta
            mode = mt.hash.get('__mode') if mt is not None else None
            if mode.__class__ is str and ('k' in mode or 'v' in mode):
                yield t, mode

    def _release_weak(self, t, mode):
        """Take ``t``'s entries out, weakly holding what the mode makes weak."""
        weak_keys = 'k' in mode
        weak_values = 'v' in mode
        arr = [(_Ref(v) if weak_values and v.__class__ in COLLECTABLE else v) for v in t.arr]
        items = []
        for k, v in t.hash.items():
            key_weak = weak_keys and k.__class__ in COLLECTABLE
            value_collectable = v.__class__ in COLLECTABLE
            if key_weak and value_collectable and not weak_values:
                _anchor(k, v)                 # ephemeron: the value lives while the key does
                items.append((_Ref(k), _Ref(v)))
            else:
                items.append((_Ref(k) if key_weak else k,
                              _Ref(v) if weak_values and value_collectable else v))
        # In place: translated code holds bound views of a table's parts.
        t.arr.clear()
        t.hash.clear()
        t.keycache = None
        return t, arr, items, weak_keys

    @staticmethod
    def _restore(t, arr, items, weak_keys, resurrected):
        def alive(v, as_key):
            if v.__class__ is not _Ref:
                return v
            obj = v.ref()
            if obj is None and as_key:
                # Lua clears a resurrected key only after its finalizer has run.
                obj = resurrected.get(v.ident)
            return obj

        values = [alive(v, False) for v in arr]
        while values and values[-1] is None:
            values.pop()
        hash = t.hash
        for k, v in items:
            key = alive(k, True)
            if key is None:
                continue
            value = alive(v, False)
            if k.__class__ is _Ref and v.__class__ is _Ref:
                _drop_anchor(key)
            if value is not None:
                hash[key] = value
        t.arr.extend(values)
        t.keycache = None

    # ----------------------------------------------------------- finalizing
    def run_pending(self):
        """Call the finalizers of the objects found dead, newest mark first."""
        if self.finalizing:
            return
        self.finalizing = True
        try:
            while self.pending:
                batch = sorted(self.pending, key=lambda entry: -entry[0])
                self.pending.clear()
                for _, obj in batch:
                    obj.guard = None
                    self.finalize(obj)
        finally:
            self.finalizing = False

    def close(self):
        """lua_close: finalize every object still marked, newest mark first."""
        self.running = False
        self.closing = True
        self.run_pending()
        while True:
            marked = sorted((g for g in list(self.guards)
                             if g.obj is not None and getattr(g.obj, 'guard', None) is g),
                            key=lambda g: -g.order)
            if not marked:
                return
            self.finalizing = True
            try:
                for guard in marked:
                    obj = guard.obj
                    obj.guard = None
                    guard.obj = None
                    self.finalize(obj)
            finally:
                self.finalizing = False

    def finalize(self, obj):
        """Run ``obj``'s ``__gc`` (the debug library names its caller by this method)."""
        mt = obj.meta
        handler = mt.hash.get('__gc') if mt is not None else None
        if handler is None:
            return
        try:
            gen = ops.call(handler, (obj,))
            try:
                gen.send(None)
            except StopIteration:
                return
            gen.close()
            raise LuaError('attempt to yield across a C-call boundary')
        except LuaError as e:
            warn = getattr(self.vm, 'warn', None)
            if warn is not None:
                msg = e.value if e.value.__class__ is str else 'error object is not a string'
                warn('error in __gc (%s)' % msg)


def collector_of(vm) -> Collector:
    c = vm.collector
    if c is None:
        c = vm.collector = Collector(vm)
    return c
