"""A busy port is one clear error before any server starts; the demo's usual port gives way."""

import socket

import pytest

from faro_box.display.pin import hash_pin
from faro_box.display.web import create_app, port_in_use, serve
from faro_box.errors import DeviceError
from faro_box.table.journal import Journal
from faro_box.table.table import Table


@pytest.fixture
def busy_port():
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    holder.bind(("127.0.0.1", 0))
    holder.listen(1)
    yield holder.getsockname()[1]
    holder.close()


def test_port_in_use_tells_a_held_port_from_a_free_one(busy_port):
    assert port_in_use("127.0.0.1", busy_port)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    assert not port_in_use("127.0.0.1", free)


def test_serving_on_a_busy_port_is_one_clear_error(busy_port):
    with Journal() as journal:
        app = create_app(Table(journal), pin_hash=hash_pin("1234", n=2**4))
        with pytest.raises(DeviceError, match=f"port {busy_port} on '127.0.0.1' is already in use"):
            serve(app, "127.0.0.1", busy_port, background=True)


@pytest.mark.parametrize(("host", "words"), [("no-such-host.invalid", "does not resolve"),
                                             ("192.0.2.55", "cannot listen on '192.0.2.55'")])
def test_a_host_that_is_not_this_machines_is_said_so_not_called_a_busy_port(host, words):
    with Journal() as journal:
        app = create_app(Table(journal), pin_hash=hash_pin("1234", n=2**4))
        for port in (8000, 0):
            with pytest.raises(DeviceError, match=words) as caught:
                serve(app, host, port, background=True)
            assert "already in use" not in str(caught.value)
