"""The visitors' QR code: the address phones reach (configured, or the box's own on the network),
never this machine's loopback; malformed addresses refused in one line."""

from __future__ import annotations

import ipaddress

import pytest

from faro_box.cli import main
from faro_box.config import parse_config
from faro_box.errors import ConfigError
from faro_box.exhibit.web import lan_address, visit_url_for

URL = "http://192.168.1.20:8150/exhibit/visit"


def test_the_configured_public_url_is_kept() -> None:
    config = parse_config({"display": {"web": False}, "exhibit": {"public_url": URL}})
    assert config.exhibit.public_url == URL
    assert parse_config({"display": {"web": False}}).exhibit.public_url is None


@pytest.mark.parametrize("bad", ["192.168.1.20:8150/exhibit/visit", "ftp://192.168.1.20/visit", "http://",
                                 "http://127.0.0.1:8150/exhibit/visit", "http://localhost:8150/exhibit/visit",
                                 "http://[::1]:8150/", "http://0.0.0.0:8150/", "http://box:port/", "http://a b/", 42])
def test_a_malformed_or_loopback_public_url_is_refused_naming_the_key(bad: object) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config({"display": {"web": False}, "exhibit": {"public_url": bad}})
    assert str(caught.value).startswith("exhibit.public_url: ") and repr(bad) in str(caught.value)


def test_the_command_refuses_a_loopback_public_url_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["exhibit", "--no-web", "--public-url", "http://127.0.0.1:8150/exhibit/visit"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--public-url" in err and "'http://127.0.0.1:8150/exhibit/visit'" in err


def test_a_loopback_only_server_has_no_address_for_phones() -> None:
    for host in ("127.0.0.1", "127.0.1.1", "localhost", "::1"):
        assert visit_url_for(host, 8150) is None
    assert visit_url_for("192.168.1.20", 8150) == URL


def test_the_address_found_on_the_network_is_never_loopback() -> None:
    found = lan_address()
    url = visit_url_for("0.0.0.0", 8150)
    if found is None:   # a machine with loopback alone: no code rather than a dead one
        assert url is None
    else:
        assert not ipaddress.ip_address(found).is_loopback
        assert url == f"http://{found}:8150/exhibit/visit"
