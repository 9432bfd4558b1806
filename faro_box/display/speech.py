"""Optional speech through espeak-ng: the announcements read aloud.

espeak-ng is looked up lazily on the first announcement; when it is absent the speaker says so
once in the log and stays silent, so a box without it deals exactly the same.
"""

from __future__ import annotations

import logging
import shutil
import subprocess

log = logging.getLogger(__name__)

_VOICES = {"en": "en", "ru": "ru", "fr": "fr-fr"}


class Speaker:
    """Reads announcements aloud without waiting for the voice to finish."""

    def __init__(self, program: str = "espeak-ng", *, rate: int = 150) -> None:
        self._program = program
        self._rate = rate
        self._path: str | None = None
        self._looked = False
        self._current: subprocess.Popen[bytes] | None = None

    @property
    def available(self) -> bool:
        if not self._looked:
            self._looked = True
            self._path = shutil.which(self._program)
            if self._path is None:
                log.warning("speech is off: %r is not installed", self._program)
        return self._path is not None

    def speak(self, text: str, lang: str = "en") -> bool:
        """Start saying ``text``; True when a voice was started. A newer text cuts the older off."""
        if not text or not self.available:
            return False
        assert self._path is not None
        if self._current is not None and self._current.poll() is None:
            self._current.terminate()
        try:
            self._current = subprocess.Popen(
                [self._path, "-v", _VOICES.get(lang, "en"), "-s", str(self._rate), "--", text],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError as exc:
            log.warning("speech failed: %s", exc)
            self._path = None
            return False
        return True


_default = Speaker()


def speak(text: str, lang: str = "en") -> bool:
    """Say ``text`` with the shared speaker (no-op, logged once, without espeak-ng)."""
    return _default.speak(text, lang)
