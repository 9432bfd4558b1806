"""Baccarat Banque scripts in and out of the live table: export a journaled bank, replay a script.

``export(entries, number)`` replays one bank's journal entries and writes it as the script
``faro-box settle`` reads (docs/baccarat.md; ``BankState.script``): the cards in the order they left
the shoe, and per finished coup its bets and the choices made. A coup still being dealt is left
out, though its cards stand in the shoe (settle reads a shoe only as far as the coups need it).

``script_steps(doc)`` turns a script into the commands the camera and the dealer would give
(the bets, banco claims first as settle takes them, then each card as the camera reads it and
each call where the table waits for one), played first on a private bank state; a bet refused
there is listed as settle lists it. ``replay(table, doc)`` plays them into a table and, like
the faro replay, resumes a replay of the same script that stopped (the journal's last bank began
with the same start): the commands already journaled are skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from faro_box.errors import FaroBoxError, JournalError, ScriptError
from faro_box.rules.baccarat import Seat, settle_document
from faro_box.rules.baccarat.shoe import parse_shoe
from faro_box.table.baccarat.commands import (
    Banco,
    BankBet,
    BankCall,
    BankCard,
    BankCommand,
    BankerLeaves,
    LeaveOn,
    StartBank,
)
from faro_box.table.baccarat.state import CALL_FLAGS, BankState
from faro_box.table.journal import Entry
from faro_box.table.table import Outcome, Replay, Table


def export(entries: Sequence[Entry], number: int) -> dict[str, Any]:
    """Bank ``number`` (its journal entries, StartBank first) as a settle script."""
    state = BankState()
    for entry in entries:
        try:
            state.apply(entry.command, number)  # type: ignore[arg-type]
        except FaroBoxError as exc:
            raise JournalError(f"entry {entry.seq} of bank {number} cannot be replayed: {exc}") from None
    return state.script()


def script_steps(doc: Mapping[str, Any]) -> tuple[list[BankCommand], list[dict[str, Any]]]:
    """The commands a bank script stands for, and the bets refused (``{"coup", "bet", "error"}``)."""
    settle_document(doc)  # a document that cannot be played is refused whole, as settle refuses it
    start = StartBank(tuple(doc["players"]), dict(doc["sides"]), doc["banker"], doc["fund"])
    state = BankState()
    state.apply(start, 1)
    steps: list[BankCommand] = [start]
    rejected: list[dict[str, Any]] = []
    cards = iter(parse_shoe(doc["shoe"]))

    def take(command: BankCommand) -> str | None:
        """Play ``command``; the reason it is refused, or None."""
        nonlocal state
        fork = state.fork()
        try:
            fork.apply(command)
        except FaroBoxError as exc:
            return str(exc)
        state = fork
        steps.append(command)
        return None

    for number, coup in enumerate(doc.get("coups", []), start=1):
        bank = state.bank
        assert bank is not None
        if bank.ended is not None:
            rejected.append({"coup": number, "bet": None,
                             "error": f"the bank has ended ({bank.ended.value}): coup {number} is not played"})
            continue
        rejected += _bets(bank.players, coup.get("bets", []), number, take, lambda: state)
        while state.bank is not None and (state.bank.coup is not None or len(state.bank.coups) < number):
            waiting = state.waiting() or ""
            if waiting == "bets" or waiting.startswith("card_"):  # the first card closes the bets
                command: BankCommand = BankCard(next(cards))  # settle saw that the shoe lasts
            else:
                seat = Seat(waiting.removeprefix("call_"))
                coup_now = state.bank.coup
                must = coup_now.draws(seat) if seat is not Seat.BANKER and coup_now is not None else None
                command = BankCall(seat.value, bool(coup.get(CALL_FLAGS[seat], False)) if must is None else must)
            refused = take(command)
            if refused is not None:
                raise ScriptError(f"coup {number}: the table refuses {command.to_json()} ({refused}), "
                                  "which settle plays")
        if coup.get("banker_leaves", False):
            take(BankerLeaves())  # honoured after a ruin or an empty shoe too, as settle does
    return steps, rejected


def _bets(players: tuple[str, ...], bets: list[Mapping[str, Any]], number: int,
          take: Callable[[BankCommand], str | None], now: Callable[[], BankState]) -> list[dict[str, Any]]:
    """Banco claims first, then ordinary bets in the order of play, as settle takes them."""
    refused: list[dict[str, Any]] = []

    def place(index: int, bet: Mapping[str, Any]) -> None:
        fund = now().bank.fund  # type: ignore[union-attr]
        try:
            if bet.get("banco", False) and "stake" in bet and bet["stake"] != fund:
                raise ScriptError(f"a banco stakes the whole fund of {fund}, not {bet['stake']!r}")
            reason = take(_bet_command(bet))
        except FaroBoxError as exc:
            reason = str(exc)
        if reason is not None:
            refused.append({"coup": number, "bet": index, "error": reason})

    def order_of_play(item: tuple[int, Mapping[str, Any]]) -> int:
        player = item[1].get("player")
        return players.index(player) if player in players else len(players)

    bancos = [(i, b) for i, b in enumerate(bets) if b.get("banco", False)]
    for index, bet in bancos:
        place(index, bet)
    if bancos:
        bank = now().bank
        assert bank is not None
        claimed = {b.get("player"): i for i, b in bancos}
        refused += [{"coup": number, "bet": claimed[p], "error": why} for p, why in bank.banco().beaten]
    for index, bet in sorted(((i, b) for i, b in enumerate(bets) if not b.get("banco", False)), key=order_of_play):
        place(index, bet)
    return sorted(refused, key=lambda r: r["bet"])


def _bet_command(bet: Mapping[str, Any]) -> BankCommand:
    player, cheval = bet.get("player"), bool(bet.get("cheval", False))
    if bet.get("banco", False):
        if cheval or bet.get("left_on", False):
            raise ScriptError("a banco is the whole fund on the player's own side: not à cheval and not "
                              "winnings left on")
        return Banco(player)  # type: ignore[arg-type]
    if bet.get("left_on", False):
        if "stake" in bet:
            raise ScriptError("winnings left on are their own stake: leave out 'stake'")
        return LeaveOn(player, cheval=cheval, cut=True)  # type: ignore[arg-type]
    if "stake" not in bet:
        raise ScriptError("the bet has no 'stake'")
    return BankBet(player, bet["stake"], cheval=cheval, cut=True)  # type: ignore[arg-type]


def replay(table: Table, doc: Mapping[str, Any], *, between: Callable[[], None] | None = None) -> Replay:
    """Play a bank script into ``table`` (resuming a replay of the same script that stopped)."""
    steps, rejected = script_steps(doc)
    done = table.journaled_since(steps[0])
    outcomes: list[Outcome] = []
    position = 0
    for command in steps:
        if position < len(done) and done[position] == command:
            position += 1
            continue
        outcomes.append(table.handle(command))  # type: ignore[arg-type]  # played on a bank state first
        if between is not None:
            between()
    return Replay(tuple(outcomes), position, tuple(rejected))
