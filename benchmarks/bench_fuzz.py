"""Fuzz every input of the box: deal scripts, configuration files, the serial protocol (host and
firmware ends), the journal (damaged rows and files), the HTTP API and its event stream.

    python benchmarks/bench_fuzz.py                          # 100,000 cases per target (hypothesis)
    python benchmarks/bench_fuzz.py --cases 2000 --targets http journal
    python benchmarks/bench_fuzz.py --atheris 200000         # also coverage-guided byte fuzzing (atheris)
    python benchmarks/bench_fuzz.py --targets --atheris 1000 --atheris-targets journal_file http_body

The targets and their checks are tests/robustness/fuzz_targets.py (the test suite runs a few
examples of each). A case is a crash when it ends in anything but acceptance or one of our own
clear refusals (a FaroBoxError with a message, an HTTP refusal with a JSON error and nothing
changed), and a hang when it takes longer than --hang seconds. With --budget a target stops
once that many seconds have passed, and the table shows how many cases ran.

Every case is a distinct input: an input drawn again is skipped (the "repeats" column) rather
than run and counted twice. Inputs come from Hypothesis's generator without its search engine
(see drawn()); --engine draws through @given as the test suite does. CPU seconds are this
process's own, so the figures mean the same on a busy machine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "robustness"))
sys.path.insert(0, str(REPO / "faro_box" / "firmware"))     # the firmware's modules, for atheris to instrument


class Hang(Exception):
    pass


def _alarm(signum, frame):  # noqa: ARG001
    raise Hang()


OVERRUN = object()


def drawn(strategy, seed: int, engine: bool, chunk: int):
    """Values drawn from ``strategy``, endlessly.

    By default each value comes from Hypothesis's own generator (a ConjectureData with its
    standard provider: the same biased choices, boundary values and sizes its generate phase
    makes) without the engine's search around earlier examples, which for a long run costs
    more than drawing and mostly yields near-repeats. ``engine`` runs @given in chunks of
    ``chunk`` examples with consecutive seeds instead (slower; as the suite does).
    """
    import random

    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed

    if not engine:
        from hypothesis.control import BuildContext
        from hypothesis.errors import StopTest
        from hypothesis.internal.conjecture.data import ConjectureData

        rng = random.Random(seed)
        while True:
            data = ConjectureData(random=rng)
            try:
                with BuildContext(data, wrapped_test=None):
                    value = data.draw(strategy)
            except StopTest:          # past Hypothesis's length limit or filtered out: no input
                yield OVERRUN
                continue
            yield value
    n = 0
    while True:
        got: list = []

        @hypothesis_seed(seed * 1_000_003 + n)
        @settings(max_examples=chunk, deadline=None, database=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck))
        @given(strategy)
        def run(value, got=got) -> None:
            got.append(value)

        run()
        n += 1
        yield from got or [OVERRUN]


def input_key(value) -> bytes:
    """Equal inputs, equal keys: a repeated input is skipped, not run and counted again."""
    digest = hashlib.blake2b(digest_size=16)
    _feed(digest, value)
    return digest.digest()


def _feed(digest, value) -> None:
    # repr() of the whole input would be exact too, but escaping a 10 MB body costs more than
    # running the case: long text and bytes go in raw, after their type and length.
    if isinstance(value, (str, bytes)) and len(value) > 256:
        digest.update(b"S" if isinstance(value, str) else b"B")
        digest.update(len(value).to_bytes(8, "little"))
        digest.update(value.encode("utf-8", "surrogatepass") if isinstance(value, str) else value)
    elif isinstance(value, dict):
        digest.update(b"{")     # in key order: equal dicts are one input, however they were built
        for key, item in sorted(value.items(), key=lambda kv: repr(kv[0])):
            _feed(digest, key)
            _feed(digest, item)
        digest.update(b"}")
    elif isinstance(value, (list, tuple)):
        digest.update(b"[" if isinstance(value, list) else b"(")
        for item in value:
            _feed(digest, item)
        digest.update(b"]")
    else:
        digest.update(repr(value).encode("utf-8", "surrogatepass"))
        digest.update(b",")


def run_target(name: str, cases: int, hang: float, seed: int, budget: float | None, engine: bool = False,
               chunk: int = 5_000) -> dict:
    from fuzz_targets import Crash, targets

    target = targets()[name]()
    counts = {"accepted": 0, "refused": 0, "crashes": 0, "hangs": 0}
    findings: list[str] = []
    seen: set[bytes] = set()
    repeats = overruns = 0
    slowest, slowest_input = 0.0, ""
    started = time.perf_counter()
    cpu_started = time.process_time()
    signal.signal(signal.SIGALRM, _alarm)
    total = shown = 0
    try:
        for value in drawn(target.strategy, seed, engine, chunk):
            if total >= cases or (budget is not None and time.perf_counter() - started > budget):
                break
            if value is OVERRUN:
                overruns += 1
                continue
            key = input_key(value)
            if key in seen:
                repeats += 1
                if repeats > 20 * cases:
                    break               # the strategy has no more new inputs to give
                continue
            seen.add(key)
            t0 = time.perf_counter()
            signal.setitimer(signal.ITIMER_REAL, hang)
            try:
                counts[target.check(value)] += 1
            except Hang:
                counts["hangs"] += 1
                findings.append(f"hang: {value!r:.300}")
            except Crash as exc:
                counts["crashes"] += 1
                findings.append(f"{exc} <- {value!r:.300}")
            except Exception as exc:  # noqa: BLE001 - a fault of the harness counts as a crash too
                counts["crashes"] += 1
                findings.append(f"{type(exc).__name__}: {exc} <- {value!r:.300}")
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            took = time.perf_counter() - t0
            if took > slowest:
                slowest, slowest_input = took, f"{value!r:.120}"
            total += 1
            if total % 5_000 == 0:
                print(f"  {name}: {total:,} cases ({counts['accepted']:,} accepted, {counts['refused']:,} refused, "
                      f"{counts['crashes']} crashes, {counts['hangs']} hangs, {repeats:,} repeats skipped), "
                      f"{time.perf_counter() - started:.0f} s, cpu {time.process_time() - cpu_started:.0f} s, "
                      f"slowest {slowest * 1000:.0f} ms", flush=True)
                for finding in findings[shown:shown + 3]:
                    print(f"    {finding}", flush=True)
                shown = len(findings)
    finally:
        target.close()
    seconds = time.perf_counter() - started
    result = {"target": target.name, "key": name, "cases": total, **counts, "repeats_skipped": repeats,
            "overruns": overruns, "seconds": round(seconds, 1),
            "cpu_seconds": round(time.process_time() - cpu_started, 1),
            "cases_per_cpu_s": round(total / max(time.process_time() - cpu_started, 1e-9), 1),
            "slowest_case_ms": round(slowest * 1000, 1), "slowest_input": slowest_input,
            "findings": findings[:10]}
    print(f"  {name} done: {json.dumps(result)}", flush=True)     # a later target's stop keeps this one
    return result


# ----- atheris: coverage-guided fuzzing of the byte-level parsers --------------------------------

ATHERIS_TARGETS = ("firmware_lines", "host_lines", "command_text", "script_text", "toml_text", "journal_file",
                   "http_body")


def atheris_child(name: str, argv: list[str]) -> None:
    import atheris

    with atheris.instrument_imports():
        import fblines  # noqa: F401
        import fbproto  # noqa: F401
        from fuzz_targets import (
            COMMAND_EXAMPLES,
            ConfigTarget,
            FirmwareTarget,
            HttpTarget,
            JournalTarget,
            check_host_line,
            check_script,
        )

        from faro_box.devices import servo_frames  # noqa: F401
        from faro_box.display import web  # noqa: F401
        from faro_box.errors import FaroBoxError
        from faro_box.limits import loads
        from faro_box.table import commands as events  # noqa: F401
        from faro_box.table import (
            journal,  # noqa: F401
            table,  # noqa: F401
        )
        from faro_box.table.faro import scripts as deal_scripts  # noqa: F401

    firmware = FirmwareTarget() if name == "firmware_lines" else None
    config = ConfigTarget() if name == "toml_text" else None
    damaged = JournalTarget() if name == "journal_file" else None
    http = HttpTarget() if name == "http_body" else None
    corpus = [a for a in argv if not a.startswith("-")]
    if corpus and not any(Path(corpus[0]).iterdir()):
        # Start from real inputs: a journal holding a deal and an empty one; the dealer's commands.
        seeds = ([damaged.good, damaged.empty] if damaged else
                 [json.dumps(c).encode() for c in COMMAND_EXAMPLES] if http else [])
        for i, seed_input in enumerate(seeds):
            (Path(corpus[0]) / f"seed{i}").write_bytes(seed_input)

    def one(data: bytes) -> None:
        if name == "firmware_lines":
            firmware.check(data)
        elif name == "host_lines":
            check_host_line((data.decode("utf-8", "replace"), data))
        elif name == "command_text":
            try:
                events.command_from_text(data.decode("utf-8", "replace"))
            except FaroBoxError:
                pass
        elif name == "journal_file":
            damaged.check(("bytes", data))     # the whole file, mutated from a real journal
        elif name == "http_body":
            http.check({"method": "POST", "path": "/api/command", "auth": "dealer", "ctype": "application/json",
                        "body": data})
        elif name == "script_text":
            try:
                doc = loads(data.decode("utf-8", "replace"), "a deal script")
            except FaroBoxError:
                return
            check_script(doc)
        else:
            config.check(("text", data.decode("utf-8", "replace")))

    atheris.Setup([sys.argv[0], *argv], one)
    atheris.Fuzz()


def run_atheris(runs: int, hang: float, names: list[str]) -> list[dict]:
    import resource
    import tempfile

    results = []
    for name in names:
        started = time.perf_counter()
        cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with tempfile.TemporaryDirectory() as corpus:
            extra = [corpus, "-max_len=65536"] if name in ("journal_file", "http_body") else []
            done = subprocess.run([sys.executable, __file__, "--atheris-child", name, f"-runs={runs}",
                                   f"-timeout={int(hang)}", "-rss_limit_mb=2048", "-print_final_stats=1", *extra],
                                  capture_output=True, text=True)
        seconds = time.perf_counter() - started
        cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (cpu_after.ru_utime + cpu_after.ru_stime) - (cpu_before.ru_utime + cpu_before.ru_stime)
        stats = {}
        for line in done.stderr.splitlines():
            if line.startswith("stat::"):
                key, _, value = line[6:].partition(":")
                stats[key.strip()] = value.strip()
        crashed = done.returncode != 0
        tail = [ln for ln in done.stderr.splitlines() if "ERROR" in ln or "Crash" in ln or "Traceback" in ln][:5]
        results.append({"target": f"atheris {name}", "runs": int(stats.get("number_of_executed_units", 0)),
                        "seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1), "exit": done.returncode,
                        "crashes": 1 if crashed else 0, "findings": tail})
        print(f"  atheris {name}: {results[-1]['runs']:,} runs, {seconds:.0f} s, cpu {cpu:.0f} s, "
              f"exit {done.returncode}", flush=True)
    return results


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--atheris-child":
        atheris_child(sys.argv[2], sys.argv[3:])
        return 0
    from fuzz_targets import targets

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=100_000, help="hypothesis cases per target")
    parser.add_argument("--targets", nargs="*", default=list(targets()), choices=list(targets()))
    parser.add_argument("--engine", action="store_true",
                        help="draw through Hypothesis's engine (@given in chunks) instead of its generator alone")
    parser.add_argument("--chunk", type=int, default=5_000, help="examples per @given run with --engine")
    parser.add_argument("--hang", type=float, default=10.0, help="seconds before one case counts as a hang")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, metavar="SECONDS",
                        help="stop a target after the chunk that passes this time (the count run is reported)")
    parser.add_argument("--atheris", type=int, default=0, metavar="RUNS", help="atheris runs per byte-level target")
    parser.add_argument("--atheris-targets", nargs="*", default=list(ATHERIS_TARGETS), choices=ATHERIS_TARGETS)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()

    print(f"python {platform.python_version()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}", flush=True)
    results = [run_target(name, args.cases, args.hang, args.seed, args.budget, args.engine, args.chunk)
               for name in args.targets]
    if args.atheris:
        try:
            import atheris  # noqa: F401
        except ImportError:
            print("atheris is not installed (pip install atheris): skipped")
        else:
            results += run_atheris(args.atheris, args.hang, args.atheris_targets)
    print()
    print(f"{'target':36} {'cases':>9} {'accepted':>9} {'refused':>9} {'crash':>6} {'hang':>5} {'repeats':>8} "
          f"{'s':>7} {'cpu s':>7} {'slowest ms':>10}")
    for r in results:
        if "runs" in r:
            print(f"{r['target']:36} {r['runs']:>9,} {'':>9} {'':>9} {r['crashes']:>6} {'':>5} {'':>8} "
                  f"{r['seconds']:>7} {r['cpu_seconds']:>7}")
            continue
        print(f"{r['target']:36} {r['cases']:>9,} {r['accepted']:>9,} {r['refused']:>9,} {r['crashes']:>6} "
              f"{r['hangs']:>5} {r['repeats_skipped']:>8,} {r['seconds']:>7} {r['cpu_seconds']:>7} "
              f"{r['slowest_case_ms']:>10}")
    for r in results:
        if r.get("slowest_input"):
            print(f"{r['target']}: slowest case {r['slowest_case_ms']} ms: {r['slowest_input']}")
        for finding in r["findings"]:
            print(f"{r['target']}: {finding}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 1 if any(r["crashes"] or r.get("hangs") for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
