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
import time

from pylua import LuaError, LuaRuntime
from pylua.compiler import pipeline


class Watchdog:
    """One thread that cancels the runtime running past its deadline (a
    thread started per program cost about as much as a small program's
    run on a loaded machine)."""

    def __init__(self):
        self.cond = threading.Condition()
        self.runtime = self.deadline = None
        threading.Thread(target=self.watch, daemon=True).start()

    def arm(self, runtime, seconds):
        with self.cond:
            self.runtime, self.deadline, self.seconds = runtime, time.monotonic() + seconds, seconds
            self.cond.notify()

    def disarm(self):
        with self.cond:
            self.runtime = None

    def watch(self):
        with self.cond:
            while True:
                if self.runtime is None:
                    self.cond.wait()
                    continue
                left = self.deadline - time.monotonic()
                if left > 0:
                    self.cond.wait(left)
                    continue
                self.runtime.cancel('no answer within %g s' % self.seconds)
                self.runtime = None


def run_program(driver, marker, path, seconds, watchdog, driver_name='driver.lua'):
    """stdout of ``driver`` run on ``path`` in a fresh runtime, ended by a
    marker line whatever happened.  The driver's chunk is named as lua.c
    names a script, by its path (``driver_name``): a message passing
    through it names it."""
    out = io.BytesIO()
    runtime = LuaRuntime(profile='standalone', stdout=out, stderr=io.BytesIO())
    watchdog.arm(runtime, seconds)
    try:
        runtime.execute(driver, marker, path, name='@' + driver_name)
    except LuaError as exc:
        stopped = ('pylua stopped: %s' % exc).split('\n')[0]
        out.write(b'\n%s error %s\n' % (marker.encode(), stopped.encode('utf-8', 'replace')))
    finally:
        watchdog.disarm()
    return out.getvalue()


def main(argv=None):
    parser = argparse.ArgumentParser(prog='python -m tests.properties.campaign_pylua')
    parser.add_argument('--seconds', type=float, default=60.0, help='time allowed to each program')
    parser.add_argument('driver')
    parser.add_argument('marker')
    parser.add_argument('files', nargs='*')
    args = parser.parse_args(argv)
    # The compile cache keeps the driver and the program last run: each
    # program runs once, and the chunks a cache of many keeps (their
    # translations, for generator forms made when first needed) are walked
    # by every collection, a sixth of a small program's time.
    pipeline._CACHE_SIZE = 2
    with open(args.driver, encoding='utf-8') as fh:
        driver = fh.read()
    watchdog = Watchdog()
    for path in args.files:
        sys.stdout.buffer.write(run_program(driver, args.marker, path, args.seconds, watchdog, args.driver))
        sys.stdout.buffer.flush()


if __name__ == '__main__':
    main()
