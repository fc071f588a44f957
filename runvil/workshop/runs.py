"""Starting runs from the page: the Harness built exactly as ``runvil
run`` builds it (``host_setup`` over the Workshop's flags), with the run
form's limit overrides and role bindings laid over the flags, each run on
a thread of its own and kept in the history."""
from __future__ import annotations

import argparse
import threading
from dataclasses import dataclass, field
from importlib import resources

from ..harness import EventStream
from ..harness.limits import LIMIT_NAMES
from ..host.diagnostics import text_problem
from ..host.runner import SetupError, host_setup
from ..host.settings import SIZE_LIMITS, parse_size
from .history import HEADER, RunHistory
from .live_run import LiveRun
from .prompt_files import PromptFiles

CHAT_LABEL = 'chat'
CHAT_ROLE = 'chat'


def chat_prompt() -> str:
    """The built-in chat prompt (docs/workshop.md, *Chat*)."""
    return resources.files(__package__).joinpath('chat.md').read_text(encoding='utf-8')


@dataclass
class RunRequest:
    """What the run form sends."""
    prompt: str                     # the prompt file's path under the directory
    text: str                       # the prompt as the editor holds it
    args: dict = field(default_factory=dict)        # name -> text
    input_text: str | None = None
    limits: dict = field(default_factory=dict)      # limit name -> text; blank keeps the flag's
    binds: dict = field(default_factory=dict)       # role -> model id; blank keeps the flag's


class Runs:
    def __init__(self, files: PromptFiles, history: RunHistory, flags: argparse.Namespace, environ):
        self.files = files
        self.history = history
        self.flags = flags
        self.environ = environ
        self.live: dict[str, LiveRun] = {}

    def start(self, request: RunRequest) -> LiveRun:
        path = str(self.files.full_path(request.prompt))
        return self._start(request, path, chat=False)

    def start_chat(self, model: str) -> LiveRun:
        binds = {CHAT_ROLE: model} if model else {}
        return self._start(RunRequest(CHAT_LABEL, chat_prompt(), binds=binds), None, chat=True)

    def _start(self, request: RunRequest, path: str | None, chat: bool) -> LiveRun:
        setup = host_setup(self._flags(request), self.environ, request.text)
        run_id = self.history.new_id()
        try:
            writer = self.history.writer(run_id)
        except OSError as err:
            setup.close()
            raise SetupError('cannot keep the run in %s: %s' % (self.history.folder, err.strerror or err)) from None
        run = LiveRun(run_id, writer)
        run.publish({'event': HEADER, 'run_id': run_id, 'prompt': request.prompt, 'chat': chat,
                     'text': request.text, 'args': request.args, 'input': request.input_text})
        self.live[run_id] = run
        threading.Thread(target=self._run, args=(run, request, path, setup, writer), daemon=True,
                         name='workshop-run-' + run_id).start()
        return run

    def _run(self, run: LiveRun, request: RunRequest, path: str | None, setup, writer) -> None:
        stream = EventStream([_shown(run.publish, path, request)], execution_id=run.run_id)
        try:
            harness = setup.harness(live=run.fragment, operator=run.ask)
            harness.run(request.text, path, input_text=request.input_text, args=request.args,
                        handle=run.handle, events=stream)
        finally:
            setup.close()
            run.end()
            writer.close()

    def _flags(self, request: RunRequest) -> argparse.Namespace:
        flags = argparse.Namespace(**vars(self.flags))
        for name, value in request.limits.items():
            if name not in LIMIT_NAMES:
                raise SetupError('unknown limit `%s`; expected one of: %s' % (name, ', '.join(LIMIT_NAMES)))
            if value.strip():
                setattr(flags, name, _limit_value(name, value.strip()))
        flags.bind = list(flags.bind) + ['%s=%s' % (role, model.strip())
                                         for role, model in request.binds.items() if model.strip()]
        return flags


def _limit_value(name: str, text: str):
    try:
        if name in SIZE_LIMITS:
            return parse_size(text)
        return float(text) if name == 'receive_timeout' else int(text)
    except ValueError as err:
        shape = str(err) if name in SIZE_LIMITS else 'expected %s, got %r' % (
            'a number of seconds' if name == 'receive_timeout' else 'a whole number', text)
        raise SetupError('%s: %s' % (name, shape)) from None


def _shown(publish, path: str | None, request: RunRequest):
    """The run's events as the page shows them: the prompt's path as the
    page names the file, and a parse failure under its diagnostic code
    (``parse_fence``, ...) with its ``line N:`` message, as the editor shows it."""
    def sink(event: dict) -> None:
        error = event.get('error') if event['event'] == 'run_finished' else None
        if error is not None:
            location = error['location']
            # Only an Internal fault's location is elsewhere (Engine source).
            if location is not None and error['kind'] != 'Internal':
                error = dict(error, location=dict(location, path=request.prompt))
            event = dict(event, error=error)
            if error['kind'] == 'Parse':
                problem = text_problem(request.text, path)
                if problem is not None:
                    event['diagnostic'] = {'code': problem.code, 'message': problem.shown_message}
        publish(event)
    return sink
