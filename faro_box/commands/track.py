"""``faro-box track SOURCE``: run the tracker on a camera, a video, a folder of frames or the
simulated box, and print one JSON line per event. How a person checks a camera setup and how
the tracker is measured.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2

from faro_box.config import load_config
from faro_box.devices.camera import EndOfVideo, open_camera
from faro_box.errors import VisionError
from faro_box.files import discard, move_over, part_of
from faro_box.vision.canonical import check_image
from faro_box.vision.profile import DeckProfile
from faro_box.vision.reader import Reader
from faro_box.vision.track import NeedsConfirmation, Tracker, TrackerSettings, TrackEvent, event_to_json


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", help="a video file, a folder of frames, usb:N, picamera2, "
                                       "or sim:SEED[:NUISANCE] for the simulated box")
    parser.add_argument("--window", metavar="x1,y1,...,x4,y4",
                        help="the box's window, 4 corners clockwise from top-left (default: the "
                             "configuration's, the simulated box's own, or the outline of the first "
                             "card that lies still in full view)")
    parser.add_argument("--profile", metavar="PROFILE", help="a deck profile (faro-box vision enroll)")
    parser.add_argument("--config", metavar="FILE", help="take the window from this configuration's [camera]")
    parser.add_argument("--frames", type=int, metavar="N", help="stop after N frames")
    parser.add_argument("--realtime", action="store_true",
                        help="play files and the simulation at the camera's frame rate")
    parser.add_argument("--snapshots", metavar="DIR", help="save the picture of each card to confirm here")
    parser.add_argument("--record", metavar="VIDEO.mp4", help="also write the frames to an MP4 (mp4v) to watch")
    parser.set_defaults(func=run)


def parse_corners(text: str) -> list[list[float]]:
    """``x1,y1,…,x4,y4`` as four [x, y] corners; VisionError naming the text otherwise."""
    try:
        numbers = [float(v) for v in text.replace(" ", "").split(",") if v != ""]
    except ValueError:
        raise VisionError(f"a window is 8 numbers x1,y1,...,x4,y4, not {text!r}") from None
    if len(numbers) != 8:
        raise VisionError(f"a window is 8 numbers x1,y1,...,x4,y4, not {text!r} ({len(numbers)} numbers)")
    return [numbers[i:i + 2] for i in range(0, 8, 2)]


def configured_window(path: str) -> list[list[float]] | None:
    window = load_config(path).camera.window
    return [list(p) for p in window] if window else None


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    if args.frames is not None and args.frames < 1:
        raise VisionError(f"--frames must be at least 1, not {args.frames!r}")
    window: Sequence[Sequence[float]] | None = parse_corners(args.window) if args.window else None
    if window is None and args.config:
        window = configured_window(args.config)
    profile = DeckProfile.load(args.profile) if args.profile else None
    record = _recording(args.record, args.source) if args.record is not None else None
    snapshots, made = _snapshot_folder(args.snapshots) if args.snapshots else (None, None)
    try:
        camera = open_camera(args.source, realtime=args.realtime)
    except BaseException:
        if made is not None:
            _unmake_if_empty(snapshots, made)
        raise
    recorder: Any = None
    # The recording is kept once the frames ran out or the person stopped the run (Ctrl-C, or
    # the service stopped: a live camera's only end); a run that fails part-way leaves what was
    # at --record as it was.
    kept = False
    previous = _stop_on_sigterm()
    try:
        if window is None:
            window = camera.window
        # Nobody answers questions here: the tracker goes on rather than wait for the dealer.
        reader = Reader(profile)
        if reader.warning:
            logging.getLogger("faro_box.track").warning(reader.warning)
        tracker = Tracker(reader, window=window, settings=TrackerSettings(hold=False))
        count, last, base = 0, -1, 0
        while args.frames is None or count < args.frames:
            try:
                image = camera.read()
            except EndOfVideo:
                break
            count += 1
            if image is None:
                tracker.lost()
                continue
            try:
                image = check_image(image)
            except VisionError as exc:
                raise VisionError(f"{args.source!r} frame {count}: {exc}") from None
            if record is not None:
                recorder = recorder or _recorder(record[1], args.record, image, camera.fps)
                recorder.write(image)
            number = camera.frame_number + base
            if number <= last:  # the next simulated deal counts from 0 again
                base += last + 1 - number
                number = last + 1
            last = number
            _print_events(tracker.update(image, number), snapshots)
        _print_events(tracker.finish(), snapshots)  # the recording's end: what it left open
        kept = True
    except KeyboardInterrupt:
        kept = True
        raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        camera.close()
        if recorder is not None:
            recorder.release()
        if record is not None:
            _finish_recording(*record, kept=kept and recorder is not None)
        if made is not None:
            _unmake_if_empty(snapshots, made)
    if tracker.window is None:
        raise VisionError(f"no window for {args.source!r}: in {count} frame(s) no card lay still with nothing "
                          "over its edge, so nothing was read; give --window x1,y1,...,x4,y4 or run "
                          "faro-box calibrate")
    if window is None:
        flat = ",".join(f"{v:.1f}" for v in tracker.window.ravel())
        logging.getLogger("faro_box.track").info("window found in the picture: %s", flat)
    return 0


def _stop_on_sigterm() -> Any:
    """SIGTERM (systemd stopping the service) ends the run as Ctrl-C does; the handler it
    replaced, to put back (None where signals cannot be handled here: not the main thread)."""
    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        return signal.signal(signal.SIGTERM, stop)
    except ValueError:
        return None


def _print_events(events: list[TrackEvent], snapshots: Path | None) -> None:
    for event in events:
        line = event_to_json(event)
        if isinstance(event, NeedsConfirmation) and snapshots is not None and event.snapshot is not None:
            line["snapshot"] = _save(snapshots, f"frame{event.frame}-card{event.index}.png", event.snapshot)
        print(json.dumps(line), flush=True)


def _snapshot_folder(text: str) -> tuple[Path, Path | None]:
    """The folder for snapshots, made now (a folder that cannot be made is refused before the
    camera runs), and the outermost folder this made (None: it was there), taken away again at
    the end if no snapshot went into it."""
    folder = Path(text)
    made = next((p for p in reversed((folder, *folder.parents)) if not os.path.lexists(p)), None)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise VisionError(f"--snapshots {text!r}: cannot make that folder ({exc.strerror or exc})") from None
    return folder, made


def _unmake_if_empty(folder: Path | None, made: Path) -> None:
    """The folders _snapshot_folder made, from ``folder`` out to ``made``, where nothing went in."""
    place = folder
    while place is not None:
        try:
            place.rmdir()
        except OSError:
            return  # a snapshot is in it
        place = None if place == made else place.parent


def _recording(text: str, source: str) -> tuple[Path, Path]:
    """(the video asked for, the file it is written to until the run ends: files.part_of); the
    video being tracked is never written over."""
    target = Path(text)
    if not target.name or not target.suffix or target.is_dir() or not target.parent.is_dir():
        raise VisionError(f"--record {text!r}: give a video file name (.mp4) in a folder that exists")
    source_file = Path(source)
    if source_file.is_file() and target.exists() and target.samefile(source_file):
        raise VisionError(f"--record {text!r} is the video being tracked: record to another file")
    return target, part_of(target)


def _recorder(part: Path, text: str, first: Any, fps: float) -> Any:
    h, w = first.shape[:2]
    writer = cv2.VideoWriter(str(part), cv2.VideoWriter.fourcc(*"mp4v"), fps or 30.0, (w, h))
    if not writer.isOpened():
        raise VisionError(f"cannot write the video {text!r}")
    return writer


def _finish_recording(target: Path, part: Path, *, kept: bool) -> None:
    if not kept:
        discard(part)
        return
    try:
        move_over(part, target)
    except OSError as exc:
        raise VisionError(f"cannot write the video {str(target)!r}: {exc.strerror or exc}") from None


def _save(folder: Path, name: str, image: Any) -> str:
    path = folder / name
    if not cv2.imwrite(str(path), image):
        raise VisionError(f"cannot write the snapshot {str(path)!r}")
    return str(path)
