"""Speech is optional: without espeak-ng one log line, no crash; with a program, it is started."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest

from faro_box.display.speech import Speaker


def test_absent_program_logs_once_and_stays_silent(caplog: pytest.LogCaptureFixture) -> None:
    speaker = Speaker("no-such-espeak-program")
    with caplog.at_level(logging.WARNING):
        assert speaker.speak("Turn 1: K loses, 9 wins.") is False
        assert speaker.speak("Turn 2: A loses, 8 wins.") is False
    assert [r.getMessage() for r in caplog.records] == ["speech is off: 'no-such-espeak-program' is not installed"]


def test_a_present_program_gets_voice_and_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "said.txt"
    program = tmp_path / "espeak-ng"
    program.write_text(f'#!/bin/sh\nprintf "%s|" "$@" > {out}\n')
    program.chmod(program.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    speaker = Speaker()
    assert speaker.speak("Ход 1: проигрывает король.", "ru")
    assert speaker._current is not None and speaker._current.wait(5) == 0
    assert out.read_text() == "-v|ru|-s|150|--|Ход 1: проигрывает король.|"
