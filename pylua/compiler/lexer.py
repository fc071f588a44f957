"""Lua 5.4 lexer: a source byte string to a list of tokens, by llex.c's rules.

A token is a tuple ``(type, value, line, raw)``:

* ``type``: ``'NAME'``, ``'NUMBER'``, ``'STRING'``, a keyword or symbol as
  written (``'while'``, ``'=='``), ``'$END'`` after the last token,
  ``'OTHER'`` for a character that starts no Lua token (Lua's lexer returns
  it as a token of its own and the parser rejects it), or ``'ERROR'`` when
  the source cannot be read further (value: Lua's message, e.g.
  ``"unfinished string near '\\"abc'"``).
* ``value``: the name, the number (int already wrapped to 64 bits, or
  float), the string's bytes, or the symbol itself.
* ``line``: Lua's line number once the token is read, which for a
  multi-line string is its last line: the line Lua reports.
* ``raw``: the source text of a NUMBER or STRING (for "near '...'"); for
  a keyword closing a block (``end``, ``else``, ``elseif``, ``until``), the
  line of the token before it (where Lua closes the block's upvalues);
  else None.

The whole source is scanned up front with one regular expression, which is
much faster than reading on demand; a lexical error ends the list as an ERROR
token, so the parser reports it exactly when Lua's lazy lexer would reach it
(after any syntax error earlier in the source).

Line ends: Lua counts ``\\n``, ``\\r``, ``\\r\\n`` and ``\\n\\r`` as one line end
each and reads every one of them as ``\\n`` inside strings, so they are
normalised to ``\\n`` first.
"""
from __future__ import annotations

import re
from itertools import islice

from ..runtime.state import LEX_BYTE, LEX_ESCAPE, WORK_BYTES, count_instructions

KEYWORDS = frozenset('''and break do else elseif end false for function goto if
    in local nil not or repeat return then true until while'''.split())
_BLOCK_CLOSERS = frozenset(('end', 'else', 'elseif', 'until'))

_TOKEN = re.compile(r'''[ \t\v\f]*(?:
  (?P<newline> \n[ \t\v\f\n]* )
| (?P<name> [A-Za-z_][A-Za-z0-9_]* )
| (?P<comment> --(?!\[=*\[)[^\n]* )
| (?P<symbol> \.\.\.|\.\.|==|~=|<=|>=|<<|>>|//|:: | [+*/%^\#&~|<>=(){}\];:,]
             | -(?!-) | \.(?![0-9]) | \[(?![=\[]) )
  # read_numeral(): digits, letters, dots and signed exponents, plus one
  # touching letter so that '3x' is one malformed number.
| (?P<number> \.?0[xX](?:[pP][-+]?|[0-9a-fA-F.])*[A-Za-z_]?
            | \.?[0-9](?:[eE][-+]?|[0-9a-fA-F.])*[A-Za-z_]? )
| (?P<string> "(?:[^"\\\n]++|\\z[ \t\v\f\n]*+|\\[\s\S])*+"
            | '(?:[^'\\\n]++|\\z[ \t\v\f\n]*+|\\[\s\S])*+' )
| (?P<open_comment> --\[=*\[ )
| (?P<open_long> \[=*\[ )
| (?P<bad_delimiter> \[=+ )
| (?P<end> \Z )
| (?P<other> [\s\S] )
)''', re.X)

_NEWLINE, _NAME, _COMMENT, _SYMBOL, _NUMBER, _STRING, _OPEN_COMMENT, \
    _OPEN_LONG, _BAD_DELIMITER, _END, _OTHER = (_TOKEN.groupindex[g] for g in (
        'newline', 'name', 'comment', 'symbol', 'number', 'string',
        'open_comment', 'open_long', 'bad_delimiter', 'end', 'other'))

_LINE_END = re.compile(r'\r\n?|\n\r')
_ANY_LINE_END = re.compile(r'\r\n?|\n\r?')
_MAX_INT = (1 << 63) - 1
_HEX_INT = re.compile(r'0[xX][0-9a-fA-F]+\Z')
_HEX_FLOAT = re.compile(r'0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][-+]?[0-9]+)?\Z')
_DEC_FLOAT = re.compile(r'(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?\Z')


class LexError(Exception):
    """A lexical error at `line`: Lua's `message` and the text of its buffer
    that Lua shows after 'near' (None for <eof>).  `at_line_end`: the buffer
    ends with the line end at which a bad escape stopped."""

    def __init__(self, message: str, line: int, near: str | None = None,
                 at_line_end: bool = False):
        super().__init__(message)
        self.message = message
        self.line = line
        self.near = near
        self.at_line_end = at_line_end

    def token(self, original: str) -> tuple:
        """The ERROR token.  Lua keeps the raw character in its buffer: for a
        line end, the first character of it as written in `original`, the
        source before line ends were normalised."""
        if self.near is None:
            return ('ERROR', self.message + ' near <eof>', self.line, None)
        near = self.near
        if self.at_line_end and '\r' in original:
            line_end = next(islice(_ANY_LINE_END.finditer(original), self.line - 1, None))
            near = near[:-1] + line_end.group()[0]
        return ('ERROR', f'{self.message} near {quoted(near)}', self.line, None)


def tokenize(source: str, from_file: bool = True) -> list:
    """The tokens of `source`, ending with '$END' or an 'ERROR' token.
    `from_file`: skip a file's header first, as luaL_loadfile does."""
    original = _skip_header(source) if from_file else source
    src = _LINE_END.sub('\n', original) if '\r' in original else original
    tokens = []
    append = tokens.append
    line = 1
    scanned = 0
    match = _TOKEN.match
    pos = 0
    while True:
        m = match(src, pos)
        pos = m.end()
        if len(tokens) & 1023 == 1023:
            count_instructions((pos - scanned) * LEX_BYTE)        # the cancel check
            scanned = pos
        kind = m.lastindex
        if kind == _NAME:
            text = m.group(kind)
            if text in KEYWORDS:
                # A keyword closing a block keeps the line of the token before
                # it: where Lua closes the block's upvalues (its lastline).
                append((text, text, line, tokens[-1][2] if text in _BLOCK_CLOSERS and tokens else None))
            else:
                append(('NAME', text, line, None))
        elif kind == _SYMBOL:
            text = m.group(kind)
            append((text, text, line, None))
        elif kind == _NEWLINE:
            line += m.group(kind).count('\n')
        elif kind == _NUMBER:
            text = m.group(kind)
            value = to_number(text)
            if value is None:
                append(('ERROR', 'malformed number near ' + quoted(text), line, None))
                break
            append(('NUMBER', value, line, text))
        elif kind == _STRING:
            raw = m.group(kind)
            if '\\' in raw:
                try:
                    value, line = read_string(src, m.start(kind), line)
                except LexError as e:
                    append(e.token(original))
                    break
            else:
                value = raw[1:-1]
            append(('STRING', value, line, raw))
        elif kind == _COMMENT:
            pass
        elif kind == _END:
            append(('$END', None, line, None))
            break
        elif kind == _OTHER:
            char = m.group(kind)
            if char in '"\'':
                # the string pattern failed, so read_string() finds the error
                try:
                    read_string(src, m.start(kind), line)
                except LexError as e:
                    append(e.token(original))
                    break
                raise AssertionError('a string the pattern rejects must be malformed')
            append(('OTHER', char, line, None))
        elif kind == _BAD_DELIMITER:
            append(('ERROR', 'invalid long string delimiter near ' + quoted(m.group(kind)), line, None))
            break
        else:
            # A long bracket: its end found by one search, not the pattern,
            # which is many times slower over a long text.
            opener = m.group(kind)
            level = opener.count('=')
            close = src.find(']' + '=' * level + ']', pos)
            if close >= 0:
                start = pos
                pos = scanned = close + level + 2
                count_instructions((pos - start) // WORK_BYTES)   # searching is cheap: library work
                raw = src[m.start(kind):pos]
                line += raw.count('\n')
                if kind == _OPEN_LONG:
                    value = raw[level + 2:-(level + 2)]
                    if value[:1] == '\n':
                        value = value[1:]       # the first line end is not content
                    append(('STRING', value, line, raw))
                continue
            what = 'comment' if kind == _OPEN_COMMENT else 'string'
            end_line = line + src.count('\n', m.start(kind))
            append(('ERROR', f'unfinished long {what} (starting at line {line}) near <eof>',
                    end_line, None))
            break
    return tokens


def _skip_header(source: str) -> str:
    """Skip a UTF-8 BOM and a first line starting with '#', as luaL_loadfile
    does, keeping its line end so that line numbers stay right."""
    if source.startswith('\xef\xbb\xbf'):
        source = source[3:]
    if source.startswith('#'):
        cut = source.find('\n')
        source = source[cut:] if cut >= 0 else ''
    return source


_MAX_INT_DIGITS = len(str(2 ** 63))


def to_number(text: str):
    """luaO_str2num for the text of a numeral, or None when it is malformed."""
    if text.isdigit():
        # A decimal integer that does not fit is read as a float (and one
        # longer than any int64 is never converted to a Python int: CPython
        # limits the length of decimal conversions).
        digits = text.lstrip('0') or '0'
        if len(digits) > _MAX_INT_DIGITS:
            return float(digits)
        value = int(digits)
        return value if value <= _MAX_INT else float(digits)
    if _HEX_INT.match(text):
        value = int(text, 16) & 0xFFFFFFFFFFFFFFFF   # hex integers wrap around
        return value - (1 << 64) if value > _MAX_INT else value
    if _HEX_FLOAT.match(text):
        try:
            return float.fromhex(text)
        except OverflowError:
            return float('inf')       # strtod's HUGE_VAL
    if _DEC_FLOAT.match(text):
        return float(text)
    return None


def quoted(text: str) -> str:
    """Lua's '%s' of a lexeme: C strings stop at the first NUL byte."""
    cut = text.find('\0')
    return "'%s'" % (text if cut < 0 else text[:cut])


def near(token) -> str | None:
    """How Lua names `token` after 'near' (txtToken); None for a NUL byte,
    which Lua takes for 'no token' and so names nothing."""
    kind, value, _, raw = token
    if kind == '$END':
        return '<eof>'
    if kind == 'NAME':
        return quoted(value)
    if kind == 'NUMBER':
        return quoted(raw)
    if kind == 'STRING':
        # Lua shows its buffer: the delimiters around the decoded bytes
        if raw[0] == '[':
            sep = raw.index('[', 1) + 1
            return quoted(raw[:sep] + value + raw[-sep:])
        return quoted(raw[0] + value + raw[0])
    if kind == 'OTHER':
        if value == '\0':
            return None
        return "'%s'" % value if ' ' <= value <= '~' else "'<\\%d>'" % ord(value)
    return "'%s'" % kind


_SIMPLE_ESCAPES = {'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t',
                   'v': '\v', '\\': '\\', '"': '"', "'": "'"}
_HEX_DIGITS = frozenset('0123456789abcdefABCDEF')
_DIGITS = frozenset('0123456789')
_SPACES = frozenset(' \t\n\v\f')
_STRING_STOP = {'"': re.compile(r'["\\\n]'), "'": re.compile(r"['\\\n]")}


def read_string(src: str, start: int, line: int):
    """llex.c's read_string() from the quote at src[start]: returns the
    decoded bytes and the line after the string, or raises LexError with
    Lua's message, whose 'near' text is Lua's buffer: the quote, the bytes
    decoded so far and the characters of a bad escape as far as Lua read them."""
    quote = src[start]
    stop = _STRING_STOP[quote]
    buf = []
    i = start + 1
    n = len(src)
    escapes = 0

    def fail(message, read):
        # `read`: the escape as far as Lua read it, ending with the
        # character it stopped at (unless the source ended)
        raise LexError(message, line, quote + ''.join(buf) + read, read.endswith('\n'))

    while True:
        m = stop.search(src, i)
        if m is None:
            raise LexError('unfinished string', line)
        j = m.start()
        buf.append(src[i:j])
        if src[j] == quote:
            return ''.join(buf), line
        if src[j] == '\n':
            fail('unfinished string', '')
        i = j + 1                       # after the backslash
        escapes += 1
        if escapes & 4095 == 0:
            # The bytes are counted with the token; decoding is work of its own.
            count_instructions(4096 * LEX_ESCAPE)      # the cancel check
        c = src[i:i + 1]
        if c in _SIMPLE_ESCAPES:
            buf.append(_SIMPLE_ESCAPES[c])
            i += 1
        elif c == '\n':
            buf.append('\n')
            line += 1
            i += 1
        elif c == 'z':                  # skip the following white space
            i += 1
            while i < n and src[i] in _SPACES:
                line += src[i] == '\n'
                i += 1
        elif c == 'x':
            for k in (1, 2):
                if src[i + k:i + k + 1] not in _HEX_DIGITS:
                    fail('hexadecimal digit expected', '\\' + src[i:i + k + 1])
            buf.append(chr(int(src[i + 1:i + 3], 16)))
            i += 3
        elif c == 'u':
            value, i = _utf8_escape(src, i, fail)
            buf.append(value)
        elif c in _DIGITS:
            j = i
            while j < i + 3 and j < n and src[j] in _DIGITS:
                j += 1
            value = int(src[i:j])
            if value > 255:
                fail('decimal escape too large', '\\' + src[i:j + 1])
            buf.append(chr(value))
            i = j
        elif c:
            fail('invalid escape sequence', '\\' + c)
        # a backslash at the very end: the next search reports the string


def _utf8_escape(src: str, i: int, fail):
    """'\\u{XXX}' at src[i] == 'u': (the UTF-8 bytes, offset after '}')."""
    if src[i + 1:i + 2] != '{':
        fail("missing '{'", '\\u' + src[i + 1:i + 2])
    j = i + 2
    if src[j:j + 1] not in _HEX_DIGITS:
        fail('hexadecimal digit expected', '\\u{' + src[j:j + 1])
    value = 0
    while j < len(src) and src[j] in _HEX_DIGITS:
        if value > 0x7FFFFFF:
            fail('UTF-8 value too large', '\\' + src[i:j + 1])
        value = value * 16 + int(src[j], 16)
        j += 1
    if src[j:j + 1] != '}':
        fail("missing '}'", '\\' + src[i:j + 1])
    return utf8_bytes(value), j + 1


def utf8_bytes(code: int) -> str:
    """luaO_utf8esc: up to six bytes, for values up to 2^31 - 1."""
    if code < 0x80:
        return chr(code)
    out = []
    room = 0x3F                     # what still fits in the first byte
    while True:
        out.append(chr(0x80 | (code & 0x3F)))
        code >>= 6
        room >>= 1
        if code <= room:
            break
    out.append(chr((~room << 1 | code) & 0xFF))
    return ''.join(reversed(out))
