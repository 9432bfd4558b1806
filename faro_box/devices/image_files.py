"""Image files read with their size checked first: a picture's header states its width and
height, and an image too large to decode is refused from the header, before a byte of pixels is
allocated (a 20000x20000 PNG decodes to 1.2 GB of pixels). A file cut short is refused too: OpenCV
decodes a truncated JPEG's missing rows as grey and says nothing.

Pillow reads the header only (``Image.open`` is lazy); OpenCV decodes the pixels, as before.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

from faro_box.errors import VisionError

# A 12-megapixel camera still (4056x3040) and a 48-megapixel phone photo (8000x6000) pass.
MAX_SIDE = 16_384
MAX_PIXELS = 50_000_000
_LIMIT = f"at most {MAX_SIDE} pixels a side and {MAX_PIXELS // 1_000_000} megapixels"
_JPEG_END = b"\xff\xd9"


def check_size(width: int, height: int, name: str) -> None:
    if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
        raise VisionError(f"{name!r} is {width}x{height} pixels, too large to read: images of {_LIMIT} are read")


def read_image(path: str | Path) -> np.ndarray:
    """The BGR pixels of an image file, or VisionError naming the file and what is wrong."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise VisionError(f"cannot read the image {name!r}: {exc.strerror or exc}") from None
    _check_header(data, name)
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:
        image = None
    if image is None:
        raise VisionError(f"{name!r} is not an image OpenCV can read")
    return image


def _check_header(data: bytes, name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # our own limit is lower
        try:
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
                kind = image.format
        except Image.DecompressionBombError:
            raise VisionError(f"{name!r} is far too large to read: images of {_LIMIT} are read") from None
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
            raise VisionError(f"{name!r} is not an image file (no picture header)") from None
    check_size(width, height, name)
    if kind == "JPEG" and not data.rstrip(b"\x00").endswith(_JPEG_END):
        raise VisionError(f"{name!r} is a JPEG cut short (no end-of-image marker): the file is damaged")
    if kind == "PNG":
        try:
            with Image.open(io.BytesIO(data)) as image:
                image.verify()  # every chunk's checksum, without decoding
        except (OSError, ValueError, SyntaxError) as exc:
            raise VisionError(f"{name!r} is a damaged PNG: {exc}") from None

