"""Hash the records of every kind of run, to prove that a refactor changed nothing.

Run it with each build's Python and compare the two outputs: every line must match.

    A/.venv/bin/python benchmarks/record_hashes.py > a.txt
    B/.venv/bin/python benchmarks/record_hashes.py > b.txt
    diff a.txt b.txt && echo identical

Each line is ``name sha256`` of the records' bytes (columns in order, values as stored). The runs
cover every preset with two strategy pairs, every strategy against ``simple`` (both seats, in their
hands' traces too), matches, duplicate matches, Hollywood, teams and classic Rummy hands and games.
``--scale`` multiplies the number of hands and matches.
"""
from __future__ import annotations

import argparse
import hashlib
from collections.abc import Callable, Iterator

import numpy as np
import pandas as pd

import ginsim
from ginsim import Rules

try:
    from ginsim.gin.game.native import run_key
    from ginsim.gin.game.players import engine
except ImportError:  # a build from before ginsim.gin's sub-packages
    from ginsim.gin.engine import engine, run_key  # type: ignore[no-redef]
from ginsim.rummy import Rules as RummyRules
from ginsim.rummy import simulate as rummy_simulate
from ginsim.rummy import simulate_games as rummy_games

FAST = ("random", "simple", "greedy", "threshold:5", "gin", "defensive", "marjj")
SLOW = ("sampler:16", "search:16", "search", "reader:16")  # Monte-Carlo players: fewer hands


def frame_hash(frame: pd.DataFrame) -> str:
    digest = hashlib.sha256()
    for name in frame.columns:
        digest.update(name.encode())
        column = frame[name]
        values = column.astype(str).to_numpy() if column.dtype == object or isinstance(
            column.dtype, pd.CategoricalDtype) else column.to_numpy()
        digest.update(np.ascontiguousarray(values).tobytes() if values.dtype != object
                      else "\x00".join(values).encode())
    return digest.hexdigest()


def trace_hash(rules: Rules, players: str, hands: int) -> str:
    """Every event of every hand's trace, and its record, for both seats."""
    digest = hashlib.sha256()
    key0, key1 = run_key(7)
    for order in (players, ",".join(reversed(players.split(",")))):
        table = engine(rules, order)
        for index in range(hands):
            traced = table.play_traced(key0, key1, index)
            digest.update(repr((traced["record"], traced["events"], traced["final"], traced["knocker_sets"],
                                traced["laid_off_cards"], traced["stock_left"])).encode())
    return digest.hexdigest()


def runs(scale: int) -> Iterator[tuple[str, Callable[[], str]]]:
    n = 2_000 * scale
    for preset in ginsim.gin.preset_names():
        rules = Rules.preset(preset)
        for players in ("simple,greedy", "random,defensive"):
            yield (f"hands {preset} {players}",
                   lambda r=rules, p=players: frame_hash(ginsim.simulate(r, p, hands=n, seed=11, workers=1,
                                                                        progress=False)))
    for strategy in FAST + SLOW:
        hands = n if strategy in FAST else 40 * scale
        for preset in ("standard", "reshuffle", "oklahoma"):
            rules = Rules.preset(preset)
            yield (f"trace {preset} {strategy}",
                   lambda r=rules, s=strategy, h=hands: trace_hash(r, f"{s},simple", h))
    big_gin = Rules(big_gin_bonus=31, exhaustion="reshuffle", max_reshuffles=3)
    yield "hands big-gin greedy,gin", lambda: frame_hash(ginsim.simulate(
        big_gin, "greedy,gin", hands=n, seed=3, workers=1, progress=False))
    for name, rules in (("standard", Rules()), ("hollywood", Rules(hollywood=True)),
                        ("eaai", Rules.preset("eaai"))):
        for players in ("greedy,simple", "marjj,gin"):
            yield (f"matches {name} {players}", lambda r=rules, p=players: frame_hash(ginsim.simulate_matches(
                r, p, matches=100 * scale, seed=5, workers=1, progress=False)))
            yield (f"duplicate {name} {players}", lambda r=rules, p=players: frame_hash(ginsim.simulate_matches(
                r, p, matches=50 * scale, seed=5, workers=1, progress=False, duplicate=True)))
    yield "matches search,marjj", lambda: frame_hash(ginsim.simulate_matches(
        Rules(), "search:8,marjj", matches=4 * scale, seed=5, workers=1, progress=False))
    yield "teams standard", lambda: frame_hash(ginsim.simulate_matches(
        Rules(), "greedy,simple", matches=50 * scale, seed=9, workers=1, progress=False, teams=2))
    for players in ("greedy,random", "greedy,greedy,greedy,random"):
        yield f"rummy hands {players}", lambda p=players: frame_hash(rummy_simulate(
            RummyRules(), p, hands=n, seed=4, workers=1, progress=False))
        yield f"rummy games {players}", lambda p=players: frame_hash(rummy_games(
            RummyRules(target=100), p, games=50 * scale, seed=4, workers=1, progress=False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=1, help="multiply hands and matches by this")
    args = parser.parse_args()
    for name, compute in runs(args.scale):
        print(f"{name:45} {compute()}", flush=True)


if __name__ == "__main__":
    main()
