"""``ginsim bench`` (a quick speed check) and ``ginsim exact`` (the exact deadwood distribution).

>>> from click.testing import CliRunner
>>> import json
>>> result = CliRunner().invoke(exact_command, ["--cards", "3", "--workers", "1", "--no-cache", "--json"])
>>> sum(json.loads(result.output)["histogram"])  # every 3-card hand
22100
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import click

import gincore
from ginsim.cli.options import json_option, workers_option
from ginsim.gin.game.rules import Rules

__all__ = ["bench_command", "exact_command"]


@click.command(name="exact")
@click.option("--cards", type=click.IntRange(0, 13), default=10, show_default=True,
              help="Hand size: every hand of this many cards is classified.")
@workers_option("Threads")
@click.option("--no-cache", is_flag=True, help="Recompute even when a cached result exists.")
@json_option("the result")
def exact_command(cards: int, workers: int | None, no_cache: bool, as_json: bool) -> None:
    """The exact deadwood distribution of every possible hand (suit symmetry cuts the work).

    \b
    Example:
      ginsim exact --cards 10     # all 15,820,024,220 ten-card hands, in seconds
    """
    from ginsim.gin.studies.exact import exact_distribution

    result = exact_distribution(cards, workers=workers, cache=not no_cache)
    click.echo(json.dumps(result.to_json(), indent=2) if as_json else result.to_text())


def _random_hands(count: int, size: int, rng: Any) -> Any:
    """``count`` random hands of ``size`` cards as uint64 masks (a pool of distinct deals, repeated)."""
    import numpy as np

    pool = min(count, 1 << 14)
    cards = rng.random((pool, 52)).argsort(axis=1)[:, :size].astype(np.uint64)
    masks = (np.uint64(1) << cards).sum(axis=1, dtype=np.uint64)
    return np.resize(masks, count)


def _per_second(prepare: Callable[[int], Callable[[], object]], seconds: float, repeats: int) -> float:
    """Items per second of ``prepare(n)()`` (which handles n items): the median over ``repeats`` timed
    calls of a batch sized to fill about ``seconds`` in all."""
    import statistics
    import time

    share = seconds / (2 * repeats)
    size = 256
    while True:  # grow the batch until one call takes its share of the time
        run = prepare(size)
        start = time.perf_counter()
        run()
        elapsed = time.perf_counter() - start
        if elapsed >= share or size >= 1 << 26:
            break
        size = int(size * min(64.0, max(2.0, 1.2 * share / max(elapsed, 1e-6))))
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        rates.append(size / (time.perf_counter() - start))
    return statistics.median(rates)


@click.command(name="bench")
@click.option("--seconds", type=click.FloatRange(min=0.1, max=600), default=3.0, show_default=True,
              help="About how long the whole check takes.")
@click.option("--repeats", type=click.IntRange(min=1, max=101), default=5, show_default=True,
              help="Timed calls per measurement; the median is shown.")
def bench_command(seconds: float, repeats: int) -> None:
    """A quick speed check on this machine: the solver and the hand loop, in hands per second.

    Each figure is the median of a few timed calls on one thread. It is a sanity check, not a
    measurement: the benchmarks in benchmarks/ (pytest-benchmark) are.

    \b
    Example:
      ginsim bench --seconds 5
    """
    import numpy as np

    from ginsim.gin.game.native import run_key
    from ginsim.gin.game.players import engine

    rng = np.random.default_rng(0)
    loop = engine(Rules(), ("simple", "simple"))
    key = run_key(0)

    def deadwoods(count: int) -> Callable[[], object]:
        hands = _random_hands(count, 10, rng)
        return lambda: gincore.deadwood_many(hands)

    def discards(count: int) -> Callable[[], object]:
        hands = _random_hands(count, 11, rng)
        return lambda: gincore.best_discards_many(hands)

    def hand_loop(count: int) -> Callable[[], object]:
        return lambda: loop.play_hands(key[0], key[1], 0, count)

    checks = [
        ("solver deadwood_many, random 10-card hands", deadwoods),
        ("solver best_discards_many, random 11-card hands", discards),
        ("hand loop play_hands, simple vs simple", hand_loop),
    ]
    click.echo(f"Speed check: median of {repeats} timed calls each, one thread, about {seconds:g} s in all.")
    for label, prepare in checks:
        rate = _per_second(prepare, seconds / len(checks), repeats)
        click.echo(f"  {label:<50} {rate:>14,.0f} hands/s")
    click.echo("A rough check only; the benchmarks are the real measurement (pytest-benchmark):\n"
               "  python -m pytest benchmarks -p no:xdist --benchmark-json=bench.json\n"
               "  python benchmarks/report.py bench.json")
