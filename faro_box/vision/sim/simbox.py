"""A simulated dealing box: deterministic 640×480 video of a faro deal, with its ground truth.

The deck lies face up in the box; the camera looks down through the box's window at the top
card. The dealer's hand comes in from the right, rests its thumb on the card, slides it off
(motion blur), and the next card shows. Nuisances, scaled by ``nuisance`` (0..1): the hand and
its shadow, a thumb that rests on the card, hands that hover and leave, passing shadows,
lighting drift, camera shake, sensor noise. Everything follows from ``seed``: ``frame(n)`` is
random access and the same on every machine, so tests and benchmarks can replay a deal.

``truth(n)`` says which card lies on top at frame ``n`` and whether it is clean there (at rest,
nothing over the window); ``expected()`` lists the events a perfect tracker emits, each with
the first clean frame of the view that should cause it.
"""

from __future__ import annotations

import bisect
import enum
import functools
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from faro_box.cards import DECK_SIZE, FULL_DECK, Card
from faro_box.vision.sim.render import CardStyle, card_mask, render_card

WIDTH, HEIGHT = 640, 480
FPS = 30
EMPTY = DECK_SIZE  # the "card index" of the empty box's floor
_PAD = 4  # the canvas is this much larger on each side, so camera shake never shows an edge
_CARD_W, _CARD_H = 172, 240
_FIELD_SCALE = 8  # light, shadows and the hand's shadow are computed at 1/8 resolution
_EXPOSURE = 0.88
_OFF = WIDTH + 60.0  # the thumb's x when the hand is out of the picture
PAUSE_FRAMES = FPS  # a dealer stopping mid-slide for a second
HURRIED_FRAMES = 3  # a hurried dealer's thumb on the card before it pushes (under the tracker's settle time)
_COARSE_LIGHT = 128  # fine=False: light in 1/128 steps (uint8 arithmetic)


class Expect(enum.Enum):
    CARD = "card"
    RETURNED = "returned"
    EMPTY = "empty"


@dataclass(frozen=True, slots=True)
class FrameTruth:
    frame: int
    index: int  # deck index of the card on top (EMPTY once the hock is gone)
    card: Card | None
    clean: bool  # at rest, fully visible: no hand, no moving card over the window


@dataclass(frozen=True, slots=True)
class Expected:
    kind: Expect
    index: int
    card: Card | None
    frame: int  # first clean frame of the view that should cause the event


_Ellipse = tuple[float, float, float, float, float]  # centre x, y, half axes, angle (degrees)


@dataclass(frozen=True, slots=True)
class _Step:
    base: int  # deck index of the card at rest in the window
    mover: int  # deck index of a card being slid off or put back, or -1
    dx: float  # the mover's shift to the right, pixels
    hx: float  # the thumb tip; x >= _OFF means no hand
    hy: float


class SimBox:
    """A faro deal in a dealing box, as a camera over it would film it.

    ``deck``: the 52 cards in the order they leave the box (shuffled from ``seed`` if None);
    ``cards``: how many cards get exposed (52 = a whole deal, ending with the hock taken out
    and the box empty); ``slips``: indices of cards the dealer slides off, then puts back on
    the box, then slides off again; ``still``: the range of frames a card rests in view;
    ``pace`` (0..1]: the share of the frames the hand's moves take (a brisk dealer: fewer
    frames to draw, every move still filmed); ``fine``: camera shake by fractions of a pixel
    and light in floating point (False: whole pixels and 1/128 steps of light, cheaper to draw);
    ``pause``: where the dealer stops each slide a second (PAUSE_FRAMES), the thumb on the card,
    as a share of its travel (None: never), the card beneath part uncovered. ``hurried``:
    indices of cards the dealer pushes on at once, his thumb on each from the moment the card
    above clears the window, for HURRIED_FRAMES: a card never seen in full view.
    """

    def __init__(self, deck: Sequence[Card] | None = None, *, seed: int = 0, nuisance: float = 0.5,
                 cards: int = DECK_SIZE, slips: Iterable[int] = (), still: tuple[int, int] = (8, 24),
                 style: CardStyle | None = None, pace: float = 1.0, fine: bool = True,
                 pause: float | None = None, hurried: Iterable[int] = ()) -> None:
        if not 0.0 <= nuisance <= 1.0:
            raise ValueError(f"nuisance must be 0..1, not {nuisance!r}")
        if not 1 <= cards <= DECK_SIZE:
            raise ValueError(f"cards must be 1..{DECK_SIZE}, not {cards!r}")
        if not 3 <= still[0] <= still[1]:
            raise ValueError(f"still must be a range (low, high) with 3 <= low <= high, not {still!r}")
        if not 0.0 < pace <= 1.0:
            raise ValueError(f"pace must be in (0, 1], not {pace!r}")
        if pause is not None and not 0.0 < pause < 1.0:
            raise ValueError(f"pause must be a share of the slide in (0, 1), not {pause!r}")
        self.pause = pause
        self.pace = pace
        self.fine = fine
        self.seed = seed
        self.nuisance = nuisance
        self.cards = cards
        self.style = style
        rng = np.random.default_rng([seed, 0x5EED])
        self.deck: tuple[Card, ...] = tuple(deck) if deck is not None else tuple(
            FULL_DECK[i] for i in rng.permutation(DECK_SIZE))
        if len(self.deck) != DECK_SIZE or len(set(self.deck)) != DECK_SIZE:
            raise ValueError(f"a deck must hold the 52 cards once each, not {len(self.deck)} cards")
        self.slips = frozenset(slips)
        bad = sorted(i for i in self.slips if not 0 <= i < cards - 1)
        if bad:
            raise ValueError(f"slips {bad!r} are outside 0..{cards - 2}: a slip needs a card beneath")
        self.hurried = frozenset(hurried)
        bad = sorted(i for i in self.hurried if not 1 <= i < cards - 1 or i in self.slips or i - 1 in self.slips)
        if bad:
            raise ValueError(f"hurried {bad!r}: a hurried card lies between two others (1..{cards - 2}), "
                             "and is not slipped nor dealt after a slip")
        self.window = self._place_window(rng)
        self._win_xmax = float(self.window[:, 0].max())
        self._win_x0 = int(math.floor(self.window[:, 0].min()))
        self._card_span = self._win_xmax - float(self.window[:, 0].min())
        self._grip_y = float(self.window[:, 1].mean()) + 40.0
        self._light = self._light_params(rng)
        self._shadows = self._passing_shadows(rng)
        self._shadow_starts = [shadow[0] for shadow in self._shadows]  # ascending
        self._skin = tuple(float(c) for c in rng.choice([(120, 150, 205), (95, 125, 180), (140, 170, 215),
                                                          (70, 95, 140)]))
        self._noise = self._noise_bank(rng)
        self._canvas = self._draw_scene(rng)
        self._steps: list[_Step] = []
        self._expected: list[Expected] = []
        self._build(rng, still)
        self._clean = np.array([self._is_clean(s) for s in self._steps], bool)
        self._fill_expected_frames()
        self._seated: dict[int, np.ndarray] = {}
        self._layers: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    # ---- the public face -------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._steps)

    def __iter__(self) -> Iterator[np.ndarray]:
        return (self.frame(n) for n in range(len(self)))

    def truth(self, n: int) -> FrameTruth:
        step = self._steps[self._check(n)]
        card = None if step.base == EMPTY else self.deck[step.base]
        return FrameTruth(n, step.base, card, bool(self._clean[n]))

    def expected(self) -> tuple[Expected, ...]:
        return tuple(self._expected)

    def frame(self, n: int) -> np.ndarray:
        """Frame ``n`` as the camera delivers it: BGR uint8, 480×640×3."""
        step = self._steps[self._check(n)]
        rng = np.random.default_rng([self.seed, n])
        canvas = self._canvas.copy()
        self._paste_seated(canvas, step.base)
        if step.mover >= 0:
            speed = abs(step.dx - self._steps[n - 1].dx) if n > 0 else 0.0
            self._paste_mover(canvas, step.mover, step.dx, speed)
        if step.hx < _OFF:
            self._draw_hand(canvas, step.hx, step.hy)
        field = self._light_field(n, step)
        if self.fine:
            lit = cv2.multiply(canvas, field, dtype=cv2.CV_8U)
        else:
            lit = cv2.multiply(canvas, field, scale=1 / _COARSE_LIGHT, dtype=cv2.CV_8U)
        return self._shake_and_noise(lit, n, rng)

    # ---- the deal, step by step --------------------------------------------------------------

    def _build(self, rng: np.random.Generator, still: tuple[int, int]) -> None:
        level = self.nuisance
        last = self.cards - 1
        self._exposed(Expect.CARD, 0)
        for i in range(self.cards):
            if i in self.hurried:
                self._hurry(i, i + 1, rng)
                self._exposed(Expect.CARD, i + 1)
                continue
            self._rest(i, rng, still, hover=rng.random() < 0.35 * level)
            if i in self.slips:
                self._deal_off(i, i + 1, rng)
                self._exposed(Expect.CARD, i + 1)
                self._rest(i + 1, rng, still, hover=False)
                self._put_back(i, i + 1, rng)
                self._exposed(Expect.RETURNED, i)
                self._rest(i, rng, still, hover=False)
            if i < last:
                self._deal_off(i, i + 1, rng)
                self._exposed(Expect.CARD, i + 1)
        if self.cards == DECK_SIZE:
            self._deal_off(DECK_SIZE - 1, EMPTY, rng)
            self._exposed(Expect.EMPTY, EMPTY)
            self._rest(EMPTY, rng, (still[1], still[1]), hover=False)

    def _exposed(self, kind: Expect, index: int) -> None:
        card = self.deck[index] if index < DECK_SIZE else None
        self._expected.append(Expected(kind, index, card, len(self._steps)))  # frame fixed later

    def _rest(self, base: int, rng: np.random.Generator, still: tuple[int, int], *, hover: bool) -> None:
        frames = int(rng.integers(still[0], still[1] + 1))
        if hover:  # a hand comes over the card and goes away: the same card, not a new one
            split = frames // 2
            self._steps += [_Step(base, -1, 0.0, _OFF, 0.0)] * split
            depth = float(rng.uniform(25, 70))
            y = self._grip_y + float(rng.uniform(-80, 30))
            self._move_hand(base, _OFF, self._win_xmax - depth, y, self._brisk(rng.integers(3, 7)))
            self._steps += [_Step(base, -1, 0.0, self._win_xmax - depth, y)] * self._brisk(rng.integers(0, 10), 0)
            self._move_hand(base, self._win_xmax - depth, _OFF, y, self._brisk(rng.integers(3, 6)))
            frames -= split
        self._steps += [_Step(base, -1, 0.0, _OFF, 0.0)] * frames

    def _move_hand(self, base: int, x0: float, x1: float, y: float, frames: int) -> None:
        for k in range(1, frames + 1):
            self._steps.append(_Step(base, -1, 0.0, x0 + (x1 - x0) * _ease(k / frames), y))

    def _deal_off(self, top: int, beneath: int, rng: np.random.Generator) -> None:
        grip = self._win_xmax - float(rng.uniform(30, 50))
        y = self._grip_y + float(rng.uniform(-40, 40))
        self._move_hand(top, _OFF, grip, y, self._brisk(rng.integers(4, 8)))
        # The thumb rests on the card before it pushes: still, but the card is not clean.
        rest = int(rng.integers(0, 12)) if rng.random() < 0.6 * self.nuisance + 0.2 else 0
        self._steps += [_Step(top, -1, 0.0, grip, y)] * self._brisk(rest, 0)
        slide = self._brisk(rng.integers(5, 10), 2)
        travel = self._card_span + 90.0
        before = 0.0
        for k in range(1, slide + 1):
            dx = travel * _ease(k / slide)
            self._steps.append(_Step(beneath, top, dx, grip + dx, y))
            if self.pause is not None and before < self.pause * travel <= dx:
                self._steps += [_Step(beneath, top, dx, grip + dx, y)] * PAUSE_FRAMES  # the first step past it
            before = dx
        for k in range(1, 3):  # the hand carries the card away
            self._steps.append(_Step(beneath, top, travel + 60.0 * k, grip + travel + 60.0 * k, y))
        if beneath in self.hurried:
            # The hurried dealer's thumb is back on the box before the card beneath lies clear.
            while self._steps[-1].mover >= 0 and self._is_clean(self._steps[-1]):
                self._steps.pop()

    def _hurry(self, top: int, beneath: int, rng: np.random.Generator) -> None:
        """``top`` pushed off as soon as it shows: the thumb lands on it at once, rests a moment
        and pushes (_deal_off without the hand's approach over a card lying in full view)."""
        grip = self._win_xmax - float(rng.uniform(30, 50))
        y = self._grip_y + float(rng.uniform(-40, 40))
        self._steps += [_Step(top, -1, 0.0, grip, y)] * HURRIED_FRAMES
        slide = self._brisk(rng.integers(5, 10), 2)
        travel = self._card_span + 90.0
        for k in range(1, slide + 1):
            dx = travel * _ease(k / slide)
            self._steps.append(_Step(beneath, top, dx, grip + dx, y))
        for k in range(1, 3):
            self._steps.append(_Step(beneath, top, travel + 60.0 * k, grip + travel + 60.0 * k, y))
        if beneath in self.hurried:
            while self._steps[-1].mover >= 0 and self._is_clean(self._steps[-1]):
                self._steps.pop()

    def _put_back(self, card: int, beneath: int, rng: np.random.Generator) -> None:
        grip = self._win_xmax - 40.0
        y = self._grip_y
        travel = self._card_span + 90.0
        slide = self._brisk(rng.integers(6, 10), 2)
        for k in range(slide + 1):
            dx = travel * (1.0 - _ease(k / slide))
            self._steps.append(_Step(beneath, card, dx, grip + dx, y))
        self._move_hand(card, grip, _OFF, y, self._brisk(rng.integers(4, 7)))

    def _brisk(self, frames: int | np.integer, least: int = 1) -> int:
        """A move of ``frames`` frames at the dealer's pace (at least ``least``)."""
        frames = int(frames)
        return frames if self.pace == 1.0 else max(least, round(frames * self.pace))

    def _is_clean(self, step: _Step) -> bool:
        if step.hx - 4.0 <= self._win_xmax:
            return False
        return step.mover < 0 or self._win_x0 + step.dx - 24.0 > self._win_xmax

    def _fill_expected_frames(self) -> None:
        """Each expected event happens at the first clean frame from where it was announced."""
        filled = []
        for exp in self._expected:
            n = exp.frame
            base = self._steps[min(n, len(self._steps) - 1)].base
            while n > 0 and self._clean[n - 1] and self._steps[n - 1].base == base:
                n -= 1  # the hand carrying the card away was already clear of the window
            while n < len(self._steps) and not self._clean[n]:
                n += 1
            filled.append(Expected(exp.kind, exp.index, exp.card, n))
        self._expected = filled

    # ---- drawing -------------------------------------------------------------------------------

    def _place_window(self, rng: np.random.Generator) -> np.ndarray:
        cx = WIDTH / 2 - 20 + float(rng.uniform(-15, 15))
        cy = HEIGHT / 2 + float(rng.uniform(-10, 10))
        keystone = float(rng.uniform(0, 6))
        angle = math.radians(float(rng.uniform(-2, 2)))
        w, h = _CARD_W / 2, _CARD_H / 2
        pts = np.array([[-w + keystone, -h], [w - keystone, -h], [w, h], [-w, h]])
        rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
        return (pts @ rot.T + [cx, cy]).astype(np.float32)

    def _draw_scene(self, rng: np.random.Generator) -> np.ndarray:
        """The table and the empty box, on the padded canvas (card pasted per frame)."""
        ch, cw = HEIGHT + 2 * _PAD, WIDTH + 2 * _PAD
        felt = np.array([35, 85, 30], np.float32) + rng.normal(0, 6, (ch // 16 + 1, cw // 16 + 1, 1))
        canvas = cv2.resize(felt.astype(np.float32), (cw, ch), interpolation=cv2.INTER_CUBIC)
        canvas = np.clip(canvas + rng.normal(0, 3, (ch, cw, 1)), 0, 255).astype(np.uint8)
        win = self.window + _PAD
        centre = win.mean(axis=0)
        body = centre + (win - centre) * np.array([1.28, 1.2])
        cv2.fillConvexPoly(canvas, np.round(body + [6, 8]).astype(np.int32), (20, 50, 18), cv2.LINE_AA)
        cv2.fillConvexPoly(canvas, np.round(body).astype(np.int32), (168, 170, 176), cv2.LINE_AA)
        cv2.polylines(canvas, [np.round(body).astype(np.int32)], True, (110, 112, 118), 3, cv2.LINE_AA)
        lip = centre + (win - centre) * 1.03
        cv2.fillConvexPoly(canvas, np.round(lip).astype(np.int32), (60, 62, 66), cv2.LINE_AA)
        floor = np.zeros(canvas.shape[:2], np.uint8)
        cv2.fillConvexPoly(floor, np.round(win).astype(np.int32), 255, cv2.LINE_AA)
        wood = np.array([45, 70, 100], np.float32) + rng.normal(0, 8, (ch, 1, 1)).astype(np.float32)
        wood = np.broadcast_to(wood, canvas.shape)
        a = floor[..., None].astype(np.float32) / 255
        return (canvas * (1 - a) + wood * a).astype(np.uint8)

    def _face(self, index: int) -> np.ndarray:
        """The upright face of the card at deck ``index``, _CARD_W×_CARD_H (PhotoBox: a photo's)."""
        return render_card(self.deck[index], style=self.style, width=_CARD_W, height=_CARD_H)

    def _card_layer(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """The card's face warped onto the window, premultiplied by its alpha, over the window's
        bounding box (float32 crops): a moving card shifts these."""
        if index not in self._layers:
            if len(self._layers) > 4:
                self._layers.clear()
            face = self._face(index)
            x0, y0, x1, y1 = self._bbox()
            src = np.array([[0, 0], [_CARD_W - 1, 0], [_CARD_W - 1, _CARD_H - 1], [0, _CARD_H - 1]], np.float32)
            dst = (self.window + np.array([_PAD - x0, _PAD - y0], np.float32)).astype(np.float32)
            m = cv2.getPerspectiveTransform(src, dst)
            size = (x1 - x0, y1 - y0)
            warped = cv2.warpPerspective(face, m, size, flags=cv2.INTER_AREA).astype(np.float32)
            alpha = cv2.warpPerspective(card_mask(_CARD_W, _CARD_H), m, size).astype(np.float32) / 255
            self._layers[index] = (warped * alpha[..., None], alpha)
        return self._layers[index]

    @functools.cached_property
    def _box_xy(self) -> tuple[int, int, int, int]:
        win = self.window + _PAD
        x0, y0 = np.floor(win.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(win.max(axis=0)).astype(int) + 2
        return int(x0), int(y0), int(x1), int(y1)

    def _bbox(self) -> tuple[int, int, int, int]:
        return self._box_xy

    def _paste_seated(self, canvas: np.ndarray, index: int) -> None:
        if index == EMPTY:
            return
        x0, y0, x1, y1 = self._bbox()
        if index not in self._seated:
            if len(self._seated) > 8:
                self._seated.clear()
            premult, alpha = self._card_layer(index)
            under = canvas[y0:y1, x0:x1].astype(np.float32)
            self._seated[index] = (under * (1 - alpha[..., None]) + premult).astype(np.uint8)
        canvas[y0:y1, x0:x1] = self._seated[index]

    def _paste_mover(self, canvas: np.ndarray, index: int, dx: float, speed: float) -> None:
        premult, alpha = self._card_layer(index)
        streak = int(round(speed * (0.25 + 0.5 * self.nuisance)))
        if streak > 1:  # motion blur: the shutter is open while the card travels
            pad = ((0, 0), (streak, streak))
            alpha = cv2.blur(np.pad(alpha, pad), (streak, 1))
            premult = cv2.blur(np.pad(premult, (*pad, (0, 0))), (streak, 1))
        else:
            streak = 0
        x0, y0, _, _ = self._bbox()
        left = x0 - streak + int(round(dx))
        h, w = alpha.shape
        cx0, cx1 = max(left, 0), min(left + w, canvas.shape[1])
        if cx1 <= cx0:
            return
        a = alpha[:, cx0 - left: cx1 - left, None]
        region = canvas[y0:y0 + h, cx0:cx1].astype(np.float32)
        canvas[y0:y0 + h, cx0:cx1] = np.clip(region * (1 - a) + premult[:, cx0 - left: cx1 - left], 0, 255)

    @staticmethod
    def _hand(hx: float, hy: float, scale: float) -> tuple[np.ndarray, list[_Ellipse]]:
        """The sleeve (a polygon) and the palm and thumb (ellipses) of a hand whose thumb tip is
        at (hx, hy), scaled by ``scale``."""
        sleeve = np.array([[hx + 125, hy - 10], [WIDTH + 80, hy - 40], [WIDTH + 80, hy + 150], [hx + 120, hy + 85]])
        ellipses = [((hx + 92) * scale, (hy + 30) * scale, 60 * scale, 46 * scale, 20.0),
                    ((hx + 30) * scale, (hy + 2) * scale, 31 * scale, 12 * scale, -8.0)]
        return np.round(sleeve * scale).astype(np.int32), ellipses

    def _draw_hand(self, canvas: np.ndarray, hx: float, hy: float) -> None:
        sleeve, ellipses = self._hand(hx + _PAD, hy + _PAD, 1.0)
        cv2.fillConvexPoly(canvas, sleeve, (45, 38, 50), cv2.LINE_AA)
        for x, y, ax, ay, angle in ellipses:
            cv2.ellipse(canvas, (round(x), round(y)), (round(ax), round(ay)), angle, 0, 360, self._skin, -1,
                        cv2.LINE_AA)

    # ---- light, shake, noise ------------------------------------------------------------------------

    def _light_params(self, rng: np.random.Generator) -> np.ndarray:
        # amplitude, period (frames), phase for gain and for two gradients
        amp = 0.12 * self.nuisance
        return np.array([[amp * rng.uniform(0.5, 1), rng.uniform(300, 900), rng.uniform(0, 2 * math.pi)]
                         for _ in range(3)])

    def _passing_shadows(self, rng: np.random.Generator) -> list[tuple[float, float, float, float, float, float]]:
        """(start frame, duration, y, direction, strength, size): people leaning over the table."""
        shadows = []
        n = 0.0
        while n < 200_000 and self.nuisance > 0:
            n += float(rng.uniform(200, 900) / max(self.nuisance, 0.05))
            shadows.append((n, float(rng.uniform(80, 200)), float(rng.uniform(0.2, 0.8)),
                            float(rng.choice([-1.0, 1.0])), 0.3 * self.nuisance * float(rng.uniform(0.5, 1)),
                            float(rng.uniform(8, 14))))
        return shadows

    def _light_field(self, n: int, step: _Step) -> np.ndarray:
        fh, fw = (HEIGHT + 2 * _PAD) // _FIELD_SCALE, (WIDTH + 2 * _PAD) // _FIELD_SCALE
        waves = [a * math.sin(2 * math.pi * n / p + ph) for a, p, ph in self._light]
        ys, xs = _field_grid(fh, fw)
        # The camera exposes for the scene: paper sits a little under white, so drift never clips it.
        field = _EXPOSURE * (1.0 + waves[0]) * (1.0 + waves[1] * (xs / fw - 0.5) * 2 + waves[2] * (ys / fh - 0.5) * 2)
        # Shadows start in order and last at most 200 frames: only those starting since n - 200 may pass.
        first, last = bisect.bisect_left(self._shadow_starts, n - 200), bisect.bisect_right(self._shadow_starts, n)
        for start, duration, y, direction, strength, size in self._shadows[first:last]:
            if start <= n < start + duration:
                t = (n - start) / duration
                sx = (t if direction > 0 else 1 - t) * (fw + 4 * size) - 2 * size
                blob = np.exp(-((xs - sx) ** 2 + (ys - y * fh) ** 2) / (2 * size * size))
                field *= 1.0 - strength * blob
        if step.hx < _OFF:  # the hand's shadow falls down and to the right of it
            mask = np.zeros((fh, fw), np.float32)
            sleeve, ellipses = self._hand(step.hx + _PAD + 12, step.hy + _PAD + 16, 1.0 / _FIELD_SCALE)
            cv2.fillConvexPoly(mask, sleeve, 1.0)
            for x, y, ax, ay, angle in ellipses:
                cv2.ellipse(mask, (round(x), round(y)), (max(1, round(ax)), max(1, round(ay))), angle, 0, 360, 1.0, -1)
            field *= 1.0 - (0.15 + 0.3 * self.nuisance) * cv2.GaussianBlur(mask, (0, 0), 1.2)
        # Three channels before the resize: the same numbers as resizing one and merging three.
        small = cv2.merge([field.astype(np.float32)] * 3)
        if not self.fine:
            small = np.clip(np.round(small * _COARSE_LIGHT), 0, 255).astype(np.uint8)
        return cv2.resize(small, (WIDTH + 2 * _PAD, HEIGHT + 2 * _PAD), interpolation=cv2.INTER_LINEAR)

    def _noise_bank(self, rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray]]:
        """Tiles of sensor noise, each as its positive and its negative part: two saturating
        uint8 steps give the same pixels as one signed addition, at a fraction of the cost."""
        sigma = 1.0 + 7.0 * self.nuisance
        tiles = [np.round(rng.normal(0, sigma, (HEIGHT + 16, WIDTH + 16, 3))) for _ in range(3)]
        return [(np.clip(t, 0, 255).astype(np.uint8), np.clip(-t, 0, 255).astype(np.uint8)) for t in tiles]

    def _shake_and_noise(self, lit: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
        amp = 2.0 * self.nuisance
        sx = amp * (0.6 * math.sin(n / 7.3 + self.seed) + 0.4 * float(rng.uniform(-1, 1)))
        sy = amp * (0.6 * math.sin(n / 5.1 + 2 * self.seed) + 0.4 * float(rng.uniform(-1, 1)))
        if not self.fine:
            sx, sy = round(sx), round(sy)
        ix, iy = math.floor(sx), math.floor(sy)
        fx, fy = sx - ix, sy - iy

        def crop(dx: int, dy: int) -> np.ndarray:
            return lit[_PAD + iy + dy: _PAD + iy + dy + HEIGHT, _PAD + ix + dx: _PAD + ix + dx + WIDTH]

        if fx == 0 and fy == 0:
            shaken = crop(0, 0)
        else:
            # A sub-pixel shift as a bilinear blend of the four neighbouring whole-pixel crops.
            top = cv2.addWeighted(crop(0, 0), 1 - fx, crop(1, 0), fx, 0)
            bottom = cv2.addWeighted(crop(0, 1), 1 - fx, crop(1, 1), fx, 0)
            shaken = cv2.addWeighted(top, 1 - fy, bottom, fy, 0)
        up, down = self._noise[int(rng.integers(len(self._noise)))]
        ox, oy = int(rng.integers(0, 16)), int(rng.integers(0, 16))
        out: np.ndarray = cv2.subtract(cv2.add(shaken, up[oy:oy + HEIGHT, ox:ox + WIDTH]),
                                       down[oy:oy + HEIGHT, ox:ox + WIDTH])
        return out

    def _check(self, n: int) -> int:
        if not 0 <= n < len(self._steps):
            raise IndexError(f"frame {n!r} is outside this deal's 0..{len(self._steps) - 1}")
        return n


@functools.cache
def _field_grid(h: int, w: int) -> np.ndarray:
    grid: np.ndarray = np.mgrid[0:h, 0:w].astype(np.float32)
    grid.flags.writeable = False
    return grid


def _ease(t: float) -> float:
    """Smooth start and stop, as a hand moves."""
    return t * t * (3.0 - 2.0 * t)
