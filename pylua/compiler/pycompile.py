"""Python's ``compile()`` of generated code, in steps the VM can interrupt.

``compile()`` is one C call that holds the GIL and checks nothing, about a
second per megabyte of generated source on a loaded machine, and a single
Lua function can translate to megabytes.  So a source bigger than
``IN_PROCESS_LIMIT`` is compiled by a worker process while the calling
thread waits in slices of ``WAIT_SLICE`` seconds, each counted as one check
interval of work (cancel, hooks); the code object comes back marshalled,
which loads about a hundred times faster than it compiles.  Where no worker
can be started, the source is compiled here.

``compile()`` holds about ``memory.PYTHON_COMPILE_PER_BYTE`` bytes per
byte of source while it runs: in this process that much must fit under
the VM's memory ceiling; a worker's is its own (about seven times what
translating the source held, which the ceiling bounded).
"""
from __future__ import annotations

import marshal
import os
import selectors
import subprocess
import sys
import threading
import time

from ..runtime import memory, state

IN_PROCESS_LIMIT = 64 * 1024         # about 60 ms of compile() on a loaded machine: a gap a cancel may wait
WAIT_SLICE = 0.01
IDLE_KEPT = 2

# The worker: requests are (file name, source) as length-prefixed UTF-8;
# each answer is a length-prefixed status byte and marshalled code or the
# error's text.
_WORKER = r'''
import marshal, sys
inp, out = sys.stdin.buffer, sys.stdout.buffer
def read(n):
    data = inp.read(n)
    if len(data) < n:
        sys.exit(0)
    return data
while True:
    sizes = read(16)
    name = read(int.from_bytes(sizes[:8], 'little')).decode('utf-8', 'surrogatepass')
    source = read(int.from_bytes(sizes[8:], 'little')).decode('utf-8', 'surrogatepass')
    try:
        answer = b'c' + marshal.dumps(compile(source, name, 'exec'))
    except Exception as e:
        answer = b'e' + ('%s: %s' % (type(e).__name__, e)).encode('utf-8', 'replace')
    out.write(len(answer).to_bytes(8, 'little') + answer)
    out.flush()
'''

_idle: list = []
_lock = threading.Lock()


class _Worker:
    """One compiling process and its pipes."""

    def __init__(self):
        self.process = subprocess.Popen([sys.executable, '-I', '-S', '-c', _WORKER],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self.to_worker = self.process.stdin.fileno()
        self.from_worker = self.process.stdout.fileno()
        os.set_blocking(self.to_worker, False)

    def compile(self, source: str, filename: str, vm):
        name = filename.encode('utf-8', 'surrogatepass')
        text = source.encode('utf-8', 'surrogatepass')
        request = memoryview(len(name).to_bytes(8, 'little') + len(text).to_bytes(8, 'little') + name + text)
        answer = bytearray()
        wanted = None
        checked = time.monotonic()
        with selectors.DefaultSelector() as selector:
            selector.register(self.to_worker, selectors.EVENT_WRITE)
            selector.register(self.from_worker, selectors.EVENT_READ)
            while wanted is None or len(answer) < wanted:
                ready = selector.select(WAIT_SLICE)
                if vm is not None and time.monotonic() - checked >= WAIT_SLICE:
                    checked = time.monotonic()
                    vm.interrupt_work(state.CHECK_INTERVAL)
                for key, _ in ready:
                    if key.fd == self.to_worker:
                        request = request[os.write(self.to_worker, request):]
                        if not request:
                            selector.unregister(self.to_worker)
                    else:
                        data = os.read(self.from_worker, 1 << 20)
                        if not data:
                            raise OSError('the compiling process ended')
                        answer += data
                        if wanted is None and len(answer) >= 8:
                            wanted = 8 + int.from_bytes(answer[:8], 'little')
        if answer[8:9] != b'c':
            raise SyntaxError(answer[9:].decode('utf-8', 'replace'))
        return marshal.loads(answer[9:])

    def stop(self):
        self.process.kill()
        self.process.wait()
        self.process.stdin.close()
        self.process.stdout.close()


def compile_module(source: str, filename: str):
    """``compile(source, filename, 'exec')``, interruptible when big."""
    if len(source) <= IN_PROCESS_LIMIT:
        return _compile_here(source, filename)
    with _lock:
        worker = _idle.pop() if _idle else None
    try:
        if worker is None:
            worker = _Worker()
    except OSError:
        return _compile_here(source, filename)
    try:
        code = worker.compile(source, filename, state.running.vm)
    except OSError:                   # the worker died: compile here
        worker.stop()
        return _compile_here(source, filename)
    except BaseException:
        worker.stop()
        raise
    with _lock:
        if len(_idle) < IDLE_KEPT:
            _idle.append(worker)
            worker = None
    if worker is not None:
        worker.stop()
    return code


def _compile_here(source: str, filename: str):
    """``compile()`` in this process, once its memory fits the ceiling."""
    state.reserve_memory(len(source) * memory.PYTHON_COMPILE_PER_BYTE)
    return compile(source, filename, 'exec')
