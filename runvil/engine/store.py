"""The ``store`` global: files the Host keeps for the run (``runvil run
--store DIR``), reached through the Harness.

* ``store.read(path)`` -> text; ``store.write(path, text)``;
  ``store.exists(path)`` -> boolean; ``store.delete(path)`` -> whether the
  file was there; ``store.list(prefix?)`` -> the sorted paths under
  ``prefix``.

A path is relative, ``/``-separated, with no empty, ``.`` or ``..`` part
and no NUL byte.
A failure is an error value of kind ``store`` with a ``reason``; left
uncaught it ends the run as Vfs.  Every access is checked against the
run's claims first (``claims``): a race between chains ends the run on the
spot as Determinism, past any ``pcall``.
"""
from __future__ import annotations

from pylua.raw import LuaTable

from ..vocabulary.crossing import CHARGED_TEXT, CHARGED_TEXTS, TEXT, VALUE
from ..vocabulary.effects import request
from ..vocabulary.failure import Failure, lua_failure
from ..vocabulary.functions import bad_argument
from ..vocabulary.kinds import ErrorKind, RunErrorKind
from .chains import ABORT

STORE = 'store'

NOT_FOUND, NO_STORE, INVALID_PATH, BACKEND = 'not_found', 'no_store', 'invalid_path', 'backend'
NO_STORE_MESSAGE = 'this run declares no store, so no store operation can run'


def store_failure(reason: str, message: str) -> Failure:
    return Failure(RunErrorKind.VFS, message, error_kind=ErrorKind.STORE, fields={'reason': reason})


def not_found(path: str) -> Failure:
    return store_failure(NOT_FOUND, 'file not found in store: %s' % path)


def check_path(path: str) -> str | None:
    """Why ``path`` is not a store path, or None."""
    if not path:
        return 'a path is not empty'
    if path.startswith('/') or '\\' in path:
        return 'a path is relative and separated by /'
    if any(part in ('', '.', '..') for part in path.split('/')):
        return 'a path has no empty, . or .. part'
    if '\0' in path:
        return 'a path has no NUL byte'
    return None


class Store:
    def __init__(self, vm):
        self.vm = vm
        table = LuaTable()
        for name, gives in (('read', CHARGED_TEXT), ('write', VALUE), ('exists', VALUE), ('delete', VALUE),
                            ('list', CHARGED_TEXTS)):
            table.set_str(name, vm.generator('store.' + name, getattr(self, '_' + name),
                                             takes=(TEXT, TEXT), gives=(gives,)))
        vm.globals.set_str('store', table)

    def _read(self, *args):
        path = self._path(args, 1, 'store.read')
        yield from self._claim('read', path)
        return ((yield from request(STORE, ('read', path, None))),)

    def _write(self, *args):
        if len(args) != 2:
            raise lua_failure('store.write takes (path, text)')
        path = self._path(args, 2, 'store.write')
        if args[1].__class__ is not str:
            raise bad_argument(2, 'store.write', 'string', args[1])
        yield from self._claim('write', path)
        yield from request(STORE, ('write', path, args[1]))
        return ()

    def _exists(self, *args):
        path = self._path(args, 1, 'store.exists')
        yield from self._claim('read', path)
        return ((yield from request(STORE, ('exists', path, None))),)

    def _delete(self, *args):
        path = self._path(args, 1, 'store.delete')
        yield from self._claim('write', path)
        return ((yield from request(STORE, ('delete', path, None))),)

    def _list(self, *args):
        if len(args) > 1:
            raise lua_failure('store.list takes (prefix?)')
        prefix = args[0] if args else None
        if prefix is not None and prefix.__class__ is not str:
            raise bad_argument(1, 'store.list', 'string', prefix)
        yield from self._claim('list', None)
        return ((yield from request(STORE, ('list', '' if prefix is None else prefix, None))),)

    def _path(self, args, count: int, who: str) -> str:
        if count == 1 and len(args) != 1:
            raise lua_failure('%s takes (path)' % who)
        if args[0].__class__ is not str:
            raise bad_argument(1, who, 'string', args[0])
        path = args[0]
        problem = check_path(path)
        if problem is not None:
            # A NUL byte is shown as \0, so the message stays printable text.
            raise store_failure(INVALID_PATH, 'invalid store path `%s`: %s' % (path.replace('\0', '\\0'), problem))
        return path

    def _claim(self, access: str, path: str | None):
        """Check the access against the run's claims; a conflict ends the
        run at once (a generator: it never resumes then)."""
        chain = self.vm.chain
        who = self.vm.place if chain.task is None else chain.task.title
        claims = self.vm.run.claims
        try:
            if access == 'read':
                claims.read(chain, who, path)
            elif access == 'write':
                claims.write(chain, who, path)
            else:
                claims.listing(chain, who)
        except Failure as conflict:
            yield from request(ABORT, conflict)


def install(vm) -> Store:
    return Store(vm)
