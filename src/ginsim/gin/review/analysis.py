"""The analysis of a recorded game: every decision of a player valued against the other legal options.

**Method.** At each decision of the analysed player, every legal option (take or refuse the face-up
card, draw from the stock or the pile, each discard, knocking with it or not, big gin) is valued by
determinised play-outs: the cards the player has not seen are dealt again from what that player has
seen and nothing else (``GameState.determinize``: the opponent's unknown cards drawn from the
opponent model, the hand kept among many such deals for a deadwood as low as a real opponent's by
then), the option is made, and the hand is played to its end by the play-out ``policy`` in both
seats. Every option is played on the same ``deals`` deals with the same randomness (common random
numbers), so the loss of a choice gets a *paired* interval, from the per-deal differences between
the best option and the one chosen.

**The play-out policy** is ``marjj``, the strongest built-in strategy that needs no search of its own:
``search`` is stronger, but plays 64 play-outs of its own at each of its decisions, five to ten times
the cost of a ``marjj`` play-out even at 16 (``benchmarks/analysis_validation.py`` measures what the
analysis costs). Near the end of a hand, with ``ENDGAME_STOCK`` cards or fewer in the stock, the
play-outs are ``search:16``'s (``endgame``), cheap there: ``marjj`` knocks with any legal deadwood in
its last two draws, so a ``marjj`` opponent would be undercut at will and waiting would look better
than it is. Values are the signed points of the hand for the player, or, given ``equity`` (a function
of the scores after the hand: a match equity table's lookup), the chance to win the game.

**How many deals.** One estimator serves ``ginsim play --hints`` and the analysis, so that both give
the same verdict on the same decision and seed (:func:`decide`). Every option of a decision is played
on ``deals`` deals; while the best option's margin over the next best is not resolved (its paired 95%
interval holds 0 and reaches further than ``CLOSE`` from it), the two leading options are played again
on as many new deals, then twice as many, up to ``GROWTH`` times ``deals``. A margin still not resolved
then is a *close call*.

**Losses and marks.** The loss of a choice is the best option's mean less the choice's, on the same
deals, with the paired 95% interval of the per-deal differences (common deals make it narrow). A
choice whose loss is real (its interval above 0) is marked ``?!`` (dubious) from ``MARKS[0]``, ``?`` (a
mistake) from ``MARKS[1]`` and ``??`` (a blunder) from ``MARKS[2]`` points (``EQUITY_MARKS`` in chances
to win the game). A decision with one legal option is trivial and is not listed.

**Error rate, rating, luck.** The error rate is the mean loss per listed decision; the performance
rating is the error rate in hundredths of a point (in a match: thousandths of a game), lower is better,
as backgammon's PR is. Luck is what the cards brought: at the deal, the value of the hand dealt against
an average deal of the same role (``ROLE_HANDS`` hands of the policy against itself; in a match, the
equity before the hand), and at each draw from the stock the value after seeing the card against the
value of drawing (both by play-outs from the player's information).

>>> from ginsim import Rules, play_hand
>>> from ginsim.gin.review.replay import GameRecord
>>> record = GameRecord.of_hand(play_hand(Rules(), "random,greedy", seed=2, index=0))
>>> table = analyze(record, player=0, deals=16)
>>> list(table.columns[:7])
['hand', 'step', 'player', 'kind', 'choice', 'best', 'loss']
>>> bool((table["loss"] >= 0).all()), set(table["mark"]) <= {"", "?!", "?", "??"}
(True, True)
"""
from __future__ import annotations

import dataclasses
import functools
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Unpack

import numpy as np
import pandas as pd
from tqdm import tqdm

from gincore import deadwood
from gincore.errors import InputError
from ginsim.core.checks import check_seed, integer
from ginsim.core.execution import RunFields, RunOptions, on_threads, run_threads
from ginsim.core.intervals import normal_interval
from ginsim.core.streams import derive
from ginsim.gin.game.actions import REFUSE, Action
from ginsim.gin.game.hand import play_hand
from ginsim.gin.game.native import NativeState, run_key
from ginsim.gin.game.players import engine, native_spec, player_name
from ginsim.gin.game.rules import Rules
from ginsim.gin.game.state import GameState, Phase
from ginsim.gin.review.notation import choice_action
from ginsim.gin.review.replay import KINDS, GameRecord, HandRecord, Position, apply_recorded, choice_in
from ginsim.gin.studies.equity import MatchEquity, chance, equity_after_hand

__all__ = ["CLOSE", "DEFAULT_DEALS", "ENDGAME", "ENDGAME_STOCK", "EQUITY_MARKS", "GROWTH", "MARKS", "POLICY",
           "NO_ACTION", "ROLE_HANDS", "MatchEquity", "OptionValue", "Verdict", "analyze", "decide", "evaluate_options",
           "mark_of", "summarize_analysis"]

NO_ACTION: Final = -1
"""The ``action`` of an analysis row whose choice is not made (a position written without one)."""
DEFAULT_DEALS: Final = 64
"""Deals per decision unless told otherwise."""
POLICY: Final = "marjj"
"""The strategy of the play-outs unless told otherwise."""
ENDGAME: Final = "search:16"
"""The strategy of the play-outs of decisions taken with ``ENDGAME_STOCK`` cards or fewer in the stock."""
ENDGAME_STOCK: Final = 8
MARKS: Final = (1.0, 3.0, 8.0)
"""Losses in points from which a real loss is marked ``?!``, ``?`` and ``??``."""
EQUITY_MARKS: Final = (0.01, 0.03, 0.08)
"""The same thresholds in chances to win the game, when decisions are valued by match equity."""
SYMBOLS: Final = ("?!", "?", "??")
GROWTH: Final = 4
"""A decision whose best option's margin is not resolved on ``deals`` deals is played on more, up to
this many times ``deals``."""
CLOSE: Final = (0.5, 0.005)
"""A margin whose 95% interval holds 0 but lies within this much of it (in points, in chances to win
the game) is a close call at once: more deals would not tell the options apart."""
ROLE_HANDS: Final = 2000
"""Hands of the policy against itself that measure what a deal is worth to the dealer, on average."""
PROFILE_HANDS: Final = 300
"""Hands of the policy against itself whose opponent deadwood, by the draws made, guides the deals."""
PROFILE_BUCKETS: Final = 17
CANDIDATES: Final = 1024
"""Deals drawn by the opponent model, of which the one nearest the profile is played."""
_DECISION: Final = None
"""In a job's options, the policy's own play (no option imposed): what a position is worth."""
_CHOICES, _AT_THE_DEAL, _BEFORE_THE_DRAW = range(3)
"""What a job's play-outs are for: each draws deals of its own."""


@dataclass(frozen=True)
class OptionValue:
    """One option of a decision: its :class:`~ginsim.gin.game.actions.Action`, its choice as a record
    writes it, and its mean value over the deals with the 95% interval."""

    action: Action
    choice: str
    mean: float
    low: float
    high: float


# --- values of options ------------------------------------------------------------------------------

class _Scorer:
    """The value of a finished play-out for a player: signed points, or the chance to win the game."""

    def __init__(self, rules: Rules, me: int, dealer: int, scores: tuple[int, int] | None,
                 equity: MatchEquity | None) -> None:
        self.me = me
        self.values: dict[tuple[int, int], float] = {}
        self.rules, self.dealer, self.scores, self.equity = rules, dealer, scores, equity

    def __call__(self, winner: int, points: int) -> float:
        if self.equity is None:
            return float(points if winner == self.me else -points if winner >= 0 else 0)
        value = self.values.get((winner, points))
        if value is None:
            value = self.values[(winner, points)] = self._equity(winner, points)
        return value

    def _equity(self, winner: int, points: int) -> float:
        assert self.equity is not None and self.scores is not None
        return equity_after_hand(self.rules, self.equity, self.scores, self.me, self.dealer, winner, points)


@dataclass
class _Job:
    """Options of one position to value from one player's information, with the keys of its deals."""

    state: GameState
    me: int
    options: list[int | None]
    keys: np.ndarray
    scorer: _Scorer
    playouts: _Playouts

    def run(self) -> np.ndarray:
        """The values (options x deals)."""
        deals = len(self.keys) // 2
        values = np.empty((len(self.options), deals))
        policy = self.playouts.players(self.state)
        for deal in range(deals):
            world = self.playouts.world(self.state, self.me, int(self.keys[2 * deal]))
            for row, option in enumerate(self.options):
                copy = world.clone()
                if option is not _DECISION:
                    copy.apply(option)
                if not copy.done:
                    NativeState.play_out(copy, policy, int(self.keys[2 * deal + 1]))
                fields = copy.record_fields()
                values[row, deal] = self.scorer(fields["winner"], fields["points"])
        return values


class _Playouts:
    """How a position is played out: deals of what a player has not seen, the opponent's hand as
    strong as the policy's hands are, played by the policy (by the end-game policy near the end).

    :meth:`GameState.determinize` draws the opponent's unknown cards by the opponent model's odds,
    card by card: which cards, not how well they fit together, so that the hands it deals are far
    weaker than a real opponent's as a hand goes on (in ``marjj``'s hands, 39 points of deadwood
    instead of 16 after 12 draws), and every knock looks better than it is. So a deal here is the
    one of ``CANDIDATES`` such deals whose opponent deadwood is closest to a deadwood drawn from the
    profile: the deadwood of the opponent of the player to move, by the draws made before its turn, in
    ``PROFILE_HANDS`` hands of the policy against itself under the same rules. Only the player's
    information and the number of draws choose the deal.
    """

    def __init__(self, rules: Rules, policy: str, endgame: str | None) -> None:
        self.policy = player_name(_native(policy))
        self.profile = _deadwood_profile(rules, self.policy)
        self.specs = [native_spec(self.policy, rules)] * 2
        self.endgame = None if endgame is None else [native_spec(_native(endgame), rules)] * 2

    def players(self, state: GameState) -> list[Any]:
        """The native specs of both seats' play-out strategy from ``state`` on."""
        if self.endgame is not None and len(state.stock) <= ENDGAME_STOCK:
            return self.endgame
        return self.specs

    def world(self, state: GameState, me: int, key: int) -> GameState:
        pool = self.profile[_bucket(state)]
        world: GameState = NativeState.determinize(state, me, key, int(pool[key % len(pool)]), CANDIDATES)
        return world


def _bucket(state: GameState) -> int:
    """The profile's bucket of a position: the draws made before the turn of the player to move, by
    two (a player's own draw leaves the opponent's hand as it was, and so its bucket)."""
    return min((state.turns - (state.phase is Phase.DISCARD)) // 2, PROFILE_BUCKETS - 1)


@functools.lru_cache(maxsize=16)
def _deadwood_profile(rules: Rules, policy: str) -> tuple[np.ndarray, ...]:
    """The deadwood of the player not to move at each decision, by :func:`_bucket` (the last bucket
    holding all later ones), in ``PROFILE_HANDS`` hands of ``policy`` against itself."""
    found: list[list[int]] = [[] for _ in range(PROFILE_BUCKETS)]
    for index in range(PROFILE_HANDS):
        hand = play_hand(rules, (policy, policy), seed=0, index=index)
        state = GameState.deal(rules, seed=0, index=index)
        stocks = iter(hand.reshuffles)  # under reshuffling rules, the hand's own new stocks
        for action in hand.actions:
            found[_bucket(state)].append(deadwood(state.hands[1 - state.player]))
            apply_recorded(state, action, stocks)
    last = [56]
    profile = []
    for bucket in found:  # a bucket no hand reached takes the one before it
        last = bucket or last
        profile.append(np.sort(np.asarray(last, dtype=np.int16)))
    return tuple(profile)


def _keys(seed: int, deals: int, state: GameState, me: int, purpose: int) -> np.ndarray:
    """Two 64-bit keys per deal (the deal, the play-out's choices) from the seed, what ``me`` sees of
    ``state`` (so that the hidden cards cannot change them, and a position gets the same deals in a
    hint and in the analysis of the game) and the ``purpose`` of the play-outs."""
    view = dataclasses.replace(state.view(me), hand_index=0)
    return derive(seed, "analysis_deals", purpose, dataclasses.astuple(view)).generate_state(2 * deals, np.uint64)


def _native(name: object) -> str:
    if not isinstance(name, str):
        raise InputError(f"a play-out policy is a built-in strategy's name, got {name!r}")
    return name


def _run(jobs: Sequence[_Job], workers: int, bar: tqdm[Any] | None = None) -> list[np.ndarray]:
    """Every job's values, each counted on ``bar`` as it ends; the play-outs release the GIL, so threads
    share the cores."""
    def counted(_: np.ndarray) -> None:
        if bar is not None:
            bar.update(1)

    return run_threads(_Job.run, jobs, workers, counted)


def _options(state: GameState) -> list[int | None]:
    return list(state.legal_actions())


@dataclass(frozen=True, eq=False)
class Verdict:
    """The options of a decision valued on common deals, best first, and how sure the best is: the
    best's ``margin`` over the next best with its paired 95% interval (``low``, ``high``) on the
    ``deals`` both were played on, and ``values`` (each option's value on each of its deals, in the
    order of ``options``; the two leading options may have been played on more deals than the rest)."""

    options: tuple[OptionValue, ...]
    margin: float
    low: float
    high: float
    deals: int
    values: tuple[np.ndarray, ...]

    @property
    def close(self) -> bool:
        """True when the best option is a close call (its margin over the next best not resolved)."""
        return len(self.options) > 1 and not self.low > 0

    def difference(self, better: Action | int, worse: Action | int) -> tuple[float, float, float]:
        """The mean of ``better``'s value less ``worse``'s (two options' actions) on the deals both were
        played on, with its paired 95% interval."""
        rows = {option.action: row for row, option in enumerate(self.options)}
        return _paired(self.values[rows[Action(int(better))]], self.values[rows[Action(int(worse))]])


def _paired(first: np.ndarray, second: np.ndarray) -> tuple[float, float, float]:
    """The mean difference of two options on their common deals (the first ones of both), with its
    95% interval."""
    common = min(len(first), len(second))
    return normal_interval(first[:common] - second[:common])


def _verdict(state: GameState, options: Sequence[int | None], rows: Sequence[np.ndarray]) -> Verdict:
    """The verdict on a decision from each option's values (``_DECISION`` rows left out)."""
    actions = {row: option for row, option in enumerate(options) if option is not _DECISION}
    ranked = sorted(actions, key=lambda row: -rows[row].mean())
    found = tuple(OptionValue(Action(actions[row]), choice_in(state, actions[row]), *normal_interval(rows[row]))
                  for row in ranked)
    if len(ranked) < 2:
        return Verdict(found, 0.0, 0.0, 0.0, len(rows[ranked[0]]), (rows[ranked[0]],))
    best, runner = rows[ranked[0]], rows[ranked[1]]
    margin, low, high = _paired(best, runner)
    # on the deals both have, the best may trail an option that has fewer: its lead is then nil
    return Verdict(found, max(margin, 0.0), low, high, min(len(best), len(runner)), tuple(rows[row] for row in ranked))


def _growth(verdict: Verdict, options: Sequence[int | None], deals: int, equity: bool) -> dict[int, range]:
    """The deals the two leading options of a decision are to be played on next (by option row), after
    ``verdict``: none once the margin is resolved, within ``CLOSE`` of 0 or played on ``GROWTH`` times
    ``deals``; else up to twice the deals both have. Only these two decide the best move and its margin,
    so the other options keep their ``deals``."""
    close = CLOSE[1] if equity else CLOSE[0]
    if not verdict.close or verdict.high - verdict.low <= 2 * close or verdict.deals >= GROWTH * deals:
        return {}
    wanted = min(2 * verdict.deals, GROWTH * deals)
    leading = {options.index(option.action.number): len(values)
               for option, values in zip(verdict.options[:2], verdict.values[:2], strict=True)}
    return {row: range(done, wanted) for row, done in leading.items() if done < wanted}


def decide(state: GameState, deals: int = DEFAULT_DEALS, *, policy: str = POLICY, endgame: str | None = ENDGAME,
           seed: int = 0, equity: MatchEquity | None = None, options: RunOptions | None = None,
           **run_options: Unpack[RunFields]) -> Verdict:
    """The verdict on the decision of the player to move in ``state``, from that player's information:
    every legal option valued on the same ``deals`` deals, the two leading ones on up to ``GROWTH``
    times more until the best's margin is resolved (see the module). The analysis of a game reaches
    the same verdict on the same decision and ``seed``.

    >>> from ginsim import Rules
    >>> verdict = decide(GameState.deal(Rules(), seed=4), deals=8)
    >>> sorted(option.choice for option in verdict.options), verdict.deals in (8, 16, 32)
    (['pass', 'take'], True)
    """
    integer("deals", deals, 2, 1 << 16)
    workers = on_threads(RunOptions.of(options, **run_options), "a decision's valuation")
    if state.done:
        raise InputError("the hand is over: there is no decision to value")
    me = state.player
    legal = _options(state)
    scorer = _scorer(state, me, equity)
    playouts = _Playouts(state.rules, policy, endgame)
    keys = _keys(check_seed(seed), GROWTH * deals, state, me, _CHOICES)
    plan = {row: range(deals) for row in range(len(legal))}
    rows = [np.empty(0)] * len(legal)
    while plan:
        jobs = [_Job(state, me, [legal[row]], keys[2 * more.start:2 * more.stop], scorer, playouts)
                for row, more in plan.items()]
        for row, found in zip(plan, _run(jobs, workers), strict=True):
            rows[row] = np.concatenate([rows[row], found[0]])
        plan = _growth(_verdict(state, legal, rows), legal, deals, equity is not None)
    return _verdict(state, legal, rows)


def evaluate_options(state: GameState, deals: int = DEFAULT_DEALS, *, policy: str = POLICY,
                     endgame: str | None = ENDGAME, seed: int = 0, equity: MatchEquity | None = None,
                     options: RunOptions | None = None, **run_options: Unpack[RunFields]) -> list[OptionValue]:
    """Every legal option of the player to move in ``state``, valued from that player's information,
    best first: the options of :func:`decide`'s verdict.

    >>> from ginsim import Rules
    >>> state = GameState.deal(Rules(), seed=4)
    >>> [option.choice for option in evaluate_options(state, deals=8)] in (["take", "pass"], ["pass", "take"])
    True
    """
    return list(decide(state, deals, policy=policy, endgame=endgame, seed=seed, equity=equity,
                       options=RunOptions.of(options, **run_options)).options)


def _scorer(state: GameState, me: int, equity: MatchEquity | None) -> _Scorer:
    scores = state.view(me).scores
    if equity is not None and state.rules.target is None:
        raise InputError("match equity values need a game to a target: the rules have target=None")
    return _Scorer(state.rules, me, state.dealer, scores, equity)


def mark_of(loss: float, low: float, thresholds: Sequence[float] = MARKS) -> str:
    """The mark of a loss whose paired interval starts at ``low``: none unless the loss is real.

    >>> mark_of(9.0, 2.0), mark_of(9.0, -0.5), mark_of(3.5, 0.4), mark_of(0.5, 0.1)
    ('??', '', '?', '')
    """
    if not low > 0:
        return ""
    found = ""
    for symbol, threshold in zip(SYMBOLS, thresholds, strict=True):
        if loss >= threshold:
            found = symbol
    return found


# --- the analysis -------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=16)
def _role_values(rules: Rules, policy: str) -> tuple[float, float]:
    """What a deal is worth on average, in points, to the dealer and to the other player: ``ROLE_HANDS``
    hands of the policy against itself."""
    records = engine(rules, (policy, policy)).play_hands(*run_key(0), 0, ROLE_HANDS)
    dealer, winner, points = (np.asarray(records[name], dtype=np.int64) for name in ("dealer", "winner", "points"))
    signed = np.where(winner == dealer, points, np.where(winner >= 0, -points, 0))
    return float(signed.mean()), float(-signed.mean())


@dataclass
class _Decision:
    """A decision to analyse: where it is, the position, the choice made, and what its job values."""

    hand: int
    step: int
    state: GameState
    choice: int | None
    options: list[int | None]
    job: int
    luck_before: tuple[int, int] | None = None
    """(job, row) of the value before the stock draw that led here (luck), if any."""


def analyze(record: GameRecord | str | os.PathLike[str], player: int | None = None, deals: int = DEFAULT_DEALS, *,
            policy: str = POLICY, endgame: str | None = ENDGAME, equity: MatchEquity | None = None,
            seed: int = 0, options: RunOptions | None = None, **run_options: Unpack[RunFields]) -> pd.DataFrame:
    """Analyse every non-trivial decision of ``player`` (both players by default) in a game record (or
    a record file): a row per decision, in the order played.

    Columns: ``hand``, ``step`` (the decision's place in the hand's decisions), ``player``, ``kind``
    (``offer``, ``draw``, ``discard``), ``choice``, ``best`` (the option of highest mean value),
    ``loss`` (the best's mean less the choice's, 0 when the best was chosen) with ``loss_low`` and
    ``loss_high`` (its paired 95% interval), ``mark``, ``value`` and ``best_value`` (the choice's and
    the best's mean), ``options`` (each option's ``choice``, ``mean``, ``low`` and ``high``, best
    first), ``luck`` (at a discard after a draw from the stock: the value after seeing the card less
    the value of drawing), ``name``, ``turns``, ``margin`` (the best option's lead over the next best,
    as :func:`~ginsim.gin.review.analysis.decide` gives it), ``close`` (whether that lead is not resolved:
    a close call), and the moves as :class:`~ginsim.gin.game.actions.Action` numbers: ``action`` (the
    choice's; :data:`~ginsim.gin.review.analysis.NO_ACTION` when none is made) and ``best_action``; each
    option of ``options`` has its ``action`` too. ``Action(row.action)`` is the move; the columns stay
    plain numbers and text, so that the table writes to CSV or Parquet as it is. Values are points, or
    with ``equity`` chances to win the game (see the module). ``attrs["hands"]`` holds, for each hand
    and analysed player, the value expected at the deal, the deal's luck, the luck of the draws and the
    result; :func:`summarize_analysis` adds them up.

    ``deals`` play-outs value each option; ``seed`` picks the deals; the play-outs release the GIL and run
    on threads of this process, ``workers`` of them (every core by default) as the run options say (as
    keywords or ``options=``; no ``out``, ``chunk_size``, ``repair`` or Dask); ``progress`` shows a bar of
    the positions valued on stderr (by default when stderr is a terminal).
    """
    if not isinstance(record, GameRecord):
        record = GameRecord.load(record)
    players = (0, 1) if player is None else (integer("player", player, 0, 1),)
    integer("deals", deals, 2, 1 << 16)
    seed = check_seed(seed)
    run = RunOptions.of(options, **run_options)
    workers = on_threads(run, "the analysis")
    plan = _Plan(record, players, deals, _Playouts(record.rules, policy, endgame), equity, seed)
    show = sys.stderr.isatty() if run.progress is None else bool(run.progress)
    with tqdm(total=len(plan.jobs), unit=" positions", disable=not show, dynamic_ncols=True) as bar:
        values = _run(plan.jobs, workers, bar)
        while more := plan.extend(values):  # the close calls, played again on more deals
            bar.total = (bar.total or 0) + len(more)
            bar.refresh()
            values += _run(more, workers, bar)
    frame = plan.frame(values)
    frame.attrs["hands"] = plan.hand_rows(values)
    frame.attrs["equity"] = equity is not None
    return frame


class _Plan:
    """The jobs of an analysis, and how their values become its rows."""

    def __init__(self, record: GameRecord, players: tuple[int, ...], deals: int, playouts: _Playouts,
                 equity: MatchEquity | None, seed: int) -> None:
        self.record, self.players, self.deals, self.seed, self.equity = record, players, deals, seed, equity
        self.playouts = playouts
        self.jobs: list[_Job] = []
        self.decisions: list[_Decision] = []
        self.hands: list[dict[str, Any]] = []
        self.extensions: dict[int, list[tuple[int, list[int]]]] = {}
        """By a decision's job: the jobs that play some of its options (by row) on the deals that follow."""
        if record.position is not None:
            self._position(record.position)
        for hand in record.hands:
            self._hand(hand)

    def _job(self, state: GameState, me: int, options: list[int | None], purpose: int = 0) -> int:
        self.jobs.append(_Job(state, me, options, _keys(self.seed, self.deals, state, me, purpose),
                              _scorer(state, me, self.equity), self.playouts))
        return len(self.jobs) - 1

    def _position(self, position: Position) -> None:
        state = position.state(self.record.rules)
        if position.player not in self.players:
            return
        options = _options(state)
        chosen = None if position.choice is None else choice_action(KINDS[state.phase], position.choice)
        if chosen is not None and chosen not in options:
            raise InputError(f"position.choice: {position.choice!r} is not a legal choice here")
        self.decisions.append(_Decision(0, 0, state, chosen, options, self._job(state, position.player, options)))

    def _hand(self, hand: HandRecord) -> None:
        rules = self.record.rules
        start = hand.start(rules)
        expected = {me: (self._job(start, me, [_DECISION], _AT_THE_DEAL), 0) for me in self.players}
        draws: dict[int, tuple[int, int]] = {}
        steps = list(hand.replay(rules))
        for step, (state, decision) in enumerate(steps):
            me = state.player
            options = _options(state)
            auto = (state.phase is Phase.OFFER and me == state.dealer and decision.action == REFUSE
                    and 1 - me in self.players)
            if auto:  # both passed: the non-dealer draws from the stock at once
                draws[1 - me] = (self._job(state, 1 - me, [REFUSE], _BEFORE_THE_DRAW), 0)
            if me not in self.players or len(options) < 2:
                continue
            luck = draws.pop(me, None) if state.phase is Phase.DISCARD and not state.view(me).drawn_from_pile \
                else None
            if state.phase is Phase.DISCARD and luck is not None:
                options = [*options, _DECISION]
            job = self._job(state, me, options)
            self.decisions.append(_Decision(hand.hand, step, state, decision.action, options, job, luck))
            if state.phase is Phase.DRAW and decision.action == REFUSE:
                draws[me] = (job, options.index(REFUSE))
        final = hand.final(rules)
        for me in self.players:
            self.hands.append({"hand": hand.hand, "player": me, "start": start, "expected": expected[me],
                               "final": final})

    def _rows(self, job: int, values: list[np.ndarray]) -> list[np.ndarray]:
        """A job's values by option, each followed by those of its extensions."""
        rows = list(values[job])
        for extra, played in self.extensions.get(job, []):
            for row, found in zip(played, values[extra], strict=True):
                rows[row] = np.concatenate([rows[row], found])
        return rows

    def extend(self, values: list[np.ndarray]) -> list[_Job]:
        """Jobs that play the two leading options of every decision whose best option's margin is not
        yet resolved on more deals, as :func:`decide` does (none once every decision is settled)."""
        jobs: list[_Job] = []
        for decision in self.decisions:
            state, me = decision.state, decision.state.player
            verdict = _verdict(state, decision.options, self._rows(decision.job, values))
            growth = _growth(verdict, decision.options, self.deals, self.equity is not None)
            for more in dict.fromkeys(growth.values()):  # the rows to play on the same deals share their deals
                rows = [row for row, deals in growth.items() if deals == more]
                keys = _keys(self.seed, GROWTH * self.deals, state, me, _CHOICES)[2 * more.start:2 * more.stop]
                self.extensions.setdefault(decision.job, []).append((len(self.jobs), rows))
                self.jobs.append(_Job(state, me, [decision.options[row] for row in rows], keys,
                                      _scorer(state, me, self.equity), self.playouts))
                jobs.append(self.jobs[-1])
        return jobs

    @property
    def thresholds(self) -> tuple[float, float, float]:
        return EQUITY_MARKS if self.equity is not None else MARKS

    def frame(self, values: list[np.ndarray]) -> pd.DataFrame:
        rows = [self._row(decision, values) for decision in self.decisions]
        columns = ["hand", "step", "player", "kind", "choice", "best", "loss", "loss_low", "loss_high", "mark",
                   "value", "best_value", "options", "luck", "name", "turns", "margin", "close", "action",
                   "best_action"]
        return pd.DataFrame(rows, columns=columns)

    def _row(self, decision: _Decision, values: list[np.ndarray]) -> dict[str, Any]:
        state = decision.state
        me = state.player
        rows = self._rows(decision.job, values)
        verdict = _verdict(state, decision.options, rows)
        best = verdict.options[0]
        row: dict[str, Any] = {"hand": decision.hand, "step": decision.step, "player": me,
                               "kind": KINDS[state.phase], "best": best.choice, "best_value": best.mean,
                               "best_action": best.action.number, "name": self.record.players[me],
                               "turns": state.turns, "margin": verdict.margin, "close": verdict.close,
                               "options": [{"action": option.action.number, "choice": option.choice,
                                            "mean": option.mean, "low": option.low, "high": option.high}
                                           for option in verdict.options]}
        if decision.choice is None:
            row.update(action=NO_ACTION, choice="", loss=np.nan, loss_low=np.nan, loss_high=np.nan, mark="",
                       value=np.nan)
        else:
            chosen = Action(decision.choice)
            loss, low, high = (0.0, 0.0, 0.0) if chosen == best.action else verdict.difference(best.action, chosen)
            loss = max(loss, 0.0)  # as the margin: the best trails on the deals both have, a nil loss
            row.update(action=chosen.number, choice=choice_in(state, chosen.number), loss=loss, loss_low=low,
                       loss_high=high,
                       mark=mark_of(loss, low, self.thresholds),
                       value=float(rows[decision.options.index(decision.choice)].mean()))
        luck = np.nan
        if decision.luck_before is not None:
            job, before = decision.luck_before
            luck = float(rows[decision.options.index(_DECISION)].mean() - self._rows(job, values)[before].mean())
        row["luck"] = luck
        return row

    def hand_rows(self, values: list[np.ndarray]) -> list[dict[str, Any]]:
        """Per hand and analysed player: the value expected at the deal, its luck against an average
        deal of the role, the draws' luck (from the decision rows) and the hand's result."""
        rows = []
        roles = _role_values(self.record.rules, self.playouts.policy) if self.equity is None else None
        for item in self.hands:
            me, start, final = item["player"], item["start"], item["final"]
            job, row = item["expected"]
            expected = float(values[job][row].mean())
            scorer = _scorer(start, me, self.equity)
            if roles is not None:
                average = roles[0] if start.dealer == me else roles[1]
            else:
                assert self.equity is not None
                scores = start.view(me).scores
                average = chance(self.equity, scores[me], scores[1 - me], start.dealer == me)
            result = final.result
            outcome = np.nan if result is None else scorer(result.winner, result.points)
            rows.append({"hand": item["hand"], "player": me, "expected": expected, "deal_luck": expected - average,
                         "result": float(outcome)})
        return rows


def summarize_analysis(analysis: pd.DataFrame) -> pd.DataFrame:
    """Per hand and player, then per player over the game (``hand`` is ``"game"``): the non-trivial
    ``decisions``, the marks (``dubious``, ``mistakes``, ``blunders``), ``error_rate`` (mean loss per
    decision), ``rating`` (the performance rating), the value ``expected`` at the deal, the ``result``,
    and ``luck`` (the deal's and the draws').

    >>> from ginsim import Rules, play_hand
    >>> record = GameRecord.of_hand(play_hand(Rules(), "random,greedy", seed=2, index=0))
    >>> summary = summarize_analysis(analyze(record, deals=8))
    >>> summary["hand"].tolist()[-2:], list(summary.columns[:4])
    (['game', 'game'], ['hand', 'player', 'decisions', 'dubious'])
    """
    if not isinstance(analysis, pd.DataFrame) or "hands" not in analysis.attrs:
        raise InputError("summarize_analysis takes the table analyze() returns")
    scale = 1000 if analysis.attrs.get("equity") else 100
    hands: list[dict[str, Any]] = analysis.attrs["hands"]
    rows = []
    for item in hands:
        mine = analysis[(analysis["hand"] == item["hand"]) & (analysis["player"] == item["player"])]
        rows.append({"hand": item["hand"], "player": item["player"], **_errors(mine, scale),
                     "expected": item["expected"], "result": item["result"],
                     "luck": item["deal_luck"] + float(mine["luck"].sum())})
    for seat in sorted({item["player"] for item in hands}):
        mine = analysis[analysis["player"] == seat]
        theirs = [row for row in rows if row["player"] == seat]
        rows.append({"hand": "game", "player": seat, **_errors(mine, scale),
                     **{name: sum(row[name] for row in theirs) for name in ("expected", "result", "luck")}})
    return pd.DataFrame(rows)


def _errors(decisions: pd.DataFrame, scale: float) -> dict[str, Any]:
    made = decisions.dropna(subset=["loss"])
    rate = float(made["loss"].mean()) if len(made) else np.nan
    return {"decisions": len(made), "dubious": int((made["mark"] == "?!").sum()),
            "mistakes": int((made["mark"] == "?").sum()), "blunders": int((made["mark"] == "??").sum()),
            "error_rate": rate, "rating": rate * scale}
