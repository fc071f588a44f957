"""The prompt file format: frontmatter contract, H1, section tree, Lua blocks."""
from .errors import Location, ParseError, ParseErrorKind, UnsupportedVersion
from .model import (Frontmatter, InputSpec, ListItem, LuaBlock, ModelRole, Prompt, PromptArg, Prose,
                    RunvilVersion, Section)
from .parse import parse
from .version import require_runnable

__all__ = ['Frontmatter', 'InputSpec', 'ListItem', 'Location', 'LuaBlock', 'ModelRole', 'ParseError',
           'ParseErrorKind', 'Prompt', 'PromptArg', 'Prose', 'RunvilVersion', 'Section',
           'UnsupportedVersion', 'parse', 'require_runnable']
