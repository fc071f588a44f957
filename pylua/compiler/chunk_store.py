"""Compiled chunks kept on disk between processes, as CPython keeps
``__pycache__``: translating and compiling a chunk costs about 20 us per
byte of Lua source (a 200 KB program, seconds), loading it back about a
twentieth of that.

Only chunks read from files (``loadfile``, ``dofile``, ``require``, the
command's script) are stored, and only where a store is opened (``open_store``: the ``pylua`` command
opens one by default; an embedding runtime has none unless its host opens
one), so a program's own ``load`` of strings never writes to disk.  An
entry is found by a digest of the chunk's source, its names, the Python
that compiled it and pylua's own code; what parsing gives (the
prototypes) is not stored but made again, which keeps every entry honest
to its source.  The directory must be the user's own and writable by no
one else (marshalled code runs as it is loaded); the store drops its
least recently used entries past ``MAX_BYTES``.
"""
from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import CodeType

from ..runtime.frames import CallTop, TailCallNote

MAX_BYTES = 256 * 1024 * 1024
_MAGIC = b'pylua-chunk 1\n'
_SUFFIX = '.chunk'


@dataclass(frozen=True)
class StoredChunk:
    """What translating and compiling a chunk made, as the loader needs it."""
    uid: str                      # the uid in its functions' names (``translate``)
    module_code: CodeType         # the compiled module (OUTER)
    main_factory: str
    python_bytes: int             # the generated source's length (what the chunk keeps: ``memory``)
    lines: list                   # Lua line per Python line
    calls: dict                   # Python line -> the called function's description
    tops: dict                    # Python line -> CallTop


class ChunkStore:
    """A directory of stored chunks."""

    def __init__(self, directory: Path):
        self.directory = directory
        self._fingerprint = None
        # What the directory holds, as of the last scan plus what this
        # process stored since (None: not scanned yet).  Scanning stats
        # every entry, so it is done once, and again only when the count
        # passes ``MAX_BYTES``: at every store, 4,000 new files took 55 s.
        self._bytes = None

    def digest(self, source: str, chunkname: str, source_name: str | None) -> str:
        h = hashlib.sha256(self.fingerprint())
        for part in (source, chunkname, source_name or ''):
            data = part.encode('utf-8', 'surrogatepass')
            h.update(len(data).to_bytes(8, 'little') + data)
        return h.hexdigest()

    def fingerprint(self) -> bytes:
        """The Python and the pylua whose translation an entry holds: as
        ``__pycache__`` does, pylua's files are known by size and time of
        change."""
        if self._fingerprint is None:
            h = hashlib.sha256(importlib.util.MAGIC_NUMBER + sys.version.encode())
            package = Path(__file__).resolve().parent.parent
            for path in sorted(package.rglob('*.py')):
                st = path.stat()
                h.update(b'%s\0%d\0%d\0' % (str(path.relative_to(package)).encode(), st.st_size, st.st_mtime_ns))
            self._fingerprint = h.digest()
        return self._fingerprint

    def _path(self, digest: str) -> Path:
        return self.directory / (digest[:40] + _SUFFIX)

    def load(self, digest: str) -> StoredChunk | None:
        """The entry stored under ``digest``, or None (none, or unreadable)."""
        path = self._path(digest)
        try:
            data = path.read_bytes()
            if not data.startswith(_MAGIC):
                return None
            entry = marshal.loads(memoryview(data)[len(_MAGIC):])
            if entry['digest'] != digest:
                return None
            os.utime(path)            # recently used: kept longest
            return StoredChunk(entry['uid'], entry['code'], entry['main_factory'], entry['python_bytes'],
                               entry['lines'],
                               {line: TailCallNote(note) if tail else note
                                for line, (note, tail) in entry['calls'].items()},
                               {line: CallTop(*top) for line, top in entry['tops'].items()})
        except (OSError, ValueError, EOFError, TypeError, KeyError):
            return None

    def save(self, digest: str, chunk: StoredChunk) -> None:
        """Store ``chunk`` under ``digest`` (quietly nothing when the disk refuses)."""
        entry = {'digest': digest, 'uid': chunk.uid, 'code': chunk.module_code,
                 'main_factory': chunk.main_factory, 'python_bytes': chunk.python_bytes,
                 'lines': chunk.lines,
                 'calls': {line: (str(note), note.__class__ is TailCallNote) for line, note in chunk.calls.items()},
                 'tops': {line: tuple(top) for line, top in chunk.tops.items()}}
        try:
            data = _MAGIC + marshal.dumps(entry)
            fd, temporary = tempfile.mkstemp(dir=self.directory, suffix='.tmp')
            try:
                with os.fdopen(fd, 'wb') as f:
                    f.write(data)
                os.replace(temporary, self._path(digest))
            except BaseException:
                os.unlink(temporary)
                raise
            if self._bytes is not None:
                self._bytes += len(data)
            if self._bytes is None or self._bytes > MAX_BYTES:
                self._trim()
        except (OSError, ValueError):
            pass

    def _trim(self):
        """Drop the least recently used entries while the store holds more than ``MAX_BYTES``."""
        entries = []
        for item in os.scandir(self.directory):
            if item.name.endswith(_SUFFIX):
                st = item.stat()
                entries.append((st.st_mtime, st.st_size, item.path))
        total = sum(size for _, size, _ in entries)
        for _, size, path in sorted(entries):
            if total <= MAX_BYTES:
                break
            try:
                os.unlink(path)
            except OSError:
                pass
            total -= size
        self._bytes = total


_STORE: ChunkStore | None = None


def default_directory() -> Path:
    """``$XDG_CACHE_HOME/pylua``, else ``~/.cache/pylua``."""
    base = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    return Path(base) / 'pylua'


def open_store(directory) -> bool:
    """Store compiled chunks read from files in ``directory`` (made if
    missing), for every runtime of this process; None stops storing.
    False, and no store, when the directory cannot be made or another
    user could write to it."""
    global _STORE
    _STORE = None
    if directory is None:
        return True
    path = Path(directory)
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = path.stat()
    except OSError:
        return False
    if not path.is_dir() or (hasattr(os, 'geteuid') and st.st_uid != os.geteuid()) or st.st_mode & 0o022:
        return False
    _STORE = ChunkStore(path)
    return True


def store_for(from_file: bool) -> ChunkStore | None:
    """The open store for a chunk read from a file (``from_file``), else None."""
    return _STORE if from_file else None
