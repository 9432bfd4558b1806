"""The journal's note: how many entries the journal holds and the hash of the last, kept in a
small file of its own beside it (``journal.sqlite-head``).

The note lives outside SQLite on purpose. Entries committed since the last checkpoint exist
only in the ``-wal`` file; a deleted, truncated or bit-flipped WAL takes them away silently (SQLite
drops WAL frames whose checksum fails), and a note kept inside the database would go with them
and still agree. A separate file keeps the count the rows must reach.

The file holds two slots; a note for ``count`` goes into slot ``count % 2`` and is synced before
``append`` returns, so a power cut tearing one slot leaves the other, one entry older, intact.
Each slot carries its own checksum: a torn or flipped slot is seen, never believed.
"""

from __future__ import annotations

import hashlib
import os
import struct
from dataclasses import dataclass
from pathlib import Path

from faro_box.errors import JournalError

NOTE_SUFFIX = "-head"
_MAGIC = b"FARONOTE"
_BODY = struct.Struct(">8sQ32s")      # magic, count, hash of the last entry
_CHECK = 16                           # bytes of SHA-256 over the body
SLOT = _BODY.size + _CHECK
HASH_SIZE = 32
# The hash before the first entry: the chain of every journal starts here.
GENESIS = hashlib.sha256(b"faro-box journal").digest()
SALVAGE_HINT = "`faro-box journal salvage` copies the intact entries to a new journal"


@dataclass(frozen=True)
class Head:
    count: int
    hash: bytes


def note_path(journal: Path) -> Path:
    return journal.with_name(journal.name + NOTE_SUFFIX)


def _slot(head: Head) -> bytes:
    body = _BODY.pack(_MAGIC, head.count, head.hash)
    return body + hashlib.sha256(body).digest()[:_CHECK]


def _parse(slot: bytes) -> Head | None:
    if len(slot) != SLOT:
        return None
    body, check = slot[:_BODY.size], slot[_BODY.size:]
    magic, count, digest = _BODY.unpack(body)
    if magic != _MAGIC or hashlib.sha256(body).digest()[:_CHECK] != check:
        return None
    return Head(count, digest)


def read_note(journal: Path) -> Head | None:
    """The newest sound slot of the journal's note; None when there is no note.

    JournalError when the note exists but neither slot is sound (the note itself is damaged).
    """
    path = note_path(journal)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise JournalError(f"cannot read the journal's note {str(path)!r}: {exc.strerror or exc}") from None
    heads = [h for h in (_parse(data[:SLOT]), _parse(data[SLOT:2 * SLOT])) if h is not None]
    if not heads:
        raise JournalError(f"the journal's note {str(path)!r} is damaged (neither of its slots is sound); "
                           f"left untouched ({SALVAGE_HINT})")
    return max(heads, key=lambda h: h.count)


def _sync(fd: int) -> None:
    getattr(os, "fdatasync", os.fsync)(fd)


class Note:
    """The note of one journal, open for writing; ``write(head)`` returns once it is on disk."""

    def __init__(self, journal: Path, head: Head) -> None:
        self.path = note_path(journal)
        try:
            if not self.path.exists():
                self._create(head)
            self._fd = os.open(self.path, os.O_RDWR)
        except OSError as exc:
            raise JournalError(f"cannot write the journal's note {str(self.path)!r}: {exc.strerror or exc}") from None
        self.write(head)

    def _create(self, head: Head) -> None:
        # Whole or not at all: written aside, synced, renamed into place, the folder synced.
        part = self.path.with_name(self.path.name + ".new")
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, _slot(head) * 2)
            _sync(fd)
        finally:
            os.close(fd)
        os.replace(part, self.path)
        folder = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)

    def write(self, head: Head) -> None:
        try:
            os.pwrite(self._fd, _slot(head), (head.count % 2) * SLOT)
            _sync(self._fd)
        except OSError as exc:
            raise JournalError(f"cannot write the journal's note {str(self.path)!r}: {exc.strerror or exc}") from None

    def close(self) -> None:
        os.close(self._fd)
