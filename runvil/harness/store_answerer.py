"""The run's store, kept by the Harness: a directory of files
(``runvil run --store DIR``), and the answerer of ``store`` effects.

Without a store every store operation fails with ``no_store``.  A store
whose directory is missing fails the run as Vfs before anything runs
(``check``)."""
from __future__ import annotations

import os
from pathlib import Path

from ..engine import Answer, Failure
from ..engine.store import BACKEND, NO_STORE, NO_STORE_MESSAGE, not_found, store_failure


class DirectoryStore:
    def __init__(self, root: str):
        self.root = Path(root)

    def check(self) -> None:
        """Raise the Vfs failure of a store that cannot start."""
        if not self.root.is_dir():
            raise store_failure(BACKEND, 'the store cannot start: no directory at %s' % self.root)

    def read(self, path: str) -> str:
        try:
            return (self.root / path).read_text(encoding='utf-8')
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            raise not_found(path) from None

    def write(self, path: str, text: str) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding='utf-8')

    def exists(self, path: str) -> bool:
        return (self.root / path).is_file()

    def delete(self, path: str) -> bool:
        try:
            (self.root / path).unlink()
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            return False
        return True

    def list(self, prefix: str) -> list[str]:
        paths = []
        for folder, _, files in os.walk(self.root):
            for name in files:
                path = (Path(folder) / name).relative_to(self.root).as_posix()
                if path.startswith(prefix):
                    paths.append(path)
        return sorted(paths)


class StoreAnswerer:
    def __init__(self, store: DirectoryStore | None):
        self.store = store

    def __call__(self, effect, reply):
        reply(self._answer(effect))
        return _Done()

    def _answer(self, effect) -> Answer:
        operation, path, data = effect.payload
        if self.store is None:
            return Answer.failed(effect.kind, store_failure(NO_STORE, NO_STORE_MESSAGE))
        try:
            if operation == 'write':
                return Answer.ok(effect.kind, self.store.write(path, data))
            if operation == 'list':
                return Answer.ok(effect.kind, self.store.list(path))
            return Answer.ok(effect.kind, getattr(self.store, operation)(path))
        except Failure as failure:          # not found
            return Answer.failed(effect.kind, failure)
        except UnicodeDecodeError:
            return Answer.failed(effect.kind, store_failure(BACKEND, 'store file %s is not UTF-8 text' % path))
        except OSError as err:
            return Answer.failed(effect.kind, store_failure(BACKEND, 'store %s of %s failed: %s'
                                                            % (operation, path, err.strerror or err)))


class _Done:
    def abort(self) -> None:
        """Store operations finish when they are issued."""
