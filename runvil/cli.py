"""The ``runvil`` command line.

Each subcommand registers itself with ``_add_<name>`` and handles its parsed
arguments in ``_<name>``, returning the exit status.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass

from .host.command import add_run
from .host.models_command import add_models


class _Unreadable(Exception):
    """The prompt file could not be read as UTF-8 text."""


def read_prompt(path: str) -> str:
    try:
        with open(path, 'rb') as handle:
            data = handle.read()
    except OSError as err:
        raise _Unreadable('cannot read %s: %s' % (path, err.strerror or err)) from None
    try:
        return data.decode('utf-8')
    except UnicodeDecodeError as err:
        raise _Unreadable('cannot read %s: not UTF-8 text (byte %d)' % (path, err.start)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog='runvil', description='Run Markdown prompt files.')
    commands = parser.add_subparsers(dest='command', required=True, metavar='COMMAND')
    _add_check(commands)
    add_run(commands)
    add_models(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.handler(args)


# check ---------------------------------------------------------------------

def _add_check(commands) -> None:
    check = commands.add_parser(
        'check', help='check that a prompt file parses and this build can run it',
        description='Parse PROMPT and report ok, or the first problem with its diagnostic code '
                    '(parse_frontmatter, parse_structure, parse_fence, parse_list, parse_lua, '
                    'parse_internal, version). Exit status 0 when ok, 1 otherwise.')
    check.add_argument('prompt', metavar='PROMPT', help='the prompt file (PROMPT.md)')
    check.add_argument('--json', action='store_true', help='print one JSON object on stdout')
    check.set_defaults(handler=_check)


def _check(args) -> int:
    problem = _check_problem(args.prompt)
    if args.json:
        print(json.dumps({'ok': problem is None, 'file': args.prompt,
                          'error': problem.to_dict() if problem else None}))
    elif problem is None:
        print('ok')
    else:
        for line in problem.render(args.prompt):
            print(line, file=sys.stderr)
    return 0 if problem is None else 1


@dataclass
class _Problem:
    code: str                  # parse_<kind>, version or io
    kind: str | None
    message: str
    location: dict | None
    prompt_line: int | None = None    # a line of the prompt file, when known
    prompt_column: int | None = None

    def to_dict(self) -> dict:
        return {'code': self.code, 'kind': self.kind, 'message': self.message, 'location': self.location}

    def render(self, label: str) -> list[str]:
        prefix = 'line %d: ' % self.prompt_line if self.prompt_line is not None else ''
        lines = ['error[%s]: %s%s' % (self.code, prefix, self.message)]
        if self.prompt_line is not None:
            lines.append('  --> %s:%d:%d' % (label, self.prompt_line, self.prompt_column or 1))
        elif self.kind == 'Internal':
            lines.append('  --> %s:%d' % (self.location['path'], self.location['line']))
        return lines


def _check_problem(path: str) -> _Problem | None:
    from .prompt import ParseError, ParseErrorKind, UnsupportedVersion, parse, require_runnable
    try:
        require_runnable(parse(read_prompt(path), path=path))
    except _Unreadable as err:
        return _Problem('io', None, str(err), None)
    except ParseError as err:
        problem = _Problem(err.kind.code, err.kind.value, err.message, err.location.to_dict())
        # An Internal fault's line is a line of Engine source, not of the prompt.
        if err.kind is not ParseErrorKind.INTERNAL:
            problem.prompt_line, problem.prompt_column = err.location.line, err.location.column
        return problem
    except UnsupportedVersion as err:
        return _Problem('version', err.kind, err.message, None)
    return None
