"""How often the hints of ``ginsim play --hints`` and the analysis of the saved game agree.

For each seed a game to ``--target`` is played against ``--against`` with hints, every answer Enter
(the hinted move), and saved; the saved game is analysed for the human player at the same deals.
Each hint before a decision is compared with the analysis row of that decision: the best option, the
next best, the margin between them (as printed, to 0.1 point) and whether it is a close call.

Usage: python benchmarks/hints_agreement.py [--seeds 5] [--deals 16] [--target 20] [--against greedy]
"""
from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner

from ginsim.cli import main
from ginsim.gin.review.analysis import analyze
from ginsim.gin.review.replay import GameRecord

OPTION = (r"pass|take the upcard|take the top of the pile|draw from the stock|(?:discard|knock with|gin with) \w\w|"
          r"go big gin")
HINT = re.compile(rf"^Hint: (?:(?P<best>{OPTION}) \([-+]\d+\.\d points on average, (?P<margin>\d+\.\d) "
                  rf"\[.*\] more than (?P<runner>{OPTION})\)|a close call, (?P<close>{OPTION}) or "
                  rf"(?P<other>{OPTION}) \([-+]\d+\.\d points on average, (?P<apart>\d+\.\d) \[.*\] apart\))$")
WORDS = {"pass": "pass", "take the upcard": "take", "take the top of the pile": "pile", "draw from the stock": "stock",
         "go big gin": "big gin"}


def choice_of(words: str) -> str:
    return WORDS.get(words, words.replace("discard ", "").replace(" with ", " "))


def disagreements(seed: int, deals: int, target: int, against: str, folder: Path) -> tuple[int, list[str], int]:
    """The decisions of one game, the hints that disagree with the analysis (each with the analysis'
    verdict) and the close calls."""
    path = folder / f"game{seed}.json"
    result = CliRunner().invoke(main, ["play", "--seed", str(seed), "--target", str(target), "--against", against,
                                       "--hints", "--deals", str(deals), "--save", str(path), "--letters"],
                                input="\n" * 5000)
    assert result.exit_code == 0, result.stderr
    out = re.sub(r"\n {6}(?=\S)", " ", result.stdout)  # a hint's further lines
    before = [line for line in out.splitlines() if line.startswith("Hint: ") and
              not re.match(r"Hint: (knock|go gin|play on|a close call, (knock|go gin) or play on) \(", line)]
    table = analyze(GameRecord.load(path), player=0, deals=deals)
    assert len(before) == len(table), "a hint for every analysed decision"
    wrong, close_calls = [], 0
    for line, row in zip(before, table.itertuples(), strict=True):
        hint = HINT.match(line)
        close = hint is not None and hint["close"] is not None
        if hint is not None:
            best, runner, margin = (hint["close"], hint["other"], hint["apart"]) if close else \
                (hint["best"], hint["runner"], hint["margin"])
            same = (choice_of(best), choice_of(runner), close) == (row.best, row.options[1]["choice"], row.close)
            loss = row.choice != row.options[1]["choice"] or row.loss == row.margin  # the next best's loss: the margin
            if same and loss and abs(float(margin) - row.margin) <= 0.05 + 1e-9:
                close_calls += close
                continue
        wrong.append(f"{line} | analysis: best {row.best}, next {row.options[1]['choice']}, margin {row.margin:.2f}, "
                     f"close {row.close}")
    return len(table), wrong, close_calls


def main_(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=16)
    parser.add_argument("--target", type=int, default=20)
    parser.add_argument("--against", default="greedy")
    args = parser.parse_args(argv)
    totals = [0, 0, 0]
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(args.seeds):
            count, wrong, close_calls = disagreements(seed, args.deals, args.target, args.against, Path(folder))
            totals = [totals[0] + count, totals[1] + count - len(wrong), totals[2] + close_calls]
            print(f"seed {seed}: {count} decisions, {count - len(wrong)} agree, {close_calls} close calls", flush=True)
            for line in wrong:
                print(f"  {line}")
    decisions, agree, close_calls = totals
    print(f"{agree} of {decisions} hints agree with the analysis (best, next best, margin, close call); "
          f"{close_calls} close calls; {args.deals} deals, seeds 0-{args.seeds - 1}")


if __name__ == "__main__":
    main_(sys.argv[1:])
