"""The standalone profile: what the ``pylua`` command adds to the sandbox's
libraries: ``io``, ``os``, ``debug``, ``package`` and ``require``,
``loadfile``, ``dofile`` and ``warn`` (docs/profiles.md lists each profile's functions)."""
from __future__ import annotations

import sys

from ..runtime.collector import collector_of
from . import debug, io, loadfile, os, package, strdump, warn


def install(vm):
    """Add the standalone libraries to ``vm``."""
    stderr = vm.stderr or sys.stderr.buffer
    io.install(vm, vm.stdout, stderr, sys.stdin.buffer)
    os.install(vm)
    debug.install(vm)
    loadfile.install(vm)
    # require's searchers run with lua_call, a C level that vm.c_calls counts
    package.install(vm, lambda filename: loadfile.load_file(vm, filename))
    warn.install(vm, stderr)
    strdump.install(vm)
    collector_of(vm).mode = 'generational'     # as lua.c starts its state
