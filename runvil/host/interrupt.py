"""Ctrl-C as cancel: the first SIGINT cancels the run (it then ends with
the cancelled outcome, exit 130); a second one gives up waiting."""
from __future__ import annotations

import contextlib
import signal
import threading


@contextlib.contextmanager
def ctrl_c_cancels(handle):
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_sigint(signum, frame):
        signal.signal(signal.SIGINT, signal.default_int_handler)
        handle.cancel()

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
