"""The exhibition's pages, mounted at ``/exhibit`` on the display's own Starlette app.

``/exhibit/`` is the kiosk screen (the table, the panels, the odds, the QR code; the attract
screen between deals); ``/exhibit/visit`` the visitors' phone page. Reading is open; the visitor
API writes only to the ``VisitorBook``, never to the table. A visitor's write needs the visitor
cookie (HttpOnly, SameSite=Strict), the CSRF token that came with it in a custom header, a JSON
body (a cross-site form cannot send one without a CORS preflight, never granted here) and, when
the browser sends one, an Origin of this very server.
"""

from __future__ import annotations

import hmac
import io
import json
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from faro_box.config import public_url
from faro_box.display.throttle import client_key
from faro_box.display.web import JSON_ERRORS
from faro_box.errors import ConfigError
from faro_box.exhibit.show import Show
from faro_box.exhibit.visitors import Refused, Visitor, VisitorBook

STATIC = Path(__file__).with_name("static")
PREFIX = "/exhibit"
COOKIE = "faro_visitor"
CSRF_HEADER = "x-csrf-token"
BODY_BYTES = 1024
_NO_STORE = {"cache-control": "no-store"}


def qr_svg(text: str) -> str:
    """The QR code of ``text`` as an SVG document, drawn here (no service on the internet)."""
    import qrcode
    import qrcode.image.svg

    # One path, not a square per module: scaled, squares leave light seams that a camera misreads.
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathFillImage, box_size=10, border=2)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue().decode("utf-8")


def lan_address() -> str | None:
    """This machine's address on the interface of its default route (the one a phone on the
    same network reaches), or None when it has only loopback.

    Connecting a UDP socket sends nothing; it only asks the kernel which interface it would use.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere
            address: str = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def visit_url_for(host: str, port: int) -> str | None:
    """The phone page's address for a server bound to ``host``: None for a loopback-only one."""
    if host in ("0.0.0.0", "::", ""):
        address = lan_address()
        return None if address is None else f"http://{address}:{port}{PREFIX}/visit"
    if host.startswith("127.") or host in ("localhost", "::1"):
        return None
    return f"http://{host}:{port}{PREFIX}/visit"


def _refused(exc: Refused) -> JSONResponse:
    headers = dict(_NO_STORE)
    if exc.retry_after:
        headers["retry-after"] = str(max(1, round(exc.retry_after)))
    return JSONResponse({"error": str(exc)}, status_code=exc.status, headers=headers)


def exhibit_app(show: Show, book: VisitorBook) -> Starlette:
    """The sub-application to mount at ``/exhibit`` (``app.mount(PREFIX, exhibit_app(...))``)."""

    def client_of(request: Request) -> str:
        return client_key(request.client.host if request.client else "?")

    def visit_url(request: Request) -> str | None:
        # The address set or found at start; else the one this page was opened by, unless that
        # is this machine's loopback (the kiosk's own browser at 127.0.0.1: a dead link on every
        # phone). No address phones can reach: no code at all.
        if show.visit_url:
            return show.visit_url
        url = f"{request.url.scheme}://{request.headers.get('host', '')}{PREFIX}/visit"
        try:
            return public_url("the page's address", url)
        except ConfigError:
            return None

    async def read_json(request: Request) -> Any:
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise Refused(415, f"send JSON (content-type application/json), not {ctype or 'nothing'!r}")
        origin = request.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc != request.headers.get("host", ""):
            raise Refused(403, f"a write from another site ({origin[:80]!r}) is refused")
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > BODY_BYTES:
                raise Refused(413, f"the body is too large (more than {BODY_BYTES} bytes)")
        try:
            return json.loads(body.decode("utf-8"))
        except RecursionError:
            raise Refused(400, "the body nests too deeply to be read") from None
        except (UnicodeDecodeError, ValueError) as exc:
            raise Refused(400, f"the body is not JSON ({exc}): {bytes(body[:60])!r}") from None

    def visitor_of(request: Request, *, csrf: bool) -> Visitor:
        visitor = book.get(request.cookies.get(COOKIE))
        if visitor is None:
            raise Refused(401, "you are not a visitor yet: reload the page")
        if csrf:
            token = request.headers.get(CSRF_HEADER, "")
            if not hmac.compare_digest(token.encode("utf-8", "replace"), visitor.csrf.encode()):
                raise Refused(403, "missing or wrong CSRF token: reload the page")
        return visitor

    def guarded(endpoint: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def wrapped(request: Request) -> Response:
            try:
                return await endpoint(request)
            except Refused as exc:
                return _refused(exc)
            except ClientDisconnect:   # gone mid-body: nobody to answer, nothing to log
                return Response(status_code=400)
        return wrapped

    async def kiosk(request: Request) -> Response:
        return FileResponse(STATIC / "exhibit.html", headers={"cache-control": "no-cache"})

    async def visit(request: Request) -> Response:
        return FileResponse(STATIC / "visit.html", headers={"cache-control": "no-cache"})

    async def api_show(request: Request) -> Response:
        doc = show.to_json()
        doc["visit_url"] = visit_url(request)
        return JSONResponse(doc, headers=_NO_STORE)

    async def qr(request: Request) -> Response:
        url = visit_url(request)
        if url is None:
            return JSONResponse({"error": "no address phones can reach: set exhibit.public_url in the configuration, "
                                          "or start with --host 0.0.0.0"}, status_code=404, headers=_NO_STORE)
        return Response(qr_svg(url), media_type="image/svg+xml", headers={"cache-control": "no-cache"})

    async def api_visitor(request: Request) -> Response:
        visitor = visitor_of(request, csrf=False)
        return JSONResponse({"csrf": visitor.csrf, **book.me(visitor)}, headers=_NO_STORE)

    async def api_join(request: Request) -> Response:
        await read_json(request)
        visitor = book.get(request.cookies.get(COOKIE)) or book.join(client_of(request))
        response = JSONResponse({"csrf": visitor.csrf, **book.me(visitor)}, headers=_NO_STORE)
        response.set_cookie(COOKIE, visitor.token, httponly=True, samesite="strict", path=PREFIX,
                            max_age=12 * 3600, secure=request.url.scheme == "https")
        return response

    async def api_name(request: Request) -> Response:
        visitor = visitor_of(request, csrf=True)
        doc = await read_json(request)
        name = doc.get("name") if isinstance(doc, dict) else None
        book.set_name(visitor, name)
        return JSONResponse(book.me(visitor), headers=_NO_STORE)

    async def api_bet(request: Request) -> Response:
        visitor = visitor_of(request, csrf=True)
        doc = await read_json(request)
        placed = book.bet(visitor, client_of(request), doc)
        return JSONResponse({"placed": placed, **book.me(visitor)}, headers=_NO_STORE)

    routes = [
        Route("/", kiosk),
        Route("/visit", visit),
        Route("/qr.svg", qr),
        Route("/api/show", api_show),
        Route("/api/visitor", guarded(api_visitor)),
        Route("/api/join", guarded(api_join), methods=["POST"]),
        Route("/api/name", guarded(api_name), methods=["POST"]),
        Route("/api/bet", guarded(api_bet), methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="exhibit-static"),
    ]
    return Starlette(routes=routes, exception_handlers=JSON_ERRORS)


def mount_exhibit(app: Starlette, show: Show, book: VisitorBook) -> None:
    """Add the exhibition's pages to the display's app, before it serves its first request."""
    app.mount(PREFIX, exhibit_app(show, book))
