"""The synthetic corpus of index patches the learned reader trains on.

Each sample is a card face drawn with a random index style (a TrueType font from the system's
font packages or a Hershey font, English A J Q K, Russian Т В Д К, French A V D R, glyph 6-17% of
the card's height, anywhere near the corner, pip under it), court art and pips from the
project's renderer, then cut as an index patch through a random perspective and spoiled with
blur, noise, colour casts, glare, shadows, occluders and JPEG. Negatives (class NONE) are patches
without a readable index: elsewhere on the face, the table, a corner without an index, or an
index mostly covered.
"""

from __future__ import annotations

import glob
import math
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from faro_box.cards import FULL_DECK, Card, Colour, Rank, Suit
from faro_box.vision.index_patch import PATCH
from faro_box.vision.sim.render import CardStyle, IndexKind, PipShape, draw_pip, glyph_mask, render_card
from faro_box.vision.sim.synth import busy_background, light_background

W, H = 200, 280  # faces are drawn at the canonical size
NONE = 13  # the rank class "no readable index"
SUIT_NONE = -1  # no suit to learn (NONE patches, rank-only labels)

FONT_GLOBS = ("/usr/share/fonts/truetype/**/*.ttf", "/usr/share/fonts/opentype/**/*.otf")
HERSHEY = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX,
           cv2.FONT_HERSHEY_PLAIN)
LETTERS = {
    "english": {Rank.ACE: "A", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"},
    "russian": {Rank.ACE: "Т", Rank.JACK: "В", Rank.QUEEN: "Д", Rank.KING: "К"},
    "french": {Rank.ACE: "A", Rank.JACK: "V", Rank.QUEEN: "D", Rank.KING: "R"},
}
SUIT_CHARS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
# Bumped whenever a change to this module changes the patches a seed draws: a cached corpus
# names its version, so a run never trains on patches of another corpus.
VERSION = 3


def pip_shape(rng: np.random.Generator) -> PipShape:
    """A deck's suit pips: real decks' clubs and spades differ far more than one drawn shape."""
    if rng.random() < 0.2:
        return PipShape()
    return PipShape(
        lobe=float(rng.uniform(0.3, 0.42)), lobe_spread=float(rng.uniform(0.4, 0.52)),
        lobe_rise=float(rng.uniform(0.45, 0.58)), stem_foot=float(rng.uniform(0.14, 0.38)),
        spade_foot=float(rng.uniform(0.14, 0.38)), stem_waist=float(rng.uniform(0.0, 0.08)),
        flare=float(rng.uniform(1.0, 3.0)), spade_width=float(rng.uniform(0.72, 0.95)),
        heart_width=float(rng.uniform(0.85, 1.1)), diamond_width=float(rng.uniform(0.58, 0.82)),
        diamond_bow=float(rng.uniform(-0.12, 0.12)))


def _bgr(values: np.ndarray) -> tuple[int, int, int]:
    return int(values[0]), int(values[1]), int(values[2])


def fonts() -> list[str]:
    found = sorted({p for g in FONT_GLOBS for p in glob.glob(g, recursive=True)})
    # Symbol-only and math fonts draw no usable letters.
    return [p for p in found if "Math" not in p and "Symbol" not in p]


def draws_suits(font_path: str) -> bool:
    """Whether the font has glyphs of its own for the four suits (not the missing-glyph box)."""
    font = ImageFont.truetype(font_path, 48)
    missing = font.getmask("\U0010fffd")
    return all(bytes(font.getmask(c)) != bytes(missing) for c in SUIT_CHARS.values())


@dataclass
class Sample:
    patch: np.ndarray  # PATCH×PATCH×3 uint8 BGR
    rank: int  # 0..12 (index into Rank order), NONE
    suit: int  # 0..3 (index into Suit order), SUIT_NONE


def _text_mask(text: str, font_path: str | None, hershey: int, bold: float) -> np.ndarray:
    """A tight float mask of ``text``: TrueType via Pillow, or a Hershey font."""
    if font_path is None:
        return glyph_mask(text, hershey, bold)
    font = ImageFont.truetype(font_path, 96)
    box = font.getbbox(text, stroke_width=int(round(bold * 3)))
    img = Image.new("L", (int(box[2] - box[0]) + 8, int(box[3] - box[1]) + 8), 0)
    ImageDraw.Draw(img).text((4 - box[0], 4 - box[1]), text, fill=255, font=font, stroke_width=int(round(bold * 3)),
                             stroke_fill=255)
    a = np.asarray(img)
    ys, xs = np.nonzero(a > 40)
    if len(xs) == 0:
        raise ValueError(f"{font_path} drew nothing for {text!r}")
    return a[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1].astype(np.float32) / 255.0


def _paste(img: np.ndarray, mask: np.ndarray, x0: int, y0: int, w: int, h: int, colour: tuple[int, int, int]) -> None:
    h_img, w_img = img.shape[:2]
    w, h = max(2, w), max(2, h)
    m = cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA)
    if x0 < 0 or y0 < 0:
        m = m[max(0, -y0):, max(0, -x0):]
        x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(w_img, x0 + m.shape[1]), min(h_img, y0 + m.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    m = m[: y1 - y0, : x1 - x0, None]
    region = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = (region * (1 - m) + np.array(colour, np.float32) * m).astype(np.uint8)


class Corpus:
    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.fonts = fonts()
        self.suit_fonts = {f for f in self.fonts if draws_suits(f)}
        self._masks: dict[tuple, np.ndarray] = {}

    def _mask(self, text: str, font: str | None, hershey: int, bold: float) -> np.ndarray:
        key = (text, font, hershey, round(bold, 1))
        if key not in self._masks:
            self._masks[key] = _text_mask(text, font, hershey, round(bold, 1))
        return self._masks[key]

    def _style(self) -> tuple[CardStyle, dict]:
        r = self.rng
        paper = _bgr(np.clip(r.normal([238, 242, 245], 8), 200, 255))
        if r.random() < 0.3:  # cream or yellowed stock
            paper = (int(r.integers(190, 225)), int(r.integers(225, 245)), int(r.integers(235, 255)))
        red = (int(r.integers(10, 90)), int(r.integers(10, 70)), int(r.integers(140, 230)))
        black = _bgr(r.integers(0, 60, 3))
        if r.random() < 0.15:  # navy "black"
            black = (int(r.integers(80, 140)), int(r.integers(20, 60)), int(r.integers(0, 40)))
        frame = _bgr(r.integers(0, 255, 3))
        table = _bgr(r.integers(0, 255, 3))
        style = CardStyle(index=IndexKind.NONE, red=red, black=black, paper=paper, court_frame=frame, table=table,
                          pips=pip_shape(r), pip_scale=float(r.uniform(0.85, 1.3)))
        kind = str(r.choice(["english", "english", "english", "russian", "french"]))
        font = None if r.random() < 0.15 else str(r.choice(self.fonts))
        spec = {
            "kind": kind, "font": font, "hershey": int(r.choice(HERSHEY)), "bold": float(r.uniform(0.6, 1.6)),
            "glyph": float(r.uniform(0.06, 0.17)),  # rank glyph height / card height
            "x0": float(r.uniform(0.02, 0.09)), "y0": float(r.uniform(0.02, 0.07)),
            "aspect": float(r.uniform(0.55, 1.15)),  # squeeze of the glyph's width
            "ten_squeeze": float(r.uniform(0.5, 1.0)),
            "pip": float(r.uniform(0.45, 0.95)),  # pip height / glyph height
            "gap": float(r.uniform(0.05, 0.4)),
            "pip_font": r.random() < 0.35, "pip_align": float(r.uniform(-0.3, 0.3)),
        }
        return style, spec

    def face(self, card: Card, style: CardStyle, spec: dict, *, with_index: bool = True) -> np.ndarray:
        img = render_card(card, style=style, width=W, height=H)
        if not with_index:
            return img
        ink = style.ink(card.colour)
        text = LETTERS[spec["kind"]].get(card.rank, str(int(card.rank)))
        font = spec["font"]
        mask = self._mask(text, font, spec["hershey"], spec["bold"])
        gh = max(6, round(spec["glyph"] * H))
        gw = round(gh * mask.shape[1] / mask.shape[0] * spec["aspect"])
        if len(text) > 1:
            gw = round(gw * spec["ten_squeeze"])
        x0, y0 = round(spec["x0"] * W), round(spec["y0"] * H)
        # Paper under the index, as printers leave it.
        cv2.rectangle(img, (x0 - 2, y0 - 2), (x0 + max(gw, gh) + 3, y0 + round(gh * (1.2 + spec["gap"] + spec["pip"]))),
                      style.paper, -1)
        _paste(img, mask, x0, y0, gw, gh, ink)
        ph = gh * spec["pip"]
        cx = x0 + gw / 2 + spec["pip_align"] * gw
        cy = y0 + gh * (1 + spec["gap"]) + ph / 2
        if spec["pip_font"] and font is not None and font in self.suit_fonts:
            pm = self._mask(SUIT_CHARS[card.suit], font, 0, 0.0)
            pw = round(ph * pm.shape[1] / pm.shape[0])
            _paste(img, pm, round(cx - pw / 2), round(cy - ph / 2), pw, round(ph), ink)
        else:
            draw_pip(img, card.suit, (cx, cy), ph, ink, shape=style.pips)
        return img

    def _scene(self, face: np.ndarray) -> tuple[np.ndarray, int]:
        """The face on a table with a margin all round (patches may reach past the card)."""
        m = W // 2
        r = self.rng
        bg = busy_background(W + 2 * m, H + 2 * m, r) if r.random() < 0.5 else light_background(W + 2 * m, H + 2 * m, r)
        if r.random() < 0.3:
            bg = np.full_like(bg, r.integers(0, 80))  # dark cloth, the feeder's shadow
        from faro_box.vision.sim.render import card_mask
        alpha = card_mask(W, H)[..., None].astype(np.float32) / 255
        region = bg[m: m + H, m: m + W].astype(np.float32)
        bg[m: m + H, m: m + W] = (region * (1 - alpha) + face.astype(np.float32) * alpha).astype(np.uint8)
        return bg, m

    def _cut(self, scene: np.ndarray, m: int, x: float, y: float, side: float) -> np.ndarray:
        """A patch of the square (x, y, side) in face pixels, through a jittered perspective."""
        r = self.rng
        src = np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]], np.float32) + m
        src += r.normal(0, 0.035 * side, src.shape).astype(np.float32)
        a = math.radians(r.normal(0, 3.0))
        c = src.mean(axis=0)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], np.float32)
        src = (src - c) @ rot.T + c
        dst = np.array([[0, 0], [PATCH, 0], [PATCH, PATCH], [0, PATCH]], np.float32)
        # Drawn at twice the size and reduced: the area-averaging the reader's resize does.
        big = cv2.warpPerspective(scene, cv2.getPerspectiveTransform(src, dst * 2), (2 * PATCH, 2 * PATCH),
                                  flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        return cv2.resize(big, (PATCH, PATCH), interpolation=cv2.INTER_AREA)

    def _index_window(self, spec: dict, card: Card) -> tuple[float, float, float]:
        r = self.rng
        gh = spec["glyph"] * H
        extent = gh * (1.0 + spec["gap"] + spec["pip"]) + 4
        width = max(gh, gh * 0.9) + 4
        # The glyph 10-26 px tall in the patch: the reader's own windows give 12-28.
        g_p = r.uniform(10, 26)
        side = max(gh / g_p * PATCH, extent * 1.08, width * 1.08)
        ix, iy = spec["x0"] * W, spec["y0"] * H
        slack_x, slack_y = max(0.0, side - width), max(0.0, side - extent)
        # Mostly the index near the window's top-left, as the face window has it; sometimes
        # anywhere inside, as a corner close-up has it.
        if r.random() < 0.6:
            x = ix - r.uniform(0.0, min(slack_x, 0.35 * side) + 1e-3)
            y = iy - r.uniform(0.0, min(slack_y, 0.25 * side) + 1e-3)
        else:
            x = ix - r.uniform(0.0, slack_x + 1e-3)
            y = iy - r.uniform(0.0, slack_y + 1e-3)
        return x, y, side

    def sample(self) -> Sample:
        r = self.rng
        card = FULL_DECK[int(r.integers(52))]
        style, spec = self._style()
        kind = r.random()
        if kind < 0.77:  # a readable index
            scene, m = self._scene(self.face(card, style, spec))
            patch = self._cut(scene, m, *self._index_window(spec, card))
            patch = self._spoil(patch, occlude_index=False)
            return Sample(patch, list(Rank).index(card.rank), list(Suit).index(card.suit))
        if kind < 0.84:  # the index mostly covered: a thumb or the box's lip over it
            scene, m = self._scene(self.face(card, style, spec))
            patch = self._cut(scene, m, *self._index_window(spec, card))
            return Sample(self._spoil(self._cover(patch, heavy=True), occlude_index=False), NONE, SUIT_NONE)
        if kind < 0.9:  # the index alone under a thumb, the pips beside it in view: no index
            face = self._thumb_on_index(self.face(card, style, spec), spec)
            scene, m = self._scene(face)
            patch = self._cut(scene, m, *self._index_window(spec, card))
            return Sample(self._spoil(patch, occlude_index=False), NONE, SUIT_NONE)
        # Elsewhere: the face's middle (pips, court art), a corner without an index, the table.
        scene, m = self._scene(self.face(card, style, spec, with_index=r.random() < 0.5))
        side = r.uniform(0.3, 0.7) * W
        where = r.random()
        if where < 0.5:
            x, y = r.uniform(0.15, 0.85) * W - side / 2, r.uniform(0.15, 0.85) * H - side / 2
        elif where < 0.75:
            x, y = r.uniform(-0.5, 0.0) * side - W // 2 * r.random(), r.uniform(-0.5, 0.0) * side
            if r.random() < 0.5:  # the table only
                x, y = -m + r.uniform(0, m - side / 2) if side < m else -m, r.uniform(-m, H)
        else:
            x, y = W - side * r.uniform(0.5, 1.0), r.uniform(0, 0.2) * H  # the index-less top-right
        patch = self._spoil(self._cut(scene, m, x, y, side), occlude_index=False)
        return Sample(patch, NONE, SUIT_NONE)

    def _thumb_on_index(self, face: np.ndarray, spec: dict) -> np.ndarray:
        """The face with its top-left index wholly hidden, from the card's edge in, and no more."""
        r = self.rng
        gh = spec["glyph"] * H
        x1 = spec["x0"] * W + 1.35 * gh * max(1.0, spec["aspect"]) + 5 + r.uniform(0, 0.12) * W
        y1 = spec["y0"] * H + gh * (1.2 + spec["gap"] + spec["pip"]) + 5 + r.uniform(0, 0.08) * H
        colour = tuple(int(v) for v in (r.integers(90, 170), r.integers(120, 190), r.integers(170, 240)))
        if r.random() < 0.4:
            colour = tuple(int(v) for v in r.integers(30, 220, 3))
        out = face.copy()
        if r.random() < 0.5:
            cv2.rectangle(out, (-5, -5), (round(x1), round(y1)), colour, -1)
        else:  # a thumb's round end, reaching in from the corner
            cv2.ellipse(out, (0, 0), (round(1.25 * x1), round(1.25 * y1)), 0.0, 0, 360, colour, -1, cv2.LINE_AA)
        return out

    def _cover(self, patch: np.ndarray, *, heavy: bool) -> np.ndarray:
        r = self.rng
        out = patch.copy()
        colour = tuple(int(v) for v in (r.integers(90, 170), r.integers(120, 190), r.integers(170, 240)))
        if r.random() < 0.4:
            colour = tuple(int(v) for v in r.integers(60, 200, 3))  # a metal lip, a sleeve
        cover = r.uniform(0.6, 0.9) if heavy else r.uniform(0.0, 0.25)
        if r.random() < 0.5:  # from the left or the top, over the index
            if r.random() < 0.5:
                cv2.rectangle(out, (0, 0), (round(cover * PATCH), PATCH), colour, -1)
            else:
                cv2.rectangle(out, (0, 0), (PATCH, round(cover * PATCH)), colour, -1)
        else:
            cv2.ellipse(out, (round(r.uniform(0.2, 0.5) * PATCH), round(r.uniform(0.2, 0.6) * PATCH)),
                        (round(cover * PATCH * 0.8), round(cover * PATCH)), float(r.uniform(0, 180)), 0, 360,
                        colour, -1, cv2.LINE_AA)
        return out

    def _spoil(self, patch: np.ndarray, *, occlude_index: bool) -> np.ndarray:
        r = self.rng
        img: np.ndarray = patch.astype(np.float32)
        # A camera's colour cast (a Pi camera's blue, a lamp's orange) and exposure.
        img *= np.array([r.uniform(0.65, 1.35), r.uniform(0.8, 1.2), r.uniform(0.65, 1.35)], np.float32)
        img *= r.uniform(0.45, 1.25)
        if r.random() < 0.4:  # light falling off across the patch
            gx, gy = r.normal(0, 0.3, 2)
            yy, xx = np.mgrid[0:PATCH, 0:PATCH].astype(np.float32) / PATCH - 0.5
            img *= np.clip(1 + gx * xx + gy * yy, 0.3, 1.7)[..., None]
        if r.random() < 0.25:  # glare: a soft bright blob
            cx, cy = r.uniform(0, PATCH, 2)
            s = r.uniform(6, 30)
            yy, xx = np.mgrid[0:PATCH, 0:PATCH].astype(np.float32)
            blob: np.ndarray = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * s * s))
            img += (r.uniform(60, 220) * blob)[..., None]
        if r.random() < 0.3:  # a strip or a thumb at the edge, off the index
            img = self._edge_occluder(img)
        img = np.clip(img, 0, 255)
        if r.random() < 0.7:
            img = cv2.GaussianBlur(img, (0, 0), r.uniform(0.3, 1.6))
        if r.random() < 0.15:  # motion blur
            k = int(r.integers(3, 7))
            kernel: np.ndarray = np.zeros((k, k), np.float32)
            kernel[k // 2, :] = 1.0 / k
            rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(r.uniform(0, 180)), 1.0)
            kernel = cv2.warpAffine(kernel, rot, (k, k))
            img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
        img += r.normal(0, r.uniform(0, 9), img.shape).astype(np.float32)
        out: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
        if r.random() < 0.6:
            ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(r.integers(25, 95))])
            out = np.asarray(cv2.imdecode(enc, cv2.IMREAD_COLOR))
        return out

    def _edge_occluder(self, img: np.ndarray) -> np.ndarray:
        r = self.rng
        out = np.ascontiguousarray(img)
        colour = tuple(float(v) for v in r.integers(40, 220, 3))
        w = round(r.uniform(0.08, 0.25) * PATCH)
        if r.random() < 0.5:
            cv2.rectangle(out, (PATCH - w, 0), (PATCH, PATCH), colour, -1)  # the feeder's roller
        else:
            cv2.rectangle(out, (0, PATCH - w), (PATCH, PATCH), colour, -1)
        return out


def colour_of(suit: int) -> Colour:
    return list(Suit)[suit].colour
