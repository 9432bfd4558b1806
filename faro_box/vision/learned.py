"""The learned index reader: a small convolutional network, shipped as ONNX, run by cv2.dnn.

The network (training/train_reader.py) looks at an index patch (vision/index_patch.py) and gives
rank logits (13 ranks, then "no readable index"), suit logits and a unit embedding. Generic
reading uses the logits; an enrolled deck (vision/learned_deck.py) reads by its own prototypes
in the embedding, so glyphs the network never saw still read once enrolled. The shipped file is
several such networks, trained alike from different seeds and corpora, joined into one
(training/ensemble.py): its probabilities are their mean, and its embedding theirs side by side.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import cv2
import numpy as np

from faro_box.errors import VisionError
from faro_box.vision.index_patch import prepare

EMBED = 64  # the embedding enrolment builds its deck's prototypes in
RANK_CLASSES = 14  # 13 ranks, then "no readable index"
NO_INDEX = RANK_CLASSES - 1
OUTPUTS = {"rank_logits": [0, RANK_CLASSES], "suit_logits": [RANK_CLASSES, RANK_CLASSES + 4],
           "embedding": [RANK_CLASSES + 4, RANK_CLASSES + 4 + EMBED]}
MODEL_FILE = "data/index_net.onnx"


@dataclass(frozen=True, slots=True)
class NetOutput:
    rank: np.ndarray  # (n, 14) probabilities, the last column "no readable index"
    suit: np.ndarray  # (n, 4) probabilities, in SUITS order
    embedding: np.ndarray  # (n, EMBED) unit vectors


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


class IndexNet:
    """The ONNX network in cv2.dnn (no PyTorch at run time)."""

    def __init__(self, onnx: bytes, *, source: str = "<bytes>") -> None:
        try:
            self._net = cv2.dnn.readNetFromONNX(np.frombuffer(onnx, np.uint8))
        except cv2.error as exc:
            raise VisionError(f"{source!r} is not an index network OpenCV can load: {exc.msg.strip()}") from None
        probe = self._run(np.zeros((1, 3, 64, 64), np.float32))
        members, extra = divmod(probe.shape[1] - RANK_CLASSES - 4, EMBED)
        if probe.shape[0] != 1 or members < 1 or extra:
            raise VisionError(f"{source!r} gives outputs of shape {probe.shape!r}, "
                              f"not (1, {RANK_CLASSES + 4} + {EMBED} per joined network)")
        self.embed = members * EMBED  # an ensemble (training/ensemble.py) joins its members' embeddings
        # An enrolled deck's prototypes live in one network's embedding: a profile names it by this.
        self.fingerprint = hashlib.sha256(onnx).hexdigest()[:16]

    def _run(self, x: np.ndarray) -> np.ndarray:
        self._net.setInput(x)
        return np.asarray(self._net.forward(), np.float32).reshape(len(x), -1)

    def __call__(self, patches: np.ndarray) -> NetOutput:
        """``patches``: (n, PATCH, PATCH, 3) uint8 BGR."""
        return self.run_prepared(prepare(patches))

    def run_prepared(self, x: np.ndarray) -> NetOutput:
        """``x``: patches as ``prepare`` gives them, (n, 3, PATCH, PATCH) float32."""
        out = self._run(np.ascontiguousarray(x, np.float32))
        r0, r1 = OUTPUTS["rank_logits"]
        s0, s1 = OUTPUTS["suit_logits"]
        e0 = OUTPUTS["embedding"][0]
        return NetOutput(_softmax(out[:, r0:r1]), _softmax(out[:, s0:s1]), out[:, e0:e0 + self.embed])


@lru_cache(maxsize=1)
def shipped_net() -> IndexNet:
    """The network shipped with the package (built by training/train_reader.py)."""
    data = resources.files("faro_box.vision").joinpath(MODEL_FILE).read_bytes()
    return IndexNet(data, source="shipped index network")
