"""Translation: bytecode prototypes -> a structure -> Python source.

Each prototype becomes a factory ``F<n>(U0, U1, ...)`` taking its upvalue
cells (one-element lists) and returning the plain form ``Q<n>``, a Python
function whose registers are Python locals and whose slow paths run
synchronously.  The generator form ``P<n>``, in which a Lua call is
``yield from`` so that host functions can suspend the whole Lua thread from
any depth, is the other rendering of the same structure (``ir``), rendered
and compiled lazily, on its first use.  Fast paths are guarded by exact
class checks; everything else goes to the runtime helpers named in
``pylua.runtime.ops`` (installed as the module globals).

Instruction counting: a function that calls counts its length at its
first call when every call outside its loops comes after that one in the
rest of its block (``facts.charge_point``),
else on entry, as does a function that makes no call but runs a long
stretch outside loops (``facts.counts_on_entry``); one whose every call
may run a library function inline counts at each call that does not
(``facts.calls_inlined``).  A loop's iteration counts its body's length
(``facts.iteration_cost``): ``while`` and generic ``for`` loops of
short bodies by their own iteration, in C, over the VM's endless
iterators ``LAPIT<units>`` (``for _lap in LAPIT1:`` as the head of a
``while``, ``COMPRESS(it, LAPIT1)`` as a generic ``for``'s iterator);
calls, long bodies and short numeric ``for`` loops (all their iterations
up front) on the VM's countdown ``LAPS`` (a closure cell shared by all
its code); long numeric ``for`` loops in chunks, each charged by the VM.
All are charged to the VM's budget ``STEPS`` a lap or chunk at a time, so
the cancel check runs about every 10,000 instructions at a small cost
per iteration.

Modules: ``module`` (``translate``, the MODULE around the prototypes),
``function`` (one prototype's translator and its driver, built from the
mixins ``arithmetic``, ``tables``, ``calls`` and ``control``, one family of
instructions each), ``ir`` (the structure they emit, and its rendering),
``dispatcher`` (functions that use ``goto``), ``facts``
(what the bytecode says, emitting nothing), ``intrinsics`` (the library
calls inlined) and ``layout`` (the runtime table's slots, named once).
"""
from __future__ import annotations

from .module import Translation, translate

__all__ = ['Translation', 'translate']
