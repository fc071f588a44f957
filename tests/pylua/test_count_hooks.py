"""Count hooks (``debug.sethook(f, "", n)``) count about one event per Lua
instruction: loops count one per iteration, as in Lua, within the bounds
the official db.lua sets."""
from __future__ import annotations

from pylua import LuaRuntime


def _counts(source):
    rt = LuaRuntime(profile='standalone')
    return rt.execute(source)


def test_numeric_for_counts_one_event_per_iteration():
    every_one, every_four = _counts('''
        local a = 0
        debug.sethook(function () a = a + 1 end, "", 1)
        a = 0; for i = 1, 1000 do end; local ones = a
        debug.sethook(function () a = a + 1 end, "", 4)
        a = 0; for i = 1, 1000 do end; local fours = a
        debug.sethook()
        return ones, fours''')
    assert 1000 < every_one < 1012          # lua5.4: 1006
    assert 250 < every_four < 255           # lua5.4: 251


def test_a_count_larger_than_the_work_fires_nothing():
    assert _counts('''
        local a = 0
        debug.sethook(function () a = a + 1 end, "", 4000)
        for i = 1, 1000 do end
        debug.sethook()
        return a''') == 0


def test_loop_bodies_count_their_instructions_and_the_loop():
    # lua5.4 counts 303: a compare, an add and the jump back per iteration.
    n = _counts('''
        local a = 0
        debug.sethook(function () a = a + 1 end, "", 1)
        local i = 0
        while i < 100 do i = i + 1 end
        debug.sethook()
        return a''')
    assert 300 <= n <= 520
