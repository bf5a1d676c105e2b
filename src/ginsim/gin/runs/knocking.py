"""When to knock: knocking now against playing on, valued by play-outs from real positions.

A study takes the positions in which a player may knock from real hands (``hands`` hands of
``players`` with ``seed``: every discard with a legal knock), and values each from the mover's seat
as the mover knows it: the unseen cards are dealt again ``deals`` times (:meth:`~ginsim.GameState.determinize`),
and on each deal the mover both knocks now (with the discard that leaves the least deadwood) and plays
on (discards that card face up, then ``continuation`` plays the mover's seat and ``opponent`` the other
to the end of the hand). Both branches start from the same deal, so their difference is paired; a
position's value is the mean over its deals of the mover's points (won positive, lost negative).

The table (:func:`knock_study`) is the mean gain of knocking now over playing on, in points per hand
with its 95% interval over the positions, by turn bin (the draw, as ``--by turn`` bins it), the
mover's deadwood and the hand's knock limit. The policy it implies (:func:`implied_thresholds`) is to
knock iff deadwood <= t(turn, knock limit), t the threshold that gains most in the study's positions;
:class:`KnockRule` plays it (or knocking at once, or ``marjj``'s rule) with one discard rule, so that
:func:`compare_rules` measures the knock rule alone.

>>> from ginsim import Rules
>>> study = knock_study(Rules(), "simple,simple", hands=20, seed=1, deals=2, opponent="simple")
>>> list(study.columns[:6])
['turn', 'deadwood', 'knock_limit', 'positions', 'gain', 'gain_low']
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

import numpy as np
import pandas as pd

from gincore import deadwood
from gincore.errors import InputError
from ginsim.checks import check_seed, count
from ginsim.gin.game.actions import DISCARD, KNOCK
from ginsim.gin.game.hand import play_hand
from ginsim.gin.game.rules import Rules, check_rules
from ginsim.gin.game.state import GameState, Phase
from ginsim.gin.game.strategies import PlayerSpec, Strategy, View, player_name, resolve_players
from ginsim.gin.runs.groups import TURN_BINS, turn_bins
from ginsim.gin.runs.simulate import simulate
from ginsim.intervals import mean_interval

__all__ = ["KnockRule", "MOST_DEALS", "Position", "compare_rules", "implied_thresholds", "knock_positions",
           "knock_study", "value_position"]

MOST_DEALS: Final = 10_000
"""The most deals of the unseen cards a position is valued on."""


@dataclass(frozen=True)
class Position:
    """A discard at which the mover may knock: hand ``hand`` of the seed, after ``step`` moves."""

    hand: int
    step: int
    player: int
    turns: int
    knock_limit: int
    deadwood: int
    """The least deadwood the mover can knock with (its best discard)."""
    state: GameState


def _best_discard(state: GameState) -> tuple[int, int]:
    """The card whose discard leaves the mover the least deadwood (the highest such card), and that deadwood."""
    hand = state.hands[state.player]
    options = [action - DISCARD for action in state.legal_actions() if DISCARD <= action < DISCARD + 52]
    card = min(options, key=lambda card: (deadwood(hand & ~(1 << card)), -card))
    return card, deadwood(hand & ~(1 << card))


def knock_positions(rules: Rules, players: Sequence[PlayerSpec] | str, hands: int, seed: int) -> list[Position]:
    """Every discard with a legal knock in hands ``0 .. hands - 1`` of ``players`` with ``seed``, in
    order (the hands are replayed move by move on :class:`~ginsim.GameState`; a hand whose stock is
    reshuffled is replayed up to the reshuffle, where the state's new stock is not the hand's)."""
    check_rules(rules)
    names = resolve_players(players)
    found = []
    for index in range(count("hands", hands, 10**7)):
        played = play_hand(rules, names, seed, index)
        state = GameState.deal(rules, seed, index)
        for step, action in enumerate(played.actions):
            if state.phase is Phase.DISCARD and any(KNOCK <= move < KNOCK + 52 for move in state.legal_actions()):
                card, left = _best_discard(state)
                if state.is_legal(KNOCK + card):
                    found.append(Position(index, step, state.player, state.turns, state.knock_limit, left,
                                          state.clone()))
            state.apply(action)
            reshuffled = [tuple(stock) for stock in state.reshuffled_stocks()]
            if reshuffled != [tuple(stock) for stock in played.reshuffles[:len(reshuffled)]]:
                break  # GameState reshuffles from a stream of its own: past it the replay is another hand
    return found


def _stream(seed: int, *labels: object) -> int:
    """A seed for one deal of one position: a stable hash of the study's seed and the labels."""
    return int.from_bytes(hashlib.sha256(json.dumps([seed, *labels]).encode()).digest()[:8], "big") >> 1


def _signed(state: GameState, player: int) -> int:
    result = state.result
    assert result is not None
    return 0 if result.winner < 0 else result.points if result.winner == player else -result.points


def value_position(position: Position, continuation: PlayerSpec, opponent: PlayerSpec, deals: int,
                   seed: int) -> tuple[float, float]:
    """The mover's mean points from ``position`` over ``deals`` deals of the unseen cards: knocking now,
    and playing on (the same deals; the play-outs draw from streams of ``seed`` and the position)."""
    knocked, played_on = [], []
    card, _ = _best_discard(position.state)
    seats = (continuation, opponent) if position.player == 0 else (opponent, continuation)
    for deal in range(deals):
        guess = position.state.determinize(position.player, seed=_stream(seed, position.hand, position.step, deal))
        now = guess.clone()
        now.apply(KNOCK + card)
        knocked.append(_signed(now, position.player))
        guess.apply(DISCARD + card)
        if not guess.done:
            guess.play_out(seats, seed=_stream(seed, position.hand, position.step, deal, "play on"))
        played_on.append(_signed(guess, position.player))
    return float(np.mean(knocked)), float(np.mean(played_on))


def knock_study(rules: Rules, players: Sequence[PlayerSpec] | str = "simple,simple", hands: int = 1000,
                seed: int = 0, *, deals: int = 16, continuation: PlayerSpec = "marjj",
                opponent: PlayerSpec = "simple", positions: Sequence[Position] | None = None) -> pd.DataFrame:
    """The gain of knocking now over playing on (see the module), one row per (turn bin, deadwood, knock
    limit) seen: ``positions``, ``gain`` with ``gain_low`` and ``gain_high`` (95% t-interval over the
    positions; NaN for a single one), ``knock`` and ``play_on`` (the mean points of each branch)."""
    check_rules(rules)
    seed = check_seed(seed)
    deals = count("deals", deals, MOST_DEALS)
    for role, spec in zip(("continuation", "opponent"), resolve_players([continuation, opponent]), strict=True):
        if not isinstance(spec, str):
            raise InputError(f"the {role} plays the positions out natively: give a built-in strategy, not "
                             f"{player_name(spec)}")
    found = knock_positions(rules, players, hands, seed) if positions is None else list(positions)
    if not found:
        raise InputError(f"no position of the {hands:,} hands let a player knock: take more hands")
    rows = []
    for position in found:
        knock, play_on = value_position(position, continuation, opponent, deals, seed)
        rows.append({"turns": position.turns, "deadwood": position.deadwood, "knock_limit": position.knock_limit,
                     "knock": knock, "play_on": play_on})
    frame = pd.DataFrame(rows, columns=["turns", "deadwood", "knock_limit", "knock", "play_on"])
    frame["turn"] = turn_bins(frame["turns"].to_numpy())
    frame["gain"] = frame["knock"] - frame["play_on"]
    table = []
    for (turn, left, limit), cell in frame.groupby(["turn", "deadwood", "knock_limit"], observed=True, sort=True):
        low, high = mean_interval(cell["gain"]) if len(cell) > 1 else (np.nan, np.nan)
        table.append({"turn": turn, "deadwood": left, "knock_limit": limit, "positions": len(cell),
                      "gain": float(cell["gain"].mean()), "gain_low": low, "gain_high": high,
                      "knock": float(cell["knock"].mean()), "play_on": float(cell["play_on"].mean())})
    result = pd.DataFrame(table, columns=["turn", "deadwood", "knock_limit", "positions", "gain", "gain_low",
                                          "gain_high", "knock", "play_on"])
    result["turn"] = pd.Categorical(result["turn"], categories=list(TURN_BINS), ordered=True)
    return result


def implied_thresholds(study: pd.DataFrame) -> dict[tuple[str, int], int]:
    """The knock policy a study implies: for each (turn bin, knock limit) seen, the threshold ``t`` whose
    policy (knock iff deadwood <= t) gains most over playing on in the study's positions, the sum of
    ``positions x gain`` over the deadwoods up to ``t``; 0 (gin only) when no threshold gains.

    >>> study = pd.DataFrame({"turn": ["0-4"] * 4, "knock_limit": [10] * 4, "deadwood": [2, 5, 8, 9],
    ...                       "positions": [1, 4, 4, 2], "gain": [-1.0, 3.0, -2.0, 0.5]})
    >>> implied_thresholds(study)
    {('0-4', 10): 5}
    """
    thresholds: dict[tuple[str, int], int] = {}
    for (turn, limit), cell in study.groupby(["turn", "knock_limit"], observed=True, sort=True):
        ordered = cell[cell["deadwood"] > 0].sort_values("deadwood")
        gained = np.cumsum(ordered["positions"].to_numpy() * ordered["gain"].to_numpy())
        best = int(np.argmax(gained)) if len(gained) else -1
        gains = best >= 0 and gained[best] > 0
        thresholds[(str(turn), int(cast(int, limit)))] = int(ordered["deadwood"].iloc[best]) if gains else 0
    return thresholds


class KnockRule(Strategy):
    """One discard rule (the card that leaves the least deadwood; face-up cards taken as
    :class:`~ginsim.Strategy` does) with a knock rule: ``"thresholds"`` (knock iff deadwood <= t(turn bin,
    knock limit) of ``thresholds``; a cell the study did not see knocks at once), ``"at-once"`` (any
    legal knock) or ``"marjj"`` (``marjj``'s: any legal knock in the player's first five draws or
    the last two before a drawn hand, else only gin).

    >>> KnockRule("at-once").name, KnockRule("thresholds", {("0-4", 10): 3}).name
    ('knock-at-once', 'knock-thresholds')
    """

    def __init__(self, rule: str, thresholds: Mapping[tuple[str, int], int] | None = None,
                 stock_floor: int = 2) -> None:
        if rule not in ("thresholds", "at-once", "marjj"):
            raise InputError(f"unknown knock rule {rule!r}; choose from thresholds, at-once, marjj")
        if (rule == "thresholds") != (thresholds is not None):
            raise InputError("thresholds go with the rule 'thresholds' (and only with it)")
        self.rule, self.thresholds, self.stock_floor = rule, dict(thresholds or {}), stock_floor
        self.name = f"knock-{rule}"

    def discard(self, view: View) -> int:
        return min(view.discard_options(), key=lambda card: (view.deadwood_after(card), -card))

    def knock(self, view: View) -> bool:
        if self.rule == "at-once" or view.deadwood == 0:
            return True
        if self.rule == "marjj":
            return (view.turns + 1) // 2 <= 5 or view.stock_size - self.stock_floor <= 2
        limit = self.thresholds.get((str(turn_bins([view.turns])[0]), view.knock_limit), view.knock_limit)
        return view.deadwood <= limit


def compare_rules(rules: Rules, thresholds: Mapping[tuple[str, int], int], opponent: PlayerSpec, hands: int,
                  seed: int) -> pd.DataFrame:
    """The implied policy, knocking at once and ``marjj``'s rule (:class:`KnockRule`, one discard rule)
    against ``opponent`` on the same ``hands`` deals, each in both seats: each rule's mean points per
    hand, and its gain over knocking at once with a 95% interval paired by deal."""
    rows: dict[str, np.ndarray] = {}
    for rule in ("thresholds", "at-once", "marjj"):
        player = KnockRule(rule, thresholds if rule == "thresholds" else None, rules.stock_floor)
        seats = []
        for seat in (0, 1):
            pair: list[Any] = [player, opponent] if seat == 0 else [opponent, player]
            records = cast(pd.DataFrame, simulate(rules, pair, hands, seed, workers=1, progress=False))
            won = np.where(records["winner"] == seat, 1, np.where(records["winner"] == 1 - seat, -1, 0))
            seats.append(won * records["points"].to_numpy())
        rows[rule] = (seats[0] + seats[1]) / 2  # each deal played once in each seat
    table = []
    for rule, points in rows.items():
        low, high = mean_interval(points)
        gain_low, gain_high = mean_interval(points - rows["at-once"]) if rule != "at-once" else (0.0, 0.0)
        table.append({"rule": rule, "hands": 2 * hands, "points": float(points.mean()), "points_low": low,
                      "points_high": high, "gain": float((points - rows["at-once"]).mean()), "gain_low": gain_low,
                      "gain_high": gain_high})
    return pd.DataFrame(table)
