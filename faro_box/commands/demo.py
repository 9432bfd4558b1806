"""``faro-box demo``: a whole faro deal on any PC, no hardware: the simulated dealing box read by
the real reader and tracker, the table, the fake case-keeper, the web display and the terminal.

``--fast`` runs the frames as fast as the machine reads them; ``--seed``, ``--port`` and
``--journal`` make a run repeatable (with a journal, an interrupted demo carries on where it
stopped). With the web display, the pages stay up after the deal until Ctrl-C (``--no-hold``:
end with the deal), so a newcomer who opens the printed address still finds the table. Exits 0,
after the final balances, when every card the table recorded is the card the box dealt.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import cv2

from faro_box.commands.options import check_port, check_seed
from faro_box.demo.faro import Demo, stacked_deck
from faro_box.devices.case_keeper import RecordingCaseKeeper
from faro_box.display.announce import balances_text
from faro_box.display.catalogue import text
from faro_box.display.pin import hash_pin
from faro_box.display.terminal import TerminalView
from faro_box.display.web import create_app, port_in_use, serve
from faro_box.errors import VisionError
from faro_box.table.journal import Journal
from faro_box.table.table import Table
from faro_box.vision.reader import Reader
from faro_box.vision.sim.simbox import FPS, SimBox
from faro_box.vision.track import Tracker


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fast", action="store_true", help="do not wait for the camera's frame rate")
    parser.add_argument("--port", type=int, default=None,
                        help="web display port (0: any free port; default 8000, or any free port when 8000 is taken)")
    parser.add_argument("--no-web", action="store_true", help="no web display, terminal only")
    parser.add_argument("--journal", metavar="PATH", help="journal the deal in this SQLite file (default: memory)")
    parser.add_argument("--seed", type=int, default=1, help="the shuffle and the simulated camera (default 1)")
    parser.add_argument("--lang", default="en", choices=("en", "ru", "fr"), help="language of the announcements")
    parser.add_argument("--no-hold", dest="hold", action="store_false",
                        help="end with the deal (by default the web display stays up until Ctrl-C)")
    parser.set_defaults(func=run)


def _write_png(path: Path, image: Any) -> None:
    ok, data = cv2.imencode(".png", image)
    if not ok:
        raise VisionError(f"cannot encode the snapshot {path.name!r}")
    path.write_bytes(data.tobytes())


def run(args: argparse.Namespace) -> int:
    check_seed(args.seed)
    if args.port is not None:
        check_port(args.port)
    out = sys.stdout
    # --fast: the cards rest fewer frames in view, the hand moves briskly and the camera shakes by
    # whole pixels (fewer, cheaper frames to draw); every card is still read from the frames.
    if args.fast:
        box = SimBox(stacked_deck(args.seed), seed=args.seed, still=(3, 4), pace=0.4, fine=False)
    else:
        box = SimBox(stacked_deck(args.seed), seed=args.seed, still=(8, 24))
    tracker = Tracker(Reader(), window=box.window.tolist())
    journal = Journal(args.journal) if args.journal else Journal()
    server = None
    with tempfile.TemporaryDirectory(prefix="faro-box-demo-") as snapshots, journal:
        table = Table(journal, RecordingCaseKeeper())
        if not args.no_web:
            server = _start_web(table, args.port, Path(snapshots), args.lang, out)
        view = TerminalView(out, lang=args.lang)
        view.attach(table)
        try:
            demo = Demo(table, box, tracker, realtime=not args.fast, fps=FPS, out=view,
                        snapshot_dir=Path(snapshots), write_image=_write_png)
            try:
                result = demo.run()
            finally:
                view.close()
            _report(result, out, args.lang)
            if server is not None and args.hold:
                hold_display(server, out, args.lang)
        finally:
            if server is not None:
                server.stop()
    return 1 if result.wrong or result.settled != result.balances else 0


DEFAULT_PORT = 8000


def _start_web(table: Any, port: int | None, snapshots: Path, lang: str, out: Any) -> Any:
    pin = f"{secrets.randbelow(10**6):06d}"
    app = create_app(table, pin_hash=hash_pin(pin), snapshot_dir=snapshots, lang=lang)
    if port is None:  # the usual port unless another program holds it; a port asked for is kept
        port = 0 if port_in_use("127.0.0.1", DEFAULT_PORT) else DEFAULT_PORT
    server = serve(app, "127.0.0.1", port, background=True)
    assert server is not None
    print(say("audience", lang, url=server.url), file=out)
    print(say("dealer", lang, url=server.url, pin=pin), file=out, flush=True)
    return server


def say(key: str, lang: str, count: float | None = None, /, **fields: object) -> str:
    """One of the demo's own remarks, in the demo's language."""
    return text("demo", key, lang, count, **fields)


def _report(result: Any, out: Any, lang: str) -> None:
    if result.wrong:
        shown = ", ".join(str(i + 1) for i in result.wrong[:10])
        print(say("wrongCards", lang, cards=shown), file=out)
    elif not result.already_done:
        print(say("allRecorded", lang, len(result.exposed), read=result.read, confirmed=result.confirmed), file=out)
    if result.settled is None:
        print(say("notEnded", lang), file=out)
    elif result.settled != result.balances:
        print(say("settledOther", lang, balances=balances_text(result.settled, lang)), file=out)
    else:
        print(say("checkedDeal", lang), file=out)
    print(say("finalBalances", lang, balances=balances_text(result.balances, lang)), file=out, flush=True)


def hold_display(server: Any, out: Any, lang: str) -> None:
    """Keep the pages up after the demo, until Ctrl-C."""
    print(say("stays", lang, url=server.url), file=out, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
