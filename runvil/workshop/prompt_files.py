"""The prompt files under the Workshop's directory: the tree, reading with
a version, and saving that never clobbers a file changed on disk."""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

PROMPT_SUFFIX = '.md'


class FileRefused(Exception):
    """A path outside the directory, not a prompt file, or unreadable."""


@dataclass(frozen=True)
class FileVersion:
    """A prompt file's text and the version the page must send back to save."""
    path: str           # relative to the directory, with / separators
    text: str
    version: str        # a digest of the bytes on disk; '' for a missing file

    def to_dict(self) -> dict:
        return {'path': self.path, 'text': self.text, 'version': self.version}


@dataclass(frozen=True)
class SaveConflict:
    """The file changed on disk since the page opened it: nothing was written."""
    disk: FileVersion


def version_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


class PromptFiles:
    def __init__(self, root: str):
        self.root = Path(root).resolve()

    def tree(self) -> list[str]:
        """Every prompt file's relative path, sorted; dot directories
        (``.runvil`` among them) are skipped."""
        found = []
        for folder, dirs, files in os.walk(self.root):
            dirs[:] = sorted(name for name in dirs if not name.startswith('.'))
            base = Path(folder).relative_to(self.root)
            found += [(base / name).as_posix() for name in files if name.endswith(PROMPT_SUFFIX)]
        return sorted(found)

    def full_path(self, path: str) -> Path:
        full = (self.root / path).resolve()
        if not full.is_relative_to(self.root) or full == self.root or not full.name.endswith(PROMPT_SUFFIX):
            raise FileRefused('not a prompt file under the Workshop directory: %s' % path)
        return full

    def read(self, path: str) -> FileVersion:
        full = self.full_path(path)
        try:
            data = full.read_bytes()
        except OSError as err:
            raise FileRefused('cannot read %s: %s' % (path, err.strerror or err)) from None
        try:
            text = data.decode('utf-8')
        except UnicodeDecodeError as err:
            raise FileRefused('cannot read %s: not UTF-8 text (byte %d)' % (path, err.start)) from None
        return FileVersion(path, text, version_of(data))

    def save(self, path: str, text: str, base_version: str) -> FileVersion | SaveConflict:
        """Write ``text`` when the file on disk is still ``base_version``
        (``''``: a new file that must not exist yet)."""
        full = self.full_path(path)
        try:
            on_disk = full.read_bytes()
        except FileNotFoundError:
            on_disk = None
        disk_version = '' if on_disk is None else version_of(on_disk)
        if disk_version != base_version:
            return SaveConflict(FileVersion(path, '' if on_disk is None else on_disk.decode('utf-8', 'replace'),
                                            disk_version))
        data = text.encode('utf-8')
        full.parent.mkdir(parents=True, exist_ok=True)
        temporary = full.with_name('.%s.saving' % full.name)
        temporary.write_bytes(data)
        os.replace(temporary, full)     # a reader never sees half a file
        return FileVersion(path, text, version_of(data))
