"""Reading a journal file without changing a byte of it, and telling a sound one from a damaged one.

Each entry carries ``hash = SHA-256(hash of the entry before | the entry's columns)``, the first
starting from GENESIS; the note beside the file (journal_note.py) holds the count and the last
hash. SQLite checks its pages but not what a row says: a stake flipped from 2 to 3 reads back
without a word, and only the chain sees it.

How the note and the rows are told apart after a power cut: ``append`` commits the row first and
writes the note after, and the table applies a command only once both are on disk. So

- rows = note: the normal case, and also a torn last write (SQLite drops a WAL frame whose
  checksum fails, so the torn command is simply not there: nobody saw it applied);
- rows = note + 1 (or more, read while a writer appends): the power went between the commit and
  the note; the extra row is whole (its hash chains on) and is kept;
- rows < note: entries the table had applied are gone (a lost, truncated or damaged WAL, an
  emptied file): refused.

The check reads a private copy when a ``-wal`` file exists (SQLite would otherwise rebuild its
``-shm`` index beside the journal) and the file itself with ``immutable=1`` when none does.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from faro_box.errors import FaroBoxError, JournalError
from faro_box.table.commands import Command, command_from_text
from faro_box.table.journal_note import GENESIS, SALVAGE_HINT, Head, note_path, read_note

SCHEMA_VERSION = 2           # 1: no hash chain (faro-box before the chain); migrated on opening
# "FARO" in ASCII: marks the SQLite file as ours so another program's database is not taken.
APPLICATION_ID = 0x4641524F
# A damaged file can hold text that is not UTF-8, which Python's sqlite3 raises as UnicodeDecodeError.
DB_ERRORS = (sqlite3.Error, UnicodeDecodeError)
_COPY_TRIES = 20


@dataclass(frozen=True)
class Entry:
    seq: int
    deal: int | None
    command: Command
    wall_time: float | None


@dataclass(frozen=True)
class Inspection:
    """What a sound file holds: its schema version (0 for none yet) and the head of its chain."""

    version: int
    head: Head


def entry_hash(previous: bytes, seq: int, deal: int | None, text: str, wall_time: float | None,
               app_version: str | None) -> bytes:
    columns = json.dumps([seq, deal, text, wall_time, app_version], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(previous + columns.encode("utf-8")).digest()


def _refused(name: str, what: str) -> JournalError:
    return JournalError(f"the journal {name!r} {what}; left untouched ({SALVAGE_HINT})")


def _lost(path: Path, state: str, have: int, recorded: int) -> JournalError:
    return _refused(str(path), f"{state}, but its note {str(note_path(path))!r} records {recorded} entries: "
                               f"entries {have + 1}..{recorded} were lost (a deleted, truncated or damaged "
                               "-wal file, or a file cut short)")


class View:
    """A read-only connection to what the journal file holds, the WAL's commits included."""

    def __init__(self, path: Path) -> None:
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        wal = path.with_name(path.name + "-wal")
        if wal.exists():
            self._folder = tempfile.TemporaryDirectory(prefix="faro-box-journal-")
            copy = Path(self._folder.name) / "journal.sqlite"
            try:
                self._copy(path, wal, copy)
                self.conn = sqlite3.connect(f"{copy.as_uri()}?mode=ro", uri=True, isolation_level=None,
                                            check_same_thread=False)
            except BaseException:
                self._folder.cleanup()
                raise
        else:
            self.conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True,
                                        isolation_level=None, check_same_thread=False)

    @staticmethod
    def _copy(path: Path, wal: Path, copy: Path) -> None:
        # A writer may append (or checkpoint) while export reads: a copy is taken again until
        # neither file changed while it was made.
        def stamp() -> tuple[tuple[int, int], ...]:
            return tuple((s.st_size, s.st_mtime_ns) for s in (os.stat(path), os.stat(wal)))

        for _ in range(_COPY_TRIES):
            try:
                before = stamp()
                shutil.copyfile(path, copy)
                shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
                if stamp() == before:
                    return
            except FileNotFoundError:  # the writer closed meanwhile and took its WAL away
                if not wal.exists():
                    copy.with_name(copy.name + "-wal").unlink(missing_ok=True)
                    shutil.copyfile(path, copy)
                    return
        raise JournalError(f"the journal {str(path)!r} changed on every one of {_COPY_TRIES} reads")

    def close(self) -> None:
        self.conn.close()
        if self._folder is not None:
            self._folder.cleanup()


def _rows(conn: sqlite3.Connection, version: int, deal: int | None = None
          ) -> Iterator[tuple[int, int | None, str, float | None, str | None, bytes | None]]:
    # Version 1 has no hash column: its rows read with a null hash.
    columns = "seq, deal, command, wall_time, app_version, " + ("hash" if version >= 2 else "NULL")
    if deal is None:
        yield from conn.execute(f"SELECT {columns} FROM events ORDER BY seq")
    else:
        yield from conn.execute(f"SELECT {columns} FROM events WHERE deal = ? ORDER BY seq", (deal,))


def read_entries(conn: sqlite3.Connection, name: str, deal: int | None = None) -> Iterator[Entry]:
    """The entries of a file already checked (or one deal's), parsed."""
    for seq, deal_no, text, wall, _, _ in _rows(conn, 1, deal):
        try:
            command = command_from_text(text)
        except FaroBoxError as exc:
            raise JournalError(f"the journal {name!r} is damaged: entry {seq} is not a command "
                               f"({exc}); left untouched") from None
        yield Entry(seq, deal_no, command, wall)


def walk_chain(conn: sqlite3.Connection, name: str, version: int) -> Iterator[tuple[Entry, bytes]]:
    """Every entry with the chain's hash after it; JournalError at the first that is not sound."""
    previous, expected = GENESIS, 1
    for seq, deal, text, wall, app_version, stored in _rows(conn, version):
        if seq != expected:
            raise _refused(name, f"is damaged: entry {expected} is missing (found {seq})")
        try:
            command = command_from_text(text)
        except FaroBoxError as exc:
            raise _refused(name, f"is damaged: entry {seq} is not a command ({exc})") from None
        digest = entry_hash(previous, seq, deal, text, wall, app_version)
        if version >= 2 and stored != digest:
            raise _refused(name, f"is damaged: entry {seq} was changed after it was written "
                                 "(its hash does not match)")
        yield Entry(seq, deal, command, wall), digest
        previous, expected = digest, expected + 1


def _schema(conn: sqlite3.Connection, name: str) -> int:
    """The schema version of a sound faro-box file; 0 for an SQLite file with nothing in it."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not tables and version == 0 and app_id == 0:
        return 0
    if app_id != APPLICATION_ID:
        raise JournalError(f"{name!r} is an SQLite file of another program "
                           f"(application_id {app_id:#x}); left untouched")
    if version > SCHEMA_VERSION:
        raise JournalError(f"the journal {name!r} was written by a newer faro-box (schema "
                           f"{version}, this one reads up to {SCHEMA_VERSION}): upgrade faro-box; "
                           "left untouched")
    problems = [r[0] for r in conn.execute("PRAGMA quick_check")]
    if problems != ["ok"]:
        raise _refused(name, f"is damaged ({'; '.join(problems[:3])})")
    if "events" not in tables:
        raise _refused(name, "has no events table")
    return int(version)


def check_file(path: Path) -> Inspection:
    """What a sound journal file holds; JournalError, the file left as it was, for any damage.

    A missing or empty file (0 bytes, or an SQLite file with nothing in it) is a new journal,
    unless its note says it held entries.
    """
    name = str(path)
    note = read_note(path)
    recorded = 0 if note is None else note.count
    fresh = Inspection(0, Head(0, GENESIS))
    if path.is_dir():
        raise JournalError(f"the journal {name!r} is a directory")
    if not path.exists() or path.stat().st_size == 0:
        if recorded:
            raise _lost(path, "is missing" if not path.exists() else "is empty (0 bytes)", 0, recorded)
        return fresh
    with path.open("rb") as handle:
        if handle.read(16) != b"SQLite format 3\x00":
            raise JournalError(f"{name!r} is not a faro-box journal (not an SQLite file); left untouched")
    try:
        view = View(path)
    except DB_ERRORS as exc:
        raise _refused(name, f"cannot be opened ({exc})") from None
    try:
        version = _schema(view.conn, name)
        if version == 0:
            if recorded:
                raise _lost(path, "holds no entries (an SQLite file with nothing in it)", 0, recorded)
            return fresh
        head, at_note = Head(0, GENESIS), GENESIS
        for entry, digest in walk_chain(view.conn, name, version):
            head = Head(entry.seq, digest)
            if entry.seq == recorded:
                at_note = digest
    except DB_ERRORS as exc:
        raise _refused(name, f"is damaged ({exc})") from None
    finally:
        view.close()
    if note is None:
        if version >= 2 and head.count:
            raise _refused(name, f"holds {head.count} entries but its note {str(note_path(path))!r} is "
                                 "missing, so entries lost from its end would go unseen")
    elif head.count < note.count:
        raise _lost(path, f"holds {head.count} entries", head.count, note.count)
    elif at_note != note.hash:
        raise _refused(name, f"does not match its note {str(note_path(path))!r}: entry {note.count} "
                             "differs from the one the note records")
    return Inspection(version, head)


@dataclass(frozen=True)
class Salvage:
    entries: list[Entry]
    problem: str | None      # why the entries stop where they do; None when the journal is sound


def intact_entries(path: Path) -> Salvage:
    """The entries of a journal, damaged or not, from the first up to the first that is not sound."""
    name = str(path)
    try:
        check_file(path)
        problem = None
    except JournalError as exc:
        problem = str(exc)
    entries: list[Entry] = []
    if not path.is_file() or path.stat().st_size == 0:
        return Salvage(entries, problem)
    try:
        view = View(path)
    except DB_ERRORS as exc:
        return Salvage(entries, problem or str(exc))
    try:
        version = int(view.conn.execute("PRAGMA user_version").fetchone()[0])
        for entry, _ in walk_chain(view.conn, name, min(version, SCHEMA_VERSION)):
            entries.append(entry)
    except (JournalError, *DB_ERRORS) as exc:
        problem = problem or str(exc)
    finally:
        view.close()
    return Salvage(entries, problem)
