"""The groups a run of Gin hands is summarised by, and each hand's (or count cell's) value of them.

A group is either a property of the deal, the same hand ``i`` under any rules and players (``upcard``,
``upcard_rank``, ``upcard_suit``, ``dealer``, and ``first``: the player offered the upcard first, the
non-dealer), of the rules (``knock_limit``), or of the play (``winner``, ``knocker``: who knocked or
went gin, and ``turn``: the draw on which the hand ended, in bins of :data:`TURN_BIN`). A hand with no
winner or no knocker (a drawn hand) has -1 there.

Every group but ``turn`` is a function of the (dealer, upcard, outcome, winner) cell that
:class:`~ginsim.gin.studies.summary.Counts` keeps, so streamed runs are grouped by them as records are;
``turn`` needs a record per hand.

>>> turn_bins([0, 4, 5, 17, 40, 90]).tolist()
['0-4', '0-4', '5-9', '15-19', '40+', '40+']
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import pandas as pd

from gincore import RANKS, SUITS, card_text
from ginsim.gin.game.hand import Outcome

__all__ = ["DEAL_GROUPS", "GROUPS", "LAST_TURN", "PLAY_GROUPS", "TURN_BIN", "TURN_BINS", "group_columns", "knocker_of",
           "turn_bins"]

GROUPS: Final = ("upcard", "upcard_rank", "upcard_suit", "knock_limit", "dealer", "first", "winner", "knocker", "turn")
"""The columns a hands summary can be grouped by (one, several, or none for the whole run)."""
DEAL_GROUPS: Final = ("upcard", "upcard_rank", "upcard_suit", "dealer", "first")
"""Groups that are properties of the deal, so that hand ``i`` is in the same group in every run of a seed."""
PLAY_GROUPS: Final = ("winner", "knocker", "turn")
"""Groups the play decides, in which two runs of a seed may put hand ``i`` in different ones, so that runs
grouped by them are compared as independent samples."""
TURN_BIN: Final = 5
"""Draws per bin of ``turn``."""
LAST_TURN: Final = 40
"""The first draw of the last, open bin of ``turn`` (few hands last longer)."""
TURN_BINS: Final = (*(f"{low}-{low + TURN_BIN - 1}" for low in range(0, LAST_TURN, TURN_BIN)), f"{LAST_TURN}+")
"""The bins of ``turn``, in order."""

_OUTCOMES: Final = tuple(Outcome)
"""The outcomes in the order of their codes (the records' categories)."""
_KNOCKED: Final = tuple(_OUTCOMES.index(outcome) for outcome in (Outcome.KNOCK, Outcome.GIN, Outcome.BIG_GIN))
_UNDERCUT: Final = _OUTCOMES.index(Outcome.UNDERCUT)


def turn_bins(turns: Sequence[int] | np.ndarray) -> pd.Categorical[Any]:
    """The ``turn`` bin of each hand from its number of draws."""
    codes = np.minimum(np.asarray(turns, np.int64), LAST_TURN) // TURN_BIN
    return pd.Categorical.from_codes(codes, categories=pd.Index(TURN_BINS), ordered=True)


def knocker_of(outcome: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """Who knocked or went gin, from the outcome code and the winner: the winner but after an undercut,
    the loser then; -1 for a drawn hand."""
    knocked = np.isin(outcome, _KNOCKED)
    return np.where(knocked, winner, np.where(outcome == _UNDERCUT, 1 - winner, -1))


def group_columns(dealer: np.ndarray, upcard: np.ndarray, knock_limit: np.ndarray, winner: np.ndarray,
                  knocker: np.ndarray, turns: np.ndarray | None = None) -> dict[str, object]:
    """Every group's column for hands (or count cells) with these dealers, upcards (card indices), knock
    limits, winners and knockers (and draws, for ``turn``).

    >>> columns = group_columns(np.array([0]), np.array([51]), np.array([10]), np.array([1]), np.array([0]),
    ...                         np.array([12]))
    >>> [(name, str(np.asarray(value)[0])) for name, value in columns.items()]  # doctest: +NORMALIZE_WHITESPACE
    [('upcard', 'KS'), ('upcard_rank', 'K'), ('upcard_suit', 'S'), ('knock_limit', '10'), ('dealer', '0'),
     ('first', '1'), ('winner', '1'), ('knocker', '0'), ('turn', '10-14')]
    """
    upcard = np.asarray(upcard, np.int64)
    cards = [card_text(card) for card in range(52)]
    columns: dict[str, object] = {
        "upcard": pd.Categorical.from_codes(upcard, categories=pd.Index(cards), ordered=True),
        "upcard_rank": pd.Categorical.from_codes(upcard % 13, categories=pd.Index(list(RANKS)), ordered=True),
        "upcard_suit": pd.Categorical.from_codes(upcard // 13, categories=pd.Index(list(SUITS)), ordered=True),
        "knock_limit": np.asarray(knock_limit, np.int64),
        "dealer": np.asarray(dealer, np.int64),
        "first": 1 - np.asarray(dealer, np.int64),
        "winner": np.asarray(winner, np.int64),
        "knocker": np.asarray(knocker, np.int64),
    }
    if turns is not None:
        columns["turn"] = turn_bins(turns)
    return columns
