"""Heading references: how Lua names a section of the prompt
(``tasks.spawn``, ``tasks.fanout``, ``call``, ``jump``,
``tools.offer_tasks``).

A reference is a section's heading text, ``Child``, or its heading as
written, ``## Child``, which also fixes the level.  When several sections
match, the first in document order is meant.
"""
from __future__ import annotations

import re

from .failure import lua_failure

_WRITTEN = re.compile(r'(#{2,6}) (\S.*)\Z', re.DOTALL)


def heading(section) -> str:
    """A section's heading as written: ``## Child``."""
    return '%s %s' % ('#' * section.level, section.name)


def resolve(prompt, reference: str):
    """The section ``reference`` names; raises the malformed-reference or
    the not-found error (ordinary Lua errors)."""
    level, name = check_form(reference)
    for section in prompt.walk():
        if section.name == name and (level is None or section.level == level):
            return section
    available = ', '.join(heading(section) for section in prompt.walk()) or '(none)'
    raise lua_failure('section heading `%s` not found; available sections: %s' % (reference, available))


def check_form(reference: str) -> tuple[int | None, str]:
    """The level (None when not written) and the name a reference gives;
    raises the malformed-reference error."""
    if reference.startswith('#'):
        match = _WRITTEN.match(reference)
        if match is not None and match.group(2) == match.group(2).strip():
            return len(match.group(1)), match.group(2)
    elif reference.strip() and reference == reference.strip() and '\n' not in reference:
        return None, reference
    raise lua_failure('malformed heading reference `%s`: name a section by its heading text (`Child`) '
                      'or as written (`## Child`)' % reference)
