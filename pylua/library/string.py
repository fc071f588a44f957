"""Lua 5.4's ``string`` library (manual §6.4), as lua5.4 (5.4.4) behaves.

Patterns are compiled by ``lpattern``, ``format`` lives in ``strformat`` and
the binary packing functions in ``strpack``; this module holds the plain
string functions and the pattern-matching functions built on ``lpattern``.
``gsub`` and ``format`` are generator builtins because a replacement
function, an ``__index`` or a ``__tostring`` may run Lua code.
"""
from __future__ import annotations

from itertools import repeat
from operator import itemgetter

from ..runtime import ops
from ..runtime.frames import rt_error
from ..runtime.numbers import tostr
from ..runtime.table import LuaTable
from ..runtime.values import Builtin, GenBuiltin, is_function, type_name
from . import lpattern, strformat, strpack
from .args import (ABSENT, arg_error, check_int, check_str, opt_int, opt_str, to_bool,
                   type_error)

INT_MAX = 2 ** 31 - 1        # lstrlib's MAXSIZE where size_t is wider than int
# The most values byte can return before Lua's stack (LUAI_MAXSTACK slots) is full.
MAX_RESULTS = 999_979
# Results up to this size are left to the periodic heap measurement and
# to the call's own instruction, as concatenation does; bigger ones are
# charged (work and memory) when made.
_CHARGE_MIN = 1024
# gsub hands the whole job to re.subn when the result cannot exceed this
# many bytes (one re.subn call cannot be cancelled); past it, it builds the
# result itself and checks the memory ceiling as the result grows.
_FAST_GSUB_BYTES = 1 << 22
_GSUB_CHECK_EVERY = 1 << 20


# Strings longer than this are converted a piece at a time, with a check
# between pieces, so that cancel need not wait for one long conversion.
_PIECE = 1 << 20


def _lower(s: str) -> str:
    return s.encode('latin-1').lower().decode('latin-1')     # C locale: ASCII only


def _upper(s: str) -> str:
    return s.encode('latin-1').upper().decode('latin-1')


def _by_pieces(vm, s: str, convert) -> str:
    pieces = []
    for k in range(0, len(s), _PIECE):
        vm.work(_PIECE)
        pieces.append(convert(s[k:k + _PIECE]))
    return ''.join(pieces)


def _find_plain(vm, s: str, p: str, init: int) -> int:
    """``s.find(p, init)`` a piece of the subject at a time, each charged
    for what it scanned."""
    ls = len(s)
    while init <= ls:
        end = init + _PIECE + len(p) - 1
        k = s.find(p, init, end)
        vm.work((k + len(p) if k >= 0 else min(end, ls)) - init)
        if k >= 0:
            return k
        init += _PIECE
    return -1


def _start(pos: int, n: int) -> int:
    """lstrlib's posrelatI: a 1-based start position clipped to [1, inf)."""
    if pos > 0:
        return pos
    if pos == 0 or pos < -n:
        return 1
    return n + pos + 1


def _end(pos: int, n: int) -> int:
    """lstrlib's getendpos: a 1-based end position clipped to [0, n]."""
    if pos > n:
        return n
    if pos >= 0:
        return pos
    if pos < -n:
        return 0
    return n + pos + 1


def _search_args(s, p, init, fname):
    """find's and match's subject, pattern and 0-based start (None past the
    subject's end); the usual arguments (strings, no init) skip the checks."""
    if s.__class__ is not str:
        s = check_str(s, 1, fname)
    if p.__class__ is not str:
        p = check_str(p, 2, fname)
    if init is ABSENT:
        return s, p, 0
    if init.__class__ is int and init > 0:      # a scanner's position
        return s, p, (init - 1 if init <= len(s) + 1 else None)
    init = _start(opt_int(init, 3, fname, 1), len(s)) - 1
    return s, p, (init if init <= len(s) else None)


# ------------------------------------------------------- replacement strings
class _TemplateError:
    """Where Lua stops a replacement string with an error: its message."""
    __slots__ = ('msg',)

    def __init__(self, msg):
        self.msg = msg


class _Template:
    """A gsub replacement string parsed for a pattern with ``ncap`` captures.

    ``parts`` holds literal strings, capture numbers (0 is the whole match)
    and, where Lua would stop with an error, the message as a
    ``_TemplateError``; ``py`` is the same template for ``re.subn`` when it
    can express it (no error, no position capture).
    """
    __slots__ = ('parts', 'py')

    def __init__(self, repl: str, ncap: int, poscaps: frozenset):
        parts = []
        i = 0
        n = len(repl)
        while True:
            j = repl.find('%', i)
            if j < 0:
                parts.append(repl[i:])
                break
            parts.append(repl[i:j])
            c = repl[j + 1] if j + 1 < n else '\0'
            i = j + 2
            if c == '%':
                parts.append('%')
            elif '0' <= c <= '9':
                k = ord(c) - 48
                if k > ncap and k != 1:
                    parts.append(_TemplateError('invalid capture index %%%d' % k))
                    break
                parts.append(k if ncap else 0)
            else:
                parts.append(_TemplateError("invalid use of '%' in replacement string"))
                break
        self.parts = [p for p in parts if p != '']
        self.py = None
        if not any(p.__class__ is _TemplateError or (p.__class__ is int and p - 1 in poscaps)
                   for p in self.parts):
            self.py = ''.join(p.replace('\\', '\\\\') if p.__class__ is str else '\\g<%d>' % p
                              for p in self.parts)


_TEMPLATES: dict = {}
_TEMPLATES_MAX = 256
_TEMPLATE_KEY_MAX = 512


def _template(repl: str, pat) -> _Template:
    key = (repl, pat.ncap, pat.poscaps)
    t = _TEMPLATES.get(key)
    if t is None:
        t = _Template(repl, pat.ncap, pat.poscaps)
        if len(repl) <= _TEMPLATE_KEY_MAX:    # the cache must not hold big strings
            if len(_TEMPLATES) >= _TEMPLATES_MAX:
                del _TEMPLATES[next(iter(_TEMPLATES))]
            _TEMPLATES[key] = t
    return t


def _expand(parts, src: str, st: int, e: int, caps) -> str:
    out = []
    for p in parts:
        c = p.__class__
        if c is str:
            out.append(p)
        elif c is int:
            if p == 0:
                out.append(src[st:e])
            else:
                v = caps[p - 1]
                if v.__class__ is int:
                    out.append(str(v))
                elif v is lpattern.UNFINISHED:
                    rt_error('unfinished capture')
                else:
                    out.append(v)
        else:
            rt_error(p.msg)
    return ''.join(out)


# --------------------------------------------------------------- the library
def make(vm) -> LuaTable:
    tickn = vm.tickn

    def s_len(s=ABSENT, *_):
        if s.__class__ is not str:
            s = check_str(s, 1, 'len')
        return (len(s),)

    def s_sub(s=ABSENT, i=ABSENT, j=ABSENT, *_):
        if s.__class__ is not str:
            s = check_str(s, 1, 'sub')
        n = len(s)
        start = _start(i if i.__class__ is int else check_int(i, 2, 'sub'), n)
        end = n if j is ABSENT or j is None else _end(
            j if j.__class__ is int else check_int(j, 3, 'sub'), n)
        if start > end:
            return ('',)
        r = s[start - 1:end]
        if len(r) > _CHARGE_MIN:
            vm.produced(len(r))
        return (r,)

    def s_byte(s=ABSENT, i=ABSENT, j=ABSENT, *_):
        if s.__class__ is not str:
            s = check_str(s, 1, 'byte')
        n = len(s)
        pi = opt_int(i, 2, 'byte', 1)
        posi = _start(pi, n)
        pose = _end(opt_int(j, 3, 'byte', pi), n)
        if posi > pose:
            return ()
        if pose - posi >= INT_MAX:
            rt_error('string slice too long')
        if pose - posi + 1 > MAX_RESULTS:
            rt_error('stack overflow (string slice too long)')
        if pose - posi > 64:
            vm.tickn(pose - posi)              # one instruction per result
        return tuple(s[posi - 1:pose].encode('latin-1'))

    def s_char(*args):
        out = []
        for k, c in enumerate(args, 1):
            if c.__class__ is not int:
                c = check_int(c, k, 'char')
            if not 0 <= c <= 255:
                arg_error(k, 'char', 'value out of range')
            out.append(chr(c))
        if len(out) > 64:
            vm.tickn(len(out))
        return (''.join(out),)

    def s_lower(s=ABSENT, *_):
        s = check_str(s, 1, 'lower')
        if len(s) > _CHARGE_MIN:
            vm.produced(len(s))
            if len(s) > _PIECE:
                return (_by_pieces(vm, s, _lower),)
        return (_lower(s),)

    def s_upper(s=ABSENT, *_):
        s = check_str(s, 1, 'upper')
        if len(s) > _CHARGE_MIN:
            vm.produced(len(s))
            if len(s) > _PIECE:
                return (_by_pieces(vm, s, _upper),)
        return (_upper(s),)

    def s_reverse(s=ABSENT, *_):
        s = check_str(s, 1, 'reverse')
        if len(s) > _CHARGE_MIN:
            vm.produced(len(s))
        return (s[::-1],)

    def s_rep(s=ABSENT, n=ABSENT, sep=ABSENT, *_):
        s = check_str(s, 1, 'rep')
        n = check_int(n, 2, 'rep')
        sep = opt_str(sep, 3, 'rep', '')
        if n <= 0:
            return ('',)
        total = n * len(s) + (n - 1) * len(sep)
        if total == 0:
            return ('',)
        # Refuse what the memory ceiling cannot hold before Lua's own size
        # limit, so an oversized request reads as the memory error it is.
        vm.check_alloc(total)
        if len(s) + len(sep) > INT_MAX // n:
            rt_error('resulting string too large')
        r = (s + sep) * (n - 1) + s if sep else s * n
        vm.produced(total)
        return (r,)

    # ------------------------------------------------------------ patterns
    def s_find(s=ABSENT, p=ABSENT, init=ABSENT, plain=ABSENT, *_):
        s, p, init = _search_args(s, p, init, 'find')
        if init is None:
            return (None,)
        ls = len(s)
        if (plain is not ABSENT and to_bool(plain)) or not lpattern.has_specials(p):
            k = _find_plain(vm, s, p, init) if ls - init > _CHARGE_MIN else s.find(p, init)
            return (k + 1, k + len(p)) if k >= 0 else (None,)
        pat = lpattern.compile(p)
        r = pat.exec(vm, s, init)
        if r is None:
            return (None,)
        st, e, caps = r
        if pat.unclosed:
            lpattern.check_captures(caps)
        return (st + 1, e) + caps

    def s_match(s=ABSENT, p=ABSENT, init=ABSENT, *_):
        s, p, init = _search_args(s, p, init, 'match')
        if init is None:
            return (None,)
        pat = lpattern.compile(p)
        r = pat.exec(vm, s, init)
        if r is None:
            return (None,)
        st, e, caps = r
        if not pat.ncap:
            return (s[st:e],)
        return lpattern.check_captures(caps) if pat.unclosed else caps

    def s_gmatch(s=ABSENT, p=ABSENT, init=ABSENT, *_):
        s = check_str(s, 1, 'gmatch')
        p = check_str(p, 2, 'gmatch')
        ls = len(s)
        pos = _start(opt_int(init, 3, 'gmatch', 1), ls) - 1
        pat = lpattern.compile(p, anchor=False)   # '^' is not an anchor here
        matches = pat.iterate(vm, s, min(pos, ls + 1))
        ncap = pat.ncap
        unclosed = pat.unclosed

        def values():
            """Each match's values: its captures, or the whole match."""
            for st, e, caps in matches:
                if not ncap:
                    yield (s[st:e],)
                else:
                    yield lpattern.check_captures(caps) if unclosed else caps
        found = values()

        def step(*_):
            for v in found:
                return v
            return ()

        def walk(n):
            """The values as a generic ``for`` of ``n`` variables takes them
            from a Python iterator (see ``ops.forgen``): pairs whose second
            value is never nil.  None when the loop needs them one by one."""
            if ncap == 2:
                return found
            if n == 1:
                return found if ncap > 2 else zip(map(itemgetter(0), found), repeat(True))
            return None
        step.walk = walk
        step.upvalues = (s, p)            # as Lua's C closure, for the debug library
        return (Builtin(step, 'for iterator'),)

    def s_gsub(s=ABSENT, p=ABSENT, repl=ABSENT, max_n=ABSENT, *_):
        src = check_str(s, 1, 'gsub')
        p = check_str(p, 2, 'gsub')
        ls = len(src)
        rc = repl.__class__
        max_n = opt_int(max_n, 4, 'gsub', ls + 1)
        if rc is int or rc is float:
            repl = tostr(repl)
        elif rc is not str and rc is not LuaTable and not is_function(repl):
            type_error(3, 'gsub', 'string/function/table', repl)
        if max_n <= 0:
            return (src, 0)
        pat = lpattern.compile(p)
        if repl.__class__ is str:
            tpl = _template(repl, pat)
            if tpl.py is not None and not pat.anchored and not pat.nullable:
                rx = pat.regex_for(src)
                if rx is not None and ls * (1 + 2 * len(repl)) <= _FAST_GSUB_BYTES:
                    # Matches cannot be empty, so re's scan is exactly Lua's.
                    r, n = rx.subn(tpl.py, src, max_n if max_n <= ls else 0)
                    if n == 0:
                        r = src     # as Lua: the subject itself when nothing changed
                    tickn(ls + 1)
                    if len(r) > _CHARGE_MIN:
                        vm.produced(len(r))
                    return (r, n)
        return (yield from _gsub_loop(src, pat, repl, max_n))

    def _gsub_loop(src, pat, repl, max_n):
        """lstrlib's str_gsub over the matches ``pat.iterate`` finds."""
        ncap = pat.ncap
        parts = _template(repl, pat).parts if repl.__class__ is str else None
        is_table = repl.__class__ is LuaTable
        plain_table = is_table and repl.meta is None
        out = []
        size = 0
        next_check = _GSUB_CHECK_EVERY
        pos = 0
        n = 0
        n_kept = 0      # matches a nil or false replacement left as they were
        for st, e, caps in pat.iterate(vm, src, 0):
            n += 1
            if st > pos:
                out.append(src[pos:st])
            if parts is not None:
                v = _expand(parts, src, st, e, caps)
            else:
                if not ncap:
                    caps = (src[st:e],)
                if is_table:
                    key = caps[0]      # only the first capture is used
                    if key is lpattern.UNFINISHED:
                        rt_error('unfinished capture')
                    v = repl.get(key) if plain_table else (yield from ops.from_c(ops.index(repl, key)))
                else:
                    if pat.unclosed:
                        lpattern.check_captures(caps)
                    res = yield from ops.nested_call(repl, caps, continuation=False)
                    v = res[0] if res else None
                c = v.__class__
                if v is None or v is False:
                    v = src[st:e]
                    n_kept += 1
                elif c is int or c is float:
                    v = tostr(v)
                elif c is not str:
                    rt_error('invalid replacement value (a %s)' % type_name(v))
            out.append(v)
            size += e - pos + len(v)
            if size > next_check:
                vm.check_alloc(size)
                next_check = size + _GSUB_CHECK_EVERY
            pos = e
            if n >= max_n:
                break
        if n_kept == n:
            return (src, n)     # as Lua: the subject itself when no match was replaced
        out.append(src[pos:])
        result = ''.join(out)
        if len(result) > _CHARGE_MIN:
            vm.produced(len(result))
        return (result, n)

    pack, packsize, unpack = strpack.make(vm)
    fmt = strformat.make_format(vm, ops.tostring, ops.tostring_raw)
    t = LuaTable()
    for name, fn in (('byte', s_byte), ('char', s_char), ('find', s_find),
                     ('gmatch', s_gmatch), ('len', s_len), ('lower', s_lower),
                     ('match', s_match), ('rep', s_rep), ('reverse', s_reverse),
                     ('sub', s_sub), ('upper', s_upper), ('pack', pack),
                     ('packsize', packsize), ('unpack', unpack)):
        t.set_str(name, Builtin(fn, 'string.' + name))
    t.set_str('format', Builtin(fmt.fast, 'string.format', gen=fmt))
    t.set_str('gsub', GenBuiltin(s_gsub, 'string.gsub'))
    return t
