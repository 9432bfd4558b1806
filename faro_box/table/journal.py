"""The journal: an append-only SQLite log of every command the table accepted.

A command is committed (WAL, ``synchronous=FULL``: on disk when ``append`` returns) before the
table lets it change anything, so a power cut loses at most a command nobody saw applied; a
restart replays the log. Order is the sequence number alone: a Pi without a real-time clock
boots in 1970, so the wall time is kept only as information.

Every entry carries the hash of its content chained to the one before, and a note beside the
file (``journal.sqlite-head``, journal_note.py) holds the count and the last hash. Before
anything is written an existing file is checked without writing to it (journal_check.py): a
file that is not a faro-box journal, one of a newer version, or a damaged one (SQLite's own
checks, a row that is not a command, a gap, a row whose hash does not match, fewer rows than the
note records) is refused with a JournalError and left as it was; ``faro-box journal salvage``
copies its intact entries to a new journal.

A journal of the version before the chain (schema 1) is migrated on its first opening for
writing: its rows are hashed as they stand and the note is written first, so that from then on
they are guarded like any other.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from faro_box import __version__
from faro_box.errors import JournalError
from faro_box.table.baccarat.commands import StartBank
from faro_box.table.commands import Command, StartDeal, command_to_text
from faro_box.table.journal_check import (
    APPLICATION_ID,
    DB_ERRORS,
    SCHEMA_VERSION,
    Entry,
    Inspection,
    View,
    check_file,
    entry_hash,
    intact_entries,
    read_entries,
)
from faro_box.table.journal_note import GENESIS, NOTE_SUFFIX, Head, Note

__all__ = ["APPLICATION_ID", "MEMORY", "SCHEMA_VERSION", "Entry", "Journal", "check_file", "retire", "salvage"]

log = logging.getLogger(__name__)

MEMORY = ":memory:"
_DB_ERRORS = DB_ERRORS

_TRIGGERS = (
    """CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END""",
    """CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END""",
)
_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS events (
        seq INTEGER PRIMARY KEY,    -- 1, 2, 3 ... the only order there is
        deal INTEGER,               -- deal number the command belongs to (null before the first)
        command TEXT NOT NULL,      -- the command's canonical JSON
        wall_time REAL,             -- seconds since 1970 on the box's clock: information only
        app_version TEXT,
        hash BLOB)                  -- SHA-256 of the entry before's hash and this entry's columns""",
    *_TRIGGERS,
)


def retire(path: str | os.PathLike[str], to: str | os.PathLike[str]) -> None:
    """Move a closed journal and its note to ``to`` (which they replace), so a new journal can
    start at ``path`` and the old one still opens where it went."""
    file, target = Path(path), Path(to)
    os.replace(file, target)
    note = file.with_name(file.name + NOTE_SUFFIX)
    if note.exists():
        os.replace(note, target.with_name(target.name + NOTE_SUFFIX))
    for suffix in ("-wal", "-shm"):
        Path(str(file) + suffix).unlink(missing_ok=True)


def salvage(path: str | os.PathLike[str], to: str | os.PathLike[str]) -> tuple[int, str | None]:
    """Copy the intact entries of a journal, damaged or not, into a new journal at ``to``.

    Returns how many were copied and what stopped them (None for a sound journal). The damaged
    file is only read; ``to`` must not exist yet. The copies keep their wall times.
    """
    source, target = Path(path), Path(to)
    if not source.exists():
        raise JournalError(f"there is no journal at {str(source)!r}")
    taken = [p for p in (target, target.with_name(target.name + NOTE_SUFFIX)) if p.exists()]
    if taken:
        raise JournalError(f"{str(taken[0])!r} already exists: salvage writes a new journal only")
    found = intact_entries(source)
    walls = iter([e.wall_time for e in found.entries])

    def clock() -> float:
        wall = next(walls)
        return time.time() if wall is None else wall

    with Journal(target, clock=clock) as new:
        for entry in found.entries:
            new.append(entry.command)
    return len(found.entries), found.problem


class Journal:
    """``Journal(path)`` opens (or creates) a journal; ``Journal(":memory:")`` keeps none on disk."""

    def __init__(self, path: str | os.PathLike[str] = MEMORY, *,
                 clock: Callable[[], float] | None = None, readonly: bool = False) -> None:
        self.path = str(path)
        self._clock = clock or time.time
        self.readonly = readonly
        self._note: Note | None = None
        self._view: View | None = None
        self._note_behind = False
        if readonly:
            self._open_readonly(Path(self.path))
            return
        found = Inspection(0, Head(0, GENESIS))
        if self.path != MEMORY:
            file = Path(self.path)
            found = check_file(file)
            try:
                file.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalError(f"cannot create the journal's folder {str(file.parent)!r}: {exc}") from None
        try:
            self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._conn.execute("PRAGMA synchronous=FULL")
            self._head = self._confirm(found)
            if self.path != MEMORY:
                # The note first: a schema written, or rows hashed, without it would be refused.
                self._note = Note(Path(self.path), self._head)
                mode = self._conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if mode.lower() != "wal":
                    raise JournalError(f"the journal {self.path!r} cannot use WAL (got {mode!r})")
            self._conn.execute("BEGIN IMMEDIATE")
            self._create_schema(found)
            self._conn.execute("COMMIT")
            last = self._conn.execute("SELECT MAX(seq), MAX(deal) FROM events").fetchone()
        except _DB_ERRORS as exc:
            self.close()
            raise JournalError(f"cannot open the journal {self.path!r}: {exc}") from None
        except JournalError:
            self.close()
            raise
        self._seq = last[0] or 0
        self._deal = last[1]

    def _confirm(self, found: Inspection) -> Head:
        """The head the check found, once the file opened for writing is seen to end there too."""
        if found.version == 0:
            return found.head
        seq = self._conn.execute("SELECT MAX(seq) FROM events").fetchone()[0] or 0
        if seq != found.head.count:
            raise JournalError(f"the journal {self.path!r} changed while it was opened (it now ends at "
                               f"entry {seq}, not {found.head.count}): is another process writing it?")
        return found.head

    def _open_readonly(self, file: Path) -> None:
        # For export and inspection, also while `faro-box run` writes the same file (WAL).
        if not file.is_file() or file.stat().st_size == 0:
            check_file(file)  # an emptied journal with a note is damage, not "no journal"
            raise JournalError(f"there is no journal at {self.path!r}")
        found = check_file(file)
        if found.version == 0:
            raise JournalError(f"there is no journal at {self.path!r} (an SQLite file with nothing in it)")
        try:
            self._view = View(file)
            self._conn = self._view.conn
            last = self._conn.execute("SELECT MAX(seq), MAX(deal) FROM events").fetchone()
        except _DB_ERRORS as exc:
            raise JournalError(f"cannot read the journal {self.path!r}: {exc}") from None
        self._head = found.head
        self._seq = last[0] or 0
        self._deal = last[1]

    def _create_schema(self, found: Inspection) -> None:
        if found.version == 0:
            for statement in _SCHEMA:
                self._conn.execute(statement)
            self._conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        elif found.version == 1:
            self._migrate(found.head)

    def _migrate(self, head: Head) -> None:
        """Schema 1 to 2: every row gets its hash, computed from the row as it stands."""
        self._conn.execute("ALTER TABLE events ADD COLUMN hash BLOB")
        self._conn.execute("DROP TRIGGER IF EXISTS events_no_update")
        previous = GENESIS
        rows = self._conn.execute(
            "SELECT seq, deal, command, wall_time, app_version FROM events ORDER BY seq").fetchall()
        for seq, deal, text, wall, version in rows:
            previous = entry_hash(previous, seq, deal, text, wall, version)
            self._conn.execute("UPDATE events SET hash = ? WHERE seq = ?", (previous, seq))
        if previous != head.hash:
            self._conn.execute("ROLLBACK")
            raise JournalError(f"the journal {self.path!r} changed while it was migrated: "
                               "is another process writing it?")
        for statement in _TRIGGERS:
            self._conn.execute(statement)
        self._conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        log.info("the journal %r was migrated to schema %d (%d entries hashed)", self.path, SCHEMA_VERSION, len(rows))

    @property
    def seq(self) -> int:
        """The sequence number of the last entry (0 for an empty journal)."""
        return self._seq

    @property
    def deal(self) -> int | None:
        """The number of the last deal started (None before the first)."""
        return self._deal

    def append(self, command: Command) -> int:
        """Commit one command durably and return its sequence number."""
        if self.readonly:
            raise JournalError(f"the journal {self.path!r} was opened read-only")
        if self._note_behind and self._note is not None:
            # The last entry is in the file but not yet in the note: a second one must not follow
            # until it is, or a restart could not tell a lost entry from an unnoted one.
            self._note.write(self._head)
            self._note_behind = False
        seq = self._seq + 1
        # A bank of Baccarat Banque is numbered as a deal too: export and replay find it alone.
        deal = (self._deal or 0) + 1 if isinstance(command, (StartDeal, StartBank)) else self._deal
        text, wall = command_to_text(command), float(self._clock())
        digest = entry_hash(self._head.hash, seq, deal, text, wall, __version__)
        try:
            self._conn.execute(
                "INSERT INTO events (seq, deal, command, wall_time, app_version, hash) VALUES (?, ?, ?, ?, ?, ?)",
                (seq, deal, text, wall, __version__, digest))
        except sqlite3.IntegrityError:
            raise JournalError(f"the journal {self.path!r} already holds entry {seq}: "
                               "another process is writing it") from None
        except _DB_ERRORS as exc:
            # A failed write (disk full, read-only, I/O error) may still have committed: the file
            # decides, so that the live table and a replay of the file never disagree.
            if not self._committed(seq):
                raise JournalError(f"cannot write to the journal {self.path!r}: {exc}") from None
        self._seq, self._deal, self._head = seq, deal, Head(seq, digest)
        if self._note is not None:
            try:
                self._note.write(self._head)
            except JournalError as exc:
                # The entry is committed and counts as written; the next append writes the note first.
                self._note_behind = True
                log.warning("%s", exc)
        return seq

    def _committed(self, seq: int) -> bool:
        """Whether entry ``seq`` is in the file; JournalError when even that cannot be read."""
        try:
            row = self._conn.execute("SELECT MAX(seq) FROM events").fetchone()
        except _DB_ERRORS as exc:
            raise JournalError(f"cannot write to the journal {self.path!r}, nor read it back ({exc}): "
                               "restart faro-box to replay it") from None
        return bool(row[0] == seq)

    def entries(self, deal: int | None = None) -> list[Entry]:
        """Every entry in sequence order, or those of one deal."""
        try:
            return list(read_entries(self._conn, self.path, deal))
        except _DB_ERRORS as exc:
            raise JournalError(f"cannot read the journal {self.path!r}: {exc}") from None

    def deals(self) -> list[int]:
        try:
            return [r[0] for r in self._conn.execute(
                "SELECT DISTINCT deal FROM events WHERE deal IS NOT NULL ORDER BY deal")]
        except _DB_ERRORS as exc:
            raise JournalError(f"cannot read the journal {self.path!r}: {exc}") from None

    def close(self) -> None:
        if self._note is not None:
            self._note.close()
            self._note = None
        if self._view is not None:
            self._view.close()
            self._view = None
        elif hasattr(self, "_conn"):
            self._conn.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

