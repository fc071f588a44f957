"""Worker process for the conformance runner's in-process (API) mode.

Protocol (JSON lines): on start the worker imports ``pylua.cli.run_file`` and
writes ``{"ready": true}`` (or ``{"ready": false, "error": ...}`` and exits).
Then, for each request ``{"dir": DIR, "file": NAME}`` it changes to DIR, calls
``run_file(NAME, [], stdout, stderr)`` with binary buffers and answers
``{"stdout": b64, "stderr": b64, "code": int, "note": str}``.

Anything written to ``sys.stdout``/``sys.stderr`` behind run_file's back is
reported in ``stray`` (the runner counts it as a failure).  A Python exception escaping
run_file is reported as exit code ``-1`` with the traceback in ``note``.
The protocol uses a private duplicate of the original stdout, so stray
writes (even to file descriptor 1) cannot corrupt it.
"""

from __future__ import annotations

import base64
import io
import json
import os
import sys
import traceback


def main() -> int:
    proto = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 1)  # stray writes to fd 1 go nowhere
    os.dup2(devnull, 0)  # a script reading stdin reads nothing, not our requests
    sys.stdin = open(os.devnull, "r")
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    if root not in sys.path:
        sys.path.insert(0, root)
    # The worker's own directory must not shadow anything.
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]

    def reply(obj) -> None:
        proto.write(json.dumps(obj) + "\n")
        proto.flush()

    try:
        from pylua.cli import run_file  # type: ignore
    except Exception as exc:  # noqa: BLE001 - report anything
        reply({"ready": False, "error": f"{type(exc).__name__}: {exc}"})
        return 1
    if not callable(run_file):
        reply({"ready": False, "error": "pylua.cli.run_file is not callable"})
        return 1
    reply({"ready": True})

    real_stdout, real_stderr = sys.stdout, sys.stderr
    for line in requests:
        if not line.strip():
            continue
        req = json.loads(line)
        out, err = io.BytesIO(), io.BytesIO()
        stray = io.StringIO()
        note = ""
        fatal = False
        sys.stdout = sys.stderr = stray
        try:
            os.chdir(req["dir"])
            code = run_file(req["file"], [], out, err)
            if not isinstance(code, int):
                note = f"run_file returned {code!r}, not an int exit code"
                code = -1
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
            note = f"run_file raised SystemExit({exc.code!r})"
        except BaseException as exc:  # noqa: BLE001 - a Python exception is a pylua bug
            code = -1
            note = "Python exception escaped run_file:\n" + "".join(
                traceback.format_exception(type(exc), exc, exc.__traceback__)[-12:])
            fatal = isinstance(exc, (MemoryError, RecursionError, KeyboardInterrupt))
        finally:
            sys.stdout, sys.stderr = real_stdout, real_stderr
        reply({
            "stdout": base64.b64encode(out.getvalue()).decode(),
            "stderr": base64.b64encode(err.getvalue()).decode(),
            "code": code,
            "note": note,
            "stray": stray.getvalue()[:1000],
            "fatal": fatal,
        })
    return 0


if __name__ == "__main__":
    sys.exit(main())
