"""The best template similarity per class, without reading every template for every query.

A profile composed from many typefaces holds over a thousand rank templates: comparing each with
every glyph reads 1.8 MB per corner, most of a corner's time once the frame's own work has pushed
the templates out of the cache. The templates lie close to a low-dimensional subspace (blurred
glyphs), so their projections on its first axes give each similarity up to a bound that follows
from the parts left outside it (Cauchy-Schwarz). A template whose upper bound stays below what
another template of its class surely reaches cannot be its class's best; only the others are
compared in full. The result is the best similarity per class as the full comparison gives it
(the dot products of the few templates compared in full may differ from those of one product over
all templates in the last bit of a float32, as any two summation orders do).
"""

from __future__ import annotations

import hashlib

import numpy as np

_AXES = 64  # 99.7 % of the generic rank templates' energy: about 20 of 1,163 are compared in full
_FULL_BELOW = 256  # fewer templates than this (an enrolled deck): compare them all, it is cheaper
# Room for the float32 rounding of the projected products and norms (a similarity is ~1).
_SLACK = 1e-4


def similarity(feats: np.ndarray, v: np.ndarray, squares: np.ndarray) -> np.ndarray:
    """1 - ½·squared distance of ``v`` to each row of ``feats`` (``squares``: the rows' squared norms)."""
    d2 = squares + (v * v).sum(axis=0) - 2.0 * (feats @ v)
    return 1.0 - 0.5 * d2


class ClassTemplates:
    """Templates with class labels ``offset .. offset + classes - 1``, sorted by class."""

    def __init__(self, feats: np.ndarray, labels: np.ndarray, classes: int, offset: int) -> None:
        self.feats = feats
        self.squares = np.einsum("ij,ij->i", feats, feats)
        self.order = np.argsort(labels, kind="stable")
        sorted_labels = labels[self.order] - offset
        self.present = np.unique(sorted_labels)  # classes that have templates (the others score -1)
        self.starts = np.searchsorted(sorted_labels, self.present)
        self.classes = classes
        self._pruned = len(feats) >= _FULL_BELOW and feats.shape[1] > _AXES
        if self._pruned:
            self._sorted = np.ascontiguousarray(feats[self.order], np.float32)
            self._sorted_squares = self.squares[self.order]
            self._class_of = np.searchsorted(self.present, sorted_labels)  # row -> position in present
            self._axes, self._axes_t, self._projected, self._outside = _projection(self._sorted)

    def best(self, queries: np.ndarray) -> np.ndarray:
        """(classes,) float32: per class, the best similarity of any template to any query row."""
        best = self._best_one(queries[0])
        for v in queries[1:]:
            np.maximum(best, self._best_one(v), out=best)
        out = np.full(self.classes, -1.0, np.float32)
        out[self.present] = best
        return out

    def _best_one(self, v: np.ndarray) -> np.ndarray:
        if not self._pruned:
            return np.maximum.reduceat(similarity(self.feats, v, self.squares)[self.order], self.starts)
        p = self._axes @ v
        rest = v - self._axes_t @ p.astype(np.float64)
        slack = self._outside * np.float32(np.sqrt(rest @ rest)) + np.float32(_SLACK)
        approx = self._projected @ p
        base = self._sorted_squares + (v * v).sum(axis=0)
        lower = 1.0 - 0.5 * (base - 2.0 * (approx - slack))
        upper = 1.0 - 0.5 * (base - 2.0 * (approx + slack))
        sure = np.maximum.reduceat(lower, self.starts)  # each class surely reaches this
        rows = np.flatnonzero(upper >= sure[self._class_of])
        sims = similarity(self._sorted[rows], v, self._sorted_squares[rows])
        # Every class keeps at least its own surest template, so no segment below is empty.
        return np.maximum.reduceat(sims, np.searchsorted(self._class_of[rows], np.arange(len(self.present))))


_Projection = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
_PROJECTIONS: dict[bytes, _Projection] = {}  # by the templates' digest: every Reader of a profile shares one


def _projection(feats: np.ndarray) -> _Projection:
    """The templates' leading axes (float32, and float64 transposed), their projections on them and
    the norms of the parts outside. Made once per set of templates: the eigen-decomposition costs
    tens of milliseconds, more than a hundred frames' saving."""
    key = hashlib.blake2b(feats.tobytes(), digest_size=16).digest() + repr(feats.shape).encode()
    cached = _PROJECTIONS.get(key)
    if cached is not None:
        return cached
    f64 = feats.astype(np.float64)
    _, vecs = np.linalg.eigh(f64.T @ f64)  # eigenvalues ascending: the leading axes are the last
    axes = vecs[:, ::-1][:, :_AXES].T
    projected = f64 @ axes.T
    outside = np.sqrt(np.maximum((f64 * f64).sum(axis=1) - (projected * projected).sum(axis=1), 0.0))
    made = (np.ascontiguousarray(axes, np.float32), np.ascontiguousarray(axes.T),
            np.ascontiguousarray(projected, np.float32), outside.astype(np.float32))
    if len(_PROJECTIONS) >= 4:  # a process reads with one or two profiles; keep memory bounded
        _PROJECTIONS.pop(next(iter(_PROJECTIONS)))
    _PROJECTIONS[key] = made
    return made
