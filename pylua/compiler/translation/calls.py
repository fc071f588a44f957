"""Calls, returns, varargs and closures: Lua functions called directly,
host functions through their ``fn``, a function calling its own value
without checks, and the library calls of ``intrinsics`` inlined."""
from __future__ import annotations

from ...runtime.frames import TailCallNote
from .facts import FRESH, OWN, callee_name, single_result
from .ir import CALL_SETUP, Choice, Forms, code
from .intrinsics import INTRINSICS, Check, Checked, render_check
from .layout import hash_of, meta_of


class CallOps:
    """Mixin of ``FunctionTranslator``: calls, returns and closures."""

    def op_SELF(self, i):
        """``obj:key(...)``'s lookup: ``R[a+1] = obj; R[a] = obj.key``.  A
        method is seldom the object's own, so the miss path is the one
        kept short: one probe of the metatable's lookup cache, the rest
        (no metatable, no cache yet, an ``__index`` handler) in its
        ``KeyError`` or ``AttributeError`` handler."""
        obj = 'r%d' % i.b
        if i.b == i.a:
            self.w('_o = %s', obj)     # the method lands where the object is
            obj = '_o'
        if i.b == i.a:
            self.w('r%d = %s', i.a + 1, obj)
        elif i.b != i.a + 1:
            if self.delaying:
                self.moves[i.a + 1] = i.b     # the call reads the object's register itself
            else:
                self.w('r%d = %s', i.a + 1, obj)
        dst, key = 'r%d' % i.a, self.rk(i.c)
        lines = self.method_lines(dst, obj, key)
        if self.istable(i.b):
            for text in lines:
                self.w(text)
            self.found_method = i.a
            return
        self.w('if %s.__class__ is Table:', obj)
        for text in lines:
            self.w('    ' + text)
        # ``s:method()``: the string metatable's cache, no generator.
        self.w('elif %s.__class__ is str:', obj)
        self.w('    try: %s = STRING_LOOKUPS[%s]', dst, key)
        self.w('    except KeyError: %s = %s', dst, self.wait('string_method(%s, %s, %r)', obj, key, i.note))
        self.w('else: %s = %s', dst, self.meta_wait('index', '(%s, %s, %r)', obj, key, i.note))

    def method_lines(self, dst, obj, key):
        """``dst = obj[key]`` for a table and the method name ``key``: the
        object's own hash (tested with ``in``, cheaper than ``get`` when
        the key is missing, as a method's mostly is), then the metatable's
        lookup cache subscripted under ``try`` (a table without a metatable
        has none to read, nor a metatable whose hash is no ClassHash yet,
        and a key not cached raises: a subscript is cheaper than ``get``
        when it hits, as a method's lookup mostly does).  The cache holds
        values only, so a hit needs no test; every answer it does not give
        (a handler to run among them) is ``cache_miss``'s."""
        return [code('if %s in %s: %s = %s[%s]', key, hash_of(obj), dst, hash_of(obj), key),
                code('else:'),
                code('    try: %s = %s.lookups[%s]', dst, hash_of(meta_of(obj)), key),
                code('    except (AttributeError, KeyError):')] + [
                '        ' + text for text in self.cache_miss(dst, obj, key)]

    def multret_args(self, first):
        """Python argument text for registers first.. followed by the pending results T."""
        regs = [self.arg(r) for r in range(first, self.tbase)]
        regs.append('*T')
        self.tbase = None
        return '(%s)' % ', '.join(regs) if len(regs) > 1 else 'T'

    def op_CALL(self, i, tail=False):
        """A call.  Lua functions return one result bare and other counts as a
        tuple; host functions always return a sequence.  ``tail``: the
        function returns the call's results."""
        a = i.a
        if i.b == -1:
            regs = [self.arg(r) for r in range(a + 1, self.tbase)] + ['*T']
            self.tbase = None
        else:
            regs = [self.arg(r) for r in range(a + 1, a + 1 + i.b)]
        args = ', '.join(regs)
        # The arguments as one tuple: the pending results T alone are one.
        if i.b == -1:
            tup = 'T' if len(regs) == 1 else '(%s)' % args
        else:
            tup = '(%s,)' % args if len(regs) == 1 else '(%s)' % args
        if self.types.get(a) is OWN:
            self.call_charge()
            start = len(self.out.items)
            self.call_self(i, regs, tup, tail)
            self.mark_call(start, a)
            return
        intrinsic = self.intrinsic(i, regs, tail)
        # A function counting at each call made counts where the inline body is not taken.
        nested = intrinsic and self.charge_calls
        if nested:
            self.open('else:', 'call')
        self.call_charge()
        start = len(self.out.items)       # an inline body works on the arguments: not the call's

        def general():
            self.w('%s r%d.__class__ is FN:', 'elif' if intrinsic and not nested else 'if', a)
            self.call_paths(i, regs, args, tup, tail)
        if a in self.methods and not intrinsic and not tail:
            self.out.forms(lambda: self.guessed_call(i, args, tup), general)
        else:
            general()
        if nested:
            self.stack.pop()
            self.close_block()
        if i.c > 1 and not tail:
            # Several results, from every path (an inline body's too), as a tuple in _R.
            self.w('%s = _R if len(_R) == %d else adjust(_R, %d)',
                   ', '.join('r%d' % r for r in range(a, a + i.c)), i.c, i.c)
        self.mark_call(start, a)

    def guessed_call(self, i, args, tup):
        """The plain form's call of a method found on a table
        (``obj:m(...)``), most likely a Lua function: called as one without
        testing its class first.  Anything else cannot be called so and
        raises ``TypeError`` at once, as a Lua function given too many
        arguments does: ``ops.call_guessed`` then makes the call the general
        path would have made (a host function, a ``__call`` handler, the
        error naming the method), its results given as a Lua function gives
        them.  The generator form keeps the general path."""
        a, n, f = i.a, i.c, 'r%d' % i.a
        into = '%s =' % f if n == 1 else '_R ='
        self.w('try: %s %s(%s)', into, f, args)
        self.w('except TypeError: %s call_guessed(%s, %s, %r)', into, f, tup, i.note)
        self.note_call(i.note)
        # A host function may run there: its arguments live while it runs.
        self.out.items[-1].top = a + 1 + i.b if i.b != -1 else CALL_SETUP
        if n == 1:
            self.first_result(f, '')
        else:
            self.lua_results(a, n, '')

    def call_charge(self):
        """Where the function counts its length at each call that is made
        (``facts.calls_inlined``): that count, before the call."""
        if self.charge_calls:
            for line in self.charge() or ():
                self.w(line)

    def mark_call(self, start, a):
        """Note on the lines written since ``start`` (the call and its
        results) that the call at register ``a`` runs there (``Line.top``):
        the registers above the function's are dead to the caller (its
        own register is the callee's ``func``, which Lua keeps)."""
        stack = list(self.out.items[start:])
        while stack:
            item = stack.pop()
            if item.__class__ is Forms:
                stack.extend(item.plain)
                stack.extend(item.generator)
            elif item.top is None:
                item.top = a + 1

    def call_paths(self, i, regs, args, tup, tail):
        """The calls of a Lua function, of a host function and of anything else."""
        a, n, w = i.a, i.c, self.w
        f = 'r%d' % a               # overwritten by the results only after the call
        if tail:
            self.tail_call(f, args, tup, i.note, '    ')
        else:
            # One result wanted: straight into its register (the callee's
            # value is no longer needed once the call is made), tested once.
            into = '%s =' % f if n == 1 else '_R ='

            def generator():
                w('    try: _g = %s.gen', f)
                w('    except AttributeError: _g = gen_form(%s)', f)     # may compile: collect
                self.out.items[-2].top = self.out.items[-1].top = CALL_SETUP
                self.call_lua('_g', args, tup, '_c =')
                w('    %s %s', into, self.wait('_c'))
            self.out.forms(lambda: self.call_lua(f, args, tup, into), generator)
            if n == 1:
                self.first_result(f, '    ')
            else:
                self.lua_results(a, n, '    ')
        # Host functions give any sequence.  One result or all of them are
        # taken from ``_R`` alike whichever function was called: the host
        # function and anything else share that statement.
        shared = n in (1, -1) and not tail
        if shared:
            w('else:')
            w('    if %s.__class__ is Builtin:', f)
            inner = '        '
        else:
            w('elif %s.__class__ is Builtin:', f)
            inner = '    '
        w('%stry: _R = %s.fn(%s)', inner, f, args)
        self.note_call(i.note)
        w('%sexcept NeedsLua: _R = %s', inner, self.wait('finish_raised(%s, %s)', f, tup))
        self.note_call(i.note)
        # A host function's arguments live while it runs (on a C function's
        # stack in Lua), and its generator form is called with them again.
        self.out.items[-2].top = self.out.items[-1].top = a + 1 + i.b if i.b != -1 else CALL_SETUP
        other = '    else: ' if shared else '    '
        if not shared:
            w('else:')
        if tail:
            w('    _R = %s', self.wait('tail_call(%s, %s, %r)', f, tup, i.note))
            self.note_call(i.note)
        else:
            def plain():
                # A __call handler runs in its plain form, as a function would.
                w('%s_R = call_plain(%s, %s, %r)', other, f, tup, i.note)
                self.note_call(i.note)

            def generator():
                w('%s_R = %s', other, self.wait('call(%s, %s, %r)', f, tup, i.note))
                self.note_call(i.note)
            self.out.forms(plain, generator)
        if n == 1:
            w('    r%d = _R[0] if _R else None', a)
        elif tail:
            # A host function's one result returned bare, as a Lua function's
            # is: the caller then has no tuple to unpack.
            self.leave('return _R[0] if len(_R) == 1 else _R if _R.__class__ is tuple else tuple(_R)')
        elif n == -1:
            w('    T = _R if _R.__class__ is tuple else tuple(_R)')
            self.tbase = a

    def lua_results(self, a, n, indent):
        """After a Lua function's call left ``_R`` (one result bare, other
        counts as a tuple, or the marker of a tail call to run here): the
        ``n`` results wanted, in ``r<a>`` (n == 1), ``T`` (n == -1) or
        ``_R`` as a tuple.  A result that is no tuple costs no more tests
        than before tail calls."""
        every = Choice('TAILS(_R, False)', '(yield from TAILSG(_R, False))')
        w = self.w
        if n == 1:
            w('%sr%d = _R if _R.__class__ is not tuple else %s', indent, a, self.first_of('_R'))
        elif n == -1:
            w('%sT = (%s if _R and _R[0] is TAIL else _R) if _R.__class__ is tuple else (_R,)', indent, every)
        elif n == 0:
            # Truth is the cheapest first test: most such calls return ().
            w('%sif _R and _R.__class__ is tuple and _R[0] is TAIL: %s', indent, every)
        else:
            w('%sif _R.__class__ is not tuple: _R = (_R,)', indent)
            w('%selif _R and _R[0] is TAIL: _R = %s', indent, every)

    def first_result(self, reg, indent):
        """``reg`` holds what a Lua function returned: the first result when
        it is a tuple (none, several, or a tail call's marker to run here)."""
        self.w('%sif %s.__class__ is tuple: %s = %s', indent, reg, reg, self.first_of(reg))

    @staticmethod
    def first_of(reg):
        """The first of the results tuple in ``reg``: a helper in the plain
        form (a tuple is the rarer answer; the inline test was the biggest
        part of a call's code), inline in the generator form, which yields
        when the tuple is a tail call's marker."""
        return Choice(code('first_result(%s)', reg),
                      code('(%s[0] if %s[0] is not TAIL else (yield from TAILSG(%s, True))) if %s else None',
                           reg, reg, reg, reg))

    def tail_call(self, f, args, tup, note, indent):
        """``return f(args)`` of Lua function ``f`` as a tail call: in the
        plain form made directly (cheaper) while the stack is not deep
        (``DIRECT_TAILS``), from lines noted as such; else the marker
        ``(TAIL, f, args)``, which unwinds the direct calls pending above
        the nearest call site that is no tail call."""
        def direct():
            self.w('%sif DIRECT_TAILS:', indent)
            self.call_lua(f, args, tup, 'return', indent + '    ')
            self.out.items[-2].note = self.out.items[-1].note = TailCallNote(note or '')
        self.out.forms(direct, lambda: None)
        if indent:
            self.w('%sreturn (TAIL, %s, %s)', indent, f, tup)
        else:
            self.leave('return (TAIL, %s, %s)', f, tup)

    def call_lua(self, f, args, tup, lead, indent='    '):
        """``lead f(args)`` for a Lua function ``f`` with extra arguments cut
        on the rare call that passes more than ``f`` has parameters for."""
        self.w('%stry: %s %s(%s)', indent, lead, f, args)
        self.w('%sexcept TypeError: %s %s(*refit_raised(%s, %s))', indent, lead, f, f, tup)

    def call_self(self, i, regs, tup, tail):
        """A call of the function's own value (``local function f`` calling
        ``f``): no check of the callee, and its results' shape is known."""
        a, n = i.a, i.c
        if tail:
            if i.b == -1:
                self.tail_call(self.qname, ', '.join(regs), tup, i.note, '')
            else:
                passed = regs if self.p.is_vararg else regs[:self.p.numparams]
                self.tail_call(self.qname, ', '.join(passed), '(%s)' % ''.join(r + ', ' for r in passed),
                               i.note, '')
            return
        own = Choice(self.qname, self.pname)
        if i.b == -1:
            # How many arguments there are is known only when it runs.
            self.call_lua(own, ', '.join(regs), tup, '_R =', '')
            self.note_call(i.note, 2)

            def generator():
                self.w('_R = %s', self.wait('_R'))
                self.note_call(i.note)
            self.out.forms(lambda: None, generator)
            call = None
        else:
            args = ', '.join(regs[:self.p.numparams] if not self.p.is_vararg else regs)
            call = Choice(code('%s(%s)', self.qname, args), self.wait('%s(%s)', self.pname, args))
        if n == 1 and single_result(self.p):
            self.w('r%d = %s', a, call if call is not None else '_R')
            if call is not None:
                self.note_call(i.note)
            if i.b != -1 and self.passes_guards(i):
                self.declare(a, int)
        else:
            if call is not None:
                self.w('_R = %s', call)
                self.note_call(i.note)
            if self.tail_calls:
                # Its own results may be the marker of one of its tail calls.
                self.lua_results(a, n, '')
            elif n == 1:
                self.w('r%d = _R if _R.__class__ is not tuple else _R[0] if _R else None', a)
            elif n != 0:
                self.w('if _R.__class__ is not tuple: _R = (_R,)')
        if n == -1:
            if not self.tail_calls:
                self.w('T = _R')
            self.tbase = a
        elif n > 1:
            regs = ', '.join('r%d' % r for r in range(a, a + n))
            self.w('%s = _R if len(_R) == %d else adjust(_R, %d)', regs, n, n)

    def passes_guards(self, call):
        """Do the arguments of ``call``, a call of the function's own value
        with a fixed number of them, surely pass the guards under which its
        results are integers (``int_results``)?  (Such a function has no
        tail call: a tail call's ``return`` passes on any number of results.)"""
        if self.int_results is None:
            return False
        ints, tables = self.int_results
        return all(r < call.b and self.isint(call.a + 1 + r) for r in ints) and \
            all(r < call.b and self.istable(call.a + 1 + r) for r in tables)

    def intrinsic(self, i, regs, tail):
        """Open the call with an inline body for the library function the
        callee's name suggests; an identity check on the function value keeps
        it exact whatever the name says.  False when there is none."""
        name = callee_name(i)
        # ``f(a, g(x))``: the last argument the one result of a call, when it gave one.
        pending = bool(regs) and regs[-1] == '*T'
        if pending:
            regs = regs[:-1] + ['T[0]']
        emit = INTRINSICS.get((name, len(regs)))
        if emit is None:
            return False
        guard, body, result = emit(self.debt, *regs)
        w = self.w
        conditions = [guard[0], 'len(T) == 1'] if pending else [guard[0]]
        for cond in guard[1:]:
            if cond.__class__ is not Checked:
                conditions.append(cond)
            elif (pending and cond.arg == len(regs) - 1) or not self.holds(cond.check, i.a + 1 + cond.arg):
                conditions.append(render_check(cond.check, regs[cond.arg]))
        w('if r%d is %s:', i.a, ' and '.join(conditions))
        for text in body:
            w('    ' + text)
        n = i.c
        # No result, one expression, or a tuple of expressions for several.
        results = () if result is None else result if result.__class__ is tuple else (result,)
        if n == 1:
            w('    r%d = %s', i.a, results[0] if results else 'None')
        elif n > 1:
            # Exactly n values, as the unpacking after the call expects.
            w('    _R = (%s,)', ', '.join((results + ('None',) * n)[:n]))
        elif tail:
            # Returned as a Lua function's return gives them: one value bare,
            # so the caller needs no tuple to build or unpack.
            w('    return %s', results[0] if len(results) == 1 else '(%s,)' % ', '.join(results) if results else '()')
        elif n == -1:
            w('    T = %s', '(%s,)' % ', '.join(results) if results else '()')
        elif not body:
            w('    pass')      # the guard did the work; the result is not wanted
        return True

    def holds(self, check, r):
        """Is ``check`` known to hold of register ``r`` here?"""
        if check is Check.TABLE:
            return self.istable(r)
        if check is Check.INT:
            return self.isint(r)
        if check is Check.NUMBER:
            return self.isint(r) or self.isfloat(r)
        if check is Check.STR:
            return self.types.get(r) is str
        if check is Check.NO_META:
            return self.types.get(r) is FRESH
        return self.never_nil(r)

    def results(self, src, a, n):
        w = self.w
        if n == 0:
            return
        if n == 1:
            w('r%d = %s[0] if %s else None', a, src, src)
        elif n == -1:
            w('T = %s', src)
            self.tbase = a
        else:
            regs = ', '.join('r%d' % r for r in range(a, a + n))
            w('%s = %s if len(%s) == %d else adjust(%s, %d)', regs, src, src, n, src, n)

    def op_VARARG(self, i):
        self.results('VA', i.a, i.b)

    def op_RETURN(self, i):
        if i.b == -1:
            if self.tbase == i.a:
                self.tbase = None
                self.leave('return T')
            else:
                self.leave('return %s', self.multret_args(i.a))
        elif i.b == 0:
            self.leave('return ()')
        elif i.b == 1:
            self.leave('return r%d', i.a)
        else:
            self.leave('return (%s,)', ', '.join('r%d' % r for r in range(i.a, i.a + i.b)))

    def op_CLOSURE(self, i):
        child = self.p.protos[i.b]
        cells = []
        for name, instack, idx, kind in child.upvals:
            if kind == 'self':
                continue
            if instack:
                cells.append('r%d' % idx)
            else:
                cells.append(self.qname if self.p.upvals[idx][3] == 'self' else 'U%d' % idx)
        self.w('r%d = %s(%s)', i.a, self.children[i.b], ', '.join(cells))
