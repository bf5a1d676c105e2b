"""Measure one idea for a stronger bot: a player against an opponent on duplicate deals, with knobs.

Prints the first player's match win rate with its 95% interval over the deal pairs (as
``summarize_matches``), the mean margin and the time. Any two strategies can be compared; the knobs
need the experimental build of commit 4ad31db ("Experiments toward a champion"), whose ``champion``
strategy is search with knobs (``src/gincore/_gin/strategies/champion.pxi`` there): ``--tune I=V`` sets
knob I; ``--adapt EAGER PATIENT`` switches the knobs hand by hand, in Python: EAGER until the opponent has
been seen to pass up a knock at a showdown of the match (``ginsim.gin.matches.passed_knock``), PATIENT
after (each a comma-separated list of I=V, the rest at their defaults); with ``--late``, PATIENT until
it knocks late (after the hand's 16th draw, before the last four), EAGER after. ``--read-simple MODE``
needs the experimental build of the commit that measured reader's reading of Simple's last turn
("Experiment: reader reads Simple's last turn"): 0 off, 1 on (what reader does now), 2 on but keeping
the first hand Simple could hold whatever its deadwood, 3 on and never reading the opponent otherwise
(as if it were known to knock at once). docs/champion.md lists the runs.

Usage: python benchmarks/champion_experiments.py PLAYER OPPONENT [--games N] [--seed S] [--rules R]
                                                 [--tune I=V ...] [--adapt EAGER PATIENT] [--read-simple MODE]
"""
from __future__ import annotations

import argparse
import time
from typing import Any

import pandas as pd

import gincore._engine as native
from ginsim import Rules
from ginsim.gin.engine import engine, match_key
from ginsim.gin.matches import OWN_DEAL, play_duplicate
from ginsim.gin.summary import summarize_matches

# The knobs exist only in the experimental build.
_tune = getattr(native, "_tune", None)
_read_simple = getattr(native, "_read_simple", None)
TUNE_DEFAULTS: tuple[int, ...] = getattr(native, "TUNE_DEFAULTS", ())


def _settings(text: str) -> list[tuple[int, int]]:
    return [(int(index), int(value)) for index, value in (item.split("=") for item in text.split(",") if item)]


def _apply(settings: list[tuple[int, int]]) -> None:
    for index, value in enumerate(TUNE_DEFAULTS):
        _tune(index, value)
    for index, value in settings:
        _tune(index, value)


LATE_RULE = False


class Adaptive:
    """A hand source that sets the knobs before each hand from what the match has shown so far."""

    def __init__(self, wrapped: Any, seat: int, eager: list[tuple[int, int]], patient: list[tuple[int, int]]):
        self.wrapped, self.seat, self.eager, self.patient = wrapped, seat, eager, patient
        self.hands = self.patient_hands = self.late = 0

    def play_record(self, key0: int, key1: int, index: int, dealer: int = -1, score0: int = 0, score1: int = 0,
                    passed0: int = 0, passed1: int = 0) -> tuple[Any, ...]:
        if index & (OWN_DEAL - 1) == 0:
            self.late = 0
        seen = (passed0, passed1)[1 - self.seat]
        patient = self.late == 0 if LATE_RULE else bool(seen)
        _apply(self.patient if patient else self.eager)
        self.hands += 1
        self.patient_hands += patient
        record = tuple(self.wrapped.play_record(key0, key1, index, dealer, score0, score1, passed0, passed1))
        if record[7] == 1 - self.seat and record[5] in (0, 1) and record[9] > 0 and 16 < record[12] <= 25:
            self.late += 1
        return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("player")
    parser.add_argument("opponent")
    parser.add_argument("--games", type=int, default=2000, help="games (two per deal sequence)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rules", default="eaai")
    parser.add_argument("--tune", nargs="*", default=[])
    parser.add_argument("--adapt", nargs=2, metavar=("EAGER", "PATIENT"))
    parser.add_argument("--late", action="store_true", help="with --adapt: PATIENT until the opponent knocks "
                        "with deadwood after the hand's 16th draw (before the last four draws), EAGER after")
    parser.add_argument("--read-simple", type=int, choices=range(4), metavar="MODE",
                        help="reader's reading of Simple's last turn, in its experimental build (0-3)")
    options = parser.parse_args()
    if (options.tune or options.adapt) and _tune is None:
        parser.error("--tune and --adapt need the experimental build of commit 4ad31db")
    if options.read_simple is not None:
        if _read_simple is None:
            parser.error("--read-simple needs the experimental build of reader's last-turn reading")
        _read_simple(options.read_simple)
    global LATE_RULE
    LATE_RULE = options.late
    rules = Rules.preset(options.rules)
    start = time.time()
    if options.adapt:
        eager, patient = (_settings(text) for text in options.adapt)
        pair = (Adaptive(engine(rules, (options.player, options.opponent)), 0, eager, patient),
                Adaptive(engine(rules, (options.opponent, options.player)), 1, eager, patient))
    else:
        _apply(_settings(",".join(options.tune)))
        pair = (engine(rules, (options.player, options.opponent)), engine(rules, (options.opponent, options.player)))
    key = match_key(options.seed)
    rows = [row for match in range(options.games // 2) for row in play_duplicate(pair, rules, key, match)]
    summary = summarize_matches(pd.DataFrame(rows)).iloc[0]
    low, high = 100 * summary["win_rate_0_low"], 100 * summary["win_rate_0_high"]
    extra = f" tune {' '.join(options.tune)}" if options.tune else ""
    if options.read_simple is not None:
        extra += f" read-simple {options.read_simple}"
    if options.adapt:
        share = sum(source.patient_hands for source in pair) / max(sum(source.hands for source in pair), 1)
        extra = (f" adapt{' late' if options.late else ''} {options.adapt[0] or '-'} / {options.adapt[1]} "
                 f"(patient hands {share:.2f})")
    print(f"{options.player} vs {options.opponent}, {options.rules}: {len(rows)} games, win "
          f"{100 * summary['win_rate_0']:.1f}% [{low:.1f}, {high:.1f}] margin {summary['mean_margin_0']:.1f}"
          f"{extra} ({time.time() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
