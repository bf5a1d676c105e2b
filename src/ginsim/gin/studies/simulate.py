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

import dataclasses
import functools
from collections.abc import Sequence
from typing import Any, Unpack, cast

import numpy as np
import pandas as pd

from gincore import RANKS, SUITS
from gincore.errors import InputError
from ginsim.core.checks import check_seed, count
from ginsim.core.execution import (
    RunFields,
    RunIdentity,
    RunOptions,
    identified,
    in_slices,
    joined_columns,
    run_chunks,
    worker_count,
)
from ginsim.core.streams import LIMITS
from ginsim.gin.game.native import OUTCOME_NAMES, RECORD_COLUMNS, Engine, check_rules, interrupts, match_key, run_key
from ginsim.gin.game.players import PlayerSpec, engine, has_python, resolve_players, run_identity
from ginsim.gin.game.rules import Rules
from ginsim.gin.studies.matches import DUPLICATE_COLUMNS, MATCH_COLUMNS, play_duplicate, play_match, play_team_match
from ginsim.gin.studies.summary import COUNTS, HANDS, MATCHES, Counts, summarize, widest_halfwidth

__all__ = ["records_frame", "simulate", "simulate_matches", "simulate_until"]

HANDS_PER_CHUNK = 100_000
HANDS_PER_STREAMED_CHUNK = 1_000_000
FIRST_BATCH = 100_000
"""The first batch of a precision-targeted run (:func:`simulate_until`); each later one doubles the run."""
MATCHES_PER_CHUNK = 2_000


def records_frame(columns: dict[str, np.ndarray]) -> pd.DataFrame:
    """The per-hand DataFrame of native record columns: compact dtypes, categoricals for text.

    >>> from ginsim.gin.game.players import engine
    >>> frame = records_frame(engine(Rules(), "simple,simple").play_hands(1, 2, 0, 3))
    >>> frame["outcome"].dtype.name, frame["upcard_rank"].dtype.name
    ('category', 'category')
    """
    frame = pd.DataFrame({name: columns[name] for name in RECORD_COLUMNS})
    upcard = frame["upcard"].to_numpy(np.int64)
    frame.insert(3, "upcard_rank", pd.Series(pd.Categorical.from_codes(upcard % 13, categories=pd.Index(list(RANKS)))))
    frame.insert(4, "upcard_suit", pd.Series(pd.Categorical.from_codes(upcard // 13, categories=pd.Index(list(SUITS)))))
    frame["outcome"] = pd.Categorical.from_codes(frame["outcome"].to_numpy(np.int64),
                                                 categories=pd.Index(OUTCOME_NAMES))
    return frame


def _play_chunk(first: int, count: int, engine: Engine, key: tuple[int, int], streamed: bool) -> Any:
    with interrupts():
        if streamed:
            parts = in_slices(functools.partial(engine.play_counts, *key), first, count)
            return functools.reduce(_add_counts, cast("list[dict[str, np.ndarray]]", parts))
        return records_frame(joined_columns(in_slices(functools.partial(engine.play_hands, *key), first, count)))


def _add_counts(first: dict[str, np.ndarray], second: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Two chunks' native counts together (the arrays both have: counts stored before the sums of
    squares were kept lack them)."""
    return {name: first[name] + second[name] for name in first if name in second}


def _play_match_chunk(first: int, count: int, engine: Engine, rules: Rules, key: tuple[int, int],
                      teams: int | None, swapped: Engine | None = None) -> pd.DataFrame:
    with interrupts():
        if swapped is not None:
            rows = [row for match in range(first, first + count)
                    for row in play_duplicate((engine, swapped), rules, key, match, teams)]
            return pd.DataFrame(rows, columns=list(DUPLICATE_COLUMNS))
        if teams:
            rows = [play_team_match(engine, rules, key, match, teams) for match in range(first, first + count)]
        else:
            rows = [play_match(engine, rules, key, match) for match in range(first, first + count)]
    return pd.DataFrame(rows, columns=list(MATCH_COLUMNS))


def simulate(
    rules: Rules,
    players: Sequence[PlayerSpec] | str,
    hands: int,
    seed: int,
    *,
    stream: bool = False,
    options: RunOptions | None = None,
    **run_options: Unpack[RunFields],
) -> pd.DataFrame | Counts:
    """Play ``hands`` seeded hands and return one row per hand (or, with ``stream=True``, ``Counts``).

    The run options come as keywords (:class:`~ginsim.core.execution.RunFields`) or as one
    :class:`~ginsim.core.execution.RunOptions` (``options=``, as the command line gives them). ``workers=None`` uses
    every core; ``backend`` is ``"local"`` (a process pool) or ``"dask"`` (the
    cluster at ``scheduler``, a ``tcp://`` address, or a ``LocalCluster`` started for the run).
    ``out=DIR`` writes each finished chunk there atomically, with the run's rules, players, seed and
    version; calling again with the same arguments resumes, and a directory holding another run is
    refused. ``stream=True`` keeps only counts per (dealer, upcard, outcome, winner) — for runs too
    large to keep a row per hand — which :func:`ginsim.summarize` takes like records. A progress bar
    is shown on a terminal (``progress`` forces it on or off). ``repair=True`` moves damaged or
    foreign parts of ``out`` aside and plays their chunks again.

    ``hands`` may be at most 10**18 and ``chunk_size`` at most 10**7; a Python strategy enters the
    run's identity by its class, the text that loads it and its source's hash.

    Classic Rummy is played by :func:`ginsim.rummy.simulate`.
    """
    check_rules(rules)
    names = resolve_players(players)
    total = count("hands", hands, LIMITS["gin_hands"])
    seed = check_seed(seed)
    run = RunOptions.of(options, **run_options)
    size = run.chunk(HANDS_PER_STREAMED_CHUNK if stream else HANDS_PER_CHUNK)
    hand_engine = engine(rules, names)
    key = run_key(seed)
    limits = [rules.knock_limit_for(upcard) for upcard in range(52)]
    identity: dict[str, Any] = {"kind": (COUNTS if stream else HANDS).name, "rules": rules.to_dict(),
                                **run_identity(names), "seed": seed, "size": total, "chunk_size": size}
    if stream:
        identity["knock_limit"] = limits
    parts = run_chunks(identity, _play_chunk, (hand_engine, key, stream), run, HANDS.unit,
                       merge=_add_counts if stream else None, in_process=has_python(names))
    if not stream:
        frames: list[pd.DataFrame] = parts
        return identified(pd.concat(frames, ignore_index=True), identity)
    counts = Counts(knock_limit=np.asarray(limits, np.int8))
    for arrays in parts:
        counts = counts.add(Counts.from_arrays(arrays, limits))
    counts.identity = RunIdentity.of(identity)
    return counts


def simulate_until(
    rules: Rules,
    players: Sequence[PlayerSpec] | str,
    halfwidth: float,
    by: str | Sequence[str] | None,
    max_hands: int,
    seed: int,
    *,
    first_batch: int = FIRST_BATCH,
    options: RunOptions | None = None,
    **run_options: Unpack[RunFields],
) -> Counts:
    """Play seeded hands until every rate of every group of ``by`` is known to ``halfwidth``: its 95%
    Wilson interval reaches no further than that from it. Hands are added in batches (``first_batch``
    hands, then doubling the run each time), at most ``max_hands`` in all.

    The result is exactly ``simulate(..., hands=n, stream=True)`` for the ``n`` hands played
    (``counts.total``), so a precision-targeted run is as reproducible as any other. The run options
    are :func:`~ginsim.simulate`'s, but for ``out``, ``chunk_size`` and ``repair``: the run grows batch by batch.

    >>> counts = simulate_until(Rules(), "simple,simple", 0.02, "dealer", 100_000, seed=1, workers=1,
    ...                         first_batch=1000)
    >>> counts.total, widest_halfwidth(summarize(counts, by="dealer")) <= 0.02
    (2000, True)
    """
    check_rules(rules)
    names = resolve_players(players)
    if isinstance(halfwidth, bool) or not isinstance(halfwidth, (int, float)) or not 0 < halfwidth < 0.5:
        raise InputError(f"halfwidth must be a number between 0 and 0.5 (a share of hands), got {halfwidth!r}")
    limit = count("max_hands", max_hands, LIMITS["gin_hands"])
    batch = count("first_batch", first_batch, LIMITS["gin_hands"])
    seed = check_seed(seed)
    run = RunOptions.of(options, **run_options)
    if run.out is not None or run.chunk_size is not None or run.repair:
        raise InputError("simulate_until grows the run batch by batch: it takes no out, chunk_size or repair")
    workers = worker_count(run.workers, has_python(names))
    run = dataclasses.replace(run, workers=workers)
    hand_engine, key = engine(rules, names), run_key(seed)
    limits = [rules.knock_limit_for(upcard) for upcard in range(52)]
    counts = Counts(knock_limit=np.asarray(limits, np.int8))
    played = 0
    while True:
        target = min(limit, max(batch, 2 * played))
        size = min(HANDS_PER_STREAMED_CHUNK, max(1_000, (target - played) // (4 * workers)))
        identity = {"kind": COUNTS.name, "size": target, "chunk_size": size}
        for arrays in run_chunks(identity, _play_chunk, (hand_engine, key, True), run, HANDS.unit, start=played,
                                 merge=_add_counts):
            counts = counts.add(Counts.from_arrays(arrays, limits))
        played = target
        if played == limit or widest_halfwidth(summarize(counts, by=by)) <= halfwidth:
            counts.identity = RunIdentity.of({"kind": COUNTS.name, "rules": rules.to_dict(), **run_identity(names),
                                              "seed": seed, "size": played, "chunk_size": size})
            return counts


def simulate_matches(
    rules: Rules,
    players: Sequence[PlayerSpec] | str,
    matches: int,
    seed: int,
    *,
    teams: int | None = None,
    duplicate: bool = False,
    options: RunOptions | None = None,
    **run_options: Unpack[RunFields],
) -> pd.DataFrame:
    """Play ``matches`` games to ``rules.target``; one row per match (see ``ginsim.gin.studies.matches``).

    Columns: ``match``, ``winner``, ``total_0``, ``total_1``, ``margin`` (winner's total minus the
    loser's), ``hands`` (played, drawn ones included), ``hands_won_0``, ``hands_won_1``, ``games``
    (games scored in the row: 3 under Hollywood, times the pairs in team play), ``shutouts``,
    ``first_dealer``. With ``teams=N`` each row is a team match of N pairs. Workers, backends, ``out``,
    resuming and ``repair`` work as in :func:`simulate`; ``matches`` (times ``teams``) may be at most
    10**12.

    ``duplicate=True`` plays each of the ``matches`` deal sequences twice, the second time with the
    seats swapped (the first hand deals each player the cards the other had): two rows per ``match``,
    2 × ``matches`` in all, the second with ``swapped`` True. Every row is then in the players' terms:
    ``_0`` columns, ``winner == 0`` and ``first_dealer == 0`` refer to the first player named, whichever
    seat they had; :func:`~ginsim.summarize_matches` pairs the two games of each deal.

    >>> from ginsim import Rules, simulate_matches
    >>> table = simulate_matches(Rules(), "greedy,simple", matches=20, seed=1, workers=1)
    >>> len(table), bool((table[["total_0", "total_1"]].max(axis=1) >= 100).all())
    (20, True)
    >>> doubled = simulate_matches(Rules(), "greedy,simple", matches=20, seed=1, workers=1, duplicate=True)
    >>> len(doubled), doubled[~doubled["swapped"]].drop(columns="swapped").reset_index(drop=True).equals(table)
    (40, True)
    """
    check_rules(rules)
    names = resolve_players(players)
    total = count("matches", matches, LIMITS["gin_matches"])
    pairs = count("teams", teams, LIMITS["gin_matches"] // total) if teams is not None else None
    if not isinstance(duplicate, bool):
        raise InputError(f"duplicate must be True or False, got {duplicate!r}")
    seed = check_seed(seed)
    run = RunOptions.of(options, **run_options)
    size = run.chunk(MATCHES_PER_CHUNK)
    identity: dict[str, Any] = {"kind": MATCHES.name, "rules": rules.to_dict(), **run_identity(names),
                                "seed": seed, "size": total, "chunk_size": size, "teams": pairs}
    if duplicate:  # only then, so that directories written before keep their identity
        identity["duplicate"] = True
    swapped = engine(rules, (names[1], names[0])) if duplicate else None
    parts = run_chunks(identity, _play_match_chunk, (engine(rules, names), rules, match_key(seed), pairs, swapped),
                       run, MATCHES.unit, in_process=has_python(names))
    frames: list[pd.DataFrame] = parts
    return identified(pd.concat(frames, ignore_index=True), identity)
