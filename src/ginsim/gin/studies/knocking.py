"""When to knock: knocking now against playing on, valued by play-outs from real positions.

A study takes the positions in which a player may knock from real hands (``hands`` hands of
``players`` with ``seed``: every discard with a legal knock), and values each from the mover's seat
as the mover knows it: the unseen cards are dealt again ``deals`` times (:meth:`~ginsim.GameState.determinize`),
and on each deal the mover both knocks now (with the discard that leaves the least deadwood) and plays
on (discards that card face up, then ``continuation`` plays the mover's seat and ``opponent`` the other
to the end of the hand). Both branches start from the same deal, so their difference is paired; a
position's value is the mean over its deals of the mover's points (won positive, lost negative).

Each position is valued in match equity too: every play-out's result is read as the mover's chance to
win the game after the hand (:func:`~ginsim.gin.studies.equity.equity_after_hand`) at the match ``scores``
(the mover's, then the opponent's; 0-0 by default), by a match equity table of the rules (the one
shipped for them, else one of ``EQUITY_HANDS`` hands of ``simple`` against itself, or one given).

:func:`knock_values` gives a row per position, :func:`knock_study` the table: the mean gain of
knocking now over playing on, in points per hand and in chances to win the game, each with its 95%
interval over the positions clustered by hand, by turn bin (the draw, as ``--by turn`` bins it), the mover's deadwood
and the hand's knock limit. The policy it implies (:func:`implied_thresholds`) is to knock iff
deadwood <= t(turn, knock limit), t the threshold that gains most in the study's positions (in points,
or in equity); :func:`threshold_table` gives each threshold with a 95% interval and its agreement
from a bootstrap over the hands the positions came from. :class:`KnockRule` plays a policy (or
knocking at once, or ``marjj``'s rule) with one discard rule, so that :func:`compare_rules` measures
the knock rule alone.

>>> from ginsim import Rules
>>> study = knock_study(Rules(), "simple,simple", hands=20, seed=1, deals=2, opponent="simple")
>>> list(study.columns[:6])
['turn', 'deadwood', 'knock_limit', 'positions', 'gain', 'gain_low']
>>> bool(((study["equity_gain"] > 0) == (study["gain"] > 0)).mean() > 0.5)   # at 0-0 a point is a point
True
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

import numpy as np
import pandas as pd

from gincore import deadwood
from gincore.errors import InputError
from ginsim.core.checks import check_seed, count, integer
from ginsim.core.execution import RunOptions
from ginsim.core.intervals import cluster_mean_interval, mean_interval
from ginsim.core.streams import derived_seed
from ginsim.gin.game.actions import DISCARD, KNOCK, Action, MoveKind
from ginsim.gin.game.hand import play_hand
from ginsim.gin.game.players import PlayerSpec, player_name, resolve_players
from ginsim.gin.game.rules import Rules, check_rules
from ginsim.gin.game.specs import SPECS
from ginsim.gin.game.state import GameState, Phase
from ginsim.gin.game.strategies import Strategy, View
from ginsim.gin.studies.equity import equity_after_hand, equity_arrays, equity_lookup, equity_table, shipped_equity
from ginsim.gin.studies.groups import TURN_BINS, turn_bins
from ginsim.gin.studies.simulate import simulate

__all__ = ["EQUITY_HANDS", "MARJJ_EARLY", "MARJJ_LAST", "MOST_DEALS", "REPLICATES", "KnockPosition", "KnockRule",
           "compare_rules", "implied_thresholds", "knock_positions", "knock_study", "knock_values", "play_outs",
           "study_equity", "study_table", "threshold_table", "value_position"]

MOST_DEALS: Final = 10_000
"""The most deals of the unseen cards a position is valued on."""
EQUITY_HANDS: Final = 1_000_000
"""Hands of ``simple`` against itself behind the match equity table of rules for which none ships."""
REPLICATES: Final = 1_000
"""Bootstrap replicates behind the thresholds' intervals."""
MARJJ_EARLY: Final = cast(int, SPECS["marjj"].parameters[0].default)
"""``marjj``'s knock rule, as its spec declares it: any legal knock within its first ``early`` draws ..."""
MARJJ_LAST: Final = 2
"""... or within the last two draws before a drawn hand (``MARJJ_LAST_DRAWS`` of the native ``marjj.pxi``)."""
VALUES: Final = ("gain", "equity_gain")
"""The values a policy may be implied from, the gain in points or in chances to win the game."""


@dataclass(frozen=True)
class KnockPosition:
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
    options = [move.card for move in map(Action, state.legal_actions()) if move.kind is MoveKind.DISCARD]
    card = min(options, key=lambda card: (deadwood(hand & ~(1 << card)), -card))
    return card, deadwood(hand & ~(1 << card))


def knock_positions(rules: Rules, players: Sequence[PlayerSpec] | str, hands: int, seed: int) -> list[KnockPosition]:
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
                    found.append(KnockPosition(index, step, state.player, state.turns, state.knock_limit, left,
                                          state.clone()))
            state.apply(action)
            reshuffled = [tuple(stock) for stock in state.reshuffled_stocks()]
            if reshuffled != [tuple(stock) for stock in played.reshuffles[:len(reshuffled)]]:
                break  # GameState reshuffles from a stream of its own: past it the replay is another hand
    return found


def play_outs(position: KnockPosition, continuation: PlayerSpec, opponent: PlayerSpec, deals: int,
              seed: int) -> np.ndarray:
    """The results of ``deals`` deals of the unseen cards from ``position``, an int array (deals, 2, 2):
    ``[deal][knocking now, playing on][winner seat (-1: drawn), points]`` (the play-outs draw from
    streams of ``seed`` and the position)."""
    results = np.empty((deals, 2, 2), np.int64)
    card, _ = _best_discard(position.state)
    seats = (continuation, opponent) if position.player == 0 else (opponent, continuation)
    for deal in range(deals):
        labels = (position.hand, position.step, deal)
        guess = position.state.determinize(position.player, seed=derived_seed(seed, "knock_deals", *labels))
        now = guess.clone()
        now.apply(KNOCK + card)
        guess.apply(DISCARD + card)
        if not guess.done:
            guess.play_out(seats, seed=derived_seed(seed, "knock_deals", *labels, "play on"))
        for branch, finished in enumerate((now, guess)):
            assert finished.result is not None
            results[deal, branch] = finished.result.winner, finished.result.points
    return results


def _signed(results: np.ndarray, player: int) -> np.ndarray:
    """The player's points in results (..., 2) of [winner, points]: won positive, lost negative."""
    winner, points = results[..., 0], results[..., 1]
    return np.where(winner == player, points, np.where(winner >= 0, -points, 0))


def value_position(position: KnockPosition, continuation: PlayerSpec, opponent: PlayerSpec, deals: int,
                   seed: int) -> tuple[float, float]:
    """The mover's mean points from ``position`` over ``deals`` deals of the unseen cards: knocking now,
    and playing on (the same deals: :func:`play_outs`)."""
    signed = _signed(play_outs(position, continuation, opponent, deals, seed), position.player)
    return float(signed[:, 0].mean()), float(signed[:, 1].mean())


def study_equity(rules: Rules, seed: int = 0, equity: pd.DataFrame | None = None) -> pd.DataFrame:
    """The match equity table a study of ``rules`` values its results by: ``equity`` when given (checked
    to be a whole table of games to the rules' target), else the one shipped for the rules, else one
    made of ``EQUITY_HANDS`` hands of ``simple`` against itself with ``seed``.

    >>> from ginsim import Rules
    >>> study_equity(Rules()).attrs["hands"]
    100000000
    >>> study_equity(Rules(target=None))
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: match equity needs a game to a target: the rules have target=None
    """
    if rules.target is None:
        raise InputError("match equity needs a game to a target: the rules have target=None")
    if equity is None:
        made = shipped_equity(rules)
        return made if made is not None else equity_table(rules, hands=EQUITY_HANDS, seed=seed, replicates=2,
                                                          progress=False)
    if not isinstance(equity, pd.DataFrame):
        raise InputError(f"equity must be a match equity table (a DataFrame), got {type(equity).__name__}")
    target, _ = equity_arrays(equity)
    if target != rules.target:
        raise InputError(f"the match equity table is of games to {target}, the rules play to {rules.target}")
    return equity


def _scores(rules: Rules, scores: tuple[int, int]) -> tuple[int, int]:
    if not isinstance(scores, Sequence) or isinstance(scores, str) or len(scores) != 2:
        raise InputError(f"scores are two numbers, the mover's and the opponent's, got {scores!r}")
    assert rules.target is not None
    return (integer("the mover's score", scores[0], 0, rules.target - 1),
            integer("the opponent's score", scores[1], 0, rules.target - 1))


def knock_values(rules: Rules, players: Sequence[PlayerSpec] | str = "simple,simple", hands: int = 1000,
                 seed: int = 0, *, deals: int = 16, continuation: PlayerSpec = "marjj",
                 opponent: PlayerSpec = "simple", positions: Sequence[KnockPosition] | None = None,
                 scores: tuple[int, int] | None = None, equity: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every position valued (see the module): one row per position with its ``hand``, ``step``,
    ``player``, ``turns``, ``turn`` (bin), ``deadwood`` and ``knock_limit``; ``knock``, ``play_on`` and
    ``gain`` (mean points over the deals), and ``knock_equity``, ``play_on_equity`` and ``equity_gain``
    (mean chances to win the game at ``scores``, by :func:`study_equity`'s table; NaN under rules
    without a target, where ``scores`` and ``equity`` are refused). ``attrs["equity"]`` names the table.
    """
    check_rules(rules)
    seed = check_seed(seed)
    deals = count("deals", deals, MOST_DEALS)
    for role, spec in zip(("continuation", "opponent"), resolve_players([continuation, opponent]), strict=True):
        if spec.python:
            raise InputError(f"the {role} plays the positions out natively: give a built-in strategy, not "
                             f"{player_name(spec)}")
    lookup = None
    if rules.target is not None or scores is not None or equity is not None:
        table = study_equity(rules, seed, equity)
        lookup, at = equity_lookup(table), _scores(rules, (0, 0) if scores is None else scores)
    found = knock_positions(rules, players, hands, seed) if positions is None else list(positions)
    if not found:
        raise InputError(f"no position of the {hands:,} hands let a player knock: take more hands")
    rows = []
    for position in found:
        results = play_outs(position, continuation, opponent, deals, seed)
        signed = _signed(results, position.player).mean(axis=0)
        row = {"hand": position.hand, "step": position.step, "player": position.player, "turns": position.turns,
               "deadwood": position.deadwood, "knock_limit": position.knock_limit, "knock": float(signed[0]),
               "play_on": float(signed[1]), "knock_equity": np.nan, "play_on_equity": np.nan}
        if lookup is not None:  # each (winner, points) of the deals read once as a chance to win the game
            seated = at if position.player == 0 else at[::-1]
            outcomes = [(winner, points) for winner, points in results.reshape(-1, 2).tolist()]
            worth = {outcome: equity_after_hand(rules, lookup, seated, position.player, position.state.dealer,
                                                *outcome) for outcome in set(outcomes)}
            chances = np.array([worth[outcome] for outcome in outcomes]).reshape(deals, 2).mean(axis=0)
            row["knock_equity"], row["play_on_equity"] = float(chances[0]), float(chances[1])
        rows.append(row)
    frame = pd.DataFrame(rows)
    frame["turn"] = pd.Categorical(turn_bins(frame["turns"].to_numpy()), categories=list(TURN_BINS), ordered=True)
    frame["gain"] = frame["knock"] - frame["play_on"]
    frame["equity_gain"] = frame["knock_equity"] - frame["play_on_equity"]
    frame = frame[["hand", "step", "player", "turns", "turn", "deadwood", "knock_limit", "knock", "play_on", "gain",
                   "knock_equity", "play_on_equity", "equity_gain"]]
    frame.attrs["equity"] = None if lookup is None else {
        "scores": list(at), "table": table.attrs.get("run", "a table given"), "hands": table.attrs.get("hands")}
    return frame


def study_table(values: pd.DataFrame) -> pd.DataFrame:
    """The study of :func:`knock_values`' rows: one row per (turn bin, deadwood, knock limit) seen, with
    ``positions``, ``gain`` with ``gain_low`` and ``gain_high`` (95% interval of the mean over the
    positions, clustered by hand: :func:`~ginsim.core.intervals.cluster_mean_interval`; NaN where they
    come from a single hand), ``knock`` and ``play_on``, then the same in equity: ``equity_gain`` with its
    interval, ``knock_equity`` and ``play_on_equity``."""
    table = []
    for (turn, left, limit), cell in values.groupby(["turn", "deadwood", "knock_limit"], observed=True, sort=True):
        row: dict[str, Any] = {"turn": turn, "deadwood": left, "knock_limit": limit, "positions": len(cell)}
        for gain, knock, play_on in (("gain", "knock", "play_on"),
                                     ("equity_gain", "knock_equity", "play_on_equity")):
            # The positions of one hand share its cards: the interval is over the hands (clustered).
            known = cell["hand"].nunique() > 1 and cell[gain].notna().all()
            low, high = cluster_mean_interval(cell[gain], cell["hand"]) if known else (np.nan, np.nan)
            row.update({gain: float(cell[gain].mean()), f"{gain}_low": low, f"{gain}_high": high,
                        knock: float(cell[knock].mean()), play_on: float(cell[play_on].mean())})
        table.append(row)
    columns = ["turn", "deadwood", "knock_limit", "positions", "gain", "gain_low", "gain_high", "knock", "play_on",
               "equity_gain", "equity_gain_low", "equity_gain_high", "knock_equity", "play_on_equity"]
    result = pd.DataFrame(table, columns=columns)
    result["turn"] = pd.Categorical(result["turn"], categories=list(TURN_BINS), ordered=True)
    result.attrs = dict(values.attrs)
    return result


def knock_study(rules: Rules, players: Sequence[PlayerSpec] | str = "simple,simple", hands: int = 1000,
                seed: int = 0, *, deals: int = 16, continuation: PlayerSpec = "marjj",
                opponent: PlayerSpec = "simple", positions: Sequence[KnockPosition] | None = None,
                scores: tuple[int, int] | None = None, equity: pd.DataFrame | None = None) -> pd.DataFrame:
    """The gain of knocking now over playing on (see the module): :func:`study_table` of
    :func:`knock_values`, which takes the same arguments."""
    return study_table(knock_values(rules, players, hands, seed, deals=deals, continuation=continuation,
                                    opponent=opponent, positions=positions, scores=scores, equity=equity))


def _value(value: str) -> str:
    if value not in VALUES:
        raise InputError(f"a policy is implied by {' or '.join(VALUES)}, not {value!r}")
    return value


def _best_threshold(deadwood: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """The thresholds (one per row of ``gains``, shape (R, n)) whose policy gains most: the sum of the
    gains of the positions (of deadwood ``deadwood``, shape (n,)) up to each threshold, the largest
    sum's threshold if it is positive, else 0 (gin only). Gin positions (deadwood 0) do not count."""
    levels = np.unique(deadwood[deadwood > 0])
    if not len(levels):
        return np.zeros(len(gains), np.int64)
    by_level = (deadwood[:, None] == levels[None, :]).astype(float)
    gained = np.cumsum(np.nan_to_num(gains) @ by_level, axis=1)
    best = np.argmax(gained, axis=1)
    return np.where(gained[np.arange(len(gains)), best] > 0, levels[best], 0)


def implied_thresholds(study: pd.DataFrame, value: str = "gain") -> dict[tuple[str, int], int]:
    """The knock policy a study implies: for each (turn bin, knock limit) seen, the threshold ``t`` whose
    policy (knock iff deadwood <= t) gains most over playing on in the study's positions, the sum of
    ``positions x gain`` over the deadwoods up to ``t``; 0 (gin only) when no threshold gains.
    ``value="equity_gain"`` implies it from the gains in chances to win the game.

    >>> study = pd.DataFrame({"turn": ["0-4"] * 4, "knock_limit": [10] * 4, "deadwood": [2, 5, 8, 9],
    ...                       "positions": [1, 4, 4, 2], "gain": [-1.0, 3.0, -2.0, 0.5]})
    >>> implied_thresholds(study)
    {('0-4', 10): 5}
    """
    value = _value(value)
    thresholds: dict[tuple[str, int], int] = {}
    for (turn, limit), cell in study.groupby(["turn", "knock_limit"], observed=True, sort=True):
        gains = (cell["positions"].to_numpy() * cell[value].to_numpy())[None, :]
        threshold = _best_threshold(cell["deadwood"].to_numpy(), gains)[0]
        thresholds[(str(turn), int(cast(int, limit)))] = int(threshold)
    return thresholds


def threshold_table(values: pd.DataFrame, value: str = "gain", replicates: int = REPLICATES,
                    seed: int = 0) -> pd.DataFrame:
    """The thresholds :func:`knock_values`' positions imply (as :func:`implied_thresholds` of their
    study), each with how sure it is, from ``replicates`` bootstrap replicates that draw the hands the
    positions came from again (a hand's positions together: they share its cards): ``threshold`` with
    ``threshold_low`` and ``threshold_high`` (the 2.5% and 97.5% points of the replicates' thresholds)
    and ``agreement`` (the share of replicates that find the same threshold), one row per (turn bin,
    knock limit).

    >>> values = pd.DataFrame({"hand": range(40), "turn": ["0-4"] * 40, "knock_limit": [10] * 40,
    ...                        "deadwood": [4, 9] * 20, "gain": [3.0, -1.0] * 20})
    >>> threshold_table(values, replicates=200).values.tolist()
    [['0-4', 10, 4, 4, 4, 1.0]]
    """
    value = _value(value)
    count("replicates", replicates, 10**6)
    if values.empty:
        raise InputError("no positions to find thresholds in")
    hands, index = np.unique(values["hand"].to_numpy(), return_inverse=True)
    rng = np.random.default_rng(derived_seed(check_seed(seed), "knock_thresholds", value))
    weights = rng.multinomial(len(hands), np.full(len(hands), 1 / len(hands)), size=replicates)
    rows = []
    for (turn, limit), cell in values.groupby(["turn", "knock_limit"], observed=True, sort=True):
        deadwood, gains = cell["deadwood"].to_numpy(), cell[value].to_numpy(float)
        drawn = weights[:, index[values.index.get_indexer(cell.index)]] * gains[None, :]
        threshold = int(_best_threshold(deadwood, gains[None, :])[0])
        found = _best_threshold(deadwood, drawn)
        low, high = np.percentile(found, [2.5, 97.5], method="inverted_cdf")
        rows.append({"turn": str(turn), "knock_limit": int(cast(int, limit)), "threshold": threshold,
                     "threshold_low": int(low), "threshold_high": int(high),
                     "agreement": float(np.mean(found == threshold))})
    return pd.DataFrame(rows, columns=["turn", "knock_limit", "threshold", "threshold_low", "threshold_high",
                                       "agreement"])


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
            return (view.turns + 1) // 2 <= MARJJ_EARLY or view.stock_size - self.stock_floor <= MARJJ_LAST
        limit = self.thresholds.get((str(turn_bins([view.turns])[0]), view.knock_limit), view.knock_limit)
        return view.deadwood <= limit


def compare_rules(rules: Rules, thresholds: Mapping[tuple[str, int], int], opponent: PlayerSpec, hands: int,
                  seed: int, *, options: RunOptions | None = None,
                  equity_thresholds: Mapping[tuple[str, int], int] | None = None) -> pd.DataFrame:
    """The implied policy, knocking at once and ``marjj``'s rule (:class:`KnockRule`, one discard rule)
    against ``opponent`` on the same ``hands`` deals, each in both seats: each rule's mean points per
    hand, and its gain over knocking at once with a 95% interval paired by deal. With
    ``equity_thresholds`` (the policy implied in match equity) that policy too, as the rule
    ``equity-thresholds`` after ``thresholds``. ``options``: how the hands are played
    (:class:`~ginsim.core.execution.RunOptions`; by default in this process, without a progress bar, as
    the rules are Python strategies)."""
    run = RunOptions(workers=1, progress=False) if options is None else options
    policies: dict[str, Mapping[tuple[str, int], int] | None] = {"thresholds": dict(thresholds)}
    if equity_thresholds is not None:
        policies["equity-thresholds"] = dict(equity_thresholds)
    policies.update({"at-once": None, "marjj": None})
    rows: dict[str, np.ndarray] = {}
    for rule, policy in policies.items():
        if rule == "equity-thresholds" and policy == policies["thresholds"]:
            rows[rule] = rows["thresholds"]  # the same policy on the same deals plays the same hands
            continue
        player = KnockRule(rule.removeprefix("equity-"), policy, rules.stock_floor)
        seats = []
        for seat in (0, 1):
            pair: list[Any] = [player, opponent] if seat == 0 else [opponent, player]
            records = cast(pd.DataFrame, simulate(rules, pair, hands, seed, options=run))
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
