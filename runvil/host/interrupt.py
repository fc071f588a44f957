"""Ctrl-C as cancel: the first SIGINT cancels the run (it then ends with
the cancelled outcome, exit 130); a second one gives up waiting.  SIGUSR1
(where the platform has it) stops the calls in flight: they resume with
the interrupted error and the run goes on."""
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
    stop_signal = getattr(signal, 'SIGUSR1', None)
    previous_stop = signal.signal(stop_signal, lambda signum, frame: handle.stop()) if stop_signal else None
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if stop_signal:
            signal.signal(stop_signal, previous_stop)
