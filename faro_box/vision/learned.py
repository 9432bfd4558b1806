"""The learned index reader: a small convolutional network, shipped as ONNX, run by cv2.dnn.

The network (training/train_reader.py) looks at an index patch (vision/index_patch.py) and gives
rank logits (13 ranks, then "no readable index"), suit logits and a unit embedding. Generic
reading uses the logits; an enrolled deck (vision/learned_deck.py) reads by its own prototypes
in the embedding, so glyphs the network never saw still read once enrolled. The shipped file is
several such networks, trained alike from different seeds and corpora, joined
(training/ensemble.py): their probabilities are read as the mean, their embeddings side by side.
It ships in two files, its first member alone and the others joined, so that a generic reading
can ask the first member and the others only where it is not enough (IndexNet.probabilities):
where it is all but certain of a card the glyph templates also name; an enrolled deck's
prototypes need them all.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
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
# The shipped ensemble, split (training/ensemble.py --split): its first member, and the others joined.
FIRST_FILE = "data/index_net_first.onnx"
REST_FILE = "data/index_net_rest.onnx"
# The ensemble's first member alone names a card where every corner names it at this probability
# or more, rank and suit, and the glyph templates name the same card (vision.reader): two readers
# agree. Trained with label smoothing (0.05), a member says at most about 0.95 of anything: this
# is near its ceiling, above the ensemble's own bar (GENERIC in learned_reader).
SETTLED = 0.9


@dataclass(frozen=True, slots=True)
class NetOutput:
    rank: np.ndarray  # (n, 14) probabilities, the last column "no readable index"
    suit: np.ndarray  # (n, 4) probabilities, in SUITS order
    embedding: np.ndarray  # (n, EMBED) unit vectors


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _load(onnx: bytes, source: str) -> tuple[cv2.dnn.Net, int]:
    """The network in cv2.dnn, and how many joined networks' embeddings its output holds."""
    try:
        net = cv2.dnn.readNetFromONNX(np.frombuffer(onnx, np.uint8))
    except cv2.error as exc:
        raise VisionError(f"{source!r} is not an index network OpenCV can load: {exc.msg.strip()}") from None
    probe = _run(net, np.zeros((1, 3, 64, 64), np.float32))
    members, extra = divmod(probe.shape[1] - RANK_CLASSES - 4, EMBED)
    if probe.shape[0] != 1 or members < 1 or extra:
        raise VisionError(f"{source!r} gives outputs of shape {probe.shape!r}, "
                          f"not (1, {RANK_CLASSES + 4} + {EMBED} per joined network)")
    return net, members


def _run(net: cv2.dnn.Net, x: np.ndarray) -> np.ndarray:
    net.setInput(x)
    return np.asarray(net.forward(), np.float32).reshape(len(x), -1)


def _output(out: np.ndarray, embed: int) -> NetOutput:
    r0, r1 = OUTPUTS["rank_logits"]
    s0, s1 = OUTPUTS["suit_logits"]
    e0 = OUTPUTS["embedding"][0]
    return NetOutput(_softmax(out[:, r0:r1]), _softmax(out[:, s0:s1]), out[:, e0:e0 + embed])


def settled(out: NetOutput, at: float = SETTLED) -> tuple[int, int] | None:
    """The (rank, suit) score indices every patch of ``out`` names at probability ``at`` or more,
    rank and suit each; None where a patch names another, shows no index, or falls short.

    >>> import numpy as np
    >>> queen = np.zeros((2, RANK_CLASSES)); queen[:, 11] = (0.95, 0.93)
    >>> hearts = np.array([[0.01, 0.95, 0.02, 0.02], [0.02, 0.93, 0.03, 0.02]])
    >>> settled(NetOutput(queen, hearts, np.zeros((2, EMBED))))
    (11, 1)
    >>> hearts[1] = (0.4, 0.6, 0.0, 0.0)
    >>> settled(NetOutput(queen, hearts, np.zeros((2, EMBED)))) is None
    True
    """
    ranks, suits = out.rank.argmax(axis=1), out.suit.argmax(axis=1)
    if (ranks == NO_INDEX).any() or len(set(ranks.tolist())) != 1 or len(set(suits.tolist())) != 1:
        return None
    if out.rank.max(axis=1).min() < at or out.suit.max(axis=1).min() < at:
        return None
    return int(ranks[0]), int(suits[0])


class IndexNet:
    """An index network in cv2.dnn (no PyTorch at run time): one trained network, several joined
    into one file (training/ensemble.py), or an ensemble split in two: ``onnx`` one network, its
    first member, and ``rest`` the others joined, which read as the whole ensemble together."""

    def __init__(self, onnx: bytes, *, source: str = "<bytes>", rest: bytes | None = None,
                 rest_source: str = "<bytes>") -> None:
        self._first, members = _load(onnx, source)
        self._rest = None
        self._weights = (1.0, 0.0)  # of the first's and the rest's probabilities in the whole's
        if rest is not None:
            if members != 1:
                raise VisionError(f"{source!r} joins {members} networks: the first of a split ensemble is one")
            self._rest, others = _load(rest, rest_source)
            members += others
            self._weights = (1.0 / members, others / members)
        self.embed = members * EMBED  # an ensemble joins its members' embeddings
        # An enrolled deck's prototypes live in one network's embedding: a profile names it by this.
        self.fingerprint = hashlib.sha256(onnx + (rest or b"")).hexdigest()[:16]

    def __call__(self, patches: np.ndarray) -> NetOutput:
        """``patches``: (n, PATCH, PATCH, 3) uint8 BGR; every member's reading and embedding."""
        return self.run_prepared(prepare(patches))

    def run_prepared(self, x: np.ndarray) -> NetOutput:
        """``x``: patches as ``prepare`` gives them, (n, 3, PATCH, PATCH) float32."""
        x = np.ascontiguousarray(x, np.float32)
        first = self._first_output(x)
        return first if self._rest is None else self._whole(first, x)

    def probabilities(self, patches: np.ndarray, enough: Callable[[NetOutput], bool]) -> NetOutput:
        """The reading of ``patches`` for the generic heads: of a split ensemble, its first
        member's where ``enough`` says that one alone will do, else the whole ensemble's (the
        first member's work not done again). Where the first member's alone, its embedding is
        that member's: no deck's prototypes apply to it."""
        x = np.ascontiguousarray(prepare(patches), np.float32)
        first = self._first_output(x)
        if self._rest is None or enough(first):
            return first
        return self._whole(first, x)

    def _first_output(self, x: np.ndarray) -> NetOutput:
        """The first file's output: the whole network, or a split ensemble's first member."""
        return _output(_run(self._first, x), self.embed if self._rest is None else EMBED)

    def _whole(self, first: NetOutput, x: np.ndarray) -> NetOutput:
        """The split ensemble's reading as the joined file gives it: the members' mean
        probabilities, and their unit embeddings side by side scaled to a unit vector."""
        assert self._rest is not None
        w1, w2 = self._weights
        rest = _output(_run(self._rest, x), self.embed - EMBED)
        embedding = np.concatenate([first.embedding * np.sqrt(w1), rest.embedding * np.sqrt(w2)], axis=1)
        return NetOutput(w1 * first.rank + w2 * rest.rank, w1 * first.suit + w2 * rest.suit, embedding)


@lru_cache(maxsize=1)
def shipped_net() -> IndexNet:
    """The network shipped with the package (trained by training/train_reader.py, joined and
    split by training/ensemble.py: data/index_net.json says how)."""
    data = resources.files("faro_box.vision")
    return IndexNet(data.joinpath(FIRST_FILE).read_bytes(), source="shipped index network's first member",
                    rest=data.joinpath(REST_FILE).read_bytes(), rest_source="shipped index network's other members")
