"""``faro-box pin``: the hash for the configuration, never the PIN itself."""

from __future__ import annotations

import io
import re

import pytest

from faro_box.cli import main
from faro_box.display.pin import check_pin


def test_pin_command_prints_a_toml_line_with_a_working_hash(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("97531\n"))
    assert main(["pin", "--stdin"]) == 0
    out = capsys.readouterr().out
    match = re.fullmatch(r'pin_hash = "(scrypt\$[^"]+)"\n', out)
    assert match and "97531" not in out
    assert check_pin("97531", match.group(1))


def test_pin_command_refuses_a_short_pin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("12\n"))
    assert main(["pin", "--stdin"]) == 1
    assert "4 to 64 characters" in capsys.readouterr().err
