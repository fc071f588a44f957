"""The campaign's pylua side: each program of a batch on a runtime of its
own, all in one process (no interpreter start-up per program, no state
left over from the program before).

    python -m tests.properties.campaign_pylua [--seconds S] DRIVER MARKER FILE...

Each runtime runs ``DRIVER`` (``campaign.DRIVER``) on one file, so stdout
carries the same protocol as lua5.4's run of the whole batch.  A program
that stops its runtime (an error escaping the driver's ``pcall``, an
internal error, no answer within ``S`` seconds) ends with a marker line
whose message starts ``pylua stopped:``, and the batch goes on.
"""
from __future__ import annotations

import argparse
import io
import sys
import threading

from pylua import LuaError, LuaRuntime


def run_program(driver, marker, path, seconds):
    """stdout of ``driver`` run on ``path`` in a fresh runtime, ended by a
    marker line whatever happened."""
    out = io.BytesIO()
    runtime = LuaRuntime(profile='standalone', stdout=out, stderr=io.BytesIO())
    timer = threading.Timer(seconds, runtime.cancel, ('no answer within %g s' % seconds,))
    timer.start()
    try:
        runtime.execute(driver, marker, path, name='=driver')
    except LuaError as exc:
        stopped = ('pylua stopped: %s' % exc).split('\n')[0]
        out.write(b'\n%s error %s\n' % (marker.encode(), stopped.encode('utf-8', 'replace')))
    finally:
        timer.cancel()
    return out.getvalue()


def main(argv=None):
    parser = argparse.ArgumentParser(prog='python -m tests.properties.campaign_pylua')
    parser.add_argument('--seconds', type=float, default=60.0, help='time allowed to each program')
    parser.add_argument('driver')
    parser.add_argument('marker')
    parser.add_argument('files', nargs='*')
    args = parser.parse_args(argv)
    with open(args.driver, encoding='utf-8') as fh:
        driver = fh.read()
    for path in args.files:
        sys.stdout.buffer.write(run_program(driver, args.marker, path, args.seconds))
        sys.stdout.buffer.flush()


if __name__ == '__main__':
    main()
