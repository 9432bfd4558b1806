"""The best template similarity per class: one matrix-vector product, one reduction per class."""

from __future__ import annotations

import numpy as np


def similarity(feats: np.ndarray, v: np.ndarray, squares: np.ndarray) -> np.ndarray:
    """1 - ½·squared distance of ``v`` to each row of ``feats`` (``squares``: the rows' squared norms)."""
    d2 = squares + (v * v).sum(axis=0) - 2.0 * (feats @ v)
    return 1.0 - 0.5 * d2


class ClassTemplates:
    """Templates with class labels ``offset .. offset + classes - 1``."""

    def __init__(self, feats: np.ndarray, labels: np.ndarray, classes: int, offset: int) -> None:
        self.feats = feats
        self.squares = np.einsum("ij,ij->i", feats, feats)
        # Similarities gathered in class order: each class's best is then one slice's maximum
        # (numpy's maximum.at, one element at a time, cost more than the product on a small profile).
        self.order = np.argsort(labels, kind="stable")
        sorted_labels = labels[self.order] - offset
        self.present = np.unique(sorted_labels)  # classes that have templates (the others score -1)
        self.starts = np.searchsorted(sorted_labels, self.present)
        self.classes = classes

    def best(self, queries: np.ndarray) -> np.ndarray:
        """(classes,) float32: per class, the best similarity of any template to any query row."""
        # One matrix-vector product per query: a product with two columns goes to BLAS's
        # matrix-matrix path, several times slower (far more where it spawns threads on a busy
        # core) than two matrix-vector products.
        sims = similarity(self.feats, queries[0], self.squares)
        for v in queries[1:]:
            np.maximum(sims, similarity(self.feats, v, self.squares), out=sims)
        best = np.maximum.reduceat(sims[self.order], self.starts)
        if len(self.present) == self.classes:
            return best.astype(np.float32, copy=False)
        out = np.full(self.classes, -1.0, np.float32)
        out[self.present] = best
        return out
