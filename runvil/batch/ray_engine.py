"""The Ray engine: each input a Ray task (``pip install .[ray]``), on a
local Ray started on the spot (one CPU per core here) or on the cluster at
``--ray-address``; a Ray session already open in this process is used as
it is.

A worker process builds its PromptRunner (Harness, parsed prompt) at its
first task of the batch and keeps it for the next.  Up to ``-j`` tasks are
in flight, each asking Ray for one CPU; records come back in completion
order.  A task whose worker dies is retried by Ray once (``max_retries``);
if that one dies too the run is reported failed.  Ctrl-C cancels the tasks
in flight: each cancels its run and returns nothing.
"""
from __future__ import annotations

import threading
import uuid
from collections import deque

from ..host.runner import SetupError
from .records import BatchInput, BatchSpec, RunRecord, worker_failed, worker_lost

RETRIES = 1
TICK = 0.1              # seconds between checks for Ctrl-C while waiting
CANCEL_WAIT = 10.0      # seconds the cancelled tasks get to end

_runners: dict = {}     # in a worker process: the batch's spec key -> PromptRunner


def run_task(spec_key: str, spec: BatchSpec, item: BatchInput) -> RunRecord | None:
    """One input, in a Ray worker: the record, or None when cancelled.
    The run goes on a thread of its own so that Ray's cancel (a
    KeyboardInterrupt in this thread) becomes the run's cancel."""
    from ..harness import RunHandle
    from .runner import PromptRunner
    runner = _runners.get(spec_key)
    if runner is None:
        for old in _runners.values():
            old.close()
        _runners.clear()
        runner = _runners[spec_key] = PromptRunner(spec)
    handle = RunHandle()
    done: list = []
    thread = threading.Thread(target=lambda: done.append(runner.run(item, handle)), daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(TICK)
    except KeyboardInterrupt:
        handle.cancel()
        thread.join()
        return None
    return done[0]


class RayEngine:
    def __init__(self, spec: BatchSpec, jobs: int, address: str | None):
        try:
            import ray
        except ImportError:
            raise SetupError('--engine ray needs Ray: pip install .[ray]') from None
        self.ray = ray
        self.spec = spec
        self.jobs = jobs
        self.address = address

    def run(self, runs: list[BatchInput], on_record, stop) -> None:
        ray = self.ray
        if not runs:
            return
        started = not ray.is_initialized()
        if started:
            ray.init(address=self.address, include_dashboard=False, log_to_driver=False,
                     logging_level='WARNING')
        try:
            self._run(runs, on_record, stop)
        finally:
            if started:
                ray.shutdown()

    def _run(self, runs, on_record, stop) -> None:
        ray = self.ray
        task = ray.remote(max_retries=RETRIES, retry_exceptions=False)(run_task)
        spec = ray.put(self.spec)
        spec_key = uuid.uuid4().hex
        pending = deque(runs)
        in_flight: dict = {}        # object ref -> BatchInput
        while pending or in_flight:
            if stop.forced.is_set():
                return
            if stop.requested.is_set():
                self._cancel(in_flight, on_record)
                return
            while pending and len(in_flight) < self.jobs:
                item = pending.popleft()
                in_flight[task.remote(spec_key, spec, item)] = item
            ready, waiting = ray.wait(list(in_flight), num_returns=1, timeout=TICK)
            if ready and waiting:
                more, _ = ray.wait(waiting, num_returns=len(waiting), timeout=0)
                ready += more
            for ref in ready:
                record = self._record(ref, in_flight.pop(ref))
                if record is not None:
                    on_record(record)

    def _cancel(self, in_flight: dict, on_record) -> None:
        """Cancel the tasks in flight; keep what finished before the cancel reached it."""
        for ref in in_flight:
            self.ray.cancel(ref)
        ready, _ = self.ray.wait(list(in_flight), num_returns=len(in_flight), timeout=CANCEL_WAIT)
        for ref in ready:
            record = self._record(ref, in_flight[ref])
            if record is not None:
                on_record(record)

    def _record(self, ref, item: BatchInput) -> RunRecord | None:
        exceptions = self.ray.exceptions
        try:
            return self.ray.get(ref)
        except exceptions.TaskCancelledError:
            return None
        except exceptions.WorkerCrashedError:
            return worker_lost(item.id, RETRIES + 1)
        except exceptions.RayError as err:
            return worker_failed(item.id, 'the batch task failed in Ray: %s' % type(err).__name__)
