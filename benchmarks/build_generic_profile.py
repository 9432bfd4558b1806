"""Rebuild the generic deck profile shipped in faro_box/vision/data/generic.npz.

    python benchmarks/build_generic_profile.py

It composes corner indices from the shipped glyph atlas (data/generic_glyphs.npz, drawn from
typefaces by benchmarks/render_generic_glyphs.py) and our renderer's cards: numpy and OpenCV
only. Run it after changing the atlas, the renderer, the glyph features or the profile format;
the test ``test_the_shipped_generic_profile_is_what_the_builder_makes`` fails until you do.
"""

from __future__ import annotations

from pathlib import Path

from faro_box.vision.generic import build_generic_profile

OUT = Path(__file__).resolve().parents[1] / "faro_box" / "vision" / "data" / "generic.npz"

if __name__ == "__main__":
    profile = build_generic_profile()
    profile.save(OUT)
    print(f"wrote {OUT.name}: {len(profile.rank_labels)} rank and suit templates")
