"""Compile-check Lua blocks with pylua's public API.

Each block is compiled on its own under the chunk name ``block``, so the
diagnostic reads ``block:3: ...`` with a line counted from the block's first
Lua line (block line 1 is the file line the message names).
"""
from __future__ import annotations

from .errors import PROMPT_PLACEHOLDER, Location, ParseError, ParseErrorKind, internal_error
from .model import LuaBlock

CHUNKNAME = 'block'


def compile_block(block: LuaBlock) -> None:
    try:
        # Imported here, not at module load: `import runvil` stays cheap and a
        # compiler that cannot start fails the parse as Internal, not the import.
        from pylua import LuaSyntaxError, compile_check
    except ImportError as err:
        raise internal_error('the Lua compiler could not start: %s' % err) from None
    try:
        compile_check(block.source, CHUNKNAME)
    except ImportError as err:  # a part of the compiler that loads on first use
        raise internal_error('the Lua compiler could not start: %s' % err) from None
    except LuaSyntaxError as err:
        raise ParseError(
            ParseErrorKind.LUA,
            'lua compilation error at %s (line %d): %s' % (block.label, block.line, err),
            Location(PROMPT_PLACEHOLDER)) from None
