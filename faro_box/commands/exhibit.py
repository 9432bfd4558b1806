"""``faro-box exhibit [SOURCE...]``: exhibition mode, deal after deal through the whole box.

SOURCE is ``bundled`` (the instructive deals shipped with faro-box; the default), a deal script
(``.json``) or a journal (an SQLite file of recorded deals). The kiosk screen is at
``/exhibit/`` on the display's address, the visitors' phone page at ``/exhibit/visit``.
"""

from __future__ import annotations

import argparse
import logging
import logging.handlers
import secrets
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from faro_box.commands.options import check_port
from faro_box.config import load_config
from faro_box.devices.case_keeper import open_case_keeper
from faro_box.display.pin import hash_pin
from faro_box.display.speech import Speaker
from faro_box.display.web import ServerLimits, create_app, serve
from faro_box.errors import ConfigError, ScriptError
from faro_box.exhibit.loop import Exhibition, TableHub
from faro_box.exhibit.show import Show
from faro_box.exhibit.sources import load_sources
from faro_box.exhibit.visitors import VisitorBook
from faro_box.exhibit.web import PREFIX, mount_exhibit, visit_url_for

LOG_BYTES = 1_000_000
LOG_BACKUPS = 3


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sources", nargs="*", default=["bundled"], metavar="SOURCE",
                        help="'bundled', a deal script (.json) or a journal; several are dealt in turn")
    parser.add_argument("--config", metavar="TOML", help="the box's configuration (case-keeper, display, PIN)")
    parser.add_argument("--host", help="web display address (default: the configuration's, else 127.0.0.1; "
                                       "0.0.0.0 lets visitors' phones in)")
    parser.add_argument("--port", type=int, help="web display port (default: the configuration's, else 8000)")
    parser.add_argument("--public-url", metavar="URL",
                        help="the phone page's address for the QR code (default: the configuration's "
                             "exhibit.public_url, else found from the network when --host is 0.0.0.0)")
    parser.add_argument("--journal", metavar="PATH",
                        help="journal every deal here; renewed every --keep-deals deals (the previous one "
                             "kept as PATH.1)")
    parser.add_argument("--keep-deals", type=int, default=20, metavar="N", help="deals per journal (default 20)")
    parser.add_argument("--pace", type=float, default=3.0, metavar="SECONDS",
                        help="seconds per card (default 3; exhibitions 2-4)")
    parser.add_argument("--loops", type=int, default=0, metavar="N", help="deals to deal, then stop (0: forever)")
    parser.add_argument("--attract", type=float, default=20.0, metavar="SECONDS",
                        help="attract screen between deals (default 20)")
    parser.add_argument("--hold", type=float, default=8.0, metavar="SECONDS",
                        help="the deal pauses this long when a panel is first shown (default 8)")
    parser.add_argument("--fast", action="store_true",
                        help="no pauses: frames as fast as they are read, no attract screen, no holds")
    parser.add_argument("--lang", choices=("en", "ru", "fr"), help="first language of the screen")
    parser.add_argument("--log", metavar="PATH", help="log here, rotated (1 MB x 4 files); default: stderr")
    parser.add_argument("--no-web", action="store_true", help="no web display")
    parser.set_defaults(func=run)


def setup_logging(path: str | None) -> logging.Handler:
    """The exhibition's log: a rotating file (bounded on disk) or stderr."""
    if path:
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            handler: logging.Handler = logging.handlers.RotatingFileHandler(
                path, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot write the log {path!r}: {exc.strerror or exc}") from None
    else:
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    return handler


def run(args: argparse.Namespace) -> int:
    if args.pace < 0 or args.loops < 0 or args.attract < 0 or args.hold < 0:
        raise ScriptError(f"--pace, --loops, --attract and --hold must be >= 0, not "
                          f"{args.pace!r}, {args.loops!r}, {args.attract!r}, {args.hold!r}")
    if args.keep_deals < 1:
        raise ScriptError(f"--keep-deals must be at least 1, not {args.keep_deals!r}")
    config = None
    if args.config:
        config = load_config(args.config)
    display = config.display if config else None
    if args.public_url is not None:
        from faro_box.config import public_url
        public_url("--public-url", args.public_url)
    public = args.public_url or (config.exhibit.public_url if config else None)
    host = args.host or (display.host if display else "127.0.0.1")
    port = args.port if args.port is not None else (display.port if display else 8000)
    lang = args.lang or (display.language if display else "en")
    check_port(port)
    deals = load_sources(args.sources)
    handler = setup_logging(args.log)
    log = logging.getLogger("faro_box.exhibit")
    case_keeper = _case_keeper(config)
    hub = TableHub(args.journal, case_keeper, keep_deals=args.keep_deals)
    book = VisitorBook()
    book.attach(hub)
    show = Show(lang=lang, visitors=book, hold_s=args.hold)
    hub.subscribe(show.on_event)
    exhibition = Exhibition(deals, hub, show, pace=args.pace, fast=args.fast, loops=args.loops,
                            attract_s=args.attract)
    server = None
    _stop_on_signals(exhibition)
    try:
        if not args.no_web:
            server = _start_web(hub, show, book, config, host, port, lang, public, log)
        log.info("exhibition of %d deal(s): %s", len(deals), ", ".join(d.name for d in deals))
        dealt = exhibition.run()
    finally:
        if server is not None:
            server.stop()
        hub.close()
        if case_keeper is not None:
            case_keeper.close()
        logging.getLogger().removeHandler(handler)
        handler.close()
    print(f"Exhibition over: {dealt} deal(s) dealt.", flush=True)
    return 0


def _case_keeper(config: Any) -> Any:
    # The screen (and the fake) draw the beads from the table's state: no device to feed.
    if config is None or config.case_keeper.kind in ("screen", "fake"):
        return None
    return open_case_keeper(config.case_keeper.device_settings())


def _start_web(hub: Any, show: Any, book: Any, config: Any, host: str, port: int, lang: str,
               public_url: str | None, log: logging.Logger) -> Any:
    # Without a configured PIN the dealer page stays shut: a random PIN nobody is told.
    pin_hash = config.pin_hash if config is not None and config.pin_hash else hash_pin(secrets.token_hex(16))
    speaker = None
    if config is not None and config.display.speech:
        speaker = Speaker()
    display = config.display if config is not None else None
    names = [*(display.server_names if display is not None else ())]
    if public_url:      # the name on the QR code is one the box answers to
        from urllib.parse import urlsplit
        names += [urlsplit(public_url).hostname or ""]
    app = create_app(hub, pin_hash=pin_hash, lang=lang, speaker=speaker,
                     dealer_addresses=None if display is None else display.dealer_addresses,
                     server_names=[n for n in names if n],
                     trusted_proxies=() if display is None else display.trusted_proxies)
    mount_exhibit(app, show, book)
    server = serve(app, host, port, background=True, limits=ServerLimits.of(display))
    assert server is not None
    show.visit_url = public_url or visit_url_for(host, server.port)
    log.info("exhibition screen: %s%s/   visitors' phones: %s", server.url, PREFIX,
             show.visit_url or "(no QR code: the display listens on this machine only; set exhibit.public_url "
                               "or use --host 0.0.0.0)")
    print(f"Exhibition screen: {server.url}{PREFIX}/", flush=True)
    return server


def _stop_on_signals(exhibition: Any) -> None:
    if threading.current_thread() is not threading.main_thread():
        return

    def stop(signum: int, frame: Any) -> None:
        exhibition.stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
