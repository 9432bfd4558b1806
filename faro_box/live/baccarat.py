"""The appliance's glue for a Baccarat Banque bank (``game = "baccarat_banque"``): the camera in
find mode through the shown-card watcher into the table, the bank the configuration names, the
dealer's buttons. ``faro-box run`` uses it in place of the faro tracker (live.py); the journal,
the displays, the web pages and systemd's notify are the same.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from faro_box.cards import Card
from faro_box.devices.buttons import ButtonAction
from faro_box.devices.camera import Pacer, open_camera, parse_source
from faro_box.errors import FaroBoxError
from faro_box.live.baccarat_camera import BankCamera
from faro_box.live.faro import table_buttons
from faro_box.live.snapshots import save_snapshot
from faro_box.rules.baccarat import SHOE_SIZE
from faro_box.table.baccarat.commands import BankConfirm, BankerLeaves, BankUndo, StartBank
from faro_box.table.views import BankView, View
from faro_box.vision.shown import ShownCardWatcher

log = logging.getLogger(__name__)
SIM_BETS_SETTLE_S = 1.0  # the simulated banker deals once the bets have not changed for this long


def bank_running(view: View) -> bool:
    """The table's game is a bank that is open and not over."""
    return isinstance(view, BankView) and not view.closed and view.ended is None


def cards_dealt(view: View) -> int:
    """The cards the bank has taken out of the shoe (none while faro plays)."""
    remaining = view.shoe.get("remaining") if isinstance(view, BankView) else None
    return 0 if remaining is None else SHOE_SIZE - remaining


def open_configured_bank(table: Any, config: Any) -> None:
    """Open the configuration's bank unless one is running (a restart mid-bank carries on)."""
    start = config.start_bank()
    if start is None or bank_running(table.view()):
        return
    try:
        table.handle(start)
    except FaroBoxError as exc:  # a faro deal still open in the journal: the dealer's page decides
        log.warning("the configured bank cannot open: %s", exc)
        table.report_fault("bank", f"the configured bank cannot open: {exc}")


class BankFeeder:
    """The camera loop's partner at a bank: ``feed(image, frame)``, ``lost(frame)``."""

    def __init__(self, table: Any, reader: Any, *, min_confidence: float = 0.0, watcher_settings: Any = None,
                 snapshot_dir: Path | None = None, write_image: Callable[[Path, Any], None] | None = None) -> None:
        self.table = table
        self.snapshot_dir, self.write_image = snapshot_dir, write_image
        view = table.view()
        lying = None
        if isinstance(view, BankView) and not view.closed and cards_dealt(view):
            lying = table.script()["shoe"][-1]
        self.camera = BankCamera(table, ShownCardWatcher(reader, watcher_settings), lying=lying,
                                 min_confidence=min_confidence, snapshot=self._save_snapshot)

    def feed(self, image: Any, frame: int) -> None:
        self.camera.frame(image, frame)

    def lost(self, frame: int | None = None) -> None:
        # The watcher keeps what lies on the spot, so the card already read is not read again.
        self.camera.watcher.lost()

    def _save_snapshot(self, image: Any, frame: int) -> str | None:
        """The picture of a card the reader would not name, for the dealer's page."""
        view = self.table.view()
        name = f"bank{view.bank if isinstance(view, BankView) else None}-card{cards_dealt(view) + 1}-frame{frame}.png"
        return save_snapshot(self.snapshot_dir, self.write_image, name, image, "an unread card")


def open_bank_camera(config: Any, table: Any, *, settle_s: float = SIM_BETS_SETTLE_S) -> Any:
    """The configured camera; ``sim[:SEED]`` / ``synthetic`` is the simulated shoe, whose banker
    deals when the table waits for a card."""
    kind, arg = parse_source(config.camera.source)
    if kind != "sim":
        return open_camera(config.camera)
    # The simulated shoe renders its cards with the Baccarat demo's drawing: loaded only for it.
    from faro_box.devices.camera_shoe_sim import ShoeSimCamera

    bets: list[Any] = [None, 0.0]  # the bets last seen, and since when (monotonic seconds)

    def due() -> tuple[int, bool]:
        view = table.view()
        if not isinstance(view, BankView):
            return 0, False
        waiting = str(view.waiting)
        if waiting == "bets" and view.bets:
            # The banker deals once the bets have stood still for a moment.
            now = time.monotonic()
            if view.bets != bets[0]:
                bets[:] = [view.bets, now]
            return cards_dealt(view), bank_running(view) and now - bets[1] >= settle_s
        return cards_dealt(view), bank_running(view) and waiting.startswith("card_")

    fps = config.camera.fps
    camera = ShoeSimCamera.from_spec(arg, due, fps=fps, pacer=Pacer(fps))
    camera.open()
    log.info("camera: %s (a simulated shoe) at %g fps", camera.name, camera.fps)
    return camera


def start_bank_buttons(table: Any, config: Any, *, pin_factory: Any = None) -> Any:
    """The dealer's three buttons at a bank: undo the last card; confirm the reader's best guess;
    a new bank (the banker leaving first when the bank is still running between coups)."""
    def act(action: ButtonAction, state: dict[str, Any]) -> None:
        if action is ButtonAction.UNDO:
            table.handle(BankUndo())
        elif action is ButtonAction.CONFIRM:
            pending = table.dealer_state().get("pending")  # the box's own button: the dealer's view
            if pending and pending.get("candidates"):
                table.handle(BankConfirm(Card.parse(pending["candidates"][0])))
        elif action is ButtonAction.NEW_DEAL:
            view = table.view()
            if bank_running(view) and isinstance(view, BankView) and view.results:
                table.handle(BankerLeaves())  # a bank without a coup is simply replaced
            start = config.start_bank()
            if isinstance(view, BankView) and view.banker is not None and view.declared is not None:
                start = StartBank(view.players, dict(view.sides), view.banker, view.declared)
            if start is not None:
                table.handle(start)

    return table_buttons(table, config.buttons.device_settings(), act, pin_factory=pin_factory)
