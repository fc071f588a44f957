"""Runs the runvil conformance cases through ``runvil run --json``.

Cases:

* ``run/NAME.md`` with ``run/NAME.json``: a spec example (or a variant the
  spec describes) and what it must give: ``expect`` is the exact JSON
  object ``runvil run --json`` prints, except that an error may give
  ``message_contains`` instead of ``message`` and a location path
  ``{label}`` stands for the path on the command line.  ``flags`` are
  added to the command, ``cancel_after`` cancels the run (Ctrl-C) that
  many seconds after it starts (its first event), ``checkpoints`` is how
  many log checkpoints the run records.  ``gateway`` is a scripted
  gateway script: the run gets a ScriptedGateway on 127.0.0.1 as
  ``RUNVIL_GATEWAY_URL``; ``requests`` is how many model requests it must
  receive; ``stop_on_request`` stops the round in flight (the Host's stop:
  SIGUSR1, or ``RunHandle.stop()`` in-process) once the first arrives.
  ``sent`` checks what the gateway received: each entry names a
  ``request`` (0-based) and any of ``messages`` (the body's exact
  ``messages``, a tool call's JSON text arguments compared as the value
  they decode to), ``count`` (how many messages), ``tools`` (the function
  names offered, in order) and ``model`` (the body's model id).
* ``parse/errors/NAME.md`` with ``NAME.json`` (the parser's cases): each
  must fail as run error kind Parse with the parse error's message and
  location (``<prompt>`` shown as the path on the command line).

Two modes: ``process`` runs the real command in a subprocess (Ctrl-C is a
SIGINT); ``inprocess`` calls the Host's entry point, ``runvil.host.main``,
with a run handle to cancel (fast, for the test suite).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
RUN_CASES = HERE / 'run'
PARSE_ERRORS = HERE / 'parse' / 'errors'


@dataclass
class Case:
    name: str
    prompt: Path
    expect: dict
    flags: list
    cancel_after: float | None = None
    checkpoints: int | None = None
    gateway: object = None
    requests: int | None = None
    stop_on_request: bool = False
    sent: list = ()


def load_cases() -> list[Case]:
    cases = []
    for prompt in sorted(RUN_CASES.glob('*.md')):
        spec = json.loads(prompt.with_suffix('.json').read_text(encoding='utf-8'))
        cases.append(Case('run/' + prompt.stem, prompt, spec['expect'], spec.get('flags', []),
                          spec.get('cancel_after'), spec.get('checkpoints'), spec.get('gateway'),
                          spec.get('requests'), spec.get('stop_on_request', False), spec.get('sent', ())))
    for prompt in sorted(PARSE_ERRORS.glob('*.md')):
        cases.append(_parse_case(prompt))
    return cases


def _parse_case(prompt: Path) -> Case:
    spec = json.loads(prompt.with_suffix('.json').read_text(encoding='utf-8'))
    message = spec['message']
    if message.endswith('{diagnostic}'):
        message = message.replace('{diagnostic}', _diagnostic(prompt.read_text(encoding='utf-8'), message))
    where = spec['location']
    location = {'path': '{label}' if where['path'] == '<prompt>' else where['path'],
                'line': where['line'], 'column': where['column'], 'span': where['span']}
    return Case('parse/' + prompt.stem, prompt,
                {'outcome': 'failed', 'result': None,
                 'error': {'kind': 'Parse', 'message': message, 'retryable': False, 'location': location}},
                [])


def _diagnostic(text: str, message: str) -> str:
    """The Lua compiler's own text for the block a compile message names."""
    from pylua import LuaSyntaxError, compile_check
    line = int(message.split('(line ', 1)[1].split(')', 1)[0])
    lines = text.split('\n')[line - 1:]
    try:
        compile_check('\n'.join(lines[:lines.index('```')]), 'block')
    except LuaSyntaxError as err:
        return str(err)
    raise AssertionError('the block compiles')


# -- running ---------------------------------------------------------------------

@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str
    checkpoints: int
    requests: int | None = None
    bodies: list = ()       # the request bodies the gateway received, decoded


def run_case(case: Case, mode: str = 'process') -> Result:
    label = os.path.relpath(case.prompt, ROOT)
    with tempfile.TemporaryDirectory() as scratch, _gateway(case) as gateway:
        events = os.path.join(scratch, 'events.jsonl')
        argv = ['--json', '--events', events, *case.flags, label]
        environ = _environ(gateway)
        interrupt = _Interrupt(case, events, gateway)
        runner = _in_process if mode == 'inprocess' else _in_subprocess
        code, out, err = runner(argv, environ, interrupt)
        with open(events, encoding='utf-8') as handle:
            logged = sum(1 for line in handle if json.loads(line)['event'] == 'log')
        received = [] if gateway is None else gateway.requests
    return Result(code, out, err, logged, None if gateway is None else len(received),
                  [request.json for request in received])


@contextlib.contextmanager
def _gateway(case: Case):
    if case.gateway is None:
        yield None
        return
    from runvil.testing.gateway import ScriptedGateway
    with ScriptedGateway(case.gateway) as gateway:
        yield gateway


def _environ(gateway) -> dict:
    """The run's environment: no gateway variables but the case's own."""
    environ = {name: value for name, value in os.environ.items() if not name.startswith('RUNVIL_GATEWAY_')}
    if gateway is not None:
        environ['RUNVIL_GATEWAY_URL'] = gateway.url
    return environ


@dataclass
class _Interrupt:
    """When the runner cancels or stops the run."""
    case: Case
    events: str
    gateway: object

    def wait(self) -> str | None:
        """Wait for the moment; returns 'cancel', 'stop' or None."""
        if self.case.stop_on_request:
            deadline = time.monotonic() + 60
            while not self.gateway.requests and time.monotonic() < deadline:
                time.sleep(0.005)
            return 'stop'
        if self.case.cancel_after is not None:
            _wait_for_start(self.events)
            time.sleep(self.case.cancel_after)
            return 'cancel'
        return None


def _wait_for_start(events: str, limit: float = 60) -> None:
    """Until the run has started (its first event is written): a Ctrl-C
    before then would interrupt the start-up, not the run."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if os.path.exists(events) and os.path.getsize(events) > 0:
            return
        time.sleep(0.01)


def _in_subprocess(argv: list[str], environ: dict, interrupt: _Interrupt):
    process = subprocess.Popen([sys.executable, '-m', 'runvil', 'run', *argv], cwd=ROOT, env=environ,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    action = interrupt.wait()
    if action is not None:
        process.send_signal(signal.SIGINT if action == 'cancel' else signal.SIGUSR1)
    out, err = process.communicate(timeout=120)
    return process.returncode, out, err


def _in_process(argv: list[str], environ: dict, interrupt: _Interrupt):
    from runvil.harness import RunHandle
    from runvil.host import main
    out, err, handle, box = io.StringIO(), io.StringIO(), RunHandle(), {}
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        worker = threading.Thread(target=lambda: box.update(code=main(argv, out, err, handle, environ)),
                                  daemon=True)
        worker.start()
        action = interrupt.wait()
        if action == 'cancel':
            handle.cancel()
        elif action == 'stop':
            handle.stop()
        worker.join(120)
    finally:
        os.chdir(cwd)
    return box['code'], out.getvalue(), err.getvalue()


def problems(case: Case, result: Result) -> list[str]:
    """What differs from the expectation (empty when the case passes)."""
    found = []
    try:
        got = json.loads(result.stdout)
    except ValueError:
        return ['stdout is not one JSON object: %r (stderr %r)' % (result.stdout, result.stderr)]
    label = os.path.relpath(case.prompt, ROOT)
    want = json.loads(json.dumps(case.expect).replace('{label}', label))
    error, wanted = got.get('error'), want.get('error')
    if wanted is not None and error is not None:
        if 'message_contains' in wanted:
            fragment = wanted.pop('message_contains')
            if fragment not in error.get('message', ''):
                found.append('message %r lacks %r' % (error.get('message'), fragment))
            wanted['message'] = error.get('message')
        span, expected_span = (error.get('location') or {}).get('span'), (wanted.get('location') or {}).get('span')
        if isinstance(expected_span, bool):
            if expected_span != (span is not None):
                found.append('span %r, expected %s' % (span, 'one' if expected_span else 'none'))
            wanted['location']['span'] = span
    if got != want:
        found.append('got %s\n    expected %s' % (json.dumps(got, ensure_ascii=False),
                                                   json.dumps(want, ensure_ascii=False)))
    code = {'completed': 0, 'failed': 1, 'cancelled': 130}[want['outcome']]
    if result.exit_code != code:
        found.append('exit %r, expected %d' % (result.exit_code, code))
    if case.requests is not None and result.requests != case.requests:
        found.append('%r model requests, expected %d' % (result.requests, case.requests))
    if case.checkpoints is not None and result.checkpoints != case.checkpoints:
        found.append('%d log checkpoints, expected %d' % (result.checkpoints, case.checkpoints))
    for check in case.sent:
        found.extend(_sent_problems(check, result.bodies))
    return found


def _sent_problems(check: dict, bodies: list) -> list[str]:
    """How the request ``check`` names differs from what it must hold."""
    index = check['request']
    if index >= len(bodies):
        return ['request %d was never sent' % index]
    body = bodies[index] or {}
    messages = [_decoded(message) for message in body.get('messages') or []]
    got = {'messages': messages, 'count': len(messages), 'model': body.get('model'),
           'tools': [(tool.get('function') or {}).get('name') for tool in body.get('tools') or []]}
    return ['request %d %s: got %s\n    expected %s' % (index, key, json.dumps(got[key], ensure_ascii=False),
                                                       json.dumps(check[key], ensure_ascii=False))
            for key in ('messages', 'count', 'tools', 'model') if key in check and got[key] != check[key]]


def _decoded(message: dict) -> dict:
    """``message`` with each tool call's arguments JSON text decoded, so a
    case states the arguments as the value, whatever the text's spacing and
    key order (text that is not JSON stays as it came; arguments that are
    not text are marked, so they match no value)."""
    if not isinstance(message, dict) or not isinstance(message.get('tool_calls'), list):
        return message
    calls = []
    for call in message['tool_calls']:
        function = call.get('function') if isinstance(call, dict) else None
        if isinstance(function, dict) and 'arguments' in function:
            arguments = function['arguments']
            if isinstance(arguments, str):
                with contextlib.suppress(ValueError):
                    arguments = json.loads(arguments)
            else:
                arguments = {'not JSON text': arguments}
            call = {**call, 'function': {**function, 'arguments': arguments}}
        calls.append(call)
    return {**message, 'tool_calls': calls}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog='python -m conformance.runvil',
                                     description='Run the runvil conformance cases through runvil run --json.')
    parser.add_argument('-k', metavar='TEXT', help='only cases whose name contains TEXT')
    parser.add_argument('--in-process', action='store_true', help='call the Host entry point, no subprocess')
    parser.add_argument('-v', action='store_true', help='list every case')
    options = parser.parse_args(argv)
    mode = 'inprocess' if options.in_process else 'process'
    passed = failed = 0
    for case in load_cases():
        if options.k and options.k not in case.name:
            continue
        found = problems(case, run_case(case, mode))
        if found:
            failed += 1
            print('FAIL %s\n  %s' % (case.name, '\n  '.join(found)))
        else:
            passed += 1
            if options.v:
                print('ok   %s' % case.name)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
