"""Strategies: the native ones by name, and the ``Strategy`` protocol for players written in Python.

Native strategies are played inside ``gincore`` without the GIL; a name may carry parameters
(``threshold(knock_at=5)``, or ``threshold:5`` for short; they are declared in :mod:`ginsim.gin.game.specs`).
Any object with the methods of :class:`Strategy` plays through
the same hand loop on a slower path that calls it with a read-only :class:`View` of what its player
may see — never the opponent's hand or the stock.

>>> describe("gin")
'Never knocks: plays on until gin (threshold:0).'

This module is the authoring API of Python strategies. A player, built-in or Python, is made a
:class:`~ginsim.gin.game.players.Player` by :mod:`ginsim.gin.game.players`; a Python strategy is loaded
from its text and identified by :mod:`ginsim.gin.game.origins`, and called from the engine through
:mod:`ginsim.gin.game.adapter`.

A Python strategy, worked through (it plays like the EAAI baseline but never knocks above 5):

>>> from ginsim import Rules, simulate
>>> class CarefulKnocker(Strategy):
...     name = "careful"
...     def discard(self, view):
...         return min(view.discard_options(), key=lambda card: (view.deadwood_after(card), -card))
...     def knock(self, view):
...         return view.deadwood <= 5
>>> records = simulate(Rules(), [CarefulKnocker(), "simple"], hands=20, seed=1, workers=1)
>>> set(records.loc[records["knocker"] == 0, "knocker_deadwood"]) <= set(range(6))
True
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import gincore
from gincore.errors import StrategyError
from ginsim.gin.game.specs import SPECS, STRATEGIES, Parameter, StrategySpec, describe

__all__ = [
    "SPECS",
    "STRATEGIES",
    "Parameter",
    "Strategy",
    "StrategyError",
    "StrategyProtocol",
    "StrategySpec",
    "View",
    "describe",
    "in_some_meld",
]

@dataclass(frozen=True)
class View:
    """What one player may see at a decision, read-only.

    ``hand`` is the player's hand as a card mask (11 cards when discarding, 10 cards when asked
    whether to knock with them); ``discard_pile`` lists the face-up pile bottom first, with
    ``discarded_by`` (-1 for the upcard); ``opponent_took`` holds the cards the opponent took from
    the pile and still holds; ``opponent_passed`` the face-up cards it refused; ``drawn_card`` is
    the card just drawn (-1 before drawing), ``drawn_from_pile`` whether it came from the pile.
    """

    player: int
    hand: int
    discard_pile: tuple[int, ...]
    discarded_by: tuple[int, ...]
    opponent_took: int
    opponent_passed: int
    stock_size: int
    knock_limit: int
    multiplier: int
    dealer: int
    upcard: int
    turns: int
    drawn_card: int
    drawn_from_pile: bool
    hand_index: int
    scores: tuple[int, int]

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> View:
        """The view of the native loop's state, a mapping keyed by this class's field names."""
        return cls(**state)

    @property
    def cards(self) -> list[int]:
        """The player's cards, ascending."""
        return gincore.cards_of(self.hand)

    @property
    def top(self) -> int:
        """The face-up card on the discard pile (-1 when the pile is empty)."""
        return self.discard_pile[-1] if self.discard_pile else -1

    @property
    def deadwood(self) -> int:
        """The least deadwood of the hand as it is."""
        return gincore.deadwood(self.hand)

    def deadwood_after(self, card: int) -> int:
        """The least deadwood of the hand without ``card``."""
        return gincore.deadwood(self.hand & ~(1 << card))

    def discard_options(self) -> list[int]:
        """The cards that may be discarded now (all but a card just taken from the pile)."""
        return [card for card in self.cards if not (self.drawn_from_pile and card == self.drawn_card)]


@runtime_checkable
class StrategyProtocol(Protocol):
    """What the hand loop asks a Python strategy; each method gets the player's :class:`View`."""

    def take_upcard(self, view: View) -> bool: ...
    def take_discard(self, view: View) -> bool: ...
    def discard(self, view: View) -> int: ...
    def knock(self, view: View) -> bool: ...
    def big_gin(self, view: View) -> bool: ...


class Strategy:
    """A base class for Python strategies: override ``discard`` at least.

    ``take_upcard`` (the first-turn offer) defaults to ``take_discard``, which takes a face-up card
    iff it is part of some meld of the hand plus it (as the native ``simple`` does; see
    ``in_some_meld``); ``knock`` (asked only when knocking is legal) and ``big_gin`` (asked only
    when possible) default to yes. ``name`` appears in records and error messages.
    ``takes_back_discards = False`` has the hand loop refuse, without asking, a face-up card the player
    discarded itself earlier in the hand (which rules out endless cycles of taking back).

    The arguments an instance is built with are kept (a hash of them is part of a stored run's
    identity), so that two instances of one class built differently are never taken for one another.
    """

    name = "python"
    takes_back_discards = True
    _built_with: tuple[tuple[Any, ...], dict[str, Any]]

    def __new__(cls, *args: Any, **kwargs: Any) -> Strategy:
        if (args or kwargs) and cls.__init__ is object.__init__:
            raise TypeError(f"{cls.__name__}() takes no arguments")
        strategy = super().__new__(cls)
        strategy._built_with = (args, kwargs)
        return strategy

    def take_upcard(self, view: View) -> bool:
        return self.take_discard(view)

    def take_discard(self, view: View) -> bool:
        card = view.top
        return card >= 0 and in_some_meld(view.hand | 1 << card, card)

    def discard(self, view: View) -> int:
        raise NotImplementedError(f"{type(self).__name__} must define discard(view) -> card index")

    def knock(self, view: View) -> bool:
        return True

    def big_gin(self, view: View) -> bool:
        return True


def in_some_meld(hand: int, card: int) -> bool:
    """Whether ``card`` (held in ``hand``) is part of at least one meld of ``hand``'s cards: two more of
    its rank, or a block of three or more consecutive ranks of its suit through it.

    >>> in_some_meld(gincore.parse_cards("7H 8H 9H KS KD"), 2 * 13 + 7)   # 8H in 7H 8H 9H
    True
    >>> in_some_meld(gincore.parse_cards("7H 9H KS KD 2C 2D"), 2 * 13 + 6)
    False
    """
    rank, suit = card % 13, card // 13
    if sum(hand >> (13 * other + rank) & 1 for other in range(4)) >= 3:
        return True
    low = high = rank
    while low > 0 and hand >> (13 * suit + low - 1) & 1:
        low -= 1
    while high < 12 and hand >> (13 * suit + high + 1) & 1:
        high += 1
    return high - low >= 2
