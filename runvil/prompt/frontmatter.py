"""Find the frontmatter block at the top of a prompt and decode it."""
from __future__ import annotations

from .contract import check_unique_packs, validate
from .errors import frontmatter_error
from .model import Frontmatter
from .source import Body
from .yamltree import decode

DELIMITER = '---'


def split(text: str) -> tuple[str, Body]:
    """The frontmatter text (lines 2.. of the file) and the body after it."""
    lines = text.split('\n')
    if not _is_delimiter(lines[0]):
        raise frontmatter_error('file must begin with a --- frontmatter delimiter')
    for index in range(1, len(lines)):
        if _is_delimiter(lines[index]):
            break
    else:
        raise frontmatter_error('frontmatter was not closed with ---')
    yaml_lines = lines[1:index]
    yaml_text = ''.join(line + '\n' for line in yaml_lines)
    # File line index + 1 is the closing delimiter; the body starts after it.
    return yaml_text, Body(lines[index + 1:], index + 2)


def _is_delimiter(line: str) -> bool:
    # Trailing blanks are invisible in an editor, so they do not break a delimiter.
    return line.rstrip(' \t') == DELIMITER


def read(yaml_text: str) -> Frontmatter:
    """Decode and validate; steps 2 and 3 of the parse order."""
    frontmatter = validate(decode(yaml_text, first_line=2))
    check_unique_packs(frontmatter)
    return frontmatter
