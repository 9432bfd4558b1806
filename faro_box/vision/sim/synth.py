"""Nuisances for synthetic frames: a card placed in a scene, perspective, blur, noise, light, a thumb.

Each takes an explicit ``numpy.random.Generator`` where chance is involved, so a test or the
simulated dealing box replays the same frames from the same seed.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from faro_box.vision.sim.render import card_mask

Quad = np.ndarray  # 4×2 float32, clockwise from the card's top-left


def light_background(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """A pale table (white cloth, light wood): the case that defeats a plain threshold."""
    base = rng.integers(185, 235, 3).astype(np.float32)
    img = np.ones((height, width, 3), np.float32) * base
    img += rng.normal(0, 4, (height, width, 1)).astype(np.float32)
    ramp = np.linspace(-12, 12, width, dtype=np.float32)[None, :, None]
    return np.clip(img + ramp, 0, 255).astype(np.uint8)


def dark_background(width: int, height: int, rng: np.random.Generator, level: int = 40) -> np.ndarray:
    """A plain dark table (felt, dark wood in low light) of grey ``level``, a little noisy: a
    card on it is the one bright thing in view, so what a test finds there is the card's shape.

    >>> table = dark_background(64, 48, np.random.default_rng(0), level=30)
    >>> table.shape, 25 < float(table.mean()) < 35
    ((48, 64, 3), True)
    """
    img = np.full((height, width, 3), level, np.float32) + rng.normal(0, 3, (height, width, 1))
    return np.clip(img, 0, 255).astype(np.uint8)


def busy_background(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """Carpet-like texture with strong random shapes, lines and text-like marks."""
    small = rng.integers(40, 220, (height // 8 + 1, width // 8 + 1, 3)).astype(np.uint8)
    img = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    img = cv2.add(img, rng.integers(0, 50, (height, width, 3)).astype(np.uint8))
    for _ in range(12):
        colour = tuple(int(c) for c in rng.integers(0, 255, 3))
        p1 = (int(rng.integers(0, width)), int(rng.integers(0, height)))
        p2 = (int(rng.integers(0, width)), int(rng.integers(0, height)))
        if rng.random() < 0.5:
            cv2.line(img, p1, p2, colour, int(rng.integers(1, 6)), cv2.LINE_AA)
        else:
            cv2.circle(img, p1, int(rng.integers(5, 40)), colour, -1, cv2.LINE_AA)
    return img


def card_quad(width: int, height: int, card_height: float, angle_deg: float,
              centre: tuple[float, float], tilt: float = 0.0,
              rng: np.random.Generator | None = None) -> Quad:
    """Where a card lands in a frame: size, rotation, centre, and a perspective tilt (0..0.3)."""
    ch, cw = card_height, card_height / 1.4
    pts = np.array([[-cw / 2, -ch / 2], [cw / 2, -ch / 2], [cw / 2, ch / 2], [-cw / 2, ch / 2]], np.float32)
    if tilt and rng is not None:
        pts += rng.uniform(-tilt, tilt, pts.shape).astype(np.float32) * cw
    a = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    return (pts @ rot.T + np.array(centre, np.float32)).astype(np.float32)


def place_card(scene: np.ndarray, face: np.ndarray, quad: Sequence[Sequence[float]] | Quad,
               *, shadow: bool = True) -> np.ndarray:
    """``face`` warped onto ``quad`` of a copy of ``scene`` (corners outside the card stay scene)."""
    h, w = face.shape[:2]
    src = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    dst = np.asarray(quad, np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    size = (scene.shape[1], scene.shape[0])
    warped = cv2.warpPerspective(face, m, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(card_mask(w, h), m, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    out: np.ndarray = scene.astype(np.float32)
    if shadow:
        blurred = cv2.GaussianBlur(alpha, (0, 0), 3)
        shade = np.roll(blurred, (3, 3), axis=(0, 1))
        out = out * (1 - 0.35 * shade)[..., None]
    out = out * (1 - alpha[..., None]) + warped.astype(np.float32) * alpha[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def blur(img: np.ndarray, sigma: float) -> np.ndarray:
    return cv2.GaussianBlur(img, (0, 0), sigma) if sigma > 0 else img.copy()


def noise(img: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    return np.clip(img.astype(np.float32) + rng.normal(0, sigma, img.shape), 0, 255).astype(np.uint8)


def soft_camera(img: np.ndarray, scale: float, rng: np.random.Generator) -> np.ndarray:
    """``img`` as a small, soft camera sees it (an OV7670's 128-pixel frames): shrunk by
    ``scale``, out of focus, noisy and saved as a rough JPEG."""
    small = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    _, jpeg = cv2.imencode(".jpg", noise(blur(small, 2.0), 3.0, rng), [cv2.IMWRITE_JPEG_QUALITY, 70])
    seen = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    assert seen is not None  # a JPEG OpenCV itself just wrote
    return seen


def lighting(img: np.ndarray, *, gain: float = 1.0, gradient: float = 0.0,
             tint: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> np.ndarray:
    """Dimmer or brighter light, a left-to-right fall-off, and a coloured cast (B, G, R gains)."""
    h, w = img.shape[:2]
    ramp = 1.0 - gradient * np.linspace(0, 1, w, dtype=np.float32)[None, :, None]
    out = img.astype(np.float32) * gain * ramp * np.array(tint, np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def occlude(img: np.ndarray, box: tuple[float, float, float, float],
            colour: tuple[int, int, int] = (120, 150, 200), *, ellipse: bool = True) -> np.ndarray:
    """Cover a box given as fractions (x0, y0, x1, y1) of the image: a thumb (ellipse) or a strip."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = (round(v * s) for v, s in zip(box, (w, h, w, h), strict=True))
    out = img.copy()
    if ellipse:
        cv2.ellipse(out, ((x0 + x1) // 2, (y0 + y1) // 2), (max(1, (x1 - x0) // 2), max(1, (y1 - y0) // 2)),
                    0, 0, 360, colour, -1, cv2.LINE_AA)
    else:
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, -1)
    return out


# A Raspberry Pi camera's white under warm room light, as (B, G, R) gains: paper comes out
# bluish, at a saturation of about 150 of 255.
PI_CAMERA_CAST = (1.2, 0.95, 0.45)


def glare(img: np.ndarray, quad: Sequence[Sequence[float]] | Quad, rng: np.random.Generator,
          strength: float = 1.0) -> np.ndarray:
    """A lamp's reflection on a glossy card: a bright blob somewhere on ``quad``, burnt out (255)
    at its heart and fading to the card's own look at its rim."""
    q = np.asarray(quad, np.float32)
    u, v = float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8))
    top, bottom = q[0] + u * (q[1] - q[0]), q[3] + u * (q[2] - q[3])
    cx, cy = (top + v * (bottom - top)).tolist()
    size = 0.25 * float(np.linalg.norm(q[1] - q[0]))
    h, w = img.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    a, b, t = size * float(rng.uniform(0.8, 1.6)), size * float(rng.uniform(0.5, 1.0)), float(rng.uniform(0, np.pi))
    dx, dy = xs - cx, ys - cy
    r2 = ((dx * np.cos(t) + dy * np.sin(t)) / a) ** 2 + ((-dx * np.sin(t) + dy * np.cos(t)) / b) ** 2
    on_card = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(on_card, np.round(q).astype(np.int32), 1, cv2.LINE_AA)
    light = strength * 400.0 * np.exp(-r2) * on_card  # the table is matte: only the card shines
    return np.clip(img.astype(np.float32) + light[..., None], 0, 255).astype(np.uint8)
