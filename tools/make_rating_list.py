"""Make the rating list of the built-in strategies: ``src/ginsim/gin/data/ratings.json`` (which ``ginsim
strategies`` shows) and its table in ``docs/strategies.md`` (between the ``rating-list`` markers).

It plays :mod:`ginsim.gin.studies.rating_list`'s round robin (``eaai`` rules, duplicate deals, its seed and
games per pairing), fits the Bradley–Terry ratings anchored at ``simple`` = 1500, times each strategy's
decisions, and writes both files with the command, the commit, the date and the time it took. Each pairing
is stored under ``--out`` as it finishes, so the same command again resumes a stopped list (and reads back
the pairings played before); it prints a line per pairing as it goes::

    python tools/make_rating_list.py                       # about an hour on one core
    python tools/make_rating_list.py --out runs/other --workers 2
"""
from __future__ import annotations

import argparse
import datetime
import json
import re
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path

from ginsim.core.execution import RunInterrupted
from ginsim.gin.studies.rating_list import DATA_FILE, build, markdown_block, pairings, play, time_decisions

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "ginsim" / "gin" / "data" / DATA_FILE
PAGE = ROOT / "docs" / "strategies.md"
CLOCK = "clock.json"
"""In ``--out``: the seconds spent so far (on the clock and of CPU) and by how many invocations."""
BLOCK = re.compile(r"(<!-- generated: rating-list -->\n).*?(<!-- end: rating-list -->)", re.DOTALL)


def commit() -> str:
    """The commit the list is made at (``-dirty`` when the package's source has changes not committed)."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False).stdout.strip()
    return git("rev-parse", "--short", "HEAD") + ("-dirty" if git("status", "--porcelain", "src") else "")


def cpu_seconds() -> float:
    """This process's CPU time and its finished children's (the workers')."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "rating-list",
                        help="where the pairings are stored and resumed from (default: runs/rating-list)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1; the games are the same)")
    arguments = parser.parse_args(argv)
    command = shlex.join(["python", "tools/make_rating_list.py", *(sys.argv[1:] if argv is None else argv)])
    made_at = commit()  # at the start: the source may change while it plays
    started, used = time.perf_counter(), cpu_seconds()
    # The time it took over every invocation that played into --out (a resumed list counts its earlier runs),
    # kept after each pairing so that a stopped run's time is not lost.
    clock = arguments.out / CLOCK
    before = json.loads(clock.read_text()) if clock.exists() else {"seconds": 0, "cpu_seconds": 0, "invocations": 0}
    spent = dict(before)

    def report(line: str) -> None:
        spent.update(seconds=before["seconds"] + round(time.perf_counter() - started),
                     cpu_seconds=before["cpu_seconds"] + round(cpu_seconds() - used),
                     invocations=before["invocations"] + 1)
        clock.parent.mkdir(parents=True, exist_ok=True)
        clock.write_text(json.dumps(spent) + "\n")
        print(f"{line} ({spent['seconds']:,} s on the clock, {spent['cpu_seconds']:,} s CPU)", flush=True)

    print(f"{len(pairings())} pairings into {arguments.out}", flush=True)
    table = play(arguments.out, arguments.workers, report)
    milliseconds = time_decisions()
    report("timed the decisions: " + ", ".join(f"{name} {value:.3g} ms" for name, value in milliseconds.items()))
    data = build(table, milliseconds, command=command, commit=made_at,
                 date=datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"), **spent)
    DATA.write_text(json.dumps(data, indent=1) + "\n")
    text = PAGE.read_text()
    if not BLOCK.search(text):
        sys.exit(f"{PAGE} has no rating-list markers")
    PAGE.write_text(BLOCK.sub(lambda match: match[1] + markdown_block(data) + match[2], text))
    print(f"wrote {DATA} and the rating list of {PAGE}:\n\n{markdown_block(data)}", flush=True)


if __name__ == "__main__":
    try:
        main()
    except RunInterrupted as interrupted:  # Ctrl-C or SIGTERM: one line, as ginsim's, the pairings played kept
        print(f"Interrupted: {interrupted}.", file=sys.stderr)
        sys.exit(128 + interrupted.signal_number)
