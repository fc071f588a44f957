"""One ``runvil run``: read the files, build the Harness from the flags,
run, and report the outcome by the CLI contract."""
from __future__ import annotations

import sys
from dataclasses import dataclass

from ..engine import Outcome
from ..harness import EventStream, Harness, RunHandle
from ..harness.limits import LIMIT_NAMES
from ..harness.store_answerer import DirectoryStore
from . import report
from .model_settings import ModelSources, build_environment, declared_roles, gateway_client, model_sources
from .rejections import RejectionRecorder, rejection_hint
from ..tools import load_packs
from .settings import SettingsError, build_limits, pack_modules
from .textfile import Unreadable, read_utf8
from .sinks import JsonLinesFile, LiveLog, LiveReplies


class SetupError(Exception):
    """Something the Host could not set up; no run started."""


@dataclass
class HostSetup:
    """What the Harness flags build, the same for every Host: the limits,
    the model environment (bindings, Packs), the gateway client and the store;
    where the model ids came from and the prompt's roles, for the hint on a
    rejected round."""
    limits: object
    environment: object
    gateway: RejectionRecorder
    store: DirectoryStore | None
    debug: bool
    model_sources: ModelSources
    roles: tuple = ()

    def harness(self, *, live=None, operator=None) -> Harness:
        return Harness(self.limits, self.environment, debug=self.debug, gateway=self.gateway,
                       live=live, operator=operator, store=self.store)

    def rejection_hint(self, outcome) -> list[str]:
        """The hint's lines when a rejected round failed the run, else none."""
        if outcome.status != 'failed':
            return []
        return rejection_hint(outcome.to_dict()['error'], self.gateway, self.model_sources, self.roles,
                              self.debug)

    def close(self) -> None:
        self.gateway.close()


def host_setup(args, environ, prompt_text: str) -> HostSetup:
    """Build the Harness parts from the flags of ``add_harness_flags``;
    ``prompt_text`` lets the gateway settings read what the prompt declares."""
    try:
        limits = build_limits(args.config, {name: getattr(args, name) for name in LIMIT_NAMES})
        environment = build_environment(args.config, args.bind, args.default_model, args.model_context,
                                        _packs(args))
    except SettingsError as err:
        raise SetupError(str(err)) from None
    gateway = RejectionRecorder(_gateway(environ, prompt_text, limits))
    store = None if args.store is None else DirectoryStore(args.store)
    sources = model_sources(args.config, args.bind, args.default_model)
    return HostSetup(limits, environment, gateway, store, args.debug, sources, declared_roles(prompt_text))


def run_prompt(args, stdout, stderr, run_handle: RunHandle | None, environ) -> int:
    text = read_text(args.prompt, 'prompt')
    input_text = args.input_text
    if args.input_file is not None:
        input_text = sys.stdin.read() if args.input_file == '-' else read_text(args.input_file, 'input')
    setup = host_setup(args, environ, text)
    sinks = [LiveLog(stderr)] if args.log else []
    events_file = None
    if args.events:
        try:
            events_file = JsonLinesFile(args.events)
        except OSError as err:
            setup.close()
            raise SetupError('cannot write events to %s: %s' % (args.events, err.strerror or err)) from None
        sinks.append(events_file)
    live = LiveReplies(stderr) if args.stream else None
    hint = []
    try:
        harness = setup.harness(live=live, operator=_terminal_operator(stderr))
        outcome = harness.run(
            text, args.prompt, input_text=input_text, args=_prompt_args(args.args),
            handle=run_handle, events=EventStream(sinks))
        hint = setup.rejection_hint(outcome)     # before close: it may ask the gateway
    except KeyboardInterrupt:   # a second Ctrl-C: stop waiting for the teardown
        outcome = Outcome.cancelled()
    finally:
        setup.close()
        if live is not None:
            live.close()
        if events_file is not None:
            events_file.close()
    if args.json:
        stdout.write(report.as_json(outcome, args.prompt, hint) + '\n')
    else:
        report.as_text(outcome, args.prompt, stdout, stderr, hint)
    stdout.flush()
    return report.EXIT_CODES[outcome.status]


def _terminal_operator(stderr):
    """``input.ask``: the question on stderr, the answer a line of stdin
    (None once stdin has ended)."""
    def ask(question: str) -> str | None:
        stderr.write('? %s\n' % question)
        stderr.flush()
        line = sys.stdin.readline()
        return line[:-1] if line.endswith('\n') else (line or None)
    return ask


def _packs(args) -> dict:
    try:
        return load_packs(pack_modules(args.config, args.packs))
    except ValueError as err:
        raise SettingsError(str(err)) from None


def _gateway(environ, text: str, limits):
    try:
        return gateway_client(environ, text, limits)
    except SettingsError as err:
        raise SetupError(str(err)) from None


def read_text(path: str, what: str) -> str:
    try:
        return read_utf8(path, what)
    except Unreadable as err:
        raise SetupError(str(err)) from None


def _prompt_args(settings: list[str]) -> dict[str, str]:
    """``--set NAME=VALUE`` flags by name; a later flag for a name wins."""
    values = {}
    for setting in settings:
        name, equals, value = setting.partition('=')
        if not equals or not name:
            raise SetupError('--set expects NAME=VALUE, got %r' % setting)
        values[name] = value
    return values
