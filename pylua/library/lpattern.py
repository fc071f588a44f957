"""Lua 5.4 patterns (manual §6.4.1): compiled once, matched fast.

A pattern is parsed into a list of items, the same steps lstrlib's ``match``
walks through.  When the pattern is well formed and uses only what Python's
``re`` expresses with the same meaning, it is also translated to a compiled
regex: Lua's matcher is a backtracking search over single-character items
with greedy ``* + ?`` and lazy ``-``, which is exactly what ``re`` does for
the translated pattern, so both find the same match with the same captures.
Everything else (``%b``, malformed patterns whose errors Lua raises only when
matching reaches them, patterns deeper than Lua's recursion limit) goes to a
port of lstrlib's matcher, which counts its work with ``vm.tickn``.

A regex call cannot be cancelled, so each pattern also gets an estimate of
its worst-case backtracking.  On a subject long enough for that to exceed a
budget, a search whose cost is linear per start position runs as regex
calls that each try a window of start positions; costlier patterns run on
the own matcher, which checks for cancel as it goes.

Strings are the internal str-of-bytes form; character classes are the C
locale's, so bytes >= 128 belong to no class but their complements.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from ..runtime import state
from ..runtime.frames import rt_error

MAXCAPTURES = 32      # LUA_MAXCAPTURES
MAXCCALLS = 200       # lstrlib's recursion limit for 'match'

# Own-matcher work between two vm.tickn calls.
_TICK_EVERY = 4096
# Patterns with more items are left to the own matcher: compiling a huge
# regex is one long call nothing can interrupt.
_RE_ITEMS_MAX = 4096

# The most backtracking steps (estimated, worst case) one regex call may
# take: a call cannot be cancelled, so longer work is split into calls or
# left to the own matcher, which checks for cancel as it goes.
_RE_BUDGET = 2 * 10 ** 7

# A character set is the string of its member bytes in order: ``c in cs``
# tests a byte, and an item holding only strings is no object Python's
# collector tracks, so a pattern of millions of items costs its full
# collections nothing (a frozenset per item made a 2 MB pattern's parse
# two million objects, walked in collections of 100 ms and more).
_ALL = ''.join(map(chr, range(256)))


def _charset(members) -> str:
    """The set of the bytes in ``members`` (any iterable of bytes)."""
    return ''.join(sorted(set(members)))


def _complement(cs: str) -> str:
    return ''.join(c for c in _ALL if c not in cs)


def _ctype(pred) -> str:
    return ''.join(chr(c) for c in range(256) if pred(c))


def _isalpha(c):
    return 65 <= c <= 90 or 97 <= c <= 122


def _isdigit(c):
    return 48 <= c <= 57


def _isgraph(c):
    return 33 <= c <= 126


# C-locale ctype tables, keyed by the lower-case class letter.
_CLASSES = {
    'a': _ctype(_isalpha),
    'c': _ctype(lambda c: c < 32 or c == 127),
    'd': _ctype(_isdigit),
    'g': _ctype(_isgraph),
    'l': _ctype(lambda c: 97 <= c <= 122),
    'p': _ctype(lambda c: _isgraph(c) and not _isalpha(c) and not _isdigit(c)),
    's': _ctype(lambda c: 9 <= c <= 13 or c == 32),
    'u': _ctype(lambda c: 65 <= c <= 90),
    'w': _ctype(lambda c: _isalpha(c) or _isdigit(c)),
    'x': _ctype(lambda c: _isdigit(c) or 65 <= c <= 70 or 97 <= c <= 102),
    'z': '\0',             # deprecated in Lua 5.2 but still accepted
}


def class_set(cl: str) -> str:
    """The bytes ``%cl`` matches (lstrlib's match_class)."""
    s = _CLASSES.get(cl.lower())
    if s is None:
        return cl                     # an escaped literal such as '%.'
    return s if 'a' <= cl <= 'z' else _COMPLEMENTS[cl.lower()]


_COMPLEMENTS = {k: _complement(v) for k, v in _CLASSES.items()}


# ----------------------------------------------------------------- parsing
# Item kinds.  Items are tuples whose first element is the kind.
CHAR = 0        # (CHAR, charset, quantifier '' * + - ?)
OPEN = 1        # (OPEN, is_position_capture)
CLOSE = 2       # (CLOSE, capture index)
ENDANCHOR = 3   # (ENDANCHOR,)  '$' as the last pattern character
BALANCE = 4     # (BALANCE, open char, close char)
FRONTIER = 5    # (FRONTIER, charset)
BACKREF = 6     # (BACKREF, capture index)
ERROR = 7       # (ERROR, message) raised when matching reaches it
END = 8         # (END,)

_SPECIAL_QUANT = '*+-?'


def _classend(p: str, i: int):
    """Index just after the single-char class at ``i``, or an error message."""
    n = len(p)
    c = p[i]
    i += 1
    if c == '%':
        if i >= n:
            return "malformed pattern (ends with '%')"
        return i + 1
    if c == '[':
        if i < n and p[i] == '^':
            i += 1
        while True:   # the first character after '[' or '[^' is never the end
            if i >= n:
                return "malformed pattern (missing ']')"
            c = p[i]
            i += 1
            if c == '%' and i < n:
                i += 1
            if i < n and p[i] == ']':
                return i + 1
    return i


def _bracket_set(p: str, i: int, ec: int) -> str:
    """The bytes the set ``p[i:ec+1]`` ('[' ... ']') matches (matchbracketclass)."""
    members = set()
    positive = True
    if p[i + 1] == '^':
        positive = False
        i += 1
    i += 1
    while i < ec:
        c = p[i]
        if c == '%':
            i += 1
            members.update(class_set(p[i]))
        elif p[i + 1] == '-' and i + 2 < ec:
            members.update(map(chr, range(ord(c), ord(p[i + 2]) + 1)))
            i += 2
        else:
            members.add(c)
        i += 1
    return _charset(members) if positive else _complement(members)


def _single_set(p: str, i: int, ep: int) -> str:
    c = p[i]
    if c == '.':
        return _ALL
    if c == '%':
        return class_set(p[i + 1])
    if c == '[':
        return _bracket_set(p, i, ep - 1)
    return c


def parse(p: str, i: int = 0) -> list:
    """Items of pattern ``p`` from index ``i``, ending with END or ERROR.

    Lua checks a pattern while matching it, so a malformed part is an ERROR
    item that raises only if a match attempt gets that far; capture levels
    at each item are known statically because matching walks the pattern
    left to right.
    """
    items = []
    n = len(p)
    open_caps = []          # indices of captures not yet closed
    level = 0
    while i < n:
        if len(items) & 1023 == 1023:       # one instruction per item parsed
            state.count_work(1024 * state.WORK_BYTES)
        c = p[i]
        if c == '(':
            if level >= MAXCAPTURES:
                items.append((ERROR, 'too many captures'))
                return items
            is_pos = i + 1 < n and p[i + 1] == ')'
            items.append((OPEN, is_pos))
            if not is_pos:
                open_caps.append(level)
            level += 1
            i += 2 if is_pos else 1
            continue
        if c == ')':
            if not open_caps:
                items.append((ERROR, 'invalid pattern capture'))
                return items
            items.append((CLOSE, open_caps.pop()))
            i += 1
            continue
        if c == '$' and i + 1 == n:
            items.append((ENDANCHOR,))
            i += 1
            continue
        if c == '%' and i + 1 < n:
            d = p[i + 1]
            if d == 'b':
                if i + 2 >= n - 1:
                    items.append((ERROR, "malformed pattern (missing arguments to '%b')"))
                    return items
                items.append((BALANCE, p[i + 2], p[i + 3]))
                i += 4
                continue
            if d == 'f':
                i += 2
                if i >= n or p[i] != '[':
                    items.append((ERROR, "missing '[' after '%f' in pattern"))
                    return items
                ep = _classend(p, i)
                if ep.__class__ is str:
                    items.append((ERROR, ep))
                    return items
                items.append((FRONTIER, _bracket_set(p, i, ep - 1)))
                i = ep
                continue
            if '0' <= d <= '9':
                l = ord(d) - ord('1')
                if l < 0 or l >= level or l in open_caps:
                    items.append((ERROR, 'invalid capture index %%%d' % (l + 1)))
                    return items
                items.append((BACKREF, l))
                i += 2
                continue
        ep = _classend(p, i)
        if ep.__class__ is str:
            items.append((ERROR, ep))
            return items
        cs = _single_set(p, i, ep)
        if ep < n and p[ep] in _SPECIAL_QUANT:
            items.append((CHAR, cs, p[ep]))
            i = ep + 1
        else:
            items.append((CHAR, cs, ''))
            i = ep
    items.append((END,))
    return items


# ----------------------------------------------------------- re translation
def charset_re(cs: str) -> str:
    """A regex character class matching exactly the bytes in ``cs``."""
    if len(cs) == 256:
        return '.'                                   # compiled with DOTALL
    if len(cs) == 1:
        (c,) = cs
        return c if c.isalnum() and c < '\x80' else '\\x%02x' % ord(c)
    negate = len(cs) > 128
    codes = [ord(c) for c in (_complement(cs) if negate else cs)]
    out = []
    j = 0
    while j < len(codes):
        k = j
        while k + 1 < len(codes) and codes[k + 1] == codes[k] + 1:
            k += 1
        out.append('\\x%02x' % codes[j] if j == k else '\\x%02x-\\x%02x' % (codes[j], codes[k]))
        j = k + 1
    if not out:
        return '[^\\x00-\\xff]'                      # matches no byte
    return ('[^' if negate else '[') + ''.join(out) + ']'


def _frontier_re(cs: str) -> str:
    # Lua sees '\0' before the subject and after its end.
    inside = charset_re(cs)
    outside = charset_re(_complement(cs))
    before = '(?<=%s)' % outside if '\0' in cs else '(?<!%s)' % inside
    after = '(?!%s)' % outside if '\0' in cs else '(?=%s)' % inside
    return before + after


_RE_QUANT = {'': '', '*': '*', '+': '+', '-': '*?', '?': '?'}


def _translate(items: list, poscaps: frozenset, shift: int = 0) -> str:
    """The regex for ``items`` (to compile with DOTALL); ``shift`` is the
    number of groups the regex will have before these items' own."""
    out = []
    for it in items:
        k = it[0]
        if k == CHAR:
            out.append(charset_re(it[1]) + _RE_QUANT[it[2]])
        elif k == OPEN:
            out.append('()' if it[1] else '(')
        elif k == CLOSE:
            out.append(')')
        elif k == ENDANCHOR:
            out.append('\\Z')
        elif k == FRONTIER:
            out.append(_frontier_re(it[1]))
        elif k == BACKREF:
            # A back-reference to a position capture never matches in Lua.
            out.append('(?!)' if it[1] in poscaps else '(?:\\%d)' % (it[1] + 1 + shift))
    return ''.join(out)


def _universal(items: list, j: int) -> bool:
    """Whether ``items[j:]`` match at every position, so that nothing before
    them ever backtracks because they failed."""
    spans_all = False        # some item can eat the rest of any subject
    for it in items[j:]:
        k = it[0]
        if k == CHAR:
            if it[2] not in ('*', '-', '?'):
                return False
            if len(it[1]) == 256 and it[2] != '?':
                spans_all = True
        elif k == END:
            return True
        elif k == ENDANCHOR:
            return spans_all
        elif k not in (OPEN, CLOSE):
            return False
    return False


# What backtracking may try of a quantified item's run with later items
# (``_split``): a '?' takes part, one byte or none, so two ways only.
ONE_BYTE_SPLIT = '?'


class Split(NamedTuple):
    """A quantified item's run that backtracking may split with later
    items' runs: along runs of ``classes``; where a single-byte item of
    class ``separator`` lies between them, only where that matches (the
    ``,`` of ``(.-),(.-)``), else None."""
    classes: tuple
    separator: str | None


def _split(items: list, j: int):
    """How backtracking may split the run of quantified item ``j`` with
    later quantified items: where what follows ``j`` can fail, they share
    bytes, what starts at the later one can fail too, and no single-byte
    item outside ``j``'s class in between fixes where ``j``'s run ends.
    None when it cannot; ``ONE_BYTE_SPLIT`` when only a '?' takes part;
    else a ``Split``."""
    if _universal(items, j + 1):
        return None              # what follows never fails: no backtracking
    cs_set = frozenset(items[j][1])
    classes = []
    one_byte = False
    separator = None
    for i in range(j + 1, len(items)):
        it = items[i]
        k = it[0]
        if k == CHAR:
            if it[2]:
                if not cs_set.isdisjoint(it[1]) and not _universal(items, i):
                    if it[2] == '?':
                        one_byte = True
                    else:
                        classes.append(it[1])
            elif cs_set.isdisjoint(it[1]):
                break
            elif separator is None and not classes and not one_byte:
                separator = it[1]
        elif k in (BALANCE, BACKREF):
            classes.append(_ALL)     # as long as a capture or a balanced run: any
            break
        elif k in (ENDANCHOR, END, ERROR):
            break
    if items[j][2] == '?' and (classes or one_byte):
        return ONE_BYTE_SPLIT
    if classes:
        return Split(tuple(classes), separator)
    return ONE_BYTE_SPLIT if one_byte else None


class Cost(NamedTuple):
    """The worst-case number of backtracking steps of a regex call on an
    ``n``-byte subject: ``n ** degree * 2 ** doublings``."""
    degree: int
    doublings: int
    # Of an anchored pattern whose one long split is with items of these
    # classes: the steps are at most n times their longest run (else None).
    split_classes: tuple | None
    # When every long split has a separator, theirs: a split then costs
    # (its separator's matches + 1) in place of n (else None).
    separators: tuple | None


def cost(items: list, anchored: bool) -> Cost:
    """The exponent of the subject length: one for the start positions of
    an unanchored search, one for a run an item may scan from each start,
    one more for each item whose run may be split with a later one's run;
    and a doubling for each split with a '?'."""
    quantified = [j for j, it in enumerate(items) if it[0] == CHAR and it[2]]
    splits = [s for s in (_split(items, j) for j in quantified) if s is not None]
    runs = [s for s in splits if s is not ONE_BYTE_SPLIT]
    degree = (0 if anchored else 1) + (1 if quantified else 0) + len(runs)
    bounded = anchored and degree == 2 and all(len(c) < 256 for c in runs[0].classes)
    separated = bool(runs) and all(s.separator is not None for s in runs)
    return Cost(degree, len(splits) - len(runs), runs[0].classes if bounded else None,
                tuple(s.separator for s in runs) if separated else None)


# ------------------------------------------------------------- own matcher
_CAP_UNFINISHED = -1
_CAP_POSITION = -2


class _Unfinished:
    """Marks a capture still open when the match ended; using it is Lua's
    ``unfinished capture`` error."""
    __slots__ = ()

    def __repr__(self):
        return 'UNFINISHED'


UNFINISHED = _Unfinished()


def check_captures(caps):
    """Raise Lua's error if a capture that is about to be used is unfinished."""
    for c in caps:
        if c is UNFINISHED:
            rt_error('unfinished capture')
    return caps


class _State:
    __slots__ = ('items', 'runs', 'subj', 'n', 'depth', 'level', 'cstart', 'clen',
                 'steps', 'vm')


def _do_match(st: _State, s: int, i: int):
    """lstrlib's ``match``: the end of a match of items[i:] at ``s``, or None."""
    if st.depth == 0:
        rt_error('pattern too complex')
    st.depth -= 1
    items = st.items
    subj = st.subj
    n = st.n
    while True:
        st.steps += 1
        if st.steps >= _TICK_EVERY:
            st.vm.tickn(st.steps)
            st.steps = 0
        it = items[i]
        k = it[0]
        if k == CHAR:
            cs = it[1]
            q = it[2]
            if s < n and subj[s] in cs:
                if not q:
                    s += 1
                    i += 1
                    continue
                if q == '?':
                    r = _do_match(st, s + 1, i + 1)
                    if r is not None:
                        s = r
                        break
                    i += 1
                    continue
                if q == '-':
                    while True:
                        r = _do_match(st, s, i + 1)
                        if r is not None:
                            s = r
                            break
                        if s < n and subj[s] in cs:
                            s += 1
                        else:
                            s = None
                            break
                    break
                # '*' or '+': longest run first, then give back one at a time
                start = s + 1 if q == '+' else s
                j = st.runs[i](subj, start).end()
                st.steps += j - start
                while j >= start:
                    r = _do_match(st, j, i + 1)
                    if r is not None:
                        break
                    j -= 1
                s = r
                break
            if q and q != '+':
                i += 1
                continue
            s = None
            break
        if k == END:
            break
        if k == OPEN:
            level = st.level
            st.cstart[level] = s
            st.clen[level] = _CAP_POSITION if it[1] else _CAP_UNFINISHED
            st.level = level + 1
            r = _do_match(st, s, i + 1)
            if r is None:
                st.level -= 1
            s = r
            break
        if k == CLOSE:
            l = it[1]
            st.clen[l] = s - st.cstart[l]
            r = _do_match(st, s, i + 1)
            if r is None:
                st.clen[l] = _CAP_UNFINISHED
            s = r
            break
        if k == ENDANCHOR:
            if s != n:
                s = None
            break
        if k == BALANCE:
            b = it[1]
            if s >= n or subj[s] != b:
                s = None
                break
            e = it[2]
            find = st.runs[i]          # the next b or e
            depth = 1
            j = counted = s
            while depth:
                m = find(subj, j + 1)
                if m is None:
                    j = n              # scanned to the end in vain
                    break
                j = m.start()
                if subj[j] == e:
                    depth -= 1
                else:
                    depth += 1
                if j - counted >= _TICK_EVERY:     # a run of nested b's is a step each
                    st.vm.tickn(j - counted)
                    counted = j
            st.steps += j - counted
            if depth:
                s = None
                break
            s = j + 1
            i += 1
            continue
        if k == FRONTIER:
            cs = it[1]
            prev = subj[s - 1] if s > 0 else '\0'
            cur = subj[s] if s < n else '\0'
            if prev not in cs and cur in cs:
                i += 1
                continue
            s = None
            break
        if k == BACKREF:
            l = it[1]
            ln = st.clen[l]
            start = st.cstart[l]
            if ln != _CAP_POSITION and subj.startswith(subj[start:start + ln], s):
                s += ln
                i += 1
                continue
            s = None
            break
        rt_error(it[1])      # ERROR
    st.depth += 1
    return s


# ---------------------------------------------------------------- patterns
_plain_groups = re.Match.groups


_MEMBERS: dict = {}     # a class's bytes -> translation marking its members


def _has_run(s: str, classes, width: int, pos: int) -> bool:
    """Whether ``s`` has, from ``pos``, ``width`` bytes in a row of one of
    ``classes``: one pass of C per class (a regex for the run took 55 ns
    a byte)."""
    if width > len(s) - pos:
        return False
    b = s.encode('latin-1')
    run = b'\x01' * width
    for cs in classes:
        if b.translate(_member_marks(cs)).find(run, pos) >= 0:
            return True
    return False


def _member_marks(cs: str) -> bytes:
    """The translation of bytes to 1 for members of class ``cs``, else 0."""
    table = _MEMBERS.get(cs)
    if table is None:
        marks = bytearray(256)
        for c in cs:
            marks[ord(c)] = 1
        table = bytes(marks)
        _remember(_MEMBERS, cs, cs, table)
    return table


def _window_width(n: int) -> int:
    """Start positions one regex call may try in an ``n``-byte subject when
    each start may scan the whole subject: a power of two, at least 16."""
    return 1 << max(4, (_RE_BUDGET // max(n, 1)).bit_length() - 1)


class Pattern:
    """A compiled Lua pattern.

    ``exec(vm, s, pos)`` finds the first match starting at or after ``pos``
    (only at ``pos`` when anchored) and returns ``(start, end, captures)``
    with 0-based ``start``/``end`` and the captures as a tuple (strings, or
    1-based ints for position captures), or None.
    """
    __slots__ = ('anchored', 'items', 'ncap', 'poscaps', 'unclosed', 'nullable',
                 'regex', 're_max_len', 'windowed', 'split_classes', 'separators', 'runs',
                 'prefilter', '_find_re', '_windows', '_subject_seen', '_doublings',
                 'first')

    def __init__(self, source: str, anchor: bool):
        self.anchored = anchor and source[:1] == '^'
        items = self.items = parse(source, 1 if self.anchored else 0)
        # One pass over the items (a pattern may have hundreds of thousands).
        ncap = closes = 0
        poscaps = []
        nullable = True
        balance = False
        # Lua's recursion budget: one level for the call itself and one for
        # each capture boundary and each quantified item on the way.
        depth = 1
        for k, it in enumerate(items, 1):
            if k & 4095 == 0:
                state.count_work(4096 * state.WORK_BYTES)
            kind = it[0]
            if kind == OPEN:
                if it[1]:
                    poscaps.append(ncap)
                ncap += 1
                depth += 1
            elif kind == CLOSE:
                closes += 1
                depth += 1
            elif kind == CHAR:
                if it[2]:
                    depth += 1
                if it[2] in ('', '+'):
                    nullable = False
            elif kind == BALANCE:
                balance = True
                nullable = False
        self.ncap = ncap
        self.poscaps = frozenset(poscaps)
        self.unclosed = closes + len(poscaps) < ncap
        self.nullable = nullable
        self.runs = None            # the own matcher's helpers, made on first use
        self.prefilter = None
        self.regex = None
        self.re_max_len = -1        # subjects this long or shorter: one regex call
        self.windowed = False       # longer ones: regex calls over windows of starts
        self.split_classes = None   # or one call, if no run of these is long (``Cost``)
        self.separators = None      # or one call, if these match seldom enough (``Cost``)
        self._subject_seen = None   # the last long subject's test of them (``_one_call``)
        self._doublings = 0
        self._find_re = None
        self._windows = {}          # window width -> windowed regex
        self.first = self._first_char() if self.anchored else None
        if (items[-1][0] == END and not self.unclosed and depth <= MAXCCALLS
                and len(items) <= _RE_ITEMS_MAX and not balance):
            self.regex = re.compile(_translate(items, self.poscaps), re.S)
            self._find_re = self.regex.match if self.anchored else self.regex.search
            c = cost(items, self.anchored)
            budget = _RE_BUDGET >> c.doublings
            self.re_max_len = (1 << 62) if c.degree == 0 else int(budget ** (1.0 / c.degree))
            # Work linear per start position stays bounded when every run
            # is short, else is cut into calls over windows of starts.
            self.windowed = c.degree == 2 and not self.anchored and not c.doublings
            self.split_classes = c.split_classes if not c.doublings else None
            self.separators = c.separators
            self._doublings = c.doublings

    def _first_char(self):
        """For an anchored pattern that starts with items each matching one
        character (no quantifier, or '+' for its first one), the test of
        those characters: a match that fails them fails at once, whatever
        the subject's length (a tokenizer's ``s:find("^%d+", pos)`` at a
        letter, ``"^%-%-"`` at a lone minus), where the matchers would count
        the whole rest of the subject as their work."""
        prefix = []
        for it in self.items:
            if it[0] in (OPEN, CLOSE):         # zero-width: the next item tests the same place
                continue
            if it[0] != CHAR or it[2] not in ('', '+'):
                break
            prefix.append(charset_re(it[1]))
            if it[2] == '+':
                break
        return re.compile(''.join(prefix), re.S).match if prefix else None

    def _prepare_own(self):
        # Per item, a regex doing its scan in one C call: the longest run
        # for '*' and '+', the next delimiter for '%b'.
        runs = []
        for k, it in enumerate(self.items, 1):
            if k & 4095 == 0:
                state.count_work(4096 * state.WORK_BYTES)
            if it[0] == CHAR and it[2] in ('*', '+'):
                runs.append(re.compile(charset_re(it[1]) + '*', re.S).match)
            elif it[0] == BALANCE:
                runs.append(re.compile(charset_re(_charset(it[1:3])), re.S).search)
            else:
                runs.append(None)
                continue
            state.count_work(4096)     # a regex compiled: far more work than an item parsed
        self.runs = runs
        self.prefilter = self._make_prefilter()

    def _make_prefilter(self):
        """A search for where a match can start, to skip hopeless positions
        fast in the own matcher; None when every position must be tried."""
        for it in self.items:
            k = it[0]
            if k == OPEN:
                continue
            if k == CHAR and it[2] in ('', '+'):
                return re.compile(charset_re(it[1]), re.S).search
            if k == BALANCE:
                return re.compile(charset_re(it[1]), re.S).search
            return None
        return None

    def regex_for(self, s: str):
        """The compiled regex when one call on subject ``s`` stays within
        the step budget, else None."""
        if self._one_call(s) or (self.windowed and self._runs_short(s)):
            return self.regex
        return None

    def _one_call(self, s: str) -> bool:
        """Whether one regex call on ``s`` stays within the budget by what
        the pattern's cost says of ``s`` (not splitting it in windows).
        Past ``re_max_len`` the answer tests ``s`` itself, so the last
        subject's is kept, and matches at many positions of one subject
        test it once: by identity, hash and length (no reference that would
        keep it alive; a stale answer could cost time, never change a
        result)."""
        if len(s) <= self.re_max_len:
            return True
        if self.split_classes is None and self.separators is None:
            return False
        seen = (id(s), hash(s), len(s))
        last = self._subject_seen
        if last is not None and last[0] == seen:
            return last[1]
        one = (self.split_classes is not None and self._splits_short(s)) or \
            (self.separators is not None and self._separated_short(s))
        self._subject_seen = (seen, one)
        return one

    def _splits_short(self, s: str) -> bool:
        """Whether the runs an anchored pattern's one long split lies along
        are short enough in ``s`` that a call stays within the budget."""
        return not _has_run(s, self.split_classes, _RE_BUDGET // max(len(s), 1), 0)

    def _separated_short(self, s: str) -> bool:
        """Whether the splits, each as many as its separator's matches in
        ``s`` and one, keep a call within the budget."""
        n = max(len(s), 1)
        steps = n ** (1 if self.anchored else 2) << self._doublings
        b = s.encode('latin-1')
        for cs in self.separators:
            steps *= (b.count(cs.encode('latin-1')) if len(cs) == 1 else
                      b.translate(_member_marks(cs)).count(1)) + 1
            if steps > _RE_BUDGET:
                return False
        return True

    def _runs_short(self, s: str, pos: int = 0) -> bool:
        """Whether no quantified item finds a run of a window's width in
        ``s`` from ``pos``: then each start costs less than a window, and a
        whole search no more than a windowed call."""
        classes = {it[1] for it in self.items if it[0] == CHAR and it[2]}
        return not _has_run(s, classes, _window_width(len(s)), pos)

    def exec(self, vm, s: str, pos: int):
        first = self.first
        if first is not None and first(s, pos) is None:
            vm.tickn(1)
            return None
        # A long subject is searched in windows from ``pos`` on: a search
        # costs what it scans (a tokenizer's ``s:find("%a+", pos)`` finds
        # its match at once), where telling whether one regex call over the
        # whole subject would be safe costs the subject's length.
        if self._one_call(s):
            m = self._find_re(s, pos)
            if m is None:
                vm.tickn(len(s) - pos + 1)
                return None
            start, end = m.span()
            vm.tickn(end - pos + 1)
            if self.poscaps:
                return start, end, self.groups(m)
            return start, end, m.groups()
        if self.windowed:
            return self._exec_windowed(vm, s, pos)
        return self._exec_own(vm, s, pos)

    def _window(self, n: int):
        """The matcher for windowed searches in an ``n``-byte subject and
        its width: ``(.{0,w-1}?)P`` tries P at each start in order, as a
        search does, and costs at most about w times n steps."""
        width = _window_width(n)
        rx = self._windows.get(width)
        if rx is None:
            rx = self._windows[width] = re.compile(
                '(.{0,%d}?)(?:%s)' % (width - 1, _translate(self.items, self.poscaps, 1)), re.S)
        return rx.match, width

    def _window_captures(self, m) -> tuple:
        caps = m.groups()[1:]
        if self.poscaps:
            caps = list(caps)
            for k in self.poscaps:
                caps[k] = m.start(k + 2) + 1
            caps = tuple(caps)
        return caps

    def _exec_windowed(self, vm, s: str, pos: int):
        n = len(s)
        match, width = self._window(n)
        while pos <= n:
            m = match(s, pos)
            if m is not None:
                end = m.end()
                vm.tickn(end - pos + 1)
                return m.end(1), end, self._window_captures(m)
            vm.tickn(width)
            pos += width
        return None

    def groups(self, m) -> tuple:
        """Lua captures from a match of ``self.regex``."""
        if not self.poscaps:
            return m.groups()
        g = list(m.groups())
        for k in self.poscaps:
            g[k] = m.start(k + 1) + 1
        return tuple(g)

    def iterate(self, vm, s: str, pos: int):
        """Successive matches ``(start, end, captures)`` from ``pos`` as
        ``gmatch`` and ``gsub`` take them: the search resumes where the last
        match ended, and an empty match ending there is passed over.  Lazy,
        so a caller that stops asking does no further matching."""
        n = len(s)
        if not self.nullable and not self.anchored and self._one_call(s):
            yield from self._iterate_re(vm, s, pos)
            return
        if self.windowed and not self.nullable:
            # Matches are never empty: each search resumes at the last end.
            # Searches in windows cost what they scan, so a caller taking
            # one match pays for that one; once they have scanned a
            # sixteenth of the rest, testing the rest's runs (a few
            # nanoseconds a byte) is paid for, and if they are short, one
            # scan of re does the rest.
            match, width = self._window(n)
            captures = self._window_captures
            test_at = pos + ((n - pos) >> 4)
            while pos <= n:
                if pos >= test_at:
                    test_at = n + 1
                    if self._runs_short(s, pos):
                        yield from self._iterate_re(vm, s, pos)
                        return
                m = match(s, pos)
                if m is None:
                    vm.tickn(width)
                    pos += width
                    continue
                end = m.end()
                vm.tickn(end - pos + 1)
                yield m.end(1), end, captures(m)
                pos = end
            return
        last = -1
        while pos <= n:
            r = self.exec(vm, s, pos)
            if r is None:
                return
            end = r[1]
            if end == last:
                pos += 1
                continue
            yield r
            if self.anchored:
                return
            pos = last = end

    def _iterate_re(self, vm, s: str, pos: int):
        """Matches of one scan of the regex from ``pos``: matches are never
        empty, so re's scan is exactly Lua's."""
        groups = self.groups if self.poscaps else _plain_groups
        done = pos          # scanned up to here and counted with tickn
        for m in self.regex.finditer(s, pos):
            start, end = m.span()
            if end - done > _TICK_EVERY:
                vm.tickn(end - done)
                done = end
            yield start, end, groups(m)
        vm.tickn(len(s) - done + 1)

    def _exec_own(self, vm, s: str, pos: int):
        if self.runs is None:
            self._prepare_own()
        st = _State()
        st.items = self.items
        st.runs = self.runs
        st.subj = s
        n = st.n = len(s)
        st.cstart = [0] * MAXCAPTURES
        st.clen = [0] * MAXCAPTURES
        st.steps = 0
        st.vm = vm
        prefilter = None if self.anchored else self.prefilter
        try:
            while True:
                if prefilter is not None:     # a fast scan: library work
                    m = prefilter(s, pos)
                    if m is None:
                        vm.tickn((n - pos) // state.WORK_BYTES)
                        return None
                    vm.tickn((m.start() - pos) // state.WORK_BYTES)
                    pos = m.start()
                st.level = 0
                st.depth = MAXCCALLS
                e = _do_match(st, pos, 0)
                if e is not None:
                    return pos, e, self._captures(st)
                pos += 1
                if self.anchored or pos > n:
                    return None
        finally:
            vm.tickn(st.steps + 1)

    @staticmethod
    def _captures(st: _State) -> tuple:
        out = []
        subj = st.subj
        for l in range(st.level):
            ln = st.clen[l]
            start = st.cstart[l]
            if ln == _CAP_UNFINISHED:
                out.append(UNFINISHED)
            elif ln == _CAP_POSITION:
                out.append(start + 1)
            else:
                out.append(subj[start:start + ln])
        return tuple(out)


_CACHE: dict = {}
_CACHE_MAX = 512
# Longer patterns are compiled at each use: the cache must not keep large
# strings alive behind the memory account's back.
_CACHE_KEY_MAX = 512


def compile(p: str, anchor: bool = True) -> Pattern:
    """The compiled form of pattern ``p``; ``anchor`` says whether a leading
    '^' anchors (it does not in ``gmatch``)."""
    key = (p, anchor)
    pat = _CACHE.get(key)
    if pat is None:
        pat = Pattern(p, anchor)
        _remember(_CACHE, p, key, pat)
    return pat


def _remember(cache, p, key, value):
    """Keep ``value`` under ``key`` in ``cache`` when pattern ``p`` is short,
    dropping the oldest entry when it is full."""
    if len(p) <= _CACHE_KEY_MAX:
        if len(cache) >= _CACHE_MAX:
            del cache[next(iter(cache))]
        cache[key] = value


_SPECIALS = re.compile(r'[\^$*+?.(\[%-]')


_SPECIAL_CACHE = {}     # pattern -> has_specials, for short patterns


def has_specials(p: str) -> bool:
    """Whether ``find`` must treat ``p`` as a pattern rather than plain text."""
    r = _SPECIAL_CACHE.get(p)
    if r is None:
        r = _SPECIALS.search(p) is not None
        _remember(_SPECIAL_CACHE, p, p, r)
    return r
