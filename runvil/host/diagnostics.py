"""What a Host reports for a prompt that cannot run: the first parse
problem under its diagnostic code (``parse_frontmatter``,
``parse_structure``, ``parse_fence``, ``parse_list``, ``parse_lua``,
``parse_internal``), an unsupported ``version``, or an unreadable file
(``io``).  ``runvil check`` prints it; the Workshop shows it in the editor."""
from __future__ import annotations

from dataclasses import dataclass

from .textfile import Unreadable, read_utf8


@dataclass
class Problem:
    code: str                  # parse_<kind>, version or io
    kind: str | None
    message: str
    location: dict | None
    prompt_line: int | None = None    # a line of the prompt file, when known
    prompt_column: int | None = None

    def to_dict(self) -> dict:
        return {'code': self.code, 'kind': self.kind, 'message': self.message, 'location': self.location}

    @property
    def shown_message(self) -> str:
        """The message prefixed ``line N:`` when the parser found the line."""
        prefix = 'line %d: ' % self.prompt_line if self.prompt_line is not None else ''
        return prefix + self.message

    def render(self, label: str) -> list[str]:
        lines = ['error[%s]: %s' % (self.code, self.shown_message)]
        if self.prompt_line is not None:
            lines.append('  --> %s:%d:%d' % (label, self.prompt_line, self.prompt_column or 1))
        elif self.kind == 'Internal':
            lines.append('  --> %s:%d' % (self.location['path'], self.location['line']))
        return lines


def file_problem(path: str) -> Problem | None:
    """The problem of the prompt file at ``path``, None when it can run."""
    try:
        text = read_utf8(path)
    except Unreadable as err:
        return Problem('io', None, str(err), None)
    return text_problem(text, path)


def text_problem(text: str, path: str | None) -> Problem | None:
    """The problem of prompt ``text`` (read from ``path``), None when it can run."""
    from ..prompt import ParseError, ParseErrorKind, UnsupportedVersion, parse, require_runnable
    try:
        require_runnable(parse(text, path=path))
    except ParseError as err:
        problem = Problem(err.kind.code, err.kind.value, err.message, err.location.to_dict())
        # An Internal fault's line is a line of Engine source, not of the prompt.
        if err.kind is not ParseErrorKind.INTERNAL:
            problem.prompt_line, problem.prompt_column = err.location.line, err.location.column
        return problem
    except UnsupportedVersion as err:
        return Problem('version', err.kind, err.message, None)
    return None
