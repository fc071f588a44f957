"""Structured control flow: ``if``/``else``, loops (a numeric ``for`` as
Python ``range`` chunks, a generic ``for`` over a plain table as a Python
``for``), ``break`` and ``<close>`` variables."""
from __future__ import annotations

from ...runtime.state import CHECK_INTERVAL
from .facts import BLOCK_OPS, ITERATOR_NOTE, OPENERS, iteration_cost, writes
from .ir import code


class ControlOps:
    """Mixin of ``FunctionTranslator``: control flow and loops."""

    def truth(self, reg, negate=False):
        r = 'r%d' % reg
        if reg == self.known_bool:
            return (code('not %s', r)) if negate else r
        if negate:
            return code('%s is None or %s is False', r, r)
        return code('%s is not None and %s is not False', r, r)

    def op_IF(self, i):
        self.open(code('if %s:', self.fused_test(i, False) or self.truth(i.a)), 'if')

    def op_IFNOT(self, i):
        self.open(code('if %s:', self.fused_test(i, True) or self.truth(i.a, True)), 'if')

    def op_ELSE(self, i):
        kind, data = self.stack.pop()
        self.close_block()
        self.open('else:', 'else')

    def op_END(self, i):
        kind, data = self.stack.pop()
        self.close_block()
        if kind == 'numfor':
            self.known.discard(data)
            self.positive.discard(data)
            self.w('else:')
            self.w('    continue')
            self.w('break')
            self.close_block_outer()
        elif kind == 'tbc':
            raise AssertionError('TBC regions end with CLOSE')

    def close_block_outer(self):
        self.stack.pop()
        self.close_block()

    def op_LOOP(self, i):
        pc = self.pc_of(i)
        self.open_loop(iteration_cost(self.p, pc), pc)

    def open_loop(self, cost, pc):
        """A ``while`` loop's head and the count of each of its iterations
        of ``cost`` instructions: made by the head itself when ``LAPIT``
        counts them (``lap_loop``), else at the top of the body."""
        head = self.lap_loop(cost)
        if head is None:
            self.open('while True:', 'loop')
            self.loop_check(cost, pc)
        else:
            self.open(head, 'loop')
            self.check_top(pc)

    def loop_check(self, cost, pc):
        """The count of an iteration of ``cost`` instructions, at the head
        of a ``while`` or generic ``for`` loop's body."""
        for line in self.iteration_charge(cost):
            self.w(line)
        self.check_top(pc)

    def check_top(self, pc):
        """The line just emitted runs a loop's check, where Lua's frame
        holds only the locals in scope at ``pc`` (enclosing loops' state
        lies below their variables): the registers from the first above
        them up are dead while the check runs (``Line.top``)."""
        self.out.items[-1].top = 1 + max((v.reg for v in self.p.locvars if v.startpc <= pc < v.endpc),
                                         default=-1)

    def iteration_charge(self, cost):
        """The lines counting one iteration of ``cost`` instructions now."""
        return self.count_units(cost)

    def pc_of(self, ins):
        return next(pc for pc, other in enumerate(self.p.code) if other is ins)

    def op_BREAK(self, i):
        self.w('break')

    def op_CONTINUE(self, i):
        # The innermost Python loop is the Lua loop's (as for ``break``):
        # its iteration's count and test are at its head.
        for line in self.continue_marks(i):
            self.w('_zl = %d', line)
        self.w('continue')

    def op_FORPREP(self, i):
        a = i.a
        chunk = self.tmp('c')
        cost = iteration_cost(self.p, self.pc_of(i))
        chunks = 'forprep(r%d, r%d, r%d, %d)' % (a, a + 1, a + 2, cost)
        ints = i.b == 1 or (self.int_start and self.step_is_int(i))
        step = self.constant_step(i)
        if step.__class__ is int and step != 0:
            # A short integer loop needs no chunks: one range (maybe empty), counted here.
            start = '' if ints else 'r%d.__class__ is ' % a
            span = 'r%d - r%d' % (a + 1, a) if step == 1 else '(r%d - r%d) // %d' % (a + 1, a, step)
            count = self.tmp('n')
            self.w('if %sr%d.__class__ is int and -1 <= (%s := %s) < %d:',
                   start, a + 1, count, span, CHECK_INTERVAL // cost)
            for line in self.range_charge(cost, count) or ():
                self.w('    ' + line)
            past = '+ 1' if step == 1 else ('+ 1, %d' if step > 0 else '- 1, %d') % step
            self.w('    %s = (range(r%d, r%d %s),)', chunk, a, a + 1, past)
            self.w('else: %s = %s', chunk, chunks)
            chunks = chunk
        self.open(code('for %s in %s:', chunk, chunks), 'numfor_outer')
        var = a + 3
        int_loop = ints and var not in self.known and not self.loop_writes(i, var)
        self.open(code('for r%d in %s:', var, chunk), 'numfor', var if int_loop else None)
        if int_loop:
            self.known.add(var)
            self.p.typed_registers[var] = int
            start, step = self.loaded_constant(i, a), self.constant_step(i)
            if start.__class__ is int and start >= 1 and step.__class__ is int and step > 0:
                self.positive.add(var)

    def loaded_constant(self, forprep, reg):
        """The constant the straight-line code just before ``forprep`` last
        loaded into ``reg``, else None."""
        code = self.p.code
        for ins in reversed(code[:code.index(forprep)]):
            if ins.op in BLOCK_OPS:
                return None
            if reg in writes(ins, self.p.maxreg):
                return self.p.consts[-ins.b - 1] if ins.op == 'LOADK' else None
        return None

    def step_is_int(self, forprep):
        """Is the loop's step an integer constant?"""
        return self.constant_step(forprep).__class__ is int

    def constant_step(self, forprep):
        """The loop's step when it is a constant loaded just before FORPREP, else None."""
        code = self.p.code
        k = code.index(forprep)
        if not k or code[k - 1].op != 'LOADK' or code[k - 1].a != forprep.a + 2:
            return None
        step = self.p.consts[-code[k - 1].b - 1]
        return step if step.__class__ is int or step.__class__ is float else None

    def loop_writes(self, forprep, reg):
        """Does the loop body starting after ``forprep`` assign ``reg``?"""
        code = self.p.code
        depth = 0
        for ins in code[code.index(forprep) + 1:]:
            if ins.op in OPENERS:
                depth += 1
            elif ins.op == 'END':
                if depth == 0:
                    return False
                depth -= 1
            if reg in writes(ins, self.p.maxreg):
                return True
        return False

    def op_TFORPREP(self, i, it=None):
        """The general loop of a generic ``for``, over ``it`` when the
        iterator was already asked for (``generic_for_twice``)."""
        a, n = i.a, i.b
        vars_ = ['r%d' % r for r in range(a + 4, a + 4 + n)]
        if it is None:
            it = self.tmp('i')
            self.w('%s = forgen(r%d, r%d, r%d, %d)', it, a, a + 1, a + 2, n)
        # The plain form calls a Lua iterator directly; whether it takes
        # both arguments is known before the loop.
        fits = self.tmp('w')
        self.out.forms(lambda: self.w('%s = takes(r%d, 2)', fits, a), lambda: None)
        pc = self.pc_of(i)
        self.open_loop(iteration_cost(self.p, pc), pc + 1)     # the loop's variables are in scope
        self.w('if %s is not None:', it)
        self.w('    _kv = next(%s, None)', it)
        self.note_call(ITERATOR_NOTE)         # a host iterator's walk runs there
        self.w('    if _kv is None or _kv[1] is None:')
        self.w('        if %s.__class__ is ENUMERATE and r%d.meta is not None:', it, a + 1)
        self.w('            %s = ipairs_resumed(r%d, _kv)', it, a + 1)
        self.w('            continue')
        self.w('        if _kv is None or %s.__class__ is ENUMERATE: break', it)
        self.w('        continue')
        if n == 1:
            self.w('    r%d = _kv[0]', a + 4)
        elif n == 2:
            self.w('    %s = _kv', ', '.join(vars_))
        else:
            self.w('    %s = _kv + (None,) * %d', ', '.join(vars_), n - 2)
        self.w('else:')
        self.ind += 1
        self.call_iterator(a, fits)
        self.ind -= 1
        if n == 1:
            self.w('    r%d = _R[0] if _R else None', a + 4)
        else:
            self.w('    %s = _R if len(_R) == %d else adjust(_R, %d)', ', '.join(vars_), n, n)
        self.w('    if r%d is None: break', a + 4)
        self.w('    r%d = r%d', a + 2, a + 4)

    def generic_for_twice(self, k, end):
        """An innermost generic ``for``: a Python ``for`` over pairs/ipairs of a
        plain table, and the general loop calling the iterator function."""
        ins = self.p.code[k]
        a, n = ins.a, ins.b
        self.line = ins.line
        it = self.tmp('i')
        vars_ = ['r%d' % r for r in range(a + 4, a + 4 + n)]
        # A loop over what a function named ipairs returned runs here only
        # over an enumerate (else in the general loop), so its index is an
        # integer counting up from 1.
        ipairs = self.iterates_ipairs(k) and not self.loop_writes(ins, a + 4)
        self.iterator(k, it, a, n)
        if ipairs:
            self.open(code('if %s.__class__ is ENUMERATE:', it), 'if')
        else:
            self.open(code('if %s is not None:', it), 'if')
        target = ', '.join(vars_) if n == 2 else '_kv'
        cost = iteration_cost(self.p, k)
        counted = self.lap_iterator(cost, it)
        self.open(code('for %s in %s:', target, counted or it), 'pyfor')
        # A host iterator's walk (``string.gmatch``'s) runs as Lua's call of
        # the iterator does: its level is named after it.
        self.note_call(ITERATOR_NOTE)
        # The loop's variables are in scope at its check.
        if counted is None:
            self.loop_check(cost, k + 1)
        else:
            self.check_top(k + 1)
        # ipairs over a plain table is a bare enumerate: the first nil ends
        # it, unless the table has got a metatable meanwhile (see below).
        if ipairs:
            value, pair = (vars_[1], '(%s, None)' % vars_[0]) if n == 2 else ('_kv[1]', '_kv')
            self.w('if %s is None:', value)
            self.w('    if r%d.meta is not None: %s = ipairs_resumed(r%d, %s)', a + 1, it, a + 1, pair)
            self.w('    break')
        else:
            self.w('if %s is None:', vars_[1] if n == 2 else '_kv[1]')
            self.w('    if %s.__class__ is ENUMERATE: break', it)
            self.w('    continue           # pairs: a field removed meanwhile')
        if n == 1:
            self.w('r%d = _kv[0]', a + 4)
        elif n > 2:
            self.w('%s = _kv + (None,) * %d', ', '.join(vars_), n - 2)
        if ipairs:
            self.known.add(a + 4)
            self.p.typed_registers[a + 4] = int
            self.positive.add(a + 4)
        self.mark_loop_head(ins)
        self.emit_range(k + 1, end)
        self.mark_saves(self.p.code[end:end + 1])      # the body's close, each iteration
        if ipairs:
            self.known.discard(a + 4)
            self.positive.discard(a + 4)
        self.stack.pop()
        self.close_block()
        if ipairs:
            # Past the list's end: an __index the loop gave the table answers
            # the next index, as lua_geti asks it; the general loop goes on.
            self.line = ins.line
            self.w('else:')
            self.w('    if r%d.meta is not None: %s = ipairs_resumed(r%d, None)', a + 1, it, a + 1)
        self.stack.pop()
        self.close_block()
        if ipairs:
            self.open(code('if %s.__class__ is not ENUMERATE:', it), 'if')
        else:
            self.open('else:', 'else')
        self.line = ins.line
        self.op_TFORPREP(ins, it if ipairs else None)
        self.mark_loop_head(ins)
        self.emit_range(k + 1, end)
        self.line = self.p.code[end].line
        self.mark_saves(self.p.code[end:end + 1])
        self.op_END(self.p.code[end])
        self.stack.pop()
        self.close_block()

    def iterator(self, k, it, a, n):
        """``it = forgen(...)`` for the innermost generic ``for`` at ``k``; after
        a call named ipairs, forgen's answer for a plain table without the call."""
        call = code('forgen(r%d, r%d, r%d, %d)', a, a + 1, a + 2, n)
        if self.iterates_ipairs(k):
            # forgen refuses a loop whose iterator call would overflow Lua's C stack.
            self.w('if r%d is INEXT and r%d.__class__ is Table and r%d.meta is None and r%d == 0 and VM.c_calls < C_CALLS_MAX: %s = ENUMERATE(r%d.arr, 1)',
                   a, a + 1, a + 1, a + 2, it, a + 1)
            self.w('else: %s = %s', it, call)
        else:
            self.w('%s = %s', it, call)

    def iterates_ipairs(self, k):
        """Does the generic ``for`` at ``k`` loop over the results of a call
        of a function named ipairs?"""
        code = self.p.code
        j = k - 1
        if j >= 0 and code[j].op == 'TBC':      # the loop's closing value comes between
            j -= 1
        return j >= 0 and code[j].op == 'CALL' and code[j].a == code[k].a \
            and (code[j].note or '').endswith(" 'ipairs'")

    def call_iterator(self, a, fits):
        """``_R``: the results of a generic ``for``'s iterator call, as a
        sequence.  ``fits``: the name of a flag that the iterator is a Lua
        function taking both arguments (set in the plain form only).  Lua
        calls the iterator one level deeper on its C stack, a Lua function
        too, as ``nested_call`` counts (forgen checked the room at the
        loop's entry): an iterator recursing through loops of its own ends
        in ``C stack overflow``."""
        f, args, note = 'r%d' % a, 'r%d, r%d' % (a + 1, a + 2), ITERATOR_NOTE
        w = self.w

        def plain():
            w('VM.c_calls += 1')
            self.open('try:', 'cstack')
            w('if %s.__class__ is FN:', f)
            w('    _R = %s(%s) if %s else %s(*fit_args(%s, (%s)))', f, args, fits, f, f, args)
            w('    if _R.__class__ is not tuple: _R = (_R,)')
            w('    elif _R and _R[0] is TAIL: _R = TAILS(_R, False)')
            w('elif %s.__class__ is Builtin:', f)
            w('    try: _R = %s.fn(%s)', f, args)
            self.note_call(note)
            w('    except NeedsLua: _R = %s', self.wait('finish_raised(%s, (%s))', f, args))
            self.note_call(note)
            w('else: _R = %s', self.wait('call(%s, (%s), %r)', f, args, note))
            self.note_call(note)
            self.stack.pop()
            self.close_block()
            w('except BaseException:')
            w('    VM.c_calls -= 1')
            w('    raise')
            w('VM.c_calls -= 1')

        def generator():
            # nested_call knows what a resume does to the depth.
            w('_R = %s', self.wait('nested_call(%s, (%s), %r)', f, args, note))
            self.note_call(note)
        self.out.forms(plain, generator)

    def op_TBC(self, i):
        self.w('if r%d is not None: tbc_check(r%d, %r)', i.a, i.a, i.note)
        self.open('try:', 'tbc', i.a)

    def op_CLOSE(self, i):
        """Close a <close> variable: early (b=1, before a jump) or at its scope's end.

        The register is cleared before the call so the error handler of the
        region never closes the same value twice."""
        r = 'r%d' % i.a
        if i.b == 0:
            self.stack.pop()
            self.close_block()
            self.w('except BaseException as _e:')
            self.w('    _v = %s; %s = None', r, r)
            # Most regions close nothing (a generic for's fourth value is
            # nil): an error leaving them runs no helper.
            self.w('    if _v is not None and _v is not False: ' + self.wait('close_error(_v, _e)'))
            self.w('    raise')
        self.w('_v = %s; %s = None', r, r)
        self.w('if _v is not None and _v is not False: ' + self.wait('close_var(_v, None)'))
        self.note_call("metamethod 'close'")
