"""Whether this build can run a parsed prompt.  A prompt without a runvil
version still parses; running it fails, so the Engine asks here first."""
from __future__ import annotations

from .errors import UnsupportedVersion, frontmatter_error
from .model import Prompt

SUPPORTED_MAJOR = 0


def require_runnable(prompt: Prompt) -> None:
    """Raise the ParseError (run error kind Parse) or UnsupportedVersion
    (run error kind Version) that keeps ``prompt`` from running."""
    version = prompt.frontmatter.runvil
    if version is None:
        raise frontmatter_error('not a runvil prompt: no runvil version')
    if version.major != SUPPORTED_MAJOR:
        raise UnsupportedVersion('unsupported runvil version: %s (this build supports major %d)'
                                 % (version.text, SUPPORTED_MAJOR))
