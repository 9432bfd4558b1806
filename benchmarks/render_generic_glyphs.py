"""Render the glyph atlas the generic deck profile is built from (build time only: needs Pillow).

    python benchmarks/render_generic_glyphs.py     # writes faro_box/vision/data/generic_glyphs.npz
    python benchmarks/build_generic_profile.py     # then the profile from that atlas

Rank glyphs (A 2..10 J Q K) come from free TrueType/OpenType faces close to the indices that
printers use (condensed bold serifs, narrow sans faces); suit pips from the faces that carry the
card suit characters. Each glyph is cut to its ink and stored at a fixed height, so the package
itself never needs Pillow or the fonts: it composes corner indices from this atlas (see
faro_box/vision/generic.py). No photograph of a real deck goes into it.

Install the faces on Debian with
    apt-get install fonts-dejavu-core fonts-liberation fonts-freefont-ttf fonts-urw-base35 \
        fonts-crosextra-caladea fonts-crosextra-carlito fonts-noto-core
A face that is missing stops the run (the atlas would silently change otherwise).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from faro_box.cards import Rank, Suit
from faro_box.vision.generic import ATLAS_H, ATLAS_W, GLYPH_ATLAS

FONT_DIRS = (Path("/usr/share/fonts"), Path.home() / ".fonts", Path.home() / ".local/share/fonts")

RANK_FACES = (
    "DejaVuSerifCondensed-Bold.ttf", "DejaVuSerifCondensed.ttf", "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSansCondensed.ttf", "DejaVuSerif-Bold.ttf",
    "LiberationSerif-Bold.ttf", "LiberationSerif-Regular.ttf", "LiberationSansNarrow-Bold.ttf",
    "LiberationSansNarrow-Regular.ttf", "LiberationSans-Bold.ttf",
    "NimbusRoman-Bold.otf", "NimbusRoman-Regular.otf", "NimbusSansNarrow-Bold.otf", "NimbusSansNarrow-Regular.otf",
    "C059-Bold.otf", "C059-Roman.otf", "P052-Bold.otf", "URWBookman-Demi.otf", "URWGothic-Demi.otf",
    "FreeSerifBold.ttf", "FreeSerif.ttf", "FreeSansBold.ttf",
    "Caladea-Bold.ttf", "Carlito-Bold.ttf", "NotoSerif-Bold.ttf", "NotoSerif-Regular.ttf", "NotoSans-Bold.ttf",
)
SUIT_FACES = (
    "DejaVuSans.ttf", "DejaVuSerif.ttf", "FreeSerif.ttf", "FreeSans.ttf",
    "NotoSansSymbols2-Regular.ttf",
)
# Many decks print a flat-topped 3 (the shape of the letter Ezh), which no digit face draws.
FLAT_TOPPED_THREE = "\u01b7"
SUIT_CHARS = {Suit.SPADES: "\u2660", Suit.HEARTS: "\u2665", Suit.DIAMONDS: "\u2666", Suit.CLUBS: "\u2663"}


def find_face(name: str) -> Path:
    for d in FONT_DIRS:
        hits = sorted(d.rglob(name)) if d.is_dir() else []
        if hits:
            return hits[0]
    raise SystemExit(f"font {name!r} not found: install the Debian font packages listed in this script")


def _draw(face: Path, text: str) -> np.ndarray:
    font = ImageFont.truetype(str(face), 160)
    img = Image.new("L", (400, 300), 0)
    ImageDraw.Draw(img).text((40, 40), text, font=font, fill=255)
    return np.asarray(img)


def has_glyph(face: Path, text: str) -> bool:
    """Whether ``face`` draws ``text`` itself rather than its missing-glyph box (or nothing)."""
    a = _draw(face, text)
    return bool((a > 40).any()) and not np.array_equal(a, _draw(face, "\ue000"))


def glyph(face: Path, text: str) -> np.ndarray:
    """``text`` in ``face``, cut to its ink, scaled to ATLAS_H rows, left-aligned in ATLAS_W columns."""
    a = _draw(face, text)
    ys, xs = np.nonzero(a > 40)
    if not len(ys):
        raise SystemExit(f"{face.name} draws nothing for {text!r}")
    a = a[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    w = max(1, round(a.shape[1] * ATLAS_H / a.shape[0]))
    if w > ATLAS_W:
        raise SystemExit(f"{face.name} {text!r} is too wide for the atlas ({w} > {ATLAS_W})")
    small = np.asarray(Image.fromarray(a).resize((w, ATLAS_H), Image.Resampling.LANCZOS))
    out = np.zeros((ATLAS_H, ATLAS_W), np.uint8)
    out[:, :w] = small
    return out


def main() -> int:
    ranks, rank_labels, rank_widths, rank_faces = [], [], [], []
    for i, name in enumerate(RANK_FACES):
        face = find_face(name)
        texts = [(rank, rank.symbol) for rank in Rank]
        if has_glyph(face, FLAT_TOPPED_THREE):
            texts.append((Rank.THREE, FLAT_TOPPED_THREE))
        for rank, text in texts:
            g = glyph(face, text)
            ranks.append(g)
            rank_labels.append(int(rank))
            rank_widths.append(int((g > 0).any(axis=0).nonzero()[0].max()) + 1)
            rank_faces.append(i)
    suits, suit_labels, suit_widths = [], [], []
    for name in SUIT_FACES:
        face = find_face(name)
        for k, suit in enumerate(Suit):
            g = glyph(face, SUIT_CHARS[suit])
            suits.append(g)
            suit_labels.append(k)
            suit_widths.append(int((g > 0).any(axis=0).nonzero()[0].max()) + 1)
    out = Path(__file__).resolve().parents[1] / "faro_box" / "vision" / "data" / GLYPH_ATLAS
    np.savez_compressed(out, ranks=np.array(ranks), rank_labels=np.array(rank_labels, np.int64),
                        rank_widths=np.array(rank_widths, np.int64), rank_faces=np.array(rank_faces, np.int64),
                        suits=np.array(suits), suit_labels=np.array(suit_labels, np.int64),
                        suit_widths=np.array(suit_widths, np.int64),
                        faces=np.array([*RANK_FACES]), suit_faces=np.array([*SUIT_FACES]))
    print(f"wrote {out.name}: {len(ranks)} rank glyphs from {len(RANK_FACES)} faces, "
          f"{len(suits)} suit pips from {len(SUIT_FACES)} faces")
    return 0


if __name__ == "__main__":
    sys.exit(main())
