"""A Baccarat Banque bank on any PC, no hardware: a seeded shoe, each card rendered on a cloth and
read by the real reader through the shown-card watcher, the live table, and a scripted dealer who
takes the bets, presses the calls and names the cards the reader would not.

The scripted players draw on 0–5 and stand on 6–7; the banker draws on 0–4 and stands on 5–7.
At the end the bank is exported as a settle script and settled again: the demo passes only when
that gives the very balances the table shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np

from faro_box.cards import FULL_DECK, Card
from faro_box.display.announce_baccarat import narrate
from faro_box.errors import RuleError
from faro_box.live.baccarat_camera import BankCamera
from faro_box.rules.baccarat import DEAL_ORDER, DECKS, settle_document, total
from faro_box.table.baccarat.commands import BankBet, BankCall, BankConfirm, BankerLeaves, StartBank
from faro_box.table.views import BankView, View
from faro_box.vision.shown import ShownCardWatcher
from faro_box.vision.sim import synth
from faro_box.vision.sim.render import render_card

PLAYERS = ("ann", "bob", "cid")
SIDES = {"ann": "right", "bob": "left", "cid": "right"}
BANKER, FUND = "eve", 20
W, H = 640, 480


@dataclass
class BankDemoResult:
    coups: int
    read: int  # cards the camera named
    confirmed: int  # cards the dealer named
    balances: dict[str, int]
    settled: dict[str, int] | None
    wrong: list[int]  # shoe positions where the table recorded another card than was dealt


def shuffled_shoe(seed: int) -> list[Card]:
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(FULL_DECK) * DECKS)
    return [FULL_DECK[i % len(FULL_DECK)] for i in order]


class BankDemo:
    def __init__(self, table: Any, reader: Any, *, seed: int = 1, coups: int = 3, frames_per_card: int = 4,
                 out: TextIO | None = None, lang: str = "en", pause: Callable[[], None] | None = None) -> None:
        self.table, self.coups, self.frames_per_card = table, coups, frames_per_card
        self.out, self.lang, self.pause = out, lang, pause
        self.shoe = shuffled_shoe(seed)
        self.rng = np.random.default_rng(seed + 1)
        self.cloth = synth.busy_background(W, H, self.rng)
        self.camera = BankCamera(table, ShownCardWatcher(reader))
        self.frame = 0
        self.read = self.confirmed = 0
        self._prev: View = table.view()

    def _bank(self) -> BankView:
        view = self.table.view()
        if not isinstance(view, BankView):
            raise RuleError(f"the demo's table is dealing {view.game!r}, not a bank")
        return view

    def _say(self) -> None:
        state = self._bank()
        for text in narrate(self._prev, state, self.lang):
            if self.out is not None:
                print(text, file=self.out, flush=True)
        self._prev = state

    def _show(self, card: Card) -> None:
        """The card over the reading spot for a few frames, then the spot clear again."""
        quad = synth.card_quad(W, H, 340, float(self.rng.uniform(-8, 8)),
                               (320 + float(self.rng.uniform(-20, 20)), 240), 0.03, self.rng)
        face = synth.place_card(self.cloth, render_card(card), quad)
        views = [face] * self.frames_per_card + [self.cloth] * 3
        before = 156 - self._bank().shoe["remaining"]
        for image in views:
            taken = self.camera.frame(synth.noise(image, 2.0, self.rng), self.frame)
            self.read += sum(1 for c in taken if c.TYPE == "bank_card")
            self.frame += 1
            if self.pause is not None:
                self.pause()
        state = self._bank()
        if 156 - state.shoe["remaining"] == before:  # unread, or refused: the dealer names it
            self.table.handle(BankConfirm(card))
            self.confirmed += 1

    def run(self) -> BankDemoResult:
        table = self.table
        first = table.view()
        if not isinstance(first, BankView) or first.closed:
            table.handle(StartBank(PLAYERS, SIDES, BANKER, FUND))
        self._say()
        hands: dict[str, list[Card]] = {}
        while len(self._bank().results) < self.coups and self._bank().ended is None:
            state = self._bank()
            waiting = state.waiting or ""
            if waiting == "bets":
                for player, stake in (("ann", 4), ("bob", 3)):
                    table.handle(BankBet(player, stake, cut=True))
                if (state.fund or 0) >= 9:
                    table.handle(BankBet("cid", 2, cheval=True, cut=True))
                hands = {"right": [], "left": [], "banker": []}
                self._deal_next(hands)
            elif waiting.startswith("card_"):
                self._deal_next(hands)
            elif waiting.startswith("call_"):
                seat = waiting.removeprefix("call_")
                draw = total(hands[seat]) <= (4 if seat == "banker" else 5)
                table.handle(BankCall(seat, draw))
            else:
                raise RuleError(f"the demo does not know what to do when the table waits for {waiting!r}")
            self._say()
        if self._bank().ended is None:
            table.handle(BankerLeaves())
            self._say()
        state = self._bank()
        script = table.script()
        wrong = [i for i, c in enumerate(script["shoe"]) if c != str(self.shoe[i])]
        balances = settle_document(script)["balances"]
        assert isinstance(balances, dict)  # the settled document's balances: {player: chips}
        settled: dict[str, int] = dict(balances)
        return BankDemoResult(len(state.results), self.read, self.confirmed, dict(state.balances), settled,
                              wrong)

    def _deal_next(self, hands: dict[str, list[Card]]) -> None:
        dealt = 156 - self._bank().shoe["remaining"]
        card = self.shoe[dealt]
        in_coup = sum(len(h) for h in hands.values())
        waiting = self._bank().waiting or ""
        seat = DEAL_ORDER[in_coup].value if in_coup < len(DEAL_ORDER) else waiting.removeprefix("card_")
        self._show(card)
        hands[seat].append(card)
