"""Baccarat Banque scripts through the real `faro-box settle` command (and `settle --lines`)."""

from __future__ import annotations

import json
import subprocess
import sys

from test_baccarat_seed_example import EXPECTED_COUP, SEED_EXAMPLE

from faro_box.cli import main


def test_settle_takes_a_baccarat_script(tmp_path, capsys):
    path = tmp_path / "seed.json"
    path.write_text(json.dumps(SEED_EXAMPLE), encoding="utf-8")
    assert main(["settle", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["coups"] == [EXPECTED_COUP]
    assert result["balances"] == {"ann": 105, "bob": 100, "cid": 100, "eve": 95}


def test_settle_lines_takes_one_baccarat_script_per_line(tmp_path, capsys):
    banco = {**SEED_EXAMPLE, "coups": [{"bets": [{"player": "bob", "banco": True}]}]}
    path = tmp_path / "scripts.jsonl"
    path.write_text("\n".join(json.dumps(d) for d in (SEED_EXAMPLE, banco)) + "\n", encoding="utf-8")
    assert main(["settle", "--lines", str(path)]) == 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["fund"] == 5
    # Left 5 against the banker's 5 with bob standing: bob's banco of 10 pushes.
    assert second["coups"][0]["settlements"] == [
        {"player": "bob", "side": "left", "stake": 10, "result": "push", "amount": 0}]


def test_a_bad_baccarat_script_exits_non_zero_with_one_clear_line(tmp_path, capsys):
    path = tmp_path / "short.json"
    path.write_text(json.dumps({**SEED_EXAMPLE, "shoe": SEED_EXAMPLE["shoe"][:7]}), encoding="utf-8")
    assert main(["settle", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().splitlines() == [
        "faro-box settle: the shoe runs out inside coup 1: it needs a card for left"]


def test_the_installed_command_settles_from_standard_input():
    run = subprocess.run([sys.executable, "-m", "faro_box.cli", "settle", "-"], input=json.dumps(SEED_EXAMPLE),
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["fund"] == 5
