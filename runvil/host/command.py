"""``runvil run PROMPT.md``: the Host's run command.

Registering the command imports nothing heavy; the Engine, pylua and the
prompt parser load when a run starts.
"""
from __future__ import annotations

import argparse
import sys

SETUP_ERROR = 2


def add_run(commands) -> None:
    run = commands.add_parser(
        'run', help='run a prompt file',
        description='Run PROMPT and print its result on stdout.  A failed run prints '
                    'error[KIND]: MESSAGE on stderr and exits 1; a cancelled run (Ctrl-C) exits 130.')
    add_arguments(run)
    run.set_defaults(handler=handle)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``runvil run``'s arguments: one prompt, how to report it, and the
    Harness flags every Host shares."""
    parser.add_argument('prompt', metavar='PROMPT', help='the prompt file (PROMPT.md)')
    parser.add_argument('--json', action='store_true',
                        help='print one JSON object {outcome, result, error} on stdout')
    parser.add_argument('--set', dest='args', action='append', default=[], metavar='NAME=VALUE',
                        help='set a prompt arg (repeatable)')
    source = parser.add_mutually_exclusive_group()
    source.add_argument('--input', dest='input_text', metavar='TEXT', help='input text for the prompt')
    source.add_argument('--input-file', metavar='PATH', help="read the input text from PATH ('-': stdin)")
    parser.add_argument('--events', metavar='FILE', help='write the run events to FILE as JSON lines')
    parser.add_argument('--log', action='store_true', help='show log checkpoints on stderr as they happen')
    parser.add_argument('--stream', action='store_true',
                        help="show each model reply's text on stderr as it streams in")
    add_harness_flags(parser)


def add_harness_flags(parser: argparse.ArgumentParser) -> None:
    """The flags that build a Harness (gateway debug, store, config, model
    roles, Packs, limits): the same on every Host (run, workshop, batch)."""
    parser.add_argument('--debug', action='store_true', help='record raw model traffic as events')
    parser.add_argument('--store', metavar='DIR', help="keep the run's store in DIR (docs/store.md)")
    parser.add_argument('--config', metavar='FILE',
                        help='read Harness settings from a TOML file ([limits], [models])')
    models = parser.add_argument_group('model roles (docs/models.md)')
    models.add_argument('--bind', action='append', default=[], metavar='ROLE=MODEL',
                        help='bind a model role to a gateway model id (repeatable)')
    models.add_argument('--default-model', metavar='MODEL',
                        help='the model id of roles nothing binds (default: "default")')
    models.add_argument('--model-context', action='append', default=[], metavar='MODEL=TOKENS',
                        help="a model's context window (repeatable; unknown models offer 8192)")
    parser.add_argument('--pack', dest='packs', action='append', default=[], metavar='MODULE',
                        help='load the Packs a Python module lists in PACKS (repeatable; docs/tools.md); '
                             'runvil.testing.packs is the built-in test Pack `web`')
    limits = parser.add_argument_group('run limits (Harness settings; defaults in parentheses)')
    limits.add_argument('--round-cap', type=int, metavar='N', help='model rounds per loop call (24)')
    limits.add_argument('--concurrency', type=int, metavar='N', help='tasks running at once (8)')
    limits.add_argument('--response-cap', type=_size, metavar='SIZE', help='bytes per model reply (16MiB)')
    limits.add_argument('--memory-ceiling', type=_size, metavar='SIZE',
                        help='Lua heap per section VM (64MiB)')
    limits.add_argument('--log-event-quota', type=int, metavar='N',
                        help='log calls per section VM (1024; 256 bytes of log byte quota each)')
    limits.add_argument('--receive-timeout', type=float, metavar='SECONDS',
                        help='wait for the next part of a model reply (120)')


def _size(text: str) -> int:
    from .settings import parse_size
    try:
        return parse_size(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def main(argv: list[str], stdout=None, stderr=None, run_handle=None, environ=None) -> int:
    """``runvil run`` in-process, for tests and embedders: ``argv`` are the
    command's arguments; ``run_handle`` lets the caller cancel or stop;
    ``environ`` replaces ``os.environ`` (the gateway variables)."""
    parser = argparse.ArgumentParser(prog='runvil run')
    add_arguments(parser)
    return _run(parser.parse_args(argv), stdout or sys.stdout, stderr or sys.stderr, run_handle, environ)


def handle(args) -> int:
    from ..harness import RunHandle
    from .interrupt import ctrl_c_cancels
    run_handle = RunHandle()
    with ctrl_c_cancels(run_handle):
        return _run(args, sys.stdout, sys.stderr, run_handle)


def _run(args, stdout, stderr, run_handle, environ=None) -> int:
    import os
    from .runner import SetupError, run_prompt
    try:
        return run_prompt(args, stdout, stderr, run_handle, os.environ if environ is None else environ)
    except SetupError as err:
        stderr.write('runvil run: error: %s\n' % err)
        return SETUP_ERROR
