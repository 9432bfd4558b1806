"""Rebuild the generic deck profile shipped in faro_box/vision/data/generic.npz.

    python benchmarks/build_generic_profile.py

It composes corner indices from the shipped glyph atlas (data/generic_glyphs.npz, drawn from
typefaces by benchmarks/render_generic_glyphs.py) and our renderer's cards: numpy and OpenCV
only. Run it after changing the atlas, the renderer, the glyph features or the profile format;
the test ``test_the_shipped_generic_profile_is_what_the_builder_makes`` fails until you do.
Beside the profile it writes data/generic.json: the command and the OpenCV and numpy it ran
under, since other OpenCV releases draw and resample a little differently.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from faro_box.vision.generic import build_generic_profile

DATA = Path(__file__).resolve().parents[1] / "faro_box" / "vision" / "data"
OUT, MADE = DATA / "generic.npz", DATA / "generic.json"

if __name__ == "__main__":
    profile = build_generic_profile()
    profile.save(OUT)
    made = {"command": "python benchmarks/build_generic_profile.py", "opencv": cv2.__version__,
            "numpy": np.__version__, "rank_templates": len(profile.rank_labels),
            "suit_templates": len(profile.suit_labels)}
    MADE.write_text(json.dumps(made, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {OUT.name}: {len(profile.rank_labels)} rank and {len(profile.suit_labels)} suit templates, "
          f"and {MADE.name} (OpenCV {cv2.__version__})")
