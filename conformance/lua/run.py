"""Runner for the pylua conformance suite (``conformance/lua/``).

Usage::

    python -m conformance.lua [options]          # from the repository root
    python conformance/lua/run.py [options]

Each case is ``cases/<topic>/<name>.lua`` with ``<name>.expected`` (the exact
stdout) and, when the script ends in an uncaught error, ``<name>.error`` (the
error message as the standalone interpreter prints it on the first line of
stderr, without the ``lua5.4: `` / ``pylua: `` prefix).  Every case runs with
its own directory as the working directory and its file name as the script
argument, so chunk names in messages read ``name.lua:LINE:``.

Modes:

* default: run on pylua.  If ``pylua.cli.run_file(path, args, stdout, stderr)``
  exists, cases run through it in a pool of worker processes (one Python
  start-up per worker, not per case; a hung or crashed case only costs its
  worker).  Otherwise every case runs as ``python -m pylua FILE``.
* ``--cli``: force the ``python -m pylua FILE`` subprocess mode.
* ``--inprocess``: call ``run_file`` in the runner's own process, serially
  (for debuggers and profilers).
* ``--reference``: run on the reference ``lua5.4`` to prove the expectations.
* ``--regen``: rewrite expectations from ``lua5.4`` (with determinism checks).

The module also has a small Python API (``discover``, ``Runner``) used by
``tests/pylua/test_conformance.py``.  Except in ``--inprocess`` mode it
imports nothing from pylua in the calling process.
"""

from __future__ import annotations

import argparse
import base64
import difflib
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES_DIR = HERE / "cases"
REPO_ROOT = HERE.parent.parent
WORKER = HERE / "worker.py"

DEFAULT_LUA = "/usr/bin/lua5.4"
LUA_PREFIX = "lua5.4"
PYLUA_PREFIX = "pylua"

#: Per-case wall-clock budget, seconds.  pylua is expected to be much slower
#: than lua5.4, hence the generous default for it.
DEFAULT_TIMEOUT = {"pylua": 60.0, "reference": 10.0}
#: A case should finish in this time on lua5.4 (checked by --regen).
REFERENCE_BUDGET = 0.2

# Things that betray nondeterministic output (checked by --regen).
_ADDRESS_RE = re.compile(rb"(?:table|function|thread|userdata|builtin): (?:0x)?[0-9a-fA-F]{4,}")


# --------------------------------------------------------------------------
# Cases


@dataclass(frozen=True)
class Case:
    """One conformance case on disk."""

    path: Path  # absolute path of the .lua file

    @property
    def id(self) -> str:
        """``topic/name`` (path relative to the cases dir, without .lua)."""
        try:
            rel = self.path.relative_to(CASES_DIR)
        except ValueError:
            rel = Path(self.path.parent.name) / self.path.name
        return rel.with_suffix("").as_posix()

    @property
    def topic(self) -> str:
        return self.id.split("/", 1)[0]

    @property
    def directory(self) -> Path:
        return self.path.parent

    @property
    def filename(self) -> str:
        return self.path.name

    @property
    def expected_path(self) -> Path:
        return self.path.with_suffix(".expected")

    @property
    def error_path(self) -> Path:
        return self.path.with_suffix(".error")

    def expected_stdout(self) -> bytes:
        return self.expected_path.read_bytes()

    def expected_error(self) -> bytes | None:
        """Expected uncaught-error message (one line, no prefix), or None."""
        try:
            data = self.error_path.read_bytes()
        except FileNotFoundError:
            return None
        return data[:-1] if data.endswith(b"\n") else data


def discover(root: Path | str | None = None, keyword: str | None = None) -> list[Case]:
    """All cases under ``root`` (default: the suite's cases dir), sorted by id.

    ``keyword`` keeps only cases whose id contains it (like ``-k``).
    """
    root = Path(root) if root is not None else CASES_DIR
    cases = [Case(p.resolve()) for p in sorted(root.rglob("*.lua"))]
    if keyword:
        cases = [c for c in cases if keyword in c.id]
    return cases


# --------------------------------------------------------------------------
# Results and checking


@dataclass
class RunResult:
    stdout: bytes
    stderr: bytes
    code: int | None  # None: did not finish (timeout / worker crash)
    elapsed: float = 0.0
    note: str = ""  # runner-side diagnostics (timeout, crash, Python exception)
    stray: str = ""  # API mode: text written to sys.stdout/sys.stderr outside run_file's streams


@dataclass
class Outcome:
    case: Case
    passed: bool
    problems: list[str] = field(default_factory=list)
    result: RunResult | None = None

    def report(self) -> str:
        head = f"FAIL {self.case.id}"
        return "\n".join([head] + ["    " + line for p in self.problems for line in p.splitlines()])


def _short_diff(expected: bytes, actual: bytes, limit: int = 16) -> str:
    exp = expected.decode("latin-1").splitlines(keepends=True)
    act = actual.decode("latin-1").splitlines(keepends=True)
    lines = list(difflib.unified_diff(exp, act, "expected", "actual", n=1))
    out = []
    for line in lines[:limit]:
        out.append(repr(line.rstrip("\n"))[1:-1] if line.startswith(("+", "-", " ")) else line.rstrip("\n"))
    if len(lines) > limit:
        out.append(f"... ({len(lines) - limit} more diff lines)")
    if not lines and expected != actual:
        out.append(f"expected {expected[-60:]!r}, got {actual[-60:]!r} (trailing bytes differ)")
    return "\n".join(out)


def check(case: Case, result: RunResult, prefix: str) -> Outcome:
    """Compare one run with the case's expectations.

    ``prefix`` is the interpreter name that starts the error line
    (``pylua`` or ``lua5.4``).
    """
    problems: list[str] = []
    if result.code is None:
        problems.append(result.note or "did not finish")
        return Outcome(case, False, problems, result)
    try:
        expected_out = case.expected_stdout()
    except FileNotFoundError:
        problems.append(f"missing {case.expected_path.name} (run with --regen -k {case.id})")
        return Outcome(case, False, problems, result)
    expected_err = case.expected_error()
    if result.stdout != expected_out:
        problems.append("stdout differs:\n" + _short_diff(expected_out, result.stdout))
    first = result.stderr.split(b"\n", 1)[0].rstrip(b"\r")
    if expected_err is None:
        if result.code != 0:
            problems.append(f"exit code {result.code}, expected 0; stderr: {first.decode('latin-1')[:200]!r}")
    else:
        want = prefix.encode() + b": " + expected_err
        if result.code != 1:
            problems.append(f"exit code {result.code}, expected 1")
        if first != want:
            problems.append(
                "error line differs:\n"
                f"  expected {want.decode('latin-1')!r}\n"
                f"  actual   {first.decode('latin-1')[:300]!r}"
            )
    if result.stray:
        problems.append("wrote to sys.stdout/sys.stderr instead of run_file's streams: "
                        + repr(result.stray[:200]))
    if problems and result.note:
        problems.append(result.note)
    return Outcome(case, not problems, problems, result)


# --------------------------------------------------------------------------
# Executors


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    parts = [str(REPO_ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(parts)
    env["PYTHONIOENCODING"] = "utf-8"
    env.setdefault("LC_ALL", "C")
    return env


class SubprocessExecutor:
    """Runs each case as ``argv + [file]`` in the case's directory."""

    def __init__(self, argv: list[str], executable: str | None, timeout: float):
        self.argv = argv
        self.executable = executable
        self.timeout = timeout
        self.env = _child_env()

    def execute(self, case: Case) -> RunResult:
        start = time.perf_counter()
        try:
            proc = subprocess.run(
                self.argv + [case.filename],
                executable=self.executable,
                cwd=case.directory,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=self.timeout,
                env=self.env,
            )
        except subprocess.TimeoutExpired as exc:
            return RunResult(exc.stdout or b"", exc.stderr or b"", None, self.timeout,
                             f"timed out after {self.timeout:g}s")
        return RunResult(proc.stdout, proc.stderr, proc.returncode, time.perf_counter() - start)

    def close(self) -> None:
        pass


class _Worker:
    """One long-lived ``worker.py`` process speaking JSON lines."""

    def __init__(self, env: dict[str, str]):
        self.proc = subprocess.Popen(
            [sys.executable, "-u", str(WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=str(REPO_ROOT),
            env=env,
        )
        self.lines: queue.Queue = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def receive(self, timeout: float):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return "timeout"
        if line is None:
            return "eof"
        return json.loads(line)

    def send(self, obj) -> bool:
        try:
            self.proc.stdin.write(json.dumps(obj).encode() + b"\n")
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def kill(self) -> None:
        try:
            self.proc.kill()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


class ApiUnavailable(Exception):
    pass


class ApiPoolExecutor:
    """Runs cases through ``pylua.cli.run_file`` in worker processes.

    Workers are started lazily and replaced after a timeout or crash.
    """

    HELLO_TIMEOUT = 120.0

    def __init__(self, size: int, timeout: float):
        self.timeout = timeout
        self.env = _child_env()
        self.idle: queue.Queue = queue.Queue()
        self.lock = threading.Lock()
        self.all: list[_Worker] = []
        for _ in range(size):
            self.idle.put(None)  # a slot; the worker starts on first use

    def _start(self) -> _Worker:
        worker = _Worker(self.env)
        with self.lock:
            self.all.append(worker)
        hello = worker.receive(self.HELLO_TIMEOUT)
        if not isinstance(hello, dict) or not hello.get("ready"):
            detail = hello.get("error", "") if isinstance(hello, dict) else hello
            worker.kill()
            raise ApiUnavailable(f"pylua.cli.run_file unavailable: {detail}")
        return worker

    def probe(self) -> None:
        """Start one worker now; raise ApiUnavailable if run_file is missing."""
        slot = self.idle.get()
        try:
            slot = slot or self._start()
        finally:
            self.idle.put(slot)

    def execute(self, case: Case) -> RunResult:
        worker = self.idle.get()
        try:
            if worker is None:
                worker = self._start()
            start = time.perf_counter()
            if not worker.send({"dir": str(case.directory), "file": case.filename}):
                worker.kill()
                worker = None
                return RunResult(b"", b"", None, 0.0, "worker died before the case started")
            reply = worker.receive(self.timeout)
            elapsed = time.perf_counter() - start
            if reply == "timeout" or reply == "eof":
                worker.kill()
                code = worker.proc.returncode
                worker = None
                note = (f"timed out after {self.timeout:g}s" if reply == "timeout"
                        else f"worker process died (exit status {code})")
                return RunResult(b"", b"", None, elapsed, note)
            res = RunResult(
                base64.b64decode(reply["stdout"]),
                base64.b64decode(reply["stderr"]),
                reply["code"],
                elapsed,
                reply.get("note", ""),
                reply.get("stray", ""),
            )
            if reply.get("fatal"):
                worker.kill()
                worker = None
            return res
        finally:
            self.idle.put(worker)

    def close(self) -> None:
        with self.lock:
            workers, self.all = self.all, []
        for w in workers:
            if w.proc.poll() is None:
                try:
                    w.proc.stdin.close()
                    w.proc.wait(timeout=5)
                except (OSError, subprocess.TimeoutExpired):
                    w.kill()


class InProcessExecutor:
    """Runs cases through ``pylua.cli.run_file`` in this very process.

    Serial, no timeout, no isolation: meant for debugging and profiling
    (``--inprocess``), where a breakpoint or profiler must see pylua's code.
    """

    def __init__(self):
        if str(REPO_ROOT) not in sys.path:
            sys.path.insert(0, str(REPO_ROOT))
        try:
            from pylua.cli import run_file  # type: ignore
        except Exception as exc:  # noqa: BLE001
            raise ApiUnavailable(f"pylua.cli.run_file unavailable: {type(exc).__name__}: {exc}") from exc
        self.run_file = run_file
        self.lock = threading.Lock()

    def execute(self, case: Case) -> RunResult:
        import io
        import traceback

        with self.lock:
            out, err = io.BytesIO(), io.BytesIO()
            cwd = os.getcwd()
            start = time.perf_counter()
            note = ""
            try:
                os.chdir(case.directory)
                code = self.run_file(case.filename, [], out, err)
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # noqa: BLE001
                code = -1
                note = "Python exception escaped run_file:\n" + "".join(
                    traceback.format_exception(type(exc), exc, exc.__traceback__)[-12:])
            finally:
                os.chdir(cwd)
            return RunResult(out.getvalue(), err.getvalue(), code, time.perf_counter() - start, note)

    def close(self) -> None:
        pass


def pylua_runnable() -> bool:
    """Whether pylua looks runnable at all (cli module or __main__ present)."""
    import importlib.util

    sys.path.insert(0, str(REPO_ROOT))
    try:
        for name in ("pylua.cli", "pylua.__main__"):
            try:
                if importlib.util.find_spec(name) is not None:
                    return True
            except (ImportError, ValueError):
                pass
        return False
    finally:
        sys.path.remove(str(REPO_ROOT))


def lua_available(lua: str = DEFAULT_LUA) -> bool:
    return os.path.isfile(lua) and os.access(lua, os.X_OK) or shutil.which(lua) is not None


# --------------------------------------------------------------------------
# Runner


class Runner:
    """Runs cases in one mode.  Use as a context manager.

    mode: ``"auto"`` (pylua through run_file in worker processes if present,
    else the CLI), ``"api"`` (worker processes, no fallback), ``"cli"``
    (``python -m pylua FILE``), ``"inprocess"`` (run_file in this process,
    serially) or ``"reference"`` (lua5.4).
    """

    def __init__(self, mode: str = "auto", jobs: int = 1, timeout: float | None = None,
                 lua: str = DEFAULT_LUA):
        if mode not in ("auto", "api", "cli", "inprocess", "reference"):
            raise ValueError(f"unknown mode {mode!r}")
        self.jobs = max(1, jobs)
        self.lua = lua
        if mode == "reference":
            self.prefix = LUA_PREFIX
            self.timeout = timeout or DEFAULT_TIMEOUT["reference"]
            self.executor = SubprocessExecutor([LUA_PREFIX], self._lua_executable(), self.timeout)
            self.mode = mode
            return
        self.prefix = PYLUA_PREFIX
        self.timeout = timeout or DEFAULT_TIMEOUT["pylua"]
        if mode == "inprocess":
            self.executor, self.mode, self.jobs = InProcessExecutor(), mode, 1
            return
        if mode in ("auto", "api"):
            pool = ApiPoolExecutor(self.jobs, self.timeout)
            try:
                pool.probe()
                self.executor, self.mode = pool, "api"
                return
            except ApiUnavailable:
                pool.close()
                if mode == "api":
                    raise
        self.executor = SubprocessExecutor([sys.executable, "-m", "pylua"], None, self.timeout)
        self.mode = "cli"

    def _lua_executable(self) -> str:
        exe = self.lua if os.path.sep in self.lua else shutil.which(self.lua)
        if not exe or not os.path.exists(exe):
            raise FileNotFoundError(f"reference interpreter not found: {self.lua}")
        return exe

    def __enter__(self) -> "Runner":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.executor.close()

    def execute(self, case: Case) -> RunResult:
        return self.executor.execute(case)

    def run(self, case: Case) -> Outcome:
        return check(case, self.execute(case), self.prefix)

    def run_all(self, cases: list[Case], on_outcome=None) -> list[Outcome]:
        """Run cases (in parallel with ``jobs`` > 1); outcomes in case order."""
        if self.jobs == 1:
            outs = []
            for c in cases:
                o = self.run(c)
                if on_outcome:
                    on_outcome(o)
                outs.append(o)
            return outs
        with ThreadPoolExecutor(self.jobs) as pool:
            futures = [pool.submit(self.run, c) for c in cases]
            outs = []
            for f in futures:
                o = f.result()
                if on_outcome:
                    on_outcome(o)
                outs.append(o)
            return outs


# --------------------------------------------------------------------------
# Regeneration


def regen_case(case: Case, lua: str = DEFAULT_LUA, timeout: float = 10.0) -> list[str]:
    """Rewrite one case's expectations from lua5.4.  Returns warnings."""
    exe = SubprocessExecutor([LUA_PREFIX], lua, timeout)
    first = exe.execute(case)
    second = exe.execute(case)
    warnings = []
    if first.code is None:
        return [f"{case.id}: {first.note}; expectations not written"]
    if (first.stdout, first.stderr, first.code) != (second.stdout, second.stderr, second.code):
        warnings.append(f"{case.id}: output differs between two runs (nondeterministic)")
    if _ADDRESS_RE.search(first.stdout) or _ADDRESS_RE.search(first.stderr.split(b"\n", 1)[0]):
        warnings.append(f"{case.id}: output seems to contain an address")
    if min(first.elapsed, second.elapsed) > REFERENCE_BUDGET:
        warnings.append(f"{case.id}: took {min(first.elapsed, second.elapsed):.2f}s on lua5.4 "
                        f"(budget {REFERENCE_BUDGET}s)")
    case.expected_path.write_bytes(first.stdout)
    if first.code == 0:
        if first.stderr:
            warnings.append(f"{case.id}: exit 0 but wrote to stderr: {first.stderr[:100]!r}")
        if case.error_path.exists():
            case.error_path.unlink()
    else:
        lines = first.stderr.split(b"\n")
        head = lines[0]
        prefix = LUA_PREFIX.encode() + b": "
        if first.code != 1 or not head.startswith(prefix):
            warnings.append(f"{case.id}: unexpected failure (exit {first.code}): {first.stderr[:200]!r}")
        if len(lines) > 1 and lines[1] and not lines[1].startswith(b"stack traceback:"):
            warnings.append(f"{case.id}: error message spans several lines; only the first is kept")
        case.error_path.write_bytes(head[len(prefix):] + b"\n")
    return warnings


# --------------------------------------------------------------------------
# Command line


def _main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m conformance.lua",
        description="Run the Lua conformance suite on pylua (default) or lua5.4.",
    )
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--reference", action="store_true",
                       help="run the expectations against lua5.4 instead of pylua")
    group.add_argument("--regen", action="store_true",
                       help="rewrite expectations from lua5.4 (selected cases only with -k)")
    group.add_argument("--cli", action="store_true",
                       help="run pylua as 'python -m pylua FILE' even if run_file is available")
    group.add_argument("--api", action="store_true",
                       help="require pylua.cli.run_file (no fallback to the CLI)")
    group.add_argument("--inprocess", action="store_true",
                       help="call pylua.cli.run_file in this process, serially, without timeouts "
                            "(for debuggers and profilers)")
    group.add_argument("--list", action="store_true", help="list the selected cases and exit")
    ap.add_argument("-k", dest="keyword", metavar="SUBSTR", help="only cases whose id contains SUBSTR")
    ap.add_argument("-j", dest="jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                    help="parallel workers (default: CPU count)")
    ap.add_argument("--timeout", type=float, default=None, help="per-case timeout in seconds")
    ap.add_argument("--lua", default=DEFAULT_LUA, help=f"reference interpreter (default {DEFAULT_LUA})")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case's status")
    ap.add_argument("-x", "--exitfirst", action="store_true", help="stop reporting after the first failure")
    args = ap.parse_args(argv)

    cases = discover(keyword=args.keyword)
    if args.list:
        for c in cases:
            print(c.id)
        print(f"{len(cases)} cases")
        return 0
    if not cases:
        print("no cases selected")
        print("0 passed, 0 failed")
        return 1

    if args.regen:
        warnings: list[str] = []
        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            for w in pool.map(lambda c: regen_case(c, args.lua, args.timeout or 10.0), cases):
                warnings.extend(w)
        for w in warnings:
            print("warning:", w)
        print(f"regenerated {len(cases)} cases, {len(warnings)} warnings")
        return 1 if warnings else 0

    mode = ("reference" if args.reference else "cli" if args.cli else "api" if args.api
            else "inprocess" if args.inprocess else "auto")
    try:
        runner = Runner(mode, jobs=args.jobs, timeout=args.timeout, lua=args.lua)
    except (ApiUnavailable, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.verbose:
        print(f"mode: {runner.mode}, {len(cases)} cases, {runner.jobs} workers", flush=True)
    failed = 0
    shown = 0

    def show(o: Outcome) -> None:
        nonlocal failed, shown
        if o.passed:
            if args.verbose:
                print(f"ok   {o.case.id}", flush=True)
            return
        failed += 1
        if not args.exitfirst or shown == 0:
            print(o.report(), flush=True)
            shown += 1

    with runner:
        outcomes = runner.run_all(cases, show)
    passed = sum(o.passed for o in outcomes)
    print(f"{passed} passed, {len(outcomes) - passed} failed")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
