"""The journal: an append-only SQLite log of every command the table accepted.

A command is committed (WAL, ``synchronous=FULL``: on disk when ``append`` returns) before the
table lets it change anything, so a power cut loses at most a command nobody saw applied; a
restart replays the log. Order is the sequence number alone: a Pi without a real-time clock
boots in 1970, so the wall time is kept only as information.

Before anything is written, an existing file is checked through a read-only connection: a file
that is not a faro-box journal, a journal written by a newer version, or a damaged one
(``PRAGMA quick_check``, a row that is not a command, a gap in the sequence) is refused with a
JournalError and left as it was.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from faro_box import __version__
from faro_box.errors import FaroBoxError, JournalError
from faro_box.table.baccarat.commands import StartBank
from faro_box.table.commands import Command, StartDeal, command_from_text, command_to_text

SCHEMA_VERSION = 1
# "FARO" in ASCII: marks the SQLite file as ours so another program's database is not taken.
APPLICATION_ID = 0x4641524F
MEMORY = ":memory:"
# A damaged file can hold text that is not UTF-8, which Python's sqlite3 raises as UnicodeDecodeError.
_DB_ERRORS = (sqlite3.Error, UnicodeDecodeError)

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS events (
        seq INTEGER PRIMARY KEY,    -- 1, 2, 3 ... the only order there is
        deal INTEGER,               -- deal number the command belongs to (null before the first)
        command TEXT NOT NULL,      -- the command's canonical JSON
        wall_time REAL,             -- seconds since 1970 on the box's clock: information only
        app_version TEXT)""",
    """CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END""",
    """CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END""",
)


@dataclass(frozen=True)
class Entry:
    seq: int
    deal: int | None
    command: Command
    wall_time: float | None


def _connect_ro(path: Path) -> sqlite3.Connection:
    # mode=ro: the check must not write a byte into a file it may refuse. Without a -wal file
    # the main file is the whole journal, and immutable=1 keeps SQLite from creating -wal/-shm
    # beside it; with one (after a power cut) the WAL must be read, through its -shm index.
    wal = path.with_name(path.name + "-wal")
    flags = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
    return sqlite3.connect(f"{path.resolve().as_uri()}?{flags}", uri=True, isolation_level=None)


def check_file(path: Path) -> None:
    """Refuse (JournalError) a file that is not a sound faro-box journal of this version or older.

    A missing or empty file passes: it becomes a new journal.
    """
    if not path.exists() or path.stat().st_size == 0:
        return
    if path.is_dir():
        raise JournalError(f"the journal {str(path)!r} is a directory")
    with path.open("rb") as handle:
        if handle.read(16) != b"SQLite format 3\x00":
            raise JournalError(f"{str(path)!r} is not a faro-box journal (not an SQLite file); left untouched")
    try:
        conn = _connect_ro(path)
    except _DB_ERRORS as exc:
        raise JournalError(f"the journal {str(path)!r} cannot be opened ({exc}); left untouched") from None
    try:
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except _DB_ERRORS as exc:
            raise JournalError(f"the journal {str(path)!r} is damaged ({exc}); left untouched") from None
        if not tables and version == 0 and app_id == 0:
            return  # an empty SQLite file: nothing to refuse
        if app_id != APPLICATION_ID:
            raise JournalError(f"{str(path)!r} is an SQLite file of another program "
                               f"(application_id {app_id:#x}); left untouched")
        if version > SCHEMA_VERSION:
            raise JournalError(f"the journal {str(path)!r} was written by a newer faro-box (schema "
                               f"{version}, this one reads up to {SCHEMA_VERSION}): upgrade faro-box; "
                               "left untouched")
        try:
            problems = [r[0] for r in conn.execute("PRAGMA quick_check")]
        except _DB_ERRORS as exc:
            raise JournalError(f"the journal {str(path)!r} is damaged ({exc}); left untouched") from None
        if problems != ["ok"]:
            raise JournalError(f"the journal {str(path)!r} is damaged ({'; '.join(problems[:3])}); "
                               "left untouched")
        if "events" not in tables:
            raise JournalError(f"the journal {str(path)!r} has no events table; left untouched")
        try:
            for _ in _read_entries(conn, str(path)):
                pass
        except _DB_ERRORS as exc:
            raise JournalError(f"the journal {str(path)!r} is damaged ({exc}); left untouched") from None
    finally:
        conn.close()


def _read_entries(conn: sqlite3.Connection, name: str, deal: int | None = None) -> Iterator[Entry]:
    if deal is None:
        rows = conn.execute("SELECT seq, deal, command, wall_time FROM events ORDER BY seq")
    else:
        rows = conn.execute("SELECT seq, deal, command, wall_time FROM events WHERE deal = ? ORDER BY seq",
                            (deal,))
    expected = None
    for seq, deal_no, text, wall in rows:
        if deal is None:
            expected = 1 if expected is None else expected + 1
            if seq != expected:
                raise JournalError(f"the journal {name!r} is damaged: entry {expected} is missing "
                                   f"(found {seq}); left untouched")
        try:
            command = command_from_text(text)
        except FaroBoxError as exc:
            raise JournalError(f"the journal {name!r} is damaged: entry {seq} is not a command "
                               f"({exc}); left untouched") from None
        yield Entry(seq, deal_no, command, wall)


class Journal:
    """``Journal(path)`` opens (or creates) a journal; ``Journal(":memory:")`` keeps none on disk."""

    def __init__(self, path: str | os.PathLike[str] = MEMORY, *,
                 clock: Callable[[], float] | None = None, readonly: bool = False) -> None:
        self.path = str(path)
        self._clock = clock or time.time
        self.readonly = readonly
        if readonly:
            self._open_readonly(Path(self.path))
            return
        if self.path != MEMORY:
            file = Path(self.path)
            check_file(file)
            try:
                file.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalError(f"cannot create the journal's folder {str(file.parent)!r}: {exc}") from None
        try:
            self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            if self.path != MEMORY:
                mode = self._conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if mode.lower() != "wal":
                    raise JournalError(f"the journal {self.path!r} cannot use WAL (got {mode!r})")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.execute("BEGIN IMMEDIATE")
            self._create_schema()
            self._conn.execute("COMMIT")
            last = self._conn.execute("SELECT MAX(seq), MAX(deal) FROM events").fetchone()
        except _DB_ERRORS as exc:
            raise JournalError(f"cannot open the journal {self.path!r}: {exc}") from None
        self._seq = last[0] or 0
        self._deal = last[1]

    def _open_readonly(self, file: Path) -> None:
        # For export and inspection, also while `faro-box run` writes the same file (WAL).
        if not file.is_file() or file.stat().st_size == 0:
            raise JournalError(f"there is no journal at {self.path!r}")
        check_file(file)
        try:
            self._conn = _connect_ro(file)
            last = self._conn.execute("SELECT MAX(seq), MAX(deal) FROM events").fetchone()
        except _DB_ERRORS as exc:
            raise JournalError(f"cannot read the journal {self.path!r}: {exc}") from None
        self._seq = last[0] or 0
        self._deal = last[1]

    def _create_schema(self) -> None:
        version = self._conn.execute("PRAGMA user_version").fetchone()[0]
        for statement in _SCHEMA:
            self._conn.execute(statement)
        if version == 0:
            self._conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")

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
        seq = self._seq + 1
        # A bank of Baccarat Banque is numbered as a deal too: export and replay find it alone.
        deal = (self._deal or 0) + 1 if isinstance(command, (StartDeal, StartBank)) else self._deal
        try:
            self._conn.execute(
                "INSERT INTO events (seq, deal, command, wall_time, app_version) VALUES (?, ?, ?, ?, ?)",
                (seq, deal, command_to_text(command), self._clock(), __version__))
        except sqlite3.IntegrityError:
            raise JournalError(f"the journal {self.path!r} already holds entry {seq}: "
                               "another process is writing it") from None
        except _DB_ERRORS as exc:
            # A failed write (disk full, read-only, I/O error) may still have committed: the file
            # decides, so that the live table and a replay of the file never disagree.
            if not self._committed(seq):
                raise JournalError(f"cannot write to the journal {self.path!r}: {exc}") from None
        self._seq, self._deal = seq, deal
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
            return list(_read_entries(self._conn, self.path, deal))
        except _DB_ERRORS as exc:
            raise JournalError(f"cannot read the journal {self.path!r}: {exc}") from None

    def deals(self) -> list[int]:
        try:
            return [r[0] for r in self._conn.execute(
                "SELECT DISTINCT deal FROM events WHERE deal IS NOT NULL ORDER BY deal")]
        except _DB_ERRORS as exc:
            raise JournalError(f"cannot read the journal {self.path!r}: {exc}") from None

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

