"""Seeded runs of classic Rummy hands and of games to a target, on local processes or a Dask cluster.

Runs are cut into chunks, played and stored by the game-independent run layer (:mod:`ginsim.core.execution`), so
workers, chunk sizes, backends, ``out=DIR`` and resuming work as for Gin runs.

>>> records = simulate(Rules(), "greedy,greedy,greedy", hands=2000, seed=1, workers=1)
>>> len(records), int(records["players"].iloc[0])
(2000, 3)
"""
from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Final, Unpack

import numpy as np
import pandas as pd

from ginsim.core.checks import check_seed, count
from ginsim.core.execution import RunFields, RunKind, RunOptions, identified, in_slices, joined_columns, run_chunks
from ginsim.core.streams import LIMITS
from ginsim.rummy.native import GAME_COLUMNS, RECORD_COLUMNS, RummyEngine, engine, game_key, run_key
from ginsim.rummy.rules import Rules, check_rules
from ginsim.rummy.strategies import resolve_players
from ginsim.rummy.summary import GAMES, HANDS, OUTCOMES

__all__ = ["games_frame", "records_frame", "simulate", "simulate_games"]

_PER_CHUNK: Final = {HANDS.name: 100_000, GAMES.name: 5_000}
"""The default chunk size of each kind of run: a chunk takes a worker about a second."""
_MOST: Final = {HANDS.name: LIMITS["rummy_hands"], GAMES.name: LIMITS["rummy_games"]}
"""The most items of each kind of run (see :data:`ginsim.core.streams.LIMITS`)."""


def records_frame(columns: Mapping[str, np.ndarray]) -> pd.DataFrame:
    """The per-hand DataFrame of the native columns, with ``outcome`` (out, rummy, draw) after ``winner``.

    >>> frame = records_frame(engine(Rules(), "greedy,greedy").play_hands(1, 2, 0, 3))
    >>> list(frame.columns[:6])
    ['hand', 'players', 'dealer', 'winner', 'outcome', 'points']
    """
    frame = pd.DataFrame({name: columns[name] for name in RECORD_COLUMNS})
    winner = frame["winner"].to_numpy()
    codes = np.where(winner < 0, 2, np.where(frame["rummy"].to_numpy() > 0, 1, 0)).astype(np.int8)
    frame.insert(4, "outcome", pd.Series(pd.Categorical.from_codes(codes, categories=pd.Index(OUTCOMES))))
    return frame


def _play_chunk(first: int, count: int, engine: RummyEngine, key: tuple[int, int]) -> pd.DataFrame:
    return records_frame(joined_columns(in_slices(functools.partial(engine.play_hands, *key), first, count)))


def _run(kind: RunKind, rules: Rules, players: Sequence[str] | str, items: int, seed: int,
         options: RunOptions) -> pd.DataFrame:
    """Check the arguments of a run of ``kind`` (hands or games), play it and gather its rows."""
    check_rules(rules)
    names = resolve_players(players)
    total = count(kind.unit, items, _MOST[kind.name])
    seed = check_seed(seed)
    size = options.chunk(_PER_CHUNK[kind.name])
    table = engine(rules, names)
    task, args = ((_play_chunk, (table, run_key(seed))) if kind is HANDS else
                  (_play_game_chunk, (table, game_key(seed), rules.target)))
    identity = {"kind": kind.name, "game": "rummy", "rules": rules.to_dict(), "players": list(names),
                "seed": seed, "size": total, "chunk_size": size}
    parts = run_chunks(identity, task, args, options, kind.unit)
    frames: list[pd.DataFrame] = parts
    return identified(pd.concat(frames, ignore_index=True), identity)


def simulate(
    rules: Rules,
    players: Sequence[str] | str,
    hands: int,
    seed: int,
    *,
    options: RunOptions | None = None,
    **run_options: Unpack[RunFields],
) -> pd.DataFrame:
    """Play ``hands`` seeded hands of classic Rummy; one row per hand (see :func:`records_frame`).

    Columns: ``hand``, ``players``, ``dealer`` (drawn at random for every hand), ``winner`` (-1 for a
    drawn hand), ``outcome``, ``points`` (after doubling), ``rummy``, ``turns`` (draws), ``turnovers``,
    ``cards_left_0..5`` (-1 for absent seats), ``melds`` and ``table_cards`` (on the table at the end),
    ``stock_left``, ``pile_left``. The run options are those of
    :func:`ginsim.gin.studies.simulate`, and work the same: ``workers``, ``backend`` (``"local"`` or ``"dask"``),
    ``out=DIR`` with resuming and ``repair``, ``chunk_size``, ``scheduler`` and ``progress`` as keywords
    (:class:`~ginsim.core.execution.RunFields`), or all as one :class:`~ginsim.core.execution.RunOptions`
    (``options=``); the rows do not depend on them. ``hands`` may be at most 10**18, ``games`` (of
    :func:`simulate_games`) 10**12.

    >>> frame = simulate(Rules(), ["greedy", "random"], hands=100, seed=2, workers=1)
    >>> frame.equals(simulate(Rules(), ["greedy", "random"], hands=100, seed=2, workers=2, chunk_size=7))
    True
    """
    return _run(HANDS, rules, players, hands, seed,
                RunOptions.of(options, **run_options))



def games_frame(columns: Mapping[str, np.ndarray]) -> pd.DataFrame:
    """The per-game DataFrame of the native ``play_games`` columns."""
    return pd.DataFrame({name: columns[name] for name in GAME_COLUMNS})


def _play_game_chunk(first: int, count: int, engine: RummyEngine, key: tuple[int, int],
                     target: int) -> pd.DataFrame:
    return games_frame(joined_columns(in_slices(
        lambda start, size: engine.play_games(key[0], key[1], start, size, target), first, count)))


def simulate_games(
    rules: Rules,
    players: Sequence[str] | str,
    games: int,
    seed: int,
    *,
    options: RunOptions | None = None,
    **run_options: Unpack[RunFields],
) -> pd.DataFrame:
    """Play ``games`` games to ``rules.target``; one row per game.

    Columns: ``game``, ``players``, ``winner`` (the first to reach the target), ``hands`` (played,
    drawn ones included), ``drawn_hands``, ``rummies``, ``first_dealer`` (drawn at random), ``total_0..5``
    and ``hands_won_0..5`` (-1 for absent seats). The deal passes to the left after every hand; with
    two players the winner deals, and after a drawn hand the same dealer deals again. The run options
    are those of :func:`simulate`.

    >>> table = simulate_games(Rules(target=50), "greedy,greedy,greedy", games=20, seed=1, workers=1)
    >>> len(table), bool((table[["total_0", "total_1", "total_2"]].max(axis=1) >= 50).all())
    (20, True)
    """
    return _run(GAMES, rules, players, games, seed,
                RunOptions.of(options, **run_options))
