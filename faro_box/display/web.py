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
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from faro_box.display import announce
from faro_box.display.catalogue import page_texts
from faro_box.display.narrator import Narrator
from faro_box.display.pin import parse_pin_hash
from faro_box.display.server import RunningServer as RunningServer
from faro_box.display.server import ServerLimits as ServerLimits
from faro_box.display.server import port_in_use as port_in_use
from faro_box.display.server import serve as serve
from faro_box.display.throttle import (
    LOOPBACK,
    PinChecks,
    PinThrottle,
    client_key,
    is_dealer,
    parse_networks,
)
from faro_box.errors import FaroBoxError, JournalError, ScriptError
from faro_box.limits import MAX_STAKE
from faro_box.table.events import TableEvent, event_to_json
from faro_box.table.games import DEALER_COMMANDS as DEALER_COMMANDS  # each game's, as its registry entry says
from faro_box.table.views import FaroView, View, view_to_json

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
COOKIE = "faro_dealer"
CSRF_HEADER = "x-csrf-token"
# What the dealer's page may send is DEALER_COMMANDS, the games registry's. The tracker's own
# commands ("card", "unread") come from the camera, not from a browser.
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
    max_stake: int = MAX_STAKE
    max_open_bets: int = 500
    sse_clients: int = 64
    sse_per_client: int = 6         # one address's share: a kiosk, a phone, a tablet, a spare tab
    sse_queue: int = 8
    heartbeat_s: float = 15.0
    session_idle_s: float = 4 * 3600
    session_max_s: float = 24 * 3600
    sessions: int = 16
    free_pin_tries: int = 3
    global_free_pin_tries: int = 30  # a burst of tries for all strangers together (and as many for the dealer's addresses)
    lockout_max_s: float = 300.0
    pin_refill_s: float = 60.0      # one more try for all strangers together, every this long
    pin_waiting: int = 8            # strangers' PIN checks waiting their turn at most


class _Refusal(Exception):
    def __init__(self, status: int, message: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = dict(headers or {})


def _error(status: int, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status,
                        headers={"cache-control": "no-store", **(headers or {})})


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
        self._per_client: dict[str, int] = {}
        self.latest: str | None = None
        self.dropped = 0

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    @property
    def clients(self) -> int:
        return len(self._queues)

    def latest_data(self) -> str | None:
        """The newest message's JSON document (what a page shows while its stream is down)."""
        latest = self.latest
        return None if latest is None else latest.partition("\ndata: ")[2].rstrip("\n")

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

    def subscribe(self, client: str = "?") -> asyncio.Queue[str | None]:
        """A queue for one more viewer at ``client`` (its address): refused past the viewers'
        total or past one address's share of it (on the event loop only)."""
        if len(self._queues) >= self._limits.sse_clients:
            raise _Refusal(503, f"too many live viewers (at most {self._limits.sse_clients})",
                           {"retry-after": "10"})
        if self._per_client.get(client, 0) >= self._limits.sse_per_client:
            raise _Refusal(503, f"too many live viewers from one address (at most {self._limits.sse_per_client})",
                           {"retry-after": "10"})
        queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=self._limits.sse_queue)
        self._queues.add(queue)
        self._per_client[client] = self._per_client.get(client, 0) + 1
        return queue

    def unsubscribe(self, queue: asyncio.Queue[str | None], client: str = "?") -> None:
        if queue in self._queues:
            self._queues.discard(queue)
            left = self._per_client.pop(client, 1) - 1
            if left > 0:
                self._per_client[client] = left

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


# Names a web site elsewhere cannot point at this box (DNS rebinding needs a public name): IP
# literals, single-label names (this machine's own, found through the local search domain),
# mDNS names (RFC 6762) and the home network's (RFC 8375), plus the names configured.
_LOCAL_SUFFIXES = (".local", ".localhost", ".home.arpa")
_GUARDED_PATHS = ("/api/", "/snapshots/", "/exhibit/api/")


def host_allowed(host: str, names: frozenset[str]) -> bool:
    """Whether a request's Host header names this box (not a stranger's domain)."""
    import ipaddress

    host = host.strip().lower()
    if host.startswith("["):
        literal, _, _ = host[1:].partition("]")
        name = literal
    else:
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    name = name.rstrip(".")
    if not name or not re.fullmatch(r"[a-z0-9._-]+", name):
        return False
    return "." not in name or name.endswith(_LOCAL_SUFFIXES) or name in names


class _HostCheck:
    """The dealer's page and the APIs answer only to a Host that names this box."""

    def __init__(self, app: ASGIApp, names: frozenset[str]) -> None:
        self.app = app
        self.names = names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path: str = scope.get("path", "")
            if path == "/dealer" or path.startswith(_GUARDED_PATHS):
                host = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"host"), "")
                if not host_allowed(host, self.names):
                    response = _error(421, f"this box does not answer to the name {host[:80]!r} "
                                           "(add it to display.server_names)")
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)


async def _not_found_or_not_allowed(request: Request, exc: Exception) -> Response:
    """404 and 405 as the API's JSON error under /api, plain text elsewhere."""
    from starlette.exceptions import HTTPException

    assert isinstance(exc, HTTPException)
    path = request.scope.get("root_path", "") + request.url.path
    if "/api/" in path:
        return _error(exc.status_code, f"{request.method} {request.url.path[:80]!r}: {exc.detail}",
                      exc.headers)
    return PlainTextResponse(exc.detail, status_code=exc.status_code, headers=exc.headers)


JSON_ERRORS: dict[Any, Callable[[Request, Exception], Any]] = {404: _not_found_or_not_allowed,
                                                               405: _not_found_or_not_allowed}


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
               speaker: Any = None, dealer_addresses: Iterable[str] | None = None,
               server_names: Iterable[str] = (), trusted_proxies: Iterable[str] = ()) -> Starlette:
    """The web display for ``table`` (anything with ``view()``, ``state()``, ``subscribe()``, ``handle()``).

    ``pin_hash`` is ``faro_box.display.pin.hash_pin(pin)``; ``snapshot_dir`` holds the camera
    frames a pending card's ``snapshot`` names; ``speaker`` (``.speak(text, lang)``) reads the
    announcements aloud. ``dealer_addresses`` (address ranges; the loopback address, the box's
    own screen, by default) have a PIN budget of their own; ``server_names`` are DNS names,
    besides the local ones, that the box answers to; ``trusted_proxies`` (the server's) pass
    requests on whose client only their X-Forwarded-For names.
    """
    announce.check_lang(lang)
    parse_pin_hash(pin_hash)  # a broken configuration fails at start, not at the first login
    limits = limits or WebLimits()
    snapshots = Path(snapshot_dir).resolve() if snapshot_dir is not None else None
    sessions = Sessions(clock, limits)
    throttle = PinThrottle(clock, limits.free_pin_tries, limits.global_free_pin_tries, limits.lockout_max_s,
                           limits.pin_refill_s)
    checks = PinChecks(pin_hash, limits.pin_waiting)
    dealers = LOOPBACK if dealer_addresses is None else parse_networks(dealer_addresses)
    proxies = parse_networks(trusted_proxies)
    names = frozenset(n.lower().rstrip(".") for n in server_names)
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

    def on_event(event: TableEvent, view: View) -> None:
        # Called inside table.handle, possibly in another thread: never raise into the table.
        try:
            with publish_lock:
                said = narrator.hear(event, view)
                open_bets[0] = _open_bets(view)
                broadcaster.publish(message(event_to_json(event), view_to_json(view)))
            if speaker is not None:
                for text in said:
                    speaker.speak(text, lang)
        except Exception:  # noqa: BLE001 - a display fault must not stop the deal
            log.exception("the web display could not show event %r", event.TYPE)

    first = table.view()
    narrator.prime(first)
    open_bets[0] = _open_bets(first)
    broadcaster.publish(message({"type": "hello", "seq": first.seq}, view_to_json(first)))
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
            except ClientDisconnect:   # gone mid-body: nobody to answer, nothing to log
                return Response(status_code=400)
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

    async def api_live(request: Request) -> Response:
        return Response(broadcaster.latest_data() or "null", media_type="application/json",
                        headers={"cache-control": "no-store"})

    async def api_events(request: Request) -> Response:
        broadcaster.attach(asyncio.get_running_loop())
        client = client_key(request.client.host if request.client else "?")
        queue = broadcaster.subscribe(client)

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
                broadcaster.unsubscribe(queue, client)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"cache-control": "no-store", "x-accel-buffering": "no"})

    async def api_login(request: Request) -> Response:
        host = request.client.host if request.client else "?"
        key = client_key(host)
        dealer = is_dealer(host, dealers, proxies, forwarded="x-forwarded-for" in request.headers)
        if not checks.reserve(dealer=dealer):   # before the budgets: a refusal here costs no try
            return _error(503, "too many PIN checks at once: try again in a moment", {"retry-after": "2"})
        try:
            wait = throttle.begin(key, dealer=dealer)
            if wait > 0:
                return _error(429, f"too many wrong PINs: wait {wait:.0f} s",
                              {"retry-after": str(max(1, round(wait)))})
            ok = False
            try:
                doc = await read_json(request)
                pin = doc.get("pin") if isinstance(doc, dict) else None
                if not isinstance(pin, str):
                    raise _Refusal(400, 'send {"pin": "…"}')
                ok = await checks.check(pin)
            finally:
                throttle.end(key, ok)
        finally:
            checks.release(dealer=dealer)
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

    async def api_dealer_state(request: Request) -> Response:
        # The dealer's own view: the public state plus the candidates of a face-down card.
        dealer_session(request, csrf=False)
        state = await run_in_threadpool(table.dealer_state)
        return Response(_json_dumps(state), media_type="application/json", headers={"cache-control": "no-store"})

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
            checks.close()

    routes = [
        Route("/", audience),
        Route("/dealer", dealer_page),
        Route("/texts.js", texts_js),
        Route("/api/state", api_state),
        Route("/api/live", api_live),
        Route("/api/events", refusals(api_events)),
        Route("/api/login", refusals(api_login), methods=["POST"]),
        Route("/api/session", refusals(api_session)),
        Route("/api/dealer/state", refusals(api_dealer_state)),
        Route("/api/logout", refusals(api_logout), methods=["POST"]),
        Route("/api/command", refusals(api_command), methods=["POST"]),
        Route("/snapshots/{name}", refusals(snapshot)),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=JSON_ERRORS)
    app.add_middleware(_HostCheck, names=names)
    app.add_middleware(_SecurityHeaders)
    app.state.table = table
    app.state.broadcaster = broadcaster
    app.state.narrator = narrator
    app.state.sessions = sessions
    app.state.unsubscribe = unsubscribe
    return app


def _open_bets(view: View) -> int:
    return len(view.open_bets) if isinstance(view, FaroView) else 0


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
