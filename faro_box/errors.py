"""Every error faro-box raises on purpose.

One root, so a caller (the CLI, the live table, the web API) can catch ours and only ours and
show the message: every message names the offending input with ``{value!r}``.
"""

from __future__ import annotations


class FaroBoxError(Exception):
    """Root of every error faro-box raises on purpose."""


class CardError(FaroBoxError, ValueError):
    """A card, rank, suit or deck that cannot be read."""


class ScriptError(FaroBoxError, ValueError):
    """A whole document (deal script, baccarat script) that cannot be used at all."""


class ProfileError(FaroBoxError, ValueError):
    """An unknown house-rules profile or house-rule field, or a bad value for one."""


class RuleError(FaroBoxError, ValueError):
    """An action the rules refuse (a bet, a withdrawal, a card): nothing was changed."""


class VisionError(FaroBoxError):
    """An image or a deck profile that recognition cannot use."""


class DeviceError(FaroBoxError):
    """A device (camera, case-keeper, buttons, display) that failed or cannot be opened."""


class ProtocolError(FaroBoxError, ValueError):
    """A frame on the case-keeper's serial line that does not follow firmware/PROTOCOL.md."""


class JournalError(FaroBoxError):
    """A journal that is damaged, written by a newer version, or cannot be written."""


class ConfigError(FaroBoxError, ValueError):
    """A configuration file with an unknown key or a bad value (the message names the key)."""


class UsageError(FaroBoxError, ValueError):
    """A command-line option or argument whose value the command cannot use."""
