"""How the display's app is served: uvicorn, with the guards a server on a shared network needs.

uvicorn times out idle keep-alive connections but not a request whose headers never finish, and
accepts connections until the process runs out of file descriptors (then every failed accept is
logged). So each connection gets a deadline for its request headers, and connections beyond a
cap are answered 503 and closed at once, well below the descriptor limit. Proxy headers
(X-Forwarded-For) are believed only from the proxies the configuration names.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from faro_box.errors import DeviceError

log = logging.getLogger(__name__)

_BUSY_BODY = b'{"error": "too many connections: come back soon"}'
_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 5\r\n"
         b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_BUSY_BODY), _BUSY_BODY))
_SPARE_FILES = 256     # descriptors kept for the journal, the camera, logs and the like
_ACCEPT_BATCH = 64


@dataclass(frozen=True)
class ServerLimits:
    max_connections: int = 512
    header_timeout_s: float = 10.0
    keep_alive_s: int = 5
    trusted_proxies: tuple[str, ...] = ()

    @classmethod
    def of(cls, display: Any) -> ServerLimits:
        """The limits a configuration's [display] section sets (None: the defaults)."""
        if display is None:
            return cls()
        return cls(max_connections=display.max_connections, header_timeout_s=display.header_timeout,
                   trusted_proxies=tuple(display.trusted_proxies))


@dataclass
class RunningServer:
    """A uvicorn server started in a background thread (``serve(..., background=True)``)."""

    server: Any
    thread: threading.Thread
    app: Any
    host: str
    port: int
    _stopped: bool = field(default=False)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def stop(self, timeout: float = 10.0) -> None:
        if not self._stopped:
            self._stopped = True
            # Live streams never end by themselves: close them so the shutdown is prompt.
            self.app.state.broadcaster.close()
            self.server.should_exit = True
            self.thread.join(timeout)


def port_in_use(host: str, port: int) -> bool:
    """Whether another program already listens on ``host:port`` (asked before uvicorn binds,
    so a busy port is one clear error rather than a server thread dying in the background).
    DeviceError when ``host`` does not resolve or is not an address of this machine."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise DeviceError(f"the display's host {host!r} does not resolve to an address: {exc}") from None
    family, _, _, _, address = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return True
            raise DeviceError(f"the display cannot listen on {host!r} port {port!r}: {exc.strerror or exc}") from None
    return False


def _connection_cap(wanted: int) -> int:
    """``wanted``, raising this process's descriptor limit to fit it, or as many as the hard
    limit allows (a cap above the limit would let accept() fail, and log, on every connection)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = wanted + _SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < need:
        raised = need if hard == resource.RLIM_INFINITY else min(need, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    if soft != resource.RLIM_INFINITY and soft < need:
        cap = max(16, soft - _SPARE_FILES)
        log.warning("the display takes %d connections at once, not %d: the process may open %d files "
                    "(raise LimitNOFILE)", cap, wanted, soft)
        return cap
    return wanted


def guarded_protocol(max_connections: int, header_timeout_s: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol with a header deadline and a cap on connections."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    base: Any = AutoHTTPProtocol
    warned = [0.0]

    class Guarded(base):  # type: ignore[misc]
        _header_timer: asyncio.TimerHandle | None = None
        _header_cycle: Any = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                now = time.monotonic()
                if now - warned[0] > 60:
                    warned[0] = now
                    log.warning("%d connections at once: new ones are turned away for now", max_connections)
                transport.write(_BUSY)
                transport.close()
                return
            self._wait_for_headers()

        def _wait_for_headers(self) -> None:
            self._header_cycle = self.cycle
            self._header_timer = self.loop.call_later(header_timeout_s, self._headers_late)

        def _headers_done(self) -> None:
            if self._header_timer is not None and self.cycle is not None and self.cycle is not self._header_cycle:
                self._header_timer.cancel()
                self._header_timer = None

        def _headers_late(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._headers_done()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self._header_timer is None:
                self._wait_for_headers()
                self._headers_done()   # a pipelined request may already have started

        def connection_lost(self, exc: Exception | None) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None
            super().connection_lost(exc)

    return Guarded


def serve(app: Any, host: str = "127.0.0.1", port: int = 8000, *, background: bool = False,
          log_level: str = "warning", limits: ServerLimits | None = None) -> RunningServer | None:
    """Run the display with uvicorn: in this thread (returns at shutdown) or in a background one.

    The default host is the loopback address: only this machine sees the pages. Any other
    address opens them to the network (see the README, "The display").
    """
    import uvicorn

    limits = limits or ServerLimits()
    if port and port_in_use(host, port):
        raise DeviceError(f"port {port!r} on {host!r} is already in use: choose another (0: any free port)")
    if not port:
        port_in_use(host, 0)      # the host's own errors (no such name, not this machine's)
    proxies: Sequence[str] = limits.trusted_proxies
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, access_log=False,
                            timeout_graceful_shutdown=1, lifespan="on",
                            http=guarded_protocol(_connection_cap(limits.max_connections), limits.header_timeout_s),
                            timeout_keep_alive=limits.keep_alive_s,
                            # asyncio accepts up to `backlog` sockets before any is looked at:
                            # kept small, the cap turns a flood away before the files run out.
                            backlog=_ACCEPT_BATCH,
                            proxy_headers=bool(proxies), forwarded_allow_ips=list(proxies) or None)
    server = uvicorn.Server(config)
    if not background:
        server.run()
        return None
    thread = threading.Thread(target=server.run, name="faro-box-web", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise DeviceError(f"the web display could not start on {host!r}:{port!r}")
        time.sleep(0.01)
    bound = server.servers[0].sockets[0].getsockname()[1] if port == 0 else port
    return RunningServer(server, thread, app, host, bound)
