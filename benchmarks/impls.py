"""The three implementations the suite times: CPython, pylua and lua5.4.

``time_program`` turns one benchmark program into a :class:`Run` per
implementation: the best time over the repeats, every time measured, the
program's output and, if it failed, an error message.  Nothing here raises
for a failing program; a failure becomes ``Run.error`` so that the report can
show it and carry on.

* CPython runs the ``.py`` file in this process: it is compiled once, then
  each repeat times ``exec`` of the code object in a fresh ``__main__``
  namespace with ``sys.stdout`` captured.
* pylua runs the ``.lua`` file in this process through the CLI's entry point
  ``pylua.cli.run_file(path, args, stdout, stderr) -> exit code``; each repeat
  times one whole call (parse, compile and run, no interpreter start-up).
* lua5.4 runs the ``.lua`` file as a subprocess; the time is the process's,
  start-up included (a few milliseconds, reported separately).

Every time is read from one :class:`Clock`: CPU time (this process's, or the
finished child's user + system time) or wall time.
"""
from __future__ import annotations

import builtins
import contextlib
import enum
import gc
import io
import os
import resource
import shutil
import subprocess
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path


class Clock(enum.Enum):
    """What a time measures.  CPU time counts only the measured program's
    own work, so load from other processes on a shared machine inflates it
    far less than wall time."""
    CPU = 'cpu'
    WALL = 'wall'

    def own(self) -> float:
        """Seconds so far, for work done in this process."""
        return time.process_time() if self is Clock.CPU else time.perf_counter()

    def children(self) -> float:
        """Seconds so far, for finished child processes."""
        if self is Clock.WALL:
            return time.perf_counter()
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime


@dataclass
class Program:
    name: str
    lua: Path
    py: Path
    description: str = ''
    suite: str = 'core'


@dataclass
class Run:
    time: float | None = None             # best of the repeats, seconds
    times: list[float] = field(default_factory=list)
    output: str | None = None
    error: str | None = None

    def as_dict(self) -> dict:
        return {'time': self.time, 'times': self.times,
                'output': self.output, 'error': self.error}


def _error_text(exc: BaseException) -> str:
    return ''.join(traceback.format_exception_only(type(exc), exc)).strip()


def _tail(text: str, lines: int = 6) -> str:
    text = text.strip()
    return '\n'.join(text.splitlines()[-lines:])


class Impl:
    """One implementation: ``prepare`` (untimed, once per program) and
    ``run_once`` (one timed run).  ``time_program`` does the repeating."""

    name = '?'
    available = True
    reason = ''          # why the implementation is unavailable
    clock = Clock.CPU

    def prepare(self, program: Program):
        """Per-program set-up that is not timed; returns a handle for
        ``run_once``.  Raising here fails the program for this impl."""
        return program

    def run_once(self, handle) -> tuple[float, str]:
        """One timed run: returns (seconds, output); raises ``RunFailed``."""
        raise NotImplementedError


class RunFailed(Exception):
    """A program failed (error, bad exit code, timeout)."""


class CPython(Impl):
    name = 'CPython'

    def __init__(self, clock: Clock = Clock.CPU):
        self.clock = clock

    def prepare(self, program: Program):
        source = program.py.read_text(encoding='utf-8')
        return program.py, compile(source, str(program.py), 'exec')

    def run_once(self, handle):
        path, code = handle
        buf = io.StringIO()
        namespace = {'__name__': '__main__', '__file__': str(path),
                     '__builtins__': builtins}
        gc.collect()
        try:
            with contextlib.redirect_stdout(buf):
                start = self.clock.own()
                exec(code, namespace)
                seconds = self.clock.own() - start
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - SystemExit included
            raise RunFailed(_error_text(exc)) from None
        finally:
            namespace.clear()      # break function <-> globals cycles
        return seconds, buf.getvalue()


class _TextOrBytes(io.TextIOWrapper):
    """``write`` takes ``str`` as a text stream does, and ``bytes`` too (as
    ``.buffer.write``), so pylua may hand either to the stream it is given."""

    def write(self, data):
        if isinstance(data, (bytes, bytearray, memoryview)):
            self.flush()
            return self.buffer.write(data)
        return super().write(data)


class _Capture:
    """A text stream over a byte buffer, like ``sys.stdout``: accepts ``str``
    through ``write`` and ``bytes`` through ``.buffer.write`` (or ``write``)."""

    def __init__(self):
        self.raw = io.BytesIO()
        self.stream = _TextOrBytes(self.raw, encoding='utf-8',
                                   errors='replace', newline='\n',
                                   write_through=True)

    def text(self) -> str:
        try:
            self.stream.flush()
        except ValueError:         # closed by the callee
            pass
        return self.raw.getvalue().decode('utf-8', 'replace')


class PyLua(Impl):
    name = 'pylua'

    def __init__(self, clock: Clock = Clock.CPU):
        self.clock = clock
        self.import_seconds = None
        try:
            start = time.perf_counter()
            import pylua.cli
            self.import_seconds = time.perf_counter() - start
            self.run_file = pylua.cli.run_file
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - pylua may be half-built
            self.available = False
            self.reason = 'cannot import pylua.cli.run_file: ' + _error_text(exc)

    def prepare(self, program: Program):
        return program.lua

    def run_once(self, path):
        out, err = _Capture(), _Capture()
        gc.collect()
        try:
            with contextlib.redirect_stdout(out.stream), \
                    contextlib.redirect_stderr(err.stream):
                start = self.clock.own()
                code = self.run_file(str(path), [], out.stream, err.stream)
                seconds = self.clock.own() - start
        except KeyboardInterrupt:
            raise
        except SystemExit as exc:
            raise RunFailed('pylua called sys.exit(%r); stderr: %s'
                            % (exc.code, _tail(err.text()))) from None
        except BaseException as exc:  # noqa: BLE001 - report, never crash
            raise RunFailed('Python exception escaped pylua: '
                            + _error_text(exc)) from None
        if code not in (0, None):
            raise RunFailed('exit code %r: %s' % (code, _tail(err.text())))
        return seconds, out.text()


class Lua54(Impl):
    name = 'lua5.4'

    def __init__(self, exe: str | None = None, timeout: float = 600.0,
                 clock: Clock = Clock.CPU):
        self.clock = clock
        self.timeout = timeout
        self.version = None
        self.startup = None
        self.exe = shutil.which(exe or 'lua5.4')
        if self.exe is None and exe is None and os.access('/usr/bin/lua5.4', os.X_OK):
            self.exe = '/usr/bin/lua5.4'
        if self.exe is None:
            self.available = False
            self.reason = '%s not found (use --lua PATH)' % (exe or 'lua5.4')
            return
        try:
            proc = subprocess.run([self.exe, '-v'], capture_output=True,
                                  text=True, timeout=30)
            self.version = (proc.stdout or proc.stderr).strip()
        except (OSError, subprocess.SubprocessError) as exc:
            self.available = False
            self.reason = 'cannot run %s: %s' % (self.exe, exc)

    def measure_startup(self, repeat: int = 5) -> float | None:
        """Best time of ``lua5.4 -e ''``: the process start-up included in
        every lua5.4 time."""
        if not self.available:
            return None
        best = None
        for _ in range(repeat):
            start = self.clock.children()
            subprocess.run([self.exe, '-e', ''], capture_output=True)
            seconds = self.clock.children() - start
            best = seconds if best is None else min(best, seconds)
        self.startup = best
        return best

    def prepare(self, program: Program):
        return program.lua

    def run_once(self, path):
        try:
            start = self.clock.children()
            proc = subprocess.run([self.exe, str(path)], capture_output=True,
                                  timeout=self.timeout)
            seconds = self.clock.children() - start
        except subprocess.TimeoutExpired:
            raise RunFailed('timed out after %g s' % self.timeout) from None
        except OSError as exc:
            raise RunFailed('cannot run %s: %s' % (self.exe, exc)) from None
        if proc.returncode != 0:
            raise RunFailed('exit code %d: %s' % (
                proc.returncode, _tail(proc.stderr.decode('utf-8', 'replace'))))
        return seconds, proc.stdout.decode('utf-8', 'replace')


def time_program(program: Program, impls: dict[str, Impl], repeat: int,
                 budget: float, progress=None) -> dict[str, Run]:
    """Run ``program`` ``repeat`` times on every available implementation and
    return a :class:`Run` per implementation name.

    The implementations take turns (CPython, pylua, lua5.4, CPython, ...), so
    that a burst of load on the machine hits them alike; each keeps its best
    time.  An implementation stops repeating once its runs took ``budget``
    seconds in total, or at its first failure; a program whose output changes
    between repeats fails.  ``progress(text, end)`` reports as it goes.
    """
    runs = {name: Run() for name in impls}
    handles = {}
    for name, impl in impls.items():
        if not impl.available:
            runs[name].error = 'unavailable: ' + impl.reason
            continue
        try:
            handles[name] = impl.prepare(program)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - any failure is a result
            runs[name].error = 'cannot prepare: ' + _error_text(exc)
    for attempt in range(max(1, repeat)):
        if progress:
            progress('%-10s run %d/%d:' % (program.name, attempt + 1, repeat), '')
        for name, handle in handles.items():
            run = runs[name]
            if run.error or (run.times and sum(run.times) >= budget):
                continue
            try:
                seconds, output = impls[name].run_once(handle)
            except RunFailed as exc:
                run.error = str(exc)
                if progress:
                    progress('  %s error' % name, '')
                continue
            if run.output is not None and output != run.output:
                run.error = ('output changed between repeats: %r then %r'
                             % (run.output, output))
                continue
            run.output = output
            run.times.append(seconds)
            if progress:
                progress('  %s %.3f' % (name, seconds), '')
        if progress:
            progress('', '\n')
    for name, handle in handles.items():
        run = runs[name]
        if run.error:
            if progress:
                progress('%-10s %s: %s' % (program.name, name,
                                           run.error.splitlines()[0]), '\n')
        elif run.times:
            run.time = min(run.times)
    return runs
