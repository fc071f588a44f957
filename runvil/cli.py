"""The ``runvil`` command line.

Each subcommand registers itself with ``_add_<name>`` and handles its parsed
arguments in ``_<name>``, returning the exit status.
"""
from __future__ import annotations

import argparse
import json
import sys

from .batch.command import add_batch
from .host.command import add_run
from .host.diagnostics import file_problem
from .host.models_command import add_models
from .workshop.command import add_workshop


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog='runvil', description='Run Markdown prompt files.')
    commands = parser.add_subparsers(dest='command', required=True, metavar='COMMAND')
    _add_check(commands)
    add_run(commands)
    add_batch(commands)
    add_models(commands)
    add_workshop(commands)
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
    problem = file_problem(args.prompt)
    if args.json:
        print(json.dumps({'ok': problem is None, 'file': args.prompt,
                          'error': problem.to_dict() if problem else None}))
    elif problem is None:
        print('ok')
    else:
        for line in problem.render(args.prompt):
            print(line, file=sys.stderr)
    return 0 if problem is None else 1
