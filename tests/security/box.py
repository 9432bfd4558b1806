"""One `faro-box run` process on 127.0.0.1 (a simulated camera, a fake case-keeper) and plain
HTTP from chosen loopback source addresses (127.0.0.2, 127.0.0.3 … stand for strangers' machines)."""

from __future__ import annotations

import http.client
import json
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from display_helpers import PIN

from faro_box.display.pin import hash_pin

FARO_BOX = [sys.executable, "-m", "faro_box.cli"]
_HASH = hash_pin(PIN)          # the real scrypt setting: 16 MiB a check


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stranger(n: int) -> str:
    """The n-th stranger's loopback address (127.0.<n // 250>.<n % 250 + 2>)."""
    return f"127.0.{n // 250}.{n % 250 + 2}"


class Box:
    def __init__(self, tmp_path: Path, display: str = "", *, files: int | None = None) -> None:
        self.port = free_port()
        config = tmp_path / "config.toml"
        config.write_text(f'journal = "{tmp_path / "journal.sqlite"}"\nplayers = ["ann", "bob"]\n'
                          f'pin_hash = "{_HASH}"\n[camera]\nsource = "synthetic"\nfps = 1\n'
                          f'[case_keeper]\nkind = "fake"\n[display]\nport = {self.port}\n{display}\n')
        self.log = tmp_path / "stderr.txt"

        def limit_files() -> None:   # a Pi's default limit of open files, not this machine's
            if files is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

        with self.log.open("w") as err:
            self.process = subprocess.Popen([*FARO_BOX, "run", "--config", str(config)], stdout=subprocess.DEVNULL,
                                            stderr=err, preexec_fn=limit_files)
        deadline = time.monotonic() + 90
        while True:
            assert self.process.poll() is None, self.log.read_text()
            try:
                if self.request("GET", "/api/state", timeout=2)[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the box did not serve its page in 90 s"
            time.sleep(0.2)

    def request(self, method: str, path: str, body: Any = None, *, source: str = "127.0.0.1",
                headers: dict[str, str] | None = None, timeout: float = 30) -> tuple[int, dict[str, Any] | None]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout, source_address=(source, 0))
        try:
            data = None if body is None else json.dumps(body).encode()
            sent = {"content-type": "application/json", **(headers or {})} if data is not None else dict(headers or {})
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            raw = response.read()
            try:
                doc = json.loads(raw) if raw else None
            except ValueError:
                doc = None
            return response.status, doc
        finally:
            connection.close()

    def login(self, pin: str, source: str = "127.0.0.1", **kw: Any) -> int:
        return self.request("POST", "/api/login", {"pin": pin}, source=source, **kw)[0]

    def rss_kb(self) -> int:
        return self.status_kb("VmRSS")

    def settled_rss_kb(self, seconds: float = 30) -> int:
        """The RSS once start-up is over (the camera and the reader load in the first seconds)."""
        deadline = time.monotonic() + seconds
        last = self.rss_kb()
        while time.monotonic() < deadline:
            time.sleep(1.0)
            now = self.rss_kb()
            if abs(now - last) < 1024:
                return now
            last = now
        return last

    def status_kb(self, field: str) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
        raise AssertionError(f"no {field} in /proc/{self.process.pid}/status")

    def stderr(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
