"""The Lua pattern engine (pylua.library.lpattern), called directly.

A compiled pattern runs either as a Python ``re`` translation or on the
port of lstrlib's matcher; the properties here check that both give the same
matches, captures and errors on random patterns and subjects, so every
pattern the translation accepts behaves as Lua's matcher.  Expected values
and messages are lua5.4 (5.4.4) output; test_string_props.py compares the
library with lua5.4 itself.
"""
import re

import pytest
from hypothesis import given, strategies as st

from pylua.library import lpattern
from pylua.runtime.errors import LuaError, LuaInterrupt


class FakeVM:
    """The VM slice the engine uses: the instruction counter, with an
    optional cancel after ``cancel_after`` counted steps."""

    def __init__(self, cancel_after=None):
        self.ticks = 0
        self.cancel_after = cancel_after

    def tickn(self, n):
        self.ticks += n
        if self.cancel_after is not None and self.ticks > self.cancel_after:
            raise LuaInterrupt('interrupted')


VM = FakeVM()


def own(p, anchor=True):
    """A pattern forced onto the own matcher."""
    pat = lpattern.Pattern(p, anchor)
    pat.re_max_len = -1
    pat.windowed = False
    return pat


class _AlwaysWindowed(lpattern.Pattern):
    __slots__ = ()

    def _runs_short(self, s, pos=0):
        return False


class _WindowedThenOneScan(lpattern.Pattern):
    __slots__ = ()

    def _runs_short(self, s, pos=0):
        return True


def windowed(p, anchor=True, then_one_scan=False):
    """A pattern forced to search in regex calls over windows of starts
    (``then_one_scan``: until ``iterate`` tests the rest's runs, which it
    then finds short)."""
    pat = (_WindowedThenOneScan if then_one_scan else _AlwaysWindowed)(p, anchor)
    if pat.regex is None or pat.anchored:
        return None
    pat.re_max_len = -1
    pat.windowed = True
    return pat


def outcome(fn):
    try:
        return ('ok', fn())
    except LuaError as e:
        return ('err', e.value)


def find(p, s, init=0, use_own=False):
    pat = own(p) if use_own else lpattern.compile(p)
    return pat.exec(VM, s, init)


def all_matches(pat, s, init=0):
    return list(pat.iterate(VM, s, init))


# ---------------------------------------------------------------- routing
@pytest.mark.parametrize('p', [
    '%d+', '(%w+)=(%w+)', '[^,]+', '^%s*(.-)%s*$', '%f[%w]%w+', '(a)%1', '()x()',
    '', '^', '$', 'a$b', '[]]', '[^]]', '[%a-]', '%z+', '(()a%2)', ('a?') * 199,
])
def test_translated_to_re(p):
    assert lpattern.compile(p).regex is not None


@pytest.mark.parametrize('p', [
    '%b()', 'a%', '[a', '(a', 'a)', '%1', '%ba', '%fa', ('a?') * 200, '(' * 33,
])
def test_left_to_own_matcher(p):
    assert lpattern.compile(p).regex is None


@pytest.mark.parametrize('p, degree, doublings', [
    ('abc', 1, 0), ('^a*', 1, 0), ('%d+', 2, 0), ('(%w+)%s*=%s*(%w+)', 2, 0), ('<(.-)>', 2, 0),
    ('(.-)=(.*)', 2, 0), ('^%s*(.-)%s*$', 2, 0), ('a*a*b', 3, 0), ('.-.-b', 3, 0),
    ('(.*)/(.*)/(.*)', 3, 0), ('a-a-a-a-b', 5, 0),
    # A '?' splits a run two ways only: a line reader is linear.
    ('^(.-)\r?\n()', 1, 1), ('a?a?a?b', 2, 2), ('a*a?b', 2, 1),
    # What starts at a later item and always matches (``.*$``) never backtracks.
    ('^(.-),(.-),(.-),(.*)$', 3, 0), ('^(.-),(.*)$', 1, 0),
])
def test_cost_model(p, degree, doublings):
    pat = lpattern.compile(p)
    c = lpattern.cost(pat.items, pat.anchored)
    assert (c.degree, c.doublings) == (degree, doublings)


def test_long_subjects_split_or_leave_re():
    heavy = lpattern.compile('a-a-a-a-b')
    assert heavy.regex_for('a' * 20) is not None
    assert heavy.regex_for('a' * 1000) is None and not heavy.windowed
    common = lpattern.compile('(%w+)%s*=%s*(%w+)')
    assert common.windowed
    short_runs = 'x ' * 500_000 + 'k = v'
    assert common.regex_for(short_runs) is common.regex
    assert common.regex_for('x' * 10 ** 6) is None
    assert common.exec(VM, short_runs, 0) == (10 ** 6, 10 ** 6 + 5, ('k', 'v'))
    long_run = 'x' * 5000 + ' k = v'      # quadratic, but in bounded calls
    assert common.regex_for(long_run) is None
    assert common.exec(VM, long_run, 0) == (5001, 5006, ('k', 'v'))


def test_the_first_of_many_matches_costs_what_it_scans():
    """``for w in s:gmatch("%a+") do ... break end`` on 900 KB: each
    iteration once tested the whole subject's runs before its first match,
    28 ms (lua5.4: 1 us); the windowed search starts at once."""
    import time
    word = lpattern.compile('%a+', anchor=False)
    subject = 'lorem ipsum dolor ' * 50000
    assert len(subject) > word.re_max_len and word.windowed
    started = time.process_time()
    for _ in range(1000):
        assert next(word.iterate(VM, subject, 0)) == (0, 5, ())
    assert time.process_time() - started < 1.0


def test_iterating_a_long_subject_to_its_end_finds_every_match():
    word = lpattern.compile('(%a+)', anchor=False)
    subject = 'lorem ipsum dolor ' * 20000
    found = list(word.iterate(VM, subject, 0))
    assert len(found) == 60000 and found[-1] == (len(subject) - 6, len(subject) - 1, ('dolor',))
    assert found == [(m.start(), m.end(), m.groups()) for m in re.finditer('([a-z]+)', subject)]


def test_runs_are_found_by_class():
    assert lpattern._has_run('ab  cd', [' '], 2, 0)
    assert not lpattern._has_run('ab  cd', [' '], 2, 3)
    assert not lpattern._has_run('a b c', [' ', 'abc'], 2, 0)
    assert lpattern._has_run('a b \xff\xffc', ['\xff'], 2, 0)


def test_an_anchored_split_along_short_runs_is_one_regex_call():
    """``^%s*(.-)%s*$`` (trim): its splits lie along runs of spaces, so on
    text with short ones a call costs the subject's length times the
    longest; past 4,472 bytes it went to the own matcher, 30 times
    slower."""
    trim = lpattern.compile('^%s*(.-)%s*$')
    assert trim.split_classes is not None
    text = '  ' + 'word ' * 20000 + '\n'
    assert len(text) > trim.re_max_len and trim.regex_for(text) is trim.regex
    assert trim.exec(VM, text, 0) == (0, len(text), (text.strip(),))
    spaced = 'x' + ' ' * 5000 + 'y' + ' ' * 5000      # long runs: left to the own matcher
    assert trim.regex_for(spaced) is None


def test_splits_at_separators_cost_their_matches():
    """``^(.-),(.-),...,(.*)$`` (fields of a line): each split of a field
    with the next lies at a comma, so a call costs the line's length times
    (commas + 1) per split; by the length alone it was degree 5, and lines
    past 29 bytes went to the own matcher, 50 times slower than lua5.4."""
    fields = lpattern.compile('^(.-),(.-),(.-),(.-),(.-),(.*)$')
    c = lpattern.cost(fields.items, fields.anchored)
    assert c.degree == 5 and c.separators == (',',) * 4
    line = ','.join('field number %d' % k for k in range(6))
    assert len(line) > fields.re_max_len and fields.regex_for(line) is fields.regex
    assert fields.exec(VM, line, 0) == (0, len(line), tuple(line.split(',', 5)))
    assert fields.regex_for(',' * 3000) is None          # many commas: the own matcher
    assert lpattern.cost(lpattern.compile('(.-)%s*,(.-)x').items, False).separators is None


def test_a_search_from_a_position_costs_what_it_scans():
    """A tokenizer's ``s:find("%a+", pos)`` on a long subject: each call
    once scanned the whole subject to decide whether one regex call was
    safe, so 8,000 finds over 36 KB took 9 s (lua5.4: 2 ms)."""
    import time
    word = lpattern.compile('%a+')
    subject = 'abc def, ' * 4000
    assert len(subject) > word.re_max_len and word.windowed
    started = time.process_time()
    pos, found = 0, []
    while (r := word.exec(VM, subject, pos)) is not None:
        found.append(r[:2])
        pos = r[1]
    assert len(found) == 8000 and found[:3] == [(0, 3), (4, 7), (9, 12)]
    assert time.process_time() - started < 1.5


def test_translation_uses_explicit_byte_sets():
    rx = lpattern.compile('%s%d%w.').regex
    assert not re.search(r'\\[sdwSDW]', rx.pattern)
    assert rx.flags & re.S
    assert lpattern.compile('a$').regex.pattern.endswith('\\Z')


# ---------------------------------------------------------- character classes
_ASCII = {
    'a': str.isalpha, 'd': str.isdigit, 'l': str.islower, 'u': str.isupper,
    'w': str.isalnum, 's': lambda c: c in ' \t\n\v\f\r',
    'x': lambda c: c in '0123456789abcdefABCDEF',
    'p': lambda c: c in '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
    'c': lambda c: ord(c) < 32 or ord(c) == 127,
    'g': lambda c: 33 <= ord(c) <= 126,
}


@pytest.mark.parametrize('cl', sorted(_ASCII))
def test_classes_are_c_locale(cl):
    for code in range(256):
        c = chr(code)
        inside = code < 128 and _ASCII[cl](c)
        assert (find('%' + cl, c) is not None) == inside, (cl, code)
        assert (find('%' + cl.upper(), c) is not None) == (not inside), (cl, code)
        assert (find('%' + cl, c, use_own=True) is not None) == inside, (cl, code)


@pytest.mark.parametrize('p, s, expected', [
    ('[a-c]+', 'xxabcd', (2, 5, ())),
    ('[%a-]+', 'x-y1', (0, 3, ())),     # '-' after a class is literal
    ('[a-]+', '-a-', (0, 3, ())),
    ('[]]', 'a]', (1, 2, ())),
    ('[^]]+', ']ab]', (1, 3, ())),
    ('[z-a]', 'za', None),               # a reversed range is empty
    ('[%]]', ']', (0, 1, ())),
    ('[\x80-\xff]+', 'a\xe9\xff', (1, 3, ())),
    ('%.', 'a.b', (1, 2, ())),
    ('%y', 'xy', (1, 2, ())),            # an escaped non-class letter is literal
    ('%z', 'a\0', (1, 2, ())),
    ('.', '\n', (0, 1, ())),
])
def test_sets(p, s, expected):
    assert find(p, s) == expected
    assert find(p, s, use_own=True) == expected


# ------------------------------------------------------ matching semantics
@pytest.mark.parametrize('p, s, init, expected', [
    ('l+', 'hello', 0, (2, 4, ())),
    ('l-', 'hello', 0, (0, 0, ())),
    ('l-o', 'hello', 0, (2, 5, ())),
    ('a?b', 'ab', 0, (0, 2, ())),
    ('^b', 'ab', 0, None),
    ('^b', 'ab', 1, (1, 2, ())),         # '^' anchors at the initial position
    ('a^', 'a^', 0, (0, 2, ())),         # '^' elsewhere is literal
    ('a$b', 'a$b', 0, (0, 3, ())),       # '$' elsewhere is literal
    ('$', 'ab\n', 0, (3, 3, ())),        # '$' is the real end, not before '\n'
    ('*a', '*a', 0, (0, 2, ())),         # a leading quantifier is literal
    ('(%w+)=(%w+)', 'k=v', 0, (0, 3, ('k', 'v'))),
    ('()ll()', 'hello', 0, (2, 4, (3, 5))),
    ('(a(b)c)', 'abc', 0, (0, 3, ('abc', 'b'))),
    ('(abc)%1', 'xabcabc', 0, (1, 7, ('abc',))),
    ('()%1', 'x', 0, None),              # a position capture never matches as %1
    ('%b()', 'f(a(b)c)d', 0, (1, 8, ())),
    ('%b()', 'f(a(b', 0, None),
    ('%bxx', 'axbxc', 0, (1, 4, ())),
    ('%f[%a]%a+', '12 abc', 0, (3, 6, ())),
    ('%f[%z]', 'ab', 0, (2, 2, ())),     # the frontier sees '\0' past the end
    ('%f[%A]', 'ab', 0, (2, 2, ())),
    ('%f[a]', 'ba', 1, (1, 1, ())),      # looks at the byte before init
    ('^%s*(.-)%s*$', '  x y  ', 0, (0, 7, ('x y',))),
])
def test_exec(p, s, init, expected):
    assert find(p, s, init) == expected
    assert find(p, s, init, use_own=True) == expected


def test_gmatch_does_not_anchor():
    pat = lpattern.compile('^a', anchor=False)
    assert all_matches(pat, '^a^a') == [(0, 2, ()), (2, 4, ())]


@pytest.mark.parametrize('p, s, spans', [
    ('', 'abc', [(0, 0), (1, 1), (2, 2), (3, 3)]),
    ('%w*', 'ab cd', [(0, 2), (3, 5)]),              # no empty match right after one
    ('b*', 'abc', [(0, 0), (1, 2), (3, 3)]),
    ('[^,]*', 'a,,b', [(0, 1), (2, 2), (3, 4)]),
    ('%a+', 'hi there', [(0, 2), (3, 8)]),
])
def test_iterate_follows_lua(p, s, spans):
    for pat in (lpattern.compile(p, anchor=False), own(p, anchor=False)):
        assert [(a, b) for a, b, _ in all_matches(pat, s)] == spans


def test_iterate_anchored_stops_after_one_attempt():
    assert [m[:2] for m in all_matches(lpattern.compile('^a'), 'aaa')] == [(0, 1)]
    assert all_matches(lpattern.compile('^b'), 'ab') == []


# ----------------------------------------------------------------- errors
@pytest.mark.parametrize('p, s, message', [
    ('%', 'a', "malformed pattern (ends with '%')"),
    ('a%', 'a', "malformed pattern (ends with '%')"),
    ('[a', 'a', "malformed pattern (missing ']')"),
    ('[%', 'a', "malformed pattern (missing ']')"),
    ('[^', 'a', "malformed pattern (missing ']')"),
    ('a)', 'a', 'invalid pattern capture'),
    ('%1', 'a', 'invalid capture index %1'),
    ('(a%1)', 'aa', 'invalid capture index %1'),
    ('%0', 'a', 'invalid capture index %0'),
    ('()%2', 'a', 'invalid capture index %2'),
    ('%b', 'a', "malformed pattern (missing arguments to '%b')"),
    ('%ba', 'a', "malformed pattern (missing arguments to '%b')"),
    ('%f', 'a', "missing '[' after '%f' in pattern"),
    ('%fa', 'a', "missing '[' after '%f' in pattern"),
    ('%f[a', 'a', "malformed pattern (missing ']')"),
    ('()' * 33, 'a', 'too many captures'),
    ('a?' * 200, 'a' * 300, 'pattern too complex'),
])
def test_error_messages(p, s, message):
    assert outcome(lambda: find(p, s)) == ('err', message)


@pytest.mark.parametrize('p, s, expected', [
    ('a%', '', None), ('a%', 'b', None), ('x[a', 'abc', None), ('b)', 'aaa', None),
    ('b%1', 'a', None), ('a?' * 250, 'b' * 300, (0, 0, ())),
])
def test_errors_only_where_matching_reaches(p, s, expected):
    # Lua checks a pattern while matching it: an unreached flaw is no error.
    assert find(p, s) == expected


def test_depth_limit_is_lua_s():
    assert find('a?' * 199, 'a' * 300) == (0, 199, ())
    assert outcome(lambda: find('a?' * 200, 'a' * 300)) == ('err', 'pattern too complex')


def test_unfinished_capture_is_marked():
    start, end, caps = find('(a', 'a')
    assert caps == (lpattern.UNFINISHED,)
    assert outcome(lambda: lpattern.check_captures(caps)) == ('err', 'unfinished capture')


def test_specials():
    assert not lpattern.has_specials('a)b]c')
    for c in '^$*+?.([%-':
        assert lpattern.has_specials('x' + c)


# ------------------------------------------------------- limits and cancel
def test_own_matcher_counts_its_work():
    vm = FakeVM()
    own('%b()').exec(vm, '(' + 'x' * 100_000, 0)
    assert vm.ticks >= 100_000
    vm = FakeVM()
    own('a-a-b').exec(vm, 'a' * 100, 0)
    assert vm.ticks >= 100 * 100 // 2


def test_re_path_counts_scanned_bytes():
    vm = FakeVM()
    lpattern.compile('%d+').exec(vm, 'x' * 10000, 0)
    assert vm.ticks >= 10000


def test_backtracking_blowup_is_cancelled():
    vm = FakeVM(cancel_after=200_000)
    with pytest.raises(LuaInterrupt):
        lpattern.compile('.-.-.-.-b').exec(vm, 'a' * 3000, 0)


def test_cache_is_bounded():
    for k in range(lpattern._CACHE_MAX + 50):
        lpattern.compile('x%d' % k)
    assert len(lpattern._CACHE) <= lpattern._CACHE_MAX
    big = 'a' * (lpattern._CACHE_KEY_MAX + 1)
    lpattern.compile(big)
    assert (big, True) not in lpattern._CACHE


# ------------------------------------------------------------- properties
_ATOMS = ['a', 'b', '.', '%a', '%d', '%s', '%w', '%p', '%A', '%S', '[ab]', '[^a]',
          '[a-c]', '[%d_]', '[]a]', '%.', ' ', '\xe9', '\0', '-', '1']
_QUANT = ['', '', '*', '+', '-', '?']
_piece = st.one_of(
    st.tuples(st.sampled_from(_ATOMS), st.sampled_from(_QUANT)).map(''.join),
    st.tuples(st.sampled_from(_ATOMS), st.sampled_from(_QUANT)).map(lambda t: '(' + ''.join(t) + ')'),
    st.sampled_from(['()', '(', ')', '%1', '%2', '%f[%a]', '%f[^%w]', '%f[%z]', '$', '^',
                     '%', '[a', '%b', '%bab']),
)
patterns = st.tuples(st.sampled_from(['', '^']), st.lists(_piece, max_size=6).map(''.join),
                     st.sampled_from(['', '$'])).map(''.join)
subjects = st.text(alphabet='aab 1.\n\xe9_-\0', max_size=16)


def _results(pat, s):
    out = []
    for init in range(len(s) + 1):
        out.append(outcome(lambda: pat.exec(VM, s, init)))
    out.append(outcome(lambda: list(pat.iterate(VM, s, 0))))
    return out


@given(patterns, subjects)
def test_re_translation_agrees_with_own_matcher(p, s):
    for anchor in (True, False):
        pat = lpattern.Pattern(p, anchor)
        if pat.regex is None:
            continue
        assert _results(pat, s) == _results(own(p, anchor), s)


@given(patterns, st.text(alphabet='aab 1.\n\xe9_-\0', max_size=60), st.booleans())
def test_windowed_search_agrees_with_own_matcher(p, s, then_one_scan):
    pat = windowed(p, then_one_scan=then_one_scan)
    if pat is None:
        return
    saved = lpattern._RE_BUDGET
    lpattern._RE_BUDGET = 1          # windows of 16 starts
    try:
        assert _results(pat, s) == _results(own(p), s)
    finally:
        lpattern._RE_BUDGET = saved


@given(st.lists(st.sampled_from(['a', 'a*', 'a-', 'a?', 'a+', '.-', '(a*)', '%1']), max_size=5)
       .map(''.join), st.integers(0, 30))
def test_backtracking_agrees_on_runs(p, n):
    s = 'a' * n + 'b'
    pat = lpattern.Pattern(p + 'b', True)
    if pat.regex is not None:
        assert _results(pat, s) == _results(own(p + 'b'), s)


@pytest.mark.parametrize('pattern', ['a' * 50000 + 'b', '[a%d]' * 50000, '%a' * 50000, '[^x]-' * 50000])
def test_a_big_pattern_adds_nothing_python_s_collector_walks(pattern):
    """Items hold strings only, so the collector untracks them: a pattern
    of millions of items costs a full collection nothing."""
    import gc
    gc.collect()
    before = len(gc.get_objects())
    pat = lpattern.Pattern(pattern, True)
    gc.collect()
    assert len(pat.items) > 50000
    assert len(gc.get_objects()) - before < 1000


@given(patterns, subjects)
def test_an_anchored_pattern_s_first_character_test_changes_no_result(p, s):
    pat = lpattern.Pattern(p, True)
    unfiltered = lpattern.Pattern(p, True)
    unfiltered.first = None
    assert _results(pat, s) == _results(unfiltered, s)


class _CountingVM:
    """Takes a matcher's counts of its work."""
    def __init__(self):
        self.steps = 0

    def tickn(self, n):
        self.steps += n


def _failure_steps(p, s):
    vm = _CountingVM()
    assert lpattern.Pattern(p, True).exec(vm, s, 0) is None
    return vm.steps


@pytest.mark.parametrize('p, filtered', [
    ('^%d+', True), ('^(%d)', True), ('^[%a_][%w_]*', True), ('^%-%-', True), ('^()a', True), ('^ab*c', True),
    ('^%d*', False), ('^a?', False), ('^a-b', False), ('^%f[%w]', False), ('^%bxy', False), ('%d', False),
])
def test_an_anchored_failure_at_its_first_character_counts_one_step(p, filtered):
    # A tokenizer's s:find("^%d+", pos) at a letter of a long subject: the
    # match fails there, not after scanning (nor counting) the rest.
    assert (lpattern.Pattern(p, True).first is not None) is filtered
    if filtered:
        assert _failure_steps(p, '!' + 'x' * 100000) == 1


def test_an_anchored_pattern_s_leading_characters_are_tested_together():
    assert _failure_steps('^%-%-', '-x' + 'x' * 100000) == 1
