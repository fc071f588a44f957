"""runvil.parse: a prompt file's text in, a Prompt or a ParseError out.

The checks run in the spec's order and the first failure is reported:
1. the frontmatter delimiters, 2. YAML decoding and the contract checks,
3. duplicate Pack ids, 4. the H1's presence and count, 5. an empty H1 title,
6. the fence rule, 7. the H1's blocks and their Lua, 8. each section in
document order.
"""
from __future__ import annotations

from . import frontmatter
from .errors import ParseError, internal_error
from .model import Prompt
from .scan import scan
from .source import normalize
from .structure import build


def parse(text: str, path: str | None = None) -> Prompt:
    """Parse a prompt file.  ``path`` names the file the text came from; it
    is kept on the Prompt and on a ParseError for the Host to label the file."""
    try:
        return _parse(text, path)
    except ParseError as err:
        err.source_path = path
        raise
    except Exception as err:  # anything else is a fault in the parser itself
        error = internal_error('internal invariant violated: %s: %s' % (type(err).__name__, err),
                               err.__traceback__)
        error.source_path = path
        raise error from None


def _parse(text: str, path: str | None) -> Prompt:
    yaml_text, body = frontmatter.split(normalize(text))
    contract = frontmatter.read(yaml_text)
    return build(contract, body, scan(body.lines), path)
