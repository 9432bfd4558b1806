import os
import sqlite3

import pytest

from faro_box.errors import JournalError
from faro_box.table.commands import CardSeen, PlaceBet, StartDeal
from faro_box.table.journal import APPLICATION_ID, SCHEMA_VERSION, Journal

START = StartDeal("foster", ("ann", "bob"), {})


def _fill(path, cards=40):
    with Journal(path) as journal:
        journal.append(START)
        journal.append(PlaceBet("ann", {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 2}))
        for i in range(cards):
            journal.append(CardSeen(("A23456789"[i % 9]) + "SHDC"[i // 9 % 4], i % 52, 0.99))


def _fingerprint(path):
    """Every file beside the journal, with its bytes and mtime: a refusal must change none."""
    folder = os.path.dirname(path)
    return {name: (open(os.path.join(folder, name), "rb").read(), os.stat(os.path.join(folder, name)).st_mtime_ns)
            for name in sorted(os.listdir(folder))}


def test_entries_are_committed_in_wal_mode_and_survive_a_reopen(tmp_path):
    path = tmp_path / "box" / "journal.sqlite"
    journal = Journal(path, clock=lambda: 0.0)
    assert journal.append(START) == 1
    assert journal.append(CardSeen("QH", 0)) == 2
    # Without closing: the WAL file holds the commits, another connection sees them.
    assert os.path.exists(f"{path}-wal")
    other = sqlite3.connect(path)
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert other.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 2
    other.close()
    assert journal._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    journal.close()
    again = Journal(path)
    assert [e.command for e in again.entries()] == [START, CardSeen("QH", 0)]
    assert [e.seq for e in again.entries()] == [1, 2]
    assert again.seq == 2 and again.deal == 1
    assert again.append(StartDeal("teaching", ("cy",))) == 3
    assert again.deals() == [1, 2]
    assert [e.seq for e in again.entries(deal=2)] == [3]


def test_the_wall_clock_is_information_only(tmp_path):
    # A Pi without a real-time clock boots in 1970: entries still come back in sequence order.
    times = iter([2e9, 0.0, 1e9])
    with Journal(tmp_path / "j.sqlite", clock=lambda: next(times)) as journal:
        for command in (START, CardSeen("QH", 0), CardSeen("KH", 1)):
            journal.append(command)
        assert [e.command for e in journal.entries()] == [START, CardSeen("QH", 0), CardSeen("KH", 1)]
        assert [e.wall_time for e in journal.entries()] == [2e9, 0.0, 1e9]


def test_rows_cannot_be_changed_or_deleted(tmp_path):
    path = tmp_path / "j.sqlite"
    _fill(path, 2)
    conn = sqlite3.connect(path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE events SET command = '{}'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM events")
    conn.close()


def test_a_journal_from_a_newer_version_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "j.sqlite"
    _fill(path)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    before = _fingerprint(path)
    with pytest.raises(JournalError, match="newer faro-box"):
        Journal(path)
    assert _fingerprint(path) == before


def test_a_damaged_file_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "j.sqlite"
    _fill(path, 300)
    size = os.path.getsize(path)
    assert size > 3 * 4096
    with open(path, "r+b") as handle:       # scribble over the middle of the events table
        handle.seek(3 * 4096)
        handle.write(b"\xde\xad\xbe\xef" * 200)
    before = _fingerprint(path)
    with pytest.raises(JournalError, match="damaged"):
        Journal(path)
    assert _fingerprint(path) == before


def test_a_row_that_is_not_a_command_is_refused(tmp_path):
    path = tmp_path / "j.sqlite"
    _fill(path, 3)
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO events (seq, deal, command) VALUES (6, 1, '{\"type\": \"card\", \"card\": ')")
    conn.commit()
    conn.close()
    before = _fingerprint(path)
    with pytest.raises(JournalError, match="entry 6 is not a command"):
        Journal(path)
    assert _fingerprint(path) == before


def test_a_gap_in_the_sequence_is_refused(tmp_path):
    path = tmp_path / "j.sqlite"
    _fill(path, 3)
    conn = sqlite3.connect(path)
    conn.execute("""INSERT INTO events (seq, deal, command) VALUES (9, 1, '{"type":"undo"}')""")
    conn.commit()
    conn.close()
    with pytest.raises(JournalError, match="entry 6 is missing"):
        Journal(path)


def test_files_that_are_not_journals_are_refused_and_left_untouched(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("shopping list\n" * 100)
    before = _fingerprint(text)
    with pytest.raises(JournalError, match="not an SQLite file"):
        Journal(text)
    assert _fingerprint(text) == before

    other = tmp_path / "other.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()
    before = _fingerprint(other)
    with pytest.raises(JournalError, match="another program"):
        Journal(other)
    assert _fingerprint(other) == before


def test_an_empty_file_becomes_a_journal(tmp_path):
    path = tmp_path / "j.sqlite"
    path.write_bytes(b"")
    with Journal(path) as journal:
        journal.append(START)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


def test_two_writers_cannot_both_append_the_same_entry(tmp_path):
    path = tmp_path / "j.sqlite"
    first, second = Journal(path), Journal(path)
    first.append(START)
    with pytest.raises(JournalError, match="another process"):
        second.append(START)
    first.close()
    second.close()


# ----- damage the file system or the card does, and SQLite does not see --------------------------

def _sealed(tmp_path):
    """A closed journal of 30 entries (the bet of entry 2 stakes 2), and the folder's fingerprint."""
    path = tmp_path / "box" / "journal.sqlite"
    _fill(path, 28)
    return path


def _refused(path, match):
    before = _fingerprint(path)
    with pytest.raises(JournalError, match=match) as refusal:
        Journal(path)
    assert _fingerprint(path) == before, "the refusal changed a file beside the journal"
    with pytest.raises(JournalError, match=match):
        Journal(path, readonly=True)           # export refuses it too
    assert _fingerprint(path) == before
    message = str(refusal.value)
    assert "\n" not in message and str(path) in message and "faro-box journal salvage" in message
    return message


def test_a_flipped_bit_inside_a_row_is_refused_and_left_untouched(tmp_path):
    # SQLite keeps no checksum of row data: the stake of entry 2 turns from 2 to 3 unseen by it.
    path = _sealed(tmp_path)
    data = path.read_bytes()
    assert data.count(b'"stake":2}') == 1
    path.write_bytes(data.replace(b'"stake":2}', b'"stake":3}'))
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro&immutable=1", uri=True)
    assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    conn.close()
    _refused(path, "entry 2 was changed after it was written")


def test_a_journal_emptied_to_0_bytes_is_refused_and_left_untouched(tmp_path):
    path = _sealed(tmp_path)
    path.write_bytes(b"")
    _refused(path, r"is empty \(0 bytes\), but its note .* records 30 entries")


def test_a_journal_turned_into_an_empty_sqlite_file_is_refused_and_left_untouched(tmp_path):
    path = _sealed(tmp_path)
    path.unlink()
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.execute("DROP TABLE t")
    conn.close()
    assert path.read_bytes().startswith(b"SQLite format 3\x00")
    _refused(path, "holds no entries .*records 30")


def test_a_deleted_journal_whose_note_remains_is_refused(tmp_path):
    path = _sealed(tmp_path)
    path.unlink()
    _refused(path, "is missing, but its note .* records 30 entries")
    assert not path.exists()


def test_a_journal_whose_note_was_deleted_is_refused(tmp_path):
    # Without the note, entries lost from the end (a lost WAL) could not be seen.
    path = _sealed(tmp_path)
    os.unlink(f"{path}-head")
    _refused(path, "holds 30 entries but its note .* is missing")


def test_a_damaged_note_is_refused(tmp_path):
    path = _sealed(tmp_path)
    note = bytearray(open(f"{path}-head", "rb").read())
    for slot in range(0, len(note), len(note) // 2):
        note[slot + 12] ^= 0x01
    open(f"{path}-head", "wb").write(bytes(note))
    _refused(path, "note .* is damaged")


def test_a_sound_journal_keeps_its_note_and_opens(tmp_path):
    path = _sealed(tmp_path)
    assert os.path.getsize(f"{path}-head") > 0
    with Journal(path) as journal:
        assert journal.seq == 30
        assert journal.append(CardSeen("KS", 28)) == 31
    with Journal(path, readonly=True) as journal:
        assert journal.seq == 31


# ----- journals written before the hash chain ------------------------------------------------------

_SCHEMA_1 = (
    "CREATE TABLE events (seq INTEGER PRIMARY KEY, deal INTEGER, command TEXT NOT NULL, wall_time REAL, "
    "app_version TEXT)",
    "CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'the journal is "
    "append-only'); END",
    "CREATE TRIGGER events_no_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'the journal is "
    "append-only'); END",
    "PRAGMA user_version = 1",
    f"PRAGMA application_id = {APPLICATION_ID}",
)
_ROWS_1 = [
    (1, 1, '{"house_rules":{},"players":["ann","bob"],"profile":"foster","type":"start_deal"}', 1.5e9, "0.9"),
    (2, 1, '{"player":"ann","spec":{"id":"a1","kind":"rank","ranks":["9"],"stake":2},"type":"place"}', 1.5e9, "0.9"),
    (3, 1, '{"card":"QH","confidence":1.0,"frame":null,"index":0,"type":"card"}', None, None),
]


def _schema_1_journal(path):
    """A journal as the version before the chain wrote it: schema 1, no hashes, no note."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    for statement in _SCHEMA_1:
        conn.execute(statement)
    conn.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)", _ROWS_1)
    conn.commit()
    conn.close()


def test_a_journal_of_the_version_before_the_chain_is_read_as_it_is(tmp_path):
    path = tmp_path / "journal.sqlite"
    _schema_1_journal(path)
    before = _fingerprint(path)
    with Journal(path, readonly=True) as journal:
        assert [e.seq for e in journal.entries()] == [1, 2, 3]
        assert journal.entries()[1].command == PlaceBet("ann", {"id": "a1", "kind": "rank", "ranks": ["9"],
                                                                "stake": 2})
    assert _fingerprint(path) == before


def test_a_journal_of_the_version_before_the_chain_is_migrated_and_guarded_from_then_on(tmp_path):
    path = tmp_path / "journal.sqlite"
    _schema_1_journal(path)
    with Journal(path) as journal:
        assert [(e.seq, e.deal, e.wall_time) for e in journal.entries()] == [(1, 1, 1.5e9), (2, 1, 1.5e9),
                                                                             (3, 1, None)]
        journal.append(CardSeen("KH", 1))
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    assert [r[0] for r in conn.execute("SELECT command FROM events ORDER BY seq")][:3] == [r[2] for r in _ROWS_1]
    assert conn.execute("SELECT COUNT(*) FROM events WHERE hash IS NULL").fetchone()[0] == 0
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE events SET command = '{}'")
    conn.close()
    with Journal(path) as journal:
        assert journal.seq == 4
    # The migrated rows are now guarded like new ones.
    data = path.read_bytes()
    assert data.count(b'"stake":2}') == 1
    path.write_bytes(data.replace(b'"stake":2}', b'"stake":3}'))
    _refused(path, "entry 2 was changed after it was written")


# ----- salvage ------------------------------------------------------------------------------------

def test_salvage_copies_the_entries_before_the_damage_into_a_new_journal(tmp_path):
    from faro_box.table.journal import salvage

    path = _sealed(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data.replace(b'"stake":2}', b'"stake":3}'))
    before = _fingerprint(path)
    copied, problem = salvage(path, tmp_path / "saved" / "journal.sqlite")
    assert copied == 1 and "entry 2 was changed" in problem
    assert _fingerprint(path) == before
    with Journal(tmp_path / "saved" / "journal.sqlite") as saved:
        assert [e.command for e in saved.entries()] == [START]
    with pytest.raises(JournalError, match="already exists"):
        salvage(path, tmp_path / "saved" / "journal.sqlite")


def test_salvage_of_a_sound_journal_copies_all_of_it_with_its_wall_times(tmp_path):
    from faro_box.table.journal import salvage

    path = tmp_path / "journal.sqlite"
    times = iter(float(t) for t in range(100, 200))
    with Journal(path, clock=lambda: next(times)) as journal:
        journal.append(START)
        journal.append(CardSeen("QH", 0))
    assert salvage(path, tmp_path / "copy.sqlite") == (2, None)
    with Journal(tmp_path / "copy.sqlite", readonly=True) as copy, Journal(path, readonly=True) as original:
        assert copy.entries() == original.entries()
