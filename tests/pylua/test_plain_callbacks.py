"""Calls the VM makes on Lua's C stack (pcall, xpcall, metamethods, library
callbacks) run the callee's plain form where nothing can suspend it (a run
no host effect passes, outside any coroutine or where a yield is refused):
its generator form is never made.  Where something can suspend (a
coroutine's pcall, a run answering host effects) the generator form runs."""
import pytest

from pylua import Effect, GenBuiltin, LuaRuntime

CALLERS = {
    'pcall': 'pcall(f, 1)',
    'xpcall': 'xpcall(f, print, 1)',
    'sort': 'table.sort({3, 1, 2}, function(a, b) f(1) return a < b end)',
    'gsub': 'string.gsub("ab", "%w", function() f(1) end)',
    'index': 'local _ = setmetatable({}, {__index = function() return f(1) end}).x',
    'tostring': 'tostring(setmetatable({}, {__tostring = function() f(1) return "s" end}))',
    'nested pcall': 'pcall(pcall, f, 1)',
}


def made_generator_form(src, run=False, inner='return x'):
    """Run ``src`` (a call reaching ``f``) and answer whether ``f``'s
    generator form was made."""
    rt = LuaRuntime()
    rt.vm.globals.set_str('ask', GenBuiltin(_ask, 'ask'))
    chunk = 'local function f(x) %s end\n%s\nreturn f' % (inner, src)
    if run:
        gen = rt.run(chunk)
        try:
            effect = next(gen)
            while True:
                effect = gen.send(effect.payload[1] * 10)
        except StopIteration as stop:
            f = stop.value[0]
    else:
        f = rt.execute(chunk).raw
    return hasattr(f, 'gen')


def _ask(*args):
    answer = yield Effect(('ask',) + args)
    return (answer,)


@pytest.mark.parametrize('caller', sorted(CALLERS))
def test_outside_coroutines_the_callee_runs_its_plain_form(caller):
    assert not made_generator_form(CALLERS[caller])


@pytest.mark.parametrize('caller', ['gsub', 'sort', 'tostring'])
def test_inside_a_coroutine_where_yields_are_refused_too(caller):
    assert not made_generator_form('coroutine.wrap(function() %s end)()' % CALLERS[caller])


@pytest.mark.parametrize('caller', ['pcall', 'xpcall', 'index'])
def test_a_coroutine_s_protected_calls_and_metamethods_can_suspend(caller):
    assert made_generator_form('coroutine.wrap(function() %s end)()' % CALLERS[caller])


def test_in_a_run_host_effects_pass_pcall_and_library_callbacks():
    assert made_generator_form(CALLERS['pcall'], run=True, inner='return ask(x)')
    rt = LuaRuntime()
    rt.vm.globals.set_str('ask', GenBuiltin(_ask, 'ask'))
    gen = rt.run('local r = {} string.gsub("ab", "%w", function(c) r[#r + 1] = ask(c) end)\n'
                 'local ok, v = pcall(ask, 2) return r[1], r[2], ok, v')
    effect, answers = next(gen), []
    try:
        while True:
            answers.append(effect.payload[1])
            effect = gen.send(str(effect.payload[1]) * 2)
    except StopIteration as stop:
        assert stop.value == ('aa', 'bb', True, '22')
    assert answers == ['a', 'b', 2]


def test_a_yield_in_a_plain_callback_is_an_error_a_pcall_there_catches():
    rt = LuaRuntime()
    assert rt.execute('return pcall(coroutine.yield, 1)') == (False, 'attempt to yield from outside a coroutine')
    assert rt.execute('''
        return coroutine.wrap(function()
          local r
          table.sort({2, 1}, function(a, b) r = {pcall(coroutine.yield)} return a < b end)
          return r[1], r[2]
        end)()''') == (False, 'attempt to yield across a C-call boundary')


def test_the_c_stack_depth_is_given_back_after_a_plain_callback():
    rt = LuaRuntime()
    assert rt.execute('''
        local function depth()
          local n = 0
          local function r() n = n + 1; pcall(r) end
          pcall(r)
          return n
        end
        local before = depth()
        for i = 1, 5 do pcall(error, "x"); pcall(string.gsub, "a", "a", error) end
        return before, depth()''') == (197, 197)
    assert rt.vm.c_calls == 0 and rt.vm.no_yield == 0 and rt.vm.synchronous == 0
