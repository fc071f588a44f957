"""The run's store, kept by the Harness: a directory of files
(``runvil run --store DIR``) or, for embedders and tests, files in memory;
and the answerer of ``store`` effects.

Without a store every store operation fails with ``no_store``.  A store
whose directory is missing fails the run as Vfs before anything runs
(``check``)."""
from __future__ import annotations

import os
from pathlib import Path

from ..engine import Answer, Failure
from ..engine.store import BACKEND, NO_STORE, NO_STORE_MESSAGE, not_found, store_failure
from .settled import SETTLED


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


class MemoryStore:
    """A store whose files live in a dict, path -> text."""

    def __init__(self, files: dict | None = None):
        self.files = dict(files or {})

    def check(self) -> None:
        pass

    def read(self, path: str) -> str:
        if path not in self.files:
            raise not_found(path)
        return self.files[path]

    def write(self, path: str, text: str) -> None:
        self.files[path] = text

    def exists(self, path: str) -> bool:
        return path in self.files

    def delete(self, path: str) -> bool:
        return self.files.pop(path, None) is not None

    def list(self, prefix: str) -> list[str]:
        return sorted(path for path in self.files if path.startswith(prefix))


class StoreAnswerer:
    def __init__(self, store: DirectoryStore | MemoryStore | None):
        self.store = store

    def __call__(self, effect, reply):
        reply(self.answer(effect))
        return SETTLED

    def answer(self, effect) -> Answer:
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
