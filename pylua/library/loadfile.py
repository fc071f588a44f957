"""``loadfile`` and ``dofile`` (standalone profile): chunks read from files or stdin."""
from __future__ import annotations

import os
import sys

from ..runtime import ops
from ..runtime.errors import LuaError
from ..runtime.values import Builtin, GenBuiltin
from .args import ABSENT, opt_str
from .base import load_text
from .package import LoadFailure


def _read_chunk(filename):
    """(text, chunkname) of a file, or of stdin for None; without a first '#' line."""
    if filename is None:
        source, chunkname = sys.stdin.buffer.read(), '=stdin'
    else:
        try:
            with open(filename.encode('latin-1'), 'rb') as fh:
                source = fh.read()
        except IsADirectoryError as e:
            raise LoadFailure('cannot read %s: %s' % (filename, os.strerror(e.errno))) from None
        except OSError as e:
            raise LoadFailure('cannot open %s: %s' % (filename, os.strerror(e.errno))) from None
        chunkname = '@' + filename
    if source.startswith(b'\xef\xbb\xbf'):     # a UTF-8 byte order mark
        source = source[3:]
    if source.startswith(b'#'):
        nl = source.find(b'\n')
        source = b'' if nl < 0 else source[nl:]
        if source.startswith(b'\n\x1b'):
            # A binary chunk: luaL_loadfilex keeps no newline for line numbers.
            source = source[1:]
    return source.decode('latin-1'), chunkname


def load_file(vm, filename, mode='bt', env=ABSENT, c_levels=2):
    """The chunk of ``filename`` (stdin for None) as a function whose ``_ENV``
    is ``env`` (the globals when absent); raises LoadFailure.  ``c_levels``
    as for ``load_text``."""
    text, chunkname = _read_chunk(filename)
    r = load_text(vm, text, chunkname, mode, vm.globals if env is ABSENT else env, c_levels,
                  from_file=filename is not None)
    if r[0] is None:
        raise LoadFailure(r[1])
    return r[0]


def install(vm):
    def loadfile(filename=None, mode=ABSENT, env=ABSENT, *_):
        name = opt_str(filename, 1, 'loadfile', None)
        m = opt_str(mode, 2, 'loadfile', 'bt')
        try:
            return (load_file(vm, name, m, env),)
        except LoadFailure as failure:
            return (None, failure.message)

    def dofile(filename=None, *_):
        name = opt_str(filename, 1, 'dofile', None)
        try:
            fn = load_file(vm, name)
        except LoadFailure as failure:
            raise LuaError(failure.message) from None
        # dofile runs the chunk with lua_callk: one C level more, and yieldable
        return (yield from ops.nested_call(fn, ()))

    vm.globals.set_str('loadfile', Builtin(loadfile, 'loadfile'))
    vm.globals.set_str('dofile', GenBuiltin(dofile, 'dofile'))
