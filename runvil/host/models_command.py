"""``runvil models``: the models the gateway lists at ``GET {url}/models``.

One model per line, its id and, when the server says it, its context window
in tokens after a tab; ``--json`` prints ``{"models": [{"id",
"context_window"}]}``.  The gateway comes from the same environment
variables as a run's.  A setup problem exits 2, a failed listing 1.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

SETUP_ERROR = 2
LIST_FAILED = 1


def add_models(commands) -> None:
    parser = commands.add_parser(
        'models', help="list the gateway's models",
        description='List the models the gateway at RUNVIL_GATEWAY_URL offers (GET {url}/models): '
                    'one per line, its id and, when the server says it, its context window in tokens '
                    'after a tab.')
    add_arguments(parser)
    parser.set_defaults(handler=lambda args: _list(args, sys.stdout, sys.stderr, os.environ))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument('--json', action='store_true',
                        help='print one JSON object {"models": [{"id", "context_window"}]}')
    parser.add_argument('--timeout', type=float, default=10.0, metavar='SECONDS',
                        help='give up on the listing after this long (10)')


def main(argv: list[str], stdout=None, stderr=None, environ=None) -> int:
    """``runvil models`` in-process, for tests: ``environ`` replaces ``os.environ``."""
    parser = argparse.ArgumentParser(prog='runvil models')
    add_arguments(parser)
    return _list(parser.parse_args(argv), stdout or sys.stdout, stderr or sys.stderr,
                 os.environ if environ is None else environ)


def _list(args, stdout, stderr, environ) -> int:
    from ..gateway import CompletionError, GatewayClient, GatewaySetupError, load_gateway_config
    try:
        config = load_gateway_config(environ)
    except GatewaySetupError as err:
        stderr.write('runvil models: error: %s\n' % err)
        return SETUP_ERROR
    if not args.timeout > 0:
        stderr.write('runvil models: error: --timeout must be positive\n')
        return SETUP_ERROR
    try:
        with GatewayClient(config) as client:
            models = client.list_models(timeout=args.timeout)
    except CompletionError as err:
        stderr.write('runvil models: error: %s\n' % err)
        return LIST_FAILED
    if args.json:
        stdout.write(json.dumps({'models': [{'id': m.id, 'context_window': m.context_window}
                                            for m in models]}, ensure_ascii=False) + '\n')
    else:
        for model in models:
            stdout.write(model.id if model.context_window is None else '%s\t%d' % (model.id, model.context_window))
            stdout.write('\n')
    return 0
