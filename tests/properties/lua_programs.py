"""Random Lua programs from the whole grammar, for the differential fuzzer.

``program(rng)`` writes one deterministic, terminating program: every
statement form (locals with attributes, multiple assignment, if/elseif,
numeric and generic for, while, repeat, do blocks with goto and labels whose
names repeat in sibling blocks, loops made of backward gotos, ``goto
continue``, to-be-closed variables, break, local and anonymous functions,
recursion through tail calls, varargs, methods, returns, code after a
``do return end``), library calls
whose errors name their arguments, metamethods, calls and indexing of values
that are no function or table, every operator on integer and float edge values and on
strings holding Python keywords, quotes, backslashes and ``yield from``, deep
nesting and many locals; and what programs commonly do: classes through
metatables with ``__index`` chains, closures made in loops, a local as an
operator's left operand that the function its right operand calls assigns
(Lua reads it after the call), string methods
and ``string.format``, integer division and modulo of negative numbers,
coroutines wrapping iterators, ``select``, ``table.unpack`` with ranges,
calls with a string or table literal argument; the table library's sort,
insert, remove and move, ``string.gmatch`` and ``utf8.codes`` loops,
``xpcall`` with handlers, ``coroutine.close``, ``load`` with an environment
and ``string.format``'s ``%c``.  Values are printed through
``show``, which prints a table's or function's type rather than its address.

Shapes whose output Lua leaves unspecified, or where lua5.4 (5.4.4) is
wrong, are not written: ``#`` of a table that got a key after its
constructor (a table with holes has more than one valid border; so
``table.concat`` of what ``table.move`` made names its range), a
multiple assignment naming one target twice, an upvalue indexed by a
comparison or its ``not`` (5.4.4 miscompiles ``t[a ~= b]``), and orders
and text that depend on addresses (a sort by ``tostring``, and ``gmatch``
and ``utf8.codes`` over a value's text, strip them).
"""
from __future__ import annotations

import re

PRELUDE = '''local function show(...)
  local t = table.pack(...)
  for i = 1, t.n do
    local v = t[i]
    local ty = type(v)
    t[i] = (ty == "table" or ty == "function" or ty == "thread") and ty or tostring(v)
  end
  print(table.concat(t, " ", 1, t.n))
end
local obj = {n = 1}
function obj:m(x) self.n = self.n + 1; return x, self.n end
function obj.twice(...) return ..., ... end
'''

NUMBERS = ['0', '1', '-1', '2', '3', '7', '10', '255', '-0.0', '0.5', '1.5', '-2.25', '3.0', '1e308',
           '1e-300', 'math.maxinteger', 'math.mininteger', '0x7fffffffffffffff', '0xff', '9007199254740993',
           '2^53', '1/0', '-1/0', 'math.pi', '100000000000000', '0x10p-2', 'math.huge', '-math.huge',
           '0x8000000000000000', '2^63', '-(2^63)', '1e15', '0.1', '-7', '(math.maxinteger + 1)',
           '(math.mininteger // -1)', '-0x7fffffffffffffff', '4611686018427387904', '1e100', '5e-324',
           '1e16', '-1e15', '1/3', '123456789012345678', '-7.5', '2^-1074',
           # integer division and modulo of negative numbers
           '(-7 // 2)', '(7 // -2)', '(-7 % 3)', '(7 % -3)', '(-7.5 // 2)', '(7.5 % -2)', '(-0.0 // 1)',
           '(math.mininteger % -1)', '(3 % -math.huge)', '(-3 % math.huge)', '(-3 // 0.0)', '(5.5 % -0.0)',
           # float edge values: the extremes, subnormals, halves and integers floats cannot hold
           '1.7976931348623157e308', '0x1.fffffffffffffp1023', '2.2250738585072014e-308', '0x1p-1022', '1e-310',
           '-5e-324', '4503599627370496.5', '(2^53 + 1.0)', '(0.1 + 0.2)', '(math.maxinteger + 0.0)',
           '(math.mininteger + 0.0)', '(-(2^63) - 1025.0)', '(2^63 - 1024)', '(1e15 + 0.3)', '-1e-320']
STRINGS = ['"yield from x"', "'yield from '", '"nonlocal DEBT"', '"SYNC("', '"\\"quoted\\""', "'it\\'s'",
           '"back\\\\slash"', '"\\0nul"', '"def f():"', '"lambda: None"', '"import os"', '"10"', '"0x10"',
           '" 3 "', '"1e2"', '"abc"', '""', "'\\n\\t'", '[[long ]=] string]]', '[==[ ]] ]==]', '"%d %s"',
           '"r0"', '"_R"', '"T"', '"r1 = None"', '"yield"', '"async def"', '"await x"', '"__class__"',
           '"0x1p4"', '"-0"', '"1e400"', '"  0x10  "', '"5 // 0"', "'\\x41\\u{48}'", '"\\z   z"']
# Method calls on strings and library calls whose errors name arguments.
LIBRARY = ['(@):rep(2)', '(@):upper()', '(@):len()', '(@):sub(2, -2)', 'string.format("%5.1f|%d", @, @)',
           'string.format("%q %s", @, @)', 'math.floor(@)', 'math.max(@, 1)', 'math.fmod(@, 3)', '#{@, nil}',
           'table.unpack({@, @})', 'string.byte(@)', 'math.abs(@)', '(@ .. "")', '(@ + 0)', '(@ | 0)',
           '(@ // 0)', '(@ % 0)', '(@ < @)', '(@ == @)', 'math.ult(@, 1)', 'string.char(@)',
           'tostring(@):find("0")', 'select(-1, @, @)', 'rawequal(@, @)', 'rawlen(@)', 'next({@})',
           '({[1.0] = @, [2^53] = @})[1]', '({[@] = 1})[2^53]', 'math.tointeger(@)', 'string.rep(@, 2, ",")',
           '(@):byte(1, -1)', 'tostring(@ // 1)', '(@ >> 63)', '(@ << -1)', '(- @ % -3)', '(@ // -0.0)',
           'math.fmod(@, -0.0)', 'string.format("%x", @)', 'string.format("%5.3s|%-4d|%g", @, @, @)',
           'utf8.char(@)', 'table.concat({@, @}, @)', 'tostring(@):upper():lower()', '(@ ~= @)',
           # string methods as programs use them
           '(@):sub(@, @)', 'string.find(@, @, 1, true)', '(@):find("%d+")', '(@):find(@)',
           '(@):gsub("%a", "%0%0")', '(@):gsub(".", {a = "A", ["1"] = 2})', 'string.gsub(@, "(%w)(%w*)", "%2%1")',
           '(@):gsub("%s+", function(s) return #s end)', '(@):match("^%s*(.-)%s*$")',
           'string.match(@, "(%d+)%.?(%d*)")', 'string.format("%5.2f|%-6s|%q", @, @, @)',
           'string.format("%g %.3g %e", @, @, @)', '("%d items"):format(@)', 'string.format("%10.4s|", @)',
           'string.format("%i", @)', '(@):rep(3, "-")', '(@):reverse()',
           # integer and float division of negative values; floats printed
           '(@ // -2)', '(-(@) % 3)', '(@ % -2.5)', 'tostring(@ + 0.0)', 'string.format("%.17g", @)',
           'math.tointeger(@ + 0.0)', 'tostring(-(@))',
           # table.unpack with ranges
           'table.unpack({@, @, @}, 2)', 'table.unpack({@, @}, -1, 1)', 'table.unpack({@}, 1, 3)',
           'select("#", table.unpack({@}, 2, 4))', 'select(-1, @, @)',
           # the table library on tables without holes (``or`` keeps nil out)
           '(function() local t = {(@ or 1), (@ or 2), (@ or 3)} table.sort(t) return t[1], t[2], t[3] end)()',
           # (compared without addresses, which order tables and their names differently on each run)
           '(function() local t = {(@ or 1), (@ or 2), 3} table.sort(t, function(a, b) '
           'return (tostring(a):gsub("0x%x+", "")) > (tostring(b):gsub("0x%x+", "")) end) '
           'return table.concat(t, ",") end)()',
           '(function() local t = {(@ or 1)} table.insert(t, (@ or 2)) table.insert(t, 1, (@ or 3)) return #t, t[1], t[3] end)()',
           'table.insert({1, 2}, @, 0)', 'table.remove({1, 2, 3}, @)',
           '(function() local t = {(@ or 1), 2, 3} return table.remove(t), table.remove(t, 1), #t end)()',
           # a move may leave a hole, whose table has more than one border: concat names its range
           'table.concat(table.move({1, 2, 3}, 1, 3, (@ or 2)), ",", 1, 4)',
           'table.concat(table.move({1, 2, 3}, @, 3, 1, {}), ",", 1, 2)',
           # iterators of the library, protected calls with handlers, coroutines closed
           '(function() local r = {} for w in string.gmatch(@, "%w+") do r[#r + 1] = w end return table.concat(r, "|") end)()',
           '(function() local n, s = 0, "" for k, v in string.gmatch((tostring(@):gsub("0x%x+", "")), "(%w)(%w?)") do n = n + 1 s = s .. v end '
           'return n, s end)()',
           # an address in the text is no code points to compare: dropped, as by gmatch's above
           '(function(s) local r = {} if type(s) == "string" then s = s:gsub("0x%x+", "") end '
           'for p, c in utf8.codes(s) do r[#r + 1] = p .. ":" .. c end return table.concat(r, " ") end)(@)',
           'select(2, xpcall(function() return @ end, function(m) return "handled: " .. tostring(m) end))',
           'xpcall(error, function(m) return type(m) end, @)', 'xpcall(@, tostring)',
           'coroutine.close(coroutine.create(function() return @ end))',
           '(function() local co = coroutine.create(function(x) coroutine.yield(x) error(x) end) coroutine.resume(co, @) '
           'return coroutine.close(co), coroutine.status(co) end)()',
           '(function() local co = coroutine.create(function(x) error(x, 0) end) coroutine.resume(co, @) '
           'return coroutine.close(co) end)()',
           # load with an environment of its own
           'load("return x, ...", "=env", "t", {x = @})(@)', 'load("y = ... return y, x", "chunk", "t", {})(@)',
           'load(@, "c", "t", {})',
           'string.format("%c", @)', 'string.format("%c%c|%5c", 72, @, @)']
# Metamethods, and calls and indexing of values that are no function or table
# (their errors name the variable).
METAS = ['setmetatable({}, {__index = function(t, k) return k end})[@]',
         '(setmetatable({}, {__add = function(a, b) return "added" end}) + @)',
         '(@ - setmetatable({}, {__sub = function(a, b) return b end}))',
         '(setmetatable({}, {__concat = function(a, b) return type(a) .. type(b) end}) .. @)',
         '(@ .. setmetatable({}, {__concat = function(a, b) return type(a) .. type(b) end}))',
         '(setmetatable({}, {__eq = function() return true end}) == setmetatable({}, {__eq = function() return @ end}))',
         '(setmetatable({}, {__lt = function(a, b) return @ end}) < @)',
         '(@ <= setmetatable({}, {__le = function(a, b) return @ end}))',
         'setmetatable({}, {__index = setmetatable({}, {__index = function(t, k) return k end})}).x',
         '#setmetatable({}, {__len = function() return @ end})',
         'setmetatable({}, {__call = function(self, x) return x end})(@)',
         'tostring(setmetatable({}, {__tostring = function() return @ end}))',
         # (its address stripped here: string functions applied to it could
         # hide it from the comparison's own stripping)
         '(tostring(setmetatable({}, {__name = "My.Type"})):gsub(": 0x%x+", ": 0x"))',
         '(setmetatable({}, {__name = "Named"}) + @)',
         '(- setmetatable({}, {__unm = function(a) return @ end}))', 'setmetatable({}, {__index = {k = @}}).k',
         'rawget(setmetatable({}, {__index = function() return 1 end}), @)',
         '(~ setmetatable({}, {__bnot = function(a) return @ end}))', '(@ // setmetatable({}, {}))',
         '(@)()', 'obj:nope(@)', 'obj.k(@)', 'g1(@)', 'string.nope(@)', '("abc"):nope(@)', 'math.huge.x',
         'obj.n.x.y', 'g2.x', '(@).field', '(@):method()', 'select(@, 1, 2)',
         'setmetatable({}, {__newindex = function(t, k, v) rawset(t, k, v) end})', '({})[@]', 'next({}, @)',
         'ipairs(@)', 'pairs(@)', 'coroutine.wrap(function(...) return ... end)(@)',
         'coroutine.resume(coroutine.create(function(x) error(x) end), @)', 'error(@, 0)', 'error(@)',
         'assert(@, "assertion message")', 'assert(false, @)', 'tonumber(@, 16)', 'tonumber("z", @)',
         'string.format("%d", @)', 'string.format("%s %s", @)', 'load(@)',
         'table.insert({}, @, 1)', 'table.concat({{}}, @)', 'table.unpack({}, 1, @)', 'string.sub("hello", @)',
         'utf8.char(-1)', 'utf8.codepoint("\xff")', 'utf8.len(@)', 'math.floor("x")', 'string.char(256)']
FOR_BOUNDS = ['1', '"2"', '1.5', '-1', '0.1', '3', 'math.mininteger', 'math.mininteger + 1', 'math.maxinteger',
              'math.maxinteger - 1', '-0.0', '2^53', 'nil', '{}', '1e308', '-1e308', '0/0']
# Numbers no arithmetic operator or comparison refuses.
SMALL_NUMBERS = ['0', '1', '-1', '2', '3', '7', '10', '0.5', '1.5', '-2.25', '3.0']
COMPARISONS = ['==', '~=', '<', '<=', '>', '>=']
BINARY = ['+', '-', '*', '/', '//', '%', '^', '..', 'and', 'or', '&', '|', '~', '<<', '>>'] + COMPARISONS
# Templates whose value is a comparison: never a table's key (lua5.4
# miscompiles an upvalue indexed by one).
COMPARING = {'(@ < @)', '(@ == @)', '(@ ~= @)'} | {
    t for t in METAS if any(') %s ' % op in t or ' %s set' % op in t for op in COMPARISONS)}
UNARY = ['-', 'not ', '#', '~']


class _Gen:
    def __init__(self, rng, small):
        self.rng = rng
        self.count = 0
        # Statements in the whole program: a small one exercises the same
        # grammar in a tenth of the compile time.
        self.budget = rng.randint(2, 10) if small else rng.randint(20, 120)
        # Variables that may hold a table with holes (it got a key after
        # its constructor): never measured by ``#`` (see ``measured``).
        self.holey = set()
        self.measuring = 0            # building the operand of a '#' or rawlen
        self.key_next = False         # the next expression is a table's key: no comparison at its top

    def name(self, prefix='v'):
        self.count += 1
        return '%s%d' % (prefix, self.count)

    def pick(self, seq):
        return self.rng.choice(seq)

    def chance(self, p):
        return self.rng.random() < p

    # ---------------------------------------------------------- expressions
    def key(self, scope, depth=0):
        """An expression indexing a table: no comparison at its top."""
        self.key_next = True
        return self.expr(scope, depth)

    def measured(self, scope, depth):
        """An expression whose length is taken: no variable that may hold a table with holes."""
        self.measuring += 1
        try:
            return self.expr(scope, depth)
        finally:
            self.measuring -= 1

    def expr(self, scope, depth=0):
        key, self.key_next = self.key_next, False
        r = self.rng.random()
        if depth > 3 or r < 0.35:
            return self.atom(scope)
        if r < 0.6:
            op = self.pick(BINARY[:-len(COMPARISONS)] if key else BINARY)
            return '(%s %s %s)' % (self.expr(scope, depth + 1), op, self.expr(scope, depth + 1))
        if r < 0.67:
            op = self.pick(UNARY)
            # 'not' keeps a comparison a jump, which lua5.4 miscompiles as a key too
            self.key_next = key and op == 'not '
            operand = self.measured(scope, depth + 1) if op == '#' else self.expr(scope, depth + 1)
            return '(%s %s)' % (op, operand)
        if r < 0.8 and scope.functions:
            f, arity = self.pick(scope.functions)
            return '%s(%s)' % (f, ', '.join(self.expr(scope, depth + 1) for _ in range(self.rng.randint(0, arity + 1))))
        if r < 0.85:
            return self.pick(['tostring(%s)', 'tonumber(%s)', 'math.type(%s)', 'type(%s)', 'select("#", %s)',
                              'math.tointeger(%s)', 'string.len(tostring(%s))']) % self.expr(scope, depth + 1)
        if r < 0.9:
            if self.chance(0.3):
                return self.fill(self.pick([t for t in METAS if t not in COMPARING] if key else METAS),
                                 scope, depth + 1)
            if scope.values and self.chance(0.1):
                # Calling and indexing a variable: its error names it.
                form = self.pick(['%s(@)', '%s.k', '%s[@]', '%s:m(@)']).replace('%s', self.pick(scope.values))
                return form.replace('@', self.key(scope, depth + 1) if '[' in form else self.expr(scope, depth + 1))
            if self.chance(0.5):
                return self.pick(['obj:m(%s)', 'obj.n', 'obj.twice(%s)', '({%s})[1]', '({n = %s}).n',
                                  'select(2, obj.twice(%s))', 'obj.twice{%s}', 'type{%s}']
                                 ).replace('%s', self.expr(scope, depth + 1))
            if self.chance(0.05):
                # A call with a string literal argument.
                return self.pick(['tostring"%s"', 'obj.twice"%s"', 'obj:m"%s"', '("%s"):upper"x"']) \
                    % self.pick(['abc', 'yield from', '10', ''])
            return self.fill(self.pick([t for t in LIBRARY if t not in COMPARING] if key else LIBRARY),
                             scope, depth + 1)
        if r < 0.95 and scope.tables:
            form = self.pick(['%s[ %s ]', '#%s', '%s.k'])
            if form == '#%s':
                whole = [t for t in scope.tables if t not in self.holey]
                return '#%s' % self.pick(whole) if whole else self.atom(scope)
            return form.replace('%s', self.pick(scope.tables), 1).replace('%s', self.key(scope, depth + 1))
        if scope.vararg:
            return self.pick(['...', 'select("#", ...)', '(...)', '{...}', 'select(2, ...)', 'select(-1, ...)',
                              'table.pack(...).n', '(select("#", ...) > 0 and (...) or "none")'])
        return self.atom(scope)

    def atom(self, scope):
        r = self.rng.random()
        if r < 0.35:
            return self.pick(NUMBERS)
        if r < 0.55:
            return self.pick(STRINGS)
        values = [v for v in scope.values if v not in self.holey] if self.measuring else scope.values
        if r < 0.9 and values:
            return self.pick(values)
        return self.pick(['nil', 'true', 'false', '{}', '{1, 2, 3}'])

    def fill(self, template, scope, depth):
        """``template`` with each ``@`` an expression of its own."""
        parts = template.split('@')
        operand = self.measured if template.startswith('rawlen(') else self.expr
        return ''.join(p + (operand(scope, depth) if n < len(parts) - 1 else '') for n, p in enumerate(parts))

    def may_hold_holes(self, targets, exprs):
        """``targets`` are assigned ``exprs``: a variable that may hold a
        table with holes passes that on."""
        if self.holey and any(re.search(r'\b%s\b' % name, e) for name in self.holey for e in exprs):
            self.holey.update(targets)

    # ----------------------------------------------------------- statements
    def block(self, scope, depth, loop=False, n=None):
        inner = scope.child(loop)
        lines = []
        for _ in range(n if n is not None else self.rng.randint(1, 4)):
            if self.budget <= 0:
                break
            self.budget -= 1
            lines.append(self.stmt(inner, depth))
        return lines

    def stmt(self, scope, depth):
        kinds = ['local', 'local', 'assign', 'show', 'show', 'pcall', 'table']
        if depth < 6:
            kinds += ['if', 'for', 'forin', 'while', 'repeat', 'do', 'goto', 'function', 'closure',
                      'backgoto', 'continue', 'close', 'recursion', 'class', 'loop_closures', 'generator',
                      'method', 'captured_operand']
        if scope.loop:
            kinds.append('break')
        kind = self.pick(kinds)
        return getattr(self, 's_' + kind)(scope, depth)

    def s_local(self, scope, depth):
        names = [self.name() for _ in range(self.rng.randint(1, 3))]
        exprs = [self.caught(scope) for _ in range(self.rng.randint(0, len(names) + 1))]
        attrib = self.pick(['', '', ' <const>']) if len(names) == 1 else ''
        self.may_hold_holes(names, exprs)
        scope.values.extend(names)
        if attrib:
            scope.consts.update(names)
        return 'local %s%s%s' % (', '.join(names), attrib, ' = ' + ', '.join(exprs) if exprs else '')

    def s_assign(self, scope, depth):
        targets = [t for t in scope.values if t not in scope.consts] + ['g1', 'g2', 'obj.k']
        # One target named twice is assigned in an order Lua leaves open.
        picked = list(dict.fromkeys(self.pick(targets) for _ in range(self.rng.randint(1, 2))))
        exprs = [self.caught(scope) for _ in picked]
        self.may_hold_holes(picked, exprs)
        return '%s = %s' % (', '.join(picked), ', '.join(exprs))

    def s_show(self, scope, depth):
        if self.chance(0.97):
            # The error, if any, is printed and the program goes on.
            inner = scope.function_scope([], False)
            exprs = ', '.join(self.expr(inner) for _ in range(self.rng.randint(1, 3)))
            return 'show(pcall(function() return %s end))' % exprs
        return 'show(%s)' % ', '.join(self.expr(scope) for _ in range(self.rng.randint(1, 3)))

    def caught(self, scope):
        """An expression, or its error message when it raises one (most
        expressions are caught so that most programs run to their end)."""
        if self.chance(0.03):
            return self.expr(scope)
        return '(select(2, pcall(function() return %s end)))' % self.expr(scope.function_scope([], False))

    def condition(self, scope):
        """A test, true or false about as often (most values are true)."""
        return '%s%s' % (self.pick(['', 'not ']), self.caught(scope))

    def s_pcall(self, scope, depth):
        inner = scope.function_scope([], False)
        body = self.block(inner, depth + 1)
        end = self.pick(['error(%s)' % self.expr(inner), 'error(%s, 2)' % self.expr(inner),
                         'return %s' % self.expr(inner), ''])
        return 'show(pcall(function()\n%s\n%s\nend))' % ('\n'.join(body), end)

    def s_table(self, scope, depth):
        t = self.name('t')
        items = [self.caught(scope) for _ in range(self.rng.randint(0, 4))]
        if self.chance(0.3):
            items.append('k = %s' % self.caught(scope))
        scope.tables.append(t)
        scope.values.append(t)
        line = 'local %s = {%s}' % (t, ', '.join(items))
        self.may_hold_holes([t], items)
        if self.chance(0.3):
            self.key_next = True
            line += '\n%s[ %s ] = %s' % (t, self.caught(scope), self.caught(scope))
            self.holey.add(t)
        return line

    def s_if(self, scope, depth):
        if self.chance(0.03):
            return self.deep_ifs(scope)
        parts = ['if %s then' % self.condition(scope)] + self.block(scope, depth + 1)
        for _ in range(self.rng.randint(0, 2)):
            parts += ['elseif %s then' % self.condition(scope)] + self.block(scope, depth + 1)
        if self.chance(0.5):
            parts += ['else'] + self.block(scope, depth + 1)
        return '\n'.join(parts + ['end'])

    def deep_ifs(self, scope):
        n = self.rng.randint(20, 130)
        v = self.pick(scope.values) if scope.values else '1'
        return '\n'.join(['if %s ~= 12345 then' % v] * n + ['show("deep", %s)' % v] + ['end'] * n)

    def s_for(self, scope, depth):
        v = self.name('i')
        start, stop = self.rng.randint(-2, 3), self.rng.randint(-2, 4)
        step = self.pick(['', ', 1', ', -1', ', 2', ', 0.5', ', -0.75'])
        before, guard = [], []
        if self.chance(0.1):
            start, stop, step = 'math.maxinteger - 1', 'math.maxinteger', ''
        elif self.chance(0.15):
            # Bounds of every kind: strings and floats are errors or float
            # loops, a zero step an error; a count ends a long loop.
            start, stop = self.pick(FOR_BOUNDS), self.pick(FOR_BOUNDS)
            step = self.pick(['', ', 0', ', -1', ', 0.5', ', "1"', ', math.mininteger', ', math.maxinteger'])
            c = self.name('c')
            before, guard = ['local %s = 0' % c], ['%s = %s + 1; if %s > 3 then break end' % (c, c, c)]
        inner = scope.child(True)
        inner.values.append(v)
        inner.consts.add(v)
        body = self.block(inner, depth + 1)
        return '\n'.join(before + ['for %s = %s, %s%s do' % (v, start, stop, step)] + guard + body + ['end'])

    def s_forin(self, scope, depth):
        k, v = self.name('k'), self.name()
        source = self.pick(['ipairs({%s})', 'pairs({%s})', 'ipairs({%s nil, 4})'])
        items = ''.join(self.caught(scope) + ', ' for _ in range(self.rng.randint(0, 3)))
        inner = scope.child(True)
        inner.values += [k, v]
        body = self.block(inner, depth + 1)
        return '\n'.join(['for %s, %s in %s do' % (k, v, source % items)] + body + ['end'])

    def s_while(self, scope, depth):
        c = self.name('c')
        inner = scope.child(True)
        body = self.block(inner, depth + 1)
        return '\n'.join(['local %s = 0' % c, 'while %s < %d do' % (c, self.rng.randint(0, 3)),
                          '%s = %s + 1' % (c, c)] + body + ['end'])

    def s_repeat(self, scope, depth):
        c = self.name('c')
        inner = scope.child(True)
        body = self.block(inner, depth + 1)
        return '\n'.join(['local %s = 0' % c, 'repeat', '%s = %s + 1' % (c, c)] + body
                         + ['until %s >= %d' % (c, self.rng.randint(1, 3))])

    def s_do(self, scope, depth):
        return '\n'.join(['do'] + self.block(scope, depth + 1) + ['end'])

    def s_goto(self, scope, depth):
        # A label at the end of its block may follow locals; its name repeats
        # in sibling blocks (names differ only by nesting depth).
        label = 'l%d' % depth
        inner = scope.child(scope.loop)
        before = self.block(inner, depth + 1)
        jump = 'if %s then goto %s end' % (self.condition(inner), label) if self.chance(0.7) else 'goto %s' % label
        after = self.block(inner, depth + 1)
        return '\n'.join(['do'] + before + [jump] + after + ['::%s::' % label, 'end'])

    def s_backgoto(self, scope, depth):
        # A loop made of a backward goto; sibling blocks reuse its label's name.
        c = self.name('c')
        label = 'top%d' % depth
        inner = scope.child(False)
        body = self.block(inner, depth + 1)
        return '\n'.join(['do', 'local %s = 0' % c, '::%s::' % label, '%s = %s + 1' % (c, c)] + body
                         + ['if %s < %d then goto %s end' % (c, self.rng.randint(1, 3), label), 'end'])

    def s_continue(self, scope, depth):
        v = self.name('i')
        inner = scope.child(True)
        inner.values.append(v)
        before = self.block(inner, depth + 1)
        after = self.block(inner, depth + 1)
        return '\n'.join(['for %s = 1, %d do' % (v, self.rng.randint(1, 3))] + before
                         + ['if %s then goto continue end' % self.condition(inner)] + after + ['::continue::', 'end'])

    def s_close(self, scope, depth):
        # A to-be-closed variable; the block may leave by an error, a break or a goto.
        # (Its handler shows the error's first line: when the error ends the
        # program, lua.c's message handler has added a traceback to it.)
        x = self.name('x')
        inner = scope.child(scope.loop)
        value = self.pick(['nil', 'false', 'setmetatable({}, {__close = function(_, e) '
                           'show("close %s", type(e) == "string" and e:match("[^\\n]*") or e) end})' % x])
        body = self.block(inner, depth + 1)
        return '\n'.join(['do', 'local %s <close> = %s' % (x, value)] + body + ['end'])

    def s_recursion(self, scope, depth):
        # Tail calls and calls of the function's own value, with varargs.
        f = self.name('f')
        n = self.name('n')
        inner = scope.function_scope([n], True)
        inner.consts.add(n)         # never assigned: the recursion ends
        body = self.block(inner, depth + 1)
        tail = self.pick(['return %s(%s - 1, ...)' % (f, n), 'return %s(%s - 1, %s, ...)' % (f, n, self.expr(inner)),
                          'return select("#", ...), ...', 'local r = %s(%s - 1, ...) return r' % (f, n)])
        return '\n'.join(['local function %s(%s, ...)' % (f, n), 'if %s <= 0 then return %s, ... end' % (n, self.expr(inner))]
                         + body + [tail, 'end', 'show(pcall(%s, %d, %s))' % (f, self.rng.randint(0, 4), self.caught(scope))])

    def s_function(self, scope, depth):
        f = self.name('f')
        params = [self.name('p') for _ in range(self.rng.randint(0, 3))]
        vararg = self.chance(0.3)
        inner = scope.function_scope(params, vararg)
        body = self.block(inner, depth + 1)
        if inner.functions and self.chance(0.3):
            g, arity = self.pick(inner.functions)
            ret = 'return %s(%s)' % (g, ', '.join(self.expr(inner) for _ in range(arity)))    # a tail call
        else:
            ret = 'return %s' % ', '.join(self.expr(inner) for _ in range(self.rng.randint(1, 2)))
        if self.chance(0.2):
            # The code after a 'do return end' never runs, but compiles.
            body += ['do %s end' % ret] + self.block(inner, depth + 1)
        else:
            body.append(ret)
        scope.functions.append((f, len(params)))
        scope.values.append(f)
        return '\n'.join(['local function %s(%s)' % (f, ', '.join(params + (['...'] if vararg else [])))]
                         + body + ['end'])

    def s_closure(self, scope, depth):
        f = self.name('f')
        n = self.name('n')
        inner = scope.function_scope([], True)
        inner.values.append(n)
        body = self.block(inner, depth + 1)
        scope.values.append(f)
        return '\n'.join(['local %s = 0' % n, 'local %s = function(...)' % f, '%s = %s + 1' % (n, n)] + body
                         + ['return %s, ...' % n, 'end', 'show(%s(%s))' % (f, self.caught(scope))])

    def s_captured_operand(self, scope, depth):
        """A local as an operator's left operand, assigned by the function
        its right operand calls: Lua reads the local when the operator
        runs, after the call.  Numbers only, so that the line runs on."""
        n, f = self.name('n'), self.name('f')
        ops = ['+', '-', '*', '/', '^', '..', 'and', 'or'] + COMPARISONS
        uses = ', '.join('%s %s %s(%s)' % (self.pick([n, '(%s)' % n]), self.pick(ops), f, self.pick(SMALL_NUMBERS))
                         for _ in range(self.rng.randint(1, 3)))
        return '\n'.join(['local %s = %s' % (n, self.pick(SMALL_NUMBERS)),
                          'local function %s(x) %s = %s %s x return %s end'
                          % (f, n, n, self.pick(['+', '-', '*']), self.pick(SMALL_NUMBERS)),
                          'show(%s)' % uses])

    def s_class(self, scope, depth):
        # A class and a subclass through metatables: __index chains, a
        # constructor, methods calling inherited ones, a missing method.
        base, derived, o = self.name('Base'), self.name('Derived'), self.name('o')
        inner = scope.function_scope(['self'], False)
        value = self.caught(inner)
        lines = ['local %s = {}' % base, '%s.__index = %s' % (base, base),
                 'function %s.new(x) return setmetatable({x = x}, %s) end' % (base, base),
                 'function %s:get() return self.x end' % base,
                 'function %s:describe() return "base " .. tostring(self:get()) end' % base,
                 'local %s = setmetatable({}, {__index = %s})' % (derived, base), '%s.__index = %s' % (derived, derived),
                 'function %s.new(x) local self = %s.new(x) return setmetatable(self, %s) end' % (derived, base, derived),
                 'function %s:describe() return "derived " .. %s.describe(self) .. " " .. tostring(%s) end'
                 % (derived, base, value),
                 'local %s = %s.new(%s)' % (o, self.pick([base, derived]), self.caught(scope)),
                 'show(pcall(function() return %s:describe(), %s:get(), %s.x, rawget(%s, "get") end))' % (o, o, o, o),
                 'show(pcall(function() return %s:%s(%s) end))' % (o, self.pick(['nope', 'get', 'describe']),
                                                                  self.caught(scope))]
        scope.values.append(o)
        return '\n'.join(lines)

    def s_loop_closures(self, scope, depth):
        # Closures made in a loop: each sees its own iteration's variables.
        fs, i, c = self.name('fs'), self.name('i'), self.name('c')
        inner = scope.child(True)
        inner.values.append(i)
        inner.consts.add(i)
        value = self.expr(inner.function_scope([], False))
        body = self.block(inner, depth + 1, n=self.rng.randint(0, 2))
        loop = self.pick(['for %s = 1, 3 do' % i, 'for %s, _ in ipairs({"a", "b", "c"}) do' % i])
        return '\n'.join(['local %s = {}' % fs, loop, 'local %s = %s * 10' % (c, i)] + body
                         + ['%s[#%s + 1] = function(x) %s = %s + 1 return %s, %s, x, %s end' % (fs, fs, c, c, i, c, value),
                            'end', 'for _, f in ipairs(%s) do show(pcall(f, %s)) end' % (fs, self.caught(scope)),
                            'show(pcall(%s[1]))' % fs])

    def s_generator(self, scope, depth):
        # A coroutine wrapping an iterator, used by a generic for.
        g, n, k, v = self.name('gen'), self.name('n'), self.name('k'), self.name()
        inner = scope.function_scope([n], False)
        inner.consts.add(n)
        value = self.caught(inner)
        body_scope = scope.child(True)
        body_scope.values += [k, v]
        body = self.block(body_scope, depth + 1)
        return '\n'.join(['local function %s(%s)' % (g, n),
                           'return coroutine.wrap(function()',
                           'for i = 1, %s do coroutine.yield(i, %s) end' % (n, value),
                           'end)', 'end',
                           'for %s, %s in %s(%d) do' % (k, v, g, self.rng.randint(0, 3))] + body
                          + ['end', 'show(pcall(function() local g = %s(1) return g(), g(), coroutine.isyieldable() end))' % g])

    def s_method(self, scope, depth):
        # A function stored in a table field, declared with a dotted or
        # a method name, then called both ways.
        f = self.name('f')
        colon = self.chance(0.5)
        params = [self.name('p') for _ in range(self.rng.randint(0, 2))]
        inner = scope.function_scope(params + (['self'] if colon else []), self.chance(0.3))
        body = self.block(inner, depth + 1)
        ret = 'return %s' % ', '.join(self.expr(inner) for _ in range(self.rng.randint(1, 2)))
        args = ', '.join(self.caught(scope) for _ in range(self.rng.randint(0, 3)))
        call = 'obj:%s(%s)' if colon else 'obj.%s(%s)'
        return '\n'.join(['function obj%s%s(%s)' % (':' if colon else '.', f, ', '.join(params + (['...'] if inner.vararg else [])))]
                          + body + [ret, 'end', 'show(pcall(function() return %s end))' % (call % (f, args))])

    def s_break(self, scope, depth):
        return 'if %s then break end' % self.condition(scope)


class _Scope:
    def __init__(self, values, functions, tables, loop, vararg, consts):
        self.values, self.functions, self.tables = values, functions, tables
        self.loop, self.vararg, self.consts = loop, vararg, consts

    def child(self, loop):
        return _Scope(list(self.values), list(self.functions), list(self.tables), loop or self.loop,
                      self.vararg, set(self.consts))

    def function_scope(self, params, vararg):
        return _Scope(list(self.values) + params, list(self.functions), list(self.tables), False, vararg,
                      set(self.consts))


def program(rng, in_coroutine=False, small=False):
    """One random program; ``in_coroutine`` runs its body inside a
    coroutine; a ``small`` one has 2 to 10 statements at its top level
    rather than 20 to 120."""
    return PRELUDE + body(rng, in_coroutine, small)


def body(rng, in_coroutine=False, small=False):
    """``program``'s text after ``PRELUDE``, which it uses."""
    gen = _Gen(rng, small)
    scope = _Scope([], [], [], False, True, set())
    lines = []
    if rng.random() < 0.05:
        names = ['m%d' % i for i in range(rng.randint(50, 180))]
        lines.append('local %s = %s' % (', '.join(names), ', '.join(str(i) for i in range(len(names)))))
        scope.values += names[-5:]
    while gen.budget > 0:
        gen.budget -= 1
        lines.append(gen.stmt(scope, 0))
    text = '\n'.join(lines)
    if in_coroutine:
        text = 'local co = coroutine.wrap(function(...)\n%s\nend)\nco(1, 2)' % text
    return text + '\n'
