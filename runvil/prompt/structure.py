"""Steps 4 to 8 of the parse order: the H1, the fence rule, the H1 body and
every section in document order, building the section tree on the way."""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import Location, ParseError, ParseErrorKind
from .luacompile import compile_block
from .model import Frontmatter, LuaBlock, Piece, Prompt, Section
from .pieces import h1_pieces, list_items, roles, section_pieces
from .scan import Heading, LuaFence, Scan, Text
from .source import Body

_UNCLOSED_FORMS = {
    'prologue': 'section `%s` prologue `lua` fence is not closed',
    'epilog': 'section `%s` epilog `lua` fence is not closed',
    'lua': 'section `%s` `lua` fence is not closed',
}


@dataclass
class _Node:
    """A section while the tree is being built."""
    heading: Heading
    pieces: tuple[Piece, ...] = ()
    items: tuple = ()
    children: list['_Node'] = field(default_factory=list)
    names: dict[str, int] = field(default_factory=dict)  # child name -> file line

    def freeze(self, body: Body) -> Section:
        return Section(self.heading.name, self.heading.level, body.file_line(self.heading.index),
                       self.pieces, self.items, tuple(child.freeze(body) for child in self.children))


class _Builder:
    def __init__(self, frontmatter: Frontmatter, body: Body, scanned: Scan):
        self.frontmatter = frontmatter
        self.body = body
        self.items = scanned.items
        self.scanned = scanned
        self.name = frontmatter.name

    def build(self, source_path: str | None) -> Prompt:
        h1 = self._h1()
        self._fence_rule()
        h1_body = self._h1_body(h1)
        sections = self._sections()
        return Prompt(self.frontmatter, h1.name, self.body.file_line(h1.index), h1_body,
                      tuple(node.freeze(self.body) for node in sections), source_path)

    # Step 4 and 5.
    def _h1(self) -> Heading:
        titles = [heading for heading in self.scanned.headings() if heading.level == 1]
        if not titles:
            raise self._error(ParseErrorKind.STRUCTURE, 'prompt requires an H1 title')
        if len(titles) > 1:
            lines = ', '.join(str(self.body.file_line(heading.index)) for heading in titles)
            raise self._error(ParseErrorKind.STRUCTURE, 'prompt must contain exactly one H1 title, '
                              'found %d at lines %s' % (len(titles), lines))
        if not titles[0].name:
            raise self._error(ParseErrorKind.STRUCTURE, 'prompt H1 title must not be empty')
        return titles[0]

    # Step 6: only the first break is reported.
    def _fence_rule(self) -> None:
        if self.scanned.problem is not None:
            message, index = self.scanned.problem
            raise self._error(ParseErrorKind.FENCE, message, index)
        last = self.items[-1] if self.items else None
        if isinstance(last, LuaFence) and last.close is None:
            # An unclosed fence runs to the end of the file, so it is its
            # section's last item; the H1 exists (step 4), so a heading precedes it.
            start = max(i for i, item in enumerate(self.items) if isinstance(item, Heading))
            heading = self.items[start]
            role, _ = roles(self.items[start + 1:], self.body.lines)[last.open]
            raise self._error(ParseErrorKind.FENCE, _UNCLOSED_FORMS[role] % heading.name)

    # Step 7.
    def _h1_body(self, h1: Heading) -> tuple[Piece, ...]:
        first = next(i for i, item in enumerate(self.items) if isinstance(item, Heading))
        for item in self.items[:first]:
            start = item.open if isinstance(item, LuaFence) else _first_nonblank(self.body.lines, item)
            if start is not None:
                raise self._error(ParseErrorKind.STRUCTURE, 'the prompt body must start with its H1 title, '
                                  'but line %d comes first' % self.body.file_line(start), start)
        pieces = h1_pieces(h1.name, self._content(next(i for i, item in enumerate(self.items) if item is h1)), self.body)
        _compile(pieces)
        return pieces

    # Step 8.
    def _sections(self) -> list[_Node]:
        stack: list[tuple[int, _Node | None]] = []   # (level, node); the H1 is (1, None)
        top: list[_Node] = []
        h1_names: dict[str, int] = {}
        for position, item in enumerate(self.items):
            if not isinstance(item, Heading):
                continue
            if item.level == 1:
                stack = [(1, None)]
                continue
            while stack and stack[-1][0] >= item.level:
                stack.pop()
            if not item.name:
                raise self._error(ParseErrorKind.STRUCTURE,
                                  'an H%d section heading must not be empty' % item.level, item.index)
            if not stack or stack[-1][0] != item.level - 1:
                raise self._error(ParseErrorKind.STRUCTURE, 'section `%s` is an orphan H%d heading with no '
                                  'parent H%d' % (item.name, item.level, item.level - 1), item.index)
            parent = stack[-1][1]
            names = parent.names if parent is not None else h1_names
            line = self.body.file_line(item.index)
            if item.name in names:
                raise self._error(ParseErrorKind.STRUCTURE, 'duplicate sibling section name `%s`: first declared '
                                  'at line %d, again at line %d; sibling section names must be unique'
                                  % (item.name, names[item.name], line), item.index)
            names[item.name] = line
            node = self._section(item, position)
            (parent.children if parent is not None else top).append(node)
            stack.append((item.level, node))
        return top

    def _section(self, heading: Heading, position: int) -> _Node:
        content = self._content(position)
        items = list_items(content, self.body)
        if items is not None:
            if any(not item.text for item in items):
                raise self._error(ParseErrorKind.LIST, 'empty bullet item in list section `%s`' % heading.name)
            return _Node(heading, section_pieces(heading.name, content, self.body), items)
        pieces = section_pieces(heading.name, content, self.body)
        _compile(pieces)
        return _Node(heading, pieces)

    def _content(self, position: int) -> list[Text | LuaFence]:
        """The items after the heading at ``position`` up to the next heading."""
        end = position + 1
        while end < len(self.items) and not isinstance(self.items[end], Heading):
            end += 1
        return self.items[position + 1:end]

    def _error(self, kind: ParseErrorKind, message: str, index: int | None = None) -> ParseError:
        """A body error under the prompt's name; a located one points at
        column 1 of body line ``index`` and spans that line."""
        if index is None:
            return ParseError(kind, message, Location(self.name))
        return ParseError(kind, message, Location(self.name, self.body.file_line(index), 1, self.body.span(index)))


def _compile(pieces: tuple[Piece, ...]) -> None:
    for piece in pieces:
        if isinstance(piece, LuaBlock):
            compile_block(piece)


def _first_nonblank(lines: list[str], text: Text) -> int | None:
    return next((i for i in range(text.start, text.end) if lines[i].strip()), None)


def build(frontmatter: Frontmatter, body: Body, scanned: Scan, source_path: str | None) -> Prompt:
    return _Builder(frontmatter, body, scanned).build(source_path)
