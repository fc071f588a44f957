"""Where a failure points: a prompt file position, or for an Internal
failure an Engine source line.  Parse errors and run failures share it."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    """Where a failure points.

    ``line`` and ``column`` are 1-based; the column counts UTF-8 bytes.
    ``span`` is a half-open ``(start, end)`` byte range into the prompt body
    (the text after the frontmatter and any byte-order mark, CRLF read as LF).
    For an Internal failure ``path`` is an Engine source file and ``line`` a
    line in it.
    """
    path: str
    line: int | None = None
    column: int | None = None
    span: tuple[int, int] | None = None

    def to_dict(self) -> dict:
        return {'path': self.path, 'line': self.line, 'column': self.column,
                'span': list(self.span) if self.span is not None else None}
