"""The standalone profile: what the ``pylua`` command adds to the sandbox's
libraries: ``io``, ``os``, ``debug``, ``package`` and ``require``,
``loadfile`` and ``dofile`` (docs/profiles.md lists each profile's functions)."""
from __future__ import annotations

import sys

from . import debug, io, loadfile, os, package


def install(vm, ignore_env=False):
    """Add the standalone libraries to ``vm``; ``ignore_env`` is lua.c's -E
    (package paths from the environment are not read)."""
    io.install(vm, vm.stdout, vm.stderr or sys.stderr.buffer, sys.stdin.buffer)
    os.install(vm)
    debug.install(vm)
    loadfile.install(vm)
    package.install(vm, lambda filename: loadfile.load_file(vm, filename), ignore_env)
