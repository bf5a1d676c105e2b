"""The exact distribution of minimum deadwood over every possible hand of a given size.

``exact_distribution(10)`` scores all C(52, 10) = 15,820,024,220 ten-card hands, and
``exact_distribution(11)`` all 60,403,728,840 eleven-card hands, natively and in parallel. Deadwood
does not change when suits are permuted, so only canonical hands (suit masks in non-increasing
order) are scored, each weighted by the number of distinct suit permutations: about 24 times less
work (see ``gincore.exact``). The result is cached as JSON (in ``$GINSIM_CACHE``, else
``~/.cache/ginsim``), so later calls return at once.

>>> result = exact_distribution(cards=3, workers=1, cache=False)
>>> result.total, result.gin, result.knock[10]
(22100, 96, 1200)
>>> result.mean
Fraction(6347, 325)
"""
from __future__ import annotations

import json
import os
import sys
import time
import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import accumulate, pairwise
from math import comb
from pathlib import Path
from typing import Any, Unpack

import numpy as np
import pandas as pd
from tqdm import tqdm

from gincore import NUM_CARDS, deadwood_many
from gincore import exact as native
from gincore.errors import InputError
from ginsim._version import __version__
from ginsim.core.checks import check_seed, integer, positive
from ginsim.core.execution import RunFields, RunOptions, on_threads, run_threads
from ginsim.core.store import atomic_write
from ginsim.core.streams import derive

__all__ = ["ALGORITHM", "KNOCK_LIMITS", "ExactResult", "cache_path", "exact_distribution",
           "sampled_distribution"]

ALGORITHM = 1  # version of the enumeration and of its cache file; a cache of another version is redone
KNOCK_LIMITS = range(11)
CACHE_FORMAT = "ginsim-exact-deadwood"
CHUNKS_PER_WORKER = 64  # enough pieces to keep every worker busy to the end and the progress bar moving
MIN_CHUNK = 1_000_000   # canonical hands: below this a piece costs more to schedule than to score
SAMPLE_BATCH = 1 << 16


@dataclass(frozen=True)
class ExactResult:
    """Counts of all ``cards``-card hands by minimum deadwood, and what follows from them.

    ``histogram[d]`` is the number of hands whose minimum deadwood is ``d``, for ``d`` from 0 to the
    largest value reached. ``canonical`` is how many canonical hands were scored, ``runtime`` the
    seconds the enumeration took on ``workers`` threads (when it ran, for a cached result). Derived:
    ``total`` (= C(52, cards), checked), ``gin`` (hands with deadwood 0: for 11 cards, big gin),
    ``knock[limit]`` (hands with deadwood at most ``limit``, for ``limit`` 0..10) and the exact
    ``mean`` deadwood.

    >>> result = ExactResult(cards=1, histogram=(0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 16), canonical=13,
    ...                      runtime=0.0, workers=1)
    >>> result.knock[:3], result.mean, float(result.mean)
    ((0, 4, 8), Fraction(85, 13), 6.538461538461538)
    """

    cards: int
    histogram: tuple[int, ...]
    canonical: int
    runtime: float
    workers: int
    cached: bool = field(default=False, compare=False)
    total: int = field(init=False)
    gin: int = field(init=False)
    knock: tuple[int, ...] = field(init=False)
    mean: Fraction = field(init=False)

    def __post_init__(self) -> None:
        if not 0 <= self.cards <= NUM_CARDS:
            raise InputError(f"cards must be between 0 and {NUM_CARDS}, got {self.cards}")
        if not self.histogram or not all(isinstance(count, (int, np.integer)) and count >= 0
                                         for count in self.histogram):
            raise InputError("histogram must hold one non-negative integer count per deadwood value from 0")
        object.__setattr__(self, "histogram", tuple(int(count) for count in self.histogram))
        total = sum(self.histogram)
        if total != comb(NUM_CARDS, self.cards):
            raise InputError(f"the histogram counts {total:,} hands, not C({NUM_CARDS}, {self.cards}) = "
                             f"{comb(NUM_CARDS, self.cards):,}")
        cumulative = list(accumulate(self.histogram))
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "gin", self.histogram[0])
        object.__setattr__(self, "knock", tuple(cumulative[min(limit, len(cumulative) - 1)]
                                                for limit in KNOCK_LIMITS))
        weighted = sum(value * count for value, count in enumerate(self.histogram))
        object.__setattr__(self, "mean", Fraction(weighted, total))

    @property
    def gin_name(self) -> str:
        """What deadwood 0 is called for this hand size.

        >>> exact_distribution(cards=2, workers=1, cache=False).gin_name
        'fully melded'
        """
        return {10: "gin", 11: "big gin"}.get(self.cards, "fully melded")

    def to_frame(self) -> pd.DataFrame:
        """One row per deadwood value: ``hands``, ``fraction``, and the cumulative ``at_most`` and
        ``at_most_fraction`` (the hands that could knock with that limit).

        >>> frame = exact_distribution(cards=2, workers=1, cache=False).to_frame()
        >>> list(frame.columns), frame.loc[2:3, ["hands", "at_most"]].values.tolist()
        (['hands', 'fraction', 'at_most', 'at_most_fraction'], [[6, 6], [16, 22]])
        """
        hands = np.array(self.histogram, dtype=np.int64)
        frame = pd.DataFrame({"hands": hands, "fraction": hands / self.total,
                              "at_most": np.cumsum(hands)})
        frame["at_most_fraction"] = frame["at_most"] / self.total
        frame.index.name = "deadwood"
        return frame

    def to_text(self) -> str:
        """A plain-text report: the count and fraction of hands at each deadwood value, the
        fully melded hands, the hands that can knock at each limit 0..10, and the mean.

        >>> print(exact_distribution(cards=2, workers=1, cache=False).to_text())  # doctest: +ELLIPSIS
        Minimum deadwood of all 1,326 hands of 2 cards (exact)
        169 canonical hands scored (suit symmetry) in ... s on 1 worker
        <BLANKLINE>
        deadwood            hands       fraction
               2                6   0.0045248869
        ...
        mean deadwood: 170/13 = 13.0769230769
        """
        plural = "" if self.workers == 1 else "s"
        cached = "; read from the cache" if self.cached else ""
        lines = [
            f"Minimum deadwood of all {self.total:,} hands of {self.cards} cards (exact)",
            f"{self.canonical:,} canonical hands scored (suit symmetry) in {self.runtime:.1f} s "
            f"on {self.workers} worker{plural}{cached}",
            "",
            f"{'deadwood':>8} {'hands':>16} {'fraction':>14}",
        ]
        first = next(value for value, count in enumerate(self.histogram) if count)
        for value in range(first, len(self.histogram)):
            count = self.histogram[value]
            lines.append(f"{value:>8} {count:>16,} {count / self.total:>14.10f}")
        lines += [
            "",
            f"{self.gin_name} (deadwood 0): {self.gin:,} hands, {self.gin / self.total:.10f}",
            "",
            f"{'knock limit':>11} {'hands, deadwood <= limit':>26} {'fraction':>14}",
        ]
        for limit, count in zip(KNOCK_LIMITS, self.knock, strict=True):
            lines.append(f"{limit:>11} {count:>26,} {count / self.total:>14.10f}")
        lines += ["", f"mean deadwood: {self.mean.numerator}/{self.mean.denominator} = {float(self.mean):.10f}"]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The cache record: the counts and how they were computed.

        >>> exact_distribution(cards=1, workers=1, cache=False).to_json()["histogram"][:3]
        [0, 4, 4]
        """
        return {"format": CACHE_FORMAT, "algorithm": ALGORITHM, "version": __version__,
                "cards": self.cards, "histogram": list(self.histogram), "canonical": self.canonical,
                "runtime_seconds": self.runtime, "workers": self.workers}


def cache_path(cards: int) -> Path:
    """Where the result for ``cards`` is cached: ``$GINSIM_CACHE`` or ``~/.cache/ginsim``.

    >>> cache_path(10).name
    'exact-deadwood-10.json'
    """
    folder = os.environ.get("GINSIM_CACHE") or Path.home() / ".cache" / "ginsim"
    return Path(folder) / f"exact-deadwood-{cards}.json"


def _read_cache(cards: int) -> ExactResult | None:
    """The cached result, or ``None`` when there is none or it is unreadable, stale or wrong."""
    try:
        record = json.loads(cache_path(cards).read_text(encoding="utf-8"))
        if (record.get("format"), record.get("algorithm"), record.get("cards")) != (CACHE_FORMAT, ALGORITHM, cards):
            return None
        return ExactResult(cards=cards, histogram=tuple(record["histogram"]), canonical=record["canonical"],
                           runtime=float(record["runtime_seconds"]), workers=record["workers"], cached=True)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _write_cache(result: ExactResult) -> None:
    path = cache_path(result.cards)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, lambda handle: handle.write(json.dumps(result.to_json()).encode()))
    except OSError as error:
        warnings.warn(f"could not cache the exact distribution in {path}: {error}", stacklevel=3)


def _pieces(units: np.ndarray, canonical: np.ndarray, workers: int) -> list[np.ndarray]:
    """Split the work units into consecutive pieces of about equal numbers of canonical hands."""
    cumulative = np.cumsum(canonical)
    work = int(cumulative[-1])
    count = max(1, min(len(units), workers * CHUNKS_PER_WORKER, -(-work // MIN_CHUNK)))
    cuts = np.searchsorted(cumulative, np.arange(1, count) * (work / count))
    edges = np.unique(np.concatenate(([0], cuts, [len(units)])))
    return [units[start:stop] for start, stop in pairwise(edges)]


def _enumerate(cards: int, workers: int, progress: bool | None) -> ExactResult:
    started = time.perf_counter()
    units = native.work_units(cards)
    canonical = native.canonical_counts(units)
    pieces = _pieces(units, canonical, workers)
    counts = np.zeros(native.HISTOGRAM_SIZE, dtype=np.int64)
    show = sys.stderr.isatty() if progress is None else progress
    with tqdm(total=comb(NUM_CARDS, cards), unit=" hands", unit_scale=True, disable=not show,
              smoothing=0.05, dynamic_ncols=True, desc=f"{cards}-card hands") as bar:
        def add(part: np.ndarray) -> None:
            nonlocal counts
            counts += part
            bar.update(int(part.sum()))

        # The kernel releases the GIL, so threads score pieces in parallel with no copying.
        run_threads(native.histogram, pieces, workers, done=add)
    reached = int(np.flatnonzero(counts)[-1]) + 1
    return ExactResult(cards=cards, histogram=tuple(int(count) for count in counts[:reached]),
                       canonical=int(canonical.sum()), runtime=time.perf_counter() - started,
                       workers=workers)


def exact_distribution(cards: int = 10, *, cache: bool = True, options: RunOptions | None = None,
                       **run_options: Unpack[RunFields]) -> ExactResult:
    """Score every ``cards``-card hand (0 to 52 cards) and count the hands by minimum deadwood.

    The native kernel releases the GIL, so the hands are scored on threads of this process: ``workers``
    (every core by default) and ``progress`` (a bar on a terminal; forces it on or off) as the run
    options say (as keywords or ``options=``), which take no ``out``, ``chunk_size``, ``repair`` or Dask.
    With ``cache=True`` a cached result of the same algorithm version is returned as it is
    (``result.cached``), and a new one is cached. 10 cards take seconds, 11 cards under a minute
    on two cores; the work grows fast beyond that (C(52, 13)/24 canonical hands for 13 cards).

    >>> result = exact_distribution(cards=4, workers=2, cache=False)
    >>> result.total, result.gin, result.canonical
    (270725, 53, 16432)
    """
    cards = integer("cards", cards, 0, NUM_CARDS)
    run = RunOptions.of(options, **run_options)
    threads = on_threads(run, "the exact enumeration")
    if cache:
        stored = _read_cache(cards)
        if stored is not None:
            return stored
    result = _enumerate(cards, threads, run.progress)
    if cache:
        _write_cache(result)
    return result


def sampled_distribution(cards: int, hands: int, seed: int) -> np.ndarray:
    """Counts by minimum deadwood of ``hands`` uniformly random ``cards``-card hands (a Monte-Carlo
    estimate to check ``exact_distribution`` against): ``counts[d]`` for ``d`` = 0..10*cards.

    The same (cards, hands, seed) always draws the same hands.

    >>> counts = sampled_distribution(cards=10, hands=1000, seed=1)
    >>> int(counts.sum()), len(counts)
    (1000, 101)
    """
    cards = integer("cards", cards, 0, NUM_CARDS)
    hands = positive("hands", hands)
    seed = check_seed(seed)
    rng = np.random.default_rng(derive(seed, "exact_samples"))
    counts = np.zeros(min(10 * cards, native.HISTOGRAM_SIZE - 1) + 1, dtype=np.int64)
    powers = np.uint64(1) << np.arange(NUM_CARDS, dtype=np.uint64)
    for first in range(0, hands, SAMPLE_BATCH):
        size = min(SAMPLE_BATCH, hands - first)
        if cards == 0:
            masks = np.zeros(size, dtype=np.uint64)
        else:
            # The cards with the smallest of 52 independent uniform keys: a uniform random subset.
            chosen = np.argpartition(rng.random((size, NUM_CARDS)), cards - 1, axis=1)[:, :cards]
            masks = np.bitwise_or.reduce(powers[chosen], axis=1)
        counts += np.bincount(deadwood_many(masks), minlength=len(counts))
    return counts
