"""Who may try how often: token buckets, the PIN throttle and the queue of PIN checks.

A PIN check is a memory-hard scrypt (16 MiB): run in many threads at once it would take the
Pi's memory, and every thread's malloc arena would keep its share afterwards. So checks run one
at a time in a thread of their own, and a guess is counted against the budgets *before* its
check starts: a burst from many addresses at once is refused, not checked.

Strangers share one budget that refills slowly; the dealer's addresses (the box's own screen on
the loopback address, and any range set in the configuration) have a budget of their own, so a
stranger hammering the login never locks the dealer out.
"""

from __future__ import annotations

import asyncio
import ipaddress
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor

from faro_box.display.pin import check_pin

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class TokenBuckets:
    """One token bucket per key: ``take(key)`` is 0 when allowed, else the seconds to wait."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float], *, keys: int = 5000) -> None:
        self.rate, self.burst, self._clock, self._keys = rate, float(burst), clock, keys
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, key: str) -> float:
        now = self._clock()
        tokens, last = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens - 1.0, now)
        while len(self._buckets) > self._keys:   # a flood of addresses: forget the oldest
            self._buckets.pop(next(iter(self._buckets)))
        return 0.0


def parse_networks(entries: Iterable[str]) -> tuple[Network, ...]:
    """Address ranges ("192.168.1.0/24", "10.0.0.7"); ValueError naming the one that is not."""
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(f"{entry!r} is not an address or an address range like '192.168.1.0/24'") from None
    return tuple(networks)


LOOPBACK: tuple[Network, ...] = parse_networks(("127.0.0.0/8", "::1/128"))


def in_networks(host: str, networks: tuple[Network, ...]) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in network for network in networks)


def is_dealer(host: str, dealers: tuple[Network, ...], proxies: tuple[Network, ...], forwarded: bool) -> bool:
    """Whether a client has the dealer's PIN budget. A request a trusted proxy passes on without
    X-Forwarded-For names no client (the address seen is the proxy's own, often the loopback one):
    it is a stranger's; with the header, only the client address it names decides."""
    if not forwarded and in_networks(host, proxies):
        return False
    return in_networks(host, dealers)


def client_key(host: str) -> str:
    """The throttle's key for a client: its IPv4 address, or its IPv6 /64 (one household's)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class PinThrottle:
    """Wrong PINs cost time: after a few free tries each key (a client address) is locked for
    1, 2, 4 … seconds up to a ceiling, one check at a time per key; and every check, right or
    wrong, takes a token from its budget (the strangers' or the dealer's) before it starts."""

    def __init__(self, clock: Callable[[], float], free: int, global_free: int, ceiling: float,
                 refill_s: float = 60.0) -> None:
        self._clock = clock
        self._free = free
        self._ceiling = ceiling
        self._failures: dict[str, int] = {}
        self._locked_until: dict[str, float] = {}
        self._busy: set[str] = set()
        self._budgets = TokenBuckets(1.0 / refill_s, global_free, clock)
        self._lock = threading.Lock()

    def begin(self, key: str, *, dealer: bool = False) -> float:
        """0 when a check may start now (and reserves it), else the seconds to wait."""
        with self._lock:
            wait = self._locked_until.get(key, 0.0) - self._clock()
            if wait > 0:
                return wait
            if key in self._busy:
                return 1.0
            wait = self._budgets.take("dealer" if dealer else "strangers")
            if wait > 0:
                return wait
            self._busy.add(key)
            return 0.0

    def end(self, key: str, ok: bool) -> None:
        with self._lock:
            self._busy.discard(key)
            if ok:
                self._failures.pop(key, None)
                self._locked_until.pop(key, None)
                return
            count = self._failures.pop(key, 0) + 1
            self._failures[key] = count        # re-inserted: the dict stays oldest-first
            over = count - self._free
            if over > 0:
                self._locked_until[key] = self._clock() + min(self._ceiling, 2.0 ** (over - 1))
            while len(self._failures) > 10_000:  # a flood of addresses: forget the oldest
                oldest = next(iter(self._failures))
                self._failures.pop(oldest)
                self._locked_until.pop(oldest, None)


class PinChecks:
    """The scrypt checks, one at a time in one thread (one 16 MiB buffer, one malloc arena).

    At most ``waiting`` strangers' checks wait their turn; the dealer's always queue (their own
    budget bounds them).
    """

    def __init__(self, pin_hash: str, waiting: int) -> None:
        self._hash = pin_hash
        self._waiting = waiting
        self._strangers = 0
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="faro-box-pin")

    def reserve(self, *, dealer: bool = False) -> bool:
        """A place in the queue (on the event loop only); False when too many strangers wait."""
        if not dealer and self._strangers >= self._waiting:
            return False
        self._strangers += not dealer
        return True

    def release(self, *, dealer: bool = False) -> None:
        self._strangers -= not dealer

    async def check(self, pin: str) -> bool:
        """Whether ``pin`` is right, once the checks queued before it are done."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, check_pin, pin, self._hash)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
