"""check_cost's two kinds: the code compiled without the checks has none of
them (no budget count, loop countdown or ``nonlocal LAPS``) and otherwise
the same code; switching back restores the shipped translator."""
import re

from benchmarks import check_cost
from pylua.compiler.pipeline import translate_chunk

# A call, a while loop, a generic for over ipairs, a short numeric for, a
# loop with a long body and a jump back.
SOURCE = '''
local function f(n) if n < 2 then return n end return f(n - 1) + 1 end
local t, s, i = {1, 2, 3}, 0, 0
while i < 3 do i = i + 1 end
for _, v in ipairs(t) do s = s + v end
for j = 1, 10 do s = s + j end
while i < 6 do i = i + 1 s = s + i * 2 + i * 3 + i * 4 + i * 5 + i * 6 + i * 7 + i * 8 + i * 9 end
local function g(n) ::top:: n = n - 1 if n > 0 then goto top end return n end
return f(3) + s + g(3)'''
CHECKS = re.compile(r'TICK|LAPS|LAPIT|COMPRESS')
# A short loop counted by its own iteration (the VM's LAPIT iterators): the
# loop's head is what changes, not a line of its own.
LAP_HEADS = [(re.compile(r'for _lap in LAPIT\d:'), 'while True:'), (re.compile(r'COMPRESS\((\w+), LAPIT\d\)'), r'\1')]
_TEMPORARY = re.compile(r'\b_([a-z])\d+\b')
HEADER = 'DEBT = DIRECT_TAILS = LAPS = 0'    # the module's cells, bound to the VM's


def _python(kinds, kind):
    kinds.use(kind)
    try:
        source = translate_chunk(SOURCE, 'kinds.lua').source
    finally:
        kinds.use('with')
    # Each chunk translated is numbered (F<chunk>_<function>).
    return re.sub(r'\b([FGQP])\d+_', r'\1_', source).replace(HEADER, '')


def test_without_the_checks_no_check_is_emitted_and_nothing_else_changes():
    kinds = check_cost._Kinds()
    with_ = _python(kinds, 'with')
    without = _python(kinds, 'without')
    assert _python(kinds, 'with') == with_                           # switched back
    # The short for's, the calls', the long loops' and the jump back's in
    # LAPS; the short loops' by their iteration over LAPIT.
    assert len(re.findall(r'LAPS -= _n\d+ \+ 1', with_)) >= 1
    assert len(re.findall(r'LAPS -= ', with_)) >= 5
    assert len(re.findall(r'in LAPIT\d:', with_)) >= 2 and 'COMPRESS(' in with_
    assert 'nonlocal LAPS' in with_
    assert not CHECKS.search(without)
    # Dropping the lines of the checks from the checked code gives the other.
    # (The translator's temporaries are numbered in order: no countdown, other numbers.)
    for head, plain in LAP_HEADS:
        with_ = head.sub(plain, with_)
    kept = '\n'.join(line for line in with_.splitlines() if not CHECKS.search(line))
    assert _TEMPORARY.sub(r'_\1', kept) == _TEMPORARY.sub(r'_\1', without.rstrip('\n'))


def test_each_kind_s_compile_cache_counts_its_own_source():
    # One count shared by the swapped caches made the shipped cache drop
    # what it had just compiled once the other kind's source filled it.
    from pylua.compiler import pipeline
    kinds = check_cost._Kinds()
    try:
        for n in range(40):
            for kind in check_cost.KINDS:
                kinds.use(kind)
                pipeline.compile_lua('return %d -- %s' % (n, 'x' * 2000), '=cache')
    finally:
        kinds.use('with')
    for cache in kinds.caches.values():
        assert cache.source_bytes == sum(len(key[0]) for key in cache) <= pipeline._CACHE_BYTES
