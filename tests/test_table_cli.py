"""The table's commands in subprocesses: replay, export, and replay killed (SIGKILL) and restarted."""

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest
from kill_helpers import journal_commands, wait_for_entries
from table_scripts import sample_script as _script

FARO_BOX = [sys.executable, "-m", "faro_box.cli"]


def _run(*args, **kwargs):
    return subprocess.run([*FARO_BOX, *map(str, args)], capture_output=True, text=True, timeout=120, **kwargs)


@pytest.fixture
def script_file(tmp_path):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(_script()))
    return path


def test_replay_prints_the_announcements_and_the_balances(script_file):
    done = _run("replay", script_file)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("Turn 1:") for line in lines)
    assert any(line.startswith("Turn 25:") and "call" in line for line in lines)
    assert "refused: action 5: unknown player 'zed'" in done.stdout
    settled = _run("settle", script_file)
    balances = json.loads(settled.stdout)["balances"]
    assert lines[-1] == "balances: " + ", ".join(f"{w} {a:+g}" for w, a in balances.items())


def test_export_prints_a_script_that_settle_reads(script_file, tmp_path):
    journal = tmp_path / "j.sqlite"
    assert _run("replay", script_file, "--journal", journal).returncode == 0
    exported = _run("export", "--journal", journal, "--deal", 1)
    assert exported.returncode == 0, exported.stderr
    settled = _run("settle", "-", input=exported.stdout)
    original = _run("settle", script_file)
    assert json.loads(settled.stdout)["balances"] == json.loads(original.stdout)["balances"]
    missing = _run("export", "--journal", tmp_path / "absent.sqlite")
    assert missing.returncode == 1 and "no journal at" in missing.stderr
    wrong = _run("export", "--journal", journal, "--deal", 9)
    assert wrong.returncode == 1 and "no deal 9" in wrong.stderr






@pytest.mark.slow
def test_a_replay_killed_at_random_points_ends_exactly_like_an_uninterrupted_one(script_file, tmp_path):
    reference_journal = tmp_path / "reference.sqlite"
    reference = _run("replay", script_file, "--journal", reference_journal, "--json")
    assert reference.returncode == 0, reference.stderr
    expected_state = json.loads(reference.stdout)
    expected_commands = journal_commands(reference_journal)
    rng = random.Random(20240611)
    kills = 0
    for trial in range(10):
        journal = tmp_path / f"killed-{trial}.sqlite"
        process = subprocess.Popen([*FARO_BOX, "replay", str(script_file), "--journal", str(journal),
                                    "--pace", "0.01"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Kill once the journal holds a random part of the deal, so the kill lands mid-deal
        # however fast the machine is.
        wait_for_entries(journal, rng.randint(1, len(expected_commands) - 1), process)
        time.sleep(rng.uniform(0, 0.02))
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            kills += 1
        process.wait(timeout=30)
        resumed = _run("replay", script_file, "--journal", journal, "--json")
        assert resumed.returncode == 0, resumed.stderr
        assert json.loads(resumed.stdout) == expected_state, f"trial {trial}"
        assert journal_commands(journal) == expected_commands, f"trial {trial}: a command lost or applied twice"
    assert kills >= 8  # nearly every run really was killed mid-deal
