"""An analysed game as text: each hand's decisions with their best option, loss and mark, then the
errors, luck and results of each player, hand by hand and over the game (``ginsim analyze``).

>>> from ginsim import Rules, play_hand
>>> from ginsim.gin.review.analysis import analyze
>>> from ginsim.gin.review.replay import GameRecord
>>> record = GameRecord.of_hand(play_hand(Rules(), "random,greedy", seed=2, index=0))
>>> text = analysis_text(analyze(record, deals=8), record)
>>> text.splitlines()[0]
'Analysis of a hand under standard rules: player 0 random, player 1 greedy'
"""
from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any, Final

import pandas as pd

import gincore
from ginsim.core import text
from ginsim.gin.game.players import shown_name
from ginsim.gin.review.analysis import EQUITY_MARKS, MARKS, summarize_analysis
from ginsim.gin.review.replay import GameRecord, HandRecord

__all__ = ["MARK_WORDS", "analysis_text", "decision_line", "hand_summary_lines"]

MARK_WORDS: Final = {"?!": "dubious", "?": "mistake", "??": "blunder"}


def _number(value: float, equity: bool) -> str:
    return f"{value:+.3f}" if equity else f"{value:+.1f}"


def _cards(line: str, symbols: bool) -> str:
    return text.with_symbols(line) if symbols else line


def _fit(line: str, indent: int) -> list[str]:
    """``line`` within 80 columns, its further lines indented by ``indent`` ("close call" and the luck
    of a draw kept whole)."""
    if len(line) <= 80:
        return [line]
    kept = line.replace("close call", "close\0call").replace("luck of the draw ", "luck\0of\0the\0draw\0")
    return [part.replace("\0", " ") for part in textwrap.wrap(kept, 80, subsequent_indent=" " * indent)]


def decision_line(row: Any, names: Sequence[str], equity: bool = False, symbols: bool = False,
                  options: int = 0) -> list[str]:
    """One decision of an analysis table (a row, as ``itertuples`` gives it): who, what was chosen,
    the best option and the loss with its interval and mark; then up to ``options`` options with
    their values."""
    what = {"offer": "upcard", "draw": "draw", "discard": "discard"}[row.kind]
    chosen = row.choice or "-"
    luck = "" if pd.isna(row.luck) else f"  (luck of the draw {_number(row.luck, equity)})"
    if row.choice and row.action != row.best_action:
        verdict = (f"best {row.best}, loss {abs(row.loss):.3f}" if equity else
                   f"best {row.best}, loss {row.loss:.1f}") + \
            f" [{row.loss_low:.{3 if equity else 1}f}, {row.loss_high:.{3 if equity else 1}f}]"
        verdict += f" {row.mark}" if row.mark else ""
    elif row.choice:
        verdict = "best"
    else:
        verdict = f"best {row.best}"
    if getattr(row, "close", False):
        verdict += ", close call"
    lines = [_cards(line, symbols) for line in
             _fit(f"  {row.step:3d}. {names[row.player]:<10} {what:<8} {chosen:<9} {verdict}{luck}", 36)]
    for option in row.options[:options]:
        half = (option["high"] - option["low"]) / 2
        value = f"{option['mean']:.3f} ± {half:.3f}" if equity else f"{option['mean']:+.1f} ± {half:.1f}"
        lines.append(_cards(f"         {option['choice']:<12} {value}", symbols))
    return lines


def hand_summary_lines(summary: pd.DataFrame, hand: Any, names: Sequence[str], equity: bool) -> list[str]:
    """Each analysed player's line of one hand (or ``"game"``) of :func:`summarize_analysis`'s table."""
    lines = []
    unit = "" if equity else " points"
    for row in summary[summary["hand"] == hand].itertuples():
        marks = ", ".join(f"{int(getattr(row, field))} {word}{'s' if getattr(row, field) != 1 else ''}"
                          for field, word in (("blunders", "blunder"), ("mistakes", "mistake"),
                                              ("dubious", "dubious")) if getattr(row, field))
        rate = "-" if pd.isna(row.error_rate) else f"{row.error_rate:.{3 if equity else 2}f}"
        rating = "-" if pd.isna(row.rating) else f"{row.rating:.0f}"
        line = (f"  {names[row.player]:<10} {row.decisions} decisions, error rate {rate}{unit}, rating {rating}"
                f"{'; ' + marks if marks else ''}; result {_number(row.result, equity)}, expected at the "
                f"deal {_number(row.expected, equity)}, luck {_number(row.luck, equity)}")
        lines += _fit(line, 13)
    return lines


def _hand_header(hand: HandRecord, names: Sequence[str], symbols: bool) -> str:
    scores = f"; scores {hand.scores[0]}-{hand.scores[1]}" if hand.scores is not None else ""
    upcard = text.card(hand.upcard, symbols)
    return f"Hand {hand.hand}: {text.subject(names[hand.dealer], 'deals')}, upcard {upcard}{scores}"


def _hand_end(hand: HandRecord, names: Sequence[str]) -> str:
    result = hand.result
    if result is None:
        return "  (the record ends before the hand does)"
    if result.winner < 0:
        return "  The hand is drawn."
    outcome = result.outcome.replace("_", " ").capitalize()
    return f"  {outcome}: {text.subject(names[result.winner], 'scores')} {result.points}."


def analysis_text(table: pd.DataFrame, record: GameRecord, symbols: bool = False, options: int = 0) -> str:
    """The analysis ``table`` (of :func:`~ginsim.gin.review.analysis.analyze`) of ``record`` as text: a line
    per decision (with ``options`` options each), each hand's summary, the game's."""
    names = [shown_name(name) if name else f"player {seat}" for seat, name in enumerate(record.players)]
    equity = bool(table.attrs.get("equity"))
    count = len(record.hands)
    game = count > 1 or record.totals is not None
    what = "a position" if record.position is not None else \
        f"a game of {count} hand{'s' if count != 1 else ''}" if game else "a hand"
    # A position written by hand leaves the players unnamed: "player 0 player 0" says nothing.
    seats = ", ".join(f"player {seat} {name}" for seat, name in enumerate(names) if name != f"player {seat}")
    lines = _fit(f"Analysis of {what} under {record.rules.label()}" + (f": {seats}" if seats else ""), 2)
    marks = EQUITY_MARKS if equity else MARKS
    unit = "chances to win the game" if equity else "points"
    lines += _fit(f"Values in {unit} for the player to move; loss [95% interval], marked ?! from a loss of "
                  f"{marks[0]:g}, ? from {marks[1]:g}, ?? from {marks[2]:g} where the loss is real; close call: the "
                  f"best option's lead is not resolved", 2)
    summary = summarize_analysis(table) if table.attrs.get("hands") else None
    rows = list(table.itertuples())
    if record.position is not None:
        position = record.position
        lines.append(_cards(f"Position: {names[position.player]} holds {gincore.format_cards(position.hand)}; "
                            f"pile {' '.join(gincore.card_text(card) for card in position.pile)}", symbols))
        for row in rows:
            lines += decision_line(row, names, equity, symbols, max(options, 3))
        return "\n".join(lines)
    for hand in record.hands:
        lines.append("")
        lines.append(_hand_header(hand, names, symbols))
        for row in rows:
            if row.hand == hand.hand:
                lines += decision_line(row, names, equity, symbols, options)
        lines.append(_hand_end(hand, names))
        if summary is not None:
            lines += hand_summary_lines(summary, hand.hand, names, equity)
    if summary is not None and game:
        lines += ["", "Game:"] + hand_summary_lines(summary, "game", names, equity)
    return "\n".join(lines)
