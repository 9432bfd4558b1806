"""Strangers guessing the dealer's PIN against a real `faro-box run` on 127.0.0.1: from many
addresses at once, all together, behind a forged X-Forwarded-For, and the memory it costs."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from box import Box, stranger
from display_helpers import PIN

GLOBAL_LIMIT = 30          # WebLimits.global_free_pin_tries: strangers' tries in a burst


@pytest.fixture
def box(tmp_path):
    # The dealer's tablet is 127.0.0.1; everyone else (127.0.0.2 …) is a stranger.
    running = Box(tmp_path, 'dealer_addresses = ["127.0.0.1/32"]')
    yield running
    running.stop()


def burst(box: Box, addresses: list[str], threads: int) -> list[int]:
    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(lambda a: box.login("0000", a), addresses))


def test_200_addresses_get_no_more_checks_than_the_global_limit_and_the_dealer_still_gets_in(box):
    codes = burst(box, [stranger(n) for n in range(200)], threads=40)
    for n in range(200, 260):            # then one at a time, until the strangers' budget is spent
        codes.append(box.login("0000", stranger(n)))
        if codes[-1] == 429:
            break
    checked = codes.count(401)           # 401 "wrong PIN": a check ran; 429/503: refused before it
    assert checked <= GLOBAL_LIMIT and codes[-1] == 429, codes
    assert set(codes) <= {401, 429, 503}
    assert box.login(PIN, stranger(300)) == 429          # even a right PIN waits for the budget
    assert box.login(PIN, "127.0.0.1") == 200            # the dealer's address has a budget of its own


def test_40_concurrent_wrong_logins_raise_the_servers_memory_by_less_than_100_mb(box):
    before = box.settled_rss_kb()
    codes = burst(box, [stranger(n) for n in range(40)], threads=40)
    assert set(codes) <= {401, 429, 503} and 401 in codes
    grown = box.rss_kb() - before
    assert grown < 100 * 1024, f"the server grew by {grown // 1024} MB ({before // 1024} MB before)"


def test_a_forged_x_forwarded_for_from_127_0_0_1_is_one_throttle_key(tmp_path):
    box = Box(tmp_path)
    try:
        codes = [box.login("0000", headers={"x-forwarded-for": f"10.9.8.{n}"}) for n in range(10)]
    finally:
        box.stop()
    assert codes[:4] == [401] * 4 and set(codes[4:]) == {429}, codes


def test_a_configured_proxy_is_believed(tmp_path):
    box = Box(tmp_path, 'trusted_proxies = ["127.0.0.1"]')
    try:
        codes = [box.login("0000", headers={"x-forwarded-for": f"10.9.8.{n}"}) for n in range(6)]
    finally:
        box.stop()
    assert codes == [401] * 6          # six clients behind the proxy, each within its free tries


def test_the_strangers_budget_refills_and_never_locks_for_good():
    from security_helpers import Clock

    from faro_box.display.throttle import PinThrottle

    clock = Clock()
    throttle = PinThrottle(clock, free=3, global_free=GLOBAL_LIMIT, ceiling=300, refill_s=60)
    for n in range(GLOBAL_LIMIT):
        assert throttle.begin(f"10.0.0.{n}") == 0
        throttle.end(f"10.0.0.{n}", ok=False)
    assert 59 < throttle.begin("10.0.1.1") <= 60          # spent: the next try in a minute
    assert throttle.begin("127.0.0.1", dealer=True) == 0  # the dealer's budget is untouched
    throttle.end("127.0.0.1", ok=True)
    for _ in range(5):                                    # a wrong PIN a minute, for five minutes
        clock.now += 60
        assert throttle.begin("10.0.1.1") == 0
        throttle.end("10.0.1.1", ok=False)
        assert throttle.begin("127.0.0.1", dealer=True) == 0   # never keeps the dealer out
        throttle.end("127.0.0.1", ok=True)


def test_a_request_through_a_trusted_proxy_without_x_forwarded_for_is_a_stranger(tmp_path):
    # The proxy runs on the box (127.0.0.1, a dealer's address by default): a request it passes on
    # without naming the client must not get the dealer's PIN budget.
    box = Box(tmp_path, 'trusted_proxies = ["127.0.0.1"]')
    try:
        codes = []
        for n in range(GLOBAL_LIMIT + 10):   # strangers behind the proxy spend their budget
            codes.append(box.login("0000", headers={"x-forwarded-for": f"10.9.{n // 200}.{n % 200 + 1}"}))
            if codes[-1] == 429:
                break
        assert codes[-1] == 429, codes
        assert box.login("0000") == 429                                     # no header: a stranger
        assert box.login(PIN, headers={"x-forwarded-for": "127.0.0.1"}) == 200   # the box's own screen
    finally:
        box.stop()
