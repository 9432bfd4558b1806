"""Deck profiles: what the reader knows about one physical deck, learnt from one image per card.

A profile holds glyph templates for the corner index (rank glyphs, suit pips whole and cut at
fixed heights) and small whole-face templates (for index-less decks and as a cross-check).
Ranks and suits are learnt separately, so one image per card gives every rank four examples
and every suit thirteen.
"""

from __future__ import annotations

import dataclasses
import io
import math
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from faro_box.cards import FULL_DECK, RANKS, SUITS, Card, Suit
from faro_box.errors import VisionError
from faro_box.files import write_whole
from faro_box.vision import glyphs
from faro_box.vision.canonical import View
from faro_box.vision.features import FACE_SHAPE, IndexFeatures, face_feature, index_features
from faro_box.vision.index_patch import IndexWindow
from faro_box.vision.learned import EMBED
from faro_box.vision.learned_deck import LearnedDeck, Mode
from faro_box.vision.middle import (
    MIDDLE_SIDE,
    SUITS_NAMED,
    corner_pip_features,
    corner_pips_name_their_suits,
    middle_feature,
    print_redness,
)

PROFILE_VERSION = 3  # 3: the learned reader's deck (window, prototypes)
_MAGIC = "faro-box deck profile"
# Template widths: the features the reader compares them with (glyphs.glyph_feature, features.face_feature).
_RANK_WIDTH = glyphs.RANK_SHAPE[0] * glyphs.RANK_SHAPE[1] + 1
_SUIT_WIDTH = glyphs.SUIT_SHAPE[0] * glyphs.SUIT_SHAPE[1] + 1
_FACE_WIDTH = 2 * FACE_SHAPE[0] * FACE_SHAPE[1]
_LEAST_WINDOW_PX = 8  # an enrolled index window smaller than this, on the canonical face, holds no index


@dataclass(frozen=True, eq=False)
class DeckProfile:
    name: str
    view: View
    rank_feats: np.ndarray  # (n, d) float32
    rank_labels: np.ndarray  # (n,) int: Rank values
    suit_feats: dict[str, np.ndarray]  # "whole" and "top0.22" ... -> (m, d)
    suit_labels: np.ndarray  # (m,) int: index into SUITS, same rows for every key
    face_feats: np.ndarray = field(default_factory=lambda: np.zeros((0, 1), np.float32))
    face_labels: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # index into FULL_DECK
    pip_feats: np.ndarray = field(default_factory=lambda: np.zeros((0, 1), np.float32))  # body pip per face row
    # An index-less deck's own print (vision.middle): the face's middle per face row (zeros where
    # it shows nothing), and its corner pips with their suits (indices into SUITS).
    middle_feats: np.ndarray = field(default_factory=lambda: np.zeros((0, 1), np.float32))
    corner_pip_feats: np.ndarray = field(default_factory=lambda: np.zeros((0, 1), np.float32))
    corner_pip_labels: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    # Ink redness (paper-relative R - G) that splits red from black: the index's, or an index-less
    # deck's middle print's (vision.middle.print_redness).
    red_threshold: float = 0.08
    has_index: bool = True
    # Distance ratios the runner-up must keep to the winner (rank, suit) before the reader names it.
    margins: tuple[float, float] = (2.0, 2.0)
    learned: LearnedDeck | None = None  # what enrolment taught the learned reader (None: generic)

    def save(self, path: str | Path) -> None:
        arrays: dict[str, np.ndarray] = {
            "meta": np.array([_MAGIC, str(PROFILE_VERSION), self.name, self.view.value,
                              repr(self.red_threshold), "1" if self.has_index else "0",
                              repr(self.margins[0]), repr(self.margins[1])]),
            "rank_feats": self.rank_feats, "rank_labels": self.rank_labels,
            "suit_labels": self.suit_labels, "face_feats": self.face_feats, "face_labels": self.face_labels,
            "pip_feats": self.pip_feats, "middle_feats": self.middle_feats,
            "corner_pip_feats": self.corner_pip_feats, "corner_pip_labels": self.corner_pip_labels,
        }
        for key, value in self.suit_feats.items():
            arrays[f"suit_{key}"] = value
        if self.learned is not None:
            d = self.learned
            arrays["learned_meta"] = np.array([d.mode.name, repr(d.window.x), repr(d.window.y), repr(d.window.side),
                                               str(d.found), str(d.total),
                                               repr(d.glyph_height) if d.glyph_height is not None else "",
                                               str(d.generic_agree), repr(d.temperature), d.network,
                                               repr(d.bar) if d.bar is not None else ""])
            arrays["learned_rank"] = d.rank_protos
            arrays["learned_suit"] = d.suit_protos
        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)  # type: ignore[arg-type]
        target = Path(path)
        if not target.name or target.is_dir():
            raise VisionError(f"cannot write the deck profile {str(path)!r}: give a file name (.npz)")
        try:
            write_whole(target, buf.getvalue())
        except OSError as exc:
            raise VisionError(f"cannot write the deck profile {str(path)!r}: {exc.strerror or exc}") from None

    @classmethod
    def load(cls, path: str | Path) -> DeckProfile:
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise VisionError(f"cannot read the deck profile {str(path)!r}: {exc.strerror}") from None
        return cls.from_bytes(data, source=str(path))

    @classmethod
    def from_bytes(cls, data: bytes, *, source: str = "<bytes>") -> DeckProfile:
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as npz:
                arrays = {k: npz[k] for k in npz.files}
            # NumPy hands back a member that is no .npy array as its raw bytes.
            odd = sorted(k for k, v in arrays.items() if not isinstance(v, np.ndarray))
            if odd:
                raise VisionError(f"{source!r} is not a deck profile ({odd[0]!r} is not a number array)")
        except ValueError:  # NumPy's words about pickles mean nothing to a dealer
            raise VisionError(f"{source!r} is not a deck profile (not an archive of plain number arrays)") from None
        except (OSError, EOFError, zipfile.BadZipFile, KeyError) as exc:
            raise VisionError(f"{source!r} is not a deck profile (unreadable: {exc})") from None
        meta = arrays.get("meta")
        if meta is None or meta.ndim != 1 or len(meta) < 6 or str(meta[0]) != _MAGIC:
            raise VisionError(f"{source!r} is not a deck profile (no profile header)")
        # Version 2 is a profile without the learned reader's part (the shipped generic templates).
        if str(meta[1]) not in ("2", str(PROFILE_VERSION)):
            raise VisionError(f"the deck profile {source!r} has version {str(meta[1])!r}; this faro-box reads "
                              f"version {PROFILE_VERSION}: enrol the deck again")
        try:
            learned = _learned_from(arrays)
            suit_feats = {k[5:]: v.astype(np.float32) for k, v in arrays.items()
                          if k.startswith("suit_") and k != "suit_labels"}
            profile = cls(name=str(meta[2]), view=View(str(meta[3])),
                          rank_feats=arrays["rank_feats"].astype(np.float32),
                          rank_labels=arrays["rank_labels"].astype(np.int64), suit_feats=suit_feats,
                          suit_labels=arrays["suit_labels"].astype(np.int64),
                          face_feats=arrays["face_feats"].astype(np.float32),
                          face_labels=arrays["face_labels"].astype(np.int64),
                          pip_feats=arrays["pip_feats"].astype(np.float32),
                          **_middle_from(arrays),
                          red_threshold=float(meta[4]), has_index=str(meta[5]) == "1",
                          margins=(float(meta[6]), float(meta[7])) if len(meta) >= 8 else (2.0, 2.0),
                          learned=learned)
        except (KeyError, ValueError) as exc:
            raise VisionError(f"the deck profile {source!r} is damaged ({exc}): enrol the deck again") from None
        profile.check(source)
        return profile

    def check(self, source: str) -> None:
        """Shapes that fit together, or the profile is refused (a corrupt file must not read cards)."""
        problems = []
        if self.has_index:
            if self.rank_feats.ndim != 2 or len(self.rank_feats) != len(self.rank_labels) or not len(self.rank_labels):
                problems.append("rank templates")
            if set(self.suit_feats) != set(SUIT_KEYS):
                problems.append("suit template kinds")
            for v in self.suit_feats.values():
                if v.ndim != 2 or len(v) != len(self.suit_labels):
                    problems.append("suit templates")
                    break
            if self.rank_labels.size and not set(self.rank_labels.tolist()) <= {int(r) for r in RANKS}:
                problems.append("rank labels")
            if self.suit_labels.size and (self.suit_labels.min() < 0 or self.suit_labels.max() >= 4):
                problems.append("suit labels")
        if self.pip_feats.ndim != 2 or (len(self.pip_feats) and len(self.pip_feats) != len(self.face_labels)):
            problems.append("pip templates")
        if self.face_feats.ndim != 2 or len(self.face_feats) != len(self.face_labels):
            problems.append("face templates")
        elif self.face_labels.size and (self.face_labels.min() < 0 or self.face_labels.max() >= 52):
            problems.append("face labels")
        if self.middle_feats.ndim != 2 or (len(self.middle_feats) and (
                len(self.middle_feats) != len(self.face_labels) or self.middle_feats.shape[1] != MIDDLE_SIDE ** 2
                or self.has_index)):
            problems.append("middle templates")
        if self.corner_pip_feats.ndim != 2 or len(self.corner_pip_feats) != len(self.corner_pip_labels) \
                or (self.corner_pip_labels.size and (
                    not set(self.corner_pip_labels.tolist()) <= {0, 1, 2, 3}
                    or self.corner_pip_feats.shape[1] != glyphs.SUIT_SHAPE[0] * glyphs.SUIT_SHAPE[1] + 1)):
            problems.append("corner pip templates")
        if not all(1.0 <= m <= 10.0 for m in self.margins):
            problems.append(f"margins {self.margins!r}")
        widths = ((self.rank_feats, _RANK_WIDTH, "rank"), (self.face_feats, _FACE_WIDTH, "face"),
                  (self.pip_feats, _SUIT_WIDTH, "pip"), *((v, _SUIT_WIDTH, "suit") for v in self.suit_feats.values()))
        for feats, width, what in widths:
            if feats.ndim == 2 and len(feats) and feats.shape[1] != width:
                problems.append(f"{what} templates {feats.shape[1]} wide, not {width}")
        if not all(np.all(np.isfinite(a)) for a in (self.rank_feats, self.face_feats, self.middle_feats,
                                                      self.corner_pip_feats, self.pip_feats,
                                                      *self.suit_feats.values())) \
                or not math.isfinite(self.red_threshold):
            problems.append("non-finite numbers")
        if not self.has_index and not len(self.face_labels) and self.learned is None:
            problems.append("no templates at all")
        if self.learned is not None:
            d = self.learned
            width = d.rank_protos.shape[-1]
            if d.rank_protos.shape != (13, width) or d.suit_protos.shape != (4, width) or width % EMBED or not width \
                    or not np.all(np.isfinite(d.rank_protos)) or not np.all(np.isfinite(d.suit_protos)):
                problems.append("learned prototypes")
            w = d.window
            if not all(math.isfinite(v) and abs(v) < 10 for v in (w.x, w.y, w.side)) \
                    or min(hi - lo for lo, hi in w.bounds()) < _LEAST_WINDOW_PX:
                problems.append(f"learned index window {w!r}")
            if not (math.isfinite(d.temperature) and d.temperature > 0):
                problems.append(f"learned temperature {d.temperature!r}")
            if d.bar is not None and not 0 < d.bar < 1:
                problems.append(f"learned bar {d.bar!r}")
            if d.glyph_height is not None and not 0 < d.glyph_height < 1:
                problems.append(f"learned glyph height {d.glyph_height!r}")
        if problems:
            raise VisionError(f"the deck profile {source!r} is damaged ({', '.join(problems)}): enrol the deck again")


def _learned_from(arrays: dict[str, np.ndarray]) -> LearnedDeck | None:
    meta = arrays.get("learned_meta")
    if meta is None:
        return None
    m = [str(v) for v in meta]
    # Nine fields: a profile enrolled before the network's fingerprint was kept; ten: before
    # the deck's own bar was.
    if len(m) not in (9, 10, 11) or m[0] not in Mode.__members__:
        raise ValueError("learned deck header")
    return LearnedDeck(Mode[m[0]], IndexWindow(float(m[1]), float(m[2]), float(m[3])),
                       arrays["learned_rank"].astype(np.float32), arrays["learned_suit"].astype(np.float32),
                       int(m[4]), int(m[5]), float(m[6]) if m[6] else None, int(m[7]), float(m[8]),
                       m[9] if len(m) >= 10 else "", float(m[10]) if len(m) == 11 and m[10] else None)


def _middle_from(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """An index-less deck's middle and corner pips; a profile enrolled before they were kept has none."""
    out = {}
    for key, dtype in (("middle_feats", np.float32), ("corner_pip_feats", np.float32), ("corner_pip_labels", np.int64)):
        if key in arrays:
            out[key] = arrays[key].astype(dtype)
    return out


SUIT_KEYS = ("whole", *(f"top{f}" for f in glyphs.SUIT_TOPS))


@dataclass(frozen=True, slots=True)
class Sample:
    """One enrolment example: the card and what was seen of it."""

    card: Card
    index: IndexFeatures | None
    face: np.ndarray | None
    pip: np.ndarray | None = None
    middle: np.ndarray | None = None  # vision.middle's features: an index-less deck's print
    corner_pips: tuple[np.ndarray, ...] = ()
    middle_redness: float | None = None


def build_profile(samples: Iterable[Sample], *, name: str, view: View) -> DeckProfile:
    """A profile from labelled samples; VisionError naming what is missing if it cannot read a deck."""
    rank_f, rank_l, suit_l, face_f, face_l, pip_f, middle_f = [], [], [], [], [], [], []
    middle_reds: list[tuple[float, bool]] = []
    corner_f: list[np.ndarray] = []
    corner_l: list[int] = []
    corner_c: list[int] = []
    suit_f: dict[str, list[np.ndarray]] = {k: [] for k in SUIT_KEYS}
    reds: list[tuple[float, bool]] = []
    n = 0
    for s in samples:
        n += 1
        if s.index is not None and s.index.suit_whole is not None:
            rank_f.append(s.index.rank[0])
            rank_l.append(int(s.card.rank))
            suit_l.append(SUITS.index(s.card.suit))
            suit_f["whole"].append(s.index.suit_whole)
            for f in glyphs.SUIT_TOPS:
                suit_f[f"top{f}"].append(s.index.suit_tops[f])
            reds.append((s.index.redness, s.card.suit in (Suit.HEARTS, Suit.DIAMONDS)))
        if s.face is not None:
            face_f.append(s.face)
            face_l.append(FULL_DECK.index(s.card))
            pip_f.append(s.pip)
            middle_f.append(s.middle)
        corner_f.extend(s.corner_pips)
        corner_l.extend([SUITS.index(s.card.suit)] * len(s.corner_pips))
        corner_c.extend([FULL_DECK.index(s.card)] * len(s.corner_pips))
        if s.middle_redness is not None:
            middle_reds.append((s.middle_redness, s.card.suit in (Suit.HEARTS, Suit.DIAMONDS)))
    if n == 0:
        raise VisionError("enrolment got no images at all")
    has_index = bool(rank_l)
    if has_index:
        missing_r = [r.symbol for r in RANKS if int(r) not in rank_l]
        missing_s = [str(s) for i, s in enumerate(SUITS) if i not in suit_l]
        if missing_r or missing_s:
            raise VisionError(f"enrolment found no readable index for rank(s) {missing_r!r} / suit(s) "
                              f"{missing_s!r}: add clearer images of those cards")
    elif view is View.CORNER:
        raise VisionError("enrolment found no corner index in any image: corner views need an index")
    elif missing_c := [str(c) for k, c in enumerate(FULL_DECK) if k not in face_l]:
        # Read by its faces alone, a deck names only cards it enrolled: an unenrolled one would be
        # taken for the enrolled face most like it (an ace of clubs for the ace of spades).
        raise VisionError(f"enrolment of a deck read by its whole faces needs a picture of every card; none of "
                          f"{missing_c!r}")
    dim_face = face_f[0].size if face_f else 1
    profile = DeckProfile(
        name=name, view=view,
        rank_feats=np.array(rank_f, np.float32).reshape(len(rank_l), -1) if rank_l else np.zeros((0, 1), np.float32),
        rank_labels=np.array(rank_l, np.int64),
        suit_feats={k: (np.array(v, np.float32).reshape(len(suit_l), -1) if v else np.zeros((0, 1), np.float32))
                    for k, v in suit_f.items()},
        suit_labels=np.array(suit_l, np.int64),
        face_feats=np.array(face_f, np.float32).reshape(len(face_l), dim_face) if face_f
        else np.zeros((0, 1), np.float32),
        face_labels=np.array(face_l, np.int64),
        pip_feats=_face_rows(pip_f),
        red_threshold=_red_threshold(reds), has_index=has_index)
    corners = np.array(corner_f, np.float32).reshape(len(corner_l), -1) if corner_f else np.zeros((0, 1), np.float32)
    # A suit with no corner pip enrolled would be read as one that has some.
    if not has_index and set(corner_l) == {0, 1, 2, 3} and corner_pips_name_their_suits(
            corners, np.array(corner_l, np.int64), np.array(corner_c, np.int64)) >= SUITS_NAMED:
        profile = dataclasses.replace(profile, middle_feats=_face_rows(middle_f), corner_pip_feats=corners,
                                      corner_pip_labels=np.array(corner_l, np.int64),
                                      red_threshold=_red_threshold(middle_reds))
    profile.check(name)
    return profile


def learned_only_profile(name: str, view: View, deck: LearnedDeck) -> DeckProfile:
    """A profile with the learned reader's part only (a corner view the glyph templates missed)."""
    empty = np.zeros((0, 1), np.float32)
    return DeckProfile(name=name, view=view, rank_feats=empty, rank_labels=np.zeros(0, np.int64),
                       suit_feats={k: empty for k in SUIT_KEYS}, suit_labels=np.zeros(0, np.int64),
                       has_index=False, learned=deck)


def _face_rows(feats: list[np.ndarray | None]) -> np.ndarray:
    """One row per face; a face that showed nothing (a court's body pip) gets a row of zeros."""
    dim = next((f.size for f in feats if f is not None), 0)
    if not dim:
        return np.zeros((0, 1), np.float32)
    return np.array([f if f is not None else np.zeros(dim, np.float32) for f in feats], np.float32)


def _red_threshold(reds: Sequence[tuple[float, bool]]) -> float:
    """Midway between the deck's black and red inks, as measured on its own enrolment images."""
    red = [r for r, is_red in reds if is_red]
    black = [r for r, is_red in reds if not is_red]
    if not red or not black:
        return 0.08
    return float((np.percentile(red, 10) + np.percentile(black, 90)) / 2)


def sample_from_view(card: Card, image: np.ndarray, view: View) -> Sample:
    """What enrolment keeps of one image (already warped upright for FACE views)."""
    from faro_box.vision.features import pip_feature, read_index_region
    index = read_index_region(image, view)
    features = index_features(index) if index is not None else None
    if view is not View.FACE:
        return Sample(card, features, None)
    return Sample(card, features, face_feature(image), pip_feature(image), middle_feature(image),
                  tuple(corner_pip_features(image)), print_redness(image))


def generic_profile() -> DeckProfile:
    """The profile shipped with the package: English indices in several fonts, no enrolment."""
    data = resources.files("faro_box.vision").joinpath("data/generic.npz").read_bytes()
    return DeckProfile.from_bytes(data, source="generic profile")
