"""The web display: the audience page, the dealer's page and their JSON API (Starlette).

Reading is open to anyone who can reach the server (the kiosk screen, phones in the room):
``/``, ``/api/state`` and the live stream ``/api/events``. Changing the deal is for the dealer
only: ``/api/login`` trades the PIN (checked against its scrypt hash, wrong guesses throttled)
for a session cookie (HttpOnly, SameSite=Strict) and a CSRF token, and every write needs both,
a JSON body (a cross-site form cannot send one without a CORS preflight, which this server never
grants) and, when the browser sends one, an Origin of this very server.

The table's listener runs in whatever thread applied a command; it renders one JSON message per
event (the full state, so a client that misses messages still shows the truth) and hands it to
each connected client's bounded queue on the event loop. A slow phone loses intermediate
messages, never the latest, and never grows the server's memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import re
import secrets
import threading
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from faro_box.display import announce
from faro_box.display.catalogue import page_texts
from faro_box.display.narrator import Narrator
from faro_box.display.pin import check_pin, parse_pin_hash
from faro_box.errors import FaroBoxError, JournalError, ScriptError
from faro_box.table.baccarat.commands import DEALER_BANK_COMMANDS

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
COOKIE = "faro_dealer"
CSRF_HEADER = "x-csrf-token"
# What the dealer's page may send. The tracker's own commands ("card", "unread") come from the
# camera, not from a browser: the dealer names a card with "confirm", or answers "no_card" (none left).
DEALER_COMMANDS = frozenset({"start_deal", "place", "withdraw", "bar", "release", "confirm", "no_card", "undo",
                             "end_deal", "misdeal"}) \
    | DEALER_BANK_COMMANDS  # a bank of Baccarat Banque: bets, calls, cards by hand, undo, the banker leaving
_SNAPSHOT_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,100}\.(?:jpe?g|png|webp)$")
_SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
     b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]


@dataclass(frozen=True)
class WebLimits:
    """Bounds that keep one visitor from growing the server or the deal without end."""

    body_bytes: int = 16 * 1024
    max_stake: int = 100_000
    max_open_bets: int = 500
    sse_clients: int = 64
    sse_queue: int = 8
    heartbeat_s: float = 15.0
    session_idle_s: float = 4 * 3600
    session_max_s: float = 24 * 3600
    sessions: int = 16
    free_pin_tries: int = 3
    global_free_pin_tries: int = 30
    lockout_max_s: float = 300.0


class _Refusal(Exception):
    def __init__(self, status: int, message: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = dict(headers or {})


def _error(status: int, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status,
                        headers={"cache-control": "no-store", **(headers or {})})


class PinThrottle:
    """Wrong PINs cost time: after a few free tries each key (a client address, and everyone
    together) is locked for 1, 2, 4 … seconds up to a ceiling; one check at a time per key."""

    def __init__(self, clock: Callable[[], float], free: int, global_free: int, ceiling: float) -> None:
        self._clock = clock
        self._free = {"*": global_free}
        self._default_free = free
        self._ceiling = ceiling
        self._failures: dict[str, int] = {}
        self._locked_until: dict[str, float] = {}
        self._busy: set[str] = set()
        self._lock = threading.Lock()

    def begin(self, key: str) -> float:
        """0 when a check may start now (and reserves it), else the seconds to wait."""
        with self._lock:
            now = self._clock()
            wait = max(self._locked_until.get(k, 0.0) - now for k in (key, "*"))
            if wait > 0:
                return wait
            if key in self._busy:
                return 1.0
            self._busy.add(key)
            return 0.0

    def end(self, key: str, ok: bool) -> None:
        with self._lock:
            self._busy.discard(key)
            if ok:
                self._failures.pop(key, None)
                self._locked_until.pop(key, None)
                return
            now = self._clock()
            for k in (key, "*"):
                count = self._failures.get(k, 0) + 1
                self._failures[k] = count
                over = count - self._free.get(k, self._default_free)
                if over > 0:
                    self._locked_until[k] = now + min(self._ceiling, 2.0 ** (over - 1))
            if len(self._failures) > 10_000:  # a flood of addresses: forget the oldest, keep "*"
                for k in list(self._failures)[:5000]:
                    if k != "*":
                        self._failures.pop(k, None)
                        self._locked_until.pop(k, None)


@dataclass
class _Session:
    csrf: str
    created: float
    seen: float


class Sessions:
    """Server-side dealer sessions: a random id in the cookie, a separate random CSRF token."""

    def __init__(self, clock: Callable[[], float], limits: WebLimits) -> None:
        self._clock = clock
        self._limits = limits
        self._by_id: dict[str, _Session] = {}
        self._lock = threading.Lock()

    def create(self) -> tuple[str, str]:
        sid, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        now = self._clock()
        with self._lock:
            while len(self._by_id) >= self._limits.sessions:
                self._by_id.pop(next(iter(self._by_id)))
            self._by_id[sid] = _Session(csrf, now, now)
        return sid, csrf

    def get(self, sid: str | None) -> _Session | None:
        if not sid:
            return None
        now = self._clock()
        with self._lock:
            session = self._by_id.get(sid)
            if session is None:
                return None
            if now - session.seen > self._limits.session_idle_s or now - session.created > self._limits.session_max_s:
                del self._by_id[sid]
                return None
            session.seen = now
            return session

    def drop(self, sid: str) -> None:
        with self._lock:
            self._by_id.pop(sid, None)


class Broadcaster:
    """Fans each event's message out to the connected clients' bounded queues."""

    def __init__(self, limits: WebLimits) -> None:
        self._limits = limits
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queues: set[asyncio.Queue[str | None]] = set()
        self.latest: str | None = None
        self.dropped = 0

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    @property
    def clients(self) -> int:
        return len(self._queues)

    def publish(self, message: str) -> None:
        """Thread-safe: called from the table's listener in any thread."""
        self.latest = message
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed between the check and the call
                loop.call_soon_threadsafe(self._fan_out, message)

    def _fan_out(self, message: str | None) -> None:
        for queue in list(self._queues):
            while queue.full():
                # The newest message holds the whole state: the oldest is the one to lose.
                queue.get_nowait()
                self.dropped += 1
            queue.put_nowait(message)

    def subscribe(self) -> asyncio.Queue[str | None]:
        if len(self._queues) >= self._limits.sse_clients:
            raise _Refusal(503, f"too many live viewers (at most {self._limits.sse_clients})",
                           {"retry-after": "10"})
        queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=self._limits.sse_queue)
        self._queues.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[str | None]) -> None:
        self._queues.discard(queue)

    def close(self) -> None:
        """End every stream (server shutdown); thread-safe."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._fan_out, None)


class _SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *_SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _profile_names() -> list[str]:
    try:
        from faro_box.rules.faro import PROFILES
    except ImportError:  # the rules engine is always there in a release; keep the page usable
        return ["foster", "teaching", "french", "stuss"]
    return list(PROFILES)


def _json_dumps(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"), default=str)


def create_app(table: Any, *, pin_hash: str, snapshot_dir: str | Path | None = None, lang: str = "en",
               limits: WebLimits | None = None, clock: Callable[[], float] = time.monotonic,
               speaker: Any = None) -> Starlette:
    """The web display for ``table`` (anything with ``state()``, ``subscribe()``, ``handle()``).

    ``pin_hash`` is ``faro_box.display.pin.hash_pin(pin)``; ``snapshot_dir`` holds the camera
    frames a pending card's ``snapshot`` names; ``speaker`` (``.speak(text, lang)``) reads the
    announcements aloud.
    """
    announce.check_lang(lang)
    parse_pin_hash(pin_hash)  # a broken configuration fails at start, not at the first login
    limits = limits or WebLimits()
    snapshots = Path(snapshot_dir).resolve() if snapshot_dir is not None else None
    sessions = Sessions(clock, limits)
    throttle = PinThrottle(clock, limits.free_pin_tries, limits.global_free_pin_tries, limits.lockout_max_s)
    broadcaster = Broadcaster(limits)
    page_texts_script = (f"window.FaroLang = {json.dumps(lang)};\n"
                         f"window.FaroTexts = {json.dumps(page_texts(), ensure_ascii=False)};\n")
    narrator = Narrator(lang)
    profiles = _profile_names()
    handle_lock = threading.Lock()
    publish_lock = threading.Lock()
    open_bets = [0]

    def message(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
        seq = state.get("seq", 0)
        doc = {"seq": seq, "event": event, "state": state, "lang": lang, "profiles": profiles,
               "announcements": list(narrator.recent)}
        return f"id: {seq}\nevent: state\ndata: {_json_dumps(doc)}\n\n"

    def on_event(event: dict, state: dict) -> None:
        # Called inside table.handle, possibly in another thread: never raise into the table.
        try:
            with publish_lock:
                said = narrator.hear(event, state)
                open_bets[0] = len(state.get("open_bets") or ())
                broadcaster.publish(message(event, state))
            if speaker is not None:
                for text in said:
                    speaker.speak(text, lang)
        except Exception:  # noqa: BLE001 - a display fault must not stop the deal
            log.exception("the web display could not show event %r", event.get("type"))

    first = table.state()
    narrator.prime(first)
    open_bets[0] = len(first.get("open_bets") or ())
    broadcaster.publish(message({"type": "hello", "seq": first.get("seq", 0)}, first))
    unsubscribe = table.subscribe(on_event)

    def dealer_session(request: Request, *, csrf: bool) -> tuple[str, _Session]:
        sid = request.cookies.get(COOKIE)
        session = sessions.get(sid)
        if session is None or sid is None:
            raise _Refusal(401, "not logged in: enter the PIN on the dealer page")
        if csrf:
            token = request.headers.get(CSRF_HEADER, "")
            if not hmac.compare_digest(token.encode("utf-8", "replace"), session.csrf.encode()):
                raise _Refusal(403, "missing or wrong CSRF token: reload the dealer page")
            origin = request.headers.get("origin")
            if origin is not None and urlsplit(origin).netloc != request.headers.get("host", ""):
                raise _Refusal(403, f"a write from another site ({origin!r}) is refused")
        return sid, session

    async def read_json(request: Request) -> Any:
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise _Refusal(415, f"send JSON (content-type application/json), not {ctype or 'nothing'!r}")
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limits.body_bytes):
            raise _Refusal(413, f"the body is too large ({length} bytes, at most {limits.body_bytes})")
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > limits.body_bytes:
                raise _Refusal(413, f"the body is too large (more than {limits.body_bytes} bytes)")
        try:
            return json.loads(body.decode("utf-8"), parse_constant=_no_constant)
        except RecursionError:
            raise _Refusal(400, "the body nests too deeply to be a command") from None
        except (UnicodeDecodeError, ValueError) as exc:
            raise _Refusal(400, f"the body is not JSON ({exc}): {bytes(body[:60])!r}") from None

    def refusals(endpoint: Callable[[Request], Any]) -> Callable[[Request], Any]:
        async def wrapped(request: Request) -> Response:
            try:
                return await endpoint(request)
            except _Refusal as refusal:
                return _error(refusal.status, refusal.message, refusal.headers)
        return wrapped

    async def audience(request: Request) -> Response:
        return FileResponse(STATIC / "audience.html", headers={"cache-control": "no-cache"})

    async def dealer_page(request: Request) -> Response:
        return FileResponse(STATIC / "dealer.html", headers={"cache-control": "no-cache"})

    async def texts_js(request: Request) -> Response:
        # The pages' texts in every language, from the one catalogue the terminal speaks from.
        return Response(page_texts_script, media_type="text/javascript", headers={"cache-control": "no-cache"})

    async def api_state(request: Request) -> Response:
        state = await run_in_threadpool(table.state)
        return Response(_json_dumps(state), media_type="application/json", headers={"cache-control": "no-store"})

    async def api_events(request: Request) -> Response:
        broadcaster.attach(asyncio.get_running_loop())
        queue = broadcaster.subscribe()

        async def stream() -> AsyncIterator[str]:
            try:
                yield "retry: 2000\n\n"
                if broadcaster.latest is not None:
                    yield broadcaster.latest
                while True:
                    try:
                        item = await asyncio.wait_for(queue.get(), timeout=limits.heartbeat_s)
                    except TimeoutError:
                        yield ": heartbeat\n\n"
                        continue
                    if item is None:
                        return
                    yield item
            finally:
                broadcaster.unsubscribe(queue)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"cache-control": "no-store", "x-accel-buffering": "no"})

    async def api_login(request: Request) -> Response:
        key = request.client.host if request.client else "?"
        wait = throttle.begin(key)
        if wait > 0:
            return _error(429, f"too many wrong PINs: wait {wait:.0f} s", {"retry-after": str(max(1, round(wait)))})
        ok = False
        try:
            doc = await read_json(request)
            pin = doc.get("pin") if isinstance(doc, dict) else None
            if not isinstance(pin, str):
                raise _Refusal(400, 'send {"pin": "…"}')
            ok = await run_in_threadpool(check_pin, pin, pin_hash)
        finally:
            throttle.end(key, ok)
        if not ok:
            return _error(401, "wrong PIN")
        sid, csrf = sessions.create()
        response = JSONResponse({"csrf": csrf}, headers={"cache-control": "no-store"})
        response.set_cookie(COOKIE, sid, httponly=True, samesite="strict", path="/",
                            secure=request.url.scheme == "https")
        return response

    async def api_session(request: Request) -> Response:
        _, session = dealer_session(request, csrf=False)
        return JSONResponse({"csrf": session.csrf}, headers={"cache-control": "no-store"})

    async def api_logout(request: Request) -> Response:
        sid, _ = dealer_session(request, csrf=True)
        sessions.drop(sid)
        response = JSONResponse({"ok": True}, headers={"cache-control": "no-store"})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
        return response

    async def api_command(request: Request) -> Response:
        dealer_session(request, csrf=True)
        doc = await read_json(request)
        if not isinstance(doc, dict):
            raise _Refusal(400, f"a command must be a JSON object, not {doc!r:.60}")
        # "after": the journal sequence number of the state the page showed. The page sends it
        # with an undo, so a repeated (replayed, double-tapped) undo cannot take back a second card.
        after = doc.pop("after", None)
        if after is not None and (isinstance(after, bool) or not isinstance(after, int)):
            raise _Refusal(400, f"'after' must be the state's sequence number, not {after!r:.40}")
        kind = doc.get("type")
        if not isinstance(kind, str) or kind not in DEALER_COMMANDS:
            raise _Refusal(400, f"the dealer's page cannot send a {kind!r:.40} command: "
                                f"use one of {', '.join(sorted(DEALER_COMMANDS))}")
        if kind == "place":
            spec = doc.get("spec")
            stake = spec.get("stake") if isinstance(spec, dict) else None
            if isinstance(stake, int) and not isinstance(stake, bool) and stake > limits.max_stake:
                raise _Refusal(422, f"a stake of {stake!r} is over this table's limit of {limits.max_stake}")
            if open_bets[0] >= limits.max_open_bets:
                raise _Refusal(422, f"the layout holds at most {limits.max_open_bets} bets")
        from faro_box.table.commands import command_from_json

        try:
            command = command_from_json(doc)
        except ScriptError as exc:
            raise _Refusal(400, str(exc)) from None

        def handle() -> Any:
            with handle_lock:
                seq = table.state().get("seq")
                if after is not None and after != seq:
                    raise _Refusal(409, f"the table changed since the page showed it (state {after}, "
                                        f"now {seq}): nothing was changed; look again")
                return table.handle(command)

        try:
            outcome = await run_in_threadpool(handle)
        except JournalError as exc:
            raise _Refusal(503, f"the journal cannot be written, nothing was changed: {exc}") from None
        except FaroBoxError as exc:
            raise _Refusal(422, str(exc)) from None
        result: dict[str, Any] = {"ok": True}
        to_json = getattr(outcome, "to_json", None)
        if callable(to_json):
            result["outcome"] = to_json()
        return Response(_json_dumps(result), media_type="application/json", headers={"cache-control": "no-store"})

    async def snapshot(request: Request) -> Response:
        dealer_session(request, csrf=False)
        name = request.path_params["name"]
        if snapshots is None or not _SNAPSHOT_NAME.match(name):
            raise _Refusal(404, f"no snapshot {name!r:.60}")
        path = (snapshots / name).resolve()
        if path.parent != snapshots or not path.is_file():
            raise _Refusal(404, f"no snapshot {name!r:.60}")
        return FileResponse(path, headers={"cache-control": "no-store"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        broadcaster.attach(asyncio.get_running_loop())
        try:
            yield
        finally:
            broadcaster.close()

    routes = [
        Route("/", audience),
        Route("/dealer", dealer_page),
        Route("/texts.js", texts_js),
        Route("/api/state", api_state),
        Route("/api/events", refusals(api_events)),
        Route("/api/login", refusals(api_login), methods=["POST"]),
        Route("/api/session", refusals(api_session)),
        Route("/api/logout", refusals(api_logout), methods=["POST"]),
        Route("/api/command", refusals(api_command), methods=["POST"]),
        Route("/snapshots/{name}", refusals(snapshot)),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(_SecurityHeaders)
    app.state.table = table
    app.state.broadcaster = broadcaster
    app.state.narrator = narrator
    app.state.sessions = sessions
    app.state.unsubscribe = unsubscribe
    return app


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


@dataclass
class RunningServer:
    """A uvicorn server started in a background thread (``serve(..., background=True)``)."""

    server: Any
    thread: threading.Thread
    app: Starlette
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
    so a busy port is one clear error rather than a server thread dying in the background)."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return True
    return False


def serve(app: Starlette, host: str = "127.0.0.1", port: int = 8000, *, background: bool = False,
          log_level: str = "warning") -> RunningServer | None:
    """Run the display with uvicorn: in this thread (returns at shutdown) or in a background one.

    The default host is the loopback address: only this machine sees the pages. Any other
    address opens them to the network (see the README, "The display").
    """
    import uvicorn

    if port and port_in_use(host, port):
        from faro_box.errors import DeviceError
        raise DeviceError(f"port {port!r} on {host!r} is already in use: choose another (0: any free port)")
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, access_log=False,
                            timeout_graceful_shutdown=1, lifespan="on")
    server = uvicorn.Server(config)
    if not background:
        server.run()
        return None
    thread = threading.Thread(target=server.run, name="faro-box-web", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            from faro_box.errors import DeviceError
            raise DeviceError(f"the web display could not start on {host!r}:{port!r}")
        time.sleep(0.01)
    bound = server.servers[0].sockets[0].getsockname()[1] if port == 0 else port
    return RunningServer(server, thread, app, host, bound)
