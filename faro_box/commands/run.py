"""``faro-box run [--config FILE]``: the appliance.

camera -> tracker -> table (journal first) -> case-keeper, web kiosk, terminal, LCD, speech;
the dealer's GPIO buttons. With ``game = "baccarat_banque"`` the camera reads in find mode
through the shown-card watcher instead of the tracker (bank_live.py). Under systemd
(Type=notify) it says READY once the journal is replayed and the displays are up, and pings the
watchdog from the camera loop: a camera read that hangs stops the pings and systemd restarts
the service, which replays the journal.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import cv2

from faro_box.config import load_config
from faro_box.devices.buttons import ButtonAction
from faro_box.devices.camera import EndOfVideo, open_camera
from faro_box.devices.case_keeper import open_case_keeper
from faro_box.display.lcd import LcdView, RplcdLcd
from faro_box.display.speech import Speaker
from faro_box.display.terminal import TerminalView
from faro_box.display.web import ServerLimits, create_app, serve
from faro_box.live.baccarat import (
    BankFeeder,
    bank_running,
    open_bank_camera,
    open_configured_bank,
    start_bank_buttons,
)
from faro_box.live.faro import TrackerBridge, table_buttons
from faro_box.live.sd_notify import SystemdNotifier, watchdog_interval
from faro_box.rules.faro.beads import BeadGeometry
from faro_box.table.commands import ConfirmCard, EndDeal, StartDeal, UndoCard
from faro_box.table.journal import Journal
from faro_box.table.table import Table
from faro_box.vision.profile import DeckProfile
from faro_box.vision.reader import Reader
from faro_box.vision.track import Tracker, TrackerSettings

DEFAULT_CONFIG = "/etc/faro-box/config.toml"
log = logging.getLogger("faro_box.run")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", default=DEFAULT_CONFIG, metavar="FILE",
                        help=f"the TOML configuration (default {DEFAULT_CONFIG})")
    parser.set_defaults(func=run)


def _write_png(path: Path, image: Any) -> None:
    ok, data = cv2.imencode(".png", image)
    if ok:
        path.write_bytes(data.tobytes())


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    config = load_config(args.config)
    notifier = SystemdNotifier()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())

    journal = Journal(config.journal)
    keeper = open_case_keeper(config.case_keeper.device_settings())
    closers: list[Any] = [journal.close, keeper.close]
    try:
        table = Table(journal, keeper, geometry=BeadGeometry.from_mapping(config.case_keeper.geometry))
        lang = config.display.language
        snapshots = Path(config.snapshots) if config.snapshots else Path(config.journal).parent / "snapshots"
        if config.display.terminal:
            view = TerminalView(sys.stdout, lang=lang)
            view.attach(table)
            closers.append(view.close)
        if config.display.lcd.enabled:
            LcdView(RplcdLcd(config.display.lcd.address, config.display.lcd.bus)).attach(table)
        if config.display.web:
            server = _start_web(table, config, snapshots)
            closers.append(server.stop)
        profile = DeckProfile.load(config.camera.deck_profile) if config.camera.deck_profile else None
        reader = Reader(profile)
        if reader.warning:
            log.warning(reader.warning)
        bridge: Any
        if config.game == "baccarat_banque":
            open_configured_bank(table, config)
            camera = open_bank_camera(config, table)
            closers.append(camera.close)
            bridge = BankFeeder(table, reader, min_confidence=config.camera.min_confidence,
                                snapshot_dir=snapshots, write_image=_write_png)
            if config.buttons.enabled:
                closers.append(start_bank_buttons(table, config).close)
        else:
            state = table.state()
            if bank_running(table.view()):
                # The pages show the bank; the camera waits for a faro deal (TrackerBridge).
                log.warning("a bank of Baccarat Banque is still open in the journal: the banker leaves "
                            "on the dealer's page before a faro deal starts")
            elif state["ended"] and config.players:
                table.handle(StartDeal(config.profile, config.players, config.house_rules))
            camera = open_camera(config.camera.source, width=config.camera.width, height=config.camera.height,
                                 fps=config.camera.fps)
            closers.append(camera.close)
            window = config.camera.window or camera.window
            tracker = Tracker(reader, window=[list(p) for p in window] if window else None,
                              settings=TrackerSettings(min_confidence=config.camera.min_confidence))
            bridge = TrackerBridge(table, tracker, snapshot_dir=snapshots, write_image=_write_png)
            if config.buttons.enabled:
                closers.append(_start_buttons(table, config).close)

        notifier.notify("READY=1")
        log.info("faro-box is running (journal %s, %d entries)", config.journal, journal.seq)
        ping = watchdog_interval()
        next_ping = time.monotonic()
        frame = 0
        while not stop.is_set():
            try:
                image = camera.read()
            except EndOfVideo as exc:
                log.info("%s", exc)
                if isinstance(bridge, TrackerBridge):
                    bridge.finish()
                break
            if image is None:
                table.report_fault("camera", "no picture from the camera")
                bridge.lost(frame)
                time.sleep(0.2)
            else:
                table.clear_fault("camera")
                bridge.feed(image, frame)
            frame += 1
            if ping is not None and time.monotonic() >= next_ping:
                notifier.notify("WATCHDOG=1")
                next_ping = time.monotonic() + ping
        notifier.notify("STOPPING=1")
        return 0
    finally:
        for close in reversed(closers):
            try:
                close()
            except Exception as exc:  # closing one device must not keep the others open
                log.warning("while closing: %s", exc)
        notifier.close()


def _start_web(table: Any, config: Any, snapshots: Path) -> Any:
    assert config.pin_hash is not None  # the configuration refuses a web display without one
    app = create_app(table, pin_hash=config.pin_hash, snapshot_dir=snapshots, lang=config.display.language,
                     speaker=Speaker() if config.display.speech else None,
                     dealer_addresses=config.display.dealer_addresses, server_names=config.display.server_names,
                     trusted_proxies=config.display.trusted_proxies)
    snapshots.mkdir(parents=True, exist_ok=True)
    server = serve(app, config.display.host, config.display.port, background=True,
                   limits=ServerLimits.of(config.display))
    assert server is not None  # background=True always returns the running server
    log.info("display at %s/ (dealer page %s/dealer)", server.url, server.url)
    return server


def _start_buttons(table: Any, config: Any, *, pin_factory: Any = None) -> Any:
    def act(action: ButtonAction, state: dict[str, Any]) -> None:
        if action is ButtonAction.UNDO:
            table.handle(UndoCard())
        elif action is ButtonAction.CONFIRM:
            pending = state["pending"]
            # The reader's best guess; with none, the dealer must name the card on the page.
            if pending and pending["candidates"]:
                table.handle(ConfirmCard(pending["index"], pending["candidates"][0]))
        elif action is ButtonAction.NEW_DEAL:
            if not state["ended"]:
                table.handle(EndDeal())
            players = tuple(state["players"]) or config.players
            table.handle(StartDeal(state["profile"] or config.profile, players, config.house_rules))

    return table_buttons(table, config.buttons.device_settings(), act, pin_factory=pin_factory)
