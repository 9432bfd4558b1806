"""The coarse-to-fine template comparison gives each class the best similarity the full one gives."""

import numpy as np

from faro_box.vision.nearest import ClassTemplates, similarity
from faro_box.vision.profile import generic_profile


def _full_best(feats: np.ndarray, labels: np.ndarray, queries: np.ndarray) -> np.ndarray:
    sims = np.max([similarity(feats, v, np.einsum("ij,ij->i", feats, feats)) for v in queries], axis=0)
    return np.array([sims[labels == c].max() for c in range(1, 14)], np.float32)


def test_pruned_rank_comparison_matches_the_full_one() -> None:
    p = generic_profile()
    templates = ClassTemplates(p.rank_feats, p.rank_labels, 13, 1)
    rng = np.random.default_rng(3)
    for noise in (0.0, 0.02, 0.1, 0.5):
        for _ in range(20):
            rows = p.rank_feats[rng.integers(len(p.rank_feats), size=int(rng.integers(1, 3)))]
            queries = (rows + rng.normal(0.0, noise, rows.shape)).astype(np.float32)
            got = templates.best(queries)
            assert got.dtype == np.float32 and got.shape == (13,)
            np.testing.assert_allclose(got, _full_best(p.rank_feats, p.rank_labels, queries), rtol=0, atol=1e-5)


def test_a_class_without_templates_scores_minus_one() -> None:
    feats = np.eye(4, 6, dtype=np.float32)
    templates = ClassTemplates(feats, np.array([0, 0, 2, 2]), 4, 0)
    got = templates.best(feats[:1])
    assert got[1] == -1.0 and got[3] == -1.0
    assert got[0] == 1.0  # the query is template 0 itself
