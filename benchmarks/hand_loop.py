"""The native hand loop's rate: hands of ``simple`` against ``simple`` (standard rules) a second on one core.

CPU time of this process, the median of ``--rounds`` calls of ``Engine.play_hands`` over the same hands
(after a call of ``--warmup`` hands). Run it under callgrind to count the instructions of the hand loop
alone, with no warm-up (the count is the same on every run of one build):

    valgrind --tool=callgrind --toggle-collect='__pyx_pf_7gincore_7_engine_6Engine_8play_hands' \\
        python benchmarks/hand_loop.py --hands 50000 --rounds 1 --warmup 0

Usage: python benchmarks/hand_loop.py [--hands 300000] [--rounds 5] [--warmup 10000] [--players simple,simple]
"""
from __future__ import annotations

import argparse
import statistics
import time

from ginsim import Rules

try:
    from ginsim.gin.game.native import run_key
    from ginsim.gin.game.players import engine
except ImportError:  # a build from before ginsim.gin's sub-packages
    from ginsim.gin.engine import engine, run_key  # type: ignore[no-redef]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300_000, help="hands a call (default 300,000)")
    parser.add_argument("--rounds", type=int, default=5, help="calls timed (default 5)")
    parser.add_argument("--warmup", type=int, default=10_000, help="hands played first, untimed (default 10,000)")
    parser.add_argument("--players", default="simple,simple", help="the strategy pair (default simple,simple)")
    options = parser.parse_args()
    if options.hands < 1 or options.rounds < 1 or options.warmup < 0:
        parser.error("--hands and --rounds must be at least 1, --warmup at least 0")
    loop, (key0, key1) = engine(Rules(), options.players), run_key(1)
    if options.warmup:
        loop.play_hands(key0, key1, 0, options.warmup)
    seconds = []
    for _ in range(options.rounds):
        start = time.process_time()
        loop.play_hands(key0, key1, 0, options.hands)
        seconds.append(time.process_time() - start)
    median = statistics.median(seconds)
    print(f"{options.players}: {options.hands:,} hands in {median:.3f} s of CPU (median of {options.rounds}): "
          f"{options.hands / median:,.0f} hands/s")


if __name__ == "__main__":
    main()
