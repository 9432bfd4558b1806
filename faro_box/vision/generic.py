"""The generic profile: English indices drawn in several fonts and stroke weights by our renderer.

No real deck was used to build it, so it favours no printer; the rank glyph features are
softened and size-normalised, which carries them across fonts (measured in the benchmark).
"""

from __future__ import annotations

import dataclasses

import cv2

from faro_box.cards import Card, Rank, Suit
from faro_box.vision.profile import DeckProfile, Sample, View, build_profile, sample_from_view
from faro_box.vision.render import ENGLISH, render_card

FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX_SMALL)
STROKES = (0.6, 1.0, 1.5)
# Printed reds run from scarlet to a faded pink; black ink reads near 0 (see glyphs._ink_colour).
GENERIC_RED_THRESHOLD = 0.15


def build_generic_profile() -> DeckProfile:
    suits = tuple(Suit)
    samples: list[Sample] = []
    for font in FONTS:
        for stroke in STROKES:
            style = dataclasses.replace(ENGLISH, font=font, stroke=stroke)
            for i, rank in enumerate(Rank):
                card = Card(rank, suits[i % 4])
                face = render_card(card, style=style, width=400, height=560)
                samples.append(sample_from_view(card, face, View.FACE))
    profile = build_profile(samples, name="generic", view=View.FACE)
    return dataclasses.replace(profile, red_threshold=GENERIC_RED_THRESHOLD,
                               face_feats=profile.face_feats[:0], face_labels=profile.face_labels[:0],
                               pip_feats=profile.pip_feats[:0])
