"""The colour balance that makes a card's paper grey whatever the camera's white: find mode, the
tracker and calibration judge paper on the balanced picture."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True, slots=True)
class BalanceTuning:
    """The colour balance that makes a card's paper grey whatever the camera's white."""

    # The brightest tenth of a picture is taken for paper: the card is the brightest plain
    # thing in view, and a tenth still holds enough of it when the card fills a fifth.
    bright_share: float = 0.1
    clipped: int = 250  # grey at or above this is burnt out (glare): it shows no colour at all
    # No channel is scaled by more than this (or less than its inverse): a cast stronger than
    # a Raspberry Pi camera's bluish white is a coloured thing, not paper.
    max_gain: float = 2.0
    # A brightest part whose brightest channel is below this is no paper (green felt, the box's
    # floor): nothing to balance on, and balancing it would make it grey, paper-like.
    least_paper: int = 100


BALANCE = BalanceTuning()


def balance_gains(image: np.ndarray, among: np.ndarray | None = None) -> tuple[float, float, float]:
    """Per-channel (B, G, R) gains that turn the colour of ``image``'s brightest part grey;
    ``among``: a mask of the pixels to look at (all where None).

    Paper (grey-blue) beside a brighter patch of lit wood whose red is burnt out: balanced on
    every pixel, the wood is made grey; on those with no channel burnt out, the paper is.

    >>> image = np.zeros((10, 10, 3), np.uint8)
    >>> image[:, :5], image[:, 5:] = (210, 200, 190), (200, 240, 255)
    >>> [round(g, 2) for g in balance_gains(image)]
    [1.16, 0.97, 0.91]
    >>> unburnt = cv2.inRange(image, (0, 0, 0), (BALANCE.clipped - 1,) * 3)
    >>> [round(g, 2) for g in balance_gains(image, unburnt)]
    [0.95, 1.0, 1.05]
    """
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    hist = cv2.calcHist([grey], [0], among, [256], [0, 256]).ravel()
    n = grey.size if among is None else cv2.countNonZero(among)
    if not n:
        return 1.0, 1.0, 1.0
    above = np.cumsum(hist[::-1])[::-1]  # pixels at or above each level
    top = int(np.flatnonzero(above >= BALANCE.bright_share * n).max())
    mask = cv2.inRange(grey, top, BALANCE.clipped - 1)
    if among is not None:
        mask = cv2.bitwise_and(mask, among)
    if not cv2.countNonZero(mask):
        mask = cv2.inRange(grey, top, 255)
        if among is not None:
            mask = cv2.bitwise_and(mask, among)
    b, g, r = cv2.mean(image, mask)[:3]
    if max(b, g, r) < BALANCE.least_paper:
        return 1.0, 1.0, 1.0
    mean = (b + g + r) / 3.0
    lo, hi = 1.0 / BALANCE.max_gain, BALANCE.max_gain
    return tuple(min(hi, max(lo, mean / max(c, 1.0))) for c in (b, g, r))  # type: ignore[return-value]


def apply_gains(image: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    """``image`` (BGR uint8) with each channel scaled by its gain, saturating at 255."""
    # OpenCV takes a per-channel scalar here; older stubs know only arrays.
    return np.asarray(cv2.multiply(image, (*gains, 0.0), dtype=cv2.CV_8U))  # type: ignore[call-overload, unused-ignore]


def balanced(image: np.ndarray) -> np.ndarray:
    """``image`` with its brightest part's colour made grey (balance_gains)."""
    return apply_gains(image, balance_gains(image))
