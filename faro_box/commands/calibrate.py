"""``faro-box calibrate``: find the box's window in the camera's picture (or take four corners),
check focus and exposure, write the window into the configuration's [camera] table, and save a
picture of the view with the window drawn.

Exit status: 0 when every check passed, 2 when one failed (the window is written all the same,
so the picture shows what to fix), 1 on an error.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path
from typing import Any

import cv2
import tomlkit
from tomlkit.exceptions import TOMLKitError

from faro_box.commands.track import parse_corners
from faro_box.config import load_config, parse_config
from faro_box.devices.camera import EndOfVideo, open_camera
from faro_box.errors import ConfigError, DeviceError, VisionError
from faro_box.files import discard, move_over, part_of
from faro_box.vision.calibrate import calibrate, draw_window
from faro_box.vision.canonical import check_image
from faro_box.vision.track import Tracker


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", nargs="?", help="the camera (default: the configuration's camera.source)")
    parser.add_argument("--corners", metavar="x1,y1,...,x4,y4", help="the window's corners instead of finding them")
    parser.add_argument("--config", metavar="FILE", help="the configuration to write the window into")
    parser.add_argument("--picture", metavar="PNG", default="calibration.png",
                        help="where to save the view with the window drawn (default calibration.png)")
    parser.add_argument("--settle", type=int, default=10, metavar="N",
                        help="frames to let the camera settle before the one used (default 10)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    source = args.source
    if source is None and args.config and Path(args.config).is_file():
        source = load_config(args.config).camera.source
    if source is None:
        missing = f" (there is no {args.config!r} to name one)" if args.config else ""
        raise DeviceError(f"give the camera to calibrate (e.g. picamera2, usb:0, sim:1) or --config FILE{missing}")
    picture = Path(args.picture)
    if picture.is_dir() or not cv2.haveImageWriter(str(picture)) or not picture.parent.is_dir():
        raise DeviceError(f"--picture {args.picture!r}: give a file name OpenCV can write a picture to "
                          "(.png or .jpg) in a folder that exists")
    if args.settle < 0:
        raise DeviceError(f"--settle must be 0 or more, not {args.settle!r}")
    corners = parse_corners(args.corners) if args.corners else None
    camera = open_camera(source, realtime=False)
    image = None
    try:
        for _ in range(args.settle + 1):
            try:
                frame = camera.read()
            except EndOfVideo:
                break
            if frame is not None:
                image = frame
    finally:
        camera.close()
    if image is None:
        raise DeviceError(f"the camera {source!r} gave no picture")
    try:
        image = check_image(image)
    except VisionError as exc:
        raise VisionError(f"the camera {source!r}: {exc}") from None
    first = calibrate(image, corners)
    visible = Tracker(_NoReader(), window=first.window).sees_card(image)
    result = calibrate(image, first.window, card_visible=visible)
    # Both files are written beside themselves first and moved into place last, the configuration
    # first: where anything fails before, neither changes.
    staged = stage_config(Path(args.config), new_config(Path(args.config), result.window)) if args.config else None
    drawn = part_of(picture)
    try:
        try:
            written = cv2.imwrite(str(drawn), draw_window(image, result.window, result.ok))
        except cv2.error:
            written = False
        if not written:
            raise DeviceError(f"cannot write the picture {str(picture)!r}")
        if staged is not None:
            try:
                move_over(staged, args.config)
            except OSError as exc:
                raise ConfigError(f"cannot write the configuration {args.config!r}: {exc}") from None
        try:
            move_over(drawn, picture)
        except OSError as exc:
            raise DeviceError(f"cannot write the picture {str(picture)!r}: {exc.strerror or exc}") from None
    finally:
        for part in (staged, drawn):
            if part is not None:
                discard(part)  # moved into place, or not wanted: nothing left beside the files
    flat = ",".join(f"{v:.1f}" for corner in result.window for v in corner)
    print(f"window: {flat}")
    for check in result.checks:
        verdict = "ok" if check.ok else f"PROBLEM: {check.advice}"
        print(f"{check.name}: {check.value:.3g} {verdict}")
    if staged is not None:
        print(f"written: [camera] window in {args.config}")
    else:
        print(f"(no --config: add to [camera]: window = {_toml_window(result.window)})")
    print(f"picture: {picture}")
    sys.stdout.flush()
    return 0 if result.ok else 2


class _NoReader:
    def read(self, image: Any, *, window: Any = None) -> Any:
        raise AssertionError("calibration never reads a card")


def _toml_window(window: Any) -> str:
    return "[" + ", ".join(f"[{x:.1f}, {y:.1f}]" for x, y in window) + "]"


def new_config(path: Path, window: Any) -> str:
    """The configuration at ``path`` (none yet: an empty one) with ``window`` set in its [camera]
    table, everything else kept, the person's comments and layout included (tomlkit edits the
    document rather than rewriting it), checked with the configuration's own rules; ConfigError
    naming the file where it cannot be read or the result is no configuration."""
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the configuration {str(path)!r}: {exc}") from None
    try:
        doc = tomlkit.parse(text)
    except TOMLKitError as exc:
        raise ConfigError(f"the configuration {str(path)!r} is not valid TOML, not changed: {exc}") from None
    camera = doc.get("camera")
    if camera is None:
        camera = tomlkit.table()
        doc["camera"] = camera
    elif not isinstance(camera, dict):
        raise ConfigError(f"the configuration {str(path)!r} has camera = {camera!r}, not a [camera] table: "
                          "not changed")
    camera["window"] = [[round(float(x), 1), round(float(y), 1)] for x, y in window]
    new = tomlkit.dumps(doc)
    camera_values = tomllib.loads(new).get("camera", {})
    try:
        parse_config({"camera": camera_values, "display": {"web": False}})  # names the key
    except ConfigError as exc:
        raise ConfigError(f"the configuration {str(path)!r}: {exc}; not changed") from None
    return new


def stage_config(path: Path, new: str) -> Path:
    """``new`` written beside the configuration at ``path``, to be moved over it (files.move_over)."""
    part = part_of(path)
    try:
        part.write_text(new, encoding="utf-8")
    except BaseException as exc:
        discard(part)
        if isinstance(exc, OSError):
            raise ConfigError(f"cannot write the configuration {str(path)!r}: {exc}") from None
        raise
    return part
