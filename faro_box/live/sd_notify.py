"""Telling systemd how a service is (sd_notify(3)): READY=1, WATCHDOG=1, STOPPING=1.

One datagram per message to ``$NOTIFY_SOCKET``, as libsystemd sends it. Written here rather than
taken from a library: systemd-python has no wheels (it compiles against libsystemd) and sdnotify
has had no release since 2017; the protocol is one ``sendto``.
"""

from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger(__name__)


class SystemdNotifier:
    """Notifies the socket systemd gave (``$NOTIFY_SOCKET``, or ``address``); without one,
    ``notify`` does nothing and says False, so the same code runs outside systemd."""

    def __init__(self, address: str | None = None) -> None:
        self.address = address if address is not None else os.environ.get("NOTIFY_SOCKET", "")
        self._socket: socket.socket | None = None
        if self.address:
            self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)

    @property
    def enabled(self) -> bool:
        return self._socket is not None

    def notify(self, message: str) -> bool:
        if self._socket is None:
            return False
        address = self.address
        if address.startswith("@"):     # an abstract socket: a leading NUL byte
            address = "\0" + address[1:]
        try:
            self._socket.sendto(message.encode(), address)
        except OSError as exc:
            log.warning("cannot notify systemd (%s, %s): %s", self.address, message, exc)
            return False
        return True

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def sd_notify(message: str) -> bool:
    """One message to the socket of the environment (a fresh notifier each time: cheap, and
    right after a fork)."""
    notifier = SystemdNotifier()
    try:
        return notifier.notify(message)
    finally:
        notifier.close()


def watchdog_interval() -> float | None:
    """Half the watchdog period systemd asks for ($WATCHDOG_USEC), in seconds; None without one."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return max(int(usec) / 2e6, 0.05)
    except ValueError:
        return None
