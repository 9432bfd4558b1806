"""The best template similarity per class, without reading every template for every glyph.

A profile composed from many typefaces holds over a thousand rank templates (1.8 MB): one
product with all of them per corner costs more than the rest of the corner, since the frame's own
work has pushed them out of the cache by then. The templates lie close to a few leading axes
(blurred glyphs), so their projections on those axes (a tenth of the bytes) give every
similarity up to a bound (Cauchy-Schwarz on the parts outside the axes). A template that cannot
reach what another of its class surely reaches cannot be its class's best; only the others (a
few dozen) are compared in full. The best per class is thus the full comparison's, except that a
few dot products are summed in another order (float32: the last bit may differ).
Small profiles (an enrolled deck) are compared in full, in one product.
"""

from __future__ import annotations

import math
import zlib

import numpy as np

_AXES = 48  # 99.3 % of the generic rank templates' energy: a few dozen of 1,163 are compared in full
_FULL_BELOW = 256  # fewer templates than this (an enrolled deck): compare them all, it is cheaper
_SLACK = 1e-4  # room for the float32 rounding of the projected products
_ROUNDING = 1e-3  # room for the rounding of the query's part outside the axes (|v|² - |p|²)


def similarity(feats: np.ndarray, v: np.ndarray, squares: np.ndarray) -> np.ndarray:
    """1 - ½·squared distance of ``v`` to each row of ``feats`` (``squares``: the rows' squared norms)."""
    d2 = squares + (v * v).sum(axis=0) - 2.0 * (feats @ v)
    return 1.0 - 0.5 * d2


def margin_confidence(best: float, runner_up: float, accept: tuple[float, float]) -> float:
    """0.5 exactly at the acceptance line, rising as the best template is both close (similarity
    over ``accept[0]``) and clearly closer than the runner-up (distance ratio over ``accept[1]``)."""
    s_min, ratio_min = accept
    d1, d2 = max(1.0 - best, 1e-3), max(1.0 - runner_up, 1e-3)
    a = (best - s_min) / max(1e-6, 1.0 - s_min) * 4.0
    b = math.log(d2 / d1) - math.log(ratio_min)
    # Clamped where the logistic is 0 or 1 to the last digit anyway (math.exp would overflow).
    return 1.0 / (1.0 + math.exp(min(-3.0 * min(a, b), 700.0)))


def pick(scores: np.ndarray, accept: tuple[float, float]) -> tuple[int, float]:
    """The best class and margin_confidence against the runner-up."""
    order = np.argsort(scores)[::-1]
    return int(order[0]), margin_confidence(float(scores[order[0]]), float(scores[order[1]]), accept)


class ClassTemplates:
    """Templates with class labels ``offset .. offset + classes - 1``."""

    def __init__(self, feats: np.ndarray, labels: np.ndarray, classes: int, offset: int) -> None:
        self.feats = feats
        self.squares = np.einsum("ij,ij->i", feats, feats)
        # Similarities gathered in class order: each class's best is then one slice's maximum
        # (numpy's maximum.at, one element at a time, cost more than the product on a small profile).
        self.order = np.argsort(labels, kind="stable")
        sorted_labels = labels[self.order] - offset
        # The classes that have templates (the others score -1): np.unique's own steps on the
        # sorted labels, without the import of numpy.ma that np.unique makes.
        first = np.empty(len(sorted_labels), bool)
        first[:1] = True
        np.not_equal(sorted_labels[1:], sorted_labels[:-1], out=first[1:])
        self.present = sorted_labels[first]
        self.starts = np.searchsorted(sorted_labels, self.present)
        self.classes = classes
        self._pruned = len(feats) >= _FULL_BELOW and feats.shape[1] > _AXES
        if self._pruned:
            self._half_squares = 0.5 * self.squares
            self._class_of = np.searchsorted(self.present, labels - offset)  # row -> position in present
            self._axes, self._projected, self._outside = _projection(feats)

    def best(self, queries: np.ndarray) -> np.ndarray:
        """(classes,) float32: per class, the best similarity of any template to any query row."""
        if self._pruned:
            best = self._pruned_best(queries[0])
            for v in queries[1:]:
                np.maximum(best, self._pruned_best(v), out=best)
        else:
            # One matrix-vector product per query: a product with two columns goes to BLAS's
            # matrix-matrix path, several times slower (far more where it spawns threads on a
            # busy core) than two matrix-vector products.
            sims = similarity(self.feats, queries[0], self.squares)
            for v in queries[1:]:
                np.maximum(sims, similarity(self.feats, v, self.squares), out=sims)
            best = np.maximum.reduceat(sims[self.order], self.starts)
        if len(self.present) == self.classes:
            return best.astype(np.float32, copy=False)
        out = np.full(self.classes, -1.0, np.float32)
        out[self.present] = best
        return out

    def _pruned_best(self, v: np.ndarray) -> np.ndarray:
        p = self._axes @ v
        # The query's part outside the axes, by Pythagoras (the axes are orthonormal).
        outside = math.sqrt(max(float(v @ v) - float(p @ p), 0.0)) + _ROUNDING
        # A similarity is 1 - ½|v|² - ½|t|² + t·v: for one query only the last two terms vary,
        # and t·v lies within ``slack`` of the projected product (Cauchy-Schwarz on the parts
        # outside the axes).
        slack = self._outside * np.float32(outside) + np.float32(_SLACK)
        middle = self._projected @ p
        middle -= self._half_squares
        sure = np.maximum.reduceat((middle - slack)[self.order], self.starts)  # each class surely reaches this
        middle += slack
        rows = np.flatnonzero(middle >= sure[self._class_of])
        best = np.full(len(self.present), -np.inf, np.float32)
        # Every class keeps at least its own surest template, so each gets a value here.
        np.maximum.at(best, self._class_of[rows], similarity(self.feats[rows], v, self.squares[rows]))
        return best


_Projection = tuple[np.ndarray, np.ndarray, np.ndarray]
# By the templates' checksum (and compared in full on a hit): every Reader of a profile shares one.
_PROJECTIONS: dict[tuple[tuple[int, ...], int], tuple[np.ndarray, _Projection]] = {}


def _projection(feats: np.ndarray) -> _Projection:
    """Leading axes of the templates (orthonormal rows), their projections on them and the norms
    of the parts outside. Made once per set of templates (tens of milliseconds)."""
    key = (feats.shape, zlib.crc32(feats.tobytes()))
    cached = _PROJECTIONS.get(key)
    if cached is not None and np.array_equal(cached[0], feats):
        return cached[1]
    # The axes by subspace iteration on the templates' Gram matrix: as good as its leading
    # eigenvectors here (99.26 % v 99.27 % of the energy) without a full eigen-decomposition's
    # workspace (several MB of the reader's memory).
    gram = (feats.T @ feats).astype(np.float64)
    basis = gram[:, np.linspace(0, len(gram) - 1, _AXES).astype(np.intp)]
    for _ in range(8):
        basis, _ = np.linalg.qr(gram @ basis)
    projected = np.empty((len(feats), _AXES), np.float32)
    outside = np.empty(len(feats), np.float32)
    for i in range(0, len(feats), 256):  # in float64, a block at a time (a small working set)
        block = feats[i: i + 256].astype(np.float64)
        on = block @ basis
        projected[i: i + 256] = on
        outside[i: i + 256] = np.sqrt(np.maximum((block * block).sum(axis=1) - (on * on).sum(axis=1), 0.0))
    made = (np.ascontiguousarray(basis.T, np.float32), projected, outside)
    if len(_PROJECTIONS) >= 4:  # a process reads with one or two profiles; keep memory bounded
        _PROJECTIONS.pop(next(iter(_PROJECTIONS)))
    _PROJECTIONS[key] = (feats, made)
    return made
