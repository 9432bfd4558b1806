"""The dealer's PIN, stored only as a salted scrypt hash.

scrypt is memory-hard, so a stolen configuration file cannot be brute-forced cheaply on a GPU
even though a PIN has few digits; the web server also rate-limits wrong guesses.
Stored form: ``scrypt$<n>$<r>$<p>$<salt, base64>$<hash, base64>``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from faro_box.errors import ConfigError

# n=2**14, r=8: 16 MiB and ~50 ms per check on a Pi 4, the interactive-login setting.
SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1
_SALT_BYTES = 16
_HASH_BYTES = 32
_MAX_N = 2**20
MIN_PIN_LENGTH = 4
MAX_PIN_LENGTH = 64


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int, dklen: int = _HASH_BYTES) -> bytes:
    return hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=n, r=r, p=p,
                          maxmem=256 * n * r * p + 1024 * 1024, dklen=dklen)


def _check_pin_text(pin: object) -> str:
    if not isinstance(pin, str):
        raise ConfigError(f"a PIN must be text, not {pin!r}")
    if not MIN_PIN_LENGTH <= len(pin) <= MAX_PIN_LENGTH:
        raise ConfigError(f"a PIN must have {MIN_PIN_LENGTH} to {MAX_PIN_LENGTH} characters, "
                          f"not {len(pin)}")
    return pin


def hash_pin(pin: str, *, n: int = SCRYPT_N, r: int = SCRYPT_R, p: int = SCRYPT_P) -> str:
    """A fresh salted hash of ``pin`` for the configuration file."""
    _check_pin_text(pin)
    salt = secrets.token_bytes(_SALT_BYTES)
    digest = _scrypt(pin, salt, n, r, p)
    b64 = base64.b64encode
    return f"scrypt${n}${r}${p}${b64(salt).decode()}${b64(digest).decode()}"


def parse_pin_hash(stored: str) -> tuple[int, int, int, bytes, bytes]:
    """Split a stored hash; ConfigError (not quoting the hash, a secret) when it is not one."""
    parts = stored.split("$") if isinstance(stored, str) else []
    try:
        if len(parts) != 6 or parts[0] != "scrypt":
            raise ValueError("shape")
        n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
        salt = base64.b64decode(parts[4], validate=True)
        digest = base64.b64decode(parts[5], validate=True)
    except ValueError as exc:
        raise ConfigError("the stored PIN hash is not a 'scrypt$n$r$p$salt$hash' string "
                          "(make one with `faro-box pin`)") from exc
    if n < 2 or n & (n - 1) or n > _MAX_N or not 1 <= r <= 32 or not 1 <= p <= 16 or len(digest) < 16 or not salt:
        raise ConfigError(f"the stored PIN hash has unusable parameters n={n!r} r={r!r} p={p!r}")
    return n, r, p, salt, digest


def check_pin(pin: str, stored: str) -> bool:
    """True when ``pin`` is the PIN ``stored`` was made from (constant-time comparison)."""
    n, r, p, salt, digest = parse_pin_hash(stored)
    if not isinstance(pin, str) or not MIN_PIN_LENGTH <= len(pin) <= MAX_PIN_LENGTH:
        return False
    candidate = _scrypt(pin, salt, n, r, p, len(digest))
    return hmac.compare_digest(candidate, digest)
