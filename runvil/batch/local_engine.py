"""The local engine: a pool of worker processes, each building its
Harness and parsing the prompt once, and running its share of the ``-j``
concurrent runs on threads.  Workers fork from a fork server that loaded
what a run needs once (``warm``; a fresh interpreter per worker where the
platform has no fork server).

The parent hands out one input per free slot over each worker's pipe and
takes the records back in completion order.  Workers ignore SIGINT: the
parent cancels their runs itself.  A worker whose parent dies (``kill
-9``) sees its pipe close and exits.  A worker that dies has its runs
given to a fresh worker, once; a run whose worker dies again is reported
as failed.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import wait

from .records import BatchInput, BatchSpec, RunRecord, worker_failed, worker_lost

ATTEMPTS = 2            # a run whose worker dies is retried once
CLOSE_WAIT = 5.0        # seconds a worker gets to exit after Close
TICK = 0.1              # seconds between checks for Ctrl-C while waiting


class WorkerSetupError(Exception):
    """A worker could not build its Harness, or died while starting."""


# -- the messages over a worker's pipe -----------------------------------------
@dataclass(frozen=True)
class RunOrder:
    item: BatchInput


@dataclass(frozen=True)
class CancelRuns:
    pass


@dataclass(frozen=True)
class Close:
    pass


@dataclass(frozen=True)
class Ready:
    pass


@dataclass(frozen=True)
class SetupFailed:
    message: str


@dataclass(frozen=True)
class RunDone:
    key: str
    record: RunRecord | None        # None: the run was cancelled


# -- the worker process ----------------------------------------------------------
def worker_main(conn, spec: BatchSpec, slots: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from ..harness import RunHandle
    from ..host.runner import SetupError
    from .runner import PromptRunner
    try:
        runner = PromptRunner(spec)
    except SetupError as err:
        conn.send(SetupFailed(str(err)))
        return
    conn.send(Ready())
    send_lock = threading.Lock()
    handles: dict[str, RunHandle] = {}

    def run(item: BatchInput, handle: RunHandle) -> None:
        try:
            record = runner.run(item, handle)
        except Exception as err:    # a fault of the batch's own code: the run still gets its line
            record = worker_failed(item.id, 'the batch worker failed: %s: %s' % (type(err).__name__, err))
        with send_lock:
            handles.pop(item.key, None)
            conn.send(RunDone(item.key, record))

    with ThreadPoolExecutor(slots) as pool:
        while True:
            try:
                message = conn.recv()
            except EOFError:            # the parent is gone: nobody wants the results
                os._exit(1)
            if isinstance(message, RunOrder):
                handle = handles[message.item.key] = RunHandle()
                pool.submit(run, message.item, handle)
            elif isinstance(message, CancelRuns):
                with send_lock:
                    for handle in handles.values():
                        handle.cancel()
            else:
                break
    runner.close()


# -- the parent's side -------------------------------------------------------------
class _Worker:
    def __init__(self, context, spec: BatchSpec, slots: int):
        self.conn, child = context.Pipe()
        self.slots = slots
        self.ready = False
        self.running: dict[str, BatchInput] = {}
        self.process = context.Process(target=worker_main, args=(child, spec, slots), daemon=True,
                                       name='runvil-batch-worker')
        self.process.start()
        child.close()

    @property
    def free(self) -> int:
        return self.slots - len(self.running) if self.ready else 0

    def send(self, message) -> None:
        try:
            self.conn.send(message)
        except OSError:
            pass        # it died; its sentinel tells

    def close(self) -> None:
        self.send(Close())
        self.process.join(CLOSE_WAIT)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


class LocalEngine:
    def __init__(self, spec: BatchSpec, jobs: int):
        self.spec = spec
        workers = max(1, min(jobs, os.cpu_count() or 1))
        self.slots = [jobs // workers + (1 if index < jobs % workers else 0) for index in range(workers)]

    def run(self, runs: list[BatchInput], on_record, stop) -> None:
        """Run ``runs``, calling ``on_record(record)`` as each finishes;
        ``stop`` (a Stop) cancels the runs in flight and ends the batch."""
        if not runs:
            return
        context = _worker_context()
        pending = deque(runs)
        attempts: dict[str, int] = {}
        workers = [_Worker(context, self.spec, slots) for slots in self.slots[:len(runs)]]
        cancelling = False
        try:
            while not stop.forced.is_set():
                if stop.requested.is_set() and not cancelling:
                    cancelling = True
                    for worker in workers:
                        worker.send(CancelRuns())
                if cancelling:
                    pending.clear()     # and what a lost worker left: a cancelled run is not retried
                _dispatch(workers, pending, attempts)
                if not pending and not any(worker.running for worker in workers):
                    return
                by_wait = {}
                for worker in workers:
                    by_wait[worker.conn] = by_wait[worker.process.sentinel] = worker
                for ready in wait(list(by_wait), TICK):
                    worker = by_wait[ready]
                    if worker in workers and not _receive(worker, on_record):
                        workers.remove(worker)
                        _lost(worker, pending, attempts, on_record)
                        if pending:
                            workers.append(_Worker(context, self.spec, worker.slots))
        finally:
            for worker in workers:
                worker.close()


def start_fork_server() -> None:
    """Start the fork server now, so that it loads what the workers need
    while this process goes on setting the batch up."""
    if _worker_context().get_start_method() == 'forkserver':
        from multiprocessing import forkserver
        forkserver.ensure_running()


def _worker_context():
    if 'forkserver' not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context('spawn')
    context = multiprocessing.get_context('forkserver')
    context.set_forkserver_preload(['runvil.batch.warm'])
    return context


def _dispatch(workers: list[_Worker], pending: deque, attempts: dict) -> None:
    for worker in workers:
        while worker.free and pending:
            item = pending.popleft()
            attempts[item.key] = attempts.get(item.key, 0) + 1
            worker.running[item.key] = item
            worker.send(RunOrder(item))


def _receive(worker: _Worker, on_record) -> bool:
    """Take the worker's messages; False once its pipe has closed."""
    try:
        while worker.conn.poll():
            message = worker.conn.recv()
            if isinstance(message, Ready):
                worker.ready = True
            elif isinstance(message, SetupFailed):
                raise WorkerSetupError(message.message)
            else:
                worker.running.pop(message.key, None)
                if message.record is not None:
                    on_record(message.record)
    except (EOFError, OSError):
        return False
    return True


def _lost(worker: _Worker, pending: deque, attempts: dict, on_record) -> None:
    worker.process.join()
    if not worker.ready:
        raise WorkerSetupError('a batch worker died while starting (exit status %s)'
                               % worker.process.exitcode)
    worker.conn.close()
    for key, item in reversed(list(worker.running.items())):
        if attempts[key] < ATTEMPTS:
            pending.appendleft(item)
        else:
            on_record(worker_lost(item.id, attempts[key]))
