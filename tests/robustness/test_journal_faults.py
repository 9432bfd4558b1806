"""The journal's disk fills up or turns read-only under a live table.

The disk is simulated on the journal's own SQLite connection (``PRAGMA max_page_count``: the
file cannot grow, SQLite answers SQLITE_FULL exactly as on a full card; ``PRAGMA query_only``:
every write is refused as on a read-only file system), because a test cannot mount a small
file system everywhere. ``benchmarks/bench_faults.py`` repeats this on a real, full tmpfs.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from display_helpers import DECK, PIN
from fault_repeat import REPEAT
from starlette.testclient import TestClient

from faro_box.display.pin import hash_pin
from faro_box.display.web import create_app
from faro_box.errors import JournalError
from faro_box.table.commands import CardSeen, PlaceBet, StartDeal
from faro_box.table.events import event_to_json
from faro_box.table.journal import Journal
from faro_box.table.table import Table


def _without_faults(state: dict) -> dict:
    return {k: v for k, v in state.items() if k != "faults"}


def _fill_the_disk(journal: Journal) -> None:
    conn = journal._conn  # max_page_count and query_only hold for this connection only
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")


def _free_the_disk(journal: Journal) -> None:
    journal._conn.execute("PRAGMA max_page_count = 1073741823")


def _bet(n: int) -> PlaceBet:
    return PlaceBet("ann", {"id": f"bet-{n:04d}-" + "x" * 20, "kind": "high", "stake": 1})


@pytest.mark.parametrize("rep", range(REPEAT))
def test_a_full_disk_stops_the_table_says_so_and_loses_nothing(tmp_path, rep):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    table = Table(journal)
    events: list[dict] = []
    table.subscribe(lambda event, state: events.append(event_to_json(event)))
    table.handle(StartDeal("foster", ("ann", "bob"), {}))
    shown = 2 * random.Random(rep).randint(0, 20) + 1     # between turns, when bets may change
    for index in range(shown):
        table.handle(CardSeen(DECK[index], index))
    _fill_the_disk(journal)
    accepted = refused = 0
    for n in range(400):     # bets until the file needs a page it cannot have
        try:
            table.handle(_bet(n))
            accepted += 1
        except JournalError as exc:
            refused += 1
            assert "disk is full" in str(exc)
            if refused == 3:
                break
    assert refused == 3, "the disk never filled"
    state = table.state()
    assert [f["device"] for f in state["faults"]] == ["journal"]
    assert "full" in state["faults"][0]["message"]
    assert [e["type"] for e in events].count("fault") == 1       # told once, not per refusal
    assert len(table.state()["open_bets"]) == accepted            # the refused bets changed nothing
    # A card is a shorter row: it may still fit on the disk (then it is journaled as usual), or not.
    try:
        table.handle(CardSeen(DECK[shown], shown))
        shown += 1
    except JournalError:
        pass
    assert table.state()["next_index"] == shown
    state = table.state()
    # Power cut now: the journal on disk holds every accepted command and nothing else.
    journal.close()
    with Journal(path) as again:
        restarted = Table(again)
        assert _without_faults(restarted.state()) == _without_faults(state)
        assert restarted.state()["faults"] == []


def test_the_table_takes_commands_again_once_space_returns(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite")
    table = Table(journal)
    table.handle(StartDeal("foster", ("ann", "bob"), {}))
    _fill_the_disk(journal)
    with pytest.raises(JournalError):
        for n in range(400):
            table.handle(_bet(n))
    assert table.state()["faults"][0]["device"] == "journal"
    _free_the_disk(journal)
    table.handle(CardSeen(DECK[0], 0))
    assert table.state()["faults"] == [] and table.state()["exposed"] == [DECK[0]]
    journal.close()


@pytest.mark.parametrize("rep", range(REPEAT))
def test_a_read_only_journal_refuses_through_the_dealer_page_and_shows_the_fault(tmp_path, rep):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    table = Table(journal)
    client = TestClient(create_app(table, pin_hash=hash_pin(PIN, n=2**10)), base_url="http://127.0.0.1:8000")
    csrf = client.post("/api/login", json={"pin": PIN}).json()["csrf"]
    headers = {"x-csrf-token": csrf}
    start = {"type": "start_deal", "profile": "foster", "players": ["ann", "bob"]}
    assert client.post("/api/command", json=start, headers=headers).status_code == 200
    cards = 2 * random.Random(rep).randint(0, 20) + 1
    for index in range(cards):
        table.handle(CardSeen(DECK[index], index))
    journal._conn.execute("PRAGMA query_only = ON")       # the card turned read-only
    before = _without_faults(table.state())
    bet = {"type": "place", "player": "ann", "spec": {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 2}}
    response = client.post("/api/command", json=bet, headers=headers)
    assert response.status_code == 503
    assert "journal cannot be written, nothing was changed" in response.json()["error"]
    shown = client.get("/api/state").json()              # what the audience and dealer pages draw
    assert shown["faults"][0]["device"] == "journal" and "readonly" in shown["faults"][0]["message"]
    assert _without_faults(shown) == json.loads(json.dumps(before))
    journal.close()
    with Journal(path, readonly=True) as written:
        assert [e.command.TYPE for e in written.entries()] == ["start_deal"] + ["card"] * cards


def test_a_failed_write_that_reached_the_file_counts_as_written(tmp_path):
    # An I/O error reported after the commit (a failing fsync): the file decides, so the live
    # table and a replay after restart agree.
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    table = Table(journal)
    table.handle(StartDeal("foster", ("ann", "bob"), {}))
    real = journal._conn

    class CommitsThenFails:
        def execute(self, sql, *args):
            result = real.execute(sql, *args)
            if sql.startswith("INSERT"):
                import sqlite3

                raise sqlite3.OperationalError("disk I/O error")
            return result

    journal._conn = CommitsThenFails()  # type: ignore[assignment]
    table.handle(CardSeen(DECK[0], 0))
    journal._conn = real
    assert table.state()["exposed"] == [DECK[0]] and table.state()["faults"] == []
    journal.close()
    with Journal(path) as again:
        assert Table(again).state()["exposed"] == [DECK[0]]


# ----- a power cut, then damage to what it left: real processes killed with SIGKILL -------------

_WRITER = """
import os, signal, sys
from faro_box.cards import FULL_DECK
from faro_box.table.commands import CardSeen, PlaceBet, StartDeal
from faro_box.table.journal import Journal

path, count, cut = sys.argv[1], int(sys.argv[2]), sys.argv[3]
journal = Journal(path)
journal.append(StartDeal("foster", ("ann", "bob"), {}))
journal.append(PlaceBet("ann", {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 2}))
for index in range(count - 2):
    if index == count - 3 and cut == "before-the-note":
        # The power goes after the last command is committed, before its note is on disk.
        journal._note.write = lambda head: os.kill(os.getpid(), signal.SIGKILL)
    journal.append(CardSeen(str(FULL_DECK[index]), index, 0.99))
os.kill(os.getpid(), signal.SIGKILL)
"""


def _killed_writer(folder: Path, count: int = 30, cut: str = "after-the-note") -> Path:
    """A journal of ``count`` entries whose writer was killed: they are in the -wal file only."""
    path = folder / "journal.sqlite"
    done = subprocess.run([sys.executable, "-c", _WRITER, str(path), str(count), cut], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stderr
    wal = Path(f"{path}-wal")
    assert wal.stat().st_size > 4096 * count // 2, "the entries should be in the WAL, not yet checkpointed"
    return path


def _fingerprint(path: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(path.parent.iterdir())}


def _refused_and_untouched(path: Path, match: str) -> None:
    before = _fingerprint(path)
    with pytest.raises(JournalError, match=match):
        Journal(path)
    assert _fingerprint(path) == before, "the refusal changed a file"
    with pytest.raises(JournalError, match=match):
        Journal(path, readonly=True)
    assert _fingerprint(path) == before, "the read-only refusal changed a file"


def test_a_killed_writer_loses_nothing_and_a_restart_sees_all_30_entries(tmp_path):
    path = _killed_writer(tmp_path)
    with Journal(path) as journal:
        assert journal.seq == 30
        assert Table(journal).state()["next_index"] == 28


def test_a_bit_flipped_in_the_wal_is_refused_and_left_untouched(tmp_path):
    path = _killed_writer(tmp_path)
    wal = Path(f"{path}-wal")
    data = bytearray(wal.read_bytes())
    data[len(data) // 2] ^= 0x04
    wal.write_bytes(bytes(data))
    _refused_and_untouched(path, r"holds \d+ entries, but its note .* records 30 entries: entries \d+\.\.30 were lost")


def test_a_truncated_wal_is_refused_and_left_untouched(tmp_path):
    path = _killed_writer(tmp_path)
    wal = Path(f"{path}-wal")
    with wal.open("r+b") as handle:
        handle.truncate(wal.stat().st_size // 2)
    _refused_and_untouched(path, r"holds \d+ entries, but its note .* records 30 entries")


def test_a_deleted_wal_is_refused_and_left_untouched(tmp_path):
    path = _killed_writer(tmp_path)
    Path(f"{path}-wal").unlink()
    _refused_and_untouched(path, r"holds no entries \(an SQLite file with nothing in it\), but its note .* records 30 entries: "
                                 "entries 1..30 were lost")


def _tear_the_last_commit(path: Path) -> None:
    """What a power cut in the middle of the last commit leaves: its last WAL frame cut short."""
    wal = Path(f"{path}-wal")
    with wal.open("r+b") as handle:
        handle.truncate(wal.stat().st_size - 1000)


def test_a_torn_last_commit_nobody_saw_applied_is_dropped_and_the_table_starts(tmp_path):
    # The command was cut while being committed, before its note: append never returned, the
    # table never applied it. SQLite drops the torn frame; rows and note agree on 29.
    path = _killed_writer(tmp_path, cut="before-the-note")
    _tear_the_last_commit(path)
    with Journal(path) as journal:
        assert journal.seq == 29
        assert journal.append(CardSeen(DECK[27], 27)) == 30


def test_the_same_torn_frame_after_the_note_was_written_is_refused(tmp_path):
    # The same bytes lost, but this command's note was on disk: the table had applied it.
    path = _killed_writer(tmp_path, cut="after-the-note")
    _tear_the_last_commit(path)
    _refused_and_untouched(path, "holds 29 entries, but its note .* records 30 entries: entries 30..30 were lost")


def test_a_commit_whose_note_the_power_cut_is_kept_and_the_note_caught_up(tmp_path):
    path = _killed_writer(tmp_path, cut="before-the-note")
    with Journal(path) as journal:
        assert journal.seq == 30          # committed: a replay applies it, as the file decides
    Path(f"{path}-wal").unlink(missing_ok=True)   # closed cleanly: the WAL is in the file now
    with Journal(path) as journal:        # and the note says 30: nothing is taken for lost
        assert journal.seq == 30


def test_the_command_line_refuses_a_lost_wal_in_one_line_and_salvages_what_is_left(tmp_path):
    path = _killed_writer(tmp_path / "box", count=30)
    data = bytearray(Path(f"{path}-wal").read_bytes())
    data[len(data) // 2] ^= 0x04
    Path(f"{path}-wal").write_bytes(bytes(data))
    config = tmp_path / "config.toml"
    config.write_text(f'journal = "{path}"\n[display]\nweb = false\n[camera]\nsource = "sim:1"\n')
    before = _fingerprint(path)
    for words in (["run", "--config", str(config)], ["export", "--journal", str(path)],
                  ["journal", "check", "--journal", str(path)]):
        done = subprocess.run([sys.executable, "-m", "faro_box.cli", *words], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 1 and done.stdout == ""
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and str(path) in lines[0] and "records 30" in lines[0], done.stderr
    assert _fingerprint(path) == before
    saved = tmp_path / "saved.sqlite"
    done = subprocess.run([sys.executable, "-m", "faro_box.cli", "journal", "salvage", "--journal", str(path),
                           "--to", str(saved)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert _fingerprint(path) == before
    with Journal(saved) as journal:
        kept = journal.seq
        assert 0 < kept < 30 and f"entries 1..{kept}" in done.stdout
        assert [e.command.TYPE for e in journal.entries()][:2] == ["start_deal", "place"]
    done = subprocess.run([sys.executable, "-m", "faro_box.cli", "journal", "check", "--journal", str(saved)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and f"{kept} entries" in done.stdout
