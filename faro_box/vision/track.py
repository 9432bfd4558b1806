"""The tracker: camera frames in, one event per card the dealer exposes, in order.

Each frame costs a small look at the box's window: is anything moving there (frame
differencing that tolerates a pixel of camera shake), and is the card fully visible. A hand, a
thumb or a sleeve reaches the window over its edge, so what covers the card is what is not
paper in the band along the window's edges *and* reaches the window's outermost strip; the
card's own print (a large index whose pip reaches a third of the way down, a border line)
does not count: print that stands clear of the edge is not a thumb, and print the card showed
when it last lay still in full view (the reference) is the deck's, since every card of a deck
prints its index in the same place. Paper is judged after the colours are balanced on the
paper's own colour (a camera's bluish or pink white is still paper). The reader runs only when
a still, fully visible picture follows a disturbance (motion, a hand, a camera gap): once per
card, not once per frame, and the same card seen for an hour is one event.

A card may lie still and never be seen in full view: a deck's first court, whose picture reaches
the window's edge before any court's print is known, dealt on at once. It is kept (its picture
and the reader's guesses), and if another card follows before it is seen whole, the dealer is
asked about it: a card skipped in silence would put every later card one place off. A picture
the reader is sure shows the card read last is that card (slid under the thumb), not kept. Whether two
still pictures show one card is judged by their print, the shading left out, against how well
this camera's picture matches itself from one still frame to the next.

Without a calibrated window the tracker finds it: the card's outline, found at the same place
on a few still frames in a row with nothing over its edge, becomes the window. Until then it
reads nothing: a card is never named from a frame whose window is unknown. It keeps the first
still picture after each change meanwhile, and once the window is known looks at those through
it, in order, as it would have then: the cards dealt before it was found are read or asked
about, and the rest keep their places.

An unsure picture is read again on the next still frames, each time another way, in turns: as
it is; with the mid-tones brightened (the ink must be darker to count, so the thin pale gap a
blurred picture leaves between a rank and its pip, which the reader's fixed ink threshold fills
in, opens again); brightened on the still frames so far averaged (sensor noise falls). The
brightened picture thins every stroke, so on its own it misreads some real decks (10 as J):
what it names counts only when the picture as it is left the card open and does not contradict
it (its partial rank or suit, its shortlist). Otherwise the reader's margins decide each read.

The deck decides what a reading means: a card already dealt cannot come again (unless it is
the previous card put back on the box: the dealer's slip), and the last card (the hock) is
known by elimination. A reading that contradicts the deck, or an abstention, becomes a
``NeedsConfirmation`` for the dealer, never a guessed card.

Pure: no clock and no threads; time is the caller's frame numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np

from faro_box.cards import DECK_SIZE, FULL_DECK, Card
from faro_box.errors import VisionError
from faro_box.vision.balance import apply_gains, balance_gains
from faro_box.vision.canonical import check_image, parse_window, warp_window

VIEW_W, VIEW_H = 100, 140  # the window, warped upright at about half the camera's scale
_EDGE = 3  # view pixels along the window's edge that motion detection ignores
_CELLS = (10, 14)  # patches of 10×10 view pixels for judging the edge band
_CELL_AREA = (VIEW_W // _CELLS[0]) * (VIEW_H // _CELLS[1])
# Gamma 0.6 on every channel: paper-relative ink darkness d becomes 1 - (1 - d) ** 0.6, so the
# reader's ink threshold of 0.35 acts as 0.51. Measured on the simulated box's first four still
# frames of each card (2,496 frames, 18 deals): 99.8 % named where the picture as it is gives
# 85 %, none wrong; on the real feeder-corner photos alone it misreads 24 of 795, hence the gate.
_LIGHTER = (255.0 * (np.arange(256) / 255.0) ** 0.6).round().astype(np.uint8)
_STACK = 3  # still frames averaged at most: more would cost the 3-frame latency
# Still pictures kept while no window is known, read once it is found: a deck's worth, each a
# JPEG (a VGA frame kept raw is 0.9 MB; at this quality about a tenth of that).
SEEK_KEPT = DECK_SIZE
SEEK_QUALITY = 95
_SEEK_WIDTH = 80  # the frame's width when telling, while seeking, whether anything moved


@dataclass(frozen=True, slots=True)
class CoverTuning:
    """What counts as something over the card (the window's edge band, in view pixels)."""

    # The outermost strip, as a share of the view's width: a thumb reaching the window crosses
    # it, while a card's print keeps a white margin clear of it on every deck we know of.
    seed_strip: tuple[float, float] = (0.02, 0.03)
    # A calibrated window may sit a pixel or two off the card as the camera shakes: the
    # reference's print is widened by this many view pixels before it is forgiven.
    print_slack: int = 1
    # The window found without calibration: the card's outline at the same place (corners within
    # this many pixels of the frame) on this many still frames in a row, nothing over its edge.
    seek_tolerance: float = 3.0
    seek_frames: int = 3
    # Ink over the edge that stays exactly where it is this long, nothing moving, is the card's
    # own print (a court's picture reaching the edge on the deal's first court): a dealer's
    # thumb rests a moment before it pushes, and a hand hovering moves. 0.4 s at 30 fps.
    settle_frames: int = 12
    # The print forgiven is that of the cards read (the deck prints its indices and its courts'
    # frames in the same places), so one court teaches the next; the last deal's worth.
    remembered: int = 52
    # Two still pictures show the same card when their print correlates this well at the best
    # shift of up to this many view pixels (a thumb pushing the card shifts it before it slides),
    # times how well the camera's picture correlates with itself from one still frame to the
    # next: with a clean camera the same card twice correlates above 0.96, a 7 and an 8 of one
    # suit up to 0.92.
    same_card: float = 0.945
    other_card_shift: int = 3
    # A frame in motion whose print, where nothing lies over it, correlates with the card that
    # lay still no better than this shows that card moving away: a hand arriving over a card
    # leaves its print in place, a slide shifts it far beyond the few pixels tolerated. Set
    # low, as a small noisy camera's picture of a card under an arriving hand correlates far
    # worse than a clean camera's. Once it went, a print like it under a thumb is another card
    # (the 2C after the 2S), never the card read last.
    gone: float = 0.3
    shading_sigma: float = 6.0  # view pixels: light and shadow vary more slowly than a card's print

    @property
    def other_unread(self) -> float:
        """While the dealer is asked about a card, an unread picture whose print correlates with
        the unread card held last no better than this is another card, though none was seen
        moving off: halfway between a card moving away (``gone``) and one card seen twice
        (``same_card``). Two cards that only look alike, taken for one, lose a card in silence; a
        noisy camera's picture of one card under a resting thumb that falls below it costs a
        question, which the dealer withdraws by naming the card before it. (The camera's own
        test, ``same_card``, takes that picture for another card far more often, and floods such
        a camera's dealer.)

        >>> round(CoverTuning().other_unread, 4)
        0.6225
        """
        return (self.gone + self.same_card) / 2


COVER = CoverTuning()
# A card is paper as any of the last few cards read was: one card's paper under another light (a
# lamp switched on, a photo's own white) must not hide the next card as "no paper", unread.
PAPERS_REMEMBERED = 4
_LINE = np.ones((2, 2), np.uint8)  # the opening that drops lines a pixel wide


class ReadingLike(Protocol):
    @property
    def card(self) -> Card | None: ...
    @property
    def confidence(self) -> float: ...
    @property
    def candidates(self) -> tuple[Card, ...]: ...


class CardReader(Protocol):
    """Anything that reads one image: the vision Reader, or a scripted one in tests."""

    def read(self, image: np.ndarray, *, window: Sequence[Sequence[float]] | None = None) -> ReadingLike: ...


@dataclass(frozen=True, slots=True)
class CardExposed:
    card: Card
    index: int  # 0 the soda, 1 the first loser, ..., 51 the hock
    confidence: float
    frame: int


@dataclass(frozen=True, slots=True)
class NeedsConfirmation:
    """A new card lies on the box, but the reader abstained or read a card the deck forbids."""

    index: int
    frame: int
    candidates: tuple[Card, ...]  # undealt cards the reader thought likely, best first
    # the window (or the frame) to show the dealer; None when the reading was held for the
    # dealer's answer to an earlier question and the picture is gone
    snapshot: np.ndarray | None = field(compare=False, repr=False)
    # why the tracker asks, for logs and the dealer page: the reader's abstention reason, or
    # the dealt card it read
    reason: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class CardReturned:
    """The card at ``index`` lies on top again: the exposure at ``index + 1`` is withdrawn and
    will be announced again when that card shows once more."""

    card: Card
    index: int
    frame: int


@dataclass(frozen=True, slots=True)
class BoxEmpty:
    frame: int
    dealt: int  # cards exposed in the deal that just ended


TrackEvent = CardExposed | NeedsConfirmation | CardReturned | BoxEmpty


def event_to_json(event: TrackEvent) -> dict[str, object]:
    """The JSON line ``faro-box track`` prints for an event (the snapshot is left out)."""
    if isinstance(event, CardExposed):
        return {"event": "card", "index": event.index, "card": str(event.card),
                "confidence": round(float(event.confidence), 3), "frame": event.frame}
    if isinstance(event, NeedsConfirmation):
        return {"event": "confirm", "index": event.index, "frame": event.frame,
                "candidates": [str(c) for c in event.candidates], "reason": event.reason}
    if isinstance(event, CardReturned):
        return {"event": "returned", "index": event.index, "card": str(event.card), "frame": event.frame}
    return {"event": "empty", "frame": event.frame, "dealt": event.dealt}


@dataclass(frozen=True, slots=True)
class TrackerSettings:
    # Frames without motion before a picture counts as still: one, since motion blur needs motion
    # and the edge band already keeps hands out; so a card is read the frame after it settles.
    still_frames: int = 1
    level: int = 24  # grey levels a pixel must change by, beyond its neighbours', to count
    motion: float = 0.004  # share of changed pixels that is motion
    occlusion: int = 3  # this many non-paper pixels in one patch of the edge band: something is over it
    empty_frames: int = 3  # still frames showing no paper before the box counts as empty
    min_confidence: float = 0.0  # below this a named card still asks for confirmation
    candidates: int = 6
    # An unsure read is tried again on each next still frame before the dealer is asked: a
    # reader that needs a second or third look still announces within 3 frames; one that needs
    # more announces late (at most 12 frames, 0.4 s at 30 fps), which beats a question.
    retries: int = 10
    # While the dealer is asked about the top card, hold later readings until the answer comes
    # (it alone tells the asked card read at last from the next one). Without a dealer to answer
    # (faro-box track), False goes on: each later card is taken as the next one.
    hold: bool = True

    def __post_init__(self) -> None:
        if self.still_frames < 1:
            raise VisionError(f"still_frames must be at least 1, not {self.still_frames!r}")
        for name in ("motion", "min_confidence"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise VisionError(f"{name} must be 0..1, not {value!r}")


@dataclass(frozen=True, slots=True)
class _Abstention:
    """A brightened picture's reading that the picture as it is contradicts: no card."""

    candidates: tuple[Card, ...]
    why: str
    card: Card | None = None
    confidence: float = 0.0


@dataclass(frozen=True, slots=True)
class _View:
    grey: np.ndarray  # VIEW_H×VIEW_W (or the find-mode frame), lightly blurred
    visible: bool  # nothing over the window's edge
    paperless: bool  # no card paper anywhere in the window: the box may be empty
    ink: np.ndarray | None = None  # uint8 1 where the view is not paper (the card's print, a hand)
    gains: tuple[float, float, float] | None = None  # the colour balance that made the paper grey
    paper_colour: tuple[float, float, float] | None = None  # the mean colour (BGR) of its paper, unbalanced
    # its print less the shading (_print_of), made once when two pictures are first compared
    print: list[np.ndarray] = field(default_factory=list, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class _Held:
    """A reading made while the dealer is asked about the top card, acted on after his answer;
    ``card`` None: another card that could not be read, to be asked about in turn."""

    card: Card | None
    confidence: float
    frame: int
    candidates: tuple[Card, ...] = ()
    snapshot: np.ndarray | None = field(default=None, compare=False, repr=False)
    why: str = ""
    # An unread card's picture, and what lay over it: the next unread picture is told from it.
    view: _View | None = field(default=None, compare=False, repr=False)
    cover: np.ndarray | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class _Covered:
    """A card that lay still with something over the window's edge, unlike the card read last: it
    is asked about if another card follows before it is seen in full view."""

    view: _View
    cover: np.ndarray  # bool, VIEW_H×VIEW_W: what lay over it (left out when pictures are compared)
    frame: int
    snapshot: np.ndarray
    candidates: tuple[Card, ...]
    # Kept after the card before it was seen moving off: another card than any asked about
    # before it, even where their print looks alike.
    fresh: bool = False
    dark: bool = False  # no paper showed at all: a card too dark to see, or a hand over the window


class Tracker:
    """Turns frames into ``TrackEvent``s. ``window``: the calibrated corners of the box's window
    (clockwise from top-left); None reads in find mode (the card anywhere in the frame)."""

    def __init__(self, reader: CardReader, *, window: Sequence[Sequence[float]] | Sequence[float] | None = None,
                 settings: TrackerSettings | None = None) -> None:
        self.reader = reader
        self.settings = settings or TrackerSettings()
        self.window = None if window is None else parse_window(window)
        self._window_arg = None if self.window is None else [(float(x), float(y)) for x, y in self.window]
        self._band = _edge_band(VIEW_W, VIEW_H)
        self._seeds = _seed_strip(VIEW_W, VIEW_H, self._band)
        self._seeds_u8 = self._seeds.astype(np.uint8)
        self._seen: tuple[np.ndarray, int] | None = None  # no window yet: the outline found, how often
        self._unseen: list[tuple[int, np.ndarray]] = []  # no window yet: still pictures kept (_keep_unseen)
        self._unseen_prev: np.ndarray | None = None  # the last frame seen while seeking, small and grey
        self._unseen_moved = True  # something changed since the last picture kept
        self._kernel = np.ones((3, 3), np.uint8)
        self._exposed: list[Card | None] = []  # None: waiting for the dealer's confirmation
        self._cards_out: Callable[[], Sequence[Card | None]] | None = None  # the table's view (follow)
        self._prev: _View | None = None
        self._ref: _View | None = None  # the last card read, as it lay still
        # The card last seen lying on top (the one kept by _note_covered, else the last read)
        # was seen moving off since: whatever lies there now is another card.
        self._top_gone = False
        # The last few cards' paper made grey, the latest first (PAPERS_REMEMBERED).
        self._paper_gains: list[tuple[float, float, float]] = []
        self._prints: list[np.ndarray] = []  # the ink of the last cards read, as they lay still
        self._print: np.ndarray | None = None  # their union, widened by the slack: forgiven as print
        self._still = 0
        self._disturbed = True
        self._empty_checked = False
        self._empty = False
        self._tries = 0
        self._stills: list[np.ndarray] = []  # the window of each frame read in this still picture
        self._as_is: ReadingLike | None = None  # the last reading of this still picture as it is
        self._unsure_read: tuple[ReadingLike, np.ndarray, _View, int] | None = None  # to act on if disturbed
        # Cards read while the top awaits the dealer; None: a card went by unread meanwhile.
        self._held: list[_Held] = []
        self._covered: _Covered | None = None  # a new card seen lying still, never in full view
        self._steady: _View | None = None  # the frame before this one, when nothing moved between
        self._queued: list[TrackEvent] = []  # events the dealer's answer released
        self._last_frame: int | None = None
        self._crop: tuple[int, int, int, int] | None = None
        self._crop_window: list[tuple[float, float]] | None = None  # the window within the crop
        self._warp: np.ndarray | None = None

    # ---- state the table may ask for ------------------------------------------------------------

    @property
    def exposed(self) -> tuple[Card | None, ...]:
        """The cards exposed so far in this deal, in order (None: awaiting confirmation)."""
        self._follow_table()
        return tuple(self._exposed)

    @property
    def next_index(self) -> int:
        self._follow_table()
        return len(self._exposed)

    def remaining(self) -> tuple[Card, ...]:
        self._follow_table()
        return self._remaining()

    def _remaining(self) -> tuple[Card, ...]:
        dealt = set(self._exposed)
        return tuple(c for c in FULL_DECK if c not in dealt)

    # ---- which cards are out: the table's word ------------------------------------------------

    def follow(self, cards_out: Callable[[], Sequence[Card | None]] | None) -> None:
        """Learn which cards are out from ``cards_out()``, the table's view (its cards in order, a
        last None while it asks the dealer about the next), instead of being told of each change:
        before each frame and whenever asked, the tracker takes the table's cards. It runs ahead of
        them only with events it has not handed out yet, or while the table asks the dealer (the
        card it read is the question). None: the tracker counts on its own."""
        self._cards_out = cards_out
        if cards_out is not None:
            self.resume(cards_out())  # the table's question, too, is where the deal stands

    def _follow_table(self) -> None:
        if self._cards_out is None:
            return
        out = list(self._cards_out())
        asking = bool(out) and out[-1] is None
        known = out[:-1] if asking else out
        if self._queued:
            # Events not handed out yet: the table cannot have heard of them.
            if self._exposed[:len(known)] != known:
                self.resume(known)
            return
        mine = self._exposed
        if mine and mine[-1] is None:  # the dealer's answer to the tracker's question?
            q = len(mine) - 1
            named = known[q] if len(known) > q else None
            below = mine[q - 1] if q > 0 else None
            if named is not None and mine[:q] == known[:q]:
                self.confirm(q, named)             # he named the card
            elif below is not None and not asking and mine[:q] == known:
                self.confirm(q, below)             # no new card: the one before still lies on top
        mine = self._exposed
        if (mine[:len(known)] != known) if asking else (mine != known):
            self.resume(known)

    def sees_card(self, image: np.ndarray) -> bool:
        """Whether the window's whole edge shows card paper: what the tracker waits for before
        it reads (a calibration whose window strays off the card never satisfies it)."""
        if self.window is None:
            return False
        view = self._look(image)
        return view.visible and not view.paperless

    # ---- input ----------------------------------------------------------------------------------

    def confirm(self, index: int, card: Card) -> None:
        """The dealer's answer to ``NeedsConfirmation(index)``: the card at ``index``; or the card
        before it, still lying on top (a hand passed over it and the reader could not name it
        again), which withdraws the question: no card was exposed."""
        if not 0 <= index < len(self._exposed) or self._exposed[index] is not None:
            raise VisionError(f"no card at index {index!r} is waiting for confirmation")
        last = index == len(self._exposed) - 1
        if last and index > 0 and card == self._exposed[index - 1]:
            self._exposed.pop()
        elif card in self._exposed:
            raise VisionError(f"{str(card)!r} was already dealt at index {self._exposed.index(card)}")
        else:
            self._exposed[index] = card
        if last:
            held, self._held = self._held, []
            for n, h in enumerate(held):
                if h.card is None:  # another card, unread, meanwhile: asked about next
                    self._queued += self._unsure(None, h.candidates, h.frame, None, h.why, snapshot=h.snapshot)
                    self._held = held[n + 1:]
                    break
                self._queued += self._take(h.card, h.confidence, h.frame, None)
                if self._exposed and self._exposed[-1] is None:  # that card became a question itself
                    self._held = held[n + 1:]
                    break

    def new_deal(self) -> None:
        self._unsure_read = None
        self._covered = None
        self._tries = 0
        self._stills.clear()
        self._as_is = None
        self._exposed.clear()
        self._held.clear()
        self._queued.clear()
        self._empty = False
        self._disturbed = True

    def resume(self, cards: Sequence[Card | None]) -> None:
        """Carry on a deal whose first cards are ``cards``, as the table holds them: after a
        restart, an undo, or a card the tracker did not see (entered by hand, the hock known by
        elimination). The next card is index ``len(cards)``; a card among them read again is not
        new. A last None is a card the dealer is being asked about."""
        listed = list(cards)
        known = [c for c in listed if c is not None]
        if len(listed) > DECK_SIZE or None in listed[:-1] or len(set(known)) != len(known):
            shown = [None if c is None else str(c) for c in listed]
            raise VisionError(f"cannot resume a deal from {shown!r}: at most {DECK_SIZE} distinct cards, "
                              "only the last one may await the dealer")
        self._exposed = listed
        self._empty = False
        self._covered = None  # kept against the old cards: the table has its word on them
        if self._held or self._queued:
            # Read against the old cards: look at the top card afresh instead.
            self._held.clear()
            self._queued.clear()
            self._disturbed = True

    def lost(self, frame: int | None = None) -> None:
        """The camera dropped out: whatever shows when it is back must be looked at afresh."""
        self._queued += self._give_up()
        self._prev = None
        self._still = 0
        self._disturbed = True
        self._empty_checked = False

    def finish(self) -> list[TrackEvent]:
        """The stream ended (a recording's last frame): what it leaves open becomes events. An
        unsure reading is acted on, and a card that lay on the box but was never seen in full
        view (the last card of a recording, under the dealer's thumb) is asked about: nothing
        follows to show it went by, and a card dealt is never dropped in silence."""
        events, self._queued = self._queued + self._give_up(), []
        kept, self._covered = self._covered, None
        if kept is not None:
            events += self._ask_kept(kept, "the stream ended with a card on the box never seen in full view")
        return events

    def update(self, image: np.ndarray, frame: int) -> list[TrackEvent]:
        """Look at one frame; return the events it completes (usually none)."""
        if self._last_frame is not None and frame <= self._last_frame:
            raise VisionError(f"frame numbers must increase: {frame!r} after {self._last_frame!r}")
        if self._last_frame is not None and frame > self._last_frame + 1:
            self.lost(frame)  # frames were skipped: a card may have moved meanwhile
        self._last_frame = frame
        self._follow_table()
        released, self._queued = self._queued, []
        return released + self._step(image, frame)

    def _step(self, image: np.ndarray, frame: int) -> list[TrackEvent]:
        image = check_image(image)
        if self.window is None:
            if not self._seek(image):
                self._keep_unseen(image, frame)
                return []
            return self._replay() + self._step_at(image, frame)
        return self._step_at(image, frame)

    def _keep_unseen(self, image: np.ndarray, frame: int) -> None:
        """No window yet: keep the first still picture after each change, so that the cards dealt
        while the window was sought can be read once it is found (the last SEEK_KEPT pictures,
        each kept as a JPEG of SEEK_QUALITY: that many frames kept raw would outgrow the box)."""
        height = max(1, round(_SEEK_WIDTH * image.shape[0] / image.shape[1]))
        small = cv2.cvtColor(cv2.resize(image, (_SEEK_WIDTH, height), interpolation=cv2.INTER_AREA),
                             cv2.COLOR_BGR2GRAY)
        if self._unseen_prev is None or self._unseen_prev.shape != small.shape \
                or self._changed(small, self._unseen_prev) > self.settings.motion:
            self._unseen_moved = True
        elif self._unseen_moved:
            self._unseen_moved = False
            ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, SEEK_QUALITY])
            if ok:
                self._unseen.append((frame, jpeg))
                del self._unseen[:-SEEK_KEPT]
        self._unseen_prev = small

    def _replay(self) -> list[TrackEvent]:
        """The window just found: the still pictures kept while it was sought, looked at through it
        in order as the frames they were, each as it first lay still. A card dealt before the window
        was found is then read, or asked about, and the cards after it keep their places: the first
        card read through the window is not taken for the soda."""
        kept, self._unseen, self._unseen_prev = self._unseen, [], None
        events: list[TrackEvent] = []
        for n, jpeg in kept:
            picture = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
            if picture is None:
                continue  # pragma: no cover - OpenCV decodes what it encoded
            for _ in range(self.settings.still_frames + 1):  # moved in, then lying still
                events += self._step_at(picture, n)
        return events

    def _step_at(self, image: np.ndarray, frame: int) -> list[TrackEvent]:
        """One frame through the known window."""
        view = self._look(image)
        s = self.settings
        settled: list[TrackEvent] = []
        if self._prev is None or self._changed(view.grey, self._prev.grey) > s.motion:
            self._still = 0
            self._disturbed = True
            self._empty_checked = False
            settled = self._give_up()
            self._steady = None
            if not self._top_gone:
                self._top_gone = self._leaving(view)
        else:
            self._still += 1
            self._steady = self._prev
        self._prev = view
        if not view.visible and self._still >= COVER.settle_frames and not view.paperless:
            view = _View(view.grey, True, view.paperless, view.ink, view.gains,
                         view.paper_colour, view.print)  # the card's own print
        if not view.visible:
            self._disturbed = True
            settled = settled or self._give_up()
        if settled or self._still < s.still_frames:
            return settled
        if not view.visible and not view.paperless:
            return self._note_covered(image, view, frame)
        if view.paperless and self._exposed and len(self._exposed) < DECK_SIZE and not self._empty:
            # Mid-deal the box is never empty: a still picture with no paper in it is a card the
            # camera saw too dark to tell as paper (a frame it underexposed), or a hand laid over
            # the window. It is kept as a covered card is, so that a card dealt so is asked about
            # should another follow, never skipped in silence.
            return self._note_covered(image, view, frame, dark=True)
        if view.visible:
            if not self._disturbed:
                # The reference stays the picture the card was read from: followed here, a thumb
                # creeping in too slowly to count as motion would become the card's own print.
                return []
            return self._decide(image, view, frame)
        if view.paperless and self._still >= s.empty_frames and not self._empty_checked:
            self._empty_checked = True
            return self._check_empty(frame)
        return []

    # ---- looking -------------------------------------------------------------------------------------

    def _seek(self, image: np.ndarray) -> bool:
        """No window yet: look for the card's outline; adopt it once it lay still in full view."""
        from faro_box.vision.calibrate import find_window

        try:
            quad = find_window(image)
        except VisionError:
            self._seen = None
            return False
        h, w = image.shape[:2]
        if quad[:, 0].min() < 2 or quad[:, 1].min() < 2 or quad[:, 0].max() > w - 3 or quad[:, 1].max() > h - 3:
            self._seen = None  # cut by the picture's edge: not the box's window
            return False
        if self._seen is not None and float(np.abs(quad - self._seen[0]).max()) <= COVER.seek_tolerance:
            self._seen = (self._seen[0], self._seen[1] + 1)
        else:
            self._seen = (quad, 1)
        if self._seen[1] < COVER.seek_frames:
            return False
        self.window = parse_window(self._seen[0].tolist())
        self._window_arg = [(float(x), float(y)) for x, y in self.window]
        self._warp = None
        if not self.sees_card(image):
            self.window, self._window_arg, self._seen = None, None, None
            return False
        self._prev, self._still, self._disturbed = None, 0, True
        return True

    def _look(self, image: np.ndarray) -> _View:
        image = check_image(image)
        if self._warp is None:
            self._prepare(image.shape)
        assert self._crop is not None and self._warp is not None
        x0, y0, x1, y1 = self._crop
        half = cv2.resize(image[y0:y1, x0:x1], ((x1 - x0) // 2, (y1 - y0) // 2), interpolation=cv2.INTER_AREA)
        view = cv2.warpPerspective(half, self._warp, (VIEW_W, VIEW_H), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
        # The window's own edge is left out: a pixel of shake shows the box there, not the card.
        grey = cv2.GaussianBlur(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY), (3, 3), 0)[_EDGE:-_EDGE, _EDGE:-_EDGE]
        # The paper's colour as this view's brightest part shows it (not as the last card's did:
        # a court's brightest part may be its picture); a dim box floor is left as it is.
        gains = balance_gains(view)
        hsv = cv2.cvtColor(apply_gains(view, gains), cv2.COLOR_BGR2HSV)
        paper = self._paper(hsv)
        ink = np.where(paper, np.uint8(0), np.uint8(1))
        paperless = float(paper.mean()) < 0.05
        if not paperless and self._paper_gains:
            # Is it paper as the cards read last were paper, or as the camera sees it untouched?
            # Balanced on itself, an empty box's floor under a bright light turns grey, and would
            # be read as a card; the first card read may have been under another light.
            paperless = not any(
                float(self._paper(cv2.cvtColor(apply_gains(view, gains), cv2.COLOR_BGR2HSV)).mean()) >= 0.05
                for gains in (*self._paper_gains, (1.0, 1.0, 1.0)))
        b, g, r = cv2.mean(view, ink ^ 1)[:3]
        return _View(grey, self._occluded(ink) < self.settings.occlusion, paperless, ink, gains, (b, g, r))

    def _remember(self, view: _View) -> None:
        """``view`` is the card read, lying still: its paper's colour and its print are the deck's."""
        self._ref = view
        self._top_gone = False
        if view.paper_colour is not None:
            b, g, r = view.paper_colour
            mean = (b + g + r) / 3.0
            gains = (mean / max(b, 1.0), mean / max(g, 1.0), mean / max(r, 1.0))
            self._paper_gains = [gains, *self._paper_gains[:PAPERS_REMEMBERED - 1]]
        if view.ink is None:
            return
        self._prints = [*self._prints[1 - COVER.remembered:], view.ink]
        union = self._prints[0]
        for ink in self._prints[1:]:
            union = cv2.bitwise_or(union, ink)
        slack = 2 * COVER.print_slack + 1
        self._print = cv2.dilate(union, np.ones((slack, slack), np.uint8))

    def _reaching(self, ink: np.ndarray) -> np.ndarray | None:
        """What is not paper and joins the window's outermost strip (bool), or None: nothing."""
        if not cv2.countNonZero(cv2.bitwise_and(ink, self._seeds_u8)):
            return None  # nothing reaches the window's edge: nothing covers it (most frames)
        count, labels = cv2.connectedComponents(ink, connectivity=8)
        if count <= 1:
            return None
        reached = np.zeros(count, bool)
        reached[labels[self._seeds]] = True
        reached[0] = False
        return reached[labels]

    def _cover(self, ink: np.ndarray) -> np.ndarray | None:
        """What lies over the card (bool), widened a little, or None: nothing reaches the edge."""
        reaching = self._reaching(ink)
        return None if reaching is None else cv2.dilate(reaching.astype(np.uint8), self._kernel, iterations=2) > 0

    def _occluded(self, ink: np.ndarray) -> int:
        """The most covering pixels of the edge band in any 10×10 patch: a thumb fills a patch,
        while noise and shake scatter single pixels. Covering: not paper, joined to the window's
        outermost strip, and not print the reference showed there."""
        cover = self._reaching(ink)
        if cover is None:
            return 0
        if self._print is not None:
            cover &= self._print == 0
        # A thumb is a blob; a court's frame line or a border printed to the card's edge is a
        # line a pixel wide at this scale: opening keeps the one and drops the other (before
        # the band is cut out of it: the band is itself a pixel wide along the corners).
        opened = cv2.morphologyEx(np.where(cover, np.uint8(1), np.uint8(0)), cv2.MORPH_OPEN, _LINE)
        off = np.where(self._band & (opened > 0), np.float32(1), np.float32(0))
        per_cell = cv2.resize(off, _CELLS, interpolation=cv2.INTER_AREA) * _CELL_AREA
        return int(round(float(per_cell.max())))

    def _prepare(self, shape: tuple[int, ...]) -> None:
        assert self.window is not None
        h, w = shape[:2]
        lo = np.floor(self.window.min(axis=0)).astype(int) - 2
        hi = np.ceil(self.window.max(axis=0)).astype(int) + 2
        if lo[0] < 0 or lo[1] < 0 or hi[0] > w or hi[1] > h:
            raise VisionError(f"the window {self.window.ravel().round(1).tolist()!r} reaches outside "
                              f"the {w}x{h} picture")
        x0, y0, x1, y1 = int(lo[0]), int(lo[1]), int(hi[0]), int(hi[1])
        self._crop = (x0, y0, x1, y1)
        self._crop_window = [(float(x) - x0, float(y) - y0) for x, y in self.window]
        src = ((self.window - [x0, y0]) / 2.0).astype(np.float32)
        dst = np.array([[0, 0], [VIEW_W - 1, 0], [VIEW_W - 1, VIEW_H - 1], [0, VIEW_H - 1]], np.float32)
        self._warp = cv2.getPerspectiveTransform(src, dst)

    @staticmethod
    def _paper(hsv: np.ndarray) -> np.ndarray:
        """Card paper: unsaturated and not dark. The bar is relative, so dim light and a shadow
        falling across the card still pass, while skin, sleeves and the box's floor do not."""
        sat, val = hsv[..., 1], hsv[..., 2]
        bright = _percentile(val, 0.9)
        grey_sat = _percentile(sat, 0.1)
        return (sat < min(grey_sat + 60, 100)) & (val > 0.45 * bright) & (val > 60)

    def _changed(self, a: np.ndarray, b: np.ndarray) -> float:
        """Share of pixels of ``a`` outside the range of their 3×3 neighbourhood in ``b``: a pixel of
        shake moves edges but leaves every pixel within its neighbours' range."""
        lvl = self.settings.level
        hi = cv2.dilate(b, self._kernel)
        lo = cv2.erode(b, self._kernel)
        up = cv2.subtract(a, hi)
        down = cv2.subtract(lo, a)
        return float(np.count_nonzero(cv2.max(up, down) > lvl)) / a.size

    # ---- deciding ------------------------------------------------------------------------------------

    def _decide(self, image: np.ndarray, view: _View, frame: int) -> list[TrackEvent]:
        went_by = self._went_by(view)  # asked first: it came before this card
        reading = self._read(image)
        self._tries += 1
        if self._tries <= self.settings.retries and self._doubtful(reading.card, float(reading.confidence)):
            # The next frame's noise may let the reader name it: read again then. Should the
            # picture be disturbed first, this reading is the one to act on.
            self._unsure_read = (reading, image.copy(), view, frame)
            return went_by
        return went_by + self._conclude(reading, image, view, frame)

    def _read(self, image: np.ndarray) -> ReadingLike:
        """Read this frame the way the attempt's turn calls for: brightened, as it is, or
        brightened over the still frames so far averaged (the module's docstring says why)."""
        assert self._crop is not None  # a window is known before anything is read
        x0, y0, x1, y1 = self._crop
        crop, window = image[y0:y1, x0:x1], self._crop_window
        self._stills.append(crop.copy())  # the camera may reuse its buffer
        del self._stills[:-_STACK]
        turn = self._tries % 3
        if turn == 0 or self._as_is is None:
            self._as_is = self.reader.read(image, window=self._window_arg)
            return self._as_is
        if turn == 2 and len(self._stills) > 1:
            total = np.zeros(crop.shape, np.float32)
            for still in self._stills:
                total += still
            crop = (total * (1.0 / len(self._stills)) + 0.5).astype(np.uint8)
        return _checked(self.reader.read(cv2.LUT(crop, _LIGHTER), window=window), self._as_is)

    # ---- a card that never lay in full view ---------------------------------------------------

    def _note_covered(self, image: np.ndarray, view: _View, frame: int, *, dark: bool = False) -> list[TrackEvent]:
        """A still picture with something over the edge: a thumb on the card read last, or a new
        card whose own picture reaches its edge (a deck's first court, before its print is
        known). The new card is kept, so that it is asked about should the next card follow
        before it lies in full view: a card dealt is never skipped in silence. ``dark``: no paper
        shows at all (a card too dark to see, a hand): the whole picture is compared."""
        assert view.ink is not None
        cover = None if dark else self._cover(view.ink)
        if cover is None:
            cover = np.zeros(view.ink.shape, bool)
        if not _shows_enough(cover):
            return []  # a hand over most of the window: nothing to tell a card by
        if not self._top_gone and self._ref is not None and self._differs(view, self._ref, cover) is False:
            return []  # the card read last, under a thumb
        if dark and self._covered is not None and self._covered.dark and not self._top_gone:
            return []  # two dark pictures of one card differ by the camera's noise alone
        if self._covered is not None and not self._top_gone \
                and self._differs(view, self._covered.view, cover | self._covered.cover) is not True:
            return []
        events = self._went_by(view, cover)  # an earlier covered card, another than this one
        if len(self._exposed) >= DECK_SIZE or self._empty:
            return events
        reading = self.reader.read(image, window=self._window_arg)
        if (reading.card is not None and self._exposed and reading.card == self._exposed[-1]
                and float(reading.confidence) >= self.settings.min_confidence):
            # Its print looked unlike the card read last (a thumb over much of it, the light
            # moved), or it seemed to move off, but the reader is sure it is that card: kept, it
            # would become a question about a card never dealt.
            self._top_gone = False
            return events
        guess = ([reading.card] if reading.card is not None else []) + list(reading.candidates)
        self._covered = _Covered(view, cover, frame, self._snapshot(image), tuple(guess), fresh=self._top_gone,
                                 dark=dark)
        self._top_gone = False
        return events

    def _leaving(self, view: _View) -> bool:
        """Whether this moving frame shows the card last seen lying on top moving away
        (COVER.gone), judged where nothing lies over either picture."""
        top, top_cover = (self._ref, None) if self._covered is None else (self._covered.view, self._covered.cover)
        if top is None or view.ink is None:
            return False
        cover = self._cover(view.ink)
        if top_cover is not None:
            cover = top_cover if cover is None else cover | top_cover
        like = _likeness(view, top, cover)
        return like is not None and like <= COVER.gone

    def _went_by(self, view: _View, cover: np.ndarray | None = None) -> list[TrackEvent]:
        """The card kept by ``_note_covered`` if ``view`` shows another card: it was dealt unread."""
        kept = self._covered
        if kept is None:
            return []
        other = self._top_gone or self._differs(view, kept.view, kept.cover if cover is None else kept.cover | cover)
        if other is None:
            return []  # too little shows to tell: the card stays kept
        if kept.dark and other and self._ref is not None and self._differs(view, self._ref, cover) is False:
            other = False  # a hand lifted off the card read last: nothing was dealt under it
        self._covered = None
        if not other:
            return []  # the same card, in full view at last: it is read now
        return self._ask_kept(kept, "a card lay on the box too dark to be seen" if kept.dark
                              else "a card lay on the box too briefly to be seen in full view")

    def _ask_kept(self, kept: _Covered, why: str) -> list[TrackEvent]:
        """A card kept by ``_note_covered``, dealt unread: asked about (held behind a question
        the dealer has not answered yet)."""
        if self._exposed and self._exposed[-1] is None and self.settings.hold:
            if self._another_unread(kept.view, kept.fresh, kept.cover):
                self._held.append(_Held(None, 0.0, kept.frame, kept.candidates, kept.snapshot, why,
                                        kept.view, kept.cover))
            return []
        return self._unsure(None, kept.candidates, kept.frame, None, why, snapshot=kept.snapshot)

    def _another_unread(self, view: _View, fresh: bool, cover: np.ndarray | None = None) -> bool:
        """Whether an unread picture, while the dealer is asked about an earlier card, is another
        card than the unread one held last. Unread pictures in a row are taken for one card, as a
        noisy camera's picture of one card passes for another from frame to frame (a thumb
        resting on it before it pushes, more so), unless the card held was seen moving off or
        this picture's print correlates with the held one's no better than COVER.other_unread.
        Without that, a dealer slow to answer lost the cards dealt meanwhile, every later card
        then a place off."""
        last = self._held[-1] if self._held else None
        if last is None or last.card is not None or fresh or last.view is None:
            return True
        both = cover if last.cover is None else last.cover if cover is None else cover | last.cover
        like = _likeness(view, last.view, both)
        return like is not None and like <= COVER.other_unread

    def _differs(self, a: _View, b: _View, cover: np.ndarray | None = None) -> bool | None:
        """Whether two still pictures show different cards (``a`` this frame's), judged where
        nothing lay over either: their print correlated, against how well this camera's picture
        correlates with itself from one still frame to the next (a noisy camera's, less). None:
        too little of the card shows to tell (a hand over most of it)."""
        like = _likeness(a, b, cover)
        if like is None:
            return None
        ceiling = 1.0
        if self._steady is not None and self._steady is not a:
            ceiling = min(1.0, max(0.0, _likeness(a, self._steady, None) or 1.0))
        return like < COVER.same_card * ceiling

    def _give_up(self) -> list[TrackEvent]:
        """The still picture ended while its reading was still unsure: act on the last reading,
        so a card that lay too briefly to be read is asked about, never skipped."""
        self._tries = 0
        self._stills.clear()
        self._as_is = None
        if self._unsure_read is None:
            return []
        reading, image, view, frame = self._unsure_read
        return self._conclude(reading, image, view, frame)

    def _conclude(self, reading: ReadingLike, image: np.ndarray, view: _View, frame: int) -> list[TrackEvent]:
        self._unsure_read = None
        self._tries = 0
        self._stills.clear()
        self._as_is = None
        card = reading.card
        confidence = float(reading.confidence)
        self._disturbed = False
        before = self._ref
        fresh = self._top_gone  # the card on top before this one was seen moving off
        self._remember(view)
        if self._empty and card is None:
            return []  # the empty box's floor, or something unreadable: only a card named starts a deal
        if self._empty or (len(self._exposed) >= DECK_SIZE and card is not None and card != self._exposed[-1]):
            self.new_deal()  # a fresh deck in the box
        if self._exposed and self._exposed[-1] is None and self.settings.hold:
            # Is this the card the dealer is asked about, read at last, or the next one? Only
            # the dealer's answer tells: hold the reading until it comes.
            if card is not None and (not self._held or self._held[-1].card != card) and len(self._held) < DECK_SIZE:
                self._held.append(_Held(card, confidence, frame))
            elif (card is None and (before is None or fresh or self._differs(view, before) is not False)
                  and self._another_unread(view, fresh)):
                # Another card, unread: asked about after the answer, with its picture.
                why = f"the reader abstained ({getattr(reading, 'why', '') or 'no reason given'})"
                self._held.append(_Held(None, 0.0, frame, tuple(reading.candidates), self._snapshot(image), why, view))
            return []
        if (card is None and self._exposed and tuple(reading.candidates[:1]) == (self._exposed[-1],)
                and not fresh and before is not None and self._differs(view, before) is False):
            return []  # unsure, but its best guess is the card lying there, and it looks so: a hand passed over it
        if card is None or confidence < self.settings.min_confidence:
            why = (f"the reader abstained ({getattr(reading, 'why', '') or 'no reason given'})" if card is None
                   else f"{card} read with confidence {confidence:.2f}")
            return self._unsure(card, reading.candidates, frame, image, why)
        return self._take(card, confidence, frame, image)

    def _take(self, card: Card, confidence: float, frame: int, image: np.ndarray | None) -> list[TrackEvent]:
        """What a named card on top means, given the cards dealt so far."""
        top = self._exposed[-1] if self._exposed else None
        if card == top:
            return []
        if len(self._exposed) >= 2 and card == self._exposed[-2]:
            self._exposed.pop()
            return [CardReturned(card, len(self._exposed) - 1, frame)]
        if len(self._exposed) >= DECK_SIZE:
            return []
        if card not in self._exposed:
            if len(self._exposed) == DECK_SIZE - 1 and None not in self._exposed:
                confidence = 1.0  # the hock: the only card left, and the reader agrees
            self._exposed.append(card)
            return [CardExposed(card, len(self._exposed) - 1, confidence, frame)]
        return self._unsure(card, (), frame, image, f"{card} read, but it was dealt at {self._exposed.index(card)}")

    def _unsure(self, card: Card | None, candidates: Sequence[Card], frame: int,
                image: np.ndarray | None, reason: str, *, snapshot: np.ndarray | None = None) -> list[TrackEvent]:
        """An abstention, a doubtful card, or a card the deck forbids: ask, unless the deck
        leaves a single card, which the reader did not contradict."""
        index = len(self._exposed)
        if index >= DECK_SIZE:
            return []
        remaining = self._remaining()
        if index == DECK_SIZE - 1 and None not in self._exposed and card in (None, remaining[0]):
            self._exposed.append(remaining[0])
            return [CardExposed(remaining[0], index, 1.0, frame)]
        undealt = set(remaining)
        ordered = ([card] if card is not None else []) + list(candidates)
        shortlist = tuple(dict.fromkeys(c for c in ordered if c in undealt))[: self.settings.candidates]
        self._exposed.append(None)
        if snapshot is None and image is not None:
            snapshot = self._snapshot(image)
        return [NeedsConfirmation(index, frame, shortlist, snapshot, reason)]

    def _snapshot(self, image: np.ndarray) -> np.ndarray:
        """What the dealer is shown with a question: the window, or the frame in find mode."""
        return image.copy() if self._window_arg is None else warp_window(image, self._window_arg)

    def _doubtful(self, card: Card | None, confidence: float) -> bool:
        """An abstention, a card named without enough confidence, or a card the deck forbids that
        is neither the top card nor the one before it (a card put back)."""
        if self._empty or len(self._exposed) >= DECK_SIZE:
            return False
        if card is None:
            return not (len(self._exposed) == DECK_SIZE - 1 and None not in self._exposed)  # the hock
        return card in self._exposed[:-2] or confidence < self.settings.min_confidence

    def _check_empty(self, frame: int) -> list[TrackEvent]:
        # Paper vanishes under a hand too: only after the whole deck has come out is it the end.
        if self._empty or len(self._exposed) < DECK_SIZE:
            return []
        self._empty = True
        return [BoxEmpty(frame, len(self._exposed))]


def _checked(brightened: ReadingLike, as_is: ReadingLike) -> ReadingLike:
    """The brightened picture's reading if the picture as it is leaves its card open, else an
    abstention: as it is, the reader named no card or the same one, was not sure alone of
    another rank or suit, and did not shortlist only other cards."""
    card = brightened.card
    if card is None or card == as_is.card:
        return brightened
    rank, suit = getattr(as_is, "rank", None), getattr(as_is, "suit", None)
    if as_is.card is None and rank in (None, card.rank) and suit in (None, card.suit) \
            and (not as_is.candidates or card in as_is.candidates[:3]):
        return brightened
    return _Abstention(tuple(dict.fromkeys((*as_is.candidates, *brightened.candidates))),
                       f"brightened, it reads {card}, which the picture as it is contradicts")


def _likeness(a: _View, b: _View, cover: np.ndarray | None) -> float | None:
    """How well two pictures' print (the shading left out) correlates where ``cover`` (view
    pixels) lay over neither, at the best of a few pixels' shift; None: too little left to tell."""
    if not _shows_enough(cover):
        return None
    keep = np.ones(a.grey.shape, bool) if cover is None else ~cover[_EDGE:-_EDGE, _EDGE:-_EDGE]
    pa, pb = (np.where(keep, _print_of(v), np.uint8(128)).astype(np.float32) for v in (a, b))
    m = COVER.other_card_shift
    return float(cv2.matchTemplate(pb, pa[m:-m, m:-m], cv2.TM_CCOEFF_NORMED).max())


def _shows_enough(cover: np.ndarray | None) -> bool:
    """Whether enough of the card shows beside ``cover`` (view pixels) to tell it from another."""
    if cover is None:
        return True
    inner = cover[_EDGE:-_EDGE, _EDGE:-_EDGE]
    return bool(inner.size - np.count_nonzero(inner) >= 0.15 * inner.size)


def _print_of(view: _View) -> np.ndarray:
    """The picture less its shading: a passing shadow or drifting light changes the levels of a
    whole region, the print only where it is. Kept on the view: the card read last, the one kept
    and the frame before are compared again and again."""
    if not view.print:
        shading = cv2.GaussianBlur(view.grey, (0, 0), COVER.shading_sigma)
        view.print.append(cv2.addWeighted(view.grey, 1.0, shading, -1.0, 128.0))
    return view.print[0]


def _percentile(channel: np.ndarray, q: float) -> int:
    """The ``q`` quantile of a uint8 image, from its histogram (a sort costs ten times more)."""
    hist = cv2.calcHist([channel], [0], None, [256], [0, 256]).ravel()
    return int(np.searchsorted(np.cumsum(hist), q * channel.size))


def _seed_strip(w: int, h: int, band: np.ndarray) -> np.ndarray:
    """The band's outermost strip (COVER.seed_strip of the width in from every edge)."""
    t0, t1 = max(1, round(COVER.seed_strip[0] * w)), max(2, round(COVER.seed_strip[1] * w))
    outer = np.ones((h, w), bool)
    outer[t1: h - t1, t1: w - t1] = False
    outer[:t0, :] = outer[h - t0:, :] = outer[:, :t0] = outer[:, w - t0:] = False
    return outer & band


def _edge_band(w: int, h: int) -> np.ndarray:
    """The card's white margin along the window's edges, clear of the corner indices: a thin
    strip along every edge, widened along the sides where the margin is wide."""
    band = np.zeros((h, w), bool)
    t0, t1 = max(1, round(0.02 * w)), max(2, round(0.03 * w))
    cx, cy = round(0.08 * w), round(0.08 * h)
    band[cy: h - cy, t0:t1] = band[cy: h - cy, w - t1: w - t0] = True
    band[t0:t1, cx: w - cx] = band[h - t1: h - t0, cx: w - cx] = True
    band[round(0.24 * h): round(0.76 * h), t0: round(0.12 * w)] = True
    band[round(0.24 * h): round(0.76 * h), w - round(0.12 * w): w - t0] = True
    band[t0: round(0.08 * h), round(0.24 * w): round(0.76 * w)] = True
    band[h - round(0.08 * h): h - t0, round(0.24 * w): round(0.76 * w)] = True
    return band
