"""Make the match equity tables that ship with ginsim: ``src/ginsim/gin/data/equity_<rules>_<target>.npz``.

Each is :func:`ginsim.gin.studies.equity.equity_table` of ``simple`` against itself from 10^8 seeded hands on one
core (seed 0, 400 bootstrap replicates), written by :func:`ginsim.gin.studies.equity.save_table` with the
command that made it and the seconds it took (``seconds`` on the clock, ``cpu_seconds`` of this process,
the honest figure on a shared machine)::

    python tools/make_equity_tables.py                          # standard and oklahoma to 100
    python tools/make_equity_tables.py --target 50              # ... to 50 (and --target 250: to 250)
    python tools/make_equity_tables.py --rules oklahoma --hands 1000000 --out /tmp/tables

It prints each table's half-widths (largest, mean, at 0-0) as it goes.
"""
from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

from ginsim import Rules
from ginsim.gin.studies.equity import equity_table, save_table

DATA = Path(__file__).resolve().parents[1] / "src" / "ginsim" / "gin" / "data"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", action="append", help="a rules preset (repeat for several; default: standard "
                        "and oklahoma)")
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--hands", type=int, default=100_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=DATA, help="the folder to write to (default: the package's)")
    arguments = parser.parse_args(argv)
    command = shlex.join(["python", "tools/make_equity_tables.py", *(sys.argv[1:] if argv is None else argv)])
    arguments.out.mkdir(parents=True, exist_ok=True)
    for name in arguments.rules or ["standard", "oklahoma"]:
        started, used = time.perf_counter(), time.process_time()
        table = equity_table(Rules.preset(name), arguments.target, "simple,simple", arguments.hands, arguments.seed,
                             workers=arguments.workers, progress=False)
        seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - used
        table.attrs.update(command=command, seconds=round(seconds, 1), cpu_seconds=round(cpu_seconds, 1))
        path = save_table(table, arguments.out / f"equity_{name}_{arguments.target}.npz")
        half = (table["high"] - table["low"]) / 2
        start = half[(table["score"] == 0) & (table["opponent_score"] == 0)].max()
        print(f"{path}: {table.attrs['run']}; {seconds:.0f} s ({cpu_seconds:.0f} s of CPU); half-widths: largest "
              f"{half.max():.5f}, mean {half.mean():.5f}, at 0-0 {start:.5f}; {path.stat().st_size:,} bytes",
              flush=True)


if __name__ == "__main__":
    main()
