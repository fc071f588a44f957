"""Decode frontmatter YAML into a tree of values that remember where they
were written, so a contract check can point at the offending value.

The YAML 1.2 core schema applies: only true/false are booleans and only
null/~/empty are null, so `name: no` stays a string.  Values are built from
the composed node graph, never by PyYAML's constructors, so no tag can make
Python objects, and aliases are refused instead of being expanded.
"""
from __future__ import annotations

import math
import re
from bisect import bisect_right
from dataclasses import dataclass

import yaml

from .errors import frontmatter_error

_INT = re.compile(r'[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+')
_DECIMAL_INT = re.compile(r'[-+]?[0-9]+')
_FLOAT = re.compile(r'[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?'
                    r'|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)')
_BOOL = re.compile(r'true|True|TRUE|false|False|FALSE')
_NULL = re.compile(r'~|null|Null|NULL|')

_TAG = 'tag:yaml.org,2002:'


# Deeper than any frontmatter needs, and shallow enough both for Python's
# default recursion limit while composing and for PyYAML's scanner, which
# re-checks every open flow level at each token: 5,000 unclosed '[' took
# 9-17 s to refuse.
MAX_NESTING = 100
NESTS_TOO_DEEPLY = 'the YAML nests too deeply'


class _CoreLoader(yaml.SafeLoader):
    """Composes only; implicit tags follow the YAML 1.2 core schema; nesting
    stops at ``MAX_NESTING`` collections, refused where it passes."""

    def _refuse_deeper(self):
        if self.flow_level + len(self.indents) >= MAX_NESTING:
            raise yaml.scanner.ScannerError(None, None, NESTS_TOO_DEEPLY, self.get_mark())

    def fetch_flow_collection_start(self, TokenClass):
        self._refuse_deeper()
        super().fetch_flow_collection_start(TokenClass)

    def add_indent(self, column):
        if self.indent < column:
            self._refuse_deeper()
        return super().add_indent(column)

    def compose_node(self, parent, index):
        # Refused where written: an expanded alias would also lose its position.
        if self.check_event(yaml.AliasEvent):
            raise yaml.composer.ComposerError(None, None, 'YAML aliases are not supported',
                                              self.peek_event().start_mark)
        return super().compose_node(parent, index)


_CoreLoader.yaml_implicit_resolvers = {}
for _tag, _regex, _first in (
        ('null', _NULL, ['~', 'n', 'N', '']),
        ('bool', _BOOL, list('tTfF')),
        ('int', _INT, list('-+0123456789')),
        ('float', _FLOAT, list('-+.0123456789'))):
    _CoreLoader.add_implicit_resolver(_TAG + _tag, re.compile(r'\A(?:%s)\Z' % _regex.pattern), _first)


@dataclass(eq=False)
class YNode:
    """A decoded YAML value.  ``kind`` is a core type name: str, int, float,
    bool, null, seq or map.  ``value`` is the Python value for scalars, a list
    of YNode for seq and a list of (key, value) YNode pairs for map.  ``raw``
    is a scalar as written; ``line`` and ``column`` (1-based, byte column) are
    where the node starts in the prompt file."""
    kind: str
    value: object
    raw: str
    plain: bool
    line: int
    column: int

    def is_bare_int(self) -> bool:
        """An unquoted, untagged decimal integer such as ``50``."""
        return self.kind == 'int' and self.plain and _DECIMAL_INT.fullmatch(self.raw) is not None

    def shown(self) -> str:
        """How a message names this value: scalars as written, collections by kind."""
        if self.kind == 'map':
            return 'a mapping'
        if self.kind == 'seq':
            return 'a list'
        if not self.raw.strip():
            return 'nothing' if self.kind == 'null' else '"%s"' % self.raw
        return self.raw


class _Positions:
    """Maps a character index in the frontmatter text to a file line and a
    1-based byte column.  Lines break at LF only, as the body's do, so a stray
    CR or U+2028 that YAML treats as a break never shifts the numbering."""

    def __init__(self, text: str, first_line: int):
        self._text = text
        self._first_line = first_line
        self._starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == '\n']

    def at(self, index: int) -> tuple[int, int]:
        index = min(index, len(self._text))
        row = bisect_right(self._starts, index) - 1
        start = self._starts[row]
        column = len(self._text[start:index].encode('utf-8', 'surrogatepass')) + 1
        return self._first_line + row, column


def decode(text: str, first_line: int) -> YNode | None:
    """Decode the frontmatter ``text`` whose first line is file line
    ``first_line``; None for an empty document."""
    positions = _Positions(text, first_line)
    try:
        root = yaml.compose(text, Loader=_CoreLoader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        detail = ', '.join(part for part in (err.context, err.problem, err.note) if part)
        raise _positioned('invalid frontmatter: ' + detail, positions, mark.index if mark else None)
    except yaml.reader.ReaderError as err:
        detail = '%s (#x%04x)' % (err.reason, err.character) if isinstance(err.character, int) else err.reason
        raise _positioned('invalid frontmatter: ' + detail, positions, err.position)
    except RecursionError:
        raise frontmatter_error('invalid frontmatter: ' + NESTS_TOO_DEEPLY) from None
    if root is None:
        return None
    return _Builder(positions).build(root)


def _positioned(message: str, positions: _Positions, index: int | None):
    if index is None:
        return frontmatter_error(message)
    line, column = positions.at(index)
    return frontmatter_error('%s at line %d column %d' % (message, line, column), line, column)


class _Builder:
    def __init__(self, positions: _Positions):
        self._positions = positions

    def build(self, node: yaml.Node) -> YNode:
        line, column = self._positions.at(node.start_mark.index)
        if isinstance(node, yaml.MappingNode):
            pairs = [(self.build(k), self.build(v)) for k, v in node.value]
            self._refuse_duplicate_keys(pairs)
            return YNode('map', pairs, '', False, line, column)
        if isinstance(node, yaml.SequenceNode):
            return YNode('seq', [self.build(item) for item in node.value], '', False, line, column)
        return self._scalar(node, line, column)

    @staticmethod
    def _scalar(node: yaml.ScalarNode, line: int, column: int) -> YNode:
        raw = node.value
        plain = node.style is None
        kind = node.tag[len(_TAG):] if node.tag.startswith(_TAG) else None
        converters = {'str': str, 'int': _to_int, 'float': _to_float,
                      'bool': _to_bool, 'null': _to_null}
        if kind not in converters:
            raise frontmatter_error('invalid frontmatter: unsupported YAML tag %s' % node.tag, line, column)
        try:
            value = converters[kind](raw)
        except ValueError:
            raise frontmatter_error('invalid frontmatter: %r is not a valid %s' % (raw, kind), line, column) from None
        return YNode(kind, value, raw, plain, line, column)

    @staticmethod
    def _refuse_duplicate_keys(pairs) -> None:
        seen = set()
        for key, _ in pairs:
            if key.raw in seen and key.kind not in ('map', 'seq'):
                raise frontmatter_error(
                    'invalid frontmatter: key `%s` is given more than once' % key.raw, key.line, key.column)
            seen.add(key.raw)


def _to_int(raw: str) -> int:
    if _DECIMAL_INT.fullmatch(raw):
        return int(raw, 10)
    if raw[:2] in ('0o', '0x'):
        return int(raw[2:], 8 if raw[1] == 'o' else 16)
    raise ValueError(raw)


def _to_float(raw: str) -> float:
    lowered = raw.lower()
    if lowered.endswith('.inf'):
        return -math.inf if lowered.startswith('-') else math.inf
    if lowered == '.nan':
        return math.nan
    return float(raw)


def _to_bool(raw: str) -> bool:
    if _BOOL.fullmatch(raw):
        return raw.lower() == 'true'
    raise ValueError(raw)


def _to_null(raw: str) -> None:
    if not _NULL.fullmatch(raw):
        raise ValueError(raw)
