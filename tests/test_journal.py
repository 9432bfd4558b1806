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
