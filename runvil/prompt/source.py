"""The prompt text as the parser reads it, and how body positions are counted."""
from __future__ import annotations

BOM = '\ufeff'


def normalize(text: str) -> str:
    """Drop one leading byte-order mark and read CRLF as LF.  Line numbers
    stay those of the file as written; byte offsets are into this text."""
    if text.startswith(BOM):
        text = text[1:]
    return text.replace('\r\n', '\n')


class Body:
    """The lines after the frontmatter.  Lines break at LF only."""

    def __init__(self, lines: list[str], first_line: int):
        self.lines = lines
        self.first_line = first_line  # file line of lines[0]

    def file_line(self, index: int) -> int:
        return self.first_line + index

    def span(self, index: int) -> tuple[int, int]:
        """Byte span of line ``index`` (without its LF), counted from the start
        of the body; computed on demand, as only an error needs it."""
        start = sum(len(line.encode('utf-8', 'surrogatepass')) + 1 for line in self.lines[:index])
        return start, start + len(self.lines[index].encode('utf-8', 'surrogatepass'))
