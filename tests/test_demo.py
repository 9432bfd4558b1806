"""`faro-box demo` end to end in a subprocess: the simulated box through the real reader, tracker,
table, journal, terminal view and (in the second test) the web display."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import httpx2
import pytest

from faro_box.demo.faro import PLAYERS, plan_bets, stacked_deck

FARO_BOX = [sys.executable, "-m", "faro_box.cli"]


def _final_balances(stdout):
    """{"ann": 1.0, ..., "banker": -8.0} from "Final balances: Ann +1, ..., Bank −8"."""
    line = [x for x in stdout.splitlines() if x.startswith("Final balances: ")][-1]
    pairs = re.findall(r"(\w+) ([+−]?\d+(?:\.\d+)?)", line[len("Final balances: "):])
    return {("banker" if who == "Bank" else who.lower()): float(amount.replace("−", "-")) for who, amount in pairs}


def test_the_demo_deck_and_bets_show_every_kind_of_bet():
    for seed in range(1, 30):
        deck = stacked_deck(seed)
        assert sorted(map(str, deck)) == sorted(map(str, stacked_deck(seed)))
        assert len(set(deck)) == 52
        plan = plan_bets(deck)
        shows = {p.shows for p in plan}
        assert {"a plain bet that wins", "a coppered bet that wins", "a split: the bank takes half",
                "a group bet on the 2x2 block", "high card, settled every turn",
                "calling the turn right"} <= shows, seed
        assert {p.command.player for p in plan} <= set(PLAYERS)


@pytest.mark.slow
def test_the_fast_demo_deals_a_whole_deck_and_exits_zero(tmp_path):
    journal = tmp_path / "demo.sqlite"
    done = subprocess.run([*FARO_BOX, "demo", "--fast", "--no-web", "--seed", "3", "--journal", str(journal)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    assert "All 52 cards recorded as dealt" in done.stdout
    assert "Checked: `faro-box settle` settles the exported deal script to the same balances." in done.stdout
    balances = _final_balances(done.stdout)
    assert set(balances) == {*PLAYERS, "banker"} and sum(balances.values()) == 0
    assert any(v != 0 for v in balances.values())
    # The announcements of the scripted bets came through the terminal view, one line each: the
    # table is not reprinted after every card when the output is not a terminal.
    assert "coppered" in done.stdout and "a split" in done.stdout and "call" in done.stdout
    assert len(done.stdout.splitlines()) < 120 and "\x1b[" not in done.stdout
    assert done.stdout.count("No deal in progress.") == 1  # the table, once, when the view starts
    exported = subprocess.run([*FARO_BOX, "export", "--journal", str(journal)], capture_output=True, text=True,
                              timeout=120)
    script = json.loads(exported.stdout)
    assert [str(c) for c in stacked_deck(3)] == script["deck"]
    # Run again on the same journal: the finished deal is there, nothing is dealt twice.
    again = subprocess.run([*FARO_BOX, "demo", "--fast", "--no-web", "--seed", "3", "--journal", str(journal)],
                           capture_output=True, text=True, timeout=900)
    assert again.returncode == 0 and "already holds this demonstration's finished deal" in again.stdout
    assert _final_balances(again.stdout) == balances


@pytest.mark.slow
def test_the_demo_serves_the_table_on_the_web(tmp_path):
    # Ctrl-C as at a terminal: a test run started in the background by a script inherits SIGINT
    # ignored (POSIX), and so would the demo, which then rightly never stops on it. A handler of
    # our own here leaves the demo SIGINT's default across exec. faulthandler: a demo that still
    # does not stop is asked for every thread's stack.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        process = subprocess.Popen([*FARO_BOX, "demo", "--fast", "--port", "0", "--seed", "2"],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   env=os.environ | {"PYTHONFAULTHANDLER": "1"})
    finally:
        signal.signal(signal.SIGINT, previous)
    stream_lines: list[str] = []
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 120
        url = None
        while url is None and time.monotonic() < deadline:
            found = [re.search(r"Audience page: (http://127\.0\.0\.1:\d+)/", x) for x in list(lines)]
            url = next((m.group(1) for m in found if m), None)
            time.sleep(0.2)
        assert url, "".join(lines[-50:])
        # A browser holding the page: an open event stream until the end.
        listener = threading.Thread(target=_listen, args=(f"{url}/api/events", stream_lines), daemon=True)
        listener.start()
        seen_cards = set()
        deadline = time.monotonic() + 900
        state = {}
        while time.monotonic() < deadline:
            state = httpx2.get(f"{url}/api/state", timeout=10).json()
            seen_cards.add(len(state["exposed"]))
            if state["ended"] and state["deal"] == 1:
                break
            assert process.poll() is None, "".join(lines[-50:])
            time.sleep(0.3)
        assert state["ended"] and state["finished"] and len(state["exposed"]) == 52
        assert len(seen_cards) > 3     # the page followed the deal while it was dealt
        assert state["history"][-1]["outcome"] == "finished"
        assert state["balances"]["banker"] == -sum(v for k, v in state["balances"].items() if k != "banker")
        page = httpx2.get(f"{url}/", timeout=10)
        assert page.status_code == 200 and "<html" in page.text.lower()
        # The deal is over and the display stays up, saying so in one line, until Ctrl-C.
        deadline = time.monotonic() + 60
        while not any("until Ctrl-C" in x for x in list(lines)) and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1)
        assert process.poll() is None, "".join(lines[-50:])
        assert any(x.startswith("The display stays at http://127.0.0.1:") for x in lines)
        assert any(x.startswith("data:") for x in stream_lines)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGABRT)
            process.wait(timeout=10)
            reader.join(5)
            pytest.fail("the demo did not stop within 60 s of Ctrl-C; its last output and threads:\n"
                        + "".join(lines[-200:]))
        reader.join(timeout=10)
    assert process.returncode == 0, "".join(lines[-50:])
    assert {k: float(v) for k, v in state["balances"].items()} == _final_balances("".join(lines))
    # The open stream did not make uvicorn cancel tasks and print their tracebacks at shutdown.
    after = "".join(lines).split("until Ctrl-C.", 1)[1]
    assert after.strip() == "", after[:3000]


def _listen(url, into):
    try:
        with httpx2.stream("GET", url, timeout=httpx2.Timeout(10, read=None)) as response:
            for line in response.iter_lines():
                into.append(line)
    except httpx2.HTTPError:  # the server went away: what a browser sees too
        into.append("closed")


class _Interrupted(Exception):
    pass


@pytest.mark.slow
def test_an_interrupted_demo_resumes_from_the_journal_where_the_box_shows_its_last_card(tmp_path):
    """The demo stops mid-deal (power cut); run again on the journal, it takes up the box's film
    at the last recorded card, reads on through the same bridge as `faro-box run`, and ends the
    deal as the uninterrupted run does."""
    import io

    from faro_box.demo.faro import Demo
    from faro_box.table.journal import Journal
    from faro_box.table.table import Table
    from faro_box.vision.reader import Reader
    from faro_box.vision.sim.simbox import FPS, SimBox
    from faro_box.vision.track import Tracker

    seed = 5

    def fresh_box():
        return SimBox(stacked_deck(seed), seed=seed, still=(3, 4), pace=0.4, fine=False)

    path = tmp_path / "demo.sqlite"
    with Journal(path) as journal:
        table = Table(journal)
        box = fresh_box()

        def clock():   # the power goes once 20 cards are recorded
            if table.state()["next_index"] >= 20:
                raise _Interrupted()
            return time.monotonic()

        demo = Demo(table, box, Tracker(Reader(), window=box.window.tolist()), realtime=False, fps=FPS,
                    out=io.StringIO(), clock=clock)
        with pytest.raises(_Interrupted):
            demo.run()
        demo.close()
    fed: list[int] = []
    with Journal(path) as journal:
        table = Table(journal)
        assert table.state()["next_index"] == 20
        box = fresh_box()
        tracker = Tracker(Reader(), window=box.window.tolist())
        update = tracker.update
        tracker.update = lambda image, frame: fed.append(frame) or update(image, frame)  # type: ignore[method-assign]
        out = io.StringIO()
        result = Demo(table, box, tracker, realtime=False, fps=FPS, out=out).run()
    assert "Resuming deal 1 at card 20" in out.getvalue()
    assert fed[0] > 0 and box.truth(fed[0]).index == 19    # the film taken up at card 20 on top
    assert result.exposed == [str(c) for c in stacked_deck(seed)] and result.wrong == []
    assert result.settled == result.balances and result.read + result.confirmed >= 30
    box = fresh_box()
    whole = Demo(Table(Journal()), box, Tracker(Reader(), window=box.window.tolist()), realtime=False, fps=FPS,
                 out=io.StringIO()).run()
    assert result.balances == whole.balances     # as if the power had never gone


@pytest.mark.slow
def test_the_demos_speak_the_chosen_language():
    faro = subprocess.run([*FARO_BOX, "demo", "--fast", "--no-web", "--seed", "3", "--lang", "ru"],
                          capture_output=True, text=True, timeout=900)
    assert faro.returncode == 0, faro.stderr
    assert "Все 52 карты записаны как сданные" in faro.stdout
    assert "Проверено: `faro-box settle`" in faro.stdout
    final = [x for x in faro.stdout.splitlines() if x.startswith("Итоговый счёт: ")]
    assert len(final) == 1 and "Банк " in final[0]
    assert "Талия 1 (foster)" in faro.stdout and "Deal 1" not in faro.stdout
    bank = subprocess.run([*FARO_BOX, "baccarat-demo", "--fast", "--no-web", "--coups", "1", "--lang", "fr"],
                          capture_output=True, text=True, timeout=900)
    assert bank.returncode == 0, bank.stderr
    assert "1\u00a0coup" not in bank.stdout and "1 coup\u00a0; cartes lues par la caméra" in bank.stdout
    assert "Jetons à la fin\u00a0: " in bank.stdout and "Vérifié\u00a0: `faro-box settle`" in bank.stdout
