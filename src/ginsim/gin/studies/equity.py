"""Match equity tables: a player's chance to win a game to the target from every pair of scores below
it, and whoever deals the next hand, with 95% intervals.

**Method.** Seeded hands of the two players are simulated (the hands of
``simulate(rules, players, hands, seed)``), and their outcomes counted by who dealt, who won and how
many points the winner scored (capped at the target: more cannot matter). A dynamic programme then
gives the equity ``E(a, b, d)`` of the first-named player at ``a`` points against ``b``, ``d`` telling
whether that player deals the next hand::

    E(a, b, d) = sum over the decided outcomes (w, k) of P(w, k | d) * E(after the hand)

where a player reaching the target wins (1, or 0 for the opponent), and the next hand is dealt as
``rules.next_dealer`` says — by the hand's loser or winner, or alternately. The programme works down
from the highest scores, a row of ``a`` at a time; within a row each cell depends on the cells to its
right, a triangular system solved once for every row (a hand won for 0 points, possible only with
zero bonuses, changes the dealer and not the score, and is part of that system).

**Dependence between hands.** Each hand is dealt from a stream of its own, so hands depend on each
other only through who deals. The table conditions every hand on its dealer and follows the dealer
rule exactly; what it assumes is that, given the dealer, a hand's outcome does not depend on the
scores or on the hands before it. That holds for every strategy that neither looks at the match
scores nor keeps anything from one hand to the next: all the built-in ones, except ``search``, which
values results by the chance to win the match when it plays one (its hands are measured outside a
match, valued by points, so its table is an approximation).

**Drawn hands.** After a drawn hand the same player deals again (``ginsim.gin.studies.matches``), and a
drawn hand scores nothing, so a run of drawn hands ends, with probability 1, in the first decided
hand of the same dealer: the table uses the outcomes conditioned on a decided hand, which is exact.

**What winning means.** Box, game and shutout bonuses change the margin of a game, not who reaches the
target first: the equity is the chance to win the game. Under Hollywood scoring the match is won by
the totals of three games, bonuses included, which no pair of scores determines (that would take the
three games' scores, every player's hands won in each and the running totals); game 1 of a Hollywood
match gets every hand and is exactly a plain game to the target, so a Hollywood table is the table
of its first game, the table of the same rules without Hollywood.

**Intervals.** The sampling error of the measured outcome counts is carried through the programme
by a parametric bootstrap: the counts are drawn again ``replicates`` times from their multinomial
distribution (each dealer's hands separately; for two copies of one player, the counts by role —
dealer or not — pooled over both seats), each replicate gives a table, and ``low``/``high`` are the
equity ± 1.96 standard deviations of the replicates (clipped to 0..1). With the same player in both
seats the pooled counts make ``E(a, b, d) + E(b, a, not d) = 1`` exactly, replicate by replicate.

Tables of ``simple`` against itself under the ``standard`` and ``oklahoma`` rules to 50, 100 and 250 ship
with the package (:func:`shipped_equity`, :func:`match_value_array`), made by ``tools/make_equity_tables.py``.

>>> from ginsim import Rules
>>> table = equity_table(Rules(), target=30, hands=20_000, seed=1, workers=1)
>>> list(table.columns)
['score', 'opponent_score', 'dealer', 'equity', 'low', 'high']
>>> len(table) == 30 * 30 * 2
True
>>> start = table[(table["score"] == 0) & (table["opponent_score"] == 0)]["equity"]
>>> bool(abs(start.mean() - 0.5) < 1e-9)  # both seats the same player: an even game at 0-0
True
"""
from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final, Unpack

import numpy as np
import pandas as pd

from gincore.errors import InputError
from ginsim.core.checks import check_seed, count, integer, positive
from ginsim.core.execution import RunFields, RunOptions, in_slices, joined_columns, run_chunks
from ginsim.core.intervals import Z95, wilson
from ginsim.core.store import atomic_write
from ginsim.core.streams import LIMITS, stream_key
from ginsim.gin.game.equity_tables import (
    COLUMNS,
    equity_arrays,
    game_rules,
    load_table,
    match_value_array,
    shipped_equity,
    table_frame,
)
from ginsim.gin.game.native import Engine, match_key, run_key
from ginsim.gin.game.players import PlayerSpec, engine, has_python, player_name, resolve_players, shown_name
from ginsim.gin.game.rules import Rules
from ginsim.gin.studies.matches import next_dealer, play_match

__all__ = ["COLUMNS", "DEFAULT_HANDS", "REPLICATES", "SOLVE_BUDGET", "MatchEquity", "chance", "equity_after_hand",
           "equity_arrays", "equity_at", "equity_grid", "equity_lookup", "equity_table", "load_table",
           "match_value_array", "most_replicates", "save_table", "shipped_equity", "simulated_equity"]

DEFAULT_HANDS: Final = 1_000_000
"""Hands simulated for a table unless told otherwise."""
REPLICATES: Final = 400
"""Bootstrap replicates of the hand outcome counts behind the intervals (fewer at targets above 215:
see ``SOLVE_BUDGET``)."""
SOLVE_BUDGET: Final = 4 * 10**9
"""The most replicates × target³ a table's bootstrap may solve (each replicate costs about target³ steps:
at a target of 1,000 some 20 to 50 seconds of one core, so at most 4 replicates there, 32 at 500, 256 at 250,
4,000 at 100)."""
HANDS_PER_CHUNK: Final = 100_000
NEXT_DEALER: Final = {"loser": ((1, 0), (1, 0)), "winner": ((0, 1), (0, 1)), "alternate": ((1, 1), (0, 0))}
"""Who deals after a hand, by the rules' ``next_dealer``: ``[dealer][winner]``, 0 the player, 1 the opponent."""
OUTCOMES: Final = 3
"""The outcome axis of the counts: seat 0 won, seat 1 won, drawn."""
CELLS_PER_BATCH: Final = 1 << 22
"""Bootstrap replicates are solved in batches of about this many numbers of their row matrices."""
MatchEquity = Callable[[int, int, bool | None], float]
"""``equity(score, opponent_score, deals_next)``: the chance to win the game of a player with ``score``
points against ``opponent_score``, who deals the next hand (``None``: not known) — the signature of a
match equity table's lookup (:func:`equity_lookup`)."""


def _count_hands(first: int, count: int, hand_engine: Engine, key: tuple[int, int], target: int) -> np.ndarray:
    """Counts of hands ``first .. first+count-1`` by dealing seat, outcome (seat 0 won, seat 1 won, drawn)
    and points (capped at ``target``): an int64 array of shape (2, 3, target + 1)."""
    columns = joined_columns(in_slices(functools.partial(hand_engine.play_hands, *key), first, count))
    winner = columns["winner"].astype(np.int64)
    outcome = np.where(winner < 0, 2, winner)
    points = np.where(winner < 0, 0, np.minimum(columns["points"].astype(np.int64), target))
    index = (columns["dealer"].astype(np.int64) * OUTCOMES + outcome) * (target + 1) + points
    return np.bincount(index, minlength=2 * OUTCOMES * (target + 1)).reshape(2, OUTCOMES, target + 1)


def _roles(counts: np.ndarray) -> np.ndarray:
    """Counts by seat (..., 2, 3, K) pooled by role: the dealer won, the other player won, drawn (..., 3, K)."""
    return np.stack([counts[..., 0, 0, :] + counts[..., 1, 1, :], counts[..., 0, 1, :] + counts[..., 1, 0, :],
                     counts[..., 0, 2, :] + counts[..., 1, 2, :]], axis=-2)


def _seated(roles: np.ndarray) -> np.ndarray:
    """Counts by role (..., 3, K) as counts by seat (..., 2, 3, K) of two copies of one player."""
    dealer_won, other_won, drawn = roles[..., 0, :], roles[..., 1, :], roles[..., 2, :]
    return np.stack([np.stack([dealer_won, other_won, drawn], axis=-2),
                     np.stack([other_won, dealer_won, drawn], axis=-2)], axis=-3)


def _chances(counts: np.ndarray) -> np.ndarray:
    """Counts (..., 2, 3, K) as the chances of each decided outcome given the dealer (..., 2, 2, K):
    ``[dealer, winner, points]``, seat 0 the player."""
    decided = counts[..., :2, :].astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):  # a replicate without a decided hand: NaN
        chances: np.ndarray = decided / decided.sum(axis=(-2, -1), keepdims=True)
    return chances


def _resample(counts: np.ndarray, pooled: bool, replicates: int, rng: np.random.Generator) -> np.ndarray:
    """``replicates`` multinomial draws of the counts (2, 3, K): (replicates, 2, 3, K)."""
    if pooled:
        roles = _roles(counts)
        total = int(roles.sum())
        drawn = rng.multinomial(total, roles.ravel() / total, size=replicates)
        return _seated(drawn.reshape(replicates, *roles.shape))
    dealt = [rng.multinomial(int(counts[dealer].sum()), counts[dealer].ravel() / counts[dealer].sum(),
                             size=replicates).reshape(replicates, *counts.shape[1:]) for dealer in (0, 1)]
    return np.stack(dealt, axis=1)


def _inverse_series(blocks: np.ndarray) -> np.ndarray:
    """The blocks of the inverse of ``I - U`` for ``U`` upper block-triangular Toeplitz with 2x2 blocks
    ``blocks[:, k]`` on its k-th block diagonal (shape (R, T, 2, 2)); the inverse is of the same form."""
    first = np.linalg.inv(np.eye(2) - blocks[:, 0])
    series = np.empty_like(blocks)
    series[:, 0] = first
    for offset in range(1, blocks.shape[1]):
        later = np.einsum("rkde,rkef->rdf", blocks[:, 1:offset + 1], series[:, offset - 1::-1])
        series[:, offset] = first @ later
    return series


def _solved(chances: np.ndarray, target: int, next_dealer: str) -> Iterator[np.ndarray]:
    """The equity of seat 0 from the chances (R, 2, 2, target + 1) of the decided outcomes: arrays
    (r, 2, target, target) by replicate of a batch of them, whether seat 0 deals next (0) or not
    (1), its score and the opponent's.

    Row ``a`` (seat 0's score) solves ``x = c + U x`` over the cells (b, dealer): ``c`` is what the
    rows above give (seat 0's wins, or the target reached), ``U`` the opponent's wins within the row
    and the wins for 0 points; ``U`` is the same for every row, so its inverse is found once.
    """
    replicates = chances.shape[0]
    follow = np.asarray(NEXT_DEALER[next_dealer])
    mine, theirs = chances[:, :, 0, :], chances[:, :, 1, :]
    blocks = np.zeros((replicates, target, 2, 2))
    for dealer in (0, 1):
        blocks[:, :, dealer, follow[dealer, 1]] += theirs[:, dealer, :target]
        blocks[:, 0, dealer, follow[dealer, 0]] += mine[:, dealer, 0]
    try:
        series = _inverse_series(blocks)
    except np.linalg.LinAlgError:
        raise InputError("every decided hand scored 0 points: no game would ever reach the target") from None
    reaching = np.cumsum(mine[:, :, ::-1], axis=-1)[:, :, ::-1]  # [r, d, j]: seat 0 wins j points or more
    offsets = np.arange(target)[None, :] - np.arange(target)[:, None]
    batch = max(1, CELLS_PER_BATCH // (4 * target * target))
    for start in range(0, replicates, batch):
        part = slice(start, min(start + batch, replicates))
        size = part.stop - part.start
        inverse = series[part][:, np.maximum(offsets, 0)] * (offsets >= 0)[None, :, :, None, None]
        inverse = inverse.transpose(0, 1, 3, 2, 4).reshape(size, 2 * target, 2 * target)
        equity = np.empty((size, 2, target, target))
        for score in range(target - 1, -1, -1):
            known = np.repeat(reaching[part, :, target - score][:, :, None], target, axis=2)
            if score < target - 1:
                above = equity[:, follow[:, 0], score + 1:, :]
                known += np.einsum("rdk,rdkb->rdb", mine[part, :, 1:target - score], above)
            row = inverse @ known.transpose(0, 2, 1).reshape(size, 2 * target, 1)
            equity[:, :, score, :] = row.reshape(size, target, 2).transpose(0, 2, 1)
        yield equity


def _solve(chances: np.ndarray, target: int, next_dealer: str) -> np.ndarray:
    """The equity (R, 2, target, target) of :func:`_solved`'s batches."""
    return np.concatenate(list(_solved(chances, target, next_dealer)))


def _spread(chances: np.ndarray, target: int, next_dealer: str, centre: np.ndarray) -> np.ndarray:
    """The standard deviation (ddof 1) over the replicates of each cell of the equity, a replicate
    that has no value there (no decided hand) left out: a batch of replicates at a time, so that
    memory does not grow with their number (sums of the differences from ``centre``, the point
    estimate, to keep the sums of squares exact)."""
    count = np.zeros(centre.shape)
    total = np.zeros(centre.shape)
    squares = np.zeros(centre.shape)
    for equity in _solved(chances, target, next_dealer):
        valid = ~np.isnan(equity)
        difference = np.where(valid, equity - centre, 0.0)
        count += valid.sum(axis=0)
        total += difference.sum(axis=0)
        squares += (difference * difference).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        variance = (squares - total * total / count) / (count - 1)
    spread: np.ndarray = np.sqrt(np.maximum(variance, 0.0))
    return spread


def _measure(rules: Rules, players: tuple[PlayerSpec, PlayerSpec], hands: int, seed: int,
             run: RunOptions) -> np.ndarray:
    """The hands' outcome counts (2, 3, target + 1) by dealing seat, outcome and points."""
    assert rules.target is not None
    identity = {"kind": "equity_counts", "size": hands, "chunk_size": run.chunk(HANDS_PER_CHUNK)}
    parts = run_chunks(identity, _count_hands, (engine(rules, players), run_key(seed), rules.target),
                       run, "hands", in_process=has_python(players))
    counts: np.ndarray = np.sum(parts, axis=0)
    return counts


def most_replicates(target: int) -> int:
    """The most bootstrap replicates of a table to ``target`` (``SOLVE_BUDGET``), never fewer than 2.

    >>> most_replicates(100), most_replicates(1000)
    (4000, 4)
    """
    return max(2, SOLVE_BUDGET // integer("target", target, 1) ** 3)


def equity_table(rules: Rules, target: int | None = None, players: Sequence[PlayerSpec] | str = "simple,simple",
                 hands: int = DEFAULT_HANDS, seed: int = 0, *, replicates: int | None = None,
                 options: RunOptions | None = None, **run_options: Unpack[RunFields]) -> pd.DataFrame:
    """The match equity table of the first of ``players`` against the second in games to ``target``
    (default: the rules' own) under ``rules``, from ``hands`` simulated hands (see the module).

    One row per score pair below the target and ``dealer`` (whether the first player deals the next
    hand): ``equity``, the chance that the first player wins the game, and its 95% interval ``low`` ..
    ``high`` from ``replicates`` bootstrap replicates. The hands are played as the run options say
    (:func:`~ginsim.simulate`'s, as keywords or ``options=``; every core by default), but for ``out`` and
    ``repair``: the counts are not stored. ``table.attrs`` tell the rules, target, players, hands, seed, replicates, the
    outcome ``counts`` by [dealing seat][seat 0 won, seat 1 won, drawn][points] and the ``run`` in one
    line. Hollywood rules give the table of the first game (see the module).

    >>> from ginsim import Rules
    >>> table = equity_table(Rules(), target=20, players="greedy,simple", hands=10_000, seed=2, workers=1)
    >>> cell = table[(table["score"] == 19) & (table["opponent_score"] == 0)]
    >>> bool((cell["equity"] > 0.5).all() and (cell["low"] <= cell["equity"]).all())
    True
    >>> equity_table(Rules(target=None))
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: a match equity table needs a target: the rules have target=None and no target was given
    """
    game = game_rules(rules, target)
    assert game.target is not None
    names = resolve_players(players)
    total = count("hands", hands, LIMITS["gin_hands"])
    seed = check_seed(seed)
    most = most_replicates(game.target)
    replicates = min(REPLICATES, most) if replicates is None else integer("replicates", replicates, 2, most)
    run = RunOptions.of(options, **run_options)
    if run.out is not None or run.repair:
        raise InputError("an equity table keeps no run directory: it takes no out or repair")
    counts = _measure(game, names, total, seed, run)
    pooled = names[0] == names[1]
    if pooled and counts[:, :2].sum() == 0:
        raise InputError(f"no decided hand among {total:,} simulated: play more hands")
    undecided = [player_name(names[seat]) for seat in (0, 1) if not pooled and counts[seat, :2].sum() == 0]
    if undecided:
        raise InputError(f"no decided hand dealt by {undecided[0]} among {total:,} simulated: play more hands")
    measured = _seated(_roles(counts)) if pooled else counts
    equity = _solve(_chances(measured)[None], game.target, game.next_dealer)[0]
    rng = np.random.default_rng(stream_key(seed, "gin_equity"))
    spread = _spread(_chances(_resample(counts, pooled, replicates, rng)), game.target, game.next_dealer, equity)
    half = Z95 * spread
    table = table_frame(equity, np.clip(equity - half, 0, 1), np.clip(equity + half, 0, 1))
    shown = [player_name(name) for name in names]
    table.attrs = {
        "rules": rules.replace(target=game.target).to_dict(), "target": game.target, "players": shown,
        "hands": total, "seed": seed, "replicates": replicates, "pooled": pooled, "counts": counts.tolist(),
        "run": f"{rules.replace(target=game.target).label()} | {' vs '.join(map(shown_name, shown))} | {total:,} hands "
               f"| seed {seed}",
    }
    if rules.hollywood:
        table.attrs["game"] = "the first of Hollywood's three games"
    return table


def equity_at(table: pd.DataFrame, score: int, opponent_score: int, dealer: bool | None = None) -> float:
    """The equity of a table at any scores: 1 once the player has reached the target, 0 once the
    opponent has; ``dealer=None`` averages over who deals next (each with chance 1/2, as the first
    hand's dealer is drawn).

    >>> table = pd.DataFrame({"score": [0, 0], "opponent_score": [0, 0], "dealer": [False, True],
    ...                       "equity": [0.4, 0.6], "low": [0.3, 0.5], "high": [0.5, 0.7]})
    >>> equity_at(table, 0, 0), equity_at(table, 0, 0, dealer=True), equity_at(table, 1, 0), equity_at(table, 0, 7)
    (0.5, 0.6, 1.0, 0.0)
    """
    target, arrays = equity_arrays(table)
    mine, theirs = integer("score", score, 0), integer("opponent_score", opponent_score, 0)
    if mine >= target and theirs >= target:
        raise InputError(f"only one player can reach the target {target}, got scores {mine} and {theirs}")
    if mine >= target or theirs >= target:
        return 1.0 if mine >= target else 0.0
    if dealer is None:
        return float(arrays["equity"][:, mine, theirs].mean())
    if not isinstance(dealer, (bool, np.bool_)):
        raise InputError(f"dealer must be True, False or None, got {dealer!r}")
    return float(arrays["equity"][0 if dealer else 1, mine, theirs])


def equity_lookup(table: pd.DataFrame) -> MatchEquity:
    """A table's :func:`equity_at` as a function of the scores and who deals next, the table read once
    (for the many lookups of a study).

    >>> table = pd.DataFrame({"score": [0, 0], "opponent_score": [0, 0], "dealer": [False, True],
    ...                       "equity": [0.4, 0.6], "low": [0.3, 0.5], "high": [0.5, 0.7]})
    >>> lookup = equity_lookup(table)
    >>> lookup(0, 0, None), lookup(0, 0, True), lookup(3, 0, False), lookup(0, 1, None)
    (0.5, 0.6, 1.0, 0.0)
    """
    target, arrays = equity_arrays(table)
    values, average = arrays["equity"], arrays["equity"].mean(axis=0)

    def lookup(score: int, opponent_score: int, deals_next: bool | None) -> float:
        if score >= target or opponent_score >= target:
            if score >= target and opponent_score >= target:
                raise InputError(f"only one player can reach the target {target}, got scores {score} and "
                                 f"{opponent_score}")
            return 1.0 if score >= target else 0.0
        if score < 0 or opponent_score < 0:
            raise InputError(f"scores are 0 or more, got {score} and {opponent_score}")
        return float(average[score, opponent_score] if deals_next is None
                     else values[0 if deals_next else 1, score, opponent_score])

    return lookup


def chance(equity: MatchEquity, mine: int, theirs: int, deals_next: bool | None) -> float:
    """``equity(mine, theirs, deals_next)``, checked to be a chance: a number from 0 to 1.

    >>> chance(lambda mine, theirs, deals_next: 2.0, 0, 0, None)
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: equity(0, 0, None) returned 2.0: a chance to win is a number from 0 to 1
    """
    value = equity(mine, theirs, deals_next)
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = float("nan")
    if not 0.0 <= number <= 1.0:
        raise InputError(f"equity({mine}, {theirs}, {deals_next}) returned {value!r}: a chance to win "
                         "is a number from 0 to 1")
    return number


def equity_after_hand(rules: Rules, equity: MatchEquity, scores: tuple[int, int], player: int, dealer: int,
                      winner: int, points: int) -> float:
    """The chance that ``player`` (a seat) wins the game after a hand that ``dealer`` dealt and ``winner``
    won for ``points`` (``winner`` -1: drawn) at ``scores`` (by seat, before the hand): 1 or 0 once a
    score reaches the rules' target, else ``equity`` at the new scores, with the next dealer as the
    rules say (after a drawn hand, the same dealer again).

    >>> from ginsim import Rules
    >>> even = lambda mine, theirs, deals_next: 0.5 + (mine - theirs) / 400
    >>> equity_after_hand(Rules(), even, (90, 0), 1, 0, 0, 12)   # seat 0 reaches 102: seat 1 has lost
    0.0
    >>> equity_after_hand(Rules(), even, (0, 40), 0, 1, 0, 20)
    0.45
    """
    assert rules.target is not None
    after = list(scores)
    if winner >= 0:
        after[winner] += points
    mine, theirs = after[player], after[1 - player]
    if mine >= rules.target or theirs >= rules.target:
        return 1.0 if mine >= rules.target else 0.0
    deals_next = dealer if winner < 0 else next_dealer(rules, dealer, winner)
    return chance(equity, mine, theirs, deals_next == player)


def equity_grid(table: pd.DataFrame, step: int) -> pd.DataFrame:
    """The equity averaged over who deals next at every ``step``-th score: rows the player's score,
    columns the opponent's, for reading a table at a glance.

    >>> table = pd.DataFrame({"score": [0, 0, 0, 0, 1, 1, 1, 1], "opponent_score": [0, 0, 1, 1, 0, 0, 1, 1],
    ...                       "dealer": [False, True] * 4, "equity": [0.4, 0.6, 0.2, 0.3, 0.8, 0.9, 0.5, 0.5],
    ...                       "low": [0.0] * 8, "high": [1.0] * 8})
    >>> equity_grid(table, 1).round(2).values.tolist()
    [[0.5, 0.25], [0.85, 0.5]]
    """
    target, arrays = equity_arrays(table)
    every = integer("step", step, 1, target)
    scores = np.arange(0, target, every)
    values = arrays["equity"].mean(axis=0)[np.ix_(scores, scores)]
    return pd.DataFrame(values, index=pd.Index(scores, name="score"), columns=pd.Index(scores, name="opponent_score"))


def simulated_equity(rules: Rules, score: int, opponent_score: int, dealer: bool | None = None,
                     players: Sequence[PlayerSpec] | str = "simple,simple", matches: int = 1_000, seed: int = 0,
                     target: int | None = None) -> tuple[float, float, float]:
    """The first player's share of ``matches`` games played to the end from these scores (``dealer``:
    whether that player deals the first hand; ``None`` draws it), with its 95% Wilson interval: the
    direct measurement that an equity table's cell estimates. Game ``m`` is match ``m`` of the seed's
    matches (:func:`ginsim.simulate_matches`) started from the scores. Under Hollywood rules the games
    are the first of the three, single games to the target.

    >>> from ginsim import Rules
    >>> share, low, high = simulated_equity(Rules(), 95, 0, dealer=False, players="greedy,simple", matches=200)
    >>> 0.5 < low <= share <= high <= 1
    True
    """
    game = game_rules(rules, target)
    names = resolve_players(players)
    total = positive("matches", matches)
    if dealer is not None and not isinstance(dealer, (bool, np.bool_)):
        raise InputError(f"dealer must be True, False or None, got {dealer!r}")
    first_dealer = None if dealer is None else 0 if dealer else 1
    hand_engine, key = engine(game, names), match_key(check_seed(seed))
    start = (integer("score", score, 0), integer("opponent_score", opponent_score, 0))
    won = sum(play_match(hand_engine, game, key, match, start=start, first_dealer=first_dealer)["winner"] == 0
              for match in range(total))
    low, high = wilson(np.array([won]), np.array([total]))
    return won / total, float(low[0]), float(high[0])


def save_table(table: pd.DataFrame, path: str | os.PathLike[str]) -> Path:
    """Write an equity table compactly (numpy ``.npz``: the three value columns as float32 arrays, the
    outcome counts and the attributes as JSON), atomically; :func:`load_table` reads it back.

    >>> import tempfile
    >>> from ginsim import Rules
    >>> table = equity_table(Rules(), target=10, hands=2_000, seed=1, workers=1, replicates=20)
    >>> path = save_table(table, Path(tempfile.mkdtemp()) / "equity.npz")
    >>> again = load_table(path)
    >>> bool(np.allclose(again["equity"], table["equity"], atol=1e-6)), again.attrs["hands"]
    (True, 2000)
    """
    path = Path(path)
    _, arrays = equity_arrays(table)
    attributes = {name: value for name, value in table.attrs.items() if name != "counts"}
    counts = np.asarray(table.attrs.get("counts", np.zeros((2, OUTCOMES, 0))), np.int64)

    def write(handle: Any) -> None:
        np.savez_compressed(handle, equity=arrays["equity"].astype(np.float32), low=arrays["low"].astype(np.float32),
                            high=arrays["high"].astype(np.float32), counts=counts,
                            attributes=np.array(json.dumps(attributes)))

    atomic_write(path, write)
    return path


