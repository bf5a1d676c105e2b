"""Hints while playing (``ginsim play --hints``): before each decision, the best option and its margin
over the next best; after each hand, that hand's analysis.

Both come from :mod:`ginsim.gin.review.analysis`, from the player's own information only: the position a
player's :class:`~ginsim.gin.game.strategies.View` shows (:meth:`Position.of_view
<ginsim.gin.review.record.Position.of_view>`), its hidden cards dealt again for every play-out.

>>> from ginsim import Rules, GameState
>>> hints = Hints(Rules(), deals=8)
>>> state = GameState.deal(Rules(), seed=4)
>>> hints.before(state.view(state.player)).startswith("Hint: ")
True
"""
from __future__ import annotations

from collections.abc import Sequence

from ginsim import text
from ginsim.gin.game.rules import Rules
from ginsim.gin.game.strategies import View
from ginsim.gin.review.analysis import DEFAULT_DEALS, OptionValue, analyze, evaluate_options, summarize_analysis
from ginsim.gin.review.analysis_text import decision_line, hand_summary_lines
from ginsim.gin.review.record import GameRecord, HandRecord, Position

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
    """What ``ginsim play --hints`` tells a player: ``deals`` play-outs per option, the deals drawn
    from ``seed`` (the default of ``ginsim analyze``, so that the analysis of the saved game shows the
    values the hints came from); ``symbols`` writes suits as symbols."""

    def __init__(self, rules: Rules, deals: int = DEFAULT_DEALS, seed: int = 0, symbols: bool = False,
                 workers: int | None = None) -> None:
        self.rules, self.deals, self.seed, self.symbols, self.workers = rules, deals, seed, symbols, workers
        self.last: list[OptionValue] = []
        """The options of the last decision hinted at, best first."""

    def options(self, view: View, took: int = 0, passed: int = 0, discarded: tuple[int, int] = (0, 0),
                ever_taken: tuple[int, int] = (0, 0)) -> list[OptionValue]:
        """Every option of the decision ``view`` shows, valued from it, best first (the other
        arguments say what a view does not: see :meth:`Position.of_view
        <ginsim.gin.review.record.Position.of_view>`)."""
        state = Position.of_view(view, took, passed, discarded, ever_taken).state(self.rules)
        self.last = evaluate_options(state, self.deals, seed=self.seed, workers=self.workers)
        return self.last

    def before(self, view: View, took: int = 0, passed: int = 0, discarded: tuple[int, int] = (0, 0),
               ever_taken: tuple[int, int] = (0, 0)) -> str:
        """The hint before a decision: the best option and what it is worth over the next best."""
        options = self.options(view, took, passed, discarded, ever_taken)
        kind = "discard" if view.drawn_card >= 0 else "offer" if view.turns == 0 else "draw"
        best, runner = options[0], options[1]
        line = (f"Hint: {option_words(best.choice, kind)} ({best.mean:+.1f} points on average, "
                f"{best.mean - runner.mean:.1f} more than {option_words(runner.choice, kind)})")
        return text.with_symbols(line) if self.symbols else line

    def knock(self, card: int) -> str | None:
        """At the knock question after discarding ``card``: knocking against playing on, from the
        options of the discard just hinted at (None when they do not hold both)."""
        values = {option.choice: option.mean for option in self.last}
        name = text.card(card)
        going_out = values.get(f"knock {name}", values.get(f"gin {name}"))
        if going_out is None or name not in values:
            return None
        margin = going_out - values[name]
        line = f"Hint: {'knock' if margin >= 0 else 'play on'} ({abs(margin):.1f} points better on average)"
        return text.with_symbols(line) if self.symbols else line

    def after(self, hand: HandRecord, names: Sequence[str], player: int) -> list[str]:
        """That hand's analysis for ``player``: each decision where another option was better, with
        the best option, the loss and any mark, then the player's error rate and luck. The hints
        before the decisions came from the same deals."""
        record = GameRecord(self.rules, (names[0], names[1]), (hand,))
        table = analyze(record, player=player, deals=self.deals, seed=self.seed, workers=self.workers)
        worse = table[table["choice"] != table["best"]]
        lines = [f"Analysis of the hand: {len(table) - len(worse)} of your {len(table)} decisions were the best"
                 + (":" if len(worse) else ".")]
        for row in worse.itertuples():
            lines += decision_line(row, names, symbols=self.symbols)
        lines += hand_summary_lines(summarize_analysis(table), hand.hand, names, equity=False)
        return lines
