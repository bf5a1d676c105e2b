"""Hints while playing (``ginsim play --hints``): before each decision, the best option and its margin
over the next best with its 95% interval, or a close call; after each hand, that hand's analysis.

Both come from the estimator of :mod:`ginsim.gin.review.analysis` (:func:`~ginsim.gin.review.analysis.decide`),
from the player's own information only: the position a player's :class:`~ginsim.gin.game.strategies.View`
shows (:meth:`Position.of_view <ginsim.gin.review.replay.Position.of_view>`), its hidden cards dealt again
for every play-out. So the analysis of the saved game gives the same best move and margin as the hint did.

>>> from ginsim import Rules, GameState
>>> hints = Hints(Rules(), deals=8)
>>> state = GameState.deal(Rules(), seed=4)
>>> hints.before(state.view(state.player)).startswith("Hint: ")
True
"""
from __future__ import annotations

import textwrap
from collections.abc import Sequence

from ginsim.core import text
from ginsim.gin.game.actions import Action
from ginsim.gin.game.rules import Rules
from ginsim.gin.game.strategies import View
from ginsim.gin.review.analysis import DEFAULT_DEALS, OptionValue, Verdict, analyze, decide, summarize_analysis
from ginsim.gin.review.analysis_text import decision_line, hand_summary_lines
from ginsim.gin.review.replay import GameRecord, HandRecord, Position

__all__ = ["Hints", "option_words"]


def option_words(choice: str, kind: str) -> str:
    """An option in words: ``take the upcard``, ``draw from the stock``, ``discard KD``, ``knock with KD``.

    >>> option_words("pile", "draw"), option_words("knock KD", "discard"), option_words("KD", "discard")
    ('take the top of the pile', 'knock with KD', 'discard KD')
    """
    words = {("offer", "take"): "take the upcard", ("offer", "pass"): "pass",
             ("draw", "pile"): "take the top of the pile", ("draw", "stock"): "draw from the stock"}
    if (kind, choice) in words:
        return words[(kind, choice)]
    if choice == "big gin":
        return "go big gin"
    verb, _, card = choice.rpartition(" ")
    return f"{verb} with {card}" if verb in ("knock", "gin") else f"discard {card}"


class Hints:
    """What ``ginsim play --hints`` tells a player: ``deals`` play-outs per option (the two leading
    ones on up to four times more while the best is not clear), the deals drawn from ``seed`` (the
    default of ``ginsim analyze``, so that the analysis of the saved game gives the verdicts the hints
    gave); ``symbols`` writes suits as symbols."""

    def __init__(self, rules: Rules, deals: int = DEFAULT_DEALS, seed: int = 0, symbols: bool = False,
                 workers: int | None = None) -> None:
        self.rules, self.deals, self.seed, self.symbols, self.workers = rules, deals, seed, symbols, workers
        self.verdict: Verdict | None = None
        """The verdict on the last decision hinted at."""

    def options(self, view: View, took: int = 0, passed: int = 0, discarded: tuple[int, int] = (0, 0),
                ever_taken: tuple[int, int] = (0, 0)) -> list[OptionValue]:
        """Every option of the decision ``view`` shows, valued from it, best first (the other
        arguments say what a view does not: see :meth:`Position.of_view
        <ginsim.gin.review.replay.Position.of_view>`)."""
        state = Position.of_view(view, took, passed, discarded, ever_taken).state(self.rules)
        self.verdict = decide(state, self.deals, seed=self.seed, workers=self.workers)
        return list(self.verdict.options)

    def before(self, view: View, took: int = 0, passed: int = 0, discarded: tuple[int, int] = (0, 0),
               ever_taken: tuple[int, int] = (0, 0)) -> str:
        """The hint before a decision: the best option and what it is worth over the next best, with
        the 95% interval of that margin; a close call when the margin is not resolved."""
        options = self.options(view, took, passed, discarded, ever_taken)
        assert self.verdict is not None
        verdict = self.verdict
        kind = "discard" if view.drawn_card >= 0 else "offer" if view.turns == 0 else "draw"
        best, runner = (option_words(option.choice, kind) for option in options[:2])
        margin = f"{verdict.margin:.1f} [{verdict.low:.1f}, {verdict.high:.1f}]"
        if verdict.close:
            line = f"Hint: a close call, {best} or {runner} ({options[0].mean:+.1f} points on average, {margin} apart)"
        else:
            line = f"Hint: {best} ({options[0].mean:+.1f} points on average, {margin} more than {runner})"
        return self._shown(line)

    def knock(self, card: int) -> str | None:
        """At the knock question after discarding ``card``: going out (knock, or gin when it is gin)
        against playing on, from the deals of the discard just hinted at (None when its options do not
        hold both)."""
        options = {option.action: option for option in self.verdict.options} if self.verdict is not None else {}
        out, on = options.get(Action.knock(card)), options.get(Action.discard(card))
        if self.verdict is None or out is None or on is None:
            return None
        word = "go gin" if out.choice.startswith("gin") else "knock"
        margin, low, high = self.verdict.difference(out.action, on.action)
        if not (low > 0 or high < 0):
            line = (f"Hint: a close call, {word} or play on ({margin:+.1f} [{low:+.1f}, {high:+.1f}] points for "
                    "going out)")
        else:
            better = f"{word} ({margin:.1f} [{low:.1f}, {high:.1f}]" if margin > 0 else \
                f"play on ({-margin:.1f} [{-high:.1f}, {-low:.1f}]"
            line = f"Hint: {better} points better on average)"
        return self._shown(line)

    def goes_out(self, card: int) -> bool | None:
        """At the knock question after discarding ``card``: whether going out (knock, or gin) is worth
        more on average than playing on, from the deals of the discard just hinted at (the answer
        ``ginsim play --hints`` gives Enter); None when its options do not hold both."""
        options = {option.action: option for option in self.verdict.options} if self.verdict is not None else {}
        out, on = options.get(Action.knock(card)), options.get(Action.discard(card))
        if out is None or on is None:
            return None
        return out.mean > on.mean

    def _shown(self, line: str) -> str:
        """A hint as printed: within 80 columns, its further lines indented, suits as symbols if asked."""
        line = textwrap.fill(line, 80, subsequent_indent=" " * 6)
        return text.with_symbols(line) if self.symbols else line

    def after(self, hand: HandRecord, names: Sequence[str], player: int) -> list[str]:
        """That hand's analysis for ``player``: each decision where another option was better, with
        the best option, the loss and any mark, then the player's error rate and luck. The hints
        before the decisions came from the same deals."""
        record = GameRecord(self.rules, (names[0], names[1]), (hand,))
        table = analyze(record, player=player, deals=self.deals, seed=self.seed, workers=self.workers)
        worse = table[table["action"] != table["best_action"]]
        lines = [f"Analysis of the hand: {len(table) - len(worse)} of your {len(table)} decisions were the best"
                 + (":" if len(worse) else ".")]
        for row in worse.itertuples():
            lines += decision_line(row, names, symbols=self.symbols)
        lines += hand_summary_lines(summarize_analysis(table), hand.hand, names, equity=False)
        return lines
