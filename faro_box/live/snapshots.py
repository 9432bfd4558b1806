"""The camera's picture of a card the reader would not name, kept for the dealer's page."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from faro_box.errors import FaroBoxError

log = logging.getLogger(__name__)


def save_snapshot(folder: Path | None, write_image: Callable[[Path, Any], object] | None, name: str,
                  image: Any, what: str) -> str | None:
    """Write ``image`` as ``folder/name`` and give its address under ``/snapshots/``; None when the
    box keeps no snapshots or the picture could not be written (the question is asked all the same)."""
    if folder is None or write_image is None or image is None:
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_image(folder / name, image)
    except (OSError, FaroBoxError) as exc:
        log.warning("the snapshot of %s could not be saved: %s", what, exc)
        return None
    return f"/snapshots/{name}"
