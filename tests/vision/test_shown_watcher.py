"""The shown-card watcher on rendered frames: one event per card shown, abstentions to the dealer."""

from __future__ import annotations

import numpy as np
import pytest

from faro_box.cards import Card
from faro_box.live.baccarat_camera import shown_to_command
from faro_box.table.baccarat.commands import BankCard, BankUnread
from faro_box.vision.reader import Reader
from faro_box.vision.shown import CardShown, ShownCardWatcher, ShownUnread, watch
from faro_box.vision.sim import synth
from faro_box.vision.sim.render import render_card

W, H = 640, 480


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


def _table(seed: int = 5) -> np.ndarray:
    return synth.busy_background(W, H, np.random.default_rng(seed))


def _with_card(table: np.ndarray, card: Card, seed: int, *, blur: float = 0.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    quad = synth.card_quad(W, H, 340, float(rng.uniform(-8, 8)), (320 + rng.uniform(-20, 20), 240), 0.03, rng)
    frame = synth.place_card(table, render_card(card), quad)
    return synth.blur(frame, blur)


def _noisy(frame: np.ndarray, n: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [synth.noise(frame, 2.0, rng) for _ in range(n)]


def test_one_event_per_card_shown_and_none_for_a_card_left_lying(reader: Reader) -> None:
    table = _table()
    nine, seven, nine_again = Card.parse("9C"), Card.parse("7H"), Card.parse("9C")
    frames = (_noisy(table, 3, 1)
              + _noisy(_with_card(table, nine, 11), 5, 2)
              # a hand passes over the 9 still lying there: no new card
              + _noisy(synth.occlude(_with_card(table, nine, 11), (0.3, 0.2, 0.7, 0.8)), 3, 3)
              + _noisy(_with_card(table, nine, 11), 4, 4)
              + _noisy(table, 3, 5)                                  # the spot is cleared
              + _noisy(_with_card(table, seven, 12), 4, 6)
              + _noisy(table, 3, 7)
              + _noisy(_with_card(table, nine_again, 13), 4, 8))      # another copy of 9♣: a new card
    events = watch(ShownCardWatcher(reader), frames)
    assert [type(e) for e in events] == [CardShown] * 3
    assert [str(e.card) for e in events if isinstance(e, CardShown)] == ["9C", "7H", "9C"]
    assert [shown_to_command(e) for e in events] == [BankCard("9C", events[0].confidence, events[0].frame),
                                                     BankCard("7H", events[1].confidence, events[1].frame),
                                                     BankCard("9C", events[2].confidence, events[2].frame)]


def test_a_card_the_reader_abstains_on_goes_to_the_dealer(reader: Reader) -> None:
    table = _table(6)
    blurred = _with_card(table, Card.parse("QD"), 21, blur=9.0)
    assert reader.read(blurred).card is None  # the premise: too blurred to name
    events = watch(ShownCardWatcher(reader), _noisy(table, 3, 1) + _noisy(blurred, 5, 2))
    assert len(events) == 1 and isinstance(events[0], ShownUnread)
    command = shown_to_command(events[0])
    assert isinstance(command, BankUnread) and command.candidates == events[0].candidates


def test_the_camera_deals_the_seed_coup_into_the_table(reader: Reader) -> None:
    from faro_box.live.baccarat_camera import BankCamera
    from faro_box.table.baccarat.commands import BankBet, BankConfirm, StartBank
    from faro_box.table.journal import Journal
    from faro_box.table.table import Table

    table = Table(Journal(":memory:"))
    table.handle(StartBank(("ann", "bob"), {"ann": "right", "bob": "left"}, "eve", 10))
    table.handle(BankBet("ann", 5))
    camera = BankCamera(table, ShownCardWatcher(reader))
    cloth = _table(9)
    frames: list[np.ndarray] = _noisy(cloth, 3, 0)
    for i, text in enumerate(["9C", "7H", "2S", "4C", "6D", "3C", "4D", "2H"]):
        frames += _noisy(_with_card(cloth, Card.parse(text), 100 + i), 4, i) + _noisy(cloth, 2, 50 + i)
    truth = ["9C", "7H", "2S", "4C", "6D", "3C", "4D", "2H"]
    taken = []
    for n, f in enumerate(frames):
        taken += camera.frame(f, n)
        if table.state()["pending"]:  # the dealer names a card the reader would not
            table.handle(BankConfirm(truth[156 - table.state()["shoe"]["remaining"]]))
    read = [str(c.card) for c in taken if isinstance(c, BankCard)]
    unread = [c for c in taken if isinstance(c, BankUnread)]
    assert len(read) + len(unread) == 8 and set(read) <= set(truth)
    assert len(read) >= 6  # measured: 6 of these 8 poses are read, two abstain
    state = table.state()
    # Right and left on 3 had to draw: their third cards carried their calls.
    assert state["hands"]["right"] == [None, None, "4D"] and state["hands"]["left"] == [None, None, "2H"]
    assert state["waiting"] == "call_banker"
    # A card while the coup waits for the banker's call is refused: a camera fault, not a guess.
    more = _noisy(_with_card(cloth, Card.parse("5S"), 200), 4, 99)
    assert [c for n, f in enumerate(more, start=len(frames)) for c in camera.frame(f, n)] == []
    assert table.state()["faults"][0]["device"] == "camera" and table.state()["hands"]["banker"] == [None, None]
