"""The parsed prompt: plain, immutable values the Engine walks."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Union


@dataclass(frozen=True)
class RunvilVersion:
    text: str   # as written, echoed by version messages
    major: int


@dataclass(frozen=True)
class ModelRole:
    """One entry under ``models:``; the Host binds the label to a model."""
    label: str
    model: str | None = None          # default model id when the Host binds none
    min_context: int | None = None    # tokens the bound model must offer
    requires: tuple[str, ...] = ()    # hard capability keywords
    prefers: tuple[str, ...] = ()     # soft capability keywords


@dataclass(frozen=True)
class PromptArg:
    """One entry under ``args:``, set by the Host (``--set NAME=VALUE``)."""
    name: str
    type: str                         # string | integer | number | boolean
    has_default: bool = False
    default: object = None
    description: str | None = None

    @property
    def required(self) -> bool:
        return not self.has_default


@dataclass(frozen=True)
class InputSpec:
    """The ``input:`` declaration: the prompt accepts input text."""
    description: str | None = None
    required: bool = True


@dataclass(frozen=True)
class Frontmatter:
    name: str
    description: str | None = None
    runvil: RunvilVersion | None = None
    max_tool_iterations: int | None = None
    uses: tuple[str, ...] = ()
    models: tuple[ModelRole, ...] = ()
    args: tuple[PromptArg, ...] = ()
    input: InputSpec | None = None

    def model_role(self, label: str) -> ModelRole | None:
        return next((role for role in self.models if role.label == label), None)


@dataclass(frozen=True)
class Prose:
    """A run of prose between Lua blocks, blank edges trimmed.  Fenced blocks
    of other languages are part of the prose, fences included."""
    text: str
    line: int       # file line of the first line
    end_line: int   # file line of the last line


@dataclass(frozen=True)
class LuaBlock:
    """A ```lua block.  ``role`` is ``prologue`` (it opens its section),
    ``epilog`` (the section's last block, when not the prologue), ``lua``
    (numbered 1, 2, ... between them) or ``h1`` (in the H1 body)."""
    role: str
    number: int | None
    label: str          # e.g. "section `Transform` epilog", "H1 `Title` lua"
    source: str         # the Lua between the fences, LF line ends
    line: int           # file line where the Lua starts (after the opening fence)
    fence_line: int     # file line of the opening ```lua
    end_line: int       # file line of the closing ```


Piece = Union[Prose, LuaBlock]


@dataclass(frozen=True)
class ListItem:
    text: str
    line: int


@dataclass(frozen=True)
class Section:
    name: str
    level: int                      # 2..6
    line: int                       # file line of the heading
    pieces: tuple[Piece, ...] = ()  # prose and Lua blocks in document order
    items: tuple[ListItem, ...] = ()  # set only for a list section
    children: tuple['Section', ...] = ()

    @property
    def blocks(self) -> tuple[LuaBlock, ...]:
        return tuple(p for p in self.pieces if isinstance(p, LuaBlock))

    @property
    def is_list(self) -> bool:
        return bool(self.items)

    def walk(self) -> Iterator['Section']:
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass(frozen=True)
class Prompt:
    frontmatter: Frontmatter
    title: str
    title_line: int
    body: tuple[Piece, ...]          # the H1 body, run in the H1 pass
    sections: tuple[Section, ...]    # the H2 sections, each a tree
    source_path: str | None = field(default=None, compare=False)

    @property
    def name(self) -> str:
        return self.frontmatter.name

    @property
    def h1_blocks(self) -> tuple[LuaBlock, ...]:
        return tuple(p for p in self.body if isinstance(p, LuaBlock))

    def walk(self) -> Iterator[Section]:
        """Every section in document order."""
        for section in self.sections:
            yield from section.walk()
