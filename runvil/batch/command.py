"""``runvil batch PROMPT --inputs FILE``: the command's flags and its
handler.  Registering it imports nothing heavy."""
from __future__ import annotations

import argparse
import sys

ENGINES = ('local', 'ray')


def add_batch(commands) -> None:
    batch = commands.add_parser(
        'batch', help='run a prompt over every input of a dataset',
        description='Run PROMPT once per input line of --inputs (JSON lines, or CSV), writing one '
                    'JSON line per finished run to --out.  Exit status 0 when every run completed, '
                    '1 when a run failed or an input line was skipped, 2 for a setup error, '
                    '130 when stopped with Ctrl-C.  See docs/batch.md.')
    add_arguments(batch)
    batch.set_defaults(handler=handle)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..host.command import add_harness_flags
    parser.add_argument('prompt', metavar='PROMPT', help='the prompt file (PROMPT.md)')
    parser.add_argument('--inputs', required=True, metavar='FILE',
                        help='one run per line: {"id", "input", "args"} JSON lines, or a .csv file')
    parser.add_argument('--out', metavar='FILE',
                        help='the results, one JSON line per run (default: INPUTS with .results.jsonl)')
    parser.add_argument('-j', '--jobs', type=_positive, metavar='N',
                        help='runs at once (default: the number of CPUs)')
    parser.add_argument('--engine', choices=ENGINES, default='local',
                        help='local: a pool of worker processes; ray: Ray tasks (pip install .[ray])')
    parser.add_argument('--ray-address', metavar='ADDR',
                        help='the Ray cluster to use (default: start a local Ray)')
    parser.add_argument('--resume', action='store_true',
                        help='skip the inputs whose ids --out already holds')
    parser.add_argument('--retry-failed', action='store_true',
                        help='rerun the inputs whose results in --out are retryable failures')
    parser.add_argument('--limit', type=_positive, metavar='K', help='run at most K inputs')
    add_harness_flags(parser)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError('expected a whole number of at least 1, got %r' % text)
    return value


def main(argv: list[str], stdout=None, stderr=None, environ=None, stop=None) -> int:
    """``runvil batch`` in-process, for tests and embedders; ``stop`` (a
    batch Stop) plays the part of Ctrl-C."""
    import os
    from .stop import Stop
    parser = argparse.ArgumentParser(prog='runvil batch')
    add_arguments(parser)
    args = parser.parse_args(argv)
    run_batch = _begin(args)
    return run_batch(args, stdout or sys.stdout, stderr or sys.stderr,
                     os.environ if environ is None else environ, stop or Stop())


def handle(args) -> int:
    import os
    from .stop import Stop, ctrl_c_stops
    run_batch = _begin(args)
    stop = Stop()
    with ctrl_c_stops(stop):
        return run_batch(args, sys.stdout, sys.stderr, os.environ, stop)


def _begin(args):
    """The local engine's workers start loading before this process imports
    the Engine for its own setup checks; returns ``run_batch``."""
    if args.engine == 'local':
        from .local_engine import start_fork_server
        start_fork_server()
    from .batch import run_batch
    return run_batch
