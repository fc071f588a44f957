"""The errors a prompt file can raise before anything runs.

A ParseError stores its kind; nothing ever works the kind out from the
message text, so rewording a message can never reclassify a failure.
"""
from __future__ import annotations

from enum import Enum

from ..vocabulary.engine_source import engine_position
from ..vocabulary.location import Location

PROMPT_PLACEHOLDER = '<prompt>'
"""Location path of a failure found before the prompt's name is known (and of
every frontmatter and Lua failure); a Host shows its own label instead."""


class ParseErrorKind(str, Enum):
    FRONTMATTER = 'Frontmatter'
    STRUCTURE = 'Structure'
    FENCE = 'Fence'
    LIST = 'List'
    LUA = 'Lua'
    INTERNAL = 'Internal'

    @property
    def code(self) -> str:
        """The diagnostic code a Host shows, e.g. ``parse_frontmatter``."""
        return 'parse_' + self.value.lower()


class ParseError(Exception):
    """A prompt file that cannot run.  ``str(err)`` is the message; the
    message already holds its cause, so the error is raised without a chain."""

    def __init__(self, kind: ParseErrorKind, message: str, location: Location):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.location = location
        self.source_path: str | None = None  # the file the Host parsed, if any

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict:
        return {'kind': self.kind.value, 'message': self.message,
                'location': self.location.to_dict()}


class UnsupportedVersion(Exception):
    """The prompt declares a runvil major version this build cannot run;
    a run reports it as run error kind Version."""

    kind = 'Version'

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def frontmatter_error(message: str, line: int | None = None,
                      column: int | None = None) -> ParseError:
    return ParseError(ParseErrorKind.FRONTMATTER, message,
                      Location(PROMPT_PLACEHOLDER, line, column))


def internal_error(message: str, tb=None) -> ParseError:
    """An Internal failure located at the Engine source line that broke:
    the innermost runvil frame of ``tb``, or the caller when ``tb`` is None."""
    filename, line = engine_position(tb)
    return ParseError(ParseErrorKind.INTERNAL, message, Location(filename, line))
