"""The dealer's PIN: salted scrypt, constant-time check, bad stored hashes refused clearly."""

from __future__ import annotations

import pytest

from faro_box.display.pin import check_pin, hash_pin, parse_pin_hash
from faro_box.errors import ConfigError

FAST = {"n": 2**10, "r": 8, "p": 1}


def test_right_and_wrong_pin() -> None:
    stored = hash_pin("2468", **FAST)
    assert check_pin("2468", stored)
    assert not check_pin("2469", stored)
    assert not check_pin("", stored)
    assert not check_pin("2468" * 100, stored)


def test_salted_so_two_hashes_of_one_pin_differ() -> None:
    first, second = hash_pin("2468", **FAST), hash_pin("2468", **FAST)
    assert first != second
    assert check_pin("2468", first) and check_pin("2468", second)
    assert "2468" not in first


def test_default_parameters_are_memory_hard() -> None:
    stored = hash_pin("123456")
    n, r, p, salt, digest = parse_pin_hash(stored)
    assert 128 * n * r >= 16 * 1024 * 1024  # scrypt's working memory: at least 16 MiB
    assert len(salt) == 16 and len(digest) == 32
    assert check_pin("123456", stored)


@pytest.mark.parametrize("pin", ["12", "", 1234, None])
def test_a_bad_pin_cannot_be_set(pin: object) -> None:
    with pytest.raises(ConfigError, match="PIN"):
        hash_pin(pin)  # type: ignore[arg-type]


@pytest.mark.parametrize("stored", ["1234", "scrypt$x$8$1$AA==$AA==", "bcrypt$16384$8$1$AA==$AA==",
                                    "scrypt$1000$8$1$AAAAAAAAAAAAAAAAAAAAAA==$" + "A" * 44])
def test_a_stored_value_that_is_not_a_hash_is_refused(stored: str) -> None:
    with pytest.raises(ConfigError, match="PIN hash"):
        check_pin("1234", stored)
