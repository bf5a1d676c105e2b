"""Seeded Monte-Carlo runs of hands and matches, in chunks, on local processes or a Dask cluster.

A run is split into chunks of consecutive hand (or match) indices; each chunk is played natively by
a worker, and hand ``i`` depends only on (rules, players, seed, i), so the results are identical for
any number of workers, chunk size or backend. With ``out=DIR`` each finished chunk is written
atomically, and the same call after a crash resumes where the run stopped.

>>> from ginsim import Rules, simulate
>>> records = simulate(Rules.preset("oklahoma"), "simple,simple", hands=1000, seed=7, workers=1)
>>> len(records), list(records.columns[:5])
(1000, ['hand', 'dealer', 'upcard', 'upcard_rank', 'upcard_suit'])
"""
from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, cast

import numpy as np
import pandas as pd
from tqdm import tqdm

from gincore import RANKS, SUITS
from gincore._engine import OUTCOME_NAMES, RECORD_COLUMNS, Engine
from gincore.errors import InputError
from ginsim._native import engine, match_key, run_key
from ginsim.checks import check_seed, positive
from ginsim.matches import MATCH_COLUMNS, play_match, play_team_match
from ginsim.rules import Rules
from ginsim.store import RunDirectory
from ginsim.strategies import PlayerSpec, has_python, player_name, resolve_players
from ginsim.summary import Counts

__all__ = ["BACKENDS", "records_frame", "run_chunks", "simulate", "simulate_matches"]

BACKENDS = ("local", "dask")
# Forked workers start at once and need no ``if __name__ == "__main__"`` guard in the caller's
# script; where fork does not exist, spawn.
_POOL_CONTEXT = multiprocessing.get_context(
    "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
HANDS_PER_CHUNK = 100_000
HANDS_PER_STREAMED_CHUNK = 1_000_000
MATCHES_PER_CHUNK = 2_000


def records_frame(columns: dict[str, np.ndarray]) -> pd.DataFrame:
    """The per-hand DataFrame of native record columns: compact dtypes, categoricals for text.

    >>> from ginsim._native import engine
    >>> frame = records_frame(engine(Rules(), "simple,simple").play_hands(1, 2, 0, 3))
    >>> frame["outcome"].dtype.name, frame["upcard_rank"].dtype.name
    ('category', 'category')
    """
    frame = pd.DataFrame({name: columns[name] for name in RECORD_COLUMNS})
    upcard = frame["upcard"].to_numpy()
    frame.insert(3, "upcard_rank", pd.Categorical.from_codes(upcard % 13, categories=list(RANKS)))
    frame.insert(4, "upcard_suit", pd.Categorical.from_codes(upcard // 13, categories=list(SUITS)))
    frame["outcome"] = pd.Categorical.from_codes(frame["outcome"].to_numpy(), categories=OUTCOME_NAMES)
    return frame


def _play_chunk(first: int, count: int, engine: Engine, key: tuple[int, int], streamed: bool) -> Any:
    if streamed:
        return engine.play_counts(key[0], key[1], first, count)
    return records_frame(engine.play_hands(key[0], key[1], first, count))


def _play_match_chunk(first: int, count: int, engine: Engine, rules: Rules, key: tuple[int, int],
                      teams: int | None) -> pd.DataFrame:
    if teams:
        rows = [play_team_match(engine, rules, key, match, teams) for match in range(first, first + count)]
    else:
        rows = [play_match(engine, rules, key, match) for match in range(first, first + count)]
    return pd.DataFrame(rows, columns=list(MATCH_COLUMNS))


def worker_count(workers: int | None, players: Sequence[Any] = ()) -> int:
    """The number of worker processes: every core unless given, one with a Python strategy."""
    if workers is None and has_python(players):
        return 1  # a Python strategy defined in a notebook or script may not reach worker processes
    if workers is None:
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return positive("workers", workers)


def _execute(task: Callable[..., Any], args: tuple[Any, ...], chunks: Sequence[tuple[int, int]],
             workers: int, backend: str, scheduler: str | None, progress: bool | None, unit: str,
             done: Callable[[int, Any], None]) -> None:
    """Run ``task(first, count, *args)`` for every chunk and hand each result to ``done``."""
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    if scheduler is not None and backend != "dask":
        raise InputError("a scheduler address goes with backend='dask'")
    show = sys.stderr.isatty() if progress is None else progress

    def progress_bar() -> Any:
        return tqdm(total=sum(count for _, count in chunks), unit=f" {unit}", unit_scale=True,
                    disable=not show or not chunks, smoothing=0.05, dynamic_ncols=True)

    if backend == "dask":
        with progress_bar() as bar:
            _execute_dask(task, args, chunks, workers, scheduler, bar, done)
    elif workers == 1 or len(chunks) <= 1:
        with progress_bar() as bar:
            for first, count in chunks:
                done(first, task(first, count, *args))
                bar.update(count)
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(chunks)), mp_context=_POOL_CONTEXT) as pool:
            # Every worker starts while submitting, before the progress bar starts its thread.
            futures = {pool.submit(task, first, count, *args): (first, count) for first, count in chunks}
            with progress_bar() as bar:
                for future in as_completed(futures):
                    first, count = futures[future]
                    done(first, future.result())
                    bar.update(count)


def _execute_dask(task: Callable[..., Any], args: tuple[Any, ...], chunks: Sequence[tuple[int, int]],
                  workers: int, scheduler: str | None, bar: Any, done: Callable[[int, Any], None]) -> None:
    try:
        from distributed import Client, LocalCluster
        from distributed import as_completed as dask_completed
    except ImportError:
        raise InputError("the dask backend needs the 'distributed' package: pip install 'ginsim[dask]'") from None
    cluster = None
    try:
        if scheduler is None:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
        else:
            client = Client(scheduler, timeout="5s")
    except (OSError, TimeoutError) as error:
        if cluster is not None:
            cluster.close()
        raise InputError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
    try:
        futures = {client.submit(task, first, count, *args, pure=False): (first, count)
                   for first, count in chunks}
        for future in dask_completed(list(futures)):
            first, count = futures[future]
            done(first, future.result())
            bar.update(count)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _chunks(total: int, size: int, skip: Iterable[int] = ()) -> list[tuple[int, int]]:
    finished = set(skip)
    return [(first, min(size, total - first)) for first in range(0, total, size) if first not in finished]


def run_chunks(identity: dict[str, Any], task: Callable[..., Any], args: tuple[Any, ...], workers: int,
               backend: str, scheduler: str | None, progress: bool | None,
               out: str | os.PathLike[str] | None, unit: str) -> list[Any]:
    """Play the run that ``identity`` describes (its ``size`` items in chunks of ``chunk_size``) with
    ``task(first, count, *args)``; the chunks' results in order.

    With ``out`` every finished chunk is written there (a DataFrame as Parquet, a dict of arrays as
    numpy), chunks already there are not played again, and the results are read back from it (all
    frames as one DataFrame).
    """
    run = RunDirectory.open(out, identity) if out is not None else None
    results: dict[int, Any] = {}

    def done(first: int, result: Any) -> None:
        if run is None:
            results[first] = result
        elif isinstance(result, pd.DataFrame):
            run.write_frame(first, result)
        else:
            run.write_arrays(first, result)

    chunks = _chunks(identity["size"], identity["chunk_size"], run.finished() if run else ())
    _execute(task, args, chunks, workers, backend, scheduler, progress, unit, done)
    if run is None:
        return [results[first] for first in sorted(results)]
    return run.read_arrays() if identity["kind"] == "counts" else [run.read_frame()]


def simulate(
    rules: Rules | Any,
    players: Sequence[PlayerSpec] | str,
    hands: int,
    seed: int,
    workers: int | None = None,
    backend: str = "local",
    out: str | os.PathLike[str] | None = None,
    *,
    chunk_size: int | None = None,
    scheduler: str | None = None,
    stream: bool = False,
    progress: bool | None = None,
    game: str = "gin",
) -> pd.DataFrame | Counts:
    """Play ``hands`` seeded hands and return one row per hand (or, with ``stream=True``, ``Counts``).

    ``workers=None`` uses every core; ``backend`` is ``"local"`` (a process pool) or ``"dask"`` (the
    cluster at ``scheduler``, a ``tcp://`` address, or a ``LocalCluster`` started for the run).
    ``out=DIR`` writes each finished chunk there atomically, with the run's rules, players, seed and
    version; calling again with the same arguments resumes, and a directory holding another run is
    refused. ``stream=True`` keeps only counts per (dealer, upcard, outcome, winner) — for runs too
    large to keep a row per hand — which :func:`ginsim.summarize` takes like records. A progress bar
    is shown on a terminal (``progress`` forces it on or off).

    ``game="rummy"`` plays classic Rummy instead (``rules`` a ``ginsim.rummy.RummyRules`` or ``None``
    for its defaults, two to six ``players``; see :func:`ginsim.rummy.simulate_rummy`).
    """
    if game == "rummy":
        from ginsim.rummy import RummyRules, simulate_rummy

        if stream:
            raise InputError("stream=True is for Gin runs; classic Rummy keeps a row per hand")
        rummy_rules = RummyRules() if rules is None else cast(RummyRules, rules)
        return simulate_rummy(rummy_rules, cast(Any, players), hands, seed, workers, chunk_size,
                              backend=backend, scheduler=scheduler, out=out, progress=progress)
    if game != "gin":
        raise InputError(f"unknown game {game!r}; choose 'gin' or 'rummy'")
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a ginsim.Rules, got {type(rules).__name__}")
    names = resolve_players(players)
    total = positive("hands", hands)
    seed = check_seed(seed)
    size = positive("chunk_size", chunk_size) if chunk_size is not None else (
        HANDS_PER_STREAMED_CHUNK if stream else HANDS_PER_CHUNK)
    workers = worker_count(workers, names)
    hand_engine = engine(rules, names)
    key = run_key(seed)
    limits = [rules.knock_limit_for(upcard) for upcard in range(52)]
    identity: dict[str, Any] = {"kind": "counts" if stream else "hands", "rules": rules.to_dict(),
                "players": [player_name(name) for name in names], "seed": seed, "size": total,
                "chunk_size": size}
    if stream:
        identity["knock_limit"] = limits
    parts = run_chunks(identity, _play_chunk, (hand_engine, key, stream), workers, backend, scheduler,
                       progress, out, "hands")
    if not stream:
        return pd.concat(parts, ignore_index=True)
    counts = Counts(knock_limit=np.asarray(limits, np.int8))
    for arrays in parts:
        counts = counts.add(Counts.from_arrays(arrays, limits))
    return counts


def simulate_matches(
    rules: Rules,
    players: Sequence[PlayerSpec] | str,
    matches: int,
    seed: int,
    workers: int | None = None,
    backend: str = "local",
    out: str | os.PathLike[str] | None = None,
    *,
    teams: int | None = None,
    chunk_size: int | None = None,
    scheduler: str | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Play ``matches`` games to ``rules.target``; one row per match (see ``ginsim.matches``).

    Columns: ``match``, ``winner``, ``total_0``, ``total_1``, ``margin`` (winner's total minus the
    loser's), ``hands`` (played, drawn ones included), ``hands_won_0``, ``hands_won_1``, ``games``
    (games scored in the row: 3 under Hollywood, times the pairs in team play), ``shutouts``,
    ``first_dealer``. With ``teams=N`` each row is a team match of N pairs. Workers, backends, ``out``
    and resuming work as in :func:`simulate`.

    >>> from ginsim import Rules, simulate_matches
    >>> table = simulate_matches(Rules(), "greedy,simple", matches=20, seed=1, workers=1)
    >>> len(table), bool((table[["total_0", "total_1"]].max(axis=1) >= 100).all())
    (20, True)
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a ginsim.Rules, got {type(rules).__name__}")
    names = resolve_players(players)
    total = positive("matches", matches)
    pairs = positive("teams", teams) if teams is not None else None
    seed = check_seed(seed)
    size = positive("chunk_size", chunk_size) if chunk_size is not None else MATCHES_PER_CHUNK
    identity = {"kind": "matches", "rules": rules.to_dict(), "players": [player_name(name) for name in names],
                "seed": seed, "size": total, "chunk_size": size, "teams": pairs}
    parts = run_chunks(identity, _play_match_chunk, (engine(rules, names), rules, match_key(seed), pairs),
                       worker_count(workers, names), backend, scheduler, progress, out, "matches")
    return pd.concat(parts, ignore_index=True)
