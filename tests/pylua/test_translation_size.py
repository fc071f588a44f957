"""What the translator does not emit: a version of the code that a fact
already decided (a failed hoisted guard) or that no value can reach (a
guard no value passes).  The
programs' behaviour is checked against lua5.4 by
``fast_paths/hoisted_guards.lua`` (test_library_fast_paths)."""
import re

from pylua.compiler.pipeline import translate_chunk

POINT = '''
local Point = {} Point.__index = Point
function Point:norm2() return self.x * self.x + self.y * self.y end
'''


def plain_form(src):
    """The plain form of the chunk's first function (chunks are numbered
    across the process: ``Q<chunk>_1``)."""
    source = translate_chunk(src, 'size.lua').source
    body = re.split(r'def Q\d+_1\(', source, maxsplit=1)[1]
    return body.split('\n        def ', 1)[0].split('\n    def ', 1)[0]


def test_a_failed_single_table_guard_is_not_tested_again():
    code = plain_form(POINT)
    # The hoisted guard, then its general body with no split on self.
    assert code.count('r0.__class__ is Table') == 1
    assert code.count('else:\n') >= 1 and '_s' not in code.replace('_s if', '')


def test_a_table_guard_beside_an_integer_guard_still_splits():
    # Either guard may have failed: self may still be a table in the general body.
    code = plain_form('local function f(t, n) local a = t.a + n t.b = t.c + n return a, t.d end')
    assert code.count('and r0.__class__ is Table:') == 1         # the hoisted guards
    assert code.count('if r0.__class__ is Table:') == 1          # the general body's split


def test_equality_with_nil_or_a_string_hoists_no_integer_guard():
    code = plain_form('local function append(p, q) p.link = nil if q == nil then return p end '
                      'if q ~= "x" then q.link = p end return q end')
    assert 'is int' not in code
    assert code.count('r0.__class__ is Table and r1.__class__ is Table') == 1


def test_a_parameter_indexed_and_compared_is_guarded_as_a_table_only():
    code = plain_form('local function f(w, d) if w ~= nil and w.kind == 1 then return d.x end end')
    assert 'r0.__class__ is int' not in code
    assert 'if r0.__class__ is Table and r1.__class__ is Table:' in code


def test_equality_with_a_number_or_a_register_still_hoists_an_integer_guard():
    code = plain_form('local function f(n, m) if n == 0 then return m end return n + 1 end')
    assert 'if r0.__class__ is int:' in code
    code = plain_form('local function f(t, w) for _, v in ipairs(t[w]) do if v ~= w then return v end end end')
    assert 'if r1.__class__ is int and r0.__class__ is Table:' in code


def test_a_run_split_by_one_guard_has_its_general_copy_as_else():
    code = plain_form('local function f(p) local o = p.o local a = o.x + o.y o.z = a return a end')
    assert 'if r1.__class__ is Table:' in code
    assert not re_stage.search(code)


def test_a_run_split_by_two_guards_records_where_it_stopped():
    code = plain_form('local function f(p, q) local o, u = p.o, q.u local a = o.x + o.y o.z = a '
                      'local b = u.x + u.y u.z = b return a + b end')
    assert re_stage.search(code)


re_stage = re.compile(r'else: _s\d+ = \d+')


def test_nothing_follows_a_return_in_its_block():
    # Lua's code generator ends every function with ``RETURN 0``: after a
    # ``return`` of the last block it cannot run, nor after a tail call.
    assert 'return ()' not in plain_form('local function f(a) return a end')
    assert 'return ()' not in plain_form('local function f(g, x) return g(x) end')
    # Where a block's return is conditional, what follows it stays.
    code = plain_form('local function f(a) if a then return 1 end return 2 end')
    assert code.count('return r1') == 2


def test_a_generator_form_ending_in_a_return_stays_a_generator():
    import inspect
    tr = translate_chunk('local function f(a) return a end return f(1)', 'size.lua')
    for make in tr.generator_forms.values():
        stack = [compile(make()[0], 'gen', 'exec')]
        while stack:
            c = stack.pop()
            stack.extend(k for k in c.co_consts if inspect.iscode(k))
            if c.co_name.startswith('P'):
                assert c.co_flags & inspect.CO_GENERATOR


def test_the_renderer_drops_the_statements_after_an_exit_in_its_block():
    from pylua.compiler.translation.ir import Form, Line, Rendered
    leave = Line(2, 'return r0', 1)
    leave.exits = True
    rendered = Rendered()
    rendered.add([Line(1, 'if r0:', 1), leave, Line(2, 'r1 = 1', 2), Line(3, 'pass', 2),
                  Line(1, 'return ()', 3)], Form.PLAIN)
    assert rendered.text == ['    if r0:', '        return r0', '    return ()']
    assert rendered.lines == [0, 1, 1, 3]


def test_a_host_function_and_any_other_callee_share_the_result_statement():
    # The FN branch takes its result bare; every other callee leaves a
    # sequence in _R, read by one statement (behaviour against lua5.4:
    # fast_paths/call_site_callees.lua).
    code = plain_form('local function f(g, x) local r = g(x) return r end')
    assert code.count('r2 = _R[0] if _R else None') == 1
    code = plain_form('local function f(g, x) return {g(x)} end')
    assert code.count('T = _R if _R.__class__ is tuple else tuple(_R)') == 1


def test_guards_are_hoisted_only_where_they_spare_more_checks_than_their_own():
    # What the guard would tell is read once and nothing loops: one body.
    assert 'r0.__class__ is Table' not in plain_form('local function getx(self) return self.x end')
    # An integer guard is hoisted still: the general body tests arithmetic
    # on two unknown operands in one chained comparison, more than the guard.
    assert 'if r0.__class__ is int:' in plain_form('local function inc(n) return n + 1 end')
    # Read twice, or inside a loop: hoisted.
    assert 'if r0.__class__ is Table:' in plain_form('local function f(self) return self.x + self.y end')
    assert 'if r0.__class__ is int:' in plain_form('local function f(n) local s = 0 for i = 1, 3 do s = s + n end return s end')
