"""``runvil workshop [DIR]``: serve the Workshop on 127.0.0.1 and open it
in the browser.  Registering the command imports nothing heavy; the web
stack loads when the command runs."""
from __future__ import annotations

import argparse
import sys

from ..host.command import SETUP_ERROR, add_harness_flags

HOST = '127.0.0.1'
DEFAULT_PORT = 8470


def add_workshop(commands) -> None:
    workshop = commands.add_parser(
        'workshop', help='edit, run and chat with prompts in the browser',
        description='Serve the Workshop for the prompt files under DIR on 127.0.0.1 and open it in the '
                    'browser: live diagnostics, runs with live events, the run history, a chat.')
    add_arguments(workshop)
    workshop.set_defaults(handler=handle)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument('dir', metavar='DIR', nargs='?', default='.',
                        help='the directory of prompt files (default: the current one)')
    parser.add_argument('--port', type=int, default=DEFAULT_PORT,
                        help='the port on 127.0.0.1 (default: %d; 0 picks a free one)' % DEFAULT_PORT)
    parser.add_argument('--no-browser', action='store_true', help='do not open the browser')
    add_harness_flags(parser)


def handle(args, environ=None) -> int:
    import os
    from .server import serve
    try:
        return serve(args, os.environ if environ is None else environ)
    except ImportError as err:
        sys.stderr.write('runvil workshop: error: %s; install the workshop extra: '
                         "pip install 'runvil[workshop]'\n" % err)
        return SETUP_ERROR
