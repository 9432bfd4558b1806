"""The table's events: frozen values inside, one JSON codec at the edge, the JSON the pages read."""

from __future__ import annotations

import dataclasses
import enum
import json
import typing
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from faro_box.cards import FULL_DECK, Card
from faro_box.errors import FaroBoxError
from faro_box.table.commands import CardSeen, CardUnread, ConfirmCard, PlaceBet, StartDeal, UndoCard
from faro_box.table.events import (
    EVENT_TYPES,
    CardPending,
    CardTaken,
    How,
    Reason,
    Report,
    TableEvent,
    event_from_json,
    event_to_json,
)
from faro_box.table.journal import Journal
from faro_box.table.table import Table

DECK = [str(c) for c in FULL_DECK]
_JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=8))
_REPORTS = st.dictionaries(st.text(max_size=8), _JSON_SCALARS, max_size=4)


def _strategy(hint: Any) -> st.SearchStrategy[Any]:
    if hint is Card:
        return st.sampled_from(FULL_DECK)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return st.sampled_from(list(hint))
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(0, 10**6)
    if hint is str:
        return st.text(max_size=12)
    if hint == Report:
        return _REPORTS
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple:
        return st.lists(_strategy(args[0]), max_size=4).map(tuple)
    if type(None) in args:
        return st.one_of(st.none(), *(_strategy(a) for a in args if a is not type(None)))
    raise AssertionError(f"no strategy for {hint!r}")


def _events(cls: type[TableEvent]) -> st.SearchStrategy[TableEvent]:
    hints = typing.get_type_hints(cls)
    return st.builds(cls, **{f.name: _strategy(hints[f.name]) for f in dataclasses.fields(cls)})


ANY_EVENT = st.one_of(*(_events(cls) for cls in EVENT_TYPES.values()))


@given(ANY_EVENT)
def test_every_event_survives_the_json_round_trip(event: TableEvent) -> None:
    text = json.dumps(event_to_json(event), ensure_ascii=False)
    assert event_from_json(json.loads(text)) == event


def test_each_event_type_is_named_once() -> None:
    assert len({cls.TYPE for cls in EVENT_TYPES.values()}) == len(EVENT_TYPES) == 30


def test_the_events_hold_cards_and_enums_and_their_json_is_what_the_pages_read() -> None:
    table = Table(Journal())
    heard: list[TableEvent] = []
    table.subscribe(lambda event, state: heard.append(event))
    table.handle(StartDeal("foster", ("ann",), {}))
    table.handle(PlaceBet("ann", {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 2}))
    table.handle(CardUnread(0, ("AS", "AC"), "/snapshots/s.png"))
    table.handle(CardSeen("2S", 1, 0.9, 7))
    table.handle(ConfirmCard(0, "AS"))
    table.handle(UndoCard())
    pending = next(e for e in heard if isinstance(e, CardPending))
    assert pending.candidates == (Card.parse("AS"), Card.parse("AC")) and pending.reason is Reason.UNREAD
    taken = [e for e in heard if isinstance(e, CardTaken)]
    assert [(e.card, e.how) for e in taken] == [(Card.parse("AS"), How.CONFIRMED), (Card.parse("2S"), How.SEEN)]
    # The event stream's text, key by key and in this order, as it always was.
    assert [json.dumps(event_to_json(e), separators=(",", ":")) for e in heard] == [
        '{"type":"start_deal","deal":1,"profile":"foster","players":["ann"],"house_rules":{},"seq":1}',
        '{"type":"place","player":"ann","bet":{"id":"a1","kind":"rank","ranks":["9"],"stake":2},"seq":2}',
        '{"type":"pending","index":0,"candidates":["AS","AC"],"snapshot":"/snapshots/s.png","reason":"unread",'
        '"seq":3}',
        '{"type":"queued","index":1,"card":"2S","seq":4}',
        '{"type":"card","index":0,"card":"AS","role":"soda","turn":null,"how":"confirmed","seq":5}',
        '{"type":"card","index":1,"card":"2S","role":"loser","turn":1,"how":"seen","seq":5}',
        '{"type":"undo","index":1,"card":"2S","role":"loser","turn":1,"reverted":null,"seq":6}',
    ]
    table.report_fault("camera", "no picture")
    assert json.dumps(event_to_json(heard[-1]), separators=(",", ":")) == \
        '{"type":"fault","seq":6,"device":"camera","message":"no picture"}'


@pytest.mark.parametrize(("doc", "words"), [
    ({"type": "shuffle"}, "unknown event type 'shuffle'"),
    ({"type": "no_card", "index": 3, "card": "AS", "colour": "red"}, r"unknown field\(s\) 'colour'"),
    ({"type": "no_card", "index": 3}, "does not fit"),
    ({"type": "no_card", "index": 3, "card": "ZZ"}, "ZZ"),
])
def test_a_document_that_is_no_event_is_refused(doc: dict[str, Any], words: str) -> None:
    with pytest.raises(FaroBoxError, match=words):
        event_from_json(doc)


# ----- the commands' codec, on any command the table could be sent ---------------------------------

_NAMES = st.text(alphabet="abcdefghij", min_size=1, max_size=8)
_SPEC = st.fixed_dictionaries({"id": _NAMES, "stake": st.integers(1, 50)},
                              optional={"kind": st.sampled_from(["rank", "odd"]), "copper": st.booleans()})


@st.composite
def _start_bank(draw: st.DrawFn) -> Any:
    from faro_box.table.baccarat.commands import StartBank

    players = tuple(draw(st.lists(_NAMES, min_size=1, max_size=4, unique=True)))
    sides = {p: draw(st.sampled_from(["right", "left"])) for p in players}
    return StartBank(players, sides, draw(_NAMES.filter(lambda n: n not in players)), draw(st.integers(1, 100)))


def _commands() -> st.SearchStrategy[Any]:
    from faro_box.table.baccarat import commands as bank
    from faro_box.table.faro import commands as faro

    cards, index = st.sampled_from(FULL_DECK), st.integers(0, 51)
    confidence = st.floats(0, 1, allow_nan=False)
    frame = st.none() | st.integers(0, 10**6)
    guesses = st.lists(cards, max_size=3).map(tuple)
    snapshot = st.none() | st.just("/snapshots/deal1-card3.png")
    return st.one_of(
        st.builds(faro.StartDeal, st.just("foster"), st.lists(_NAMES, min_size=1, max_size=4, unique=True).map(tuple),
                  st.just({}) | st.just({"turn_pays": 5})),
        st.builds(faro.PlaceBet, _NAMES, _SPEC),
        *(st.builds(cls, _NAMES, _NAMES) for cls in (faro.WithdrawBet, faro.BarBet, faro.ReleaseBet)),
        st.builds(faro.CardSeen, cards, index, confidence, frame),
        st.builds(faro.CardUnread, index, guesses, snapshot),
        st.builds(faro.ConfirmCard, index, cards),
        st.builds(faro.NoCard, index),
        *(st.builds(cls) for cls in (faro.UndoCard, faro.EndDeal, faro.Misdeal, bank.BankerLeaves, bank.BankUndo)),
        _start_bank(),
        st.builds(bank.BankBet, _NAMES, st.integers(1, 1000), st.booleans(), st.booleans()),
        st.builds(bank.Banco, _NAMES),
        st.builds(bank.LeaveOn, _NAMES, st.booleans(), st.booleans()),
        st.builds(bank.BankCard, cards, confidence, frame),
        st.builds(bank.BankUnread, guesses, snapshot),
        st.builds(bank.BankConfirm, cards),
        st.builds(bank.BankCall, st.sampled_from(["right", "left", "banker"]), st.booleans()),
    )


@given(_commands())
def test_every_command_survives_the_journals_text(command: Any) -> None:
    from faro_box.table.commands import COMMAND_TYPES, command_from_text, command_to_text

    assert type(command) in COMMAND_TYPES.values()
    assert command_from_text(command_to_text(command)) == command


def test_the_table_shows_a_view_of_values_whose_json_is_the_state_document() -> None:
    from faro_box.table.baccarat.state import BankState
    from faro_box.table.views import BankView, FaroView, view_to_json

    table = Table(Journal())
    table.handle(StartDeal("foster", ("ann",), {}))
    table.handle(CardSeen("QS", 0))
    table.handle(CardUnread(1, ("2C",)))
    view = table.view()
    assert isinstance(view, FaroView) and view.exposed == (Card.parse("QS"),) and view.next_index == 1
    assert view.pending == {"index": 1, "candidates": ["2C"], "snapshot": None, "reason": "unread"}
    assert view_to_json(view) == table.state() and list(table.state())[-2:] == ["seq", "faults"]
    assert table.state()["exposed"] == ["QS"] and view.seq == 3
    never_opened = BankState().view()
    assert isinstance(never_opened, BankView) and "in_coup" not in view_to_json(never_opened)
